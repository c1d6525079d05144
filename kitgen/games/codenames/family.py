"""The Codenames family's declaration (``kitgen.families.Family``), named by the ``kitgen.games`` entry
point ``codenames`` in pyproject.toml: its editions, the options it adds to the kernel's commands, its
own commands, and what the server's page offers for it. Plain data; what runs is in ``runs.py`` and
``commands.py``, imported when a command runs."""

from dataclasses import replace
from pathlib import Path

from kitgen.families import Edition, Family, Option, PageKind, ServerField

EDITIONS = (Edition("words", "25 words (5x5); 9, 8 and 7 agents and an assassin"),
            Edition("pictures", "20 pictures (5x4); 8, 7 and 4 agents and an assassin"),
            Edition("duet", "two players together: two-sided keys, timer, campaign"))
_EDITION_NAMES = tuple(e.name for e in EDITIONS)
# the languages of its built-in kits: one a messages file, the first three first (the server's and the help's order)
_FIRST = ("en", "ru", "fa")
LANGUAGES = _FIRST + tuple(sorted(p.stem for p in (Path(__file__).parent / "messages").glob("*.yaml")
                                  if p.stem not in _FIRST))
_DECK = Option("deck", "A words deck: .yaml, .txt (one word per line) or .csv (first column); for pictures, a "
                       "folder of pictures or a YAML picture deck.", kind="path", metavar="PATH")
_KEYS = Option("keys", "Number of key cards (default: 40, pictures 60).", kind="int", metavar="N", low=1,
               high=100_000, cli_checks=False)


def _edition(help_text: str, default=None, serve: bool = False) -> Option:
    return Option("edition", help_text, kind="choice", choices=_EDITION_NAMES, default=default, serve=serve)


_PAGE_HTML = """<div data-kind="words pictures duet">
<label for="keys">Number of key cards</label>
<input id="keys" name="keys" type="number" min="1" max="100000" inputmode="numeric" placeholder="40">
</div>
<div data-kind="sheets" hidden>
<label for="sheet-edition">Games for</label>
<select id="sheet-edition"><option value="words">two teams (the words edition)</option>
<option value="duet">two players together (the duet edition: a key page for each)</option></select>
<label for="count">Number of games</label>
<input id="count" name="count" type="number" min="1" max="1000" inputmode="numeric" placeholder="1">
<label for="format">Format</label>
<select id="format" name="format"><option value="">PDF, to print or project</option>
<option value="html">HTML boards</option><option value="markdown">Markdown boards (forums)</option>
<option value="bbcode">BBCode boards (forums)</option><option value="text">plain text boards (chat)</option></select>
</div>
"""

FAMILY = Family(
    name="codenames",
    title="Codenames",
    summary="two teams of spies find their agents from one-word clues",
    kit_noun="a Codenames kit",
    option_of="a Codenames option",
    the_kit="the Codenames kit",
    default=True,
    editions=EDITIONS,
    languages=LANGUAGES,
    runs={command: f"kitgen.games.codenames.runs:{command}" for command in ("build", "proof", "box", "game",
                                                                             "verify")},
    commands="kitgen.games.codenames.commands:commands",
    options={
        "build": (
            _DECK, replace(_KEYS, serve=True),
            _edition("Without KIT.yaml: build the built-in kit of this edition (default: words; duet: the "
                     "two-player cooperative edition).", serve=True),
            Option("verify-url", "Each key's QR encodes URL#<key>, so a phone's camera opens your copy of "
                                 "verify.html on it (default: the bare key).", metavar="URL"),
            Option("campaign", "Duet edition: also campaign.pdf, a map of missions to win in turn.", kind="flag",
                   serve=True),
        ),
        "proof": (
            Option("deck", "A words deck to proof instead of the kit's.", kind="path", metavar="PATH"),
            Option("keys", "Number of key cards (default: the kit's).", kind="int", metavar="N", cli_checks=False),
            _edition("Without KIT.yaml: proof the built-in kit of this edition (default: words)."),
        ),
        "box": (
            Option("deck", "A words deck, or for pictures a folder or YAML deck, as with build.", kind="path",
                   metavar="PATH"),
            _edition("Without KIT.yaml: the built-in kit of this edition (default: words)."),
            Option("keys", "Key cards the box holds, as built (default: the kit's).", kind="int", metavar="N",
                   cli_checks=False),
        ),
        "game": (
            Option("deck", "Words (.yaml, .txt, .csv) or, for pictures, a folder or YAML deck.", kind="path",
                   metavar="PATH"),
            _edition("duet: the two-player cooperative edition, a key page (or text file) per player.",
                     default="words", serve=True),
            Option("count", "How many games.", kind="int", default=1, low=1, high=1000, serve=True),
            Option("format", "A PDF to print or project, or text boards for a forum or chat.", kind="choice",
                   choices=("pdf", "markdown", "bbcode", "html", "text"), default="pdf", serve=True),
        ),
        "verify": (
            Option("commitment", "A forum game's commitment, posted before the game: check that the key (TARGET, "
                                 "a payload) and --salt are what it committed to.", metavar="HEX"),
            Option("salt", "The salt the host posted with the key after the game.", metavar="SALT"),
            Option("keys", "With --seed: how many keys the deck holds, so that a card whose QR code cannot be read "
                           "is told by its printed grid (--kit gives it).", kind="int", metavar="N", low=1,
                   high=100_000),
            Option("jobs", "PDF pages read at once, by N processes (default: one per core); the report is the "
                           "same for any N.", kind="int", low=1, high=64, metavar="N"),
        ),
    },
    fields=(ServerField("deck", "deck", ("build", "game", "check")),
            ServerField("layout", "layout", ("game", "check")),
            ServerField("words", "pasted", ("build", "game", "check")),
            ServerField("name", "pasted", ("build", "game", "check"))),
    page=(PageKind("words", "A words kit (codename cards with words)", (("edition", "words"),), upload="words",
                   builtin=True, shows=("paper", "check")),
          PageKind("pictures", "A pictures kit (codename cards with pictures)", (("edition", "pictures"),),
                   upload="pictures", builtin=True, shows=("paper", "check")),
          PageKind("duet", "A duet kit (two players together, two-sided keys)", (("edition", "duet"),),
                   upload="words", builtin=True, shows=("paper", "check")),
          PageKind("sheets", "Single-game sheets for a lesson (boards and\ntheir keys)",
                   (("edition", "#sheet-edition"),), upload="words", builtin=True, shows=("check",),
                   command="game")),
    page_html=_PAGE_HTML,
    check=("deck", "check", "--json"),
)
