"""Only regular files are read, and never past their limit (issue 25 point 7, docs/design.md §9.3):
a device (/dev/zero), a FIFO, a link to either, or a file over its limit, given wherever a user
names a file, is refused in one line, exit 2, never read without end and never waited on. The
subprocesses' timeout is a guard against a hang only; no test measures time."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kitgen import files, pictures, scans, yamlio
from kitgen.errors import KitgenError
from kitgen.games.deduction import theme
from kitgen.render import press

from oneline import HANG_GUARD, kitgen, refused


def special(tmp_path, kind: str, name: str) -> str:
    """A FIFO named ``name`` in tmp_path, or a link of that name to /dev/zero."""
    path = tmp_path / name
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return name


COMMAND_IDS = ["build-deck", "build-kit", "deck-check", "game-layout", "build-icc", "proof-deck", "verify-pdf",
               "verify-photo", "verify-kit", "preview"]
KINDS = {"fifo": "(a FIFO)", "zero": "(a character device)"}

# (name of the special file, the command with {} for it): every command of the issue, and the other
# places a user names a file
COMMANDS = [
    ("deck.txt", ("build", "--deck", "{}", "--out", "o")),
    ("kit.yaml", ("build", "{}", "--out", "o")),
    ("deck.txt", ("deck", "check", "{}")),
    ("layout.yaml", ("game", "--layout", "{}", "--out", "o")),
    ("press.icc", ("build", "--pdfx", "--color", "cmyk", "--icc", "{}", "--out", "o")),
    ("deck.csv", ("proof", "--deck", "{}", "--out", "o")),
    ("keys.pdf", ("verify", "{}")),
    ("photo.png", ("verify", "{}")),
    ("manifest.json", ("verify", "--kit", "{}", "KG1:CLASSIC-EN:1/100:R:x")),
    ("kit.pdf", ("preview", "{}", "--out", "o")),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name, command", COMMANDS, ids=COMMAND_IDS)
def test_a_device_or_fifo_is_refused_in_one_line(tmp_path, kind, name, command):
    special(tmp_path, kind, name)
    result = kitgen(*(arg.replace("{}", name) for arg in command), cwd=tmp_path)
    refused(result, name, "is not a regular file", KINDS[kind], "give a file")
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("*.pdf"))


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null"])
def test_the_issue_commands_with_a_device_named_directly(tmp_path, path):
    for command in (("build", "--deck", path), ("build", path), ("deck", "check", path), ("game", "--layout", path),
                    ("build", "--pdfx", "--color", "cmyk", "--icc", path)):
        out = () if command[0] == "deck" else ("--out", "o")
        refused(kitgen(*command, *out, cwd=tmp_path), path, "is not a regular file (a character device)")


def test_a_picture_folder_passes_over_fifos_devices_and_links_to_them(tmp_path):
    from PIL import Image

    folder = tmp_path / "pics"
    folder.mkdir()
    for i in range(20):
        Image.new("RGB", (64, 64), (i * 12, 255 - i * 12, 100)).save(folder / f"p{i:02d}.png")
    os.mkfifo(folder / "waiting.png")
    (folder / "zero.svg").symlink_to("/dev/zero")
    result = kitgen("deck", "check", "pics", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "NOTE waiting.png: is not a regular file (a FIFO); passed over" in result.stdout
    assert "NOTE zero.svg: is not a regular file (a character device); passed over" in result.stdout
    assert "20 distinct pictures" in result.stdout


def test_a_yaml_picture_deck_naming_a_fifo_is_refused(tmp_path):
    os.mkfifo(tmp_path / "cat.png")
    (tmp_path / "deck.yaml").write_text("pictures:\n" + "".join(f"  - p{i}.png\n" for i in range(3)).replace(
        "p0.png", "cat.png"), encoding="utf-8")
    result = kitgen("deck", "check", "deck.yaml", cwd=tmp_path)
    refused(result, "deck.yaml:2:", "'cat.png'", "is not a regular file (a FIFO)")


def test_a_theme_picture_that_is_a_fifo_is_refused(tmp_path):
    text = (theme.builtin_dir() / "deduction-en.yaml").read_text("utf-8")
    # line 13: the built-in theme's first suspect (its header says how pictures are named)
    text = text.replace('  - "Baker Crumbsley"\n', '  - {name: "Baker Crumbsley", picture: "baker.png"}\n', 1)
    (tmp_path / "town.yaml").write_text(text, encoding="utf-8")
    os.mkfifo(tmp_path / "baker.png")
    refused(kitgen("build", "town.yaml", "--out", "o", cwd=tmp_path), "town.yaml:13: the picture 'baker.png': ",
            "is not a regular file (a FIFO)")


# --- limits: a sparse file one byte over each limit is refused by its size, never read ----------------

def sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as file:
        file.truncate(size)
    return path


LIMITS = [   # (file name, the limit, how the message names it, the command)
    ("deck.txt", yamlio.MAX_TEXT_BYTES, "kitgen reads text files up to 20 MB", ("deck", "check", "{}")),
    ("kit.yaml", yamlio.MAX_TEXT_BYTES, "kitgen reads text files up to 20 MB", ("build", "{}", "--out", "o")),
    ("press.icc", press.MAX_ICC_BYTES, "kitgen reads ICC profiles up to 50 MB",
     ("build", "--pdfx", "--color", "cmyk", "--icc", "{}", "--out", "o")),
    ("scan.jpg", scans.MAX_SCAN_BYTES, "kitgen reads scans and photos up to 400 MB", ("verify", "{}")),
    ("keys.pdf", scans.MAX_PDF_BYTES, "kitgen reads PDFs up to 10,000 MB", ("verify", "{}")),
    ("kit.pdf", scans.MAX_PDF_BYTES, "kitgen reads PDFs up to 10,000 MB", ("preview", "{}")),
    ("manifest.json", scans.MAX_MANIFEST_BYTES, "kitgen reads manifests up to 500 MB",
     ("verify", "--kit", "{}", "KG1:CLASSIC-EN:1/100:R:x")),
]


@pytest.mark.parametrize("name, limit, says, command", LIMITS, ids=[f"{c[0]}-{n}" for n, _, _, c in LIMITS])
def test_a_file_one_byte_over_its_limit_is_refused(tmp_path, name, limit, says, command):
    sparse(tmp_path / name, limit + 1)
    refused(kitgen(*(arg.replace("{}", name) for arg in command), cwd=tmp_path), name, says)


def test_pictures_over_their_limits_are_refused(tmp_path):
    folder = tmp_path / "pics"
    folder.mkdir()
    sparse(folder / "huge.png", pictures.MAX_RASTER_BYTES + 1)
    refused(kitgen("deck", "check", "pics", cwd=tmp_path), "huge.png",
            "kitgen reads PNG and JPEG pictures up to 200 MB")
    (folder / "huge.png").unlink()
    sparse(folder / "huge.svg", pictures.MAX_SVG_BYTES + 1)
    refused(kitgen("deck", "check", "pics", cwd=tmp_path), "huge.svg", "kitgen reads SVG pictures up to 5 MB")


def test_a_text_file_exactly_at_the_limit_is_read(tmp_path):
    """20 MB of NUL bytes passes the size limit and is then refused for what it holds."""
    path = sparse(tmp_path / "deck.txt", yamlio.MAX_TEXT_BYTES)
    with pytest.raises(KitgenError, match="contains NUL bytes"):
        yamlio.read_text(path)


# --- the reader itself -----------------------------------------------------------------------------

def test_reading_stops_at_the_limit_whatever_the_size_says(tmp_path):
    """/proc files say they are 0 bytes long: the limit holds on what is read, not on st_size."""
    proc = Path("/proc/self/maps")
    assert os.stat(proc).st_size == 0 and len(proc.read_bytes()) > 100
    with pytest.raises(KitgenError, match=r"is more than 100 bytes; kitgen reads maps up to 100 bytes"):
        files.read_bytes(proc, 100, "maps")
    exact = tmp_path / "exact.bin"
    exact.write_bytes(b"x" * 100)
    assert files.read_bytes(exact, 100) == b"x" * 100
    exact.write_bytes(b"x" * 101)
    with pytest.raises(KitgenError, match="is 101 bytes; kitgen reads files up to 100 bytes"):
        files.read_bytes(exact, 100)


def test_the_reader_names_what_it_refuses(tmp_path):
    with pytest.raises(KitgenError, match="file not found"):
        files.read_bytes(tmp_path / "missing", 10)
    with pytest.raises(KitgenError, match="is a folder, not a file"):
        files.read_bytes(tmp_path, 10)
    os.mkfifo(tmp_path / "fifo")          # only looked at here: a FIFO is opened only in a subprocess, under HANG_GUARD
    assert files.is_regular(tmp_path / "fifo") == "is not a regular file (a FIFO); give a file"
    assert files.is_regular(Path("/dev/zero")) == "is not a regular file (a character device); give a file"


def test_a_fifo_in_the_picture_cache_is_a_miss_not_a_wait(tmp_path):
    """SvgStore reads its own cache folder through the same reader: a FIFO there is a miss."""
    script = ("import os, sys; from pathlib import Path; from kitgen import pictures\n"
              "store = pictures.SvgStore(Path(sys.argv[1])); path = store._path(bytes(32))\n"
              "os.mkfifo(path); print(store._read(bytes(32)))")
    result = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                            timeout=HANG_GUARD)
    assert result.returncode == 0 and result.stdout.strip() == "None", result.stdout + result.stderr
