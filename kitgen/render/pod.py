"""Print-on-demand exports (``--pod SERVICE``, docs/design.md §8.13): every card part at the
service's nearest standard card size, one image a face or one PDF a deck.

The service is data: the layout's ``pod`` section, which the presets ``layouts/pod-*.yaml`` set.
A card keeps its own design: it is scaled (the same in both directions) to fit the service's
trim, centred, turned a quarter into a portrait image when the service takes portrait images,
and its own bleed (which the presets make wide enough) fills the rest of the service's bleed.
Nothing a card prints in a box of its layout section may come nearer the trim than ``safe``.
"""

import io
import math
from dataclasses import dataclass

from ..errors import KitgenError
from .cards import CardSet
from .pdf import new_canvas

MM = 72 / 25.4


@dataclass(frozen=True)
class Target:
    """Where one part's cards go on the service."""

    part: str
    size: str                       # the service's name for the card size
    trim: tuple[float, float]       # the service card's trim, as the image stands (points)
    turned: bool                    # our card turned a quarter into it (a landscape card in a portrait image)
    scale: float                    # our card scaled by this to fit the trim
    bleed: float                    # the service's bleed, each side (points)

    @property
    def page(self) -> tuple[float, float]:
        """The image (or PDF page) with its bleed, in points."""
        return (self.trim[0] + 2 * self.bleed, self.trim[1] + 2 * self.bleed)

    def pixels(self, dpi: float) -> tuple[int, int]:
        return tuple(round(v * dpi / 72) for v in self.page)


def target(part: str, width: float, height: float, pod) -> Target | None:
    """The service size nearest a ``width`` x ``height`` card: the one whose shorter and longer
    sides differ least from the card's (the larger of the two shares), and only when that is
    within ``pod.tolerance``; None when no size is near enough."""
    short, long = sorted((width, height))
    best = None
    for name, sides in pod.sizes.items():
        s_short, s_long = sorted(sides)
        deviation = max(abs(s_short / short - 1), abs(s_long / long - 1))
        if best is None or deviation < best[0] - 1e-9:
            best = (deviation, name, s_short, s_long)
    if best is None or best[0] > pod.tolerance + 1e-9:
        return None
    _, name, s_short, s_long = best
    landscape = width > height + 1e-9
    if pod.portrait:
        trim, turned = (s_short, s_long), landscape
    else:
        trim, turned = ((s_long, s_short) if landscape else (s_short, s_long)), False
    w, h = (height, width) if turned else (width, height)
    return Target(part, name, trim, turned, min(trim[0] / w, trim[1] / h), pod.bleed)


def matrix(t: Target, width: float, height: float, side: str) -> tuple[float, ...]:
    """The transform from the upright card (origin at its trim's bottom-left) to the image
    (origin at its bottom-left, bleed included). A turned front has its top at the image's
    left edge, a turned back its top at the right edge: a portrait card turned over about its
    long side then has both tops on the same physical edge (§8.2)."""
    s = t.scale
    cx, cy = t.page[0] / 2, t.page[1] / 2
    if not t.turned:
        a, b, c, d = s, 0.0, 0.0, s
    elif side == "front":
        a, b, c, d = 0.0, s, -s, 0.0           # a quarter turn anticlockwise
    else:
        a, b, c, d = 0.0, -s, s, 0.0           # a quarter turn clockwise
    # the card's centre goes to the image's centre
    hw, hh = width / 2, height / 2
    return a, b, c, d, cx - a * hw - c * hh, cy - b * hw - d * hh


