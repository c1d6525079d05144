"""Every PDF kitgen writes starts here: a reportlab canvas that gives the same bytes
for the same drawing on any machine (docs/design.md §8.4).

reportlab's invariant mode fixes the document's date (2000-01-01) and derives its
ID from the content, except that it takes the date from SOURCE_DATE_EPOCH when
that is set. kitgen's output does not depend on the time at all, so the canvas's
timestamp is put back to invariant mode's own, whatever the environment says
(without touching the environment, which other threads may be reading)."""

import hashlib
import time
import zlib

from .. import __version__

INVARIANT_TIME = 946684800.0        # reportlab's invariant date: 2000-01-01 00:00:00 UTC


def _invariant_timestamp(doc) -> None:
    """The timestamp and ID seed reportlab's invariant mode gives when SOURCE_DATE_EPOCH is unset."""
    stamp = doc._timeStamp
    if stamp.t == INVARIANT_TIME:
        return
    stamp.t = INVARIANT_TIME
    stamp.lt = time.gmtime(INVARIANT_TIME)
    stamp.YMDhms = tuple(stamp.lt)[:6]
    stamp.dhh = stamp.dmm = 0
    stamp.tzname = "UTC"
    doc.signature = hashlib.md5(b"a reportlab document" + ascii(INVARIANT_TIME).encode(), usedforsecurity=False)


class _Once:
    """What an encoder of reportlab's PDF writer gave for a stream, kept: a stream encoded before in
    this process (a part's pages, drawn again into kit.pdf) gets the bytes of the first time, the same
    bytes (docs/design.md §8.10). What is kept is bounded: the least recently used goes first."""

    BUDGET = 64_000_000          # bytes of encoded streams kept

    def __init__(self):
        from ..pictures import ContentCache

        self.kept = ContentCache(4096, self.BUDGET, len)

    def once(self, data, extra, make):
        """``make()``, or what it gave before for ``data`` (bytes or text) and ``extra``."""
        key = (hashlib.sha256(data if isinstance(data, bytes) else data.encode("utf-8")).digest(), extra)
        found = self.kept.get(key)
        if found is None:
            found = make()
            self.kept.put(key, found)
        return found


class _Deflate(_Once):
    """zlib as reportlab's PDF writer sees it, each stream compressed once."""

    def compress(self, data, *args, **kwargs):
        return self.once(data, (args, tuple(sorted(kwargs.items()))), lambda: zlib.compress(data, *args, **kwargs))

    def __getattr__(self, name):
        return getattr(zlib, name)


class _Base85(_Once):
    """reportlab's ASCII85 filter, each stream encoded once and given as bytes: the text it gives is
    ASCII, which reportlab would otherwise encode character by character through its own
    PDFDocEncoding codec (the same bytes; on a page of pictures that codec was most of the writing)."""

    pdfname = "ASCII85Decode"

    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def encode(self, data):
        def make():
            text = self.inner.encode(data)
            return text.encode("ascii") if isinstance(text, str) else text

        return self.once(data, None, make)

    def decode(self, text):
        return self.inner.decode(text)


def _streams_once() -> None:
    """reportlab's pdfdoc compresses through ``_Deflate`` and encodes ASCII85 through ``_Base85``
    (installed once, for every canvas)."""
    from reportlab.pdfbase import pdfdoc

    if not isinstance(pdfdoc.zlib, _Deflate):
        pdfdoc.zlib = _Deflate()
    if not isinstance(pdfdoc.PDFBase85Encode, _Base85):
        pdfdoc.PDFBase85Encode = _Base85(pdfdoc.PDFBase85Encode)


def new_canvas(buffer, page_size, fonts: dict[str, str], *, title: str | None = None, font_size: float = 10,
               cmyk: bool = False, print_scaling: bool = True):
    """A canvas writing into ``buffer``: compressed pages, our own font as the initial font (no
    Helvetica leaks in), CMYK enforced when asked, and 'do not scale' for a printed document."""
    from reportlab.pdfgen import canvas

    _streams_once()
    c = canvas.Canvas(buffer, pagesize=page_size, invariant=1, pageCompression=1,
                      initialFontName=fonts["label"], initialFontSize=font_size,
                      enforceColorSpace="cmyk" if cmyk else None)
    _invariant_timestamp(c._doc)
    if title is not None:
        c.setTitle(title)
    c.setCreator(f"kitgen {__version__}")
    if print_scaling:
        c.setViewerPreference("PrintScaling", "None")
    return c
