"""Third accuracy pass: touching bases fitted by their own rims, and a noisy dark board."""

import math

import numpy as np
import pytest

from vision.arena import read_arena
from vision.arena.bases import change_mask, find_blobs, is_disc
from vision.arena.pose import camera_position
from vision.arena.reader import _search_mask, prepare_reference
from vision.arena.registration import register
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import SmoothView, change_between
from vision.synth.arena_scene import CameraPose, Lighting, Miniature, Scene, random_match_scene, render_scene

from tests.arena.arena_scenes import assert_read_right_with_the_count, render, spec_scene

#: A spec scene (seed 12142 of the generator, written out): a low camera well to the side, two
#: touching bases in a dim, uneven light. A seed between the bases fitted a circle round both.
LOW_ASIDE = CameraPose(distance_mm=590.16, elevation_deg=37.5575, azimuth_deg=19.2833, roll_deg=1.5889,
                       target_mm=(4.8157, -9.7341), fill=0.8357)
REFERENCE_POSE = CameraPose(distance_mm=576.21, elevation_deg=39.509, azimuth_deg=20.1326, roll_deg=0.0982,
                            target_mm=(9.8215, -8.817), fill=0.8357)
TOUCHING = (
    Miniature(1.5181, 5.3146, base_mm=27.3797, base_height_mm=3.253, base_bgr=(205, 133, 122), figure_bgr=(76, 136, 196),
              figure_height_mm=47.2418, figure_width_mm=15.0894, lean_mm=(-1.3546, 0.8808)),
    Miniature(28.708, 5.3146, base_mm=27.0, base_height_mm=2.7765, base_bgr=(113, 56, 195), figure_bgr=(71, 163, 93),
              figure_height_mm=32.0596, figure_width_mm=19.5536, lean_mm=(-0.7415, -2.7477)),
)
DIM_UNEVEN = Lighting(gain=0.70883, tint_bgr=(0.90063, 0.99982, 0.97748), gradient=0.34047, gradient_angle_deg=181.298,
                      shadow=0.10628, light_dir=(-0.3244, 0.2651), noise=3.7516)
#: Dark colour channels: their logarithm is noisy, and the unchanged board itself scores high.
DARK_BOARD, DARK_SPACE = (27, 28, 151), (21, 24, 123)


def _scene(pose, minis=(), *, board=(24, 108, 113), space=(28, 116, 81), lighting=Lighting(noise=2.7), seed=253124679):
    return Scene(pose=pose, miniatures=tuple(minis), board_bgr=board, space_bgr=space, lighting=lighting,
                 seed=seed, board_seed=15182236)


def _blobs(live, reference, geometry):
    prepared = prepare_reference(reference, geometry)
    registration = register(live, geometry)
    view = prepared.view
    camera = camera_position(registration.homography, (live.shape[1], live.shape[0]))
    search = _search_mask(view, geometry)
    change = change_between(SmoothView.of(view.warp(live, registration.homography)), prepared.smooth, search)
    mask = change_mask(change, search)
    return mask, find_blobs(change, mask, view, camera, ArenaSettings(), search)


def test_touching_bases_are_each_fitted_by_their_own_rim(geometry):
    live = render(_scene(LOW_ASIDE, TOUCHING, lighting=DIM_UNEVEN, seed=294875949), geometry)
    reference = render(_scene(REFERENCE_POSE), geometry)
    _, blobs = _blobs(live, reference, geometry)
    discs = [b for b in blobs if is_disc(b, ArenaSettings())]
    for truth in TOUCHING:
        nearest = min(discs, key=lambda b: math.hypot(b.x_mm - truth.x_mm, b.y_mm - truth.y_mm))
        assert math.hypot(nearest.x_mm - truth.x_mm, nearest.y_mm - truth.y_mm) < 2.0
        assert abs(nearest.diameter_mm - truth.base_mm) < 2.5, (nearest, truth)


