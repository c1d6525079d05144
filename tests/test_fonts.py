"""Fonts cut from variable fonts: the same bytes on every machine and at any time,
said once on stderr, and never the user's own cache in tests (docs/design.md §7.4)."""

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from fontTools.ttLib import TTFont

from kitgen import fonts


def _kit(out: Path, cache: Path, epoch: int | None, *options: str) -> subprocess.CompletedProcess:
    """``kitgen build`` in a fresh process with its own font cache. SOURCE_DATE_EPOCH is the
    clock fontTools stamps a font with when it recalculates head.modified, and the date
    reportlab writes even in invariant mode: two epochs are two machines at different times."""
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    env["KITGEN_CACHE"] = str(cache)
    if epoch is not None:
        env["SOURCE_DATE_EPOCH"] = str(epoch)
    return subprocess.run([sys.executable, "-m", "kitgen", "build", "--out", str(out), *options], env=env,
                          capture_output=True, text=True, check=True)


def _hashes(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob("*.pdf"))}


def test_two_fresh_caches_give_the_same_bytes_and_say_so_once(tmp_path):
    first = _kit(tmp_path / "one", tmp_path / "cache-one", 1_000_000_000)
    second = _kit(tmp_path / "two", tmp_path / "cache-two", 1_700_000_000)
    one, two = _hashes(tmp_path / "one" / "classic-en"), _hashes(tmp_path / "two" / "classic-en")
    assert set(one) == {"codenames.pdf", "keys.pdf", "tiles.pdf", "rules.pdf", "kit.pdf"}
    assert one == two
    cut_one = list((tmp_path / "cache-one" / "fonts").glob("*.ttf"))
    cut_two = list((tmp_path / "cache-two" / "fonts").glob("*.ttf"))
    assert len(cut_one) == 1 and cut_one[0].read_bytes() == cut_two[0].read_bytes()
    # stderr is a pipe here, not a terminal: the cold build still says, in one line, why it is slow
    for run, cache in ((first, "cache-one"), (second, "cache-two")):
        assert run.stderr.splitlines() == [
            f"kitgen: preparing fonts, once per font: NotoSans (they are kept in {tmp_path / cache}/fonts)"]
    warm = _kit(tmp_path / "one", tmp_path / "cache-one", None)
    assert warm.stderr == ""
    assert _hashes(tmp_path / "one" / "classic-en") == one


def test_each_font_says_so_once_the_first_persian_build_cuts_the_arabic_font(tmp_path):
    """Once per font: a cache that holds Noto Sans's cut says nothing of it, but the first Persian
    build cuts the Arabic font and says so; a fresh cache hears of both fonts, each once."""
    cache = tmp_path / "cache"
    english = _kit(tmp_path / "en", cache, None)
    assert english.stderr.splitlines() == [
        f"kitgen: preparing fonts, once per font: NotoSans (they are kept in {cache}/fonts)"]
    persian = _kit(tmp_path / "fa", cache, None, "--lang", "fa")
    assert persian.stderr.splitlines() == [
        f"kitgen: preparing fonts, once per font: NotoSansArabic (they are kept in {cache}/fonts)"]
    assert _kit(tmp_path / "fa", cache, None, "--lang", "fa").stderr == ""       # both already cut
    fresh = _kit(tmp_path / "fa2", tmp_path / "cache-fresh", None, "--lang", "fa")
    assert sorted(fresh.stderr.splitlines()) == [
        f"kitgen: preparing fonts, once per font: {font} (they are kept in {tmp_path / 'cache-fresh'}/fonts)"
        for font in ("NotoSans", "NotoSansArabic")]
    assert _hashes(tmp_path / "fa" / "classic-fa") == _hashes(tmp_path / "fa2" / "classic-fa")


