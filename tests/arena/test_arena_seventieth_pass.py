"""Seventieth pass: told how many fighters stand, the reader does not let an unsure disc on a space
stand in for the fighter counted while something apart from it stands off every space (see
docs/arena-reader.md, "Seventieth pass").

With the count (one fighter), ``main`` read S6 with ``ok: true`` in 8 ``resting-behind`` scenes of
``bench/arena_stacked_tokens.py`` (two tokens resting one on the other on S6, the fighter 0.5 mm behind
them off the row). In four, nothing but the pair was taken as a base and the count's stand-in
(``_standing_in_for``) took the pair; the fighter behind (its base the spaces' colour, or ragged) was seen
only as a token-sized disc off the row, with the band just in front of it bare. A figure rises from its
base without a gap, so such a disc is no part of the pair's figure: it may be the counted fighter's top,
and the count says how many fighters there are, not which. Three of the four are now a doubt; the fourth
(74 degrees up, the fighter's base fitted ragged, 2.19 mm off a circle, with the pair's change in front
of it) and the four read wrong without the count too (the pair taken by its look) are left: strict xfail.
"""

from __future__ import annotations

import pytest

from arena_scenes import bench_module, read_stacked_tokens
from vision.arena import bases, load_geometry, read_arena
from vision.arena.bases import Blob, Evidence
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings

SETTINGS = ArenaSettings()
#: (80, -20, 5.0, 0, True) as measured: the camera, ...
CAMERA = CameraPosition(centre_mm=(-27.3, -75.7, 449.2), focal_px=800.0)
#: ... the pair on S6, a crisp 28.7 mm disc left unsure, the count's would-be stand-in, ...
PAIR = Blob(44.4, 11.3, 14.35, 0.55, 0.24, Evidence.UNKNOWN, (44.4, 11.3), 1, 0.92)
#: ... and the fighter's figure's top off the row, a flat 16.2 mm disc, nothing changed in front of it.
TOP = Blob(42.8, 36.7, 8.1, 0.84, 0.0, Evidence.UNKNOWN, (42.8, 36.7), 2, 1.0, ahead=0.04,
           ahead_points=((42.8, 27.0),), ahead_looked=25)


def _apart(blob, standing=(PAIR,)):
    geometry = load_geometry(bench_module("arena_stacked_tokens").LAYOUT)
    return bases._apart_behind_a_stand_in_on_a_space(blob, list(standing), [], geometry, CAMERA, SETTINGS)


def test_a_thing_apart_off_every_space_behind_a_stand_in_on_a_space_is_named():
    assert _apart(TOP)


def test_with_the_band_in_front_changed_it_may_be_the_stand_ins_own_figure():
    from dataclasses import replace
    assert not _apart(replace(TOP, ahead=0.6))


def test_on_a_space_it_is_no_question_of_which_space():
    from dataclasses import replace
    assert not _apart(replace(TOP, x_mm=40.0, y_mm=4.0, peak_mm=(40.0, 4.0)), standing=(replace(PAIR, x_mm=0.0, y_mm=0.0),))


def test_a_stand_in_off_every_space_changes_no_space():
    from dataclasses import replace
    assert not _apart(TOP, standing=(replace(PAIR, x_mm=40.0, y_mm=-60.0, peak_mm=(40.0, -60.0)),))


def test_a_token_by_its_own_look_is_not_named():
    from dataclasses import replace
    flat_token = replace(TOP, radius_mm=10.0, fit_error_mm=0.2, figure=Evidence.NO)
    assert bases.classify(flat_token, SETTINGS) is bases.Kind.TOKEN
    assert not _apart(flat_token)


def test_a_ragged_fit_is_not_named():
    from dataclasses import replace
    assert not _apart(replace(TOP, fit_error_mm=2.2))


#: main read S6 with ok: true with the count, the pair standing in for the fighter.
STOOD_IN = [
    ("resting-behind", (61, -20, 5.0, 135, True)),
    ("resting-behind", (80, -20, 5.0, 0, True)),
    ("resting-behind", (80, -20, 11.0, 0, True)),
]
#: Left by this pass (see the doc), S6 with ok: true with the count until the eighty-eighth pass (a strict xfail
#: till then; its mark removed: test_arena_eightyeighth_pass). (55, 0, 11.0, 90, True) was here too: it is read
#: so on the Pi's numpy 1.24 + OpenCV 4.11 only, and test_arena_seventyfifth_pass holds it on both stacks (right
#: on OpenCV 5, a strict xfail on 4.11).
LEFT = [
    ("resting-behind", (80, 0, 11.0, 225, True)),
]
# (80, 20, 11.0, 45, True) was here: no longer a wrong ok since the seventy-fifth pass
# (test_arena_seventyfifth_pass), its xfail mark removed. (74, 0, 5.0, 135, False) and (55, 0, 11.0, 90, False)
# were here (OpenCV 5 only): no longer a wrong ok since the seventy-ninth pass (test_arena_seventyninth_pass).


@pytest.mark.parametrize("which, label", STOOD_IN)
def test_the_pair_does_not_stand_in_for_the_fighter_counted(which, label):
    reading, truth = read_stacked_tokens(which, label, with_count=True)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)


@pytest.mark.parametrize("which, label", LEFT)
def test_left_never_a_wrong_ok_with_the_count(which, label):
    reading, truth = read_stacked_tokens(which, label, with_count=True)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)


@pytest.mark.parametrize("which, label", [
    ("fighters", (55, -20, 40, False)), ("fighters", (80, 0, 40, True)), ("fighters", (61, 20, 80, True)),
    ("fighters", (80, -20, -40, True)), ("front", (45, 8, 34, 20)),
])
def test_read_right_with_the_count_as_before(which, label):
    reading, truth = read_stacked_tokens(which, label, with_count=True)
    assert reading.ok and reading.occupied == truth, (reading.occupied, reading.error)


def test_a_fighter_seen_as_two_tokens_is_never_a_wrong_ok_without_the_count():
    # Two fighters touching on S7 and S8, 45 degrees up: the S7 fighter's dark base fits a 13 mm disc
    # taken for a token (its figure PARTIAL) and a ragged fit, its 17 mm wide figure's top a 19.7 mm flat
    # disc taken for a token: every change is explained, S7 is missed. With the count: a doubt.
    # (A strict xfail until the seventy-third pass: the two discs joined by the figure's faint body.)
    from arena_scenes import spec_scene
    geometry = load_geometry(bench_module("arena_stacked_tokens").LAYOUT)
    live, reference, truth, count = spec_scene(890222, geometry)
    reading = read_arena(live, reference, geometry, annotate=False)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, reading.error)
