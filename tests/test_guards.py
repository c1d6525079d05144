"""Guards for README promises no other test catches: the manifest's SHA-256s,
pure K text and QR codes in a CMYK kit, words that never overflow their boxes,
`verify --kit` refusing a key of another deck size, and each part of a duplex
kit.pdf starting on a new sheet.

Everything is read back from the files kitgen writes: the manifest from disk,
pages with pypdfium2, and colours and text positions with tests/pdfread.py.
"""

import hashlib
import io
import json
import re
import subprocess
import sys

import pypdfium2 as pdfium
import pytest

from kitgen import fonts
from kitgen.games.codenames import build, decks, editions, key_deck, key_payload, kitfile, picture_decks
from kitgen.games.codenames.model import CodenameCard
from kitgen.games.codenames.render import codename_cards
from kitgen.render import document

from pdfread import Pdf, interpret, pure_k, rich_black
from raster import render_page


def kitgen(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "kitgen", *args], cwd=cwd, capture_output=True, text=True)


def read_manifest(folder):
    return json.loads((folder / "manifest.json").read_text("utf-8"))


# --- 1. the manifest records each file's SHA-256 -----------------------------

def check_manifest_files(folder):
    manifest = read_manifest(folder)
    entries = manifest["files"] + manifest["extra_files"]
    listed = [e["path"] for e in entries]
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} - {"manifest.json"}
    assert len(listed) == len(set(listed)), "a file is listed twice"
    assert set(listed) == on_disk, "the manifest lists other files than the kit holds"
    for entry in entries:
        digest = hashlib.sha256((folder / entry["path"]).read_bytes()).hexdigest()
        assert entry["sha256"] == digest, f"{entry['path']}: manifest says {entry['sha256']}, the file is {digest}"
    for entry in manifest["files"]:
        pdf = pdfium.PdfDocument(str(folder / entry["path"]))
        try:
            assert entry["pages"] == len(pdf), entry["path"]
            for page in pdf:
                assert list(page.get_size()) == pytest.approx(entry["page_size"], abs=0.001), entry["path"]
        finally:
            pdf.close()
    return manifest


def test_manifest_sha256_and_pages_match_the_files(default_kit):
    """README "What you get": manifest.json holds each file's SHA-256, pages and page size."""
    manifest = check_manifest_files(default_kit[0])
    assert {e["path"] for e in manifest["files"]} == {"codenames.pdf", "keys.pdf", "tiles.pdf", "rules.pdf",
                                                      "kit.pdf"}


def test_manifest_sha256_of_extra_files(tmp_path):
    """The same for the extra files (--per-card PDFs, --png faces), on a small deck."""
    (tmp_path / "w.txt").write_text("\n".join(f"Word{chr(65 + i)}" for i in range(26)))
    kit = kitfile.load(deck=str(tmp_path / "w.txt"), keys=2, print_options={"per_card": True, "png_dpi": 12})
    folder, _, _ = build.build(kit, tmp_path / "out")
    manifest = check_manifest_files(folder)
    extra = {e["path"] for e in manifest["extra_files"]}
    assert {"keys-cards.pdf", "png/keys/001-front.png", "png/tiles/001-back-trim.png"} <= extra


# --- 2. a CMYK kit: pure K for text and QR codes -----------------------------

@pytest.fixture(scope="module")
def cmyk_kit(tmp_path_factory):
    kit = kitfile.load(keys=14, colour="cmyk")
    folder, _, manifest = build.build(kit, tmp_path_factory.mktemp("cmyk"))
    return folder, manifest


def test_cmyk_qr_codes_are_pure_k(cmyk_kit):
    """README --color cmyk: "pure K for text and QR codes" -- every key's QR code (an image
    mask, painted in the fill colour) is C = M = Y = 0, K = 1; one QR on each key card of each
    front page."""
    folder, manifest = cmyk_kit
    pdf = Pdf((folder / "keys.pdf").read_bytes())
    found = 0
    for number, page in enumerate(pdf.pages(), 1):
        cards = [k["card"] for k in manifest["keys"] if k["page"] == number]
        qrs = [f for f in interpret(pdf, page)[1] if f.mask]
        assert len(qrs) == len(cards), f"page {number}: {len(qrs)} QR codes for {len(cards)} keys"
        for card in cards:
            inside = [q for q in qrs if card[0] <= q.bbox[0] and q.bbox[2] <= card[2]
                      and card[1] <= q.bbox[1] and q.bbox[3] <= card[3]]
            assert len(inside) == 1, f"page {number}: {len(inside)} QR codes on the key card at {card}"
        for qr in qrs:
            assert pure_k(qr.fill), f"page {number}: a QR code filled with {qr.fill}, not 0 0 0 1"
        found += len(qrs)
    assert found == len(manifest["keys"]) == 14


