"""Rules text broken into lines at legal places (issue 28, point 4): Chinese and Japanese between
characters under kinsoku, Thai between the words of a dictionary segmenter, never inside a
grapheme cluster; nothing lost or added at a break."""

import unicodedata

import pytest

from kitgen import fonts, layouts
from kitgen.games.codenames import texts
from kitgen.render import breaks, columns


def paragraphs(lang: str) -> list[str]:
    rules = texts.load(lang).rules
    out = [rules.intro]
    for section in rules.sections:
        for paragraph in section.paragraphs:
            out += [paragraph] if isinstance(paragraph, str) else list(paragraph.values())
    return out


@pytest.fixture(scope="module", params=["ja", "zh", "th"])
def lang_style(request):
    lang = request.param
    names = fonts.register_roles(layouts.load("default"), lang, texts.characters(lang))
    return lang, columns.Style(names["label"], 8.5, 10.5, None)


def test_lines_break_at_legal_places_only(lang_style):
    lang, style = lang_style
    broke_inside = 0
    for width in (90.0, 140.0, 233.0):
        for paragraph in paragraphs(lang):
            lines = columns.wrap(paragraph, style, width)
            # nothing lost or added: the lines joined again (a space where one was) are the paragraph
            assert "".join(lines).replace(" ", "") == paragraph.replace(" ", "")
            for before, after in zip(lines, lines[1:]):
                assert after[0] not in breaks.NO_START, (before, after)
                assert before[-1] not in breaks.NO_END, (before, after)
                assert not unicodedata.combining(after[0]), (before, after)        # no mark starts a line
                at = paragraph.find(before)
                if at >= 0 and at + len(before) < len(paragraph) and not paragraph[at + len(before)].isspace():
                    broke_inside += 1
    assert broke_inside, "no line broke inside a run without spaces: the test does not test breaking"


def test_thai_breaks_between_words():
    from pythainlp.tokenize import word_tokenize

    run = "ผู้เล่นแต่ละคนหยิบการ์ดคำใบ้แล้ววางไว้บนโต๊ะ"
    pieces = breaks.pieces(run)
    assert "".join(pieces) == run and len(pieces) > 3
    assert pieces == word_tokenize(run, engine="newmm", keep_whitespace=False)


def test_kinsoku_keeps_punctuation_with_its_neighbour():
    assert breaks.pieces("「海」です。") == ["「海」", "で", "す。"]
    assert "ー" not in breaks.pieces("カード25枚")           # the prolonged-sound mark stays with its kana
    assert breaks.pieces("เช่น“มหาสมุทร”")[-1].startswith("“มหา")   # an opening quote goes with what follows
    assert breaks.pieces("word") == ["word"] and breaks.pieces("слово") == ["слово"]