def test_touching_bases_are_read_with_and_without_the_count(geometry):
    live = render(_scene(LOW_ASIDE, TOUCHING, lighting=DIM_UNEVEN, seed=294875949), geometry)
    reference = render(_scene(REFERENCE_POSE), geometry)
    counted = read_arena(live, reference, geometry, annotate=False, fighters=2)
    assert counted.ok, counted.error
    assert counted.occupied == ("S5", "S6")
    uncounted = read_arena(live, reference, geometry, annotate=False)
    assert not uncounted.ok or uncounted.occupied == ("S5", "S6")


@pytest.mark.parametrize("elevation", [40, 60])
def test_a_noisy_dark_board_does_not_flood_the_change(geometry, elevation):
    pose = CameraPose(distance_mm=420, elevation_deg=elevation, azimuth_deg=-12)
    minis = (Miniature(-76, 3, base_bgr=(200, 200, 210), figure_bgr=(180, 120, 60)),
             Miniature(42, -2, base_bgr=(60, 180, 90), figure_bgr=(200, 200, 200)))
    noisy = Lighting(noise=6.0)
    live = render(_scene(pose, minis, board=DARK_BOARD, space=DARK_SPACE, lighting=noisy), geometry)
    reference = render(_scene(pose, board=DARK_BOARD, space=DARK_SPACE, lighting=noisy, seed=4), geometry)
    mask, _ = _blobs(live, reference, geometry)
    bases_area = sum(math.pi * (m.base_mm / 2) ** 2 for m in minis)
    # The bases and their figures, not the board's noise (a few times the bases' own area at most).
    assert mask.sum() < 5 * bases_area
    reading = read_arena(live, reference, geometry, annotate=False, fighters=2)
    assert reading.ok, reading.error
    assert reading.occupied == ("S3", "S6")


