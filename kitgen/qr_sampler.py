"""Reading a QR code whose place is known but whose modules are too soft for zxing's own
binarizer: a far, tilted code in a phone photo of a whole sheet (docs/design.md §5.2).

Given a patch drawn flat around where the code must be, the three finder patterns and
the alignment pattern are found by correlation near their expected places; a homography
through their centres gives every module's centre; each module is sampled there and
thresholded (Otsu, over all the samples); the clean matrix is drawn large with a quiet
zone and handed to zxing, whose error correction (level M: 15 %) mends what sampling got
wrong. A code that is not there, or too damaged, gives None: never a guess."""

import numpy as np

SEARCH = 2.5          # modules around a pattern's expected place that are searched
# unsharp masks tried in turn before sampling (sigma in modules, amount): blur spreads a
# lone dark module into its light neighbours; sharpening undoes much of it
SHARPEN = ((0, 0), (0.5, 2), (0.5, 4), (0.7, 4), (0.3, 4))


def _pattern(side: int) -> np.ndarray:
    """A finder (7 x 7) or alignment (5 x 5) pattern in modules: a dark ring, a light ring,
    a dark centre; 0 dark, 1 light."""
    out = np.zeros((side, side), np.float32)
    out[1:-1, 1:-1] = 1
    out[2:-2, 2:-2] = 0
    return out


def _find(patch: np.ndarray, pattern: np.ndarray, centre: tuple[float, float], module: float,
          search: float = SEARCH):
    """The centre of ``pattern`` (in modules) drawn at ``module`` pixels, searched ``search``
    modules around ``centre``, and its correlation."""
    import cv2

    big = cv2.resize(pattern, None, fx=module, fy=module, interpolation=cv2.INTER_NEAREST)
    half = big.shape[0] / 2
    reach = search * module
    x0, y0 = int(max(centre[0] - half - reach, 0)), int(max(centre[1] - half - reach, 0))
    x1 = int(min(centre[0] + half + reach + 1, patch.shape[1]))
    y1 = int(min(centre[1] + half + reach + 1, patch.shape[0]))
    window = patch[y0:y1, x0:x1]
    if window.shape[0] < big.shape[0] or window.shape[1] < big.shape[1]:
        return None, -1.0
    scores = cv2.matchTemplate(window, big, cv2.TM_CCOEFF_NORMED)
    _, best, _, (bx, by) = cv2.minMaxLoc(scores)
    return (x0 + bx + half, y0 + by + half), float(best)


def finders(patch: np.ndarray, start: float, modules: int, module: float, min_match: float = 0.5,
            search: float = SEARCH):
    """The centres of the three finder patterns of a QR of ``modules`` modules whose
    top-left corner is near (start, start) -- each searched ``search`` modules around its
    place -- keyed by their centres in module units, or None when one of them does not show
    (correlation under ``min_match``)."""
    patch = patch.astype(np.float32)
    where = {(3.5, 3.5): (start + 3.5 * module, start + 3.5 * module),
             (modules - 3.5, 3.5): (start + (modules - 3.5) * module, start + 3.5 * module),
             (3.5, modules - 3.5): (start + 3.5 * module, start + (modules - 3.5) * module)}
    found = {}
    for grid_point, guess in where.items():
        centre, score = _find(patch, _pattern(7), guess, module, search)
        if centre is None or score < min_match:
            return None
        found[grid_point] = centre
    return found


def alignment_centre(modules: int) -> float | None:
    """The bottom-right alignment pattern's centre (module units) for versions 2 to 6."""
    version = (modules - 17) // 4
    return None if version < 2 else modules - 7 + 0.5


def read(patch: np.ndarray, start: float, modules: int, module: float, min_match: float = 0.5,
         search: float = SEARCH):
    """The text of a QR of ``modules`` modules whose top-left corner is near (start, start)
    in ``patch`` (grey, 8-bit) at ``module`` pixels a module, and its corners in the patch
    (top-left, top-right, bottom-right, bottom-left); or None."""
    import cv2
    import zxingcpp

    from kitgen import registration

    patch = patch.astype(np.float32)
    found = finders(patch, start, modules, module, min_match, search)
    if found is None:
        return None
    (tl, tr, bl) = found.values()
    align = alignment_centre(modules)
    if align is not None:
        # its expected place, from the three finders (an affine guess), then found
        u = (align - 3.5) / (modules - 7)
        guess = (tl[0] + u * (tr[0] - tl[0]) + u * (bl[0] - tl[0]), tl[1] + u * (tr[1] - tl[1]) + u * (bl[1] - tl[1]))
        centre, score = _find(patch, _pattern(5), guess, module)
        found[(align, align)] = centre if centre is not None and score >= min_match else guess
    else:
        found[(modules - 3.5, modules - 3.5)] = (tr[0] + bl[0] - tl[0], tr[1] + bl[1] - tl[1])
    try:
        matrix = registration.homography(list(found), list(found.values()))
    except ValueError:
        return None
    centres = np.array([(c + 0.5, r + 0.5) for r in range(modules) for c in range(modules)])
    points = registration.apply(matrix, centres).astype(np.float32)
    corners = registration.apply(matrix, [(0, 0), (modules, 0), (modules, modules), (0, modules)])
    for sigma, amount in SHARPEN:
        view = patch if not amount else patch + amount * (patch - cv2.GaussianBlur(patch, (0, 0), sigma * module))
        values = cv2.remap(view, points[:, 0].reshape(1, -1), points[:, 1].reshape(1, -1), cv2.INTER_LINEAR)
        values = values.reshape(-1)
        span = max(float(values.max() - values.min()), 1e-6)
        levels = ((values - values.min()) * (255 / span)).astype(np.uint8).reshape(1, -1)
        threshold, _ = cv2.threshold(levels, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
        dark = (levels.reshape(-1) < threshold).reshape(modules, modules)
        clean = np.pad(np.where(dark, 0, 255).astype(np.uint8), 4, constant_values=255)
        clean = np.kron(clean, np.ones((8, 8), np.uint8))
        codes = [c for c in zxingcpp.read_barcodes(clean, formats=zxingcpp.BarcodeFormat.QRCode, is_pure=True)
                 if c.valid and c.text]
        if codes:
            return codes[0].text, [tuple(map(float, c)) for c in corners]
    return None
