"""The ninety-ninth pass: an arena hunt past the generator's own looks (``random_match_scene(hunt=...)``).

The reader will be measured on physics-rendered scenes from the spec, not ours: printed board art, a
room's light, painted miniatures, a real camera. The hunt shows each seed's scene that way
(``vision.synth.arena_scene.hunt_looks``), drawn from a generator of its own after the seed's draws,
so every existing seed's scene stays as it was. See docs/arena-reader.md, "Ninety-ninth pass"."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.arena import read_arena
from vision.synth.arena_scene import HUNTS, random_match_scene, render_scene

SEEDS = range(1000000, 1000008)


def _scenes(seed, geometry, hunt=None):
    return random_match_scene(np.random.default_rng(seed), geometry, hunt=hunt)


def _plain(scene_):
    """The scene without the hunt's looks: no ``look``, unpainted miniatures, the generator's frame size."""
    minis = tuple(dataclasses.replace(m, paint=None) for m in scene_.miniatures)
    return dataclasses.replace(scene_, look=None, miniatures=minis,
                               pose=dataclasses.replace(scene_.pose, image_size=(800, 600)))


def test_without_a_hunt_no_look_is_drawn(geometry):
    for seed in SEEDS:
        for scene_ in _scenes(seed, geometry)[:2]:
            assert scene_.look is None and all(m.paint is None for m in scene_.miniatures)


@pytest.mark.parametrize("family", HUNTS)
def test_the_hunt_shows_the_seeds_own_scene(family, geometry):
    # Fighters, tokens, dice, cards, hands, camera and noise are the seed's: only the looks change
    # (and, for the light family's warm lamp, the live scene's colour cast).
    for seed in SEEDS:
        reference, live, truth = _scenes(seed, geometry)
        hunted_reference, hunted_live, hunted_truth = _scenes(seed, geometry, family)
        assert hunted_truth == truth
        assert _plain(hunted_reference) == reference
        tint = dataclasses.replace(live.lighting, tint_bgr=hunted_live.lighting.tint_bgr)
        assert _plain(hunted_live) == dataclasses.replace(live, lighting=tint)
        assert hunted_live.look.label.startswith(family if family != "all" else "board:")


@pytest.mark.parametrize("family", HUNTS)
def test_each_family_draws_its_looks(family, geometry):
    kinds = set()
    for seed in SEEDS:
        reference, live, _ = _scenes(seed, geometry)
        hunted_reference, hunted_live, _ = _scenes(seed, geometry, family)
        kinds.add(hunted_live.look.label)
        if family == "figures" and not live.miniatures:
            continue  # (nothing to paint)
        plain, hunted = render_scene(live, geometry), render_scene(hunted_live, geometry)
        assert plain.shape != hunted.shape or np.abs(plain.astype(int) - hunted).max() > 20, hunted_live.look.label
        if family == "board":  # printed: in the reference as in the live scene
            assert np.abs(render_scene(reference, geometry).astype(int) - render_scene(hunted_reference, geometry)).max() > 20
    assert len(kinds) >= 3  # eight seeds draw several kinds of each family


def test_the_camera_family_frames_both_scenes_alike(geometry):
    sizes = set()
    for seed in SEEDS:
        reference, live, _ = _scenes(seed, geometry, "camera")
        assert reference.pose.image_size == live.pose.image_size
        assert render_scene(reference, geometry).shape == render_scene(live, geometry).shape
        sizes.add(live.pose.image_size)
    assert {(640, 480), (1280, 720)} & sizes


#: The hunt's near misses (``bench/arena_accuracy.py --hunt FAMILY -v``, this pass): doubts whose best reading is
#: wrong, so only the doubt stands between them and a wrong ``ok: true``. 1000037 (board: 3.5 mm red borders printed
#: on green, no fighter): change along the borders, S6 and S9 proposed without the count. 1000139 (board: a painted
#: texture, the light changed, no fighter): S5 proposed either way. 1000043 (light: a soft shadow from out of view
#: across S4): S7 proposed for S4 with the count. 1000050 (figures: a spear held out, no fighter on the row): S7
#: proposed without the count. 1000161 (camera: JPEG): S1 for S4 with the count. 1000141 (all at once): S4 and S5
#: for S6 and S7 with the count.
GUARDED = ((1000037, "board"), (1000139, "board"), (1000043, "light"), (1000050, "figures"), (1000161, "camera"),
           (1000141, "all"))


@pytest.mark.parametrize("seed, family", GUARDED)
def test_a_hunt_scene_is_doubted_or_read_right_never_read_wrong(seed, family, geometry):
    reference, live, truth = _scenes(seed, geometry, family)
    live_image, reference_image = render_scene(live, geometry), render_scene(reference, geometry)
    for fighters in (None, len(live.miniatures)):
        reading = read_arena(live_image, reference_image, geometry, annotate=False, fighters=fighters)
        assert not reading.ok or reading.occupied == truth, (live.look.label, fighters)


def test_a_moved_highlight_on_a_glossy_board_is_no_fighter(geometry):
    # 1000277 (board:glossy): no fighter; a lamp's soft highlight (23 mm, +43 levels towards white) by marker 11 in
    # the reference, 29 mm nearer the row in the live image (the camera nudged 16 mm, the lamp as if moved with
    # it): on the dark green board it brightens S9. Without the count the reader takes it for a fighter on S9
    # (confidence 1.0) and answers ok: true. With the count (0) it is a doubt.
    reference, live, truth = _scenes(1000277, geometry, "board")
    assert truth == () and live.look.gloss != reference.look.gloss
    reading = read_arena(render_scene(live, geometry), render_scene(reference, geometry), geometry, annotate=False)
    assert not reading.ok or reading.occupied == truth


def test_the_moved_highlight_with_the_count_is_a_doubt(geometry):
    reference, live, _ = _scenes(1000277, geometry, "board")
    reading = read_arena(render_scene(live, geometry), render_scene(reference, geometry), geometry, annotate=False,
                         fighters=0)
    # (Until the hundred-and-second pass: "where 0 stand", 1 fighter on the dev stack, 2 on the Pi's. Since, the
    # highlight on S9 is no fighter but a thing that may be a token or a base; the Pi's still counts the
    # highlight's darkening where it left, a ragged disc off the row.)
    assert not reading.ok and ("where 0 stand" in reading.error or "(162, 11) mm may be a token or a base" in reading.error)


def test_a_token_with_another_behind_it_in_a_small_frame_is_no_fighter(geometry):
    # 1000250 (camera:640x480): no fighter; a grey-green 19.7 mm token on S2 and a pale cyan 19.6 mm one 4.8 mm
    # behind it, the camera 53 cm away and 61 degrees up. At 800 x 600 (1.24 px/mm) the reader doubts ("may be a
    # token or a base"); at 640 x 480 (0.99 px/mm) the gap is lost in the blur, the token behind reads as a figure
    # rising behind the one in front, and that one is taken for a fighter on S2 (confidence 0.5), ok: true.
    reference, live, truth = _scenes(1000250, geometry, "camera")
    assert truth == () and live.pose.image_size == (640, 480) and len(live.tokens) == 2
    reading = read_arena(render_scene(live, geometry), render_scene(reference, geometry), geometry, annotate=False)
    assert not reading.ok or reading.occupied == truth


def test_the_token_pair_in_the_generators_frame_or_with_the_count_is_a_doubt(geometry):
    reference, live, _ = _scenes(1000250, geometry)
    reading = read_arena(render_scene(live, geometry), render_scene(reference, geometry), geometry, annotate=False)
    assert not reading.ok and "may be a token or a base" in reading.error
    reference, live, _ = _scenes(1000250, geometry, "camera")
    reading = read_arena(render_scene(live, geometry), render_scene(reference, geometry), geometry, annotate=False,
                         fighters=0)
    assert not reading.ok
