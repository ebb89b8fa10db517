"""Twentieth pass (issue 5): which uncertain rings the view settles.

A slit a pixel or two wide in the frame, open on only part of the band's rows, mixes little of
the background into any side-view column: ring 520044's slit, a white line plain to the eye
between two dark red arms, fitted only 0.24 background at the clearest column, under the faint
slit's old 0.25, while the faces alone missed that column's colour by 0.41.  What keeps a
touching pair out is that miss (between touching arms no column fitted with 0.15 background or
more missed the faces by more than 0.047, in very noisy rooms), so the background's share need
only say it is what the faces miss, beyond what noise gives: 0.15.  The painted colour
fields pin the rule on any renderer; seeded scenes are rebuilt from the generator with
the accuracy bench's options for that seed, and for those only what must hold is asserted."""

import dataclasses

import numpy as np
import pytest

from vision.tower import Verdict
from vision.tower.judge import (
    SIDE_FAINT_APART,
    SIDE_MAY_TOUCH,
    SIDE_SEEN_APART,
    SLIT_FACES_MISS,
    _mix_residual,
)
from tower_judging import analyzer_and_last, judge_scene, slit_verdicts

HEAVY_FACE = np.array([0.05, 0.07, 0.27])  # B, G, R in units of the quiet-zone white
LIGHT_FACE = np.array([0.32, 0.45, 0.54])
WHITE_MAT = np.array([0.97, 0.97, 0.97])
DARK_RED_PIECE = np.array([0.06, 0.08, 0.30])

# Seed 520044 of the accuracy bench: a ring of 4 heavy and 2 light cubes on white paper; the
# upper pair (two heavy arms 2 mm apart) shows a thin white slit under the light cap.
RING_520044 = dict(heavy=4, light=2, frames=2, dim=False, nudge_px=3.9734561224061347,
                   exposure_drift=0.041181204373388014, off_spot_mm=5.378034943784703, distractors=5,
                   noise=2.0591006943945342, pile=False, near=0.13755171820609444)
# Seed 520018: 1 heavy and 5 light cubes; the upper pair's slit shows the brown table behind.
RING_520018 = dict(heavy=1, light=5, frames=2, dim=False, nudge_px=2.8049148780961883,
                   exposure_drift=0.04135252720968912, off_spot_mm=3.558327851036896, distractors=4,
                   noise=1.6856615452527726, pile=False, near=0.2294435222281741)


@pytest.fixture
def slit_reader(tower_scene, monkeypatch):
    """``read(left, right, between, *, background=WHITE_MAT, still=True)``: how the judge reads
    the columns between two painted faces (``between``: the colours of the five columns around
    the split), in front of a painted reference of one colour."""
    analyzer, last = analyzer_and_last(tower_scene("stand", 3))
    rows, split, reach = slice(100, 106), 80, 3

    def read(left, right, between, *, background=WHITE_MAT, still=True):
        colour = np.zeros_like(last.colour)
        colour[:, :split] = left
        colour[:, split:] = right
        colour[:, split - 2: split + 3] = between
        cubes = np.ones_like(last.light)
        cubes[:, split - 1: split + 2] = False  # the slit's columns are no cube colour
        reference = np.broadcast_to(np.asarray(background, np.float32), colour.shape).copy()
        nothing = np.zeros_like(last.light)
        monkeypatch.setattr(analyzer, "_reference_view", lambda view: reference)
        monkeypatch.setattr(analyzer, "_reference_colours", lambda view: (nothing, nothing))
        obs = dataclasses.replace(last, colour=colour, still_colour=colour if still else None,
                                  light=nothing, heavy=cubes, changed=np.ones_like(last.light))
        return analyzer._background_in_slit(obs, rows, split, reach)

    return read


def _slit(face, background, shares):
    """Columns where each shows ``face`` mixed with ``background`` in the given shares."""
    return np.array([(1 - a) * face + a * background for a in shares])


def test_a_thin_slit_of_white_between_two_dark_faces_is_a_faint_slit(slit_reader):
    # 0.2 background at the clearest column: a colour the dark faces cannot give at any
    # brightness, light from behind (uncertain on main: the faint share was 0.25).
    between = _slit(HEAVY_FACE, WHITE_MAT, (0.0, 0.12, 0.2, 0.12, 0.0))
    assert _mix_residual(between[2], [HEAVY_FACE, HEAVY_FACE]) > 4 * SLIT_FACES_MISS
    assert slit_reader(HEAVY_FACE, HEAVY_FACE, between) == SIDE_FAINT_APART


