"""Fifty-third pass (issue 5): a hunt past the generator's own looks -- would the judge fail a legal
tower on a table it has not seen?

``make_tower_scene(hunt=...)`` (``bench/tower_accuracy.py --hunt``) puts each seed's scene on a table
the generator never draws, from a generator of its own so the rest of the scene is the seed's:
"mats" (cream, recycled grey or pastel paper, a glossy highlight, a laminated sheen, dark-grey
ink), "light" (one hard lamp low to the side, two lamps, a dim room the camera's gain brings up),
"clutter" (supply cubes, a card, a die, a miniature close to the tower), "all" (one of each), and
past the spec "paper" (a strongly coloured sheet: no white quiet zone).  Within the spec the judge
held (no wrong fail, no wrong pass); on strongly coloured paper it fails legal towers whose light
cubes vanish against the paper (docs, fifty-third pass).
"""
import dataclasses

import numpy as np
import pytest

from vision.synth.tower_scene import HUNTS, _box_corners, _hunt_clutter, make_tower_scene
from tower_judging import judge_scene

# Scenes of the hunt as the accuracy bench draws them (``random_scene(kind, seed, hunt=...)``).
STAND_974306_YELLOW = dict(heavy=2, light=4, frames=5, dim=False, nudge_px=1.995751916443326,
                           exposure_drift=0.08397763877647613, off_spot_mm=5.40257488423207, distractors=1,
                           noise=4.2877471178444, pile=False, near=0.10461747847323281, hunt="mats")
# A dim room lit by one low lamp, the fighter's cubes beside the mat at the start.
TOP_PAIR_974301_LOW_LAMP = dict(heavy=3, light=0, frames=6, dim=True, nudge_px=1.2924059215277155,
                                exposure_drift=0.035237090195848066, off_spot_mm=5.4183511005473015, distractors=5,
                                noise=1.8203278522425717, pile=True, near=0.38261134337724834, hunt="light")
# Two light and a heavy supply cube and a miniature close to the tower.
STAGGER_974301_CLUTTER = dict(heavy=2, light=3, frames=6, dim=True, nudge_px=1.2924059215277155,
                              exposure_drift=0.035237090195848066, off_spot_mm=5.4183511005473015, distractors=5,
                              noise=1.8203278522425717, pile=False, near=0.1321457897767965, hunt="clutter")

# Past the spec ("paper"): kraft paper, near the light wood's own colour, with no white quiet zone.
# The light cubes' faces read as paper; one is missed and the count fails at 0.85.
KRAFT_974603 = dict(frames=5, dim=False, nudge_px=1.5005616364117902, exposure_drift=0.02832040036526422,
                    off_spot_mm=6.770751093854244, distractors=4, noise=1.5447588757084942, pile=True, hunt="paper")
RING_974603_KRAFT = dict(KRAFT_974603, heavy=2, light=2, near=0.08811013842537298)
TOP_PAIR_974603_KRAFT = dict(KRAFT_974603, heavy=0, light=3, near=0.4751675009801785)
# Within the spec ("clutter"): a tan card (230, 193, 179) lying behind the tower, two supply cubes
# beside it, one in front; a camera 12 degrees up.  Failed at 0.85 on the count, 4h7l seen of 4h5l.
STAGGER_974312_CARD = dict(heavy=4, light=5, frames=3, dim=False, nudge_px=2.721615975092884,
                           exposure_drift=0.159913221903059, off_spot_mm=6.778168898660427, distractors=6,
                           noise=1.1319189668138891, pile=False, near=0.25889995285846756, hunt="clutter")


@pytest.mark.parametrize("hunt", HUNTS)
def test_a_hunt_scene_is_the_seeds_own_scene_on_another_table(hunt):
    own = make_tower_scene("stand", seed=974210, frames=1)
    hunted = make_tower_scene("stand", seed=974210, frames=1, hunt=hunt)
    assert (hunted.camera, hunted.heavy, hunted.light, hunted.expected) == (own.camera, own.heavy, own.light,
                                                                           own.expected)
    assert hunted.hunt.startswith(hunt if hunt != "all" else "mats") and own.hunt == own.look.hunt == ""
    # The mat's style and size stay the seed's (the scene's own draws follow them).
    assert (hunted.look.mat_style, hunted.look.mat_size_mm) == (own.look.mat_style, own.look.mat_size_mm)


def test_the_mats_hunt_changes_only_the_mat():
    for seed in range(974211, 974215):
        look = make_tower_scene("stand", seed=seed, frames=1, hunt="mats").look
        own = make_tower_scene("stand", seed=seed, frames=1).look
        changed = {f.name for f in dataclasses.fields(own) if getattr(own, f.name) != getattr(look, f.name)}
        assert changed <= {"mat_rgb", "gloss", "ink", "hunt"}, (seed, changed)


def test_the_hunts_clutter_keeps_clear_of_the_tower_and_the_markers_quiet_zones():
    for seed in range(974700, 974740):
        rng = np.random.default_rng(seed)
        origin = tuple(rng.uniform(-12, 12, 2))
        boxes, label = _hunt_clutter(rng, origin, ((225, 190, 140), (110, 30, 25)), "stand")
        assert label.startswith("clutter:") and boxes
        for box in boxes:
            corners = _box_corners(box.centre, box.size, box.yaw_deg)
            x, y = corners[:, 0], corners[:, 1]
            # The marker squares (30 mm at +-60 mm) and their 8 mm quiet zones: 23 mm round each centre.
            assert not ((np.abs(np.abs(x) - 60) < 23) & (np.abs(y) < 23)).any(), (seed, box)
            assert not ((np.abs(x - origin[0]) < 15) & (np.abs(y - origin[1]) < 9)).any(), (seed, box)
            assert corners[:, 2].min() >= -1e-9  # on the table


@pytest.mark.parametrize("kind, seed, options, allowed", [
    ("stand", 974306, STAND_974306_YELLOW, {"pass"}),  # pale yellow paper
    ("top_pair", 974301, TOP_PAIR_974301_LOW_LAMP, {"pass", "uncertain"}),  # a low lamp's long shadows
    ("stagger", 974301, STAGGER_974301_CLUTTER, {"pass"}),  # supply cubes and a miniature beside and behind
])
def test_a_legal_tower_on_a_hunt_table_is_not_failed(kind, seed, options, allowed):
    scene = make_tower_scene(kind, seed=seed, **options)
    assert scene.expected == "pass"
    assert judge_scene(scene).verdict.value in allowed


@pytest.mark.xfail(strict=True, reason="past the spec: on kraft paper (no white quiet zone) a light cube reads as "
                                       "paper and the count fails; the judge cannot tell paper from light colour "
                                       "in one frame (docs, fifty-third pass)")
@pytest.mark.parametrize("kind, options", [("ring", RING_974603_KRAFT), ("top_pair", TOP_PAIR_974603_KRAFT)])
def test_a_legal_tower_on_kraft_paper_is_not_failed(kind, options):
    scene = make_tower_scene(kind, seed=974603, **options)
    assert scene.hunt == "paper:kraft" and scene.expected == "pass"
    assert judge_scene(scene).verdict.value != "fail"


def test_a_stagger_before_a_wood_coloured_card_is_not_failed():
    scene = make_tower_scene("stagger", seed=974312, **STAGGER_974312_CARD)
    assert "card" in scene.hunt and scene.expected == "pass"
    assert judge_scene(scene).verdict.value != "fail"
