"""Pages of a kit (or any PDF) as PNG files, to look at without a PDF viewer."""

import os
import re
import tempfile
from pathlib import Path

from .errors import KitgenError

MIN_DPI = 20          # kitgen preview --dpi's least


def parse_pages(spec: str, count: int) -> list[int]:
    """``"1,3-5"`` -> [1, 3, 4, 5]; ``"all"`` -> every page. Pages are 1-based."""
    if spec.strip().lower() == "all":
        return list(range(1, count + 1))
    pages: list[int] = []
    for part in spec.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not match:
            raise KitgenError(f"--pages {spec!r}: write page numbers and ranges like 1,3-5 or all")
        first, last = int(match[1]), int(match[2] or match[1])
        if not 1 <= first <= last <= count:
            raise KitgenError(f"--pages {spec!r}: the PDF has pages 1 to {count}")
        pages += [p for p in range(first, last + 1) if p not in pages]
    return pages


def find_pdf(target: Path) -> Path:
    """A PDF, or a kit folder (its kit.pdf)."""
    if target.is_dir():
        target = target / "kit.pdf"
    if not target.exists():                  # a folder, FIFO or device: refused when it is read
        raise KitgenError("no such PDF or kit folder; build the kit first", source=str(target))
    return target


def render(target: Path, pages: str = "1", dpi: int = 100, out: Path | None = None) -> list[Path]:
    """Write the chosen pages as ``<name>-p<N>.png``; returns the paths written."""
    from . import scans

    pdf = find_pdf(Path(target))
    out = Path(out) if out else pdf.parent / "preview"
    document = scans.open_pdf(pdf)
    written = []
    try:
        chosen = parse_pages(pages, len(document))
        for number in chosen:                  # every page refused before any is written
            scans.page_of(document, number - 1, dpi, str(pdf), min_dpi=MIN_DPI)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise KitgenError(f"cannot write here: {err.strerror}; choose another --out", source=str(out)) from None
        for number in chosen:
            image = scans.render_page(document, number - 1, dpi, str(pdf), min_dpi=MIN_DPI)
            path = out / f"{pdf.stem}-p{number}.png"
            handle, tmp = tempfile.mkstemp(dir=out, suffix=".png.tmp")
            os.close(handle)
            try:
                image.save(tmp, format="PNG", optimize=True)
                os.replace(tmp, path)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
            written.append(path)
    finally:
        document.close()
    return written
