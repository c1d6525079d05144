"""Fonts cut from variable fonts: the same bytes on every machine and at any time,
said once on stderr, and never the user's own cache in tests (docs/design.md §7.4)."""

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from kitgen import fonts
from kitgen.errors import KitgenError


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


def _cff_font(path, family="Kit Test"):
    """A small OpenType-CFF font (an A and a space) written to ``path``."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder([".notdef", "space", "A"])
    fb.setupCharacterMap({0x20: "space", 0x41: "A"})
    strings = {}
    for name in (".notdef", "space", "A"):
        pen = T2CharStringPen(600, None)
        if name == "A":
            pen.moveTo((50, 0)), pen.lineTo((300, 700)), pen.curveTo((350, 720), (400, 700), (550, 0))
            pen.closePath()
        strings[name] = pen.getCharString()
    fb.setupCFF(family.replace(" ", ""), {"FullName": family}, strings, {})
    fb.setupHorizontalMetrics({n: (600, 50) for n in (".notdef", "space", "A")})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(usWeightClass=400)
    fb.setupPost()
    fb.save(str(path))


def _installed_family(tmp_path, monkeypatch, module: str, font_file):
    folder = tmp_path / module
    (folder / "files").mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    font_file(folder / "files" / "Font.otf")
    (folder / "metadata.json").write_text(json.dumps({"files": [{"style": "normal", "path": "files/Font.otf"}]}))
    monkeypatch.syspath_prepend(str(tmp_path))


def test_an_opentype_cff_font_is_converted_to_truetype_once(tmp_path, monkeypatch):
    """reportlab embeds TrueType only: a family whose font has CFF outlines is converted with
    cu2qu, cached, the same bytes twice, and draws."""
    from fontTools.ttLib import TTFont

    _installed_family(tmp_path, monkeypatch, "fontpkg_kit_cff", _cff_font)
    registered = fonts.register("kit-cff", 400)
    converted = TTFont(registered.path)
    assert "glyf" in converted and "CFF " not in converted and registered.path.parent == fonts.cache_dir()
    assert converted["glyf"]["A"].numberOfContours == 1
    again = fonts.to_truetype(tmp_path / "fontpkg_kit_cff" / "files" / "Font.otf")
    assert again == registered.path.read_bytes()
    assert fonts.has_glyph(registered.registered_name, "A")


def test_a_cff_font_that_cannot_be_converted_is_refused_in_one_line(tmp_path, monkeypatch):
    def broken(path):
        _cff_font(path)
        data = bytearray(path.read_bytes())
        from fontTools.ttLib import TTFont

        offset = TTFont(str(path)).reader.tables["CFF "].offset
        data[offset:offset + 40] = b"\xff" * 40           # the CFF table's header and name index, unreadable
        path.write_bytes(bytes(data))

    _installed_family(tmp_path, monkeypatch, "fontpkg_kit_broken", broken)
    with pytest.raises(KitgenError) as refused:
        fonts.register("kit-broken", 400)
    message = refused.value.message
    assert "Font.otf" in message and "cannot convert" in message and "\n" not in message


def test_a_static_font_at_another_weight_is_refused(tmp_path, monkeypatch):
    _installed_family(tmp_path, monkeypatch, "fontpkg_kit_static", _cff_font)
    with pytest.raises(KitgenError, match="has one weight, 400, not 700"):
        fonts.register("kit-static", 700)
