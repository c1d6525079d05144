"""What goes in a kit, as plain data: codename cards, key cards and tiles (and the duet
edition's timer tokens)."""

from kitgen.games.codenames import key_deck
from kitgen.games.codenames.key_deck import kit_secret
from kitgen.games.codenames.model import CodenameCard, Kit, KitContents, Tile, TimerToken
from kitgen.seeded import Stream

TILE_FACES = {"red": ("R", "R"), "blue": ("B", "B"), "double": ("R", "B"),
              "bystander": ("N", "N"), "assassin": ("A", "A"), "green": ("G", "G")}


def codename_cards(kit: Kit) -> tuple[CodenameCard, ...]:
    """The deck's words (or pictures) in a seeded order, two to a card (front,
    back); a kit that asks for fewer cards than the deck fills takes the first
    of that order."""
    items = list(getattr(kit.deck, "pictures", None) or kit.deck.words)
    words = Stream(kit_secret(kit.seed), "cards/v1").shuffle(items)
    if kit.cards is not None:
        words = words[:2 * kit.cards]
    return tuple(CodenameCard(words[i], words[i + 1] if i + 1 < len(words) else None)
                 for i in range(0, len(words), 2))


def tiles(kit: Kit) -> tuple[Tile, ...]:
    """The edition's tiles; a duet bystander's faces say whose guess found it, A's or B's."""
    guess = ("side_a", "side_b") if kit.edition.cooperative else ("", "")
    return tuple(Tile(kind, *TILE_FACES[kind], guess if kind == "bystander" else ("", ""))
                 for kind, count in kit.edition.tiles().items() for _ in range(count))


def timer_tokens(kit: Kit) -> tuple[TimerToken, ...]:
    """The duet edition's timer tokens: a standard game's, then the extras (none in other editions)."""
    edition = kit.edition
    return (TimerToken(),) * edition.timer_tokens + (TimerToken(extra=True),) * edition.extra_timer_tokens


def key_cards(kit: Kit) -> tuple:
    if kit.edition.cooperative:
        from kitgen.games.codenames import duet_keys

        return tuple(duet_keys.generate(kit.seed, kit.keys))
    return tuple(key_deck.generate(kit.seed, kit.edition, kit.keys))


def build(kit: Kit) -> KitContents:
    return KitContents(codename_cards(kit), key_cards(kit), tiles(kit), timer_tokens(kit))
