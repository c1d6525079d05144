"""Press colour for PDF/X (docs/design.md §8.11): the output profile (a CMYK ICC profile from a
package, or a file the user gives), pictures converted into it by LittleCMS through Pillow's
ImageCms, and the total ink limit (``press.max_ink``) that every layout colour and every picture
pixel keeps."""

import functools
import hashlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from kitgen import files
from kitgen.errors import KitgenError

# The default output profile: ISO Coated v2 300% by basICColor (the FOGRA39 printing condition,
# at most 300 % ink), zlib licence, as Debian's scribus-data package installs it.
DEFAULT_PROFILE = Path("/usr/share/scribus/profiles/ISOcoated_v2_300_bas.icc")
DEFAULT_PACKAGE = "scribus-data"
MAX_ICC_BYTES = 50_000_000       # an --icc file larger than this is refused, not read (press profiles: 0.5-5 MB)
# Output conditions kitgen knows by a profile's description: (OutputConditionIdentifier, RegistryName,
# OutputCondition, licence). The identifier and condition are the ICC Characterization Data
# Registry's entry for FOGRA39; any other profile is a "Custom" condition described by the profile.
KNOWN = {
    "ISO Coated v2 300% (basICColor)": (
        "FOGRA39", "http://www.color.org",
        "Offset commercial and specialty printing according to ISO 12647-2:2004/Amd 1, paper type 1 or 2 "
        "(gloss or matte coated offset, 115 g/m2), screen frequency 60/cm",
        "zlib licence, (c) 2007-2010 basICColor GmbH"),
}
# Relative colorimetric with black point compensation: a colour the press can print is printed as
# it is (a picture's team colours stay themselves), one it cannot is clipped to the nearest it can,
# and the source's black maps to the press's black, so shadows keep their detail.
INTENT = "relative colorimetric with black point compensation"
_RELATIVE_COLORIMETRIC = 1                   # the ICC's number for the intent
_BLACK_POINT_COMPENSATION = 0x2000            # LittleCMS's cmsFLAGS_BLACKPOINTCOMPENSATION


@dataclass(frozen=True)
class Profile:
    """A CMYK output profile and the printing condition it describes (the PDF/X OutputIntent)."""

    path: str
    data: bytes = field(repr=False)
    description: str
    identifier: str                 # OutputConditionIdentifier: a registered condition, or "Custom"
    registry: str | None            # RegistryName of a registered condition
    condition: str                  # the condition in words: the OutputIntent's /Info
    source: str                     # where the file came from: a package and its version, or the path given
    licence: str | None

    @functools.cached_property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def record(self) -> dict:
        """What the manifest says of the profile."""
        return {"name": self.description, "file": self.path, "sha256": self.digest, "condition": self.identifier,
                "source": self.source, "licence": self.licence}


def load_profile(path: str | None = None) -> Profile:
    """The profile at ``path`` (``--icc``), else the default profile from its package; one line
    saying what to install or give when there is none, or when the file is no CMYK output profile."""
    if path is None:
        if not DEFAULT_PROFILE.is_file():
            raise KitgenError(f"PDF/X (--pdfx, --pod dtc) needs a CMYK output profile: install Debian's "
                              f"{DEFAULT_PACKAGE} package (apt install {DEFAULT_PACKAGE}, which has "
                              f"{DEFAULT_PROFILE.name}), or give your print shop's profile with --pdfx --icc PATH")
        file, source = DEFAULT_PROFILE, _package_source(DEFAULT_PACKAGE)
    else:
        file, source = Path(path), str(path)
    try:
        data = files.read_bytes(file, MAX_ICC_BYTES, "ICC profiles")
    except KitgenError as err:
        raise KitgenError(f"cannot read the ICC profile: {err.message}", source=str(file)) from None
    description = _check_profile(data, str(file))
    identifier, registry, condition, licence = KNOWN.get(description, ("Custom", None, description, None))
    return Profile(str(file), data, description, identifier, registry, condition, source, licence)


