"""The kit as plain data: what to build, before anything is drawn."""

from dataclasses import dataclass, field

from kitgen.games.codenames.editions import Edition


@dataclass(frozen=True)
class RuleSwitches:
    """House-rule variants the rules sheet states (docs/design.md §1)."""

    plus_one: str = "standard"          # standard | earned | none
    zero_clue: bool = True
    unlimited_clue: bool = True
    invalid_clue_penalty: bool = True
    restrictions: tuple[str, ...] = ("translation", "abbreviation", "sound_alike", "word_forms", "letters")


@dataclass(frozen=True)
class Kit:
    """Everything a build needs to know, loaded and checked."""

    id: str
    name: str
    edition: Edition
    deck: object                        # a Deck of words or a PictureDeck
    layout_name: str
    language: str
    seed: str
    keys: int
    cards: int | None                   # codename cards to print; None: as many as the words need
    paper: str
    duplex: str
    rules: RuleSwitches = field(default_factory=RuleSwitches)
    ink: str = "normal"                 # normal | saver (outlines, tints and symbols)
    colour: str = "rgb"                 # rgb | cmyk
    per_card: bool = False              # also one face per page, with TrimBox and BleedBox, for print shops
    png_dpi: int | None = None          # also every face as PNG at this resolution
    back_offset: tuple[float, float] = (0.0, 0.0)   # backs moved by this much (points), for duplex misregistration
    cut_lines: bool = False             # full-length cut lines in the margins
    slug: bool = False                  # proof marks: slug line and registration marks
    verify_url: str | None = None       # each key's QR encodes <verify_url>#<payload>: a phone opens the page
    pdfx: object | None = None          # --pdfx: the output profile (render/press.Profile); every PDF PDF/X-1a
    pod: str | None = None              # also the upload of this print-on-demand service (tgc, mpc, dtc)
    campaign: bool = False              # the duet edition: also the campaign sheet (docs/design.md §12)
    origins: dict = field(default_factory=dict, compare=False)   # option -> where it was set ("kit.yaml:7")


def layout_overlays(ink: str, colour: str, cooperative: bool = False) -> tuple[str, ...]:
    """The built-in layouts laid over a kit's layout for its print options (the duet edition's
    green agents have their own ink saver)."""
    saver = ("ink-saver", "duet-ink-saver") if cooperative else ("ink-saver",)
    return (saver if ink == "saver" else ()) + (("cmyk",) if colour == "cmyk" else ())


@dataclass(frozen=True)
class CodenameCard:
    front: object                       # a word (str) or a Picture
    back: object | None                 # None: a deck with an odd count leaves one back blank


@dataclass(frozen=True)
class Tile:
    kind: str                           # red, blue, double, bystander, assassin; green (duet)
    front: str                          # cell type letter shown on the front (R, B, N, A, G)
    back: str
    guess: tuple[str, str] = ("", "")   # a duet bystander: whose guess each face marks (side_a, side_b)


@dataclass(frozen=True)
class TimerToken:
    """The duet edition's turns: one token a turn; ``extra`` tokens make a game easier."""

    extra: bool = False


@dataclass(frozen=True)
class KitContents:
    """The cards of a kit, in print order."""

    codename_cards: tuple[CodenameCard, ...]
    key_cards: tuple                    # KeyCard, or duet_keys.DuetKey
    tiles: tuple[Tile, ...]
    timer_tokens: tuple[TimerToken, ...] = ()
