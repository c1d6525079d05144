"""Hostile and careless input: kitgen answers with a result or one clear line,
never a traceback, and never loses a kit a user already has."""

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from kitgen import cli, layouts
from kitgen.errors import KitgenError
from kitgen.games.codenames import build, decks, kitfile

WORDS = [f"Word{chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(30)]
# derandomized: CI runs the same examples every time; raise KITGEN_FUZZ_EXAMPLES to search wider
FUZZ = settings(max_examples=int(os.environ.get("KITGEN_FUZZ_EXAMPLES", "60")), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


def one_line(err: KitgenError):
    assert "\n" not in str(err) and len(str(err)) < 4000


@FUZZ
@given(data=st.binary(max_size=3000), suffix=st.sampled_from([".txt", ".csv", ".yaml"]))
def test_deck_loaders_take_any_bytes(data, suffix):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"deck{suffix}"
        path.write_bytes(data)
        try:
            deck = decks.load(path)
            assert len(deck.words) >= 25
        except KitgenError as err:
            one_line(err)


@FUZZ
@given(words=st.lists(st.text(min_size=1, max_size=30), min_size=0, max_size=60),
       encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]), newline=st.sampled_from(["\n", "\r\n", "\r"]))
def test_deck_loaders_take_any_text_in_any_supported_encoding(words, encoding, newline):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deck.txt"
        path.write_bytes(newline.join(words).encode(encoding, errors="surrogatepass"))
        try:
            decks.load(path)
        except (KitgenError, UnicodeEncodeError) as err:
            if isinstance(err, KitgenError):
                one_line(err)


yaml_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 500) | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.sampled_from(["3mm", "-2mm", "0mm", "12pt", "red", "ink", "word", "contain", "#FF0000", "8.5in", "x"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["size", "bleed", "box", "colour", "font", "key_card", "tile", "grid", "qr", "rgb",
                         "cmyk", "extends", "paper", "margin", "sizes", "colours", "fonts", "weight", "zzz"]),
        children, max_size=4),
    max_leaves=12)


@FUZZ
@given(value=yaml_values)
def test_layout_loader_takes_any_structure(value):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "layout.yaml"
        path.write_text(yaml.safe_dump(value))
        try:
            layouts.load(path)
        except KitgenError as err:
            one_line(err)


@FUZZ
@given(value=st.dictionaries(st.sampled_from(["id", "deck", "seed", "keys", "cards", "edition", "paper", "duplex",
                                              "language", "layout", "rules", "name", "bogus"]),
                             yaml_values, max_size=6))
def test_kit_file_loader_takes_any_structure(value):
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "w.txt").write_text("\n".join(WORDS))
        path = Path(tmp) / "kit.yaml"
        path.write_text(yaml.safe_dump(value))
        try:
            kitfile.load(path)
        except KitgenError as err:
            one_line(err)


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_encodings(tmp_path):
    text = "\n".join(WORDS)
    assert decks.load(write(tmp_path / "a.txt", text.encode("utf-16"))).words == tuple(WORDS)          # BOM
    assert decks.load(write(tmp_path / "b.txt", b"\xef\xbb\xbf" + text.encode())).words == tuple(WORDS)
    assert decks.load(write(tmp_path / "c.txt", text.replace("\n", "\r").encode())).words == tuple(WORDS)
    with pytest.raises(KitgenError, match=r"d\.txt:31: is not UTF-8 text \(it may be Latin-1"):
        decks.load(write(tmp_path / "d.txt", (text + "\ncaf\xe9").encode("latin-1")))
    with pytest.raises(KitgenError, match=r"e\.txt:3: contains NUL bytes"):
        decks.load(write(tmp_path / "e.txt", b"one\ntwo\nthr\x00ee\n" + text.encode()))


def test_a_huge_deck_is_refused_and_a_full_one_fills_a_kit(tmp_path):
    """A deck holds at most decks.MAX_WORDS (10,000) words, refused at the next one's line
    (tests/test_input_limits.py); a full deck makes exactly MAX_CARDS (5,000) codename cards."""
    words = [f"w{i}" for i in range(100_000)]
    path = write(tmp_path / "huge.txt", "\n".join(words).encode())
    with pytest.raises(KitgenError, match=r"huge\.txt:10001: holds more than 10,000 words"):
        decks.load(path)
    path = write(tmp_path / "big.txt", "\n".join(words[:decks.MAX_WORDS]).encode())
    assert len(kitfile.load(deck=str(path)).deck.words) == 10_000 == 2 * kitfile.MAX_CARDS
    kit = write(tmp_path / "kit.yaml", b"id: big\ndeck: big.txt\ncards: 200\nseed: s\n")
    assert kitfile.load(kit).cards == 200                      # a selection of a big deck is fine


def test_a_ten_megabyte_line_is_refused_quickly(tmp_path):
    path = write(tmp_path / "line.txt", b"x" * 10_000_000)
    with pytest.raises(KitgenError, match=r"line\.txt:1: line holds 10,000,000 characters"):
        decks.load(path)


def test_a_file_too_large_to_be_a_deck(tmp_path):
    with open(tmp_path / "huge.txt", "wb") as handle:
        handle.truncate(25_000_000)
    with pytest.raises(KitgenError, match="kitgen reads text files up to 20 MB"):
        decks.load(tmp_path / "huge.txt")


