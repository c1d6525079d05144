"""What ``kitgen verify`` reads: a payload typed in, a photo or scan, or a PDF, and the
QR codes found in them (zxing-cpp), for any game family to check."""

from dataclasses import dataclass, field
from pathlib import Path

from kitgen.errors import KitgenError

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg"}
MAX_PIXELS = 80_000_000
NO_CODE = "no QR code found; scan the card flat, at 200 dpi or more, with the whole QR in view"


@dataclass
class Checked:
    """One code checked: where it was found, its payload, what is wrong, and notes."""

    where: str                      # "payload", "page 3", "scan.jpg"
    payload: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


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
