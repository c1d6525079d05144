"""Kit files (docs/design.md §2.5): YAML naming an edition, deck, layout, language, seed
and options. The built-in kits are such files."""

import importlib.resources
import re
from pathlib import Path

from kitgen import yamlio
from kitgen.errors import KitgenError
from kitgen.games.codenames import decks, picture_decks, texts
from kitgen.games.codenames.editions import EDITIONS
from kitgen.games.codenames.model import Kit, RuleSwitches
from kitgen.names import slug, unprintable
from kitgen.render.sheet import DUPLEX_MODES

KIT_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,15}")
KEYS = {"id", "name", "edition", "deck", "layout", "language", "seed", "keys", "cards", "paper", "duplex", "rules",
        "verify_url"}
VERIFY_URL = re.compile(r"https?://[!-~]{1,200}")
RULE_KEYS = {"plus_one", "zero_clue", "unlimited_clue", "invalid_clue_penalty", "restrictions"}
PLUS_ONE = ("standard", "earned", "none")
MAX_KEYS = 100_000
MAX_CARDS = 5_000             # codename cards in one kit; a larger deck prints a selection (cards: N)
DEFAULT_KIT = "classic-en"
BUILTIN_KITS = {"words": "classic-en", "pictures": "classic-pictures", "duet": "classic-duet"}


def builtin_path(name: str = DEFAULT_KIT) -> Path:
    return Path(str(importlib.resources.files("kitgen.games.codenames"))) / "kits" / f"{name}.yaml"


def kit_path(kit_file: str | None, edition: str | None, language: str | None = None) -> Path | None:
    """The kit file to load: the one given, else the built-in kit of the edition
    (for the words and duet editions, in the language asked for when there is one)."""
    if kit_file:
        if edition:
            raise KitgenError("give a kit file or --edition, not both (the kit file names its edition)")
        return Path(kit_file)
    if language and (edition or "words") == "words" and builtin_path(f"classic-{language}").exists():
        return builtin_path(f"classic-{language}")
    if language and edition == "duet" and builtin_path(f"classic-duet-{language}").exists():
        return builtin_path(f"classic-duet-{language}")
    return builtin_path(BUILTIN_KITS[edition or "words"])


def load(path: Path | None = None, *, deck: str | None = None, seed: str | None = None,
         keys: int | None = None, paper: str | None = None, duplex: str | None = None,
         layout: str | None = None, strict: bool = True, language: str | None = None,
         ink: str | None = None, colour: str | None = None, print_options: dict | None = None) -> Kit:
    """Load a kit file (the built-in English kit when ``path`` is None) and apply
    command-line overrides; all checks happen here, before anything is drawn.
    ``strict=False`` lets a deck with duplicate words through, for a proof."""
    path = Path(path) if path else builtin_path()
    data, lines = yamlio.load(path)
    src = str(path)

    def fail(message, key=None):
        raise KitgenError(message, source=src, line=lines.get((key,)) if key else None)

    if not isinstance(data, dict):
        fail("a kit file is a mapping of keys (id, edition, deck, seed, ...)")
    if "game" in data:
        if data["game"] != "codenames":
            fail(f"is a kit of the game {data['game']!r}, not a Codenames kit; kitgen build builds it", "game")
        data = {k: v for k, v in data.items() if k != "game"}
    for key in data:
        if key not in KEYS:
            fail(f"unknown key {key!r}; a kit file has {', '.join(sorted(KEYS))}", key)

    def text(key, default=None):
        value = data.get(key, default)
        if value is not None and not isinstance(value, str):
            fail(f"{key} must be text", key)
        return value

    edition_name = text("edition", "words")
    if edition_name not in EDITIONS:
        fail(f"unknown edition {edition_name!r}; use one of {', '.join(EDITIONS)}", "edition")
    edition = EDITIONS[edition_name]
    if edition.cooperative and "rules" in data:
        fail("the duet edition's rules have no switches; remove rules", "rules")

    def load_deck(name: str, relative_to: Path | None):
        if edition.name == "pictures":
            return picture_decks.load(name, relative_to=relative_to)
        return decks.load(name, relative_to=relative_to, language=text("language"), strict=strict)

    # a built-in kit with another deck: the deck gives the kit its id, name and language
    from_deck = deck is not None and path.parent == builtin_path().parent
    if deck is not None:
        the_deck = load_deck(deck, None)
    else:
        if "deck" not in data:
            fail("the kit names no deck; add deck: <file or built-in name>")
        try:
            the_deck = load_deck(text("deck"), path)
        except KitgenError as err:
            if err.source is None:
                fail(err.message, "deck")
            raise
    if text("name") and (problem := unprintable(text("name"), "the kit's name")):
        fail(problem, "name")
    kit_id = slug(Path(deck).stem) if from_deck else (text("id") or slug(path.stem))
    if not KIT_ID.fullmatch(kit_id):
        fail(f"kit id {kit_id!r} must be 1-16 lower-case letters, digits or '-'", "id")
    known = texts.languages()
    if language is not None and language not in known:
        raise KitgenError(f"unknown --lang {language!r}; known languages: {', '.join(known)}")
    language = language or (the_deck.language if from_deck else (text("language") or the_deck.language))
    if language not in known:
        fail(f"no messages for language {language!r}; known languages: {', '.join(known)}",
             None if from_deck else "language")

    def integer(key, override, default, low, high):
        value = override if override is not None else data.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            where = f"--{key}" if override is not None else key
            raise KitgenError(f"{where} must be a whole number from {low} to {high}, not {value!r}",
                              source=None if override is not None else src,
                              line=None if override is not None else lines.get((key,)))
        return value

    key_count = integer("keys", keys, edition.default_keys, 1, MAX_KEYS)
    cards = None if from_deck else integer("cards", None, None, 1, MAX_CARDS)
    would_print = cards or (len(the_deck.words) + 1) // 2
    if would_print > MAX_CARDS:
        raise KitgenError(f"has {len(the_deck.words):,} entries, which would make {would_print:,} codename cards; "
                          f"a kit prints at most {MAX_CARDS:,}: use a kit file with cards: N to print a selection",
                          source=the_deck.source)
    if cards is not None and cards > (len(the_deck.words) + 1) // 2:
        what = "pictures" if edition.name == "pictures" else "words"
        fail(f"asks for {cards} codename cards, but the deck's {len(the_deck.words)} {what} fill only "
             f"{(len(the_deck.words) + 1) // 2}; lower cards or add {what}", "cards")
    duplex_mode = duplex or text("duplex", "long")
    if duplex_mode not in DUPLEX_MODES:
        fail(f"duplex must be one of {', '.join(DUPLEX_MODES)}, not {duplex_mode!r}", "duplex")
    the_seed = seed if seed is not None else text("seed", f"kitgen:{kit_id}")
    if not the_seed:
        raise KitgenError("the seed is empty; give --seed TEXT or a seed in the kit file")

    def origin(key: str, override) -> str:
        if override is not None:
            return f"--{key}"
        return f"{src}:{lines[(key,)]}" if (key,) in lines else src

    file_url = _verify_url(text("verify_url"), src, lines.get(("verify_url",)))
    verify_url = _verify_url((print_options or {}).get("verify_url"), "--verify-url") or file_url
    return Kit(
        id=kit_id,
        name=the_deck.name if from_deck else (text("name") or the_deck.name),
        edition=edition,
        deck=the_deck,
        layout_name=layout or _layout_path(text("layout", edition.default_layout), path),
        language=language,
        seed=the_seed,
        keys=key_count,
        cards=cards,
        paper=paper or text("paper", "a4"),
        duplex=duplex_mode,
        rules=_rules(data.get("rules"), src, lines),
        ink=ink or "normal",
        colour=colour or "rgb",
        **{**(print_options or {}), "verify_url": verify_url},
        origins={"paper": origin("paper", paper), "layout": origin("layout", layout),
                 "verify_url": "--verify-url" if verify_url != file_url else origin("verify_url", None)},
    )