def _check_profile(data: bytes, where: str) -> str:
    """The profile's description; refused unless it is an ICC output ('prtr') profile of CMYK."""
    from PIL import ImageCms

    if len(data) < 128 or data[36:40] != b"acsp":
        raise KitgenError("is not an ICC profile; give a CMYK output profile (.icc) with --icc", source=where)
    if data[12:16] != b"prtr" or data[16:20] != b"CMYK":
        kind = data[12:16].decode("latin-1").strip()
        space = data[16:20].decode("latin-1").strip()
        raise KitgenError(f"is a {kind!r} profile of {space}, not a CMYK output ('prtr') profile; PDF/X-1a prints "
                          "CMYK, so give your press's CMYK profile", source=where)
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
    except (OSError, ImageCms.PyCMSError):
        raise KitgenError("is not a readable ICC profile", source=where) from None
    return (profile.profile.profile_description or Path(where).stem).strip()


def _package_source(package: str) -> str:
    """``Debian package scribus-data 1.5.8+dfsg-4``, as dpkg's status file says; the name alone
    where there is no dpkg."""
    try:
        status = Path("/var/lib/dpkg/status").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return f"package {package}"
    match = re.search(rf"^Package: {re.escape(package)}\n(?:[^\n]+\n)*?Version: (\S+)", status, re.M)
    return f"Debian package {package} {match.group(1)}" if match else f"package {package}"


def for_press(layout, profile: Profile):
    """The layout of a --pdfx build: its colours checked against ``press.max_ink``
    (check_colours), and carrying, as ``pdfx``, the Conversion its pictures go through
    (render/pictures.py)."""
    from kitgen import layouts

    check_colours(layout, lambda path: layouts.where(layout, path))
    pressed = layouts.Node({**layout, "pdfx": Conversion(profile, layout.press.max_ink)})
    pressed._origins = getattr(layout, "_origins", {})
    return pressed


def ink(cmyk) -> float:
    """A CMYK colour's total ink in percent (each value 0 to 1): 400 at most."""
    return round(sum(cmyk) * 100, 6)


def check_colours(layout, where) -> None:
    """Every colour of the layout keeps within ``press.max_ink``; the first that does not is one
    line naming it, its values and where it was set, and where the limit was (``where(path)`` gives
    a key path's file and line, layouts.where)."""
    limit = layout.press.max_ink
    over = [(name, spec.cmyk) for name, spec in layout.colours.items() if ink(spec.cmyk) > limit]
    if not over:
        return
    name, cmyk = over[0]
    source, line = where(("colours", name, "cmyk"))
    limit_file, limit_line = where(("press", "max_ink"))
    limit_at = f" ({Path(limit_file).name}:{limit_line})" if limit_file else ""
    others = f" (also {', '.join(f'{n} {ink(c):g}%' for n, c in over[1:])})" if len(over) > 1 else ""
    raise KitgenError(f"colour {name} is {ink(cmyk):g}% ink (CMYK {', '.join(f'{v:g}' for v in cmyk)}), over "
                      f"press.max_ink {limit:g}%{limit_at}{others}; lower its cmyk "
                      "values in your layout, or raise press.max_ink if your press allows", source=source, line=line)


