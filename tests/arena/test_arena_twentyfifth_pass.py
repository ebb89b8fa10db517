"""Twenty-fifth pass: a base-sized rim seen from high above that steps down to a fainter ring on
most of its front arc, with its far outline running on past where any flat token's top could show,
is a base close to the board's colour round its figure's foot: a fighter, even where a "size
alone" check (pinched, short behind) would doubt it (see docs/arena-reader.md, "Twenty-fifth
pass"). Those checks guard against two tokens lying one over the other, which show neither: the
faint ring of a stack is its lower token's rim, a token's size."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from arena_scenes import assert_never_wrong_when_ok, assert_read_right_with_the_count, drawn_discs, line_9, render, scene, spec_scene
from vision.arena import bases, read_arena
from vision.arena.bases import Blob, Evidence, Kind
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView
from vision.synth.arena_scene import CameraPose, Token

GEOMETRY = line_9()
SETTINGS = ArenaSettings()
#: Close to the spaces' colour (arena_scenes.SPACE), a shade lighter.
FAINT = (128, 150, 168)
#: In front of the board and high above it (some 74 degrees up at its middle): away from the
#: camera is +y there, and a 6 mm token's top shows 1.75 mm displaced that way.
HIGH_CAMERA = CameraPosition(centre_mm=(0.0, -150.0, 520.0), focal_px=800.0)

#: 330187's S2 fighter, 69 degrees up, on a base close to the board's colour: a 27.6 mm rim fitted
#: to 0.21 mm, a fainter ring on 0.90 of its front arc, pinched 3.0 mm, its far outline 4.8 mm past
#: its far rim (a 6 mm token's top reaches 2.6 there, 3.6 with the slack).
RINGED_FROM_ABOVE = Blob(-115.0, 7.9, 13.8, 0.21, 0.90, Evidence.UNKNOWN, (-115.0, 7.9), 1, 1.0,
                         pinched_mm=3.0, short_behind_mm=-4.8, runs_on_behind=True)


def test_a_ringed_base_sized_rim_running_on_behind_is_a_fighter():
    assert bases.classify(RINGED_FROM_ABOVE, SETTINGS) is Kind.FIGHTER
    assert bases.is_clear_base(RINGED_FROM_ABOVE, SETTINGS)
    # The same rim one step from the board (no fainter ring): pinched, so maybe two tokens.
    assert bases.classify(replace(RINGED_FROM_ABOVE, tiered=0.1), SETTINGS) is Kind.UNSURE


@pytest.mark.parametrize("tiered", [0.14, 0.38, 0.43, 0.52, 0.65])
def test_a_ring_on_part_of_the_front_arc_is_not_enough(tiered):
    # Faint-lower token pairs fitted base-sized from high above: tiered 0.14-0.38 (the twenty-third
    # pass's), up to 0.52 with a 15 mm token resting 9 mm off; real tokens shaded at their rim up to
    # 0.43. The ring must hold most of the front arc.
    assert bases.classify(replace(RINGED_FROM_ABOVE, tiered=tiered), SETTINGS) is Kind.UNSURE


def test_a_ringed_rim_whose_far_outline_ends_at_a_tokens_top_is_unsure():
    # A token with a fainter ring round it from outside (its shade), fitted base-sized: one flat
    # disc, whose far outline ends where its top shows.
    assert bases.classify(replace(RINGED_FROM_ABOVE, runs_on_behind=False), SETTINGS) is Kind.UNSURE


@pytest.mark.parametrize("changes", [dict(fit_error_mm=0.7), dict(coverage=0.95), dict(diameter=31.0),
                                     dict(ahead=0.5)])
def test_the_rule_waives_only_the_size_alone_checks_against_stacked_tokens(changes):
    diameter = changes.pop("diameter", None)
    blob = replace(RINGED_FROM_ABOVE, **changes)
    if diameter is not None:
        blob = replace(blob, radius_mm=diameter / 2)  # wider than a base fits
    assert bases.classify(blob, SETTINGS) is Kind.UNSURE


def test_the_rule_is_for_a_camera_so_high_that_the_figure_stays_over_its_base():
    # From lower down the figure itself shows behind the base, and the usual checks decide.
    assert not bases._ringed_base_from_above(replace(RINGED_FROM_ABOVE, figure=Evidence.NO))
    assert not bases._ringed_base_from_above(replace(RINGED_FROM_ABOVE, figure=Evidence.PARTIAL))
    assert bases._ringed_base_from_above(RINGED_FROM_ABOVE)


# --- the far outline on drawn discs -----------------------------------------------------------

def test_a_figures_top_runs_the_far_outline_on_past_a_tokens_top():
    view = BoardView(440, 160, 3.0)
    search = np.ones((480, 1320), bool)
    flat_top = bases._flat_top_outline_reach(HIGH_CAMERA, 0.0, 0.0)
    assert flat_top > math.hypot(*HIGH_CAMERA.lean(0.0, 0.0, bases.MAX_TOKEN_THICKNESS_MM))
    # A 27 mm base, a fainter ring round its figure's foot, the figure's top shown further away from
    # the camera (+y), 5 mm past the base's far rim: its far outline runs on past any token's top.
    base = drawn_discs(view, [(0, 0, 13.5, 40.0), (0, 0, 9.0, 120.0), (0, 11.5, 7.0, 120.0)])
    run = -bases._short_behind(*base, view, HIGH_CAMERA, 0, 0, 13.5, search)
    assert flat_top < run < 6.0
    # A flat token with a fainter ring round it (its shade), fitted base-sized: its outline ends at
    # its top, shown the thickest token's lean further away.
    lean = math.hypot(*HIGH_CAMERA.lean(0.0, 0.0, bases.MAX_TOKEN_THICKNESS_MM))
    token = drawn_discs(view, [(0, 0, 13.0, 40.0), (0, 0, 11.0, 120.0), (0, lean, 11.0, 120.0)])
    assert -bases._short_behind(*token, view, HIGH_CAMERA, 0, 0, 13.0, search) < flat_top


# --- seeds and built scenes -------------------------------------------------------------------

def _recording_the_rule(monkeypatch) -> list[bool]:
    answers, rule = [], bases._ringed_base_from_above

    def recording(blob):
        answers.append(rule(blob))
        return answers[-1]

    monkeypatch.setattr(bases, "_ringed_base_from_above", recording)
    return answers


def test_330187_is_read_right_where_the_rule_takes_its_ringed_base(monkeypatch):
    live, reference, truth, count = spec_scene(330187, GEOMETRY)
    with monkeypatch.context() as patched:
        answers = _recording_the_rule(patched)
        reading = read_arena(live, reference, GEOMETRY, annotate=False)
    if any(answers):
        assert reading.ok, reading.error
        assert reading.occupied == truth
    assert not reading.ok or reading.occupied == truth, (reading.occupied, truth)
    reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count)
    assert reading.ok, reading.error
    assert reading.occupied == truth


def test_the_rule_takes_330187s_base_on_any_renderer(monkeypatch):
    # Guards the test above from passing only because a renderer (the Pi's OpenCV 4.11) leaves the
    # rule nothing to take.
    live, reference, _, _ = spec_scene(330187, GEOMETRY)
    with monkeypatch.context() as patched:
        answers = _recording_the_rule(patched)
        read_arena(live, reference, GEOMETRY, annotate=False)
    assert any(answers)


def test_the_crisp_base_sized_rims_seen_from_high_above_are_never_wrong_when_ok():
    # The twenty-third pass's third row: pinched, short behind, not all changed, fitted too wide.
    assert_never_wrong_when_ok([330098, 330116, 330187, 330208, 330391, 330418, 330571], GEOMETRY)


#: (elevation, azimuth, offset mm, direction degrees, upper token mm): a vivid token resting far off
#: the centre of a 22 mm token close to the spaces' colour, on S6 (``resting-wide`` in
#: bench/arena_stacked_tokens.py). The first six were read on `main` as a fighter on S6: a disc of
#: neither size (23.2-23.9 mm), from 55 degrees up barely half changed with the upper token behind it
#: "a figure", from 74-80 degrees up standing up as a figure's top would; the rest fitted base-sized
#: from high above, a faint ring on part of the front arc.
WIDE_RESTING = [(55, -20, 9.0, 45, 22.0), (55, -20, 11.0, 45, 22.0), (55, -20, 11.0, 90, 22.0),
                (74, 0, 9.0, 45, 22.0), (74, 20, 11.0, 90, 22.0), (80, 0, 9.0, 90, 22.0),
                (55, -20, 9.0, 180, 15.0), (61, 0, 9.0, 180, 15.0), (61, -20, 11.0, 180, 22.0), (74, 0, 9.0, 90, 15.0)]


@pytest.mark.parametrize("elevation, azimuth, offset, angle, upper_mm", WIDE_RESTING)
def test_a_token_resting_far_off_a_faint_token_is_no_fighter(elevation, azimuth, offset, angle, upper_mm):
    dx, dy = offset * math.cos(math.radians(angle)), offset * math.sin(math.radians(angle))
    pair = (Token(40.0, 0.0, 22.0, 3.0, FAINT), Token(40.0 + dx, dy, upper_mm, 3.0, (200, 40, 180), z_mm=3.0))
    pose = CameraPose(distance_mm=450, elevation_deg=elevation, azimuth_deg=azimuth)
    reading = read_arena(render(scene(pose, tokens=pair), GEOMETRY), render(scene(pose, seed=99), GEOMETRY), GEOMETRY,
                         annotate=False)
    assert not reading.ok or reading.occupied == (), (reading.occupied, reading.error)


# --- a disc of neither size, barely half changed ----------------------------------------------

#: A disc between the token and base sizes with change behind it (the figure evidence) but only 58 %
#: of it changed, one step from the board: the faint-lower pair of WIDE_RESTING[2] as measured.
NEITHER_SIZE_HOLLOW = Blob(41.8, 2.6, 11.65, 0.21, 0.0, Evidence.YES, (41.8, 2.6), 1, 0.58, stands_up=True)


def test_a_disc_of_neither_size_not_solid_and_not_ringed_is_unsure():
    assert bases.classify(NEITHER_SIZE_HOLLOW, SETTINGS) is Kind.UNSURE
    # Solid, it is read by its figure as before.
    assert bases.classify(replace(NEITHER_SIZE_HOLLOW, coverage=0.97), SETTINGS) is Kind.FIGHTER
    # With a base's faint ring round its figure's foot, it is a base the board's colour.
    assert bases.classify(replace(NEITHER_SIZE_HOLLOW, tiered=0.6), SETTINGS) is Kind.FIGHTER


#: A disc of neither size seen from high above, crisp and solid, standing up: the faint-lower pair of
#: WIDE_RESTING[4] as measured (74 degrees up, 23.4 mm, its change ending within a resting token's reach).
NEITHER_SIZE_STANDING = Blob(40.1, 1.4, 11.7, 0.19, 0.9, Evidence.UNKNOWN, (40.1, 1.4), 1, 0.99, stands_up=True)


@pytest.mark.parametrize("figure, coverage", [(Evidence.UNKNOWN, 0.99), (Evidence.YES, 0.99), (Evidence.YES, 0.67)])
def test_a_disc_of_neither_size_standing_up_within_a_resting_tokens_reach_is_unsure(figure, coverage):
    # (YES, 0.67): WIDE_RESTING[0] as the Pi's OpenCV 4.11 draws it: fitted 24.6 mm, ringed (0.62), so
    # a base the board's colour round its figure by its ring and coverage alone.
    blob = replace(NEITHER_SIZE_STANDING, figure=figure, coverage=coverage)
    assert bases.classify(blob, SETTINGS) is Kind.FIGHTER
    assert bases.classify(replace(blob, within_resting_reach=True), SETTINGS) is Kind.UNSURE


def test_a_ringed_fighter_of_neither_size_standing_up_short_is_read_with_the_count():
    # 330228's S1 fighter, 67 degrees up: a base close to the board's colour fitted 24.8 mm (just under
    # a base's size), ringed (0.95), its change standing up 12 mm past its rim where a resting token
    # reaches 20: like the resting pairs, a doubt without the count; with it, read right.
    assert_read_right_with_the_count(330228, GEOMETRY)
    assert_never_wrong_when_ok([330228], GEOMETRY)
