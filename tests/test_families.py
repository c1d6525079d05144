"""Game families register themselves (docs/design.md §2.5): a family installed as its own package,
from its own pyproject.toml, appears in ``kitgen --help``, ``kitgen build --help`` and the server's
fields and page, and builds through the command line, with no change to kitgen. The registry
refuses broken declarations in one line, and ``kitgen --help`` names every game and edition."""

import subprocess
import sys
import textwrap
from types import SimpleNamespace

import pypdfium2
import pytest
from click.testing import CliRunner

from kitgen import families
from kitgen.cli import cli
from kitgen.errors import KitgenError

TINY_PYPROJECT = """\
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "kitgen-tiny"
version = "0.1"

[project.entry-points."kitgen.games"]
tiny = "kitgen_tiny:FAMILY"

[tool.setuptools]
packages = ["kitgen_tiny"]
"""

TINY_DECLARATION = '''\
from kitgen.families import Family, Option, PageKind

FAMILY = Family(
    name="tiny", title="tiny", summary="a tiny test game: one die to cut out",
    kit_noun="a tiny kit", option_of="an option of the tiny game", the_kit="the tiny kit",
    languages=("en",), owns="kitgen_tiny.run:owns", runs={"build": "kitgen_tiny.run:build"},
    options={"build": (Option("sides", "Sides of the die.", kind="int", metavar="N", low=2, high=20,
                              serve=True),)},
    page=(PageKind("tiny", "A tiny die", (("game", "tiny"),), shows=("paper",)),),
    page_html='<div data-kind="tiny" hidden><label for="sides">Sides</label>'
              '<input id="sides" name="sides" type="number"></div>\\n',
)
'''