def test_the_announcement_is_per_font_in_one_process(tmp_path, monkeypatch):
    """In one process: a second weight of a font already announced says nothing, a second font
    says its line, and a font already cut (in the cache) is not cut nor announced again."""
    heard = []
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path))
    monkeypatch.setattr(fonts, "_announcer", heard.append)
    monkeypatch.setattr(fonts, "_announced", set())
    sans, _ = fonts._package_font("noto-sans")
    arabic, _ = fonts._package_font("noto-sans-arabic")
    fonts._static_instance(sans, 700)
    assert heard == [f"preparing fonts, once per font: NotoSans (they are kept in {fonts.cache_dir()})"]
    fonts._static_instance(sans, 600)
    fonts._static_instance(sans, 700)
    assert len(heard) == 1
    fonts._static_instance(arabic, 700)
    assert heard[1:] == [f"preparing fonts, once per font: NotoSansArabic (they are kept in {fonts.cache_dir()})"]
    monkeypatch.setattr(fonts, "_announced", set())          # a new process, the same cache
    fonts._static_instance(sans, 700)
    fonts._static_instance(arabic, 700)
    assert len(heard) == 2


def _source() -> Path:
    source, _ = fonts._package_font("noto-sans")
    return source


def test_the_cut_is_stable_keeps_the_source_timestamp_and_drops_what_reportlab_never_reads(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000000000")
    first = fonts.cut_instance(_source(), 700)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    assert fonts.cut_instance(_source(), 700) == first
    (tmp_path / "cut.ttf").write_bytes(first)
    cut, source = TTFont(tmp_path / "cut.ttf"), TTFont(_source())
    assert cut["head"].modified == source["head"].modified
    assert not {"GPOS", "GSUB", "GDEF", "fvar", "gvar"} & set(cut.keys())
    assert cut["OS/2"].usWeightClass == 700 and "KG" in cut["name"].getDebugName(6)
    # every glyph a character reaches keeps its outline; the same glyph numbers as the source
    assert cut.getGlyphOrder() == source.getGlyphOrder()
    reachable = set(source.getBestCmap().values())
    emptied = [name for name in reachable
               if source["glyf"][name].numberOfContours and not cut["glyf"][name].numberOfContours]
    assert not emptied
    assert cut["hmtx"]["A"][0] > source["hmtx"]["A"][0]          # bold is wider: the weight was applied
    # the glyphs no character reaches (alternates, small caps) are emptied: most of the saving
    gone = [n for n in source.getGlyphOrder()
            if source["glyf"][n].numberOfContours and not cut["glyf"][n].numberOfContours]
    assert len(gone) > 1000 and not set(gone) & reachable

def test_tests_never_touch_the_users_cache():
    home_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kitgen"
    assert not str(fonts.cache_dir()).startswith(str(home_cache))
    assert Path(os.environ["KITGEN_CACHE"]).name.startswith("kitgen-test-cache-")


def test_the_cache_file_is_named_by_font_library_and_recipe(monkeypatch):
    path = fonts._static_instance(_source(), 700)
    assert path.parent == fonts.cache_dir() and path.exists()
    monkeypatch.setattr(fonts, "CUT_RECIPE", fonts.CUT_RECIPE + 1)
    monkeypatch.setattr(fonts, "cut_instance", lambda source, weight, *shaping: b"new recipe")
    renamed = fonts._static_instance(_source(), 700)
    assert renamed != path and renamed.read_bytes() == b"new recipe"


def test_a_new_fonttools_names_a_new_cut(monkeypatch):
    from kitgen import versions

    path = fonts._static_instance(_source(), 700)
    real = versions.installed
    monkeypatch.setattr(versions, "installed", lambda name: "99.0" if name == "fonttools" else real(name))
    monkeypatch.setattr(fonts, "cut_instance", lambda source, weight, *shaping: b"cut by another fontTools")
    assert fonts._static_instance(_source(), 700) != path


def test_a_fallback_cache_others_could_write_is_not_trusted(tmp_path, monkeypatch):
    """When the cache cannot be written, cuts go to the temporary folder: a font planted in a
    folder there that others may write to is never used."""
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("KITGEN_CACHE", str(blocked))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(fonts, "cut_instance", lambda source, weight, *shaping: b"our own cut")
    shared = tmp_path / f"kitgen-fonts-{os.getuid()}"
    shared.mkdir()
    shared.chmod(0o777)
    first = fonts._static_instance(_source(), 700)
    assert first.parent != shared and first.read_bytes() == b"our own cut"
    (shared / first.name).write_bytes(b"planted")
    assert fonts._static_instance(_source(), 700).read_bytes() == b"our own cut"
    shared.chmod(0o700)                                          # a private folder of ours is used
    assert fonts._static_instance(_source(), 700).parent == shared
