"""What ``kitgen verify`` reads: a payload typed in, a photo or scan, or a PDF, and the
QR codes found in them (zxing-cpp), for any game family to check."""

from dataclasses import dataclass, field
from pathlib import Path

from kitgen import files
from kitgen.errors import KitgenError

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg"}
MAX_PIXELS = 80_000_000          # a scan or photo; and a PDF page as rendered (A3 at 600 dpi is 70 million)
MAX_SCAN_BYTES = 400_000_000     # a scan or photo file larger than this is refused, not read
# a PDF to verify or preview larger than this is refused, not read (pdfium reads only what it needs of a
# file, never all of it: kitgen's 100,000 keys are 50 MB, but a kit of 5,000 large photos is far more)
MAX_PDF_BYTES = 10_000_000_000
# pages in a PDF to verify or preview: kitgen's largest is a kit.pdf of 100,000 keys and 5,000 codename
# cards, each face a page of its own on a small custom paper (fronts and backs: 210,000 pages)
MAX_PDF_PAGES = 250_000
# a PDF not made by kitgen is read no further when its first FIRST_PAGES pages hold no kitgen code
# (kitgen's key volumes, games.pdf and the per-card and print-on-demand PDFs have keys on page 1;
# a setup.pdf may have its case slips after the setup sheets)
FIRST_PAGES = 3
# a manifest given to verify (--kit) larger than this is refused, not read (kitgen's largest, of 100,000
# duet keys: about 200 MB, 2 kB a key)
MAX_MANIFEST_BYTES = 500_000_000
NO_CODE = ("no QR code found: photograph the card from straight above, close enough that it fills a third of "
           "the picture, in good light (a scan: 200 dpi or more, the whole QR in view)")


@dataclass
class Checked:
    """One code checked: where it was found, its payload, what is wrong, and notes."""

    where: str                      # "payload", "page 3", "scan.jpg"
    payload: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)     # lines of their own after the card's, pass or fail

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Code:
    """A QR code found in an image: its text and its corners in the image's pixels
    (top-left, top-right, bottom-right, bottom-left of the symbol as printed)."""

    text: str
    corners: tuple[tuple[float, float], ...]
    # the map from its card (points, y down) to the image, when the card was placed some other way (a
    # family's reader telling a card by its outline); compared by text and corners only
    card: object = field(default=None, compare=False)

    @property
    def centre(self) -> tuple[float, float]:
        return (sum(x for x, _ in self.corners) / 4, sum(y for _, y in self.corners) / 4)

    @property
    def size(self) -> float:
        (x0, y0), (x1, y1), (x2, y2), _ = self.corners
        return ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 / 2 + ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 / 2


# Photos defeat one reading in different ways: the image as it is; sharpened (a phone's
# soft focus and JPEG blur the modules together); twice as large and sharpened (a code
# under about 3 pixels a module, or far and tilted). The first pass that finds a code is the last.
PASSES = ((1, 0.0), (1, 1.0), (2, 1.0))          # (scale, unsharp amount)
# tried only when those found nothing: twice as large and sharpened hard, for a photo taken at arm's
# length, out of focus (on the hand-held photos of tests/photosim.py it finds a third of the codes the
# passes above miss; it costs an image four times the photo's size, so a photo with codes never pays it)
HARD_PASSES = ((2, 3.0),)


def find_codes(image) -> list[Code]:
    """Every QR code in ``image`` (PIL or numpy), each once, from the passes above."""
    import numpy as np

    grey = np.asarray(image.convert("L")) if hasattr(image, "convert") else image
    found: list[Code] = []
    for scale, amount in PASSES:
        _read(grey, scale, amount, found)
        if found:           # a sheet's other codes are looked for where its cards say they lie (verify)
            break
    if not found:
        for scale, amount in HARD_PASSES:
            _read(grey, scale, amount, found)
    return found


