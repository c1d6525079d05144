"""Portraits of suspects, drawn by kitgen from a seed (docs/design.md §10.6): a head and
shoulders in a round frame, each feature (face shape, skin, hair and its colour, eyes,
brows, nose, mouth, hat, glasses, moustache or beard, clothes, backdrop) chosen from
the bytes of sha256(theme id, suspect name). The portrait is written as a small SVG,
so its bytes are the picture's canonical form: the manifest records their SHA-256, and
every component draws them through the same path as any other SVG picture. Every
shape has a dark outline and the colours differ in lightness, so a portrait reads in
black and white as well as in colour. No transparency (PDF/X-1a holds none)."""

import hashlib
import math

ALGORITHM = "portrait-1"        # bump when a portrait's drawing changes: the manifest names it
ZOOM = 1.12                     # the head's scale within the frame (shoulders and frame at 1)
INK = "#2a2420"
SKIN = ("#fbe3cf", "#f1c9a0", "#dfa978", "#c0875a", "#8e5a3a", "#5e3a26")
HAIR = ("#1f1a17", "#5a3620", "#a0522d", "#d9b45a", "#9a9a9a", "#f2f0ea", "#c8452c")
BACKDROP = ("#cfe3f1", "#f6d8c6", "#d8ecc9", "#ecd9f2", "#f7ecbc", "#cde9e3", "#f2cfd8", "#dcdcdc")
CLOTHES = ("#2f4f7f", "#7a2e3b", "#3d6b45", "#6b4a2e", "#4a4a58", "#8a6d1e", "#5b3d7a", "#1f5f66")
HATS = ("none", "none", "none", "top", "bowler", "beret", "cap", "boater")
HAIRS = ("bald", "short", "side", "bob", "long", "bun", "curly", "spiky")
EYES = ("dots", "round", "happy", "sleepy")
BROWS = ("none", "straight", "raised", "cross")
NOSES = ("button", "hook", "line", "round")
MOUTHS = ("smile", "flat", "open", "grin", "smirk")
FACES = ("oval", "round", "long", "square")
GLASSES = ("none", "none", "round", "square", "monocle")
FACIAL = ("none", "none", "none", "moustache", "curled", "beard", "freckles")


def features(seed: bytes) -> dict:
    """The portrait's features from the 32 bytes of ``seed`` (a SHA-256), one byte each."""
    picks = (("face", FACES), ("skin", SKIN), ("hair", HAIRS), ("hair_colour", HAIR), ("eyes", EYES),
             ("brows", BROWS), ("nose", NOSES), ("mouth", MOUTHS), ("hat", HATS), ("glasses", GLASSES),
             ("facial", FACIAL), ("backdrop", BACKDROP), ("clothes", CLOTHES), ("hat_colour", CLOTHES))
    return {name: options[seed[i] % len(options)] for i, (name, options) in enumerate(picks)}


def seed_of(theme_id: str, name: str, attempt: int = 0) -> bytes:
    text = f"{theme_id}\n{name}" + (f"\n{attempt}" if attempt else "")
    return hashlib.sha256(text.encode("utf-8")).digest()