def test_deeply_nested_yaml(tmp_path):
    path = write(tmp_path / "deep.yaml", b"words: " + b"[" * 5000 + b"]" * 5000)
    with pytest.raises(KitgenError, match="deep.yaml:1: YAML nested more than 100 levels deep") as info:
        decks.load(path)
    one_line(info.value)


@pytest.mark.parametrize("text", [b"[" * 50_000 + b"]" * 50_000,
                                  b"".join(b"  " * i + b"a:\n" for i in range(3000)) + b"  " * 3000 + b"b\n"],
                         ids=["sequences", "mappings"])
def test_yaml_nested_beyond_what_the_c_parser_survives_is_refused_not_a_crash(tmp_path, text):
    """50,000 levels crashed the process (exit 139) inside libyaml's composer: the depth is now
    counted from the parser's events, before anything is composed."""
    write(tmp_path / "deep.yaml", text)
    for command in (["build", "deep.yaml", "--out", "out"], ["deck", "check", "deep.yaml"]):
        result = subprocess.run([sys.executable, "-m", "kitgen", *command], cwd=tmp_path, capture_output=True,
                                text=True)
        assert result.returncode == 2, result.stderr
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("kitgen: error: deep.yaml:"), result.stderr
        assert lines[0].endswith("YAML nested more than 100 levels deep: too deep to be a kitgen file")
    assert not (tmp_path / "out").exists()


def test_huge_svg_is_refused(tmp_path):
    from kitgen import pictures

    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' + b"<g/>" * 1_500_000 + b"</svg>"
    with pytest.raises(KitgenError, match="too large"):
        pictures.read_picture("huge.svg", svg, True)


def test_deck_path_with_spaces_non_ascii_and_a_symlink(tmp_path):
    folder = tmp_path / "мои слова"
    folder.mkdir()
    real = write(folder / "класс 7.txt", "\n".join(WORDS).encode())
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    assert decks.load(link).words == decks.load(real).words == tuple(WORDS)
    out = tmp_path / "real-out"
    out.mkdir()
    (tmp_path / "out-link").symlink_to(out)
    target, _, _ = build.build(kitfile.load(deck=str(link), keys=2), tmp_path / "out-link")
    assert (out / "link" / "kit.pdf").exists()


def test_two_builds_at_once_into_different_folders(tmp_path):
    write(tmp_path / "w.txt", "\n".join(WORDS).encode())
    procs = [subprocess.Popen([sys.executable, "-m", "kitgen", "build", "--deck", "w.txt", "--keys", "6",
                               "--out", out], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for out in ("one", "two")]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    one, two = tmp_path / "one" / "w", tmp_path / "two" / "w"
    assert {p.name: p.read_bytes() for p in one.iterdir()} == {p.name: p.read_bytes() for p in two.iterdir()}


SLOW_BUILD = """
import sys, time
from pathlib import Path
real = Path.write_bytes
def slow(self, data):
    real(self, data)
    print("writing", flush=True)
    time.sleep(30)
Path.write_bytes = slow
from kitgen.cli import main
main(["build", "--deck", "w.txt", "--keys", "4", "--seed", "new", "--out", "out"])
"""


def test_a_build_killed_mid_write_leaves_the_previous_kit_whole(tmp_path):
    write(tmp_path / "w.txt", "\n".join(WORDS).encode())
    assert subprocess.run([sys.executable, "-m", "kitgen", "build", "--deck", "w.txt", "--keys", "4",
                           "--out", "out"], cwd=tmp_path).returncode == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "out" / "w").iterdir()}
    proc = subprocess.Popen([sys.executable, "-c", SLOW_BUILD], cwd=tmp_path, stdout=subprocess.PIPE)
    assert proc.stdout.readline().strip() == b"writing"           # one file of the new kit is half way out
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert {p.name: p.read_bytes() for p in (tmp_path / "out" / "w").iterdir()} == before
    leftovers = [p.name for p in (tmp_path / "out").iterdir() if p.name != "w"]
    assert leftovers and all(name.startswith(".w.") for name in leftovers)   # staging only, never the final name
    assert subprocess.run([sys.executable, "-m", "kitgen", "build", "--deck", "w.txt", "--keys", "4",
                           "--out", "out"], cwd=tmp_path).returncode == 0
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["w"]          # the next build clears them


def test_an_internal_error_exits_1_in_one_line_and_debug_shows_the_traceback(monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("something impossible")

    monkeypatch.setattr(kitfile, "load", broken)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["build"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 1
    assert err.strip().splitlines() == ["kitgen: internal error: RuntimeError: something impossible "
                                        "(run with --debug for details)"]
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["build", "--debug"])
    assert exit_info.value.code == 1 and "Traceback" in capsys.readouterr().err


def test_bad_input_exits_2_without_traceback(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["build", "--deck", "/nonexistent/deck.txt"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_an_output_folder_that_cannot_be_written(tmp_path):
    write(tmp_path / "w.txt", "\n".join(WORDS).encode())
    result = subprocess.run([sys.executable, "-m", "kitgen", "build", "--deck", "w.txt", "--keys", "2",
                             "--out", "/proc/kitgen-cannot-write-here"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "/proc/kitgen-cannot-write-here" in result.stderr and "choose another --out" in result.stderr