def _read(grey, scale: float, amount: float, found: list) -> None:
    """One pass of ``find_codes``: the image scaled and sharpened so, its codes added to ``found``."""
    view = grey
    if scale != 1 or amount:
        import cv2

        if scale != 1:
            view = cv2.resize(view, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        if amount:
            soft = cv2.GaussianBlur(view, (0, 0), 1.5 * scale)
            view = cv2.addWeighted(view, 1 + amount, soft, -amount, 0)
    for new in read_qr(view, scale):
        if not any(old.text == new.text and _near(old, new) for old in found):
            found.append(new)


def read_qr(view, scale: float = 1.0) -> list[Code]:
    """The QR codes zxing reads in ``view`` (grey or RGB, numpy) as it is, their corners divided by
    ``scale`` (``view`` drawn at ``scale`` times the image's size)."""
    import zxingcpp

    found = []
    for code in zxingcpp.read_barcodes(view, formats=zxingcpp.BarcodeFormat.QRCode):
        if code.valid:
            p = code.position
            found.append(Code(code.text, tuple((q.x / scale, q.y / scale) for q in (p.top_left, p.top_right,
                                                                                   p.bottom_right, p.bottom_left))))
    return found


def _near(a: Code, b: Code) -> bool:
    (ax, ay), (bx, by) = a.centre, b.centre
    return ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 < max(a.size, b.size) / 2


def payload_of(text: str) -> str:
    """A code's payload: the text itself, or what follows the '#' of a web address
    (``https://host/verify.html#KG1:...``, as --verify-url prints it)."""
    text = text.strip()
    if "#" in text and "://" in text.split("#", 1)[0]:
        from urllib.parse import unquote

        return unquote(text.rsplit("#", 1)[1]).strip()
    return text


def classify(target: str) -> tuple[str, object]:
    """("payload", text), ("image", path), ("pdf", path) or ("kit", path): a built kit's folder, which holds
    its manifest.json; a missing file is an error."""
    path = Path(target) if len(target) < 1024 and "\n" not in target and "\0" not in target else None
    is_file = path is not None and path.suffix.lower() in IMAGE_SUFFIXES | {".pdf"}
    try:
        exists = is_file and path.exists()          # a folder, FIFO or device: refused when it is read
    except OSError:
        exists = False
    if is_file and not exists:
        raise KitgenError("file not found; check the path", source=target)
    if not is_file and path is not None and target.strip() and _is_folder(path):
        if not (path / "manifest.json").is_file():
            raise KitgenError("is a folder without a manifest.json; give a built kit's folder, a PDF, an image or "
                              "a payload", source=target)
        return "kit", path
    if not is_file:
        return "payload", target.strip()
    return ("pdf" if path.suffix.lower() == ".pdf" else "image"), path


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def manifest_text(path: str) -> str:
    """The text of a manifest.json given with --kit (a regular file of at most MAX_MANIFEST_BYTES)."""
    try:
        return files.read_text(path, MAX_MANIFEST_BYTES, "manifests")
    except KitgenError as err:
        if err.message.startswith("file not found"):
            raise KitgenError("manifest not found; give the manifest.json of a built kit", source=path) from None
        raise


def open_image(path: Path):
    return _pil_image(files.read_bytes(path, MAX_SCAN_BYTES, "scans and photos"), path, load=True)


def _pil_image(data: bytes, path: Path, load: bool):
    """The image file's bytes opened by PIL (only its header unless ``load``); what PIL cannot read,
    or that has over twice MAX_PIXELS, is one line."""
    import io

    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        image = Image.open(io.BytesIO(data))
        if load:
            image.load()
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError) as err:
        reason = "too large" if isinstance(err, Image.DecompressionBombError) else "not a readable PNG or JPEG image"
        raise KitgenError(f"is {reason}", source=str(path)) from None
    return image


def open_photo(path: Path):
    """An image file as an RGB numpy array (``open_image``'s checks: its size, then its header by PIL),
    a PNG or JPEG within MAX_PIXELS decoded by OpenCV into the array itself (a 12-megapixel photo is
    not copied out of a PIL image; its orientation is the file's pixels', as PIL reads it), any other
    the PIL way."""
    import cv2
    import numpy as np

    data = files.read_bytes(path, MAX_SCAN_BYTES, "scans and photos")
    header = _pil_image(data, path, load=False)
    if header.format in ("PNG", "JPEG") and header.size[0] * header.size[1] <= MAX_PIXELS:
        bgr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
        if bgr is not None:
            return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    return np.asarray(_pil_image(data, path, load=True).convert("RGB"))


def unreadable(reason: str, source: str | None) -> KitgenError:
    """The one line for a PDF that pdfium cannot load, count or render."""
    reason = reason.replace(" (PDFium: Success)", "").rstrip(".")          # pdfium's code for no known reason
    return KitgenError(f"is not a readable PDF ({reason[:1].lower()}{reason[1:]})", source=source)