TINY_RUN = '''\
import io
from pathlib import Path

import click
from reportlab.pdfgen import canvas

from kitgen import output


def owns(path):
    return Path(path).read_text().startswith("game: tiny")


def build(request):
    values = request.values
    sides = values["sides"] or 6
    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, invariant=1)
    for side in range(1, sides + 1):
        page.drawString(100, 800 - 20 * side, f"side {side}")
    page.showPage()
    page.save()
    target = Path(values["out_dir"]) / "tiny"
    output.add_files(target, [output.BuiltFile("die.pdf", buffer.getvalue(), 1)])
    click.echo(f"Built a die of {sides} sides into {target}/")
'''


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A virtual environment that sees this kitgen and has the tiny family installed into it by pip,
    from its own folder and pyproject.toml, as a user installs a family."""
    root = tmp_path_factory.mktemp("tiny")
    source = root / "kitgen-tiny"
    (source / "kitgen_tiny").mkdir(parents=True)
    (source / "pyproject.toml").write_text(TINY_PYPROJECT)
    (source / "kitgen_tiny" / "__init__.py").write_text(TINY_DECLARATION)
    (source / "kitgen_tiny" / "run.py").write_text(TINY_RUN)
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(root / "venv")], check=True)
    python = root / "venv" / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(source)],
                               capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr

    def kitgen(*args, cwd=root):
        return subprocess.run([str(python), "-m", "kitgen", *args], capture_output=True, text=True, cwd=cwd)

    return SimpleNamespace(root=root, python=python, kitgen=kitgen)


def test_an_installed_family_is_named_in_kitgen_help(tiny):
    said = tiny.kitgen("--help")
    assert said.returncode == 0, said.stderr
    assert "tiny" in said.stdout and "a tiny test game: one die to cut out" in said.stdout
    assert "codenames" in said.stdout and "deduction" in said.stdout          # the built-in families stay
    build = tiny.kitgen("build", "--help")
    assert "Options of the tiny game" in build.stdout and "--sides N" in build.stdout
    assert "tiny" in build.stdout.split("--game [", 1)[1].split("]", 1)[0]


def test_an_installed_family_builds_through_the_command_line(tiny):
    built = tiny.kitgen("build", "--game", "tiny", "--sides", "8", "--out", "kits")
    assert built.returncode == 0, built.stderr
    assert "Built a die of 8 sides" in built.stdout
    pdf = pypdfium2.PdfDocument(str(tiny.root / "kits" / "tiny" / "die.pdf"))
    assert len(pdf) == 1 and "side 8" in pdf[0].get_textpage().get_text_range()


def test_a_kit_file_the_family_owns_is_built_by_it(tiny):
    (tiny.root / "mine.yaml").write_text("game: tiny\n")
    built = tiny.kitgen("build", "mine.yaml", "--sides", "3", "--out", "owned")
    assert built.returncode == 0, built.stderr
    assert (tiny.root / "owned" / "tiny" / "die.pdf").is_file()


def test_its_options_are_refused_for_another_game_in_one_line(tiny):
    refused = tiny.kitgen("build", "--sides", "3", "--out", "none")
    assert (refused.returncode, refused.stderr.strip()) == (
        2, "kitgen: error: --sides is an option of the tiny game: add --game tiny")
    refused = tiny.kitgen("build", "--game", "tiny", "--players", "3", "--out", "none")
    assert (refused.returncode, refused.stderr.strip()) == (
        2, "kitgen: error: --players is an option of the deduction game; the tiny kit has none such")
    assert not (tiny.root / "none").exists()


def test_the_server_takes_its_fields_and_its_page_offers_it(tiny):
    probe = textwrap.dedent("""
        from kitgen import serve_page
        from kitgen.serve import fields
        sides = fields.FIELDS["sides"]
        print(sides.kind, sides.commands, sides.low, sides.high)
        print(",".join(fields.FIELDS["game"].choices))
        page = serve_page.html([], "token")
        print('id="kind-tiny"' in page, 'name="sides"' in page,
              'data-kind="words pictures duet deduction tiny"' in page)
    """)
    said = subprocess.run([str(tiny.python), "-c", probe], capture_output=True, text=True)
    assert said.returncode == 0, said.stderr
    assert said.stdout.splitlines() == ["number ('build',) 2 20", "codenames,deduction,tiny", "True True True"]


def test_without_it_kitgen_knows_only_its_own_families():
    assert [f.name for f in families.load()] == ["codenames", "deduction"]
    result = CliRunner().invoke(cli, ["build", "--help"])
    assert "tiny" not in result.output


def test_kitgen_help_names_every_game_and_edition():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for family in families.load():
        assert f"  {family.name} " in result.output and family.summary.split()[0] in result.output
        for edition in family.editions:
            assert f" {edition.name} " in result.output, edition.name
    assert {e.name for f in families.load() for e in f.editions} == {"words", "pictures", "duet"}
    assert all(len(line) <= 80 for line in result.output.splitlines())       # an 80-column terminal
    build = CliRunner().invoke(cli, ["build", "--help"]).output
    assert "[codenames|deduction]" in build and "[words|pictures|duet]" in build


class _Point:
    def __init__(self, name, value):
        self.name, self.value = name, value

    def load(self):
        return self.value


def _registry(monkeypatch, points):
    families.load.cache_clear()
    monkeypatch.setattr(families, "entry_points", lambda: points)


@pytest.fixture
def fresh_registry():
    yield
    families.load.cache_clear()


def _family(name, default=False, runs=None, **declared):
    return families.Family(name=name, title=name, summary="s", kit_noun="k", option_of="o", the_kit="t",
                           runs=runs or {}, default=default, **declared)


@pytest.mark.parametrize("points, message", [
    ([], "no game family is installed: reinstall kitgen (pip install -e .)"),
    ([_Point("a", "not a family")], "the entry point 'a' of kitgen.games (not a family) is not the declaration "
                                    "of a game family named 'a'"),
    ([_Point("a", _family("b", True))], "is not the declaration of a game family named 'a'"),
    ([_Point("a", _family("a")), _Point("b", _family("b"))], "exactly one game family must be the default, not 0"),
    ([_Point("a", _family("a", True)), _Point("b", _family("b", True))],
     "exactly one game family must be the default, not 2 (a, b)"),
    ([_Point("a", _family("a", True, runs={"print": "m:f"}))],
     "the game family 'a' declares kitgen print, which kitgen has not"),
    ([_Point("a", _family("a", True, options={"build": (families.Option("x", "h", kind="colour"),)}))],
     "declares --x of kitgen build of the kind 'colour'; the kinds are text, int, float, choice, flag, path"),
])
def test_a_broken_registry_is_refused_in_one_line(monkeypatch, fresh_registry, points, message):
    _registry(monkeypatch, points)
    with pytest.raises(KitgenError, match=None) as refused:
        families.load()
    assert message in str(refused.value)


def test_a_family_that_cannot_load_is_named(monkeypatch, fresh_registry):
    class Broken(_Point):
        def load(self):
            raise ModuleNotFoundError("No module named 'kitgen_gone'")

    _registry(monkeypatch, [Broken("gone", "kitgen_gone:FAMILY")])
    with pytest.raises(KitgenError) as refused:
        families.load()
    assert str(refused.value) == ("the game family 'gone' (kitgen_gone:FAMILY) cannot be loaded: ModuleNotFoundError: "
                                  "No module named 'kitgen_gone'; reinstall it")


def test_verify_asks_the_families_whose_code_it_is():
    """A case slip's payload is the deduction game's (it claims it); a key's is the default family's;
    an option of the other family's part of verify is refused in one line."""
    from kitgen.games.deduction import runs

    key = "KG1:1-4C2Q-0T9X0B3W1Y6A8Z"            # the shape of a key's payload: not a case slip
    assert not runs.claims(key, 200)
    result = CliRunner().invoke(cli, ["verify", "--at", "Harbour", key])
    assert result.exit_code == 2 and result.output.strip().endswith("--at is for case slips of the deduction game")


def test_a_declared_function_that_cannot_be_imported_is_one_line():
    with pytest.raises(KitgenError) as refused:
        families.resolve("kitgen_gone.run:build")
    assert str(refused.value) == ("a game family's kitgen_gone.run:build cannot be loaded: ModuleNotFoundError: No "
                                  "module named 'kitgen_gone'; reinstall the family")
    with pytest.raises(KitgenError, match="AttributeError"):
        families.resolve("kitgen.families:no_such_function")