def _verify_url(url: str | None, src: str, line: int | None = None) -> str | None:
    """The address of a verify.html the keys' QR codes point to; its fragment is kitgen's."""
    if url is None:
        return None
    if not VERIFY_URL.fullmatch(url) or "#" in url:
        raise KitgenError(f"{url[:60]!r} must be an http(s) address of at most 200 characters, no spaces and no "
                          "'#' (kitgen adds #<key>), like https://example.org/kit/verify.html", source=src, line=line)
    return url


def _layout_path(name: str, kit_path: Path) -> str:
    """A layout file named in a kit file is found beside the kit file."""
    if name.endswith((".yaml", ".yml")) or "/" in name:
        candidate = Path(name)
        return str(candidate if candidate.is_absolute() else kit_path.parent / candidate)
    return name


def _rules(raw, src: str, lines: dict) -> RuleSwitches:
    if raw is None:
        return RuleSwitches()
    line = lines.get(("rules",))
    if not isinstance(raw, dict):
        raise KitgenError("rules must be a mapping of switches", source=src, line=line)
    for key in raw:
        if key not in RULE_KEYS:
            raise KitgenError(f"unknown rule switch {key!r}; known: {', '.join(sorted(RULE_KEYS))}",
                              source=src, line=lines.get(("rules", key), line))
    defaults = RuleSwitches()
    plus_one = raw.get("plus_one", defaults.plus_one)
    if plus_one not in PLUS_ONE:
        raise KitgenError(f"rules.plus_one must be one of {', '.join(PLUS_ONE)}", source=src,
                          line=lines.get(("rules", "plus_one"), line))
    flags = {}
    for key in ("zero_clue", "unlimited_clue", "invalid_clue_penalty"):
        value = raw.get(key, getattr(defaults, key))
        if not isinstance(value, bool):
            raise KitgenError(f"rules.{key} must be true or false", source=src, line=lines.get(("rules", key), line))
        flags[key] = value
    restrictions = raw.get("restrictions", list(defaults.restrictions))
    if not isinstance(restrictions, list) or any(r not in defaults.restrictions for r in restrictions):
        raise KitgenError(f"rules.restrictions lists some of {', '.join(defaults.restrictions)}", source=src,
                          line=lines.get(("rules", "restrictions"), line))
    return RuleSwitches(plus_one=plus_one, restrictions=tuple(restrictions), **flags)