def apply(m: tuple[float, ...], u: float, v: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * u + c * v + e, b * u + d * v + f


def _extent(m, box) -> tuple[float, float, float, float]:
    x, y, w, h = box
    xs, ys = zip(*(apply(m, u, v) for u in (x, x + w) for v in (y, y + h)))
    return min(xs), min(ys), max(xs), max(ys)


def check(t: Target, cards: CardSet, boxes: dict[str, tuple], pod, section: str):
    """The card's own bleed must cover the service's image, and every box of its layout
    section must keep ``pod.safe`` from the service card's trim; one line otherwise."""
    spec = cards.spec
    b = spec.bleed
    transforms = [matrix(t, spec.width, spec.height, side) for side in ("front", "back")]
    for m in transforms:
        x0, y0, x1, y1 = _extent(m, (-b, -b, spec.width + 2 * b, spec.height + 2 * b))
        if x0 > 1e-3 or y0 > 1e-3 or x1 < t.page[0] - 1e-3 or y1 < t.page[1] - 1e-3:
            needed = max(t.page[0] / t.scale - (spec.height if t.turned else spec.width),
                         t.page[1] / t.scale - (spec.width if t.turned else spec.height)) / 2
            raise KitgenError(f"{section}.bleed ({b / MM:g} mm) does not fill the {pod.name} {t.size} card's "
                              f"bleed; give it at least {math.ceil(needed / MM * 10) / 10:g} mm in the layout")
    low = t.bleed + pod.safe                 # from the image's edge to the safe zone's, every side
    for name, box in boxes.items():
        for m in transforms:
            x0, y0, x1, y1 = _extent(m, box)
            if min(x0, y0) < low - 1e-3 or x1 > t.page[0] - low + 1e-3 or y1 > t.page[1] - low + 1e-3:
                raise KitgenError(f"{section}.{name}.box comes within {pod.safe / MM:g} mm of the {pod.name} "
                                  f"{t.size} card's trim (its safe zone); move it inward in the layout")


def section_boxes(section) -> dict[str, tuple]:
    """The boxes of a layout section's entries (``word.box``, ``qr.box``, ...): what a card
    prints there must stay in the service's safe zone (an entry with ``show: false`` prints nothing)."""
    return {key: item["box"] for key, item in section.items()
            if isinstance(item, dict) and "box" in item and item.get("show", True)}


def _faces(cards: CardSet, pod) -> list[tuple[str, object]]:
    """(side, draw) of each face a card has, in the service's order: front then back, or with
    ``pod.order`` back-front, back then front."""
    sides = [(side, draw) for side, draw in (("front", cards.front), ("back", cards.back)) if draw is not None]
    return sides[::-1] if pod.order == "back-front" else sides


def render(cards: CardSet, t: Target, pod, fonts: dict[str, str], title: str, cmyk: bool) -> bytes:
    """A PDF of every face at the service's size, one a page, TrimBox and BleedBox set: front 1,
    back 1, ... or, with ``pod.order`` back-front, back 1, front 1, ..."""
    spec = cards.spec
    buffer = io.BytesIO()
    c = new_canvas(buffer, t.page, fonts, title=title, cmyk=cmyk)
    c.setTrimBox((t.bleed, t.bleed, t.bleed + t.trim[0], t.bleed + t.trim[1]))
    c.setBleedBox((0, 0, t.page[0], t.page[1]))
    faces = _faces(cards, pod)
    for index in range(cards.count):
        for side, draw in faces:
            c.saveState()
            c.transform(*matrix(t, spec.width, spec.height, side))
            draw(c, index)
            c.restoreState()
            c.showPage()
    c.save()
    return buffer.getvalue()


def images(pdf: bytes, cards: CardSet, t: Target, pod, folder: str) -> list[tuple[str, bytes]]:
    """Every page of ``render``'s PDF as an RGB PNG of exactly ``t.pixels(pod.dpi)``, with the
    resolution recorded: ``<folder>/NNN-front.png``, ``NNN-back.png``."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    sides = [side for side, _ in _faces(cards, pod)]
    size = t.pixels(pod.dpi)
    out = []
    try:
        for page_index in range(len(document)):
            number, side = divmod(page_index, len(sides))
            page = document[page_index]
            image = page.render(scale=pod.dpi / 72).to_pil().convert("RGB")
            if image.size != size:          # pdfium rounds the page's size up: cut the part row or column
                image = image.crop((0, 0, *size)) if image.width >= size[0] and image.height >= size[1] \
                    else image.resize(size)
            buffer = io.BytesIO()
            image.save(buffer, "PNG", dpi=(pod.dpi, pod.dpi))
            out.append((f"{folder}/{number + 1:03d}-{sides[side]}.png", buffer.getvalue()))
    finally:
        document.close()
    return out


def for_service(layout, profile=None):
    """The layout a service's cards are drawn with: when the service takes PDF/X (``pod.pdfx``),
    its colours checked against its ``press.max_ink`` and its pictures going through ``profile``
    (the --pdfx one, else the default output profile; press.for_press, §8.11)."""
    if not layout.pod.pdfx:
        return layout
    from . import press

    return press.for_press(layout, profile or press.load_profile(None))


def files(service: str, card_sets: dict[str, CardSet], sections: dict[str, str], layout, fonts: dict[str, str],
          kit_name: str, progress) -> tuple[list, dict]:
    """The upload for ``service`` (``layout`` has its preset laid over it): for each part, its
    faces as ``pod-<service>/<part>/NNN-front.png``, ... or ``pod-<service>/<part>.pdf``; and
    the manifest's record of what went where. ``sections`` names each part's layout section;
    ``layout`` is ``for_service``'s."""
    from kitgen.output import BuiltFile

    from . import paint

    pod = layout.pod
    folder = f"pod-{service}"
    out, parts, skipped = [], {}, []
    for part, cards in card_sets.items():
        section = sections[part]
        t = target(part, cards.spec.width, cards.spec.height, pod)
        if t is None:
            skipped.append(part)
            continue
        check(t, cards, section_boxes(layout[section]), pod, section)
        progress.note(f"writing {part} for {pod.name}: {pod.sizes[t.size][0] / 72:g} x "
                      f"{pod.sizes[t.size][1] / 72:g} in ({t.size})")
        data = render(cards, t, pod, fonts, f"{kit_name}: {cards.title}", paint.is_cmyk(layout))
        faces = cards.count * (2 if cards.back is not None else 1)
        if pod.files == "png":
            written = [BuiltFile(path, png, 0) for path, png in images(data, cards, t, pod, f"{folder}/{part}")]
        else:
            written = [BuiltFile(f"{folder}/{part}.pdf", data, faces)]
            if pod.pdfx:            # as PDF/X-1a within the service's ink limit, checked (§8.11)
                from . import pdfx

                written = pdfx.convert(written, layout.pdfx.profile, layout.press.max_ink)
        out += written
        parts[part] = {"size": t.size, "trim_in": [round(v / 72, 4) for v in t.trim],
                       "image_px": list(t.pixels(pod.dpi)), "turned": t.turned, "scale": round(t.scale, 4),
                       "faces": faces, "files": [f.name for f in written] if pod.files == "pdf" else
                       f"{folder}/{part}/NNN-front.png, NNN-back.png"}
    record = {"service": service, "name": pod.name, "files": pod.files, "dpi": pod.dpi,
              "bleed_in": round(pod.bleed / 72, 4), "safe_in": round(pod.safe / 72, 4), "parts": parts,
              "not_exported": skipped}
    if pod.files == "pdf":
        record["order"] = pod.order
    if pod.pdfx:
        from . import pdfx

        record["pdfx"] = pdfx.record(layout.pdfx.profile, layout.press.max_ink)
    return out, record
