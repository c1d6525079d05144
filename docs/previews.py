"""Remake the README's preview images of the Codenames family and of the deduction game's board,
tokens, notepad, aids and cards from default builds.

usage: python docs/previews.py

Each preview is a page, or the top of a page, of a built PDF rendered with pypdfium2; the box and
stand previews are pages of the default kit's boxes.pdf as ``kitgen preview`` writes them (the
verify.html screenshot is made elsewhere, by tests/test_web.py's browser)."""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2

DOCS = Path(__file__).resolve().parent
SHEET_DPI = 40            # a whole A4 sheet: 331 x 468 pixels
CARD_PIXELS = 560         # a single face, its longer side
BOX_DPI = 60              # a page of boxes.pdf: 496 x 702 pixels, the lines still sharp
BOX_PAGES = {"preview-box.png": 3, "preview-stand.png": 5}     # the key cards' box, the stand
STRIP_HEIGHT = 300        # a row of faces or of ink separations, side by side


def kitgen(*args: str, out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "kitgen", *args, "--out", str(out)], check=True, capture_output=True)
    folders = [p for p in out.iterdir() if p.is_dir()]
    return folders[0] if folders else out


def page(pdf: Path, index: int, dpi: float):
    document = pypdfium2.PdfDocument(str(pdf))
    return document[index].render(scale=dpi / 72).to_pil().convert("RGB")


def face(pdf: Path, index: int):
    """One face of a per-card PDF, its longer side CARD_PIXELS."""
    document = pypdfium2.PdfDocument(str(pdf))
    width, height = document[index].get_size()
    return page(pdf, index, CARD_PIXELS / max(width, height) * 72)


def top_of(pdf: Path, needle: str, size: tuple[int, int], dpi: float = 60):
    """The top of the first page whose text holds ``needle``, ``size`` pixels."""
    document = pypdfium2.PdfDocument(str(pdf))
    index = next(i for i in range(len(document)) if needle in document[i].get_textpage().get_text_range())
    return page(pdf, index, dpi).crop((0, 0, *size))


def strip(images, gap: int = 12):
    """Images side by side on grey, each scaled to STRIP_HEIGHT pixels high."""
    from PIL import Image

    scaled = [i.convert("RGB").resize((round(i.width * STRIP_HEIGHT / i.height), STRIP_HEIGHT)) for i in images]
    out = Image.new("RGB", (sum(i.width for i in scaled) + gap * (len(scaled) + 1), STRIP_HEIGHT + 2 * gap),
                    (200, 200, 200))
    x = gap
    for image in scaled:
        out.paste(image, (x, gap))
        x += image.width + gap
    return out


def separations(pdf: Path, tmp: Path):
    """The first page of ``pdf`` as Ghostscript separates it into its four inks (tiffsep): cyan,
    magenta, yellow, black, each plate dark where that ink prints."""
    from PIL import Image

    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", "-r150", "-dFirstPage=1",
                    "-dLastPage=1", f"-sOutputFile={tmp / 'sep.tif'}", str(pdf)], check=True)
    return [Image.open(tmp / f"sep({ink}).tif") for ink in ("Cyan", "Magenta", "Yellow", "Black")]


def duet(tmp: Path, shots: dict) -> None:
    """The duet edition: key 1's two faces (side A, side B as B sees it), a bystander tile's two
    faces, a timer token and an extra one; the sheet of key fronts; the campaign sheet."""
    kit = kitgen("build", "--edition", "duet", "--per-card", "--campaign", out=tmp / "duet")
    bystander = 2 * 16                  # tiles: 15 green agents, the assassin, then the bystanders
    shots["preview-duet-key.png"] = strip([face(kit / "keys-cards.pdf", 0), face(kit / "keys-cards.pdf", 1)])
    shots["preview-duet-pieces.png"] = strip([face(kit / "tiles-cards.pdf", bystander),
                                              face(kit / "tiles-cards.pdf", bystander + 1),
                                              face(kit / "tokens-cards.pdf", 0), face(kit / "tokens-cards.pdf", 18)])
    shots["preview-duet-keys.png"] = page(kit / "keys.pdf", 0, SHEET_DPI)
    shots["preview-duet-campaign.png"] = page(kit / "campaign.pdf", 0, 50)


def deduction(tmp: Path, shots: dict) -> None:
    """The deduction game: its A3 board, in ink saver too; its first token sheet, notepad page, aid sheet,
    sheet of case slips and rules page; a suspect card and its back, a crime and a location card,
    an evidence card and its back, a suspect tile, its back and a blank one."""
    kit = kitgen("build", "--game", "deduction", "--per-card", "--board-paper", "a3", out=tmp / "deduction")
    shots["preview-deduction-board.png"] = page(kit / "board.pdf", 0, 30)
    shots["preview-deduction-tokens.png"] = page(kit / "tokens.pdf", 0, SHEET_DPI)
    shots["preview-deduction-notepad.png"] = page(kit / "notepad.pdf", 0, SHEET_DPI)
    shots["preview-deduction-aid.png"] = page(kit / "aids.pdf", 0, SHEET_DPI)
    slip_page = json.loads((kit / "manifest.json").read_text())["slips"][0]["page"]
    shots["preview-deduction-slip.png"] = page(kit / "setup.pdf", slip_page - 1, SHEET_DPI)
    shots["preview-deduction-rules.png"] = page(kit / "rules.pdf", 0, SHEET_DPI)
    saver = kitgen("build", "--game", "deduction", "--ink", "saver", "--board-paper", "a3", out=tmp / "deduction-saver")
    shots["preview-deduction-board-saver.png"] = page(saver / "board.pdf", 0, 30)
    cases, evidence, tiles = kit / "cases-cards.pdf", kit / "evidence-cards.pdf", kit / "tiles-cards.pdf"
    first_crime, first_location, blank = 12, 22, 12          # the classic city: 12 suspects, 10 crimes
    shots["preview-deduction-cards.png"] = strip([
        face(cases, 0), face(cases, 1), face(cases, 2 * first_crime), face(cases, 2 * first_location),
        face(evidence, 6), face(evidence, 7), face(tiles, 0), face(tiles, 1), face(tiles, 2 * blank)])


