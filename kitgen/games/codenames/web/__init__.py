"""``verify.html``: one self-contained page that shows a key card from its payload (typed,
pasted, in the URL fragment, or scanned with the camera) and, given the kit's seed, checks
that it belongs to the kit -- offline, from the kit folder, a static host or a phone's files
(docs/design.md §5.5). The page inlines jsQR (vendor/) for browsers without BarcodeDetector."""

import importlib.resources
from pathlib import Path

from kitgen import __version__, layouts

JSQR_VERSION = "1.4.0"


def _folder() -> Path:
    return Path(str(importlib.resources.files("kitgen.games.codenames.web")))


def page(layout) -> bytes:
    """The page, with the layout's type colours; the same bytes for the same layout."""
    template = (_folder() / "verify.html").read_text("utf-8")
    jsqr = (_folder() / "vendor" / "jsQR.js").read_text("utf-8").replace("</script", "<\\/script")
    values = {"VERSION": __version__, "JSQR_VERSION": JSQR_VERSION}
    for kind in ("red", "blue", "bystander", "assassin"):
        values[kind.upper()] = layout.colours[layout.types[kind].colour].rgb
    values["GREEN"] = _green(layout)
    for name, value in values.items():
        template = template.replace("{{" + name + "}}", value)
    return template.replace("{{JSQR}}", jsqr).encode("utf-8")


def _green(layout) -> str:
    """The duet edition's green agent colour: the layout's own ``types.green`` (a duet kit), else
    the built-in duet layout's, so every kit's page shows a duet key (docs/design.md §5.5, §12)."""
    if "green" not in layout.types:
        layout = layouts.load("duet")
    return layout.colours[layout.types.green.colour].rgb
