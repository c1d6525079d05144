"""Registering a flat printed object in a photo (docs/design.md §5.2).

A photo of a card held flat is a perspective view of it: the map from the card's own
coordinates to the photo's pixels is a homography (a 3 x 3 matrix), exact for any tilt,
turn and distance. It is first fitted to a few points whose places on the card are known
(a QR code's corners), which fixes it well near those points and poorly far from them;
then it is refined on the whole object's appearance: OpenCV's ECC (enhanced correlation
coefficient) aligns a drawing of what the card must look like with the photo, coarse to
fine. ECC compares brightness patterns up to a gain and an offset, so uneven light and
colour casts do not pull it. Coordinates here are the object's units with y down (the
caller chooses the units); a map is a numpy 3 x 3 array taking (u, v, 1) to pixels."""

from collections.abc import Callable

import numpy as np

ECC_STEPS = 60
ECC_EPSILON = 1e-5


def homography(src, dst) -> np.ndarray:
    """The map taking the points ``src`` to ``dst``: exact for four, least squares for more."""
    import cv2

    src, dst = np.asarray(src, np.float64), np.asarray(dst, np.float64)
    if len(src) == 4:
        matrix = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    else:
        matrix, _ = cv2.findHomography(src, dst, 0)
    if matrix is None or not np.all(np.isfinite(matrix)) or abs(np.linalg.det(matrix)) < 1e-12:
        raise ValueError("degenerate points")
    return matrix / matrix[2, 2]


def apply(matrix: np.ndarray, points) -> np.ndarray:
    """``points`` (u, v) mapped by ``matrix``."""
    points = np.asarray(points, np.float64)
    mapped = np.c_[points, np.ones(len(points))] @ matrix.T
    return mapped[:, :2] / mapped[:, 2:]


def _at_scale(matrix: np.ndarray, scale: float) -> np.ndarray:
    """The map from the pixels of the object drawn at ``scale`` pixels per unit."""
    return matrix @ np.diag([1 / scale, 1 / scale, 1.0])


def pixels_per_unit(matrix: np.ndarray, u: float, v: float) -> float:
    """How many photo pixels one unit of the object spans near (u, v) (geometric mean of the axes)."""
    (x0, y0), (x1, y1), (x2, y2) = apply(matrix, [(u, v), (u + 1, v), (u, v + 1)])
    return abs((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)) ** 0.5


def rectify(image: np.ndarray, matrix: np.ndarray, scale: float, size: tuple[float, float],
            fill=0) -> np.ndarray:
    """The object as seen in ``image``, drawn flat at ``scale`` pixels per unit; what lies
    outside the photo is ``fill``."""
    import cv2

    width, height = max(1, round(size[0] * scale)), max(1, round(size[1] * scale))
    return cv2.warpPerspective(image, _at_scale(matrix, scale), (width, height),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT,
                               borderValue=fill)


def refine(gray: np.ndarray, matrix: np.ndarray, template: Callable[[float], np.ndarray],
           scales: list[float]) -> tuple[np.ndarray, float]:
    """``matrix`` refined so that the photo ``gray`` (8-bit, one channel) matches
    ``template(scale)`` (the object drawn at ``scale`` pixels per unit), at each scale in
    turn, coarse to fine. Returns the map and the last correlation coefficient (-1 to 1);
    a scale where ECC does not converge keeps the map it had."""
    import cv2

    score = -1.0
    for scale in scales:
        drawn = template(scale).astype(np.float32)
        height, width = drawn.shape
        seen = cv2.warpPerspective(gray, _at_scale(matrix, scale), (width, height),
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP).astype(np.float32)
        warp = np.eye(3, dtype=np.float32)
        blur = max(3, 2 * round(scale * 0.6) + 1)
        try:
            score, warp = cv2.findTransformECC(drawn, seen, warp, cv2.MOTION_HOMOGRAPHY,
                                               (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ECC_STEPS,
                                                ECC_EPSILON), None, blur)
        except cv2.error:
            continue
        # seen(warp x) ~ drawn(x), and seen(y) = photo(M_s y): the photo at M_s warp x
        refined = _at_scale(matrix, scale) @ warp.astype(np.float64) @ np.diag([scale, scale, 1.0])
        matrix = refined / refined[2, 2]
    return matrix, float(score)
