"""The per-frame step's cheaper parts give what the plain operations give (tower11: per-frame cost).

The hand search opens the changed mask with a cube-sized square only in strips along the view's
entry edges and fills only the blobs that come in there; the normalised view is scaled with numpy
a row at a time.  These tests hold each against the plain full-view operation.
"""

import cv2
import numpy as np
import pytest

from vision.tower.judge import (
    UNCLIP_STEPS,
    VIEW_PX_PER_MM,
    TowerAnalyzer,
    _edge_pixels,
    _entry_seeds,
    _near_edges,
    _opened_at_edges,
    _percentile_80,
    _pixel_noise,
    _unclip_table,
)

SIDE = 17  # the hand search's core square: 0.8 of a 10 mm cube at 2 px/mm, odd


def _blobby_mask(rng, shape, blobs):
    """A 0/1 uint8 mask of random rectangles and discs, many of them crossing the edges and corners."""
    mask = np.zeros(shape, np.uint8)
    h, w = shape
    for _ in range(blobs):
        x, y = int(rng.integers(-10, w + 10)), int(rng.integers(-10, h + 10))
        if rng.random() < 0.5:
            cv2.rectangle(mask, (x, y), (x + int(rng.integers(3, 40)), y + int(rng.integers(3, 40))), 1, -1)
        else:
            cv2.circle(mask, (x, y), int(rng.integers(2, 25)), 1, -1)
    # Speckle, so openings have thin parts to drop.
    mask |= (rng.random(shape) < 0.05).astype(np.uint8)
    return mask


def _plain_open_on_edges(mask, side, side_rows):
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((side, side), np.uint8)).view(bool) & _edge_pixels(
        mask.shape, side_rows)


@pytest.mark.parametrize("shape", [(190, 172), (290, 172), (60, 172), (40, 50), (20, 20)])
@pytest.mark.parametrize("side_rows", [160, 0, 5, -3, 400])
def test_opening_in_edge_strips_matches_opening_the_whole_view_on_the_edges(shape, side_rows):
    rng = np.random.default_rng(shape[0] * 1000 + shape[1] + side_rows)
    for _ in range(12):
        mask = _blobby_mask(rng, shape, blobs=int(rng.integers(1, 30)))
        got = _opened_at_edges(mask, SIDE, side_rows)
        want = _plain_open_on_edges(mask, SIDE, side_rows)
        assert got.dtype == bool and got.shape == shape
        assert np.array_equal(got, want)


def test_opening_in_edge_strips_sees_a_blob_entering_at_each_edge_and_corner():
    h, w = 190, 172
    mask = np.zeros((h, w), np.uint8)
    mask[:30, 60:100] = 1  # from the top
    mask[-25:, 10:40] = 1  # from the front (bottom)
    mask[100:130, :20] = 1  # from the left, above side_rows
    mask[:20, -20:] = 1  # the top right corner
    mask[170:, -30:] = 1  # the bottom right corner, below side_rows on the side
    mask[157:171, :20] = 1  # on the left across side_rows, 14 rows: too short for the square anywhere
    got = _opened_at_edges(mask, SIDE, 160)
    assert np.array_equal(got, _plain_open_on_edges(mask, SIDE, 160))
    assert got[0, 60:100].all() and got[0, -20:].all() and got[-1, 10:40].all() and got[-1, -30:].all()
    assert got[100:130, 0].all() and got[:20, -1].all()
    assert not got[170:-1, -1].any()  # the side edge only counts above side_rows (the last row is the front)
    assert not got[150:, 0].any()
    assert not got[1:-1, 1:-1].any()  # nothing off the edges


def test_entry_seeds_give_one_pixel_per_run_along_each_edge():
    core = np.zeros((50, 40), bool)
    core[0, 0:5] = True  # a run from the corner
    core[0, 10:12] = True
    core[-1, 39] = True  # a single pixel in the far corner
    core[20:30, 0] = True
    core[45:49, -1] = True  # below side_rows on the right: not an entry
    seeds = _entry_seeds(core, 40)
    assert sorted(seeds) == sorted([(0, 0), (10, 0), (39, 49), (0, 0), (0, 20)])
    assert _entry_seeds(np.zeros((50, 40), bool), 40) == []
    assert _entry_seeds(core, 0) == [(0, 0), (10, 0), (39, 49)]


def test_near_edges_looks_the_margin_deep_along_the_entry_edges_only():
    h, w = 60, 50
    for y, x, near in [(3, 25, True), (4, 25, False), (h - 4, 25, True), (h - 5, 25, False),
                       (30, 3, True), (30, 4, False), (30, w - 4, True), (30, w - 5, False),
                       (42, 0, True), (43, 0, False), (43, w - 1, False)]:  # side rows: 40, + 3
        mask = np.zeros((h, w), bool)
        mask[y, x] = True
        assert _near_edges(mask, 40, 3) is near, (y, x)
    mask = np.zeros((h, w), bool)
    mask[30, 0] = True
    assert not _near_edges(mask, 0, 3)  # no side edge at all


