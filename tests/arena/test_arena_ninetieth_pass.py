"""Ninetieth pass: a token-sized disc that does not stand up and whose figure's evidence is change apart from it,
past bare board across its whole width, has nothing standing on it (``bases._joined_to_what_stands_behind``), as a
disc that stands up only by such change already had not. The census of the doubts without the count is in
docs/arena-reader.md, "Ninetieth pass"."""

from __future__ import annotations

import dataclasses

from arena_scenes import line_9, read_both_ways, spec_scene
from vision.arena.bases import Blob, Evidence, Kind, classify
from vision.arena.settings import ArenaSettings

GEOMETRY = line_9()
SETTINGS = ArenaSettings()


def _token_sized(**features) -> Blob:
    # A crisp, solid 19 mm disc, nothing of it nearer the camera (995285's token: 18.9 mm, rms 0.20).
    return dataclasses.replace(Blob(0.0, 0.0, 9.5, 0.2, 0.0, Evidence.YES, (0.0, 0.0), 1, 1.0), **features)


def test_a_figures_evidence_apart_from_the_disc_stands_on_nothing():
    assert classify(_token_sized(figure=Evidence.YES, apart_behind=True), SETTINGS) is Kind.TOKEN
    # Joined to it (no bare board across its whole width, or not looked at: a marker's keep-out), it stays unsure;
    # so does a disc standing up with a figure's evidence, whatever lies between (the eighty-fourth pass's test).
    assert classify(_token_sized(figure=Evidence.YES, stands_up=True, apart_behind=True), SETTINGS) is Kind.UNSURE
    # And so does one with more of it nearer the camera: a figure's upper part, its body in front (used 900108: 1.0).
    assert classify(_token_sized(figure=Evidence.YES, apart_behind=True, ahead=0.9), SETTINGS) is Kind.UNSURE
    assert classify(_token_sized(figure=Evidence.YES), SETTINGS) is Kind.UNSURE
    assert classify(_token_sized(figure=Evidence.NO, stands_up=True), SETTINGS) is Kind.UNSURE
    assert classify(_token_sized(figure=Evidence.NO), SETTINGS) is Kind.TOKEN


def test_a_token_whose_figure_is_a_hand_over_a_marker_apart_from_it_is_read():
    # 995285: no fighter; a 19 mm token 3.6 mm thick on S1, 39 degrees up, marker 10 covered by the hand, whose
    # change lies on the token's line away from the camera past 4 mm of bare board. main: "may be a token or a base".
    live, reference, truth, count = spec_scene(995285, GEOMETRY)
    assert truth == () and count == 0
    for fighters, reading in read_both_ways(live, reference, GEOMETRY, count):
        assert reading.ok and reading.occupied == (), (fighters, reading.error)