@dataclass(frozen=True)
class Conversion:
    """How a PDF/X kit's pictures are made CMYK: through ``profile`` (INTENT), then kept within
    ``max_ink`` percent of total ink. ``key`` names it in the picture caches."""

    profile: Profile
    max_ink: float

    @property
    def key(self) -> str:
        return f"pdfx:{self.profile.digest[:16]}:{self.max_ink:g}"

    def image(self, image):
        """A PIL image in CMYK: its transparent parts paper first; converted from its own ICC
        profile (else sRGB) into the output profile, then limited (limit_ink). A CMYK image
        without a profile is taken to be for this press already and is only limited."""
        from PIL import Image, ImageCms

        if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
            rgba = image.convert("RGBA")
            image = Image.alpha_composite(Image.new("RGBA", rgba.size, (255, 255, 255, 255)), rgba)
        mode = "CMYK" if image.mode == "CMYK" else "RGB"
        source = _embedded_profile(image.info.get("icc_profile"), mode)
        if mode == "CMYK" and source is None:
            return limit_ink(image, self.max_ink)
        transform = _transform(self.profile, source, mode)
        return limit_ink(ImageCms.applyTransform(image.convert(mode), transform), self.max_ink)

    def colour(self, colour):
        """A reportlab RGB colour (an SVG's) as the CMYKColor the profile prints it as, within the limit."""
        from reportlab.lib.colors import CMYKColor

        if isinstance(colour, CMYKColor):
            return colour
        c, m, y, k = _rgb_to_cmyk(self.profile, self.max_ink, *(round(v * 255) for v in
                                                               (colour.red, colour.green, colour.blue)))
        return CMYKColor(c / 255, m / 255, y / 255, k / 255, alpha=getattr(colour, "alpha", 1))


@functools.lru_cache(maxsize=4096)
def _rgb_to_cmyk(profile: Profile, max_ink: float, r: int, g: int, b: int) -> tuple[int, ...]:
    """One sRGB colour through the profile, as a one-pixel image (the same path as pictures)."""
    from PIL import Image

    pixel = Conversion(profile, max_ink).image(Image.new("RGB", (1, 1), (r, g, b)))
    return tuple(pixel.getpixel((0, 0)))


def _embedded_profile(data: bytes | None, mode: str) -> bytes | None:
    """A picture's own ICC profile when it is a readable one for its pixels' colour space, else None
    (an RGB picture is then read as sRGB; a CMYK one is taken as made for the press)."""
    from PIL import ImageCms

    if not data or len(data) < 20 or data[16:20].decode("latin-1").strip() != ("CMYK" if mode == "CMYK" else "RGB"):
        return None
    try:
        ImageCms.ImageCmsProfile(io.BytesIO(data))
    except (OSError, ImageCms.PyCMSError):
        return None
    return data


@functools.lru_cache(maxsize=16)
def _transform(profile: Profile, source: bytes | None, mode: str):
    """LittleCMS's transform from ``source`` (a picture's profile; None: sRGB) into the output profile."""
    from PIL import ImageCms

    source_profile = ImageCms.ImageCmsProfile(io.BytesIO(source)) if source else ImageCms.createProfile("sRGB")
    return ImageCms.buildTransform(source_profile, ImageCms.ImageCmsProfile(io.BytesIO(profile.data)), mode, "CMYK",
                                   renderingIntent=_RELATIVE_COLORIMETRIC, flags=_BLACK_POINT_COMPENSATION)


def limit_ink(image, max_ink: float):
    """A CMYK image whose every pixel has at most ``max_ink`` percent of ink in all: where a pixel has
    more, the grey component its cyan, magenta and yellow share is moved to black (grey component
    replacement) as far as that takes it, then cyan, magenta and yellow are scaled down together."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(image, dtype=np.int32)
    limit = int(max_ink * 255 // 100)
    total = pixels.sum(axis=-1)
    if total.max(initial=0) <= limit:
        return image
    c, m, y, k = (pixels[..., i] for i in range(4))
    excess = np.maximum(total - limit, 0)
    grey = np.minimum.reduce([(excess + 1) // 2, c, m, y, 255 - k])
    c, m, y, k = c - grey, m - grey, y - grey, k + grey
    colour = c + m + y
    room = np.maximum(limit - k, 0)
    scale = np.where(colour > room, room / np.maximum(colour, 1), 1.0)
    c, m, y = (np.floor(v * scale).astype(np.int32) for v in (c, m, y))
    return Image.frombytes("CMYK", image.size, np.stack([c, m, y, k], axis=-1).astype(np.uint8).tobytes())
