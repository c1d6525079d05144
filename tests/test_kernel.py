"""The kernel knows no game: layouts, text, paint, pictures, imposition, marks, duplex,
documents, QR, fonts, messages, atomic writing and manifests -- and the command line, the
server and its page -- import nothing from kitgen/games/ and name no family. Game knowledge
lives in one package per family, which declares itself (docs/design.md §2, §2.5). No module
is over 600 lines, and no modules import each other in a circle."""

import ast
import re
from pathlib import Path

import kitgen

PACKAGE = Path(kitgen.__file__).resolve().parent
MAX_LINES = 600


def kernel_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts)


def imports(path: Path, package: list[str]):
    """Each import statement of a file, at any depth: (module, names), relative imports resolved
    against ``package`` (``import a.b`` is ("a.b", []))."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            yield base, [alias.name for alias in node.names]


def imported(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module a file imports, relative imports resolved."""
    found = set()
    for base, names in imports(path, ["kitgen", *path.relative_to(root).parent.parts]):
        found.add(base)
        found.update(f"{base}.{name}" for name in names)
    return found


def test_the_kernel_imports_nothing_from_a_game_family():
    modules = kernel_modules()
    names = {p.relative_to(PACKAGE).as_posix() for p in modules}
    assert {"layouts.py", "fonts.py", "output.py", "render/document.py", "render/sheet.py", "render/qr.py",
            "render/text.py", "render/columns.py", "render/pictures.py", "messages.py", "cli/__init__.py",
            "cli/build.py", "serve_page.py", "families.py"} <= names
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


def test_no_kernel_module_names_a_family():
    """Outside kitgen/games/, no module names a family -- not in its code, strings or comments:
    the command line, the server and its page read the families' declarations instead."""
    from kitgen import families

    names = {f.name for f in families.load()} | {f.title for f in families.load()}
    assert {"codenames", "deduction"} <= names
    pattern = re.compile("|".join(re.escape(n) for n in names), re.IGNORECASE)
    named = {p.relative_to(PACKAGE).as_posix(): sorted(set(m.lower() for m in pattern.findall(p.read_text())))
             for p in kernel_modules()}
    assert not {k: v for k, v in named.items() if v}


def test_no_module_is_over_600_lines():
    long = {p.relative_to(PACKAGE).as_posix(): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long


def _module_of(path: Path) -> str:
    parts = ["kitgen", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each kitgen module -> the kitgen modules it imports (``from . import x`` as the module x
    when x is one), at any depth of the file: a circle through a function's import is a circle."""
    modules = {_module_of(p): p for p in PACKAGE.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        edges = set()
        for base, names in imports(path, package):
            edges.update(f"{base}.{name}" if f"{base}.{name}" in modules else base for name in names or [""])
        graph[name] = {m for m in edges if m in modules and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of a graph (one per strongly connected part larger than one module)."""
    import networkx

    return [sorted(part) for part in networkx.strongly_connected_components(networkx.DiGraph(
        [(a, b) for a, targets in graph.items() for b in targets])) if len(part) > 1]


def test_no_modules_import_each_other_in_a_circle():
    """The server and the command line both call the library, not each other: no chain of imports
    leads from a module back to itself. (A package's ``__init__`` importing its own modules is not a
    circle: ``from . import x`` is an edge to x alone.)"""
    graph = import_graph()
    assert "kitgen.cli" in graph and "kitgen.families" in graph["kitgen.cli"]
    assert not cycles(graph)


def test_the_circle_check_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