def test_cmyk_codename_words_are_pure_k(cmyk_kit):
    """README --color cmyk: the upright word of every codename card (the large one,
    running the way the page's largest text runs) is drawn in 0 0 0 1."""
    folder, _ = cmyk_kit
    pdf = Pdf((folder / "codenames.pdf").read_bytes())
    upright_words = 0
    for number, page in enumerate(pdf.pages(), 1):
        shown = interpret(pdf, page)[0]
        largest = max(shown, key=lambda s: s.size)
        upright = [s for s in shown if s.matrix[0] * largest.matrix[0] + s.matrix[1] * largest.matrix[1] > 0]
        turned = [s for s in shown if s not in upright]
        assert len({s.block for s in upright}) == len({s.block for s in turned}), f"page {number}"
        assert upright and turned, f"page {number}"
        wrong = [(s.codes.decode("latin-1"), s.fill) for s in upright if not pure_k(s.fill)]
        assert not wrong, f"codenames.pdf page {number}: upright words not in pure K: {wrong[:5]}"
        upright_words += len({s.block for s in upright})
    assert upright_words == 400          # 200 double-sided cards


def test_cmyk_no_text_in_rich_black(cmyk_kit):
    """README --color cmyk: rich black is for the assassin's fields only; no text
    in any PDF of the kit is drawn in it, and all text is set in CMYK."""
    folder, _ = cmyk_kit
    for name in ("codenames.pdf", "keys.pdf", "tiles.pdf", "rules.pdf", "kit.pdf"):
        pdf = Pdf((folder / name).read_bytes())
        texts = 0
        for number, page in enumerate(pdf.pages(), 1):
            shown = interpret(pdf, page)[0]
            texts += len(shown)
            wrong = [(s.codes.decode("latin-1"), s.fill) for s in shown
                     if rich_black(s.fill) or s.fill[0] != "DeviceCMYK"]
            assert not wrong, f"{name} page {number}: text in rich black or not in CMYK: {wrong[:5]}"
        assert texts, name


# --- 3. text fit rounds down: a word never overflows its box -----------------

WORD_DECKS = sorted(n for n in decks.builtin_names() if not picture_decks.is_picture_deck(n))


def words_to_draw() -> list[tuple[str, str]]:
    """(where from, word): every word of every built-in words deck. Those all fit
    at the full size in the default layout, so the rounding of a shrunk size is
    exercised by longer words made from them: each deck's words joined in threes,
    and Persian words joined with Russian ones (drawn in two font runs each)."""
    loaded = {name: decks.load(name).words for name in WORD_DECKS}
    words = [(name, word) for name, deck in loaded.items() for word in deck]
    words += [(f"{name} x3", " ".join(deck[i:i + 3])) for name, deck in loaded.items()
              for i in range(0, len(deck) - 2, 3)]
    words += [("fa+ru", f"{fa} {ru}") for fa, ru in zip(loaded["classic-fa"][::10], loaded["classic-ru"][::10])]
    return words


def test_every_word_is_drawn_inside_both_its_boxes(default_layout):
    """README "Codename cards": a word shrinks to fit (its size rounded down), so
    the drawn advance of every word, upright and turned, is no wider than its box
    and lies inside it. Measured in the PDF: each run's start and end from the text
    operators and the embedded fonts' /Widths, all runs of a word together."""
    assert {"classic-en", "classic-ru", "classic-fa", "class-science", "class-geography",
            "class-efl"} <= set(WORD_DECKS)
    from reportlab.pdfgen import canvas

    layout = default_layout
    words = words_to_draw()
    cards = tuple(CodenameCard(words[i][1], words[i + 1][1] if i + 1 < len(words) else None)
                  for i in range(0, len(words), 2))
    faces = codename_cards.card_set(cards, layout, fonts.register_roles(layout), "guard")
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(faces.spec.width, faces.spec.height), invariant=1, pageCompression=1)
    for i in range(faces.count):
        for draw in (faces.front, faces.back):
            draw(c, i)                                   # the card's origin is the page's
            c.showPage()
    c.save()
    pdf = Pdf(buffer.getvalue())
    pages = pdf.pages()
    assert len(pages) == 2 * len(cards)
    card = layout.codename_card
    problems, shrunk, several_runs = [], 0, 0
    for (source, word), page in zip(words, pages):
        shown = interpret(pdf, page)[0]
        for style, turned in ((card.word, False), (card.word_flipped, True)):
            runs = [s for s in shown if (s.matrix[0] < 0) == turned]
            assert runs, f"{source}: {word!r} is not drawn {'turned' if turned else 'upright'}"
            for s in runs:                               # upright or turned half round, nothing else
                assert abs(abs(s.matrix[0]) - 1) < 1e-6 and abs(s.matrix[1]) < 1e-6 and abs(s.matrix[2]) < 1e-6
            shrunk += runs[0].size < style.size
            several_runs += len({s.font for s in runs}) > 1          # drawn in two fonts (fa+ru)
            xs = [x for s in runs for x in (s.start[0], s.end[0])]
            left, right = min(xs), max(xs)
            x, _, w, _ = style.box
            beyond = max(right - left - w, x - left, right - (x + w))
            if beyond > 0.01:
                problems.append(f"{source}: {word} ({'turned' if turned else 'upright'}, {runs[0].size:g}pt) "
                                f"drawn {right - left:.2f}pt wide in a {w:.2f}pt box, {beyond:.2f}pt beyond it")
    assert not problems, f"{len(problems)} word(s) overflow their box: " + "; ".join(problems[:30])
    assert shrunk > 500 and several_runs > 50          # the test exercises what it guards


