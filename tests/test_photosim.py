"""The photo simulator's hand-held profile (tests/photosim.py, issue 30): a shake of the given length
in the given direction, defocus and card sizes in HANDHELD's ranges, and the steady profile drawing
exactly as it did before profiles existed (the seeded photos of tests/test_photos.py stay the same)."""

import numpy as np
import pytest
from PIL import Image

import photosim


@pytest.mark.parametrize("length, angle", [(1, 0), (4, 0), (6, 90), (5, 45), (3.3, 130)])
def test_a_shake_is_a_line_of_its_length_and_direction(length, angle):
    kernel = photosim.motion_kernel(length, angle)
    assert kernel.shape[0] == kernel.shape[1] and kernel.shape[0] % 2 == 1
    assert kernel.sum() == pytest.approx(1.0) and (kernel >= 0).all()
    ys, xs = np.nonzero(kernel > kernel.max() * 0.25)
    c = kernel.shape[0] // 2
    spread = max(np.hypot(xs - c, ys - c)) * 2
    assert spread == pytest.approx(length, abs=1.6)
    if length >= 3:                          # its direction: the principal axis of its weights
        cov = np.cov(np.vstack([xs - c, ys - c]), aweights=kernel[ys, xs])
        found = np.degrees(np.arctan2(2 * cov[0, 1], cov[0, 0] - cov[1, 1])) / 2 % 180
        assert min(abs(found - angle), 180 - abs(found - angle)) < 12


def test_a_shaken_photo_smears_edges_across_the_shake_only():
    """A horizontal shake blurs a vertical edge and leaves a horizontal one sharp."""
    card = Image.new("RGB", (600, 600), "white")
    pixels = np.asarray(card).copy()
    pixels[:, 300:] = 0                       # a vertical edge
    pixels[450:, :] = 0                       # and a horizontal one
    steady = photosim.Shot(seed=1, frame=(1000, 1000), width=600, tilt=0, axis=0, rotation=0, blur=0, noise=0,
                           quality=95, light=(1, 0, 0, 0), cast=(1, 1, 1), table=1)
    shaken = photosim.Shot(**{**steady.__dict__, "motion": 6.0, "motion_angle": 0.0})

    def sharpness(shot):
        """How steep the photo's edges are across x and across y, in its middle (the card)."""
        photo = np.asarray(photosim.photograph(Image.fromarray(pixels), shot).convert("L"), float)[300:700, 300:700]
        return np.abs(np.diff(photo, axis=1)).max(axis=1).mean(), np.abs(np.diff(photo, axis=0)).max(axis=0).mean()

    steady_x, steady_y = sharpness(steady)
    shaken_x, shaken_y = sharpness(shaken)
    assert shaken_x < 0.5 * steady_x                 # the vertical edge smeared along the shake
    assert shaken_y > 0.85 * steady_y                # the horizontal one as sharp as it was


def test_handheld_shots_fall_in_its_ranges_and_steady_ones_draw_as_before():
    shots = [photosim.draw_shot(seed, (800, 500), 400, profile=photosim.HANDHELD) for seed in range(200)]
    cards = [s.width * 400 / 800 for s in shots]
    assert 300 <= min(cards) < 330 and max(cards) <= 1400
    assert max(s.blur for s in shots) > 2.3 and all(0 <= s.blur <= 2.5 for s in shots)
    assert max(s.motion for s in shots) > 5.5 and all(0 <= s.motion <= 6 for s in shots)
    steady = photosim.draw_shot(7, (600, 600), 600)
    assert steady.motion == 0 and steady.blur == 0.8741820088550327      # as before profiles (d0b47bb)
    assert photosim.draw_shot(7, (600, 600), 600, profile=photosim.Profile()) == steady