def test_a_light_change_left_in_the_picture_is_a_doubt_not_an_empty_board(geometry):
    pose = CameraPose(distance_mm=450, elevation_deg=55)
    minis = (Miniature(-80, 0, base_bgr=(200, 60, 60)),)
    live = render(_scene(pose, minis), geometry)
    reference = render(_scene(pose, seed=4), geometry)
    # A light change no gain field follows: a different board colour everywhere but a strip.
    live = live.astype(np.int16)
    live[:, : live.shape[1] // 2, 1] += 60
    reading = read_arena(np.clip(live, 0, 255).astype(np.uint8), reference, geometry, annotate=False)
    assert not reading.ok
    assert "neither a base nor a token" in reading.error


def test_random_scenes_are_never_wrong_when_ok_with_or_without_the_count(geometry):
    answered = {True: 0, False: 0}
    for seed in range(31000, 31012):
        reference, live, truth = random_match_scene(np.random.default_rng(seed), geometry)
        live_image, reference_image = render_scene(live, geometry), render_scene(reference, geometry)
        for with_count in (True, False):
            reading = read_arena(live_image, reference_image, geometry, annotate=False,
                                 fighters=len(live.miniatures) if with_count else None)
            if reading.ok:
                answered[with_count] += 1
                assert reading.occupied == truth, (seed, with_count)
    assert answered[True] >= 9 and answered[False] >= 7


#: Spec scenes (generator seeds), one per cause fixed in this pass (all doubts before it):
#: touching bases over-fitted (12083), a noisy dark board (12393), a token just in front of a
#: base (12123, 12319); and a base measured just under the size margin with its figure seen
#: (12314), read before too.
FIXED = [12083, 12393, 12123, 12319, 12314]


@pytest.mark.parametrize("seed", FIXED)
def test_spec_scenes_fixed_in_this_pass_are_read_with_the_count(geometry, seed):
    assert_read_right_with_the_count(seed, geometry)


def test_a_token_sized_stand_in_with_a_place_behind_it_off_its_space_is_never_a_wrong_ok(geometry):
    # 12281 was read right here by taking its crisp token-sized disc (19.8 mm, fitted 7.6 mm off
    # the base it belongs to) as the missing fighter. The fortieth pass showed that a token lying
    # in front of a fighter whose base is the board's colour measures the same, and that the
    # stand-in then put the fighter on the wrong space with ``ok: true`` (7 of 12 built scenes):
    # the count says a fighter is there, not which of the two places. So that reading was a
    # guess; what holds is that it is never a wrong ``ok``, and a doubt says why.
    live, reference, truth, count = spec_scene(12281, geometry)
    reading = read_arena(live, reference, geometry, annotate=False, fighters=count)
    assert reading.ok is False or reading.occupied == truth, (reading.occupied, truth)
    if not reading.ok:
        assert "may be a token or a base" in reading.error and "where 2 stand" in reading.error, reading.error


#: Spec scenes a looser rule read WRONG: a figure's head taken for a base (5326), a figure's
#: top taken for the missing fighter whose own base is unseen (5322).
@pytest.mark.parametrize("seed", [5326, 5322])
def test_a_figure_top_is_never_the_missing_fighter(geometry, seed):
    live, reference, truth, count = spec_scene(seed, geometry)
    for fighters in (count, None):
        reading = read_arena(live, reference, geometry, annotate=False, fighters=fighters)
        assert not reading.ok, (reading.occupied, truth)


#: Spec scenes read WRONG without the count along the way: a figure's top taken for a
#: neighbour touching its base (20440, read WRONG before this pass too), a token touching a
#: token measured base-sized and settled by it (20410).
@pytest.mark.parametrize("seed", [20440, 20410])
def test_a_figure_top_or_a_touching_token_is_never_a_fighter(geometry, seed):
    live, reference, truth, count = spec_scene(seed, geometry)
    for fighters in (count, None):
        reading = read_arena(live, reference, geometry, annotate=False, fighters=fighters)
        assert not reading.ok or reading.occupied == truth, (fighters, reading.occupied, truth)


def test_tokens_touching_bases_as_the_spec_allows_are_never_a_wrong_ok(geometry):
    closest = math.inf
    for seed in range(41000, 41008):
        reference, live, truth = random_match_scene(np.random.default_rng(seed), geometry, touching_tokens=True)
        for m in live.miniatures:
            for t in live.tokens:
                closest = min(closest, math.hypot(m.x_mm - t.x_mm, m.y_mm - t.y_mm) - (m.base_mm + t.diameter_mm) / 2)
        live_image, reference_image = render_scene(live, geometry), render_scene(reference, geometry)
        for fighters in (len(live.miniatures), None):
            reading = read_arena(live_image, reference_image, geometry, annotate=False, fighters=fighters)
            assert not reading.ok or reading.occupied == truth, (seed, fighters)
    assert 0.0 <= closest < 1.5  # the generator did lay a token against a base


def test_a_token_against_a_base_the_boards_colour_does_not_settle_the_count(geometry):
    # Spec scene (seed 40123, tokens laid against bases): the token and the figure beside it
    # fit one crisp base-sized disc; the figure's foot, standing on S1, must stay a doubt.
    reference, live, truth = random_match_scene(np.random.default_rng(40123), geometry, touching_tokens=True)
    live_image, reference_image = render_scene(live, geometry), render_scene(reference, geometry)
    for fighters in (len(live.miniatures), None):
        reading = read_arena(live_image, reference_image, geometry, annotate=False, fighters=fighters)
        assert not reading.ok or reading.occupied == truth, (fighters, reading.occupied, truth)


def test_a_hand_reaching_onto_a_space_is_no_fighter(geometry):
    # A hand over marker 10 reaches onto S1: its front edge fits a 30 mm disc with "a figure"
    # (the rest of the hand) behind it.  No base is that wide: without the count it was read as
    # a third fighter on S1.
    reference, live, truth = random_match_scene(np.random.default_rng(50184), geometry)
    assert live.hidden_markers == (10,) and truth == ("S6", "S7")
    reading = read_arena(render_scene(live, geometry), render_scene(reference, geometry), geometry, ArenaSettings())
    assert not reading.ok or reading.occupied == truth
    assert "S1" not in reading.occupied
