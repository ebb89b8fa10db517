"""Sixty-ninth pass: a token-sized disc seen from high above, which size alone would call a token and round
which no wide faint ring, no faint skirt and no tint in front shows, is no token where a shadow runs out
from its outline further than any token's thickness could cast one, joined to no other change (fresh
840209: a dark figure's shoulders over a base the very colour of its space, 74 degrees up, fitted a crisp
15.7 mm disc and read as a token: a wrong ``ok: true`` without the fighter count).
See docs/arena-reader.md, "Sixty-ninth pass"."""

from __future__ import annotations

import pytest

from arena_scenes import answers_of, line_9, spec_scene
from vision.arena import bases, read_arena
from vision.synth.arena_scene import CameraPose, Lighting, Miniature, Scene, Token, render_scene

GEOMETRY = line_9()
SEED = 840209


@pytest.mark.parametrize("with_count", [False, True])
def test_840209_is_never_read_wrong(with_count):
    # On main without the count: ok, S6 alone (the S4 fighter's top taken for a token). A doubt is honest.
    live, reference, truth, count = spec_scene(SEED, GEOMETRY)
    reading = read_arena(live, reference, GEOMETRY, annotate=False, fighters=count if with_count else None)
    assert not reading.ok or reading.occupied == truth, (reading.occupied, truth)


def test_840209s_top_is_no_token_by_its_shadow():
    # The disc at S4 (the figure's shoulders) is what the rule makes unsure: by its shadow, not by anything else.
    live, reference, _, _ = spec_scene(SEED, GEOMETRY)
    seen, reading = answers_of(bases, "_casts_a_long_shadow", lambda: read_arena(live, reference, GEOMETRY, annotate=False))
    assert seen == [True]
    assert "(-41, 4) mm may be a token or a base" in (reading.error or "")


BOARD, SPACE = (150, 170, 185), (120, 140, 160)


def _scene(pose, minis=(), tokens=(), shadow=0.3):
    return Scene(pose=pose, miniatures=tuple(minis), tokens=tuple(tokens), board_bgr=BOARD, space_bgr=SPACE,
                 lighting=Lighting(noise=2.0, shadow=shadow, light_dir=(-0.4, 0.5)), seed=3, board_seed=7)


@pytest.mark.parametrize("elevation", [67, 74, 80])
@pytest.mark.parametrize("token_bgr", [(30, 150, 220), (40, 40, 50)])
def test_a_lone_token_by_a_shadowed_fighter_is_read_a_token(elevation, token_bgr):
    # A vivid fighter on S6 casting a long shadow (to the left and away), a lone token on S5 and one on S4
    # (a dark one too): the tokens cast no shadow of their own; the fighter's does not make them doubts.
    pose = CameraPose(distance_mm=450, elevation_deg=elevation, azimuth_deg=10)
    reference = _scene(pose, shadow=0.0)
    live = _scene(pose, [Miniature(40.0, 0.0, base_mm=26.5, base_bgr=(40, 40, 160), figure_bgr=(90, 160, 90),
                                   figure_height_mm=40.0)],
                  [Token(3.0, 0.0, 18.0, 3.0, token_bgr), Token(-40.0, 2.0, 20.0, 3.0, token_bgr)])
    reading = read_arena(render_scene(live, GEOMETRY), render_scene(reference, GEOMETRY), GEOMETRY, annotate=False)
    assert reading.ok, reading.error
    assert reading.occupied == ("S6",)