SCRIPTS = ("en", "hi", "ja", "he", "th")        # a codename card in each, side by side (README)


def scripts(tmp: Path, shots: dict) -> None:
    faces = [face(kitgen("build", "--lang", language, "--per-card", "--keys", "2", out=tmp / f"s-{language}")
                  / "codenames-cards.pdf", 0) for language in SCRIPTS]
    shots["preview-scripts.png"] = strip(faces)


SCENES_DPI = 72           # a page of the proof's deck section: every picture at 26 mm, its name legible
NEXT_SECTIONS = ("Key deck", "Contact sheet")      # the proof's headings after the deck's pictures


def scenes(tmp: Path, shots: dict) -> None:
    """The pictures kit's proof: its first page of the deck's pictures (README) and all of them, the
    pages side by side, four to a row (docs/guides: the whole deck, looked at before it shipped)."""
    from PIL import Image

    kitgen("proof", "--edition", "pictures", out=tmp / "scenes")
    proof = next((tmp / "scenes").rglob("*-proof.pdf"))
    document = pypdfium2.PdfDocument(str(proof))
    texts = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    first = next(i for i, text in enumerate(texts) if "pictures, each with its number" in text)
    numbers = [first]
    while numbers[-1] + 1 < len(texts) and not any(h in texts[numbers[-1] + 1] for h in NEXT_SECTIONS):
        numbers.append(numbers[-1] + 1)
    pages = [page(proof, i, SCENES_DPI) for i in numbers]
    shots["preview-scenes.png"] = pages[0]
    width, height = pages[0].size
    columns = 4
    sheet = Image.new("RGB", (width * columns, height * -(-len(pages) // columns)), "white")
    for k, image in enumerate(pages):
        sheet.paste(image, ((k % columns) * width, (k // columns) * height))
    shots["scenes-contact-sheet.png"] = sheet


def main():
    from PIL import Image

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        shots = {}
        for language in ("en", "fa"):
            kit = kitgen("build", "--lang", language, "--per-card", out=tmp / language)
            tail = "" if language == "en" else "-fa"
            shots[f"preview-codename{tail}.png"] = face(kit / "codenames-cards.pdf", 0)
            shots[f"preview-key-card{tail}.png"] = face(kit / "keys-cards.pdf", 0)
            shots[f"preview-tiles{tail}.png"] = page(kit / "tiles.pdf", 0, SHEET_DPI)
            shots[f"preview-rules{tail}.png"] = page(kit / "rules.pdf", 0, SHEET_DPI)
            if language == "en":
                shots["preview-codenames.png"] = page(kit / "codenames.pdf", 0, SHEET_DPI)
                shots["preview-keys.png"] = page(kit / "keys.pdf", 0, SHEET_DPI)
        pictures = kitgen("build", "--edition", "pictures", "--per-card", out=tmp / "pictures")
        shots["preview-pictures.png"] = page(pictures / "codenames.pdf", 0, SHEET_DPI)
        shots["preview-picture-key.png"] = face(pictures / "keys-cards.pdf", 0)
        fold = kitgen("build", "--duplex", "fold", out=tmp / "fold")
        shots["preview-fold-keys.png"] = page(fold / "keys.pdf", 0, SHEET_DPI)
        pod = kitgen("build", "--pod", "tgc", "--keys", "2", out=tmp / "pod") / "pod-tgc"
        shots["preview-pod-tgc.png"] = strip([Image.open(pod / name) for name in (
            "codenames/001-front.png", "codenames/001-back.png", "keys/001-front.png", "keys/001-back.png",
            "tiles/001-front.png", "tiles/001-back.png")])
        press = kitgen("build", "--color", "cmyk", "--pdfx", "--per-card", "--keys", "2", out=tmp / "pdfx")
        shots["preview-pdfx-inks.png"] = strip(separations(press / "keys-cards.pdf", tmp))
        saver = kitgen("build", "--ink", "saver", "--per-card", out=tmp / "saver")
        shots["preview-ink-saver-key.png"] = face(saver / "keys-cards.pdf", 0)
        games = kitgen("game", "--count", "3", "--seed", "preview", out=tmp / "games")
        shots["preview-game-board.png"] = page(next(games.rglob("games.pdf")), 0, 30)
        kitgen("proof", out=tmp / "proof")
        proof = next((tmp / "proof").rglob("*-proof.pdf"))
        shots["preview-proof-words.png"] = top_of(proof, "Words at true size", (496, 300))
        shots["preview-proof-keys.png"] = top_of(proof, "Key deck", (496, 380))
        duet(tmp, shots)
        deduction(tmp, shots)
        scripts(tmp, shots)
        scenes(tmp, shots)
        for name, image in shots.items():
            image.save(DOCS / name, optimize=True)
            print(f"{name} {image.size[0]} x {image.size[1]}")
        boxes = kitgen("box", out=tmp / "box") / "boxes.pdf"
        for name, number in BOX_PAGES.items():
            kitgen("preview", str(boxes), "--pages", str(number), "--dpi", str(BOX_DPI), out=tmp / "box-preview")
            shutil.copyfile(tmp / "box-preview" / f"boxes-p{number}.png", DOCS / name)
            print(f"{name} (kitgen preview, page {number} of boxes.pdf at {BOX_DPI} dpi)")


if __name__ == "__main__":
    main()
