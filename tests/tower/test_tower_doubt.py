"""Which unsure measurements weigh against a breach, and the per-frame white level."""

import numpy as np

from vision.tower import Reason
from vision.tower.judge import UNCLEAR_VIEW, _doubt, _percentile_80, _Structure


def _structure(unsure, *, ground=1) -> _Structure:
    return _Structure([], [], 0, ground, len(unsure), 2, True, True, unsure=list(unsure))


def test_a_count_off_in_a_way_no_unsure_reading_explains_is_no_doubt():
    # Four heavy seen where three are owned, and a run width on the fence: one cube more or fewer
    # cannot turn 4 heavy + 5 light into 3 heavy + 6 light.
    s = _structure([(2, "width")])
    assert _doubt(Reason.CUBE_COUNT, s, 4, 5, 3, 6) == 0


def test_a_count_an_unsure_reading_could_explain_is_in_doubt():
    # A colour on the fence: one heavy read as light may be the missing heavy.
    assert _doubt(Reason.CUBE_COUNT, _structure([(1, "colour")]), 1, 4, 2, 3) == 1
    # A sliver may be the cube not counted.
    assert _doubt(Reason.CUBE_COUNT, _structure([(1, "sliver")]), 0, 2, 1, 2) == 1
    # Speckle may be no cube: the tower may hold one fewer.
    assert _doubt(Reason.CUBE_COUNT, _structure([(3, "speckle")]), 3, 3, 2, 3) == 1


def test_cube_colours_hidden_by_the_background_only_ever_add_a_cube():
    s = _structure([(0, "hidden")], ground=2)
    assert _doubt(Reason.CUBE_COUNT, s, 2, 3, 2, 4) == 1
    assert _doubt(Reason.CUBE_COUNT, s, 2, 4, 2, 3) == 0
    assert _doubt(Reason.GROUND_CONTACTS, s, 2, 4, 2, 4) == 0


def test_two_on_the_table_are_in_doubt_only_if_an_unsure_table_layer_could_make_them_one():
    assert _doubt(Reason.GROUND_CONTACTS, _structure([(0, "width")], ground=2), 2, 2, 2, 2) == 1
    assert _doubt(Reason.GROUND_CONTACTS, _structure([(3, "width")], ground=2), 2, 2, 2, 2) == 0
    assert _doubt(Reason.GROUND_CONTACTS, _structure([(0, "width")], ground=3), 2, 2, 2, 2) == 0


def test_an_unclear_view_weighs_against_every_breach():
    unsure = [(3, "width")] * UNCLEAR_VIEW
    assert _doubt(Reason.CUBE_COUNT, _structure(unsure), 4, 5, 3, 6) == UNCLEAR_VIEW
    # Breaches the unsure readings are not sorted for keep every doubt.
    assert _doubt(Reason.CUBE_NEIGHBOURS, _structure([(3, "colour")]), 2, 2, 2, 2) == 1


def test_the_white_level_is_numpys_80th_percentile():
    rng = np.random.default_rng(5)
    for n in (1, 2, 7, 1800):
        samples = rng.integers(0, 256, (n, 3), dtype=np.uint8)
        assert np.allclose(_percentile_80(samples), np.percentile(samples, 80, axis=0), rtol=0, atol=1e-9)