def test_with_nothing_near_the_entry_edges_the_hand_masks_reach_none():
    """The premise of the hand search's early return: the dense areas (a 7 x 7 count) and the
    opening of them with the changed pixels reach no entry edge when nothing changed within 3 px."""
    rng = np.random.default_rng(7)
    for _ in range(100):
        mask = _blobby_mask(rng, (120, 90), blobs=int(rng.integers(1, 30))).view(bool)
        # Cleared just as deep as the margin: blobs and speckle right behind it.
        mask[:4] = mask[-4:] = False
        mask[:83, :4] = mask[:83, -4:] = False
        assert not _near_edges(mask, 80, 3)
        dense = cv2.boxFilter(mask.view(np.uint8), cv2.CV_16U, (7, 7), normalize=False) >= 23
        assert not ((mask | dense) & _edge_pixels(mask.shape, 80)).any()
        mask[rng.integers(0, 4), rng.integers(0, 90)] = True
        assert _near_edges(mask, 80, 3)


def _analyzer(tower_scene, **options):
    scene = tower_scene("stand", 3, **options)
    return scene, TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)


def test_the_hand_mask_is_every_large_blob_entering_from_the_top_sides_or_front(tower_scene):
    scene, analyzer = _analyzer(tower_scene)
    view = analyzer.view
    w, h = view.size
    cube = int(analyzer.settings.cube_mm * VIEW_PX_PER_MM)
    low_row = view.row(1.5 * analyzer.settings.cube_mm)
    assert (w, h, cube) == (172, 190, 20) and low_row == 130  # the premise of the layout below
    from_top = np.zeros((h, w), bool)
    from_top[:60, 40:80] = True  # an arm from above
    from_top[60:80, 80:100] = True  # its hand, touching it only corner to corner
    from_left = np.zeros_like(from_top)
    from_left[80:120, :60] = True  # another from the left, above the cubes lying about
    from_right = np.zeros_like(from_top)
    from_right[:25, w - 30:] = True  # a third in the top right corner
    changed = from_top | from_left | from_right
    changed[:10, 100:110] = True  # too small to be a hand
    changed[90:125, 110:150] = True  # large, but reaches no edge: a tower
    changed[low_row + 2:h - cube, w - 40:] = True  # at the side, but below the hand line: cubes lying about
    changed[h - 1, 0:3] = True  # a speck on the front edge
    hand, from_front, at_frame_edge = analyzer._hands(changed, view, scene.frames[0].shape)
    assert np.array_equal(hand, from_top | from_left | from_right)
    assert not from_front and not at_frame_edge


def test_an_arm_only_from_the_front_is_flagged_as_such(tower_scene):
    scene, analyzer = _analyzer(tower_scene)
    view = analyzer.view
    w, h = view.size
    cube = int(analyzer.settings.cube_mm * VIEW_PX_PER_MM)
    arm = np.zeros((h, w), bool)
    arm[h - 3 * cube:, 50:50 + 3 * cube] = True  # larger than four cube faces
    hand, from_front, _ = analyzer._hands(arm, view, scene.frames[0].shape)
    assert np.array_equal(hand, arm) and from_front
    # One not larger than four cube faces is not a hand from the front.
    small = np.zeros_like(arm)
    small[h - 2 * cube:, 50:50 + 2 * cube] = True
    hand, from_front, _ = analyzer._hands(small, view, scene.frames[0].shape)
    assert not hand.any() and not from_front


@pytest.mark.parametrize("options", [{}, {"dim": True, "noise": 8.0}], ids=["usual room", "very noisy dim room"])
def test_the_normalised_view_is_the_raw_view_over_the_white_per_channel(tower_scene, options):
    scene, analyzer = _analyzer(tower_scene, **options)
    assert (analyzer._unclip is not None) == bool(options)  # the premise: the noisy path in the noisy room
    frame = scene.frames[-1]
    obs = analyzer.observe(frame)
    white = np.maximum(_percentile_80(frame[analyzer._white_idx]), 8.0)
    levels = obs.raw if analyzer._unclip is None else (
        _unclip_table(_pixel_noise(scene.frames[0]))[0][obs.raw] / np.float32(UNCLIP_STEPS))
    want = np.empty(obs.raw.shape, np.float32)
    for c in range(3):
        want[..., c] = levels[..., c].astype(np.float32) * np.float32(1.0 / white[c])
    assert obs.colour.dtype == np.float32 and obs.colour.flags.c_contiguous
    assert np.array_equal(obs.colour, want)
    assert obs.white == float(white.min())
