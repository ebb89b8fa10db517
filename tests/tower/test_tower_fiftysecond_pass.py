"""Fifty-second pass (issue 5): the ring-class doubt by a cue other than the span -- a negative result.

Whether two cubes side by side on one cube touch (rule 8) might be told by what the camera, 10-30
degrees above the table, sees between them besides the slit rule 9 reads: the lower cube's lit top
face at the pair's foot, or the shade in the gap.  Measured with the generator's geometry
(``bench/tower_pair_slivers.py``, used rooms 910000-950000 and the built corner rings): two
touching cubes turned against each other meet at one corner and leave a notch in front of it, so
the lower cube's top face shows between them as much as between arms 1-4 mm apart (touching pairs
up to 96 px of it, legal pairs the judge leaves "may touch" 14 px at the median), and the light at
the foot over the faces' is 0.5-2.7 for touching pairs and 0.5-3.8 for those pairs.  No rule: these
tests guard what such a rule must not do.
"""

import dataclasses

import numpy as np
import pytest

from vision.tower import Reason, Verdict
from vision.tower.judge import SIDE_MAY_TOUCH
from tower_judging import analyzer_and_last, judge_scene

HEAVY_FACE = np.array([0.05, 0.07, 0.27])  # B, G, R in units of the quiet-zone white
LIT_LIGHT_TOP = np.array([0.45, 0.62, 0.75])  # a light cube's top face, lit from above
WHITE_MAT = np.array([0.97, 0.97, 0.97])

# Touching rings of the accuracy bench whose arms meet as solid cubes do (``--solid-touch``), with
# the most of the lower cube's top face between the arms (bench/tower_pair_slivers.py) and the
# brightest foot: 930015 (two heavy arms on the base: 80 px of its top face, the foot 2.7 times as
# bright as the faces), 940020 (95 px), and one-pair ring 945030 with arms turned up to 45 degrees
# (``--four-cubes --arm-turn 45``: 96 px).
TOUCHING = {
    930015: dict(heavy=2, light=4, frames=3, dim=False, nudge_px=0.4581654773931261,
                 exposure_drift=0.12376723139890185, off_spot_mm=9.122256668398505, distractors=2,
                 noise=4.698393606400156, pile=False, near=0.20516366006663375, solid_touch=True),
    940020: dict(heavy=1, light=3, frames=5, dim=False, nudge_px=2.4590562061698464,
                 exposure_drift=0.06472805498041649, off_spot_mm=5.092957594661993, distractors=1,
                 noise=5.522605014899036, pile=False, near=0.3794472687278494, solid_touch=True),
    945030: dict(heavy=2, light=2, frames=6, dim=False, nudge_px=2.680932709348869,
                 exposure_drift=0.11817396026199739, off_spot_mm=11.60276314292741, distractors=9,
                 noise=1.8694305152565258, pile=True, near=0.13712595537139038, solid_touch=True,
                 arm_turn=45.0),
}


@pytest.mark.parametrize("seed", sorted(TOUCHING))
def test_a_touching_ring_showing_its_base_top_between_the_arms_is_not_passed(tower_scene, seed):
    verdict = judge_scene(tower_scene("touching_ring", seed, **TOUCHING[seed]))
    assert verdict.verdict is Verdict.UNCERTAIN
    assert Reason.CUBE_NEIGHBOURS in verdict.reasons


def test_the_lower_cubes_lit_top_at_the_pairs_foot_is_no_gap(tower_scene, monkeypatch):
    """Two heavy faces side by side on layer 1, a light base's lit top face between them only on
    the rows under the slit (where a sight line through a gap meets the cube below, and where
    touching arms' notch shows the same face), before white paper: the pair may touch."""
    analyzer, last = analyzer_and_last(tower_scene("stand", 3))
    view = last.view
    lo, hi, split = view.row(20.0), view.row(10.0), 80
    foot = analyzer._slit_bottom(view, lo)
    assert lo < foot < hi
    colour = np.zeros_like(last.colour)
    colour[:] = HEAVY_FACE
    colour[foot:hi, split - 2: split + 3] = LIT_LIGHT_TOP
    cubes = np.ones_like(last.heavy)
    reference = np.broadcast_to(WHITE_MAT.astype(np.float32), colour.shape).copy()
    nothing = np.zeros_like(last.light)
    monkeypatch.setattr(analyzer, "_reference_view", lambda view: reference)
    monkeypatch.setattr(analyzer, "_reference_colours", lambda view: (nothing, nothing))

    def read(colour):
        obs = dataclasses.replace(last, colour=colour, still_colour=colour, light=nothing, heavy=cubes,
                                  changed=np.ones_like(last.light))
        return analyzer._side_gap(obs, lo, hi, split, pair_width=2.2)

    assert read(colour) == SIDE_MAY_TOUCH
    # The same line on the slit's rows, a colour the heavy faces cannot give, is read: it is the rows
    # that keep it out, not its colour.
    colour[lo:foot, split - 2: split + 3] = LIT_LIGHT_TOP
    assert read(colour) != SIDE_MAY_TOUCH
