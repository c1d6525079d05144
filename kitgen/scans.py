"""What ``kitgen verify`` reads: a payload typed in, a photo or scan, or a PDF, and the
QR codes found in them (zxing-cpp), for any game family to check."""

from dataclasses import dataclass, field
from pathlib import Path

from kitgen.errors import KitgenError

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg"}
MAX_PIXELS = 80_000_000
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

    @property
    def centre(self) -> tuple[float, float]:
        return (sum(x for x, _ in self.corners) / 4, sum(y for _, y in self.corners) / 4)

    @property
    def size(self) -> float:
        (x0, y0), (x1, y1), (x2, y2), _ = self.corners
        return ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 / 2 + ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5 / 2


# Photos defeat one reading in different ways: the image as it is; sharpened (a phone's
# soft focus and JPEG blur the modules together); twice as large and sharpened (a code
# under about 3 pixels a module, or far and tilted). Each pass adds the codes it finds.
PASSES = ((1, 0.0), (1, 1.0), (2, 1.0))          # (scale, unsharp amount)


def find_codes(image) -> list[Code]:
    """Every QR code in ``image`` (PIL or numpy), each once, from the passes above."""
    import numpy as np
    import zxingcpp

    grey = np.asarray(image.convert("L")) if hasattr(image, "convert") else image
    found: list[Code] = []
    for scale, amount in PASSES:
        view = grey
        if scale != 1 or amount:
            import cv2

            if scale != 1:
                view = cv2.resize(view, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            if amount:
                soft = cv2.GaussianBlur(view, (0, 0), 1.5 * scale)
                view = cv2.addWeighted(view, 1 + amount, soft, -amount, 0)
        for code in zxingcpp.read_barcodes(view, formats=zxingcpp.BarcodeFormat.QRCode):
            if not code.valid:
                continue
            p = code.position
            corners = tuple((q.x / scale, q.y / scale) for q in (p.top_left, p.top_right, p.bottom_right,
                                                                  p.bottom_left))
            new = Code(code.text, corners)
            if not any(old.text == new.text and _near(old, new) for old in found):
                found.append(new)
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
    """("payload", text), ("image", path) or ("pdf", path); a missing file is an error."""
    path = Path(target) if len(target) < 1024 and "\n" not in target and "\0" not in target else None
    is_file = path is not None and path.suffix.lower() in IMAGE_SUFFIXES | {".pdf"}
    try:
        exists = is_file and path.is_file()
    except OSError:
        exists = False
    if is_file and not exists:
        raise KitgenError("file not found; check the path", source=target)
    if not is_file:
        return "payload", target.strip()
    return ("pdf" if path.suffix.lower() == ".pdf" else "image"), path


def open_image(path: Path):
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    try:
        image = Image.open(path)
        image.load()
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError) as err:
        reason = "too large" if isinstance(err, Image.DecompressionBombError) else "not a readable PNG or JPEG image"
        raise KitgenError(f"is {reason}", source=str(path)) from None
    return image


def pdf_pages(path: Path, dpi: float):
    """Each page of a PDF file as an image, one at a time."""
    return pdf_pages_of(str(path), dpi, source=str(path))


def pdf_pages_of(pdf, dpi: float, source: str | None = None):
    """Each page of a PDF (a path, or its bytes) as an image, one at a time."""
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(pdf)
    except pdfium.PdfiumError:
        raise KitgenError("is not a readable PDF", source=source) from None
    try:
        for index in range(len(document)):
            yield document[index].render(scale=dpi / 72).to_pil()
    finally:
        document.close()


def images(kind: str, path: Path, dpi: float):
    """(where, image) for an image file, or for each page of a PDF."""
    if kind == "pdf":
        for number, image in enumerate(pdf_pages(path, dpi), 1):
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