# --- 4. verify --kit refuses a key of another deck size -------------------------

def test_verify_kit_refuses_a_key_from_a_deck_of_another_size(default_kit):
    """README verify: with --kit (the manifest gives seed, kit id and deck size)
    the key must be exactly key N of that kit: key 5 of a 41-key deck from the
    same seed and kit id is refused, key 5 of the kit itself passes."""
    folder = default_kit[0]
    manifest = read_manifest(folder)
    seed, kit_id = manifest["seed"], manifest["kit"]
    assert len(manifest["keys"]) == 40
    key = key_deck.generate(seed, editions.WORDS, 41)[4]
    foreign = key_payload.encode(kit_id, key, key_deck.kit_secret(seed))
    assert ":5/41:" in foreign
    result = kitgen("verify", foreign, "--kit", str(folder / "manifest.json"))
    assert result.returncode == 3, result.stdout + result.stderr
    failed = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert len(failed) == 1 and re.search(r"deck of 41 keys\b.*\b40\b", failed[0]), result.stdout
    # its check code and grid are right for the seed: only the deck size gives it away
    assert "check code" not in failed[0] and "not key" not in failed[0], failed[0]
    own = kitgen("verify", manifest["keys"][4]["payload"], "--kit", str(folder / "manifest.json"))
    assert own.returncode == 0, own.stdout + own.stderr
    assert own.stdout.startswith("OK   key 05/40 CLASSIC-EN")


# --- 5. in a duplex kit.pdf each part starts on a new sheet --------------------

@pytest.fixture(scope="module")
def prepared():
    return build.prepare(kitfile.load(keys=2))


def blank(image) -> bool:
    return image.convert("L").getextrema() == (255, 255)


@pytest.mark.parametrize("odd", [1, 3])
@pytest.mark.parametrize("duplex", ["long", "short", "none"])
def test_each_part_starts_on_a_new_sheet_in_a_duplex_kit(prepared, duplex, odd):
    """README "What you get": in a duplex kit.pdf each part starts on a new sheet --
    after a part with an odd page count comes a blank back; single-sided, none."""
    p = prepared

    def draw(c):
        for n in range(odd):
            c.setFont(p.fonts["label"], 30)
            c.drawString(100, 400, f"free page {n + 1}")
            c.showPage()
        return odd

    parts = [document.card_part(p.card_sets["keys"], p.layout, p.page_size, duplex),
             document.FreePart("free", "Free", draw),
             document.card_part(p.card_sets["tiles"], p.layout, p.page_size, duplex)]
    assert [len(parts[0].pages), len(parts[2].pages)] == [2, 2]
    data, starts = document.render(parts, p.page_size, p.layout, p.fonts, duplex, "guard", "guard")
    pdf = pdfium.PdfDocument(data)
    texts = [page.get_textpage().get_text_range() for page in pdf]
    pdf.close()
    images = [render_page(data, i, 8) for i in range(len(texts))]
    padding = 0 if duplex == "none" else 1
    third = 3 + odd + padding                        # where the tiles must start: keys 1-2, the free part from 3
    blanks = [i for i, image in enumerate(images, 1) if blank(image)]
    if padding:
        assert blanks == [third - 1], f"blank pages {blanks}: the page after the {odd}-page part must be blank"
        assert texts[third - 2].strip() == ""
    else:
        assert blanks == [], f"blank pages {blanks} in a single-sided kit"
    assert len(texts) == 2 + odd + padding + 2, f"{len(texts)} pages"
    for n in range(odd):
        assert f"free page {n + 1}" in texts[2 + n]
    assert "AGENT" in texts[third - 1], "the tiles' first front is not where it should be"
    assert starts == [1, 3, third], f"starts {starts}"     # the third part on page 5 or 7 (a front) in duplex
