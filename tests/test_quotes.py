"""Both families' rules set quotation marks as each language writes them (issue 26, point 12):
no straight quote or apostrophe on any printed rules sheet; English “…” and ’, Russian «…»,
Persian «…»; read from the PDFs themselves."""

import shutil
import subprocess
import sys

import pytest

pdftotext = shutil.which("pdftotext")
BUILDS = {
    "codenames-en": ["--keys", "2"], "codenames-ru": ["--lang", "ru", "--keys", "2"],
    "codenames-fa": ["--lang", "fa", "--keys", "2"], "duet-en": ["--edition", "duet", "--keys", "2"],
    "deduction-en": ["--game", "deduction"], "deduction-ru": ["--game", "deduction", "--lang", "ru"],
}
OPEN_CLOSE = {"en": ("\u201c", "\u201d"), "ru": ("\u00ab", "\u00bb"), "fa": ("\u00ab", "\u00bb")}


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    texts = {}
    for name, args in BUILDS.items():
        out = tmp_path_factory.mktemp(name)
        done = subprocess.run([sys.executable, "-m", "kitgen", "build", *args, "--out", str(out)], cwd=out,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        (kit,) = [p for p in out.iterdir() if p.is_dir()]
        texts[name] = subprocess.run([pdftotext, str(kit / "rules.pdf"), "-"], capture_output=True, text=True,
                                     check=True).stdout
    return texts


@pytest.mark.skipif(pdftotext is None, reason="pdftotext (poppler-utils) is not installed")
@pytest.mark.parametrize("name", sorted(BUILDS))
def test_rules_set_quotes_as_their_language_does(rules, name):
    text = rules[name]
    lang = name.rsplit("-", 1)[1]
    opening, closing = OPEN_CLOSE[lang]
    assert '"' not in text and "'" not in text, name
    assert text.count(opening) == text.count(closing) > 0, name
    if lang == "en":
        assert "\u2019" in text                     # the apostrophe: team’s, holder’s