def test_a_thin_slit_is_read_only_on_the_still_frames_average(slit_reader):
    # One frame alone carries more noise than the faint slit's thresholds were measured for.
    between = _slit(HEAVY_FACE, WHITE_MAT, (0.0, 0.12, 0.2, 0.12, 0.0))
    assert slit_reader(HEAVY_FACE, HEAVY_FACE, between, still=False) == SIDE_MAY_TOUCH


@pytest.mark.parametrize("shade", [0.5, 1.6])
def test_a_crease_or_a_lit_side_face_between_touching_dark_faces_is_no_slit(slit_reader, shade):
    # The faces' own colour, darker (the crease) or brighter (a lit side face): no light from behind.
    between = np.array([HEAVY_FACE, HEAVY_FACE, shade * HEAVY_FACE, HEAVY_FACE, HEAVY_FACE])
    assert slit_reader(HEAVY_FACE, HEAVY_FACE, between) == SIDE_MAY_TOUCH


def test_a_thin_slit_before_a_piece_of_the_faces_colour_shows_nothing(slit_reader):
    # A background the faces' shading could give: whatever the columns look like, no slit is read.
    between = _slit(HEAVY_FACE, DARK_RED_PIECE, (0.0, 0.3, 0.6, 0.3, 0.0))
    assert slit_reader(HEAVY_FACE, HEAVY_FACE, between, background=DARK_RED_PIECE) == SIDE_MAY_TOUCH


def test_white_blurred_into_a_light_face_stays_unread_where_the_faces_alone_nearly_give_it(slit_reader):
    # Pale paper mixed into light wood looks much like the wood brighter: the faces alone miss it
    # by less than the faint slit asks, as a touching pair's noise can.  The share alone says nothing.
    between = _slit(LIGHT_FACE, WHITE_MAT, (0.0, 0.1, 0.2, 0.1, 0.0))
    assert _mix_residual(between[2], [LIGHT_FACE, HEAVY_FACE]) < SLIT_FACES_MISS
    assert slit_reader(LIGHT_FACE, HEAVY_FACE, between) == SIDE_MAY_TOUCH


def test_a_clear_slit_is_still_seen(slit_reader):
    between = _slit(HEAVY_FACE, WHITE_MAT, (0.1, 0.4, 0.6, 0.4, 0.1))
    assert slit_reader(HEAVY_FACE, HEAVY_FACE, between) == SIDE_SEEN_APART



def test_ring_520044_whose_thin_slit_shows_passes_for_the_referee_to_confirm(tower_scene, monkeypatch):
    # Its slit fitted 0.24 background at a faces' miss of 0.41: far from either cut, on any renderer.
    scene = tower_scene("ring", 520044, **RING_520044)
    analyzer, last = analyzer_and_last(scene)
    assert SIDE_FAINT_APART in slit_verdicts(analyzer, last, monkeypatch)
    verdict = judge_scene(scene)
    assert verdict.verdict is not Verdict.FAIL  # never wrong; a pass needs the referee's look
    if verdict.verdict is Verdict.PASS:
        assert verdict.confidence < 0.9


def test_ring_520018_whose_slit_shows_the_table_is_never_failed(tower_scene):
    # Its slit before the brown table fitted 0.22 background at a faces' miss of 0.099, near the
    # 0.08: another renderer may leave it uncertain, never wrong.
    verdict = judge_scene(tower_scene("ring", 520018, **RING_520018))
    assert verdict.verdict is not Verdict.FAIL
    if verdict.verdict is Verdict.PASS:
        assert verdict.confidence < 0.9


@pytest.mark.parametrize("seed", range(520000, 520010))
def test_touching_rings_never_pass(tower_scene, seed):
    # Plain and very noisy dim rooms: the lower share of a faint slit lets no touching pair through.
    for options in ({}, {"dim": True, "noise": 8.0}):
        assert judge_scene(tower_scene("touching_ring", seed, heavy=2, light=4, **options)).verdict is not Verdict.PASS
