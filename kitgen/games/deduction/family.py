"""The deduction game's declaration (``kitgen.families.Family``), named by the ``kitgen.games`` entry
point ``deduction`` in pyproject.toml: how a theme file is known, the options it adds to the kernel's
commands, how ``verify`` knows its case slips, and what the server's page offers for it. Plain data;
what runs is in ``runs.py``."""

from dataclasses import replace

from kitgen.families import Family, Option, PageKind

_PLAYERS = Option("players", "Players the setup sheets deal for, 2-5 (default 4).", kind="int", metavar="N", low=2,
                  high=5, cli_checks=False)

FAMILY = Family(
    name="deduction",
    title="deduction",
    summary="detectives for 2-5 players solve crimes on a town board: case and evidence decks, tiles, tokens, "
            "sealed case slips",
    kit_noun="a deduction theme (game: deduction)",
    option_of="an option of the deduction game",
    the_kit="the deduction kit",
    languages=("en", "ru"),
    owns="kitgen.games.deduction.runs:owns",
    claims="kitgen.games.deduction.runs:claims",
    runs={command: f"kitgen.games.deduction.runs:{command}" for command in ("build", "proof", "box", "verify")},
    options={
        "build": (
            replace(_PLAYERS, serve=True),
            Option("board-paper", "The board's paper; on paper smaller than A3 it is cut into pieces (default: "
                                  "--paper).", kind="choice", choices=("a3", "a4", "letter"), metavar="a3|a4|letter",
                   cli_checks=False, serve=True),
        ),
        "proof": (Option("players", "Players the kit is built for, 2-5 (default 4).", kind="int", metavar="N",
                         cli_checks=False),),
        "box": (Option("players", "The players the kit was built for (default 4).", kind="int", metavar="N",
                       cli_checks=False),),
        "verify": (Option("at", "Case slips: what an investigator placed on LOCATION should have received.",
                          metavar="LOCATION", refusal="--at is for case slips of the deduction game"),),
    },
    page=(PageKind("deduction", "The deduction game", (("game", "deduction"),), shows=("paper",)),),
    page_html="""<div data-kind="deduction" hidden>
<label for="players">Players</label>
<input id="players" name="players" type="number" min="2" max="5" inputmode="numeric" placeholder="4">
</div>
""",
)
