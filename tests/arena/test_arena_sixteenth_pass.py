"""Sixteenth accuracy pass: a fighter whose base is close to the board's colour, fitted as a
token-sized disc round its figure's foot, is a fighter without the count when its rim steps down
to the base's fainter ring and its figure stands behind it (see docs/arena-reader.md,
"Sixteenth pass")."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from arena_scenes import BOARD, SPACE, assert_never_wrong_when_ok, empty, line_9, render, scene, spec_scene
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import CameraPose, Token

GEOMETRY = line_9()
SETTINGS = ArenaSettings()

#: 250148's disc on S9 (39 degrees up): a 22.5 mm rim, 93 % of its rays crossing a fainter ring,
#: the figure plainly behind it and standing up, nothing of it nearer the camera.
RINGED_FIGURE = Blob(157.9, -6.4, 11.25, 0.42, 0.93, Evidence.YES, (157.9, -6.4), 1, 1.0, ahead=0.0, stands_up=True)


#: Fighters on bases close to the board's colour, fitted token-sized, that main read as doubts.
BOARD_COLOURED_SEEDS = [
    # 60 degrees up: S8's fighter, base within 25 of the board's colour, fitted 22.9 mm, tiered
    # 0.78, its figure over its base (Evidence.UNKNOWN) but its top standing up.
    140014,
    # 73 degrees up: the only fighter, on S5, fitted 22.4 mm, tiered 0.81, its top standing up.
    140226,
    # 39 degrees up: a fighter on S6 whose base is 35 grey levels from the board, fitted 21.8 mm.
    250134,
    # 39 degrees up: S9's fighter on a base within 15 of the board's colour, fitted 22.5 mm.
    250148,
    # 65 degrees up: S9's fighter, base within 15 of the board's colour, fitted 22.4 mm.
    250246,
    # 45 degrees up: the only fighter, on S1, base within 16 of the board's colour, fitted 23.1 mm.
    250256,
]


def _read_recording_the_rule(seed, monkeypatch):
    """The reading of a spec seed without the count, whether ``_ringed_figure`` took any disc in
    it, and whether it would have but for the twenty-third pass's resting-token reach (a ringed
    disc whose change ends within it is no longer taken: see test_arena_twentythird_pass.py)."""
    live, reference, truth, _ = spec_scene(seed, GEOMETRY)
    ringed, asked, rule = [], [], bases._ringed_figure

    def recording(blob):
        ringed.append(rule(blob))
        asked.append(rule(replace(blob, within_resting_reach=False)))
        return ringed[-1]

    with monkeypatch.context() as patched:
        patched.setattr(bases, "_ringed_figure", recording)
        reading = read_arena(live, reference, GEOMETRY, annotate=False)
    return reading, truth, any(ringed), any(asked)


@pytest.mark.parametrize("seed", BOARD_COLOURED_SEEDS)
def test_a_fighter_on_a_base_the_board_colour_fitted_token_sized_is_read_without_the_count(seed, monkeypatch):
    reading, truth, ringed, _ = _read_recording_the_rule(seed, monkeypatch)
    if not ringed:
        # The scene is rendered by this OpenCV: the Pi's (4.11) draws 140014, 250134 and 250246 with
        # no token-sized ringed disc (250134's base fits at 28 mm, base-sized), so the rule is not
        # what reads them there (140014 reads right without it; the other two are doubts): only
        # never wrong.  That the rule still reads most of these seeds is the next test.
        assert_never_wrong_when_ok([seed], GEOMETRY)
        return
    assert reading.ok, reading.error
    assert reading.occupied == truth
    assert_never_wrong_when_ok([seed], GEOMETRY)


def test_the_ringed_figure_rule_reads_most_board_coloured_seeds_on_any_renderer(monkeypatch):
    # The per-seed test asks "right" only where the rule took a disc; this keeps it from passing
    # by the rule never applying: it applies to all six on OpenCV 5, three on the Pi's 4.11. (Since
    # the twenty-third pass it takes only 140014, 250134 and 250246 on OpenCV 5, none on 4.11: the
    # others stand up no further than a token resting on the disc could, and are doubts without the
    # count, read right with it; test_arena_twentythird_pass.py asks that.)
    asked = [_read_recording_the_rule(seed, monkeypatch)[3] for seed in BOARD_COLOURED_SEEDS]
    assert sum(asked) >= 3, dict(zip(BOARD_COLOURED_SEEDS, asked))


def test_a_token_sized_rim_stepping_down_to_a_fainter_ring_round_a_standing_figure_is_a_fighter():
    assert bases.classify(RINGED_FIGURE, SETTINGS) is Kind.FIGHTER
    # Seen from so high that the figure stays over its base, its top standing up is its figure.
    assert bases.classify(replace(RINGED_FIGURE, figure=Evidence.UNKNOWN), SETTINGS) is Kind.FIGHTER


@pytest.mark.parametrize("change", [
    {"tiered": 0.1},  # one step from the board: a token's outline
    {"figure": Evidence.PARTIAL},  # no figure plainly behind it
    {"figure": Evidence.NO},  # nothing where its figure would show
    {"stands_up": False},  # nothing past a flat top's reach: a token with another behind it
    {"ahead": 0.7},  # more of it nearer the camera: a figure's middle, its foot elsewhere
    {"fit_error_mm": 0.9},  # a ragged rim
    {"coverage": 0.8},  # the disc not all changed
])
def test_without_every_sign_of_a_ringed_figure_a_token_sized_disc_stays_unsure(change):
    assert bases.classify(replace(RINGED_FIGURE, **change), SETTINGS) is Kind.UNSURE


def test_a_ringed_figure_taken_as_a_fighter_is_placed_by_its_figure():
    # Its disc is fitted off its base's centre: the wider space-edge margin applies to it.
    view = BoardView.of(GEOMETRY)
    width, height = view.size
    nothing_else = np.zeros((height, width), np.uint8)
    camera = CameraPosition(centre_mm=(0.0, -350.0, 350.0), focal_px=800.0)
    chosen, _ = bases.select_bases([RINGED_FIGURE], nothing_else, view, GEOMETRY, camera, SETTINGS)
    assert [b.figure_only for b in chosen] == [True]


@pytest.mark.parametrize("elevation", [40, 50, 60])
@pytest.mark.parametrize("gap", [8.0, 13.0])
def test_a_faint_token_with_a_vivid_one_overlapping_behind_is_never_read_as_a_fighter(elevation, gap):
    # The one flat thing whose outline steps down to a fainter ring with more change behind it: a
    # token the space's colour lying in front of a vivid one. Nothing stands up out of it.
    pose = CameraPose(distance_mm=450, elevation_deg=elevation, azimuth_deg=-15)
    for faint in (SPACE, BOARD):
        tokens = (Token(40.0, -4.0, 20.0, 3.0, faint), Token(40.0, -4.0 + gap, 18.0, 3.0, (30, 150, 220)))
        reading = read_arena(render(scene(pose, tokens=tokens), GEOMETRY), empty(GEOMETRY, pose), GEOMETRY,
                             annotate=False)
        assert not (reading.ok and reading.occupied), (faint, reading.occupied)


def test_random_spec_scenes_round_the_tuned_ones_are_never_wrong_when_ok():
    assert_never_wrong_when_ok(range(250130, 250150), GEOMETRY)

