"""One picture for every suspect, crime and location of a theme (docs/design.md §10.6): the
theme's own (``picture:`` a file beside the theme, or an icon such as ``phosphor:bell``), or
else one kitgen makes: a portrait drawn from a seed for a suspect (render/portraits.py), an
icon from a curated list for a crime or a location, chosen by the theme's id and the name,
never one the theme already uses. Resolved once, before anything is drawn; the card, the
tile, the board and the notepad all draw that one picture, and the manifest records it."""

import dataclasses
import hashlib

from kitgen import pictures as kernel
from kitgen.errors import KitgenError
from kitgen.games.deduction.render import portraits

KINDS = ("suspects", "crimes", "locations")
ICON_SET = "phosphor"
# icons a crime or a location may be given when the theme names none: things and places that
# read at a glance; a crime takes from its own list first, then the locations', and the other way
CURATED = {
    "crimes": ("palette", "cooking-pot", "medal", "carrot", "bell", "map-trifold", "binoculars", "ticket",
               "compass-rose", "sailboat", "key", "crown", "diamond", "coins", "scroll", "hourglass", "guitar",
               "camera", "umbrella", "vault", "cake", "trophy", "gift", "lock", "envelope", "feather",
               "wine", "puzzle-piece", "watch", "pen-nib", "bicycle", "balloon", "piggy-bank", "flask", "egg",
               "magic-wand", "lamp", "handbag", "sword", "dice-five"),
    "locations": ("train", "windmill", "moon-stars", "books", "clock", "mask-happy", "bank", "plant", "flower",
                  "boat", "lighthouse", "fish", "anchor", "crane-tower", "church", "castle-turret", "tree",
                  "storefront", "barn", "tent", "factory", "bridge", "mountains", "house", "hospital",
                  "coffee", "fork-knife", "campfire", "park", "island", "warehouse", "swimming-pool", "tipi",
                  "farm", "mosque", "synagogue", "tree-palm", "garage", "lectern", "beer-stein"),
}


@dataclasses.dataclass(frozen=True)
class Drawn:
    """A thing's picture as the kit draws it: kind, name, where it came from, the picture."""

    kind: str
    name: str
    source: str                 # generated:<algorithm>, icon:<set>/<name> or file
    picture: kernel.Picture

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.picture.data).hexdigest()


def _icon(name: str) -> kernel.Picture | None:
    try:
        reference, data = kernel.icon(f"{ICON_SET}:{name}", "kitgen", None)
    except KitgenError:      # not in this version of the set, or the set not installed
        return None
    return kernel.read_picture(reference, data, True)


def _order(theme_id: str, name: str, options: tuple) -> list:
    """``options`` in an order of their own for this name: by sha256(theme id, name, option)."""
    return sorted(options, key=lambda o: hashlib.sha256(f"{theme_id}\n{name}\n{o}".encode()).digest())


def resolve(theme) -> tuple[Drawn, ...]:
    """Every suspect's, crime's and location's picture, in the theme's order, kind by kind;
    no two the same (by content)."""
    used = {entry.picture.digest for kind in KINDS for entry in getattr(theme, kind) if entry.picture is not None}
    taken: set = set()
    out = []
    for kind in KINDS:
        for entry in getattr(theme, kind):
            if entry.picture is not None:
                set_name, _, icon = entry.picture.name.partition(":")
                source = f"icon:{set_name}/{icon}" if set_name in kernel.ICON_SETS and icon else "file"
                out.append(Drawn(kind, entry.name, source, entry.picture))
                continue
            if kind == "suspects":
                data = portraits.portrait(theme.id, entry.name, taken)
                picture = kernel.read_picture(f"portrait of {entry.name}", data, True)
                while picture.digest in used:           # a theme's own file the same: try the next seed
                    data = portraits.portrait(theme.id, entry.name, taken)
                    picture = kernel.read_picture(f"portrait of {entry.name}", data, True)
                out.append(Drawn(kind, entry.name, f"generated:{portraits.ALGORITHM}", picture))
            else:
                other = "locations" if kind == "crimes" else "crimes"
                picked = None
                for option in _order(theme.id, entry.name, CURATED[kind]) + _order(theme.id, entry.name,
                                                                                     CURATED[other]):
                    picture = _icon(option)
                    if picture is not None and picture.digest not in used:
                        picked = (option, picture)
                        break
                if picked is None:                      # more things than icons: a portrait-like seal
                    data = portraits.portrait(theme.id, f"{kind}:{entry.name}", taken)
                    picture = kernel.read_picture(f"emblem of {entry.name}", data, True)
                    out.append(Drawn(kind, entry.name, f"generated:{portraits.ALGORITHM}", picture))
                else:
                    out.append(Drawn(kind, entry.name, f"icon:{ICON_SET}/{picked[0]}", picked[1]))
            used.add(out[-1].picture.digest)
    return tuple(out)


def with_pictures(theme, drawn: tuple[Drawn, ...]):
    """The theme with every entry's picture set to the one resolved for it."""
    by = {(d.kind, d.name): d.picture for d in drawn}
    return dataclasses.replace(theme, **{kind: tuple(dataclasses.replace(e, picture=by[(kind, e.name)])
                                                     for e in getattr(theme, kind)) for kind in KINDS})


def manifest(drawn: tuple[Drawn, ...]) -> list[dict]:
    """What the manifest says of the pictures: one entry a picture."""
    return [{"kind": d.kind[:-1], "name": d.name, "source": d.source, "sha256": d.sha256} for d in drawn]


def icon_set_version() -> str:
    """The Phosphor icons' own version, as their package records it (``phosphor_version.txt``)."""
    return kernel.icon_set_version(ICON_SET)


def icon_set_used(drawn) -> bool:
    return any(d.source.startswith(f"icon:{ICON_SET}/") for d in drawn)


# what each component drew, for tests: None (not recording) or a list of (component, kind, name, sha256)
log: list | None = None


FORM = 100.0          # an SVG picture's form: its longer side this long, in points


def draw(c, component: str, kind: str, name: str, picture, box, font: str, layout, colour: str):
    """``picture`` whole in ``box`` (x, y, w, h), centred: the one drawing path of every component.
    An SVG picture is drawn once a document, as a form (a PDF XObject) that every later draw of it
    in that colour refers to, so the notepad's sheets and the kit do not repeat its paths; a PNG
    or JPEG is one image a document already."""
    from kitgen.render import paint, pictures as render_pictures

    if log is not None:
        log.append((component, kind, name, hashlib.sha256(picture.data).hexdigest()))
    if not picture.vector:
        render_pictures.draw(c, picture, box, "contain", font, layout, colour)
        return
    pw, ph = kernel.svg_size(picture.data, picture.name)
    fw, fh = pw * FORM / max(pw, ph), ph * FORM / max(pw, ph)
    pdfx = layout.get("pdfx")
    made_of = repr((picture.digest, font, repr(paint.colour(layout, colour)), paint.is_cmyk(layout),
                    getattr(pdfx, "key", None)))
    form = "kgpicture" + hashlib.sha256(made_of.encode()).hexdigest()[:24]
    if not c._doc.hasForm(form):
        c.beginForm(form, 0, 0, fw, fh)
        render_pictures.draw(c, picture, (0, 0, fw, fh), "contain", font, layout, colour)
        c.endForm()
    x, y, w, h = box
    scale = min(w / fw, h / fh)
    c.saveState()
    c.translate(x + (w - fw * scale) / 2, y + (h - fh * scale) / 2)
    c.scale(scale, scale)
    c.doForm(form)
    c.restoreState()
