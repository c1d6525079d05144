"""The deduction rules answer what players ask at the table (issue 26, points 3 and 4), in every
language, as printed in rules.pdf: how to sit so each slip reaches its solver, that a wrong try
ends the turn, what happens past the end of the penalty track, where a score marker goes, and a
tie-break that always ends."""

import re
import shutil
import subprocess
import sys

import pytest
import yaml

from kitgen.games.deduction import facts

pdftotext = shutil.which("pdftotext")

# what each language's rules must say, as printed (white space folded): (point, phrase)
SAID = {
    "en": [
        ("seating", "Sit in player order for this, round the table: Player 2 on the left of Player 1, Player 3 on the "
                    "left of Player 2 and so on, and Player 1 on the left of the last player"),
        ("a wrong try ends the turn", "Your turn ends; keep investigating on your next turn."),
        ("past the penalty track", "Past \u221220, start again from 0 and put one of your cubes beside the track: "
                                   "each cube there counts \u221220 more."),
        ("a running total", "on the score track at your total so far"),
        ("the tie-break ends", "then to the one who scored more in the last mini-game. Players still tied share the "
                               "win."),
    ],
    "ru": [
        ("seating", "сядьте по кругу по номерам: Игрок 2 слева от Игрока 1, Игрок 3 слева от Игрока 2 и так далее, "
                    "а Игрок 1 — слева от последнего"),
        ("a wrong try ends the turn", "Ваш ход окончен; продолжайте расследование в следующий ход."),
        ("past the penalty track", "Дойдя до \u221220, начните снова с 0 и положите рядом со шкалой свой кубик: "
                                   "каждый такой кубик — ещё \u221220."),
        ("a running total", "на сумму всех ваших очков"),
        ("the tie-break ends", "затем — кто набрал больше очков в последней мини-игре. Если ничья осталась и "
                               "тогда, победу делят."),
    ],
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("rules")
    for lang in SAID:
        done = subprocess.run([sys.executable, "-m", "kitgen", "build", "--game", "deduction", "--lang", lang,
                               "--out", str(out)], cwd=out, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def rules(built):
    out = built
    printed = {}
    for lang in SAID:
        text = subprocess.run([pdftotext, str(out / f"deduction-{lang}" / "rules.pdf"), "-"], capture_output=True,
                              text=True, check=True).stdout
        printed[lang] = re.sub(r"-\n(?=\w)", "-", re.sub(r"\s+", " ", text))
    return printed


@pytest.mark.skipif(pdftotext is None, reason="pdftotext (poppler-utils) is not installed")
@pytest.mark.parametrize("lang, point, phrase", [(lang, point, phrase) for lang, said in SAID.items()
                                                 for point, phrase in said], ids=lambda v: str(v)[:20])
def test_the_printed_rules_answer_it(rules, lang, point, phrase):
    assert phrase in rules[lang], (lang, point)


@pytest.mark.parametrize("lang", sorted(SAID))
def test_the_seating_the_rules_give_is_the_one_the_slips_deal_by(lang):
    """Each player sits on the left of the one before, so the player on a holder's left is the next
    number: ``facts.left_of``, by which the slips name each case's solver."""
    assert [facts.left_of(p, 5) for p in range(1, 6)] == [2, 3, 4, 5, 1]
    assert all(facts.left_of(p, n) == p % n + 1 for n in range(2, 6) for p in range(1, n + 1))
    assert facts.PENALTY_TRACK // facts.WRONG_ATTEMPT == 10          # a space a wrong try, as the rules say


def test_every_language_has_the_same_rules_paragraphs():
    """A language's rules cannot drop an answer the other has: the same sections, paragraph for paragraph."""
    from importlib import resources

    folder = resources.files("kitgen.games.deduction") / "messages"
    shapes = {}
    for lang in SAID:
        data = yaml.safe_load((folder / f"{lang}.yaml").read_text(encoding="utf-8"))
        shapes[lang] = [(s["id"], len(s["paragraphs"])) for s in data["rules"]["sections"]]
    assert len(set(map(tuple, shapes.values()))) == 1, shapes


def test_the_rules_fit_two_pages_at_most_in_every_language(built):
    """Issue 26 point 13: the Russian rules were two half-empty pages. With the drawings and the
    questions players ask (point 5) the rules take two pages in every language, both well filled
    (tests/test_deduction_rules_art.py measures how far down each page's text reaches)."""
    import pypdfium2 as pdfium

    for lang in SAID:
        assert 1 <= len(pdfium.PdfDocument(built / f"deduction-{lang}" / "rules.pdf")) <= 2, lang


def lines_of(count: int, style):
    from kitgen.render import columns

    blocks = [columns.Block(f"paragraph {i}", style) for i in range(count)]
    return [(block, block.content, True, True) for block in blocks]


def test_squeezing_saves_a_page_only_when_the_layouts_share_allows():
    from kitgen.render import columns

    style = columns.Style("Helvetica", 9, 10, None, space_after=0)
    room = 100.0                                   # ten lines a column at full leading
    assert columns.page_count(columns.place(lines_of(21, style), room), 2) == 2
    tighter = columns.squeezed(lines_of(21, style), room, 2, 0.9)          # 21 lines at 9.5 pt: one page
    assert columns.page_count(columns.place(tighter, room), 2) == 1
    assert {block.style.size for block, *_ in tighter} == {9}            # the type keeps its size
    assert 0.9 * 10 <= tighter[0][0].style.leading < 10
    left = columns.squeezed(lines_of(30, style), room, 2, 0.9)            # half a page over: not closed up
    assert left[0][0].style.leading == 10
    one = lines_of(12, style)
    assert columns.squeezed(one, room, 2, 0.9) is one                     # a page already: untouched
