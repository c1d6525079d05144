"""Layouts are YAML data with extends; unknown keys and bad values name key and file."""

import pytest

from kitgen import layouts
from kitgen.errors import KitgenError
from kitgen.units import mm


def test_default_layout_converts_units(default_layout):
    assert default_layout.key_card.size == pytest.approx((mm(57), mm(57)))
    assert default_layout.paper.sizes.letter == pytest.approx((612, 792))
    assert default_layout.colours.red.cmyk == (0, 0.75, 0.75, 0)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_extends_overrides_only_what_it_names(tmp_path):
    path = write(tmp_path, "big.yaml", "extends: default\nkey_card:\n  size: [70mm, 70mm]\n")
    layout = layouts.load(path)
    assert layout.key_card.size == pytest.approx((mm(70), mm(70)))
    assert layout.key_card.bleed == pytest.approx(mm(3))


def test_extends_a_file_beside_it(tmp_path):
    write(tmp_path, "parent.yaml", "tile:\n  bleed: 2mm\n")
    child = write(tmp_path, "child.yaml", "extends: parent.yaml\ntile:\n  gutter: 5mm\n")
    layout = layouts.load(child)
    assert (layout.tile.bleed, layout.tile.gutter) == pytest.approx((mm(2), mm(5)))


def test_unknown_key_names_the_key_and_the_file(tmp_path):
    path = write(tmp_path, "typo.yaml", "extends: default\nkey_card:\n  bleeed: 3mm\n")
    with pytest.raises(KitgenError) as info:
        layouts.load(path)
    assert "typo.yaml:3:" in str(info.value) and "'key_card.bleeed'" in str(info.value)


def test_unknown_top_level_key(tmp_path):
    with pytest.raises(KitgenError, match="unknown key 'colors'"):
        layouts.load(write(tmp_path, "t.yaml", "colors: {}\n"))


@pytest.mark.parametrize("text, match", [
    ("key_card:\n  bleed: 3\n", "not a length"),
    ("key_card:\n  bleed: -3mm\n", "at least zero"),
    ("key_card:\n  size: [0mm, 57mm]\n", "above zero"),
    ("key_card:\n  size: [57mm]\n", "list of 2 values"),
    ("key_card:\n  panel: {colour: mauve}\n", "no colour named 'mauve'"),
    ("codename_card:\n  word: {font: fancy}\n", "no font named 'fancy'"),
    ("rules:\n  columns: two\n", "must be a number"),
])
def test_wrong_values_are_refused(tmp_path, text, match):
    with pytest.raises(KitgenError, match=match):
        layouts.load(write(tmp_path, "bad.yaml", text))


def test_new_colours_may_be_added_and_used(tmp_path):
    path = write(tmp_path, "c.yaml", "colours:\n  mauve: {rgb: '#AA88CC', cmyk: [0.2, 0.3, 0, 0.1]}\n"
                                     "key_card:\n  panel: {colour: mauve}\n")
    assert layouts.load(path).key_card.panel.colour == "mauve"


def test_extends_cycle_is_refused(tmp_path):
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    with pytest.raises(KitgenError, match="cycle"):
        layouts.load(tmp_path / "a.yaml")


def test_missing_parent_is_refused(tmp_path):
    with pytest.raises(KitgenError, match="does not exist"):
        layouts.load(write(tmp_path, "orphan.yaml", "extends: nowhere.yaml\n"))
