"""The command line: a default build, and each bad input's one-line message,
exit code and no files written."""

import subprocess
import sys

import pytest

WORDS = [f"Word{chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(30)]


def kitgen(*args, cwd):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


def test_help_lists_build_options(tmp_path):
    result = kitgen("build", "--help", cwd=tmp_path)
    assert result.returncode == 0
    for option in ("--deck", "--seed", "--out", "--paper", "--duplex", "--keys"):
        assert option in result.stdout


def test_build_from_a_word_list(tmp_path):
    (tmp_path / "my words.txt").write_text("\n".join(WORDS))
    result = kitgen("build", "--deck", "my words.txt", "--keys", "4", "--out", "kits", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "kits/my-words/" in result.stdout
    folder = tmp_path / "kits" / "my-words"
    assert (folder / "kit.pdf").exists() and (folder / "manifest.json").exists()


def bad(tmp_path, *args, match):
    result = kitgen("build", *args, "--out", "out", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("kitgen: error: ")
    assert "Traceback" not in result.stderr
    for text in ([match] if isinstance(match, str) else match):
        assert text in lines[0]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    return lines[0]


def test_missing_deck(tmp_path):
    bad(tmp_path, "--deck", "absent.txt", match=["absent.txt", "file not found"])


def test_too_few_words(tmp_path):
    (tmp_path / "few.txt").write_text("\n".join(WORDS[:10]))
    bad(tmp_path, "--deck", "few.txt", match=["few.txt", "has 10 distinct words", "at least 25"])


def test_duplicate_words(tmp_path):
    (tmp_path / "dup.txt").write_text("\n".join(WORDS + ["  wordab "]))
    bad(tmp_path, "--deck", "dup.txt", match=["duplicate words", "WordAb (line 2) = wordab (line 31)"])


def test_malformed_yaml(tmp_path):
    (tmp_path / "d.yaml").write_text("words:\n  - a\n - b\n")
    bad(tmp_path, "--deck", "d.yaml", match=["d.yaml:3:", "malformed YAML"])


def test_yaml_object_tags(tmp_path):
    (tmp_path / "d.yaml").write_text("words: !!python/object/new:os.system [ls]\n")
    bad(tmp_path, "--deck", "d.yaml", match=["d.yaml:1:", "not allowed"])


def test_characters_the_font_lacks(tmp_path):
    (tmp_path / "w.txt").write_text("\n".join(WORDS + ["\u1230\u120b\u121d", "\u13e3\u13b3"]))   # Ethiopic, Cherokee
    bad(tmp_path, "--deck", "w.txt", match=["no glyph", "\u1230\u120b\u121d", "\u13e3\u13b3", "2 word(s)"])


def test_words_too_long_to_fit(tmp_path):
    (tmp_path / "w.txt").write_text("\n".join(WORDS + ["Supercalifragilisticexpialidocious",
                                                       "Pneumonoultramicroscopicsilicovolcanoconiosis"]))
    bad(tmp_path, "--deck", "w.txt", match=["2 word(s) do not fit", "Supercalifragilistic", "Pneumonoultra"])


def test_unknown_option(tmp_path):
    bad(tmp_path, "--colour", "red", match="unknown option --colour; did you mean --color")


@pytest.mark.parametrize("args, match", [
    (("--keys", "0"), "--keys must be a whole number from 1"),
    (("--keys", "many"), "--keys must be a whole number, not 'many'"),
    (("--paper", "b7"), "unknown paper 'b7'"),
    (("--duplex", "diagonal"), "--duplex must be one of long, short, none, fold, not 'diagonal'"),
])
def test_bad_option_values(tmp_path, args, match):
    bad(tmp_path, *args, match=match)


def test_unknown_layout_key_in_a_kit(tmp_path):
    (tmp_path / "words.txt").write_text("\n".join(WORDS))
    (tmp_path / "mine.yaml").write_text("extends: default\ntile:\n  colour: red\n")
    (tmp_path / "kit.yaml").write_text("id: mine\ndeck: words.txt\nlayout: mine.yaml\nseed: s\n")
    bad(tmp_path, "kit.yaml", match=["mine.yaml:3:", "unknown key 'tile.colour'"])


def test_unknown_kit_file_key(tmp_path):
    (tmp_path / "kit.yaml").write_text("id: mine\ndeck: classic-en\nsed: s\n")
    bad(tmp_path, "kit.yaml", match=["kit.yaml:3:", "unknown key 'sed'"])


def test_missing_kit_file(tmp_path):
    bad(tmp_path, "nokit.yaml", match=["nokit.yaml", "file not found"])


def test_two_runs_give_byte_identical_files(tmp_path):
    (tmp_path / "w.txt").write_text("\n".join(WORDS))
    digests = []
    for out in ("one", "two"):
        result = kitgen("build", "--deck", "w.txt", "--keys", "3", "--out", out, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        folder = tmp_path / out / "w"
        digests.append({p.name: p.read_bytes() for p in folder.iterdir()})
    assert digests[0] == digests[1]