def open_pdf(pdf, source: str | None = None):
    """A pypdfium2 document of ``pdf`` (a path, or its bytes): a regular file of at most
    MAX_PDF_BYTES, loaded, of 1 to MAX_PDF_PAGES pages; one line otherwise."""
    import pypdfium2 as pdfium

    if isinstance(pdf, (str, Path)):
        source = source or str(pdf)
        pdf = files.open_regular(pdf, MAX_PDF_BYTES, "PDFs")
    try:
        document = pdfium.PdfDocument(pdf, autoclose=True)
        count = len(document)
    except pdfium.PdfiumError as err:
        if not isinstance(pdf, bytes):
            pdf.close()
        raise unreadable(str(err), source) from None
    if not 1 <= count <= MAX_PDF_PAGES:
        document.close()
        raise KitgenError("has no pages" if count < 1 else
                          f"has {count:,} pages; kitgen reads PDFs of up to {MAX_PDF_PAGES:,} pages", source=source)
    return document


def made_by_kitgen(document) -> bool:
    """Whether the PDF says kitgen wrote it (its Creator, render/pdf.py)."""
    try:
        return str(document.get_metadata_value("Creator")).startswith("kitgen ")
    except Exception:           # pdfium's metadata of a broken file: not kitgen's
        return False


def page_of(document, index: int, dpi: float, source: str | None = None, min_dpi: int = 72,
            asked: float | None = None):
    """Page ``index`` (0-based) of an open document, once it is known to render at ``dpi`` in at
    most MAX_PIXELS pixels (also at the --dpi ``asked``, when a first look reads at a lower one);
    a larger page is refused, naming the --dpi at which it would fit."""
    import math

    import pypdfium2 as pdfium

    try:
        page = document[index]
        width, height = page.get_size()
    except pdfium.PdfiumError as err:
        raise unreadable(f"page {index + 1}: {err}", source) from None
    if not (math.isfinite(width) and math.isfinite(height) and width > 0 and height > 0):
        raise unreadable(f"page {index + 1} has no size", source)
    shown = max(dpi, asked or dpi)
    pixels = (width * shown / 72) * (height * shown / 72)
    if pixels > MAX_PIXELS:
        fits = int(72 * (MAX_PIXELS / (width * height)) ** 0.5)
        remedy = f"give --dpi {fits} or less" if fits >= min_dpi else "it is too large to read at any --dpi"
        raise KitgenError(f"page {index + 1} is {width / 72 * 25.4:,.0f} x {height / 72 * 25.4:,.0f} mm, "
                          f"{pixels / 1e6:,.0f} million pixels at {shown:g} dpi; kitgen renders a page of at most "
                          f"{MAX_PIXELS // 1_000_000} million: {remedy}", source=source)
    return page


def render_page(document, index: int, dpi: float, source: str | None = None, min_dpi: int = 72,
                asked: float | None = None):
    """Page ``index`` (0-based) of an open document as a PIL image at ``dpi`` (refused as ``page_of``)."""
    import pypdfium2 as pdfium

    page = page_of(document, index, dpi, source, min_dpi, asked)
    try:
        return page.render(scale=dpi / 72).to_pil()
    except pdfium.PdfiumError as err:
        raise unreadable(f"page {index + 1}: {err}", source) from None


def pdf_pages(path: Path, dpi: float, found=None, asked: float | None = None):
    """Each page of a PDF file as an image, one at a time. ``found()``, given, says whether a
    kitgen code was found so far: a PDF not made by kitgen is given up, in one line, when none
    was on its first FIRST_PAGES pages. ``asked``: as ``render_page``."""
    return pdf_pages_of(str(path), dpi, source=str(path), found=found, asked=asked)


def pdf_pages_of(pdf, dpi: float, source: str | None = None, found=None, asked: float | None = None):
    """Each page of a PDF (a path, or its bytes) as an image, one at a time (``found``: as
    ``pdf_pages``)."""
    document = open_pdf(pdf, source)
    try:
        give_up = found is not None and not made_by_kitgen(document)
        for index in range(len(document)):
            if give_up and index == FIRST_PAGES and not found():
                raise KitgenError(f"no kitgen key found on the first {FIRST_PAGES} pages; "
                                  "give a kitgen PDF, a scan or a payload", source=source)
            yield render_page(document, index, dpi, source, asked=asked)
    finally:
        document.close()


def images(kind: str, path: Path, dpi: float, found=None):
    """(where, image) for an image file, or for each page of a PDF (``found``: as ``pdf_pages``)."""
    if kind == "pdf":
        for number, image in enumerate(pdf_pages(path, dpi, found), 1):
            yield f"page {number}", image
    else:
        yield path.name, open_image(path)


def qr_texts(kind: str, path: Path, dpi: float) -> list[str]:
    """The text of every QR code in an image or PDF (for telling which family's they are)."""
    import zxingcpp

    found = []
    for _, image in images(kind, path, dpi):
        found += [code.text for code in zxingcpp.read_barcodes(image.convert("RGB"),
                                                               formats=zxingcpp.BarcodeFormat.QRCode)]
    return found
