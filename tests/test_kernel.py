"""The printing kernel knows no game: layouts, text, paint, pictures, imposition, marks,
duplex, documents, QR, fonts, messages, atomic writing and manifests import nothing
from kitgen/games/. Game knowledge lives in one package per family; only the command
line brings the two together (docs/design.md §2)."""

import ast
from pathlib import Path

import kitgen

PACKAGE = Path(kitgen.__file__).resolve().parent
GLUE = {"cli.py", "__main__.py"}          # the command line offers every family's commands


def kernel_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if "games" not in p.relative_to(PACKAGE).parts and p.relative_to(PACKAGE).as_posix() not in GLUE)


def imported(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module a file imports, relative imports resolved."""
    package = ["kitgen", *path.relative_to(root).parent.parts]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def test_the_kernel_imports_nothing_from_a_game_family():
    modules = kernel_modules()
    names = {p.relative_to(PACKAGE).as_posix() for p in modules}
    assert {"layouts.py", "fonts.py", "output.py", "render/document.py", "render/sheet.py", "render/qr.py",
            "render/text.py", "render/columns.py", "render/pictures.py", "messages.py"} <= names
    leaks = {p.relative_to(PACKAGE).as_posix(): sorted(m for m in imported(p) if m.startswith("kitgen.games"))
             for p in modules}
    assert not {k: v for k, v in leaks.items() if v}, leaks


def test_the_check_sees_relative_and_absolute_imports(tmp_path):
    """The guard above would pass on nothing if it missed a form of import."""
    sample = PACKAGE / "render" / "sheet.py"
    assert "kitgen.errors" in imported(sample)
    fake = tmp_path / "kitgen" / "render" / "x.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from ..games.codenames import key_deck\nimport kitgen.games.codenames.editions\n")
    assert {"kitgen.games.codenames", "kitgen.games.codenames.key_deck",
            "kitgen.games.codenames.editions"} <= imported(fake, tmp_path / "kitgen")