def signature(f: dict) -> tuple:
    """What tells two portraits apart at a glance: no two suspects of a theme share it."""
    return (f["hair"] if f["hat"] == "none" else f["hat"], f["hair_colour"], f["skin"], f["glasses"], f["facial"])


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def svg(f: dict) -> bytes:
    """The portrait of features ``f`` as SVG bytes (100 x 100 units), the same bytes every run."""
    parts: list[str] = []
    line = f'stroke="{INK}" stroke-width="1.8" stroke-linejoin="round" stroke-linecap="round"'

    def add(shape: str):
        parts.append(shape)

    add(f'<circle cx="50" cy="50" r="48" fill="{f["backdrop"]}" {line}/>')
    # the head and hair drawn ZOOM times larger about (50, 66), the frame and shoulders as they are
    head_group = f'<g transform="matrix({ZOOM} 0 0 {ZOOM} {_n(50 * (1 - ZOOM))} {_n(66 * (1 - ZOOM))})">'
    # head geometry
    rx, ry = {"oval": (17, 21), "round": (19, 19), "long": (15.5, 23), "square": (18, 20)}[f["face"]]
    cx, cy = 50, 46
    top = cy - ry
    hair_colour, skin = f["hair_colour"], f["skin"]
    # long hair falls behind the head and shoulders
    if f["hair"] in ("long", "bob") and f["hat"] in ("none", "beret"):
        drop = 30 if f["hair"] == "long" else 16
        add(head_group)
        add(f'<path d="M{_n(cx - rx - 4)},{_n(cy)} Q{_n(cx - rx - 5)},{_n(top - 6)} {cx},{_n(top - 5)} '
            f'Q{_n(cx + rx + 5)},{_n(top - 6)} {_n(cx + rx + 4)},{_n(cy)} L{_n(cx + rx + 4)},{_n(cy + drop)} '
            f'L{_n(cx - rx - 4)},{_n(cy + drop)} Z" fill="{hair_colour}" {line}/>')
        add("</g>")
    # shoulders, cut by the frame's circle
    xl, xr = 50 - 36, 50 + 36
    yb = 50 + math.sqrt(48 ** 2 - 36 ** 2)
    add(f'<path d="M{xl},{_n(yb)} C{xl},74 34,70 50,70 C66,70 {xr},74 {xr},{_n(yb)} '
        f'A48,48 0 0 1 {xl},{_n(yb)} Z" fill="{f["clothes"]}" {line}/>')
    add(f'<path d="M42,71 L50,80 L58,71" fill="#f7f4ee" {line}/>')                  # the collar
    add(head_group)
    add(f'<rect x="44" y="{_n(cy + ry - 6)}" width="12" height="{_n(76 - cy - ry)}" fill="{skin}" {line}/>')
    # ears, then the head
    add(f'<circle cx="{_n(cx - rx)}" cy="{cy + 2}" r="3.6" fill="{skin}" {line}/>')
    add(f'<circle cx="{_n(cx + rx)}" cy="{cy + 2}" r="3.6" fill="{skin}" {line}/>')
    if f["face"] == "square":
        add(f'<rect x="{_n(cx - rx)}" y="{_n(top)}" width="{_n(2 * rx)}" height="{_n(2 * ry)}" rx="8" ry="8" '
            f'fill="{skin}" {line}/>')
    else:
        add(f'<ellipse cx="{cx}" cy="{cy}" rx="{_n(rx)}" ry="{_n(ry)}" fill="{skin}" {line}/>')
    # hair on top (under any hat)
    hair = f["hair"]
    if hair != "bald" and f["hat"] not in ("top", "bowler"):
        if hair == "curly":
            for i in range(7):
                a = math.radians(180 + i * 30)
                add(f'<circle cx="{_n(cx + (rx + 1) * math.cos(a))}" cy="{_n(cy - 4 + (ry - 2) * math.sin(a))}" '
                    f'r="5.5" fill="{hair_colour}" {line}/>')
        elif hair == "spiky":
            points = " ".join(f"{_n(cx - rx + i * rx / 4)},{_n(top + (7 if i % 2 == 0 else -5))}" for i in range(9))
            add(f'<polygon points="{_n(cx - rx)},{_n(cy - 6)} {points} {_n(cx + rx)},{_n(cy - 6)}" '
                f'fill="{hair_colour}" {line}/>')
        else:
            part = {"short": cx, "side": cx - rx * 0.45, "bob": cx + rx * 0.3, "long": cx, "bun": cx}[hair]
            add(f'<path d="M{_n(cx - rx - 1)},{_n(cy - 2)} Q{_n(cx - rx - 1)},{_n(top - 4)} {cx},{_n(top - 3)} '
                f'Q{_n(cx + rx + 1)},{_n(top - 4)} {_n(cx + rx + 1)},{_n(cy - 2)} '
                f'Q{_n(cx + rx * 0.6)},{_n(top + 6)} {_n(part)},{_n(top + 5)} '
                f'Q{_n(cx - rx * 0.6)},{_n(top + 6)} {_n(cx - rx - 1)},{_n(cy - 2)} Z" fill="{hair_colour}" {line}/>')
            if hair == "bun":
                add(f'<circle cx="{cx}" cy="{_n(top - 5)}" r="6" fill="{hair_colour}" {line}/>')
    # the face
    ey = cy - 1
    for side in (-1, 1):
        ex = cx + side * 7.5
        kind = f["eyes"]
        if kind == "dots":
            add(f'<circle cx="{_n(ex)}" cy="{_n(ey)}" r="2" fill="{INK}"/>')
        elif kind == "round":
            add(f'<circle cx="{_n(ex)}" cy="{_n(ey)}" r="3.4" fill="#ffffff" {line}/>')
            add(f'<circle cx="{_n(ex + 0.6)}" cy="{_n(ey + 0.4)}" r="1.5" fill="{INK}"/>')
        elif kind == "happy":
            add(f'<path d="M{_n(ex - 3)},{_n(ey + 1)} Q{_n(ex)},{_n(ey - 3)} {_n(ex + 3)},{_n(ey + 1)}" '
                f'fill="none" {line}/>')
        else:
            add(f'<path d="M{_n(ex - 3)},{_n(ey)} L{_n(ex + 3)},{_n(ey)}" fill="none" {line}/>')
            add(f'<path d="M{_n(ex - 2.5)},{_n(ey)} Q{_n(ex)},{_n(ey + 3)} {_n(ex + 2.5)},{_n(ey)}" fill="{INK}"/>')
        brow = f["brows"]
        by = ey - 6
        if brow == "straight":
            add(f'<path d="M{_n(ex - 3.5)},{_n(by)} L{_n(ex + 3.5)},{_n(by)}" fill="none" {line}/>')
        elif brow == "raised":
            add(f'<path d="M{_n(ex - 3.5)},{_n(by + 1)} Q{_n(ex)},{_n(by - 3)} {_n(ex + 3.5)},{_n(by + 1)}" '
                f'fill="none" {line}/>')
        elif brow == "cross":
            inner, outer = ex - side * 3.5, ex + side * 3.5
            add(f'<path d="M{_n(inner)},{_n(by + 1.5)} L{_n(outer)},{_n(by - 1)}" fill="none" {line}/>')
    nose = f["nose"]
    ny = cy + 5
    if nose == "button":
        add(f'<circle cx="{cx}" cy="{_n(ny)}" r="2.2" fill="{skin}" {line}/>')
    elif nose == "hook":
        add(f'<path d="M{cx},{_n(ny - 6)} Q{cx + 5},{_n(ny + 1)} {cx},{_n(ny + 2)}" fill="none" {line}/>')
    elif nose == "line":
        add(f'<path d="M{cx - 2},{_n(ny + 1.5)} Q{cx},{_n(ny + 3)} {cx + 2},{_n(ny + 1.5)}" fill="none" {line}/>')
    else:
        add(f'<ellipse cx="{cx}" cy="{_n(ny)}" rx="3.2" ry="2.6" fill="{skin}" {line}/>')
    facial = f["facial"]
    my = cy + 11
    if facial == "beard":
        add(f'<path d="M{_n(cx - rx + 1)},{_n(cy + 4)} Q{_n(cx - rx + 2)},{_n(cy + ry + 7)} {cx},{_n(cy + ry + 8)} '
            f'Q{_n(cx + rx - 2)},{_n(cy + ry + 7)} {_n(cx + rx - 1)},{_n(cy + 4)} '
            f'Q{cx},{_n(cy + 9)} {_n(cx - rx + 1)},{_n(cy + 4)} Z" fill="{hair_colour}" {line}/>')
    mouth = f["mouth"]
    if mouth == "smile":
        add(f'<path d="M{cx - 5},{_n(my)} Q{cx},{_n(my + 4.5)} {cx + 5},{_n(my)}" fill="none" {line}/>')
    elif mouth == "flat":
        add(f'<path d="M{cx - 4},{_n(my + 1)} L{cx + 4},{_n(my + 1)}" fill="none" {line}/>')
    elif mouth == "open":
        add(f'<ellipse cx="{cx}" cy="{_n(my + 1)}" rx="2.6" ry="3" fill="#7a2a2a" {line}/>')
    elif mouth == "grin":
        add(f'<path d="M{cx - 6},{_n(my - 0.5)} Q{cx},{_n(my + 7)} {cx + 6},{_n(my - 0.5)} Z" fill="#ffffff" {line}/>')
    else:
        add(f'<path d="M{cx - 4},{_n(my + 1)} Q{cx + 1},{_n(my + 2.5)} {cx + 5},{_n(my - 1)}" fill="none" {line}/>')
    if facial in ("moustache", "curled"):
        tip = 3 if facial == "curled" else 0
        add(f'<path d="M{cx},{_n(my - 3)} Q{cx - 6},{_n(my - 5)} {cx - 9},{_n(my - 1 - tip)} '
            f'Q{cx - 5},{_n(my - 0.5)} {cx},{_n(my - 1.5)} Q{cx + 5},{_n(my - 0.5)} {cx + 9},{_n(my - 1 - tip)} '
            f'Q{cx + 6},{_n(my - 5)} {cx},{_n(my - 3)} Z" fill="{hair_colour}" {line}/>')
    elif facial == "freckles":
        for dx, dy in ((-9, 5), (-7, 7), (-11, 7), (9, 5), (7, 7), (11, 7)):
            add(f'<circle cx="{cx + dx}" cy="{_n(cy + dy)}" r="0.8" fill="#8a4a2a"/>')
    glasses = f["glasses"]
    if glasses in ("round", "square"):
        for side in (-1, 1):
            ex = cx + side * 7.5
            if glasses == "round":
                add(f'<circle cx="{_n(ex)}" cy="{_n(ey)}" r="5" fill="none" {line}/>')
            else:
                add(f'<rect x="{_n(ex - 5)}" y="{_n(ey - 4)}" width="10" height="8" rx="1.5" ry="1.5" '
                    f'fill="none" {line}/>')
        add(f'<path d="M{cx - 2.5},{_n(ey)} L{cx + 2.5},{_n(ey)}" fill="none" {line}/>')
    elif glasses == "monocle":
        add(f'<circle cx="{cx + 7.5}" cy="{_n(ey)}" r="5" fill="none" {line}/>')
        add(f'<path d="M{cx + 12.5},{_n(ey)} Q{cx + 15},{_n(ey + 12)} {cx + 11},{_n(ey + 22)}" fill="none" '
            f'stroke="{INK}" stroke-width="0.9"/>')
    hat, hat_colour = f["hat"], f["hat_colour"]
    if hat == "top":
        add(f'<rect x="{_n(cx - rx - 6)}" y="{_n(top + 1)}" width="{_n(2 * rx + 12)}" height="5" rx="2" ry="2" '
            f'fill="{hat_colour}" {line}/>')
        add(f'<rect x="{_n(cx - rx + 3)}" y="{_n(top - 15)}" width="{_n(2 * rx - 6)}" height="17" '
            f'fill="{hat_colour}" {line}/>')
        add(f'<rect x="{_n(cx - rx + 3)}" y="{_n(top - 3)}" width="{_n(2 * rx - 6)}" height="3.5" fill="#f7f4ee" '
            f'{line}/>')
    elif hat == "bowler":
        add(f'<rect x="{_n(cx - rx - 5)}" y="{_n(top + 3)}" width="{_n(2 * rx + 10)}" height="4.5" rx="2.2" ry="2.2" '
            f'fill="{hat_colour}" {line}/>')
        add(f'<path d="M{_n(cx - rx + 1)},{_n(top + 4)} Q{_n(cx - rx + 1)},{_n(top - 13)} {cx},{_n(top - 13)} '
            f'Q{_n(cx + rx - 1)},{_n(top - 13)} {_n(cx + rx - 1)},{_n(top + 4)} Z" fill="{hat_colour}" {line}/>')
    elif hat == "beret":
        add(f'<ellipse cx="{cx + 3}" cy="{_n(top + 1)}" rx="{_n(rx + 5)}" ry="7" fill="{hat_colour}" {line}/>')
        add(f'<circle cx="{cx + 3}" cy="{_n(top - 6.5)}" r="1.8" fill="{hat_colour}" {line}/>')
    elif hat == "cap":
        add(f'<path d="M{_n(cx - rx)},{_n(top + 7)} Q{_n(cx - rx)},{_n(top - 8)} {cx},{_n(top - 8)} '
            f'Q{_n(cx + rx)},{_n(top - 8)} {_n(cx + rx)},{_n(top + 7)} Z" fill="{hat_colour}" {line}/>')
        add(f'<path d="M{_n(cx + rx - 4)},{_n(top + 7)} L{_n(cx + rx + 9)},{_n(top + 9)} '
            f'L{_n(cx + rx)},{_n(top + 3)} Z" fill="{hat_colour}" {line}/>')
    elif hat == "boater":
        add(f'<ellipse cx="{cx}" cy="{_n(top + 2)}" rx="{_n(rx + 9)}" ry="3.5" fill="#e9d48a" {line}/>')
        add(f'<rect x="{_n(cx - rx + 2)}" y="{_n(top - 8)}" width="{_n(2 * rx - 4)}" height="10" '
            f'fill="#e9d48a" {line}/>')
        add(f'<rect x="{_n(cx - rx + 2)}" y="{_n(top - 2)}" width="{_n(2 * rx - 4)}" height="3" '
            f'fill="{hat_colour}" {line}/>')
    add("</g>")
    body = "".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">'
            f'{body}</svg>').encode()


def portrait(theme_id: str, name: str, taken: set | None = None) -> bytes:
    """The SVG portrait of suspect ``name`` of theme ``theme_id``: the first seed (``seed_of``,
    then with attempts 1, 2, ...) whose signature is not in ``taken``, which it is added to."""
    taken = set() if taken is None else taken
    attempt = 0
    while True:
        f = features(seed_of(theme_id, name, attempt))
        if signature(f) not in taken or attempt >= 64:
            taken.add(signature(f))
            return svg(f)
        attempt += 1
