"""Finding fighters' bases (and telling them from tokens) in the top-down change map.

A base is a disc 25-28 mm across on the board with a figure standing on it; a token is a
flat disc 15-22 mm across. In the top-down view a standing figure stretches straight away
from the camera (the camera position comes from the homography, see :mod:`vision.arena.pose`),
so:

- a base is placed by the rim *towards* the camera, which no figure can hide;
- a figure shows as change along the line away from the camera, where a token has none;
- change behind a base, along that line, is its figure and not another fighter.

Anything that fits none of these is a doubt: the reading says so instead of guessing.
"""

from __future__ import annotations

import enum
import functools
import itertools
import math
from dataclasses import dataclass, field, fields

import cv2
import numpy as np

from vision.arena.geometry import BoardGeometry
from vision.arena.hiding import (BODY_HALF_WIDTH_MM, BODY_HEIGHTS_MM, HIDE_GRID_MM, HIDE_TOP_MM, MIN_BASE_MM, MIN_FIGURE_MM,
                                 SOLID_OVERLAP_MM, FigureCover, marker_keep_out, markers_reached, reaches_covered_marker,
                                 search_mask)
from vision.arena.hiding import _TOUCH_MM as _HAND_TOUCH_MM
from vision.arena.pose import CameraPosition
from vision.arena.settings import ArenaSettings
from vision.arena.topdown import BoardView, Change, DifferenceByRows, _channel_max, per_mask, scratch
from vision.runs import longest_run

#: Tokens are "a few mm thick" (the spec).
MAX_TOKEN_THICKNESS_MM = 6.0
#: Tokens are flat discs this size (the spec); bases are 25-28 mm (``settings.base_mm`` ~ 26).
TOKEN_MIN_MM = 15.0
TOKEN_MAX_MM = 22.0
#: Peaks narrower than this radius (mm) are noise: a little under the smallest token's.
MIN_BLOB_RADIUS_MM = TOKEN_MIN_MM / 2 - 1.5
#: No token is fitted narrower than this (mm across): a 15 mm one measures 14.75 mm at worst, and
#: 12.8 mm partly hidden (140000-140099). A disc narrower is part of a figure (its top, or its foot).
_LEAST_TOKEN_FIT_MM = 2 * MIN_BLOB_RADIUS_MM
#: Change score that joins the mask where it touches clear change (score >= 1).
FAINT_CHANGE = 0.6
_FAINT_REACH_PX = 17
#: Clear and faint change stand this many times over the board's noise (its upper quartile).
_CLEAR_OVER_NOISE = 2.0
_FAINT_OVER_NOISE = 1.2
_MAX_NOISE = 0.8
#: The rim points of one disc fit its circle to within this (rms, mm).
MAX_RIM_ERROR_MM = 1.2
#: Two bases' fitted discs may overlap this much (mm) from fitting error, not more.
BASE_OVERLAP_MM = 3.0
#: A base's rim fits its circle at least this well (rms mm); a figure's outline rarely does.
CRISP_RIM_MM = 0.6
#: Bare board this long (mm, in 1 mm steps) just behind a solid disc: its change broke off there.
FIGURE_BREAK_MM = 2
#: A disc a few mm thick measures this much wider (mm): its side shows beside the rim.
THICKNESS_BIAS_MM = 0.5
#: Sizes closer than this (mm) to the token/base cut are not trusted on size alone.
SIZE_MARGIN_MM = 0.8
#: The tallest figure expected (mm): change further behind a base is something else.
MAX_FIGURE_MM = 70.0
#: Half the width of a figure's outline in the board view (wider than a base, at most).
FIGURE_HALF_WIDTH_MM = 14.0
#: A base's rim is the front of its object: at most this share of a band in front changed.
MAX_CHANGE_AHEAD = 0.4
#: ... but a standing thing apart from every base keeps its doubt with a little more change in
#: front: its own base, the colour of the board, shows there in part (a 0.38-0.42 share).
STANDING_CHANGE_AHEAD = 0.5
#: A clear base measures at most this much (mm) over ``base_mm`` (a shadow or blur widens it).
CLEAR_BASE_SLACK_MM = 4.0
#: A standing disc this far (mm) from every space is on none, even if it is a figure's foot.
OFF_SPACE_MM = 6.0
#: A standing disc taken for a fighter known to be missing fits its circle this well (rms mm).
STANDING_RIM_ERROR_MM = 1.6
#: The largest base the spec allows (25-28 mm): a fighter known to be missing, clear of every
#: space, may measure up to this plus ``CLEAR_BASE_SLACK_MM``, whatever the typical ``base_mm``.
LARGEST_BASE_MM = 28.0
#: A base is solid: at least this share of its fitted disc changed.
MIN_BASE_COVERAGE = 0.92
#: ... and where size alone decides (a camera so high that the figure stays over its base),
#: all but this little of it, with a crisp rim: two stacked tokens fit a base-sized disc, but
#: leave a notch where their rims meet (0.95-0.96) or a ragged rim.
SIZE_ALONE_COVERAGE = 0.98
#: A base is round: where its size decides (no figure seen standing on it), its outline lies on its
#: fitted rim on at least one side of every direction across it. Two tokens lying one over the
#: other, off centre, are a base's size along their offset only: across it, both sides lie
#: 1.1-2.5 mm inside the rim fitted along it; bases with a clear rim at most 0.6 mm (one close to
#: the board's colour may reach more, and is then a doubt, not a wrong reading). See ``_pinched_by``.
PINCHED_MM = 0.8
#: ... and its outline on the far side, away from the camera, lies on its fitted rim or beyond it
#: (a base's top and whatever stands on it show displaced that way; see ``_short_behind``). Bases
#: with a clear rim: at most 0.44 mm short (140000-140599); a 21.9 mm token with another lying
#: against it, fitted as a 25.2 mm disc (200248): 1.7 mm.
SHORT_BEHIND_MM = 0.8
#: A token-sized disc's outline may run past its far rim this much (mm) beyond where the thickest
#: token's top shows, from the fit and the blur (the outline is the difference's, sharper than the
#: change mask's ``_FLAT_SLACK_MM``). Flat discs read as tokens from high above, 381 on 140000-140599,
#: 250000-250299 and 200000-200299 with touching tokens (2-4 mm thick): at most 0.2 mm past where a
#: 6 mm token's top would show (and at most 1.4 mm past their own, where known); 250268's figure
#: 2.1 mm. See ``_more_of_it_behind``.
_FAR_RIM_SLACK_MM = 1.0
#: A token is one flat disc: fewer than this share of its rim rays cross a fainter ring.
MAX_TOKEN_TIERED = 0.3
#: A base-sized rim seen from high above that steps down to a fainter ring on at least this share of
#: its front arc is one faint disc's rim, bigger than any token (see ``_ringed_base_from_above``).
MIN_RING_FROM_ABOVE_TIERED = 0.7
_TIER_RATIO = 0.6
#: A base the colour of the board round its figure: at least this share of its rim rays cross a
#: fainter ring, and at least this share of its disc changed (the ring and the figure's foot).
MIN_RING_TIERED = 0.4
MIN_RING_COVERAGE = 0.5
#: A token-sized disc seen from high above may be a figure's top over a base the colour of the
#: board: that base's rim shows in front of it (towards the camera) as faint change, this many
#: times the board's noise and at least this score, on this share of the rim's front arc.
_RING_OVER_NOISE = 1.4
_MIN_RING_SCORE = 0.1
_MIN_RING_SHARE = 0.7
_RING_ARC = np.radians(np.linspace(-60, 60, 13))
#: The spec's bases are 25-28 mm across; a rim is looked for this far (mm) either side of each.
_BASE_RADII_MM = (12.5, 13.25, 14.0)
#: The spec's tokens are 15-22 mm across: radii a short arc is also fitted with (see ``_base_on_short_arc``).
_TOKEN_RADII_MM = (7.5, 8.5, 9.5, 10.5, 11.0)
#: A short arc tells a token's rim from a base's where a token's circle leaves at most this share of the
#: best base circle's residual: tokens' arcs measured 0.32 (the eightieth pass's built case) and 0.48 (used
#: seed 870034, a 19 mm token); a real base's short arc beside its touching neighbour 0.87 (300279) and more.
_TOKEN_ARC_SHARE = 0.65
_RING_WIDTH_MM = 0.75
#: The faint ring of a base round a token-sized disc (see ``_faint_base_ring``): looked for along rays
#: this long (mm) from the disc's centre, over the arc facing the camera (where no figure covers it),
#: found on at least this share of them, and a fainter step round something stronger on this share
#: of those found (as ``_ringed_base_from_above``'s ring).
_BASE_RING_RAY_MM = 24.0
_BASE_RING_ARC = np.radians(np.linspace(-90, 90, 19))
_BASE_RING_FOUND = 2 / 3
#: A fainter ring wider than any token round a disc that size alone calls a token makes it unsure, not
#: a fighter (see ``_faint_ring_round_a_top``): found on at least this share of the rays is enough.
_WIDE_RING_FOUND = 1 / 2
#: A single edge's change falls off outside its half level as fast as it rises inside (the blur is
#: symmetric): a disc whose change runs on this much (mm) longer outside than it rises inside, on most
#: rays facing the camera, has something faint and wider round it (see ``_fades_slower_than_it_rises``).
#: Tokens measure at most 0.5 mm (485000-485299, touching tokens), 485025's figure top 1.75 mm.
_SKIRT_MM = 1.0
_SKIRT_STEP_MM = 0.25
#: The disc's centre lies this far (mm) or more inside the ring: the ring is round it.
_BASE_RING_INSIDE_MM = 3.0
#: A figure may lean this far (mm) off its base's centre, or stand a little off it.
_FIGURE_LEAN_MM = 3.0
#: How far (mm) behind a token's rim the centre of a base touching it lies: the spec's bases (25-28 mm)
#: and half a mm of contact slack (see ``_fighter_behind_on_another_space``).
_BEHIND_BASE_RADII_MM = (12.5, 13.25, 14.0, 14.5)
#: A figure rising out of a base's far rim: the change behind the disc may pause this long (mm,
#: a figure's lower body close to the board's colour) and must then run on this far (mm).
_RISE_GAP_MM = 14.0
_RISE_RUN_MM = 8.0

# Rays from a seed: the half facing the camera, where the outline is the ground rim (a disc's
# top, a few mm up, shows displaced away from the camera) and where a figure
# (narrower than its base) leaves the base's rim in view.
_RAY_ANGLES = np.radians(np.linspace(-88, 88, 21))
_RAY_STEP_MM = 0.5
#: Spacing of the lines across a disc along which ``_apart_behind`` looks for bare board (mm).
_APART_LINE_SPACING_MM = 2.0
#: ... and lines from a token-sized disc to one behind it, along which a figure's body is looked for.
_BODY_LINE_SPACING_MM = 1.5
#: Share of those lines that must run unbroken: a body is as wide as most of the narrower disc.
_BODY_LINES_JOINED = 2 / 3
#: Directions across a disc in which its width is measured (see ``_pinched_by``).
_WIDTH_ANGLES = np.radians(np.arange(0.0, 180.0, 10.0))
#: The rays of those directions: each one way, then the opposite way.
_PINCH_RAY_ANGLES = np.concatenate((_WIDTH_ANGLES, _WIDTH_ANGLES + np.pi))
#: How far past a disc's fitted rim the rays out from its centre look for its outline (see ``_outline_distances``).
_PINCH_RAY_PAST_MM = 8.0
#: Directions (about the line away from the camera) in which a disc's far side is measured.
_FAR_SIDE_ANGLES = np.radians([-10.0, -5.0, 0.0, 5.0, 10.0])
#: Directions (about the line across the camera's) in which a disc's width across is measured.
_ACROSS_ANGLES = np.radians([80.0, 90.0, 100.0])
#: How far (mm) the change across a token may run past its width: the outline's blur both sides.
_ACROSS_SLACK_MM = 1.5
_FRONT_SEED_SPACING_MM = 6.0
#: A rim fitted with a base's radius (see ``_base_on_short_arc``): from at least this many points.
_SHORT_ARC_MIN_POINTS = 6
_SHORT_ARC_STEPS = 6
#: A short arc that two circles fit to within this of each other (rms, mm) cannot tell them apart.
_ARC_CANNOT_TELL_MM = 0.3
#: Two fitted discs this far apart (mm, rim to rim) or closer touch (blur and fitting error).
_TOUCHING_GAP_MM = 1.5
#: The band in front of a rim (see ``_change_ahead``) starts this far (mm) outside it.
_AHEAD_NEAREST_MM = 4.0
#: Two fits of one disc agree when centre and radius are this close (mm).
_AGREE_MM = 1.0
#: Unexplained change in this many places is no fighter the count could settle (see select_bases).
MAX_UNEXPLAINED_PLACES = 4
#: Change this big (mm^2) that nothing explains is something on the board we cannot name.
_UNEXPLAINED_AREA_MM2 = 60.0
#: Blur and fit error (mm) a flat disc's outline may run on beyond its displaced top.
_FLAT_SLACK_MM = 3.0
#: Radius (mm) round a space centre checked for change behind a fighter.
_HIDDEN_CHECK_MM = 8.0
#: How far round each space (mm) unexplained change matters: a base whose centre is on a
#: space covers the middle of it, so change only round its edge cannot be one.
_SPACE_WATCH_MARGIN_MM = 0.0
#: Along a ray, a blurred outline's difference climbs by at least this much per step.
_RAMP_MIN_RISE = 1.5
_RAMP_MIN_FRACTION = 0.03
#: A difference (grey levels) below this is sensor noise: the blur tail of an outline ends.
_QUIET_DIFFERENCE = 12.0
#: A solid's change falls to the board's noise within the outline's blur: from the band 1-3 mm inside a
#: base's fitted rim to the band 1-3 mm outside it, on the rays facing the camera (no figure there), a base
#: loses most of its change. A lamp's soft highlight, moved since the reference, fades over tens of mm and
#: loses a fraction of it (see ``_rimless_glow``). Measured (the hundred-and-second pass, median over the
#: rays): real bases of every colour and hunt look 0.69 and more, the highlight on S9 (1000277) 0.30.
_RIM_BAND_MM = (1.0, 3.0)
_RIM_STEP_SHARE = 0.5


class Doubt(str):
    """A reason the reading is not sure. ``sighting`` is where ((x, y) mm) something was seen that may
    be a fighter, when the doubt is about a thing seen (not room for one, nor change alone): the
    reader's best reading under doubt is made of those (see ``reader._best_guesses``)."""

    sighting: tuple[float, float] | None = None
    #: What was seen there is a disc with no change where a figure standing on it would show
    #: (``Evidence.NO``): no fighter's, whose figure rises from its base.
    no_figure: bool = False
    #: What was seen there is a disc that measures under the token/base size cut: more likely a token
    #: than a fighter's base, so the best reading names it after things seen as often that are not.
    token_sized: bool = False

    def seen_at(self, x_mm: float, y_mm: float, *, no_figure: bool = False, token_sized: bool = False) -> "Doubt":
        self.sighting = (float(x_mm), float(y_mm))
        self.no_figure = no_figure
        self.token_sized = token_sized
        return self


class FirmDoubt(Doubt):
    """A doubt that the fighter count does not settle: evidence of a fighter, not room for one."""


class HidingDoubt(Doubt):
    """The doubt that a fighter may hide on ``space``, behind another fighter's figure."""

    space: str
    #: Where the hider stands when it is no fighter taken but a figure standing clear of every
    #: space: a fighter off the row, most likely, which the best reading counts among a match's
    #: fighters (see ``reader._best_guesses``).
    off_the_row: tuple[float, float] | None = None

    def __new__(cls, text: str, space: str) -> "HidingDoubt":
        doubt = super().__new__(cls, text)
        doubt.space = space
        return doubt


class Kind(enum.Enum):
    FIGHTER = "fighter"
    TOKEN = "token"
    UNSURE = "unsure"


class Evidence(enum.Enum):
    YES = "yes"
    NO = "no"
    PARTIAL = "partial"  # some change where the figure would be, not a figure's worth
    UNKNOWN = "unknown"  # the camera is so high that a figure stays inside its base


@dataclass(frozen=True)
class Blob:
    """A compact changed region, its outline fitted as a disc by the rim towards the camera."""

    x_mm: float
    y_mm: float
    radius_mm: float
    fit_error_mm: float
    tiered: float  # share of rim rays that cross a fainter ring (a base round a figure)
    figure: Evidence  # change where a figure standing on this disc would show
    peak_mm: tuple[float, float]  # where the region is widest
    region: int  # connected changed region it belongs to
    coverage: float  # share of the fitted disc (less a blur margin) that changed
    ahead: float = 0.0  # share of a band just in front of the rim (towards the camera) that changed
    stands_up: bool = False  # the change runs on away from the camera further than a flat disc's
    figure_only: bool = False  # a fighter placed by its figure: its base was not seen
    #: A figure rises out of its far rim: change of a figure's width resumes just behind the disc
    #: and runs on away from the camera past where any flat disc's top could show.
    rises_behind: bool = False
    #: A token-sized disc seen from high above with the faint rim of a base the colour of the board
    #: in front of it, where the base of a figure whose top this disc is would stand.
    rim_ahead: bool = False
    #: A solid disc whose change breaks off just behind its far rim, before a flat top's reach:
    #: whatever shows further on is not a figure standing on it (a fighter behind a token).
    broken_behind: bool = False
    #: A token-sized disc that stands up only by change beyond bare board behind it (no change at
    #: all, not even faint, across its whole width; see ``_apart_behind``): what stands there is
    #: something apart from it, not a figure on it. Measured only on token-sized discs standing up, or
    #: with a figure's evidence (then: whose figure's evidence is change apart from it).
    apart_behind: bool = False
    #: A token-sized disc ringed and standing up (see ``_ringed_figure``), or a crisp disc of neither size
    #: standing up, ringed or fitted under the size cut (see ``_may_stand_up_by_a_token``), whose change runs
    #: on away from the camera no further than a token resting on it could show (see
    #: ``_resting_token_reach``): its standing up may be that token's, not a figure's. Measured only on
    #: such discs, False elsewhere.
    within_resting_reach: bool = False
    #: How far (mm) inside the fitted rim the outline lies on both sides across the disc's narrowest
    #: direction (see ``_pinched_by``); measured only where its size may decide, 0 elsewhere.
    pinched_mm: float = 0.0
    #: How far (mm) inside the fitted rim the outline lies on the far side, away from the camera
    #: (see ``_short_behind``; negative: it runs on past the rim); measured where ``pinched_mm`` is
    #: and on token-sized discs seen from high above (see ``_more_of_it_behind``), 0 elsewhere.
    short_behind_mm: float = 0.0
    #: Its outline on the far side runs on past its far rim further than the thickest token's top
    #: could show (see ``_flat_top_outline_reach``): measured where ``pinched_mm`` is, False elsewhere.
    runs_on_behind: bool = False
    #: How wide (mm) the change is across the line to the camera, through the fitted centre (see
    #: ``_width_across``); measured only on discs under a base's size, 0 elsewhere or where unseen.
    across_mm: float = 0.0
    #: A base close to the board's colour round a token-sized disc with a figure's evidence (see
    #: ``_faint_base_ring``): the circle (x_mm, y_mm, radius_mm) its faint ring's outline fits, or None
    #: (not measured, or no such ring). Measured only on token-sized discs ``_may_stand_in_a_base`` names.
    base_ring: tuple | None = None
    #: A token-sized disc seen from high above that would be a token by size alone, round which a
    #: fainter ring wider than any token shows (see ``_faint_ring_round_a_top``): a figure's top over
    #: a base close to the board's colour, or something else; never a token. Measured only on such discs.
    wide_faint_ring: bool = False
    #: Such a disc whose change fades out past its rim slower than it rises inside, on most rays facing
    #: the camera (see ``_fades_slower_than_it_rises``): something faint and wider lies round it, too
    #: faint to make a ring; never a token. Measured only on such discs with no wide faint ring.
    faint_skirt: bool = False
    #: Such a disc (no wide faint ring, no faint skirt) with a faint colour in front of it, towards the
    #: camera, past its outline's blur, that is neither its own colour nor a shadow, over the band where
    #: a figure's base would stand, more than the same band shows anywhere on bare board in the view (see
    #: ``_tinted_in_front``): never a token. Measured only on such discs.
    tinted_in_front: bool = False
    #: Such a disc (no wide faint ring, no faint skirt, no tint in front) from whose outline a shadow runs
    #: out further than anything a token's thickness could cast, joined to no other change (see
    #: ``_casts_a_long_shadow``): something tall stands there; never a token. Measured only on such discs.
    long_shadow: bool = False
    #: Such a disc (none of the above) round which, on the arc facing the camera, a thin ring of darker change
    #: lies apart from its outline, concentric with it at a base's radius (see ``_base_side_round``): the side of
    #: a base the colour of its space round a figure's foot; never a token. Measured only on such discs.
    side_ring: bool = False
    #: ``pinched_mm`` measured on a crisp base-sized disc seen from high above that stands up with a base
    #: right behind it (see ``_bases_behind``), where its standing up may be that base's and its size alone
    #: then decides (see ``_one_behind_the_other``, ``classify``; its near rays alone count where the far
    #: ones run on into a base behind: ``_rays_into_a_base_behind``); None elsewhere.
    pinched_alone_mm: float | None = None
    #: A token-sized disc joined by change over the board's noise, unbroken across most of its width, to
    #: another disc taken for a token lying behind it further off than a flat token's top could show (see
    #: ``_foot_of_a_top_behind``): a figure's foot and its top, never a token. Measured only on token-sized
    #: discs ``classify`` takes for tokens.
    top_behind: bool = False
    #: Board mm of the changed points in the band in front of the rim, and how many were looked at.
    ahead_points: tuple = field(default=(), compare=False, repr=False)
    ahead_looked: int = field(default=0, compare=False, repr=False)
    #: A token-sized disc standing up whose change runs on out of its far rim, away from the camera, as
    #: strong as its own, without a dip, past where a token resting on it could show (see
    #: ``_rises_out_of_it``): a figure's body rising out of its foot. Measured only on token-sized discs
    #: standing up, not ``apart_behind``, with a figure's evidence or none.
    rises_out: bool = False
    #: A crisp disc wider than a clear base and up to the widest base (see ``_near_rim_halves``): the circles
    #: its near rim's two halves (left and right of the line to the camera) fit apart, (how far apart their
    #: centres lie, the smaller radius) in mm; None elsewhere, or where a half has too few rim points.
    near_halves: tuple | None = None
    #: A crisp base-sized disc whose change has no rim: on the rays facing the camera it loses under
    #: ``_RIM_STEP_SHARE`` of its level across its fitted rim, and every channel is brighter than the
    #: reference's (see ``_rimless_glow``): a lamp's highlight moved onto the board, not a solid. Measured
    #: only on crisp base-sized discs.
    rimless_glow: bool = False
    #: A crisp solid base-sized disc with a figure's evidence past its far rim (``Evidence.YES``), whose far rim is
    #: seen whole where that figure would cross it: just past it, on the lines
    #: across the figure's middle, the change keeps under ``_WHOLE_RIM_SHARE`` of the disc's own (see
    #: ``_far_rim_seen_whole``). Measured only on such discs.
    far_rim_whole: bool = False

    @property
    def diameter_mm(self) -> float:
        return 2 * self.radius_mm


#: The names of Blob's fields, for :func:`replace`.
_BLOB_FIELDS = frozenset(f.name for f in fields(Blob))


def replace(blob: Blob, **changes) -> Blob:
    """``dataclasses.replace`` for a Blob: a copy with ``changes``, the same object a new ``Blob(...)``
    would be (Blob has no ``__post_init__``, every field is set by ``__init__``). Its fields are copied
    as they are: ``dataclasses.replace`` passes each of the some 30 through ``__init__``, several
    times the cost, a dozen times a read."""
    if not _BLOB_FIELDS.issuperset(changes):
        raise TypeError(f"Blob has no field {sorted(set(changes) - _BLOB_FIELDS)[0]!r}")
    copy = object.__new__(Blob)
    copy.__dict__.update(blob.__dict__)
    copy.__dict__.update(changes)
    return copy


def board_noise(change: Change, search: np.ndarray) -> float:
    """The change score the unchanged board reaches where ``search`` looks, capped.

    In a noisy picture (dark colour channels, whose logarithm noise inflates) the unchanged
    board itself scores high: the thresholds rise above its noise, read off the board.
    Past a limit it is no noise but the light not removed: the flood of change that leaves
    then makes the reading a doubt rather than hiding what stands on the board."""
    return min(_noise_level(change.score, search), _MAX_NOISE)


def change_mask(change: Change, search: np.ndarray, noise: float | None = None) -> np.ndarray:
    """Where something is: clear change, grown into faint change touching it, holes filled.
    ``noise``: ``board_noise(change, search)``, if the caller has it already."""
    noise = board_noise(change, search) if noise is None else noise
    clear = ((change.score >= max(1.0, _CLEAR_OVER_NOISE * noise)) & search).astype(np.uint8)
    clear = cv2.morphologyEx(clear, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # What follows only grows the clear change by a few px: worked out round it alone (a few
    # bases and tokens are a small part of the view), it is the same as over the whole view.
    rows, cols = changed_window(clear, _MASK_REACH_PX)
    mask = np.zeros_like(clear)
    if rows.start == rows.stop:
        return mask
    clear = clear[rows, cols]
    # Faint change only joins within a base's width of clear change: it must not flood the board.
    near = cv2.dilate(clear, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_FAINT_REACH_PX, _FAINT_REACH_PX)))
    # Faint darkening stays out: a miniature's cast shadow touches it and would widen it.
    faint = _faint_level(noise)
    grown = _grow_into_faint_change(clear, (change.unshaded[rows, cols] >= faint) & search[rows, cols] & (near > 0))
    grown = cv2.morphologyEx(grown, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    mask[rows, cols] = _fill_holes(grown)
    return mask


#: How far (px) :func:`change_mask` reaches past the clear change: the faint change's reach,
#: the closing's, and unchanged board round that (a closing's erosion and the hole filling see
#: past a window's edge only unchanged board, as they would over the whole view).
_MASK_REACH_PX = _FAINT_REACH_PX // 2 + 2 + 6
#: Unchanged board round the change for :func:`find_blobs`' distance map: its 5x5 steps reach
#: 2 px, so the nearest unchanged pixel to any changed one is always inside the window.
_DISTANCE_MARGIN_PX = 2


def _capped_difference(difference: np.ndarray | DifferenceByRows, mask: np.ndarray) -> np.ndarray | DifferenceByRows:
    """The difference, capped off the change (``mask``, 0 or 1): in this thread's scratch array
    (a difference worked out by rows: capped by rows as they are, see :func:`_along_rays`).

    One copy, not np.where's three view-sized arrays; by cv2's min and masked copy, which take
    the mask as it is (numpy's copyto needs it made boolean first, a pass of its own)."""
    out = scratch("capped difference", mask.shape, np.float32)
    if isinstance(difference, DifferenceByRows):
        return difference.then(lambda values, rows: cv2.copyTo(values, mask[rows], dst=cv2.min(values, _QUIET_DIFFERENCE * 4)),
                               out=out)
    return cv2.copyTo(difference, mask, dst=cv2.min(difference, _QUIET_DIFFERENCE * 4, dst=out))


def _along_rays(difference: np.ndarray | DifferenceByRows, map_u: np.ndarray, map_v: np.ndarray) -> np.ndarray:
    """The difference sampled (bilinear) at the rays' points, 0 off the view. Worked out by rows:
    first the rows the samples' 2x2 neighbourhoods reach, up to two past the highest sample's
    (OpenCV 4 rounds a sample to 1/32 px: a hair under a row reads that row and the next), and one
    under the lowest's (not needed by either stack: a margin)."""
    if isinstance(difference, DifferenceByRows):
        difference = difference.rows(int(math.floor(float(map_v.min()))) - 1, int(math.floor(float(map_v.max()))) + 3)
    return cv2.remap(difference, map_u, map_v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def changed_window(mask: np.ndarray, margin_px: int) -> tuple[slice, slice]:
    """The rows and columns of the view within ``margin_px`` of anything ``mask`` marks (empty
    slices if nothing), the corner on even pixels: the connected-component labelling walks the
    view in 2x2 blocks, and a window so placed meets the regions in the same order, so they get
    the same numbers."""
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0:
        return slice(0, 0), slice(0, 0)
    rows, cols = mask.shape
    top, left = max(0, y - margin_px) & ~1, max(0, x - margin_px) & ~1
    return slice(top, min(rows, y + h + margin_px)), slice(left, min(cols, x + w + margin_px))


def _faint_level(noise: float) -> float:
    """The least change (score) taken in as faint change, over a board whose noise is ``noise``."""
    return max(FAINT_CHANGE, _FAINT_OVER_NOISE * noise)


def _noise_level(score: np.ndarray, search: np.ndarray) -> float:
    """The score the unchanged board reaches: its upper quartile (things cover far less)."""
    values = np.take(score, per_mask(search, "noise samples", lambda mask: np.flatnonzero(mask)[::5]))
    if len(values) == 0:
        return 0.0
    k = 3 * len(values) // 4
    quartile = _order_statistics(values, (k,))
    return float(np.partition(values, k)[k] if quartile is None else quartile[0])


#: Under this many values a whole partition costs less than narrowing it down first.
_NARROWED_MIN_VALUES = 4096
#: :func:`_order_statistics`' sample (every this many values) and its margin round the ranks (share of them).
_NARROWING_STRIDE, _NARROWING_MARGIN = 16, 0.03


def _order_statistics(values: np.ndarray, ranks: tuple[int, ...]):
    """The values of rank ``ranks`` (ascending, 0 the smallest) of the 1-D ``values``, exactly as
    ``np.partition(values, ranks)[ranks]`` has them, found among the few values near them only; None
    where that cannot be done (fewer than ``_NARROWED_MIN_VALUES`` values, a NaN, or a sample that
    missed them: the caller partitions all, as before).

    A partition walks every value several times; a view's worth (the bare board, some 60,000) costs
    more than the check that asks for it. A sample (every ``_NARROWING_STRIDE``-th value) gives a range
    [lo, hi] that holds the ranks asked for, with a margin; counting the values under lo and keeping
    those within it takes three passes, and the ranks are then found by partitioning the few kept,
    less the count under lo. Exact: the values of those ranks lie in [lo, hi] (checked by the counts,
    which also check that every value compares, no NaN), and among the kept ones they have the
    ranks asked less that count, whatever the order."""
    n = len(values)
    if n < _NARROWED_MIN_VALUES:
        return None
    sample = values[::_NARROWING_STRIDE]
    m = len(sample)
    low = max(0, int((ranks[0] / n - _NARROWING_MARGIN) * m))
    high = min(m - 1, int((ranks[-1] / n + _NARROWING_MARGIN) * m) + 1)
    bounds = np.partition(sample, (low, high))
    lo, hi = bounds[low], bounds[high]
    under = np.count_nonzero(values < lo)
    kept = values[(values >= lo) & (values <= hi)]
    if under + len(kept) + np.count_nonzero(values > hi) != n or not under <= ranks[0] <= ranks[-1] < under + len(kept):
        return None
    within = [k - under for k in ranks]
    return np.partition(kept, within)[within]


def _median(values: np.ndarray):
    """``np.median`` of the 1-D ``values``, to the bit (its mean of the middle one or two values, its
    NaN), the middle found by :func:`_order_statistics` where it can be."""
    half = len(values) // 2
    middle = _order_statistics(values, (half - 1, half) if len(values) % 2 == 0 else (half,))
    return np.median(values if middle is None else middle)


def find_blobs(change: Change, mask: np.ndarray, view: BoardView, camera: CameraPosition, settings: ArenaSettings,
               search: np.ndarray | None = None, noise: float | None = None) -> list[Blob]:
    """Discs fitted to the change; ``search`` marks where change can be seen at all (not the markers).
    ``noise``: ``board_noise(change, search)``, if the caller has it already (as ``change_mask``)."""
    search = np.ones(mask.shape, bool) if search is None else search
    # The distance map, its peaks, the outline and the regions are worked out round the change
    # alone (see changed_window): past it the mask is empty, and each of them with it.
    rows, cols = changed_window(mask, _DISTANCE_MARGIN_PX)
    if rows.start == rows.stop:
        return []  # nothing changed: no disc
    top, left = rows.start, cols.start
    distance = cv2.distanceTransform(mask[rows, cols], cv2.DIST_L2, 5) / view.px_per_mm  # (in the window)
    radius = settings.base_mm / 2
    # Seeds: the widest points of the change, and one radius in from every stretch of the
    # outline that faces the camera (where the bases are, even when touching bases and their
    # figures merge into one region whose widest point is neither base).
    seeds = [(u + left, v + top) for u, v in _peaks(distance, MIN_BLOB_RADIUS_MM,
                                                    separation_px=int(radius * 0.6 * view.px_per_mm))]
    seeds += [(u, v) for u, v in _front_seeds(mask, view, camera, radius, (rows, cols))
              if 0 <= v - top < distance.shape[0] and 0 <= u - left < distance.shape[1]
              and distance[v - top, u - left] >= MIN_BLOB_RADIUS_MM]  # (past the window: no change)
    # Used up within this call, as the capped difference below: in scratch arrays (see Scratch).
    regions = scratch("regions", mask.shape, np.int32)
    regions.fill(0)
    _, regions[rows, cols] = cv2.connectedComponents(mask[rows, cols], connectivity=8)
    front_rim = _FrontRimCheck(change.score, search, regions)
    faint_ring = _FaintRingCheck(change.unshaded, search)
    tint_check = _TintInFrontCheck(change.linear, mask, search)
    difference = _capped_difference(change.linear, mask)
    # Under the level at which change_mask takes in faint change: no change at all, bare board
    # (worked out when a disc first needs it: most reads have no token-sized disc standing up).
    bare_level = None
    fits, wide_rims = _disc_fits(difference, mask, view, camera, radius, seeds)
    _split_touching_pairs(fits, wide_rims, view)
    # Several seeds fit each disc. A seed between two touching bases, or between a base and
    # its figure, can fit a circle a few mm too big round both, and as smoothly: the fit that
    # most other seeds agree with is the rim; among equals the smoother one.
    support = _agreeing_fits(fits)
    order = sorted(range(len(fits)), key=lambda i: (fits[i][3] > CRISP_RIM_MM, -support[i], fits[i][3]))
    blobs: list[Blob] = []
    for i in order:
        x, y, r, error, tiered, peak, (u, v) = fits[i]
        if any(math.hypot(x - b.x_mm, y - b.y_mm) < 0.5 * radius for b in blobs):
            continue  # the same disc, fitted less convincingly
        figure = None
        if (tiered >= MAX_TOKEN_TIERED and error <= CRISP_RIM_MM
                and _size_cut(settings) - SIZE_MARGIN_MM < 2 * r < _size_cut(settings) + SIZE_MARGIN_MM):
            # A ringed disc of neither size: fitted by its faint ring alone, a base's? (see _faint_ring_base)
            ring = _faint_ring_base(difference, mask, view, (u, v), camera, radius, settings, search)
            if ring is not None:
                x, y, r, error = ring
                figure = Evidence.UNKNOWN
        figure = _figure_evidence(mask, view, camera, x, y, r, search) if figure is None else figure
        coverage = _disc_coverage(mask, view, x, y, r - 1.5, search)
        ahead_points, looked = _change_ahead(change.score, view, camera, x, y, r)
        ahead = len(ahead_points) / looked if looked else 0.0
        stands_up = _stands_up(mask, view, camera, x, y, r)
        # Only a crisp base-sized disc whose figure shows in part needs it (see classify).
        rises = (figure is Evidence.PARTIAL and error <= CRISP_RIM_MM and 2 * r >= _size_cut(settings) + SIZE_MARGIN_MM
                 and _rises_behind(mask, view, camera, x, y, r))
        rim_ahead = False
        pinched = short = 0.0
        apart = within_resting = runs_on = rises_out = False
        if stands_up and 2 * r <= _size_cut(settings) - SIZE_MARGIN_MM:  # where standing makes it unsure
            if bare_level is None:
                bare_level = _faint_level(board_noise(change, search) if noise is None else noise)
            apart = _apart_behind(change.score, bare_level, view, camera, x, y, r, search)
            rises_out = (not apart and figure in (Evidence.YES, Evidence.UNKNOWN)
                         and _rises_out_of_it(change.score, bare_level, view, camera, x, y, r, search))
            if tiered >= MAX_TOKEN_TIERED and not apart:  # only where _ringed_figure asks
                within_resting = _within_resting_reach(change.score, bare_level, mask, view, camera, x, y, r, search)
        elif figure is Evidence.YES and 2 * r <= _size_cut(settings) - SIZE_MARGIN_MM:
            # Not standing up, yet a figure's evidence: that change may be apart from it (see
            # _joined_to_what_stands_behind).
            if bare_level is None:
                bare_level = _faint_level(board_noise(change, search) if noise is None else noise)
            apart = _apart_behind(change.score, bare_level, view, camera, x, y, r, search)
        elif (stands_up and figure in (Evidence.UNKNOWN, Evidence.YES) and 2 * r < _size_cut(settings) + SIZE_MARGIN_MM
              and error <= CRISP_RIM_MM
              and _may_stand_up_by_a_token(2 * r, tiered, ahead, settings)):
            # Where classify takes it for a fighter by what stands up behind it, and its rim steps down
            # to a fainter ring (a faint lower token's rim round the one resting on it) or it is fitted
            # under the size cut (seed 100041's base, 24.7 mm, one step from the board, stands up within
            # the reach and is a fighter).
            if bare_level is None:
                bare_level = _faint_level(board_noise(change, search) if noise is None else noise)
            within_resting = _within_resting_reach(change.score, bare_level, mask, view, camera, x, y, r, search)
        # The outline rays out of the disc's centre that the checks below ask for, walked in one call
        # (the same rays, as many calls' worth of numpy work in one; see _outlines).
        outlines = {}
        if figure is Evidence.UNKNOWN and 2 * r <= _size_cut(settings) - SIZE_MARGIN_MM:
            outlines = _outlines(difference, mask, view, x, y, r, search,
                                 short=_far_side_angles(camera, x, y), across=_across_angles(camera, x, y))
        elif figure is Evidence.UNKNOWN and 2 * r >= _size_cut(settings) + SIZE_MARGIN_MM and not stands_up:
            outlines = _outlines(difference, mask, view, x, y, r, search,
                                 pinched=_PINCH_RAY_ANGLES, short=_far_side_angles(camera, x, y))
        if figure is Evidence.UNKNOWN and 2 * r <= _size_cut(settings) - SIZE_MARGIN_MM:
            # Only where size alone would call it a token (see classify).
            rim_ahead = front_rim.shows(int(regions[v, u]), view, camera, x, y, r)
            # (Standing up, it is unsure, unless that is a base's behind it: see _stands_up_only_into_a_base.)
            short = _short_behind(difference, mask, view, camera, x, y, r, search, outlines["short"])
        # Only where the figure seems plainly there: one close to the board's colour in part may
        # show a gap above its base and rise after it (``rises_behind``; seed 100166). Or where the
        # disc stands up: what stands up is taken for its figure, and a figure is one body joined to
        # its foot (a token pair before a fighter off the row on a base the spaces' colour, its figure
        # seen only past bare board: the eighty-fifth pass).
        broken = ((figure is Evidence.YES or stands_up) and coverage >= SIZE_ALONE_COVERAGE
                  and 2 * r >= _size_cut(settings) + SIZE_MARGIN_MM and _breaks_behind(mask, view, camera, x, y, r, search))
        if figure is Evidence.UNKNOWN and 2 * r >= _size_cut(settings) + SIZE_MARGIN_MM and not stands_up:
            pinched = _pinched_by(difference, mask, view, x, y, r, search,  # only where size alone decides
                                  outline=outlines["pinched"])
            short = _short_behind(difference, mask, view, camera, x, y, r, search, outlines["short"])
            runs_on = -short > _flat_top_outline_reach(camera, x, y)
        # Only where the size may call it a token (see classify).
        across = (_width_across(difference, mask, view, camera, x, y, r, search, outlines.get("across"))
                  if 2 * r < _size_cut(settings) + SIZE_MARGIN_MM else 0.0)
        # Only where classify takes a fighter by its crisp rim (see _rimless_glow).
        glow = (error <= CRISP_RIM_MM and _size_cut(settings) + SIZE_MARGIN_MM <= 2 * r <= _widest_base(settings)
                and _rimless_glow(change.linear, view, camera, x, y, r))
        # Only where classify may take a crisp solid base by the figure it sees past its far rim (see
        # _far_rim_seen_whole; from high above, Evidence.UNKNOWN, a figure stays over its base: used 999739).
        whole = (error <= CRISP_RIM_MM and coverage >= MIN_BASE_COVERAGE and figure is Evidence.YES
                 and _size_cut(settings) + SIZE_MARGIN_MM <= 2 * r <= _widest_base(settings)
                 and _far_rim_seen_whole(change.score, view, camera, x, y, r, search))
        blob = Blob(x, y, r, error, tiered, figure, peak, int(regions[v, u]), coverage, ahead, stands_up,
                    rises_behind=rises, rim_ahead=rim_ahead, broken_behind=broken, apart_behind=apart,
                    within_resting_reach=within_resting,
                    pinched_mm=pinched, short_behind_mm=short, runs_on_behind=runs_on, across_mm=across,
                    ahead_points=ahead_points, ahead_looked=looked, rises_out=rises_out, rimless_glow=glow,
                    far_rim_whole=whole)
        if _may_stand_in_a_base(blob, settings):
            blob = replace(blob, base_ring=faint_ring.round(mask, view, camera, x, y, r, settings))
        elif figure is Evidence.UNKNOWN and classify(replace(blob, stands_up=False), settings) is Kind.TOKEN:
            # Size alone calls it a token (or would, were its standing up a base's behind it: see
            # _stands_up_only_into_a_base): seen from this high a figure's top is a disc like one
            # (fresh 480197: a 14 mm pale figure over a base close to the board's colour).
            arc = _FacingArc(view, camera, x, y)  # (the rays the checks below walk, walked once: see _FacingArc)
            blob = replace(blob, wide_faint_ring=faint_ring.wider_than_a_token(mask, view, camera, x, y, r, settings,
                                                                               arc))
            if not blob.wide_faint_ring:
                # Too faint even for a ring (fresh 485025: a 20 mm figure's shoulders over a base the
                # board's red): its change still fades out slower than a lone edge's.
                blob = replace(blob, faint_skirt=faint_ring.fades_slower_than_it_rises(view, camera, x, y, r, arc))
            if not blob.wide_faint_ring and not blob.faint_skirt:
                # Too faint even to hold up its fall on a noisy board (fresh 610173: a 35 mm yellow
                # figure's shoulders over a base the colour of its space, 76 degrees up): averaged over
                # the band where its base would stand, that base's colour still shows.
                blob = replace(blob, tinted_in_front=tint_check.in_front(
                    view, camera, x, y, r, int(regions[v, u]), regions, _other_discs(fits, x, y, r)))
            if not blob.wide_faint_ring and not blob.faint_skirt and not blob.tinted_in_front:
                # A base the very colour of its space, its figure's top fitted as the disc (fresh 840209:
                # a dark 37 mm figure's shoulders, 74 degrees up, fitted a crisp 15.7 mm disc): no
                # trace of its base in colour, but the figure's shadow runs out from the disc.
                blob = replace(blob, long_shadow=tint_check.long_shadow(view, x, y, r, int(regions[v, u]), regions))
            if not (blob.wide_faint_ring or blob.faint_skirt or blob.tinted_in_front or blob.long_shadow):
                # A short figure's shadow, a base the colour of its space only darker, straddling the space's outline
                # (fresh 880000: a 28 mm figure and the base's crescent over the board fitted one 17.6 mm disc, 69
                # degrees up): the base's side, darker than its top, still rings the figure's foot.
                blob = replace(blob, side_ring=tint_check.side_ring(view, camera, x, y, r, settings, arc))
        if error <= CRISP_RIM_MM and settings.base_mm + CLEAR_BASE_SLACK_MM < 2 * r <= _widest_base(settings):
            blob = replace(blob, near_halves=_near_rim_halves(difference, mask, view, camera, radius, (u, v), (x, y, r)))
        blobs.append(blob)
    discs = [b for b in blobs if is_disc(b, settings)]
    for i, blob in enumerate(blobs):
        if blob.rises_out and (_base_in_its_run(blob, discs, camera)
                               or any((_base_sized(d.diameter_mm) or classify(d, settings) is Kind.FIGHTER)
                                      and _stands_behind(blob, d, camera) for d in discs)
                               or _in_a_fitted_base(blob, discs)):
            # What runs on out of it may be a base behind and its figure (a token touching a fighter whose
            # base is the token's colour, or a vivid token resting at the back of a faint one with one
            # 0.5 mm behind: the resting-behind set, 55 degrees up), not its own; and a base in front, or a
            # disc taken as a fighter though fitted under a base's size, within its figure's reach, may be
            # what it is the body of (a figure's waist fitted 11-15 mm, 20-25 mm behind its vivid base,
            # 36-42 degrees up: used 940098, 940116, 940137, 940255; a figure's top fitted 13.9 mm, 33 mm
            # behind and beside a fighter fitted 23.4 mm: used 920123, a third fighter off every space).
            # A base overlapping it, which neither of those asks about, was fitted: see _in_a_fitted_base.
            blobs[i] = blob = replace(blob, rises_out=False)
        if is_disc(blob, settings) and classify(blob, settings) is Kind.TOKEN:
            # Only where the look says token (see classify).
            blobs[i] = blob = replace(blob, top_behind=_foot_of_a_top_behind(blob, discs, camera, view, front_rim, search,
                                                                             settings))
        # Only where a base right behind may be what it stands up by (see _one_behind_the_other).
        if (blob.figure is Evidence.UNKNOWN and blob.stands_up and blob.fit_error_mm <= CRISP_RIM_MM
                and blob.diameter_mm >= _size_cut(settings) + SIZE_MARGIN_MM and is_disc(blob, settings)
                and next(_bases_behind(blob, discs, camera, settings), None) is not None):
            # (Its near ray alone where the far one runs on into a base behind: see _rays_into_a_base_behind.)
            joined = _rays_into_a_base_behind(blob, discs, camera, settings)
            blobs[i] = replace(blob, pinched_alone_mm=_pinched_by(difference, mask, view, blob.x_mm, blob.y_mm,
                                                                  blob.radius_mm, search, joined))
        elif (blob.figure is Evidence.UNKNOWN and not blob.stands_up and blob.pinched_mm < PINCHED_MM
              and blob.diameter_mm >= _size_cut(settings) + SIZE_MARGIN_MM and blob.fit_error_mm <= CRISP_RIM_MM):
            # Where size alone decides (pinched_mm measured) and a base behind may hide its narrow direction.
            joined = _rays_into_a_base_behind(blob, discs, camera, settings)
            if joined is not None:
                pinched = _pinched_by(difference, mask, view, blob.x_mm, blob.y_mm, blob.radius_mm, search, joined)
                blobs[i] = replace(blob, pinched_mm=max(blob.pinched_mm, pinched))
    return blobs


def _rays_into_a_base_behind(blob: Blob, discs, camera: CameraPosition, settings: ArenaSettings):
    """Per ray of ``_pinched_by`` (``_WIDTH_ANGLES`` and the opposite ones): does it run, on the disc's far
    half (away from the camera), into a clear base behind the disc (its centre further from the camera, apart
    from the disc or touching it within fitting error) within the ray's reach? None where no ray does.

    ``_pinched_by`` drops a direction one of whose rays finds no outline within reach: that ray ran on into
    something else's change, and then says nothing of this disc's width. Where that something is a clear base
    behind (a fighter a few mm behind a token pair, its change joined to the pair's far side), the direction
    dropped may be the pair's narrow one, across its offset: the pair passes as round (the fifty-ninth and
    sixty-third passes: ``bench/arena_stacked_tokens.py --set gap-behind``, 22 wrong ok: true without the
    count). There the other ray, on the near half, counts alone: the rim is fitted on the half facing the
    camera (``_RAY_ANGLES``), and nothing standing on a base (a figure, shown displaced away from the camera)
    stops its near outline short of it, so where that fit is crisp a base's near outline lies on its rim on
    every ray; a notch there is the disc's own shape. (Where it steps down to a fainter ring, ``tiered``, that
    ring is what the near arc was fitted to: a base close to the board's colour round its figure, or a faint
    lower token round a vivid one resting on it. The gap-behind pairs whose lower token is faint, fitted
    25.5-28.0 mm, ``tiered`` 0.62-0.67, are pinched 6 mm on the near side: taken too.)
    Not the other way round: where the ray that runs on is on the near half (a neighbour beside the disc
    and nearer the camera, a token in front of it), the one left is on the far half, where a figure's flank
    may stop a base's outline short, and the direction stays dropped (fresh 800103 and 800123, real bases
    ringed, their rays running on into a fighter beside and nearer the camera and into a token in front,
    their outlines short on the far half: the sixty-third pass's one-sided rule lost both); nor where what
    the ray runs into is no clear base (a token, a figure's foot in a faint ring). (A base beside the disc
    on the row and a little further from the camera is taken too: the rays into it are on the far half,
    the ones left within the near arc the rim was fitted to.)
    """
    ax, ay = camera.away(blob.x_mm, blob.y_mm)
    behind = []
    for other in discs:
        if other is blob or _overlapping(blob, other):
            continue
        base = _base_carrying_change_on(other, settings)
        if base is None or base.diameter_mm < _size_cut(settings) + SIZE_MARGIN_MM or _overlapping(blob, base):
            continue
        if (base.x_mm - blob.x_mm) * ax + (base.y_mm - blob.y_mm) * ay > 0:
            behind.append(base)
    if not behind:
        return None
    angles = _PINCH_RAY_ANGLES
    cos, sin = np.cos(angles), np.sin(angles)
    joined = np.zeros(len(angles), bool)
    reach = blob.radius_mm + _PINCH_RAY_PAST_MM
    for base in behind:
        dx, dy = base.x_mm - blob.x_mm, base.y_mm - blob.y_mm
        along, lateral = dx * cos + dy * sin, np.abs(dx * sin - dy * cos)
        enters = along - np.sqrt(np.maximum(base.radius_mm ** 2 - lateral ** 2, 0.0))
        joined |= (lateral < base.radius_mm) & (along > 0) & (enters <= reach)
    joined &= cos * ax + sin * ay > 0  # (the far half only: the ray counted alone is then on the near half)
    return joined if joined.any() else None


def _disc_fits(difference, mask: np.ndarray, view: BoardView, camera: CameraPosition, radius: float, seeds):
    """The discs fitted from ``seeds`` (u, v), in their order: (x, y, r, error, tiered, peak_mm, (u, v)),
    a seed whose fit is no disc round it left out or fitted again from the middle of the rim it found;
    and, by index into those fits, the rim points (xs, ys, valid) of each fit wider than any base (see
    ``_split_touching_pairs``)."""
    h, w = mask.shape
    fits = []
    wide_rims: dict[int, tuple] = {}
    seeds = [(u, v) for u, v in seeds if 0 <= u < w and 0 <= v < h and mask[v, u]]
    rims = _rim_points(difference, mask, view, seeds, camera, radius) if seeds else None
    first_fits = _fits_to(rims, view) if seeds else []
    # A rim found not round its seed. The widest point of a figure over a base the board's colour
    # lies well away from its foot: if the rim found is a disc, a fit seeded from its middle that
    # finds a disc round that seed is the foot's rim; else the fit describes something else. (Once
    # per middle: seeds whose fits share it would only repeat the same fit.) The middles are fitted
    # together (each seed's rays are rows of their own: the same discs as fitted one by one).
    middles: dict[int, tuple[int, int]] = {}  # by seed: the middle of the rim found, fitted again
    for k, ((u, v), fitted) in enumerate(zip(seeds, first_fits)):
        if fitted is None or not _off_its_seed(view.to_mm(u, v), fitted):
            continue
        u, v = (int(round(c)) for c in view.to_px(fitted[0], fitted[1]))
        if (fitted[3] <= MAX_RIM_ERROR_MM and 0 <= u < w and 0 <= v < h and mask[v, u]
                and (u, v) not in middles.values()):
            middles[k] = (u, v)
    refits = dict(zip(middles, _fit_near_rims(difference, mask, view, list(middles.values()), camera, radius)))
    pulled: dict[int, tuple] = {}  # by index into fits: the ragged fit of a base's rim past a neighbour
    for k, ((u, v), fitted) in enumerate(zip(seeds, first_fits)):
        peak = view.to_mm(u, v)
        if fitted is None:
            continue
        if _off_its_seed(peak, fitted):
            if k not in middles:
                continue
            peak, fitted = view.to_mm(*middles[k]), refits[k]
            if (fitted is None or fitted[3] > MAX_RIM_ERROR_MM or fitted[2] < MIN_BLOB_RADIUS_MM
                    or _off_its_seed(peak, fitted)):
                continue  # (a disc narrower than any seed may be is noise, as a seed would be)
            u, v = middles[k]
        elif 2 * fitted[2] > LARGEST_BASE_MM + SIZE_MARGIN_MM and fitted[3] <= MAX_RIM_ERROR_MM:
            wide_rims[len(fits)] = rims[0][k], rims[1][k], rims[2][k]  # see _split_touching_pairs
        elif fitted[3] > MAX_RIM_ERROR_MM:  # no disc (see is_disc): unless a neighbour pulled it so
            cu, cv = (c / view.px_per_mm for c in view.to_px(fitted[0], fitted[1]))
            base = _base_rim_past_a_neighbour(rims[0][k], rims[1][k], rims[2][k], (cu, cv) + fitted[2:4])
            if base is not None:
                base = view.to_mm(base[0] * view.px_per_mm, base[1] * view.px_per_mm) + (base[2], base[3], fitted[4])
                if not _off_its_seed(peak, base):
                    pulled[len(fits)], fitted = fitted, base
        x, y, r, error, tiered = fitted
        fits.append((x, y, r, error, tiered, peak, (u, v)))
    # Where another seed fitted that base crisp, the disc was found: the ragged fit stands, as it was.
    for i, ragged in pulled.items():
        if any(j not in pulled and f[3] <= CRISP_RIM_MM and math.hypot(f[0] - fits[i][0], f[1] - fits[i][1]) < 0.5 * radius
               for j, f in enumerate(fits)):
            fits[i] = ragged + fits[i][5:]
    return fits, wide_rims


def _off_its_seed(peak: tuple[float, float], fitted) -> bool:
    """The disc ``fitted`` (x, y, r, ...) is not round the seed at ``peak`` (mm): its centre is over
    0.8 of its radius from it."""
    return math.hypot(peak[0] - fitted[0], peak[1] - fitted[1]) > 0.8 * fitted[2]


def _agreeing_fits(fits) -> list[int]:
    """Per fit (x, y, r, ...): how many fits (itself too) lie within ``_AGREE_MM`` of it in centre
    and radius. Pairs are ruled out first all at once (a centre within the limit is within it on
    each axis); only the few left are measured one by one."""
    if not fits:
        return []
    x, y, r = (np.array([f[k] for f in fits]) for k in range(3))
    near = ((np.abs(x[:, None] - x[None, :]) < _AGREE_MM) & (np.abs(y[:, None] - y[None, :]) < _AGREE_MM)
            & (np.abs(r[:, None] - r[None, :]) < _AGREE_MM))
    support = [0] * len(fits)
    for i, j in zip(*np.nonzero(near)):
        f, g = fits[i], fits[j]
        if math.hypot(f[0] - g[0], f[1] - g[1]) < _AGREE_MM and abs(f[2] - g[2]) < _AGREE_MM:
            support[i] += 1
    return support


def classify(blob: Blob, settings: ArenaSettings) -> Kind:
    """Fighter, token, or unsure: from the rim size, the figure behind it, and its rings."""
    cut = _size_cut(settings)
    if blob.diameter_mm >= cut + SIZE_MARGIN_MM:  # base-sized
        if blob.diameter_mm > settings.base_mm + CLEAR_BASE_SLACK_MM:
            return Kind.UNSURE  # wider than a base fits: a hand or a card reaching in, two things
        if blob.ahead > MAX_CHANGE_AHEAD:
            return Kind.UNSURE  # more of the thing lies nearer the camera: this is not its rim
        if blob.broken_behind:
            # The change behind it starts apart from it: not its own figure, whatever its rim (a token
            # pair's two rims ring it as a base the board's colour's would: the eighty-fifth pass).
            return Kind.UNSURE
        if _ringed_base(blob):
            return Kind.FIGHTER  # a base the board's colour round its figure: only its ring changed
        if blob.rimless_glow:
            return Kind.UNSURE  # a smooth brightening of every channel with no rim: a lamp's highlight moved?
        if blob.coverage < MIN_BASE_COVERAGE:
            return Kind.UNSURE  # the fitted disc is not all changed: two tokens side by side?
        if blob.figure is Evidence.UNKNOWN and (blob.coverage < SIZE_ALONE_COVERAGE or blob.fit_error_mm > CRISP_RIM_MM):
            return Kind.UNSURE  # size alone decides, so it must be one crisp solid disc
        if _ringed_base_from_above(blob):
            return Kind.FIGHTER  # one faint disc bigger than any token, something standing on it
        if blob.pinched_mm >= PINCHED_MM and not blob.stands_up:
            return Kind.UNSURE  # a base's size one way only: two discs lying one over the other?
        if blob.stands_up and blob.pinched_alone_mm is not None and blob.pinched_alone_mm >= PINCHED_MM:
            # Standing up with a base right behind it, that may be what it stands up by, its size alone
            # decides: a base's size one way only (the sixty-seventh pass).
            return Kind.UNSURE
        if blob.short_behind_mm >= SHORT_BEHIND_MM and blob.tiered < MAX_TOKEN_TIERED and not blob.stands_up:
            # A rim that is one clear step (no fainter ring: not a base the board's colour, whose far
            # rim may be lost in the noise) whose far side ends inside it: fitted too big.
            return Kind.UNSURE
        # Seen from low enough, a fighter's figure must show behind its base. One close in colour
        # to the board shows only in part, but still rises out of the far rim as no token's top can.
        if blob.figure is Evidence.PARTIAL and blob.rises_behind and blob.fit_error_mm <= CRISP_RIM_MM:
            return Kind.FIGHTER
        return Kind.FIGHTER if blob.figure in (Evidence.YES, Evidence.UNKNOWN) else Kind.UNSURE
    if blob.diameter_mm <= cut - SIZE_MARGIN_MM:  # token-sized
        if _ringed_figure(blob):
            return Kind.FIGHTER  # a figure's foot in the faint ring of a base the board's colour
        if blob.base_ring is not None:
            return Kind.FIGHTER  # a figure in a base the board's colour, its faint ring wider than any token
        if _figure_rising_out_of_its_foot(blob):
            return Kind.FIGHTER  # one body out of the disc, past any token stack's reach: a figure on its foot
        if _joined_to_what_stands_behind(blob):
            return Kind.UNSURE  # a figure on a base the colour of the board, or a token at a base
        if blob.figure is Evidence.UNKNOWN and blob.tiered >= MAX_TOKEN_TIERED:
            return Kind.UNSURE  # a faint ring round a strong middle: a base round a figure?
        if _ringed_and_hollow(blob):
            return Kind.UNSURE  # a faint ring round a disc not all changed: a base the board's colour?
        if blob.figure is Evidence.UNKNOWN and blob.rim_ahead:
            return Kind.UNSURE  # a figure's top, seen from high above, over a base the board's colour?
        if blob.figure is Evidence.UNKNOWN and (blob.fit_error_mm > CRISP_RIM_MM or blob.coverage < SIZE_ALONE_COVERAGE):
            # Size alone decides here too: a token is one crisp solid disc. A figure seen from high
            # above over a base the board's colour fits a ragged or notched one.
            return Kind.UNSURE
        if _wider_than_a_token(blob):
            return Kind.UNSURE  # a base the board's colour in part, fitted small on its vivid part?
        if blob.wide_faint_ring:
            return Kind.UNSURE  # a faint ring wider than any token round it: a figure's top over its base?
        if blob.faint_skirt:
            return Kind.UNSURE  # something faint and wider round it, too faint for a ring: a base?
        if blob.tinted_in_front:
            return Kind.UNSURE  # a faint colour of its own in front of it, where a figure's base would be
        if blob.long_shadow:
            return Kind.UNSURE  # a shadow from it longer than a token's thickness casts: something tall
        if blob.top_behind:
            return Kind.UNSURE  # one body with a disc well behind it: a figure's foot and top?
        if blob.side_ring:
            return Kind.UNSURE  # a base's side, a thin darker ring round it at a base's radius: a figure's foot
        return Kind.TOKEN
    if blob.figure is Evidence.YES and blob.ahead > MAX_CHANGE_AHEAD:
        return Kind.UNSURE  # a figure's head, its own base nearer the camera, is no base
    if blob.figure is Evidence.YES and not blob.stands_up:
        # Change just behind a disc under a base's size, stopping where a flat thing's top
        # could still show: a token dropped on another, off its centre, not a figure.
        return Kind.UNSURE
    if blob.within_resting_reach:
        # Ringed (or fitted under the size cut), and what stands up behind it ends where a token resting
        # off centre on a faint one could show: a 22 mm token 9-11 mm off a faint 22 mm one, fitted
        # 23.2-24.6 mm (its "figure" seen from 55 degrees, its "top" from 74-80; or, one step, the upper
        # one in front, the faint lower one past its far rim: the eighty-eighth pass).
        return Kind.UNSURE
    if blob.figure is Evidence.YES and blob.coverage < MIN_BASE_COVERAGE and not _ringed_base(blob):
        # As for a base-sized disc: a base is solid, or the faint ring of one the board's colour round
        # its figure. A disc of neither size barely half changed, one step from the board, with change
        # behind it: a faint token with a vivid one resting off its centre away from the camera (22 mm
        # on 22 mm, 9-11 mm off, 55 degrees up: fitted 23.3 mm, coverage 0.58, the upper token "a figure").
        return Kind.UNSURE
    if (blob.figure is Evidence.UNKNOWN and blob.stands_up and blob.ahead <= MAX_CHANGE_AHEAD
            and blob.fit_error_mm <= CRISP_RIM_MM and blob.coverage >= MIN_BASE_COVERAGE):
        # Seen from so high that a figure stays over its base, its top still stands up out of
        # it as no flat disc's can: the figure evidence of a high camera.
        return Kind.FIGHTER
    if blob.figure is Evidence.NO and _wider_than_a_token(blob):
        return Kind.UNSURE
    return {Evidence.YES: Kind.FIGHTER, Evidence.NO: Kind.TOKEN}.get(blob.figure, Kind.UNSURE)


def _joined_to_what_stands_behind(blob: Blob) -> bool:
    """A token-sized disc standing up (not apart from what stands behind it), or with a figure's evidence:
    what stands there may be a figure on it (a base the board's colour) or a figure behind a token at its
    base.

    A figure is one body joined to its foot (see ``_apart_behind``). Where bare board cuts every line away
    from the camera across the disc's whole width, between its far rim and the end of a flat top's reach,
    the change further on is something apart from the disc (a fighter's figure behind it, a hand over a
    marker). A disc that does not stand up and whose figure's evidence is such change has nothing standing
    on it: it is judged as a flat disc, and the change apart is left to be explained on its own (used
    995285: a 19 mm token 3.6 mm thick, 39 degrees up, its "figure" the hand over marker 10 past 4 mm of
    bare board). Lines into a marker's keep-out or out of the view answer no: there the disc stays unsure.
    So does a disc with more of it nearer the camera (``ahead``): a figure's upper part fitted as a disc, its
    body in front of it (used 900108, 950054: 12-28 mm behind their taken bases, ahead 0.8-1.0; the tokens
    read so, 0.0-0.1). A disc standing up with a figure's evidence stays unsure even so (the eighty-fourth
    pass's test pins it: a foot whose figure rises out of it, what stands behind apart)."""
    if blob.stands_up:
        return blob.figure is Evidence.YES or not blob.apart_behind
    return blob.figure is Evidence.YES and not (blob.apart_behind and blob.ahead <= MAX_CHANGE_AHEAD)


def _figure_rising_out_of_its_foot(blob: Blob) -> bool:
    """A token-sized disc standing up (not apart from what stands behind it) whose change runs on out of
    its far rim as strong as its own, with no dip, past any token stack's reach (``rises_out``).

    A figure stands on the middle of its own base and is one body with its foot: a fighter whose base is
    close to the board's or its space's colour is fitted by its foot, and the figure runs on out of that
    disc unbroken. A token's top is flat: what stands up behind a token is apart from it, its own figure
    at least a base's rim behind the token's (its base touching the token, the figure on its middle), and
    between them lies that base's faint top, so the change dips there (the seventy-eighth pass's built
    case: to 5-20 % of the token's own level, 2-10 mm past its rim) before the figure shows."""
    return blob.stands_up and not blob.apart_behind and blob.rises_out


def _wider_than_a_token(blob: Blob) -> bool:
    """The change across the line to the camera, through a disc fitted under a base's size, is
    wider than any token could make it (see ``_width_across``): a lone token is not all of it.

    A base partly close to the board's colour (here the space's, there the board's round it) is
    fitted on its vivid part alone, a token's size (fresh 370231: a 26.5 mm base seen from 77
    degrees fitted 23.1 mm, solid, one step), yet its faint part widens the change across to a
    base's width (26 mm). A token's side and top show displaced along the line to the camera only:
    across it, it is at most ``TOKEN_MAX_MM`` wide, plus the outline's blur.
    """
    return blob.across_mm > TOKEN_MAX_MM + _ACROSS_SLACK_MM


def _ringed_base(blob: Blob) -> bool:
    """A crisp base-sized rim whose disc changed only in part, a fainter ring round a stronger
    middle, with something standing on it: a base the colour of the board (its top unchanged)
    round its figure. A token is one flat disc with nothing standing on it; two stacked tokens
    seen from high above show no figure standing up out of them."""
    return (blob.fit_error_mm <= CRISP_RIM_MM and blob.tiered >= MIN_RING_TIERED and blob.coverage >= MIN_RING_COVERAGE
            and (blob.figure is Evidence.YES or (blob.figure is Evidence.UNKNOWN and blob.stands_up)))


def _ringed_base_from_above(blob: Blob) -> bool:
    """A crisp base-sized rim seen from so high that a figure stays over its base (figure
    ``UNKNOWN``, not standing up), that steps down to a fainter ring on most of its front arc, and
    whose far outline runs on past its far rim further than any flat token's top could show: a base
    close to the board's colour round its figure's foot, the figure's top shown away from the camera.

    Its "size alone" checks (``pinched_mm``, ``short_behind_mm``) guard against two tokens lying one
    over the other, fitted base-sized; they are waived here because no token stack shows this:
    - the fainter ring on most of the front arc is the rim of one faint disc, and the fit, held
      mostly by it, has that disc's size: a base's, where no token is over 22 mm. The faint ring of
      a stack is its lower token's rim (a token's size); where the upper token reaches past it,
      pulling the fit wider, the rim is the upper token's own one step (measured: faint-lower pairs
      fitted base-sized, ``tiered`` at most 0.38; real tokens shaded at their rim, 0.43);
    - a token with a fainter ring round it from outside (its shade or shadow, widening the fit to a
      base's size) is one flat disc: its far outline ends where its top shows, displaced by a
      token's thickness, which ``runs_on_behind`` exceeds. A figure's top, tens of mm up, shows
      further on (330187: 4.8 mm past, where a 6 mm token's top reaches 3.6 mm).
    """
    return (blob.fit_error_mm <= CRISP_RIM_MM and blob.figure is Evidence.UNKNOWN and not blob.stands_up
            and blob.tiered >= MIN_RING_FROM_ABOVE_TIERED and blob.runs_on_behind)


def _ringed_figure(blob: Blob) -> bool:
    """A figure standing in the faint ring of a base close to the board's colour, fitted as a
    token-sized disc: its rim crosses a fainter ring round a stronger middle, the figure stands
    up out of it, and nothing more of it lies nearer the camera.

    Such a base changes the view only a little, so the rim fit holds the base's faint front rim
    and the figure's foot, and comes out 21-23 mm, a token's size. What tells it from a token is
    the step and what stands on it together: a token is one flat disc of one colour, its outline
    one step from the board, and nothing stands on it (the real tokens that stood up on
    250000-250299, by a token behind or a shadow: tiered at most 0.1; a few lying flat reach
    0.43, but do not stand up); here the outline steps down to the base's
    fainter ring (tiered 0.3-0.95) and the change runs on away from the camera past any flat
    top's reach (``stands_up``), with the figure plainly behind (``Evidence.YES``) or, seen from
    so high that a figure stays over its base (``Evidence.UNKNOWN``), its top alone. The centre
    is fitted some 2-4 mm towards the camera from the base's (the fit holds the front arc), so
    it is placed as a fighter by its figure (the wider space-edge margin).
    """
    return (blob.tiered >= MAX_TOKEN_TIERED and blob.figure in (Evidence.YES, Evidence.UNKNOWN) and blob.stands_up
            and not blob.apart_behind and not blob.within_resting_reach and blob.fit_error_mm <= CRISP_RIM_MM
            and blob.coverage >= MIN_BASE_COVERAGE and blob.ahead <= MAX_CHANGE_AHEAD)


def _ringed_and_hollow(blob: Blob) -> bool:
    """A token-sized rim that steps down to a fainter ring round a disc not all changed: what a
    base close to the board's colour round a figure's foot looks like when its figure does not
    stand up out of it plainly (fresh seed 270401, 48 degrees up: a 28 mm base the board's
    colour fitted 20.2 mm, tiered 0.60, figure partial, coverage 0.91).

    A token is one solid disc of one colour: all of its fitted disc is its own top, and changed.
    A fainter ring at its outline comes from outside that disc (its shaded side or shadow): the
    real tokens that reach ``tiered`` 0.38-0.43 on 250000-250299 all cover their disc (1.00).
    A base the board's colour changes only at its faint ring and under its figure, so its fitted
    disc keeps unchanged parts. Either may be a token dropped on the board's colour; with the
    ring and the hollow together, it is a doubt, not a token.
    """
    return blob.tiered >= MAX_TOKEN_TIERED and blob.coverage < SIZE_ALONE_COVERAGE


def is_clear_base(blob: Blob, settings: ArenaSettings) -> bool:
    """A fighter beyond doubt: a crisp, solid disc clearly a base's size with its figure."""
    # Just under the size margin, the figure seen standing on it makes up for it.
    smallest = _size_cut(settings) + (0.0 if blob.figure is Evidence.YES else SIZE_MARGIN_MM)
    return (
        blob.base_ring is None  # (a base seen only by its faint ring: a fighter, never beyond doubt)
        and classify(blob, settings) is Kind.FIGHTER
        and blob.fit_error_mm <= CRISP_RIM_MM
        and smallest <= blob.diameter_mm <= settings.base_mm + CLEAR_BASE_SLACK_MM
    )


def _size_cut(settings: ArenaSettings) -> float:
    """Diameter (mm) between the largest token and the smallest base, as the rim fit measures it."""
    return TOKEN_MAX_MM + (settings.base_mm - 1 - TOKEN_MAX_MM) / 2 + THICKNESS_BIAS_MM


def is_disc(blob: Blob, settings: ArenaSettings) -> bool:
    """Is the rim fit one crisp disc of a plausible size, or a figure inside the faint ring of its
    base (``base_ring``)? (Other fits are dropped.)

    A figure's top seen from high above over a base close to the board's colour is no disc: arms,
    a weapon, a cloak make its outline ragged (spec scene 780120, 80 degrees up: a 35 mm figure's top
    fitted 21 mm, 1.55 mm off a circle). Where the base's faint ring round it was found (a fainter
    step on most rays, its outline one crisp circle a base's size round the fit, ``_faint_base_ring``:
    there, 28.2 mm, 0.4 mm off a circle, 0.6 mm from the true base's centre), the fighter is placed
    by that ring, not by the ragged fit (``_placed_by_its_ring``): the ring is the crisp disc. A
    ragged outline is no token's either (a token is one crisp disc), so nothing is read as a token
    by it. (The sixty-first pass.)
    """
    return ((blob.fit_error_mm <= MAX_RIM_ERROR_MM or blob.base_ring is not None)
            and blob.diameter_mm <= settings.base_mm + 9)


def select_bases(blobs: list[Blob], mask: np.ndarray, view: BoardView, geometry: BoardGeometry,
                 camera: CameraPosition, settings: ArenaSettings, *, expected: int | None = None,
                 search: np.ndarray | None = None, markers_found: tuple[int, ...] | None = None):
    """The fighters' bases among the blobs, and the doubts that forbid an answer.

    ``search`` is where the change mask looks for change (the reader's search mask; made for
    this view and layout if not given). ``markers_found`` are the markers the image was registered
    by (None: all of them), to tell a hand over a covered one.

    Every doubt raised here is "there may be one more fighter here": with the number of
    fighters on the board known, and that many clear bases found, none of them can be one.

    Crisp discs first, nearest the camera first: a base is taken unless it repeats or
    overlaps a taken base, or is the figure standing on one (on its line away from the
    camera). Then every changed region must be explained by bases, their figures and tokens;
    change left unexplained on or near a space is a doubt, so the reading never guesses.

    With ``expected`` fighters on the board and fewer bases found, a standing thing too small
    for a base (a figure on a base the colour of the board) is taken as the missing fighter,
    if there are exactly as many of them as fighters missing: see :func:`_standing_in_for`.
    """
    taken_by_count: set[int] = set()  # (the ids of such discs, taken so by the count alone)
    if expected is not None:
        # With the count known, a ringed figure standing up no further than a token resting on its
        # disc could is taken as before: it is never a clear base, so were it a token stack every
        # doubt of the fighter then unseen would stand (or the count would be one too many); only a
        # hiding doubt on its own space goes, and a fighter hiding there stands on that space. But a
        # fighter seen off every space raises no doubt (it changes no space): where something apart
        # from the disc, not a token, is seen there, it may be the fighter counted, and the disc a
        # token stack standing up by its figure (the thirty-fifth pass's built set, 74-80 degrees up).
        # So where what stands past the reach, apart from the disc, lies off every space, fitted or not
        # (the same set 55 degrees up, the fighter's base the spaces' colour: the seventy-fifth pass).
        # Nor where the disc is the top of a clear base's own figure, a fighter already counted (the
        # ninety-first pass).
        kept = []
        for b in blobs:
            if (b.within_resting_reach and not _maybe_a_fighter_off_the_spaces(b, blobs, geometry, settings)
                    and not _apart_behind_off_the_spaces(b, mask, view, geometry, camera)
                    and not _top_of_a_clear_base_figure(b, blobs, mask, view, camera, settings, search)):
                b = replace(b, within_resting_reach=False)
                taken_by_count.add(id(b))
            kept.append(b)
        blobs = kept
    discs = [b for b in blobs if is_disc(b, settings)]
    kinds = {id(b): classify(b, settings) for b in discs}
    overlapping_solid: list[tuple[Blob, Blob]] = []  # (a disc taken as a fighter, a solid base overlapping it)
    one_behind: list[tuple[Blob, Blob]] = []  # (a fighter, the fighter right behind it: the fifty-ninth pass)
    for blob in discs:
        if kinds[id(blob)] is Kind.FIGHTER and _figure_is_a_base_behind(blob, discs, camera, settings,
                                                                        seen=(mask, view, search)):
            behind = _one_behind_the_other(blob, discs, camera, settings, (mask, view, search))
            if behind is None:
                kinds[id(blob)] = Kind.UNSURE
            else:
                one_behind.append((blob, behind))
        if kinds[id(blob)] is Kind.FIGHTER:
            behind = _overlapping_base_behind(blob, discs, camera, settings)
            if behind is not None:
                # Two solid bases cannot overlap: which of the two is the fighter cannot be told.
                kinds[id(blob)] = kinds[id(behind)] = Kind.UNSURE
                overlapping_solid.append((blob, behind))
        if kinds[id(blob)] is Kind.UNSURE and _stands_up_only_into_a_base(blob, discs, camera, settings):
            kinds[id(blob)] = classify(replace(blob, stands_up=False), settings)  # then size alone decides
        if kinds[id(blob)] is Kind.TOKEN and (_more_of_it_in_front(blob, discs, camera)
                                               or _more_of_it_behind(blob, discs, camera)):
            kinds[id(blob)] = Kind.UNSURE
    for front, behind in one_behind:
        if kinds[id(front)] is Kind.FIGHTER and kinds[id(behind)] is Kind.UNSURE:
            kinds[id(behind)] = Kind.FIGHTER  # its change in front is the fighter in front's figure
    front_tokens = _bases_behind_tokens(discs, kinds, camera, settings, taken_by_count, seen=(mask, view, search))
    order = sorted(discs, key=lambda b: (b.fit_error_mm > CRISP_RIM_MM, _distance_to_camera(b.peak_mm, camera)))
    bases: list[Blob] = []
    doubts: list[str] = []
    for blob in order:
        if kinds[id(blob)] is Kind.UNSURE and _ahead_is_a_taken_base(blob, bases, camera, settings):
            kinds[id(blob)] = Kind.FIGHTER  # touching a base nearer the camera: its rim is its own
        if kinds[id(blob)] is not Kind.FIGHTER:
            continue
        if blob.base_ring is not None and blob.diameter_mm <= _size_cut(settings) - SIZE_MARGIN_MM:
            blob = _placed_by_its_ring(blob)
        if any(math.hypot(blob.x_mm - b.x_mm, blob.y_mm - b.y_mm) < b.radius_mm for b in bases):
            continue  # the same base fitted from another seed
        if any(_overlapping(blob, b) for b in bases) or (
                blob.fit_error_mm > CRISP_RIM_MM and _on_figure_line(blob, bases, camera)):
            continue  # left to the region check below: explained by that base, or a doubt
        # A ringed figure's disc is fitted off its base's centre: placed as a fighter by its figure.
        bases.append(replace(blob, figure_only=True) if blob.diameter_mm <= _size_cut(settings) - SIZE_MARGIN_MM
                     else blob)
    if expected is not None:
        # Two overlapping discs cannot both be bases, and which was taken went by which is nearer the
        # camera; where the one left is a solid base too, on another space (two tokens resting one
        # on the other fitted base-sized, a fighter's base touching them from behind off the row),
        # either may be the fighter counted: the count says how many fighters there are, not where.
        # (Whether the change just in front of the one left, the taken disc's, made it unsure or not.)
        doubts += [FirmDoubt(f"the fighter at ({taken.x_mm:.0f}, {taken.y_mm:.0f}) mm may be the base at "
                             f"({other.x_mm:.0f}, {other.y_mm:.0f}) mm, on another space")
                   for taken, other in _solid_bases_overlapping(bases, discs, settings)
                   if geometry.space_at(taken.x_mm, taken.y_mm) != geometry.space_at(other.x_mm, other.y_mm)]
        # So with the two both left unsure for overlapping (``_overlapping_base_behind``): else the
        # count would take the one on a space as the fighter missing, a guess between the two.
        doubts += [FirmDoubt(f"the object at ({front.x_mm:.0f}, {front.y_mm:.0f}) mm may be the base at "
                             f"({behind.x_mm:.0f}, {behind.y_mm:.0f}) mm, on another space")
                   for front, behind in overlapping_solid
                   if geometry.space_at(front.x_mm, front.y_mm) != geometry.space_at(behind.x_mm, behind.y_mm)]
    stand_ins: list[Blob] = []
    if expected is not None and len(bases) < expected:
        stand_ins = _standing_in_for(expected - len(bases), blobs, bases, geometry, camera, settings)
        # A stand-in on a space that stands up past a token stack's reach only by something apart from it
        # off every space: that may be the fighter counted (the seventy-fifth pass).
        doubts += [FirmDoubt(f"the object at ({s.x_mm:.0f}, {s.y_mm:.0f}) mm may be a token stack, and what "
                             "stands apart behind it, off every space, the fighter counted")
                   for s in stand_ins if s.within_resting_reach and geometry.space_at(s.x_mm, s.y_mm) is not None
                   and _apart_behind_off_the_spaces(s, mask, view, geometry, camera)]
        bases += stand_ins
    if expected is not None:
        # A fighter taken on a space (by its look or for the count) with a clear base right behind it,
        # left unsure only by the change that fighter makes, on another space or on none: the count says
        # how many fighters there are, not which of the two it is (the sixty-fourth pass).
        doubts += [FirmDoubt(f"the fighter at ({taken.x_mm:.0f}, {taken.y_mm:.0f}) mm may be the base at "
                             f"({other.x_mm:.0f}, {other.y_mm:.0f}) mm behind it, on another space")
                   for taken, other in _clear_bases_behind_on_another_space(bases, discs, geometry, camera, settings)]
    doubts += _ringed_bases_behind(bases, discs, geometry, camera, settings)
    doubts += _whole_rims_before_a_figure(bases, geometry)
    if expected is not None:
        # With the count known, the token in front of a taken base is a token: were it a
        # fighter (a base the board's colour), a fighter would be missing from the count.
        for token in front_tokens:
            if any(b in bases for b in front_tokens[token]):
                kinds[id(token)] = Kind.TOKEN
    tokens = [
        b for b in discs
        if kinds[id(b)] is Kind.TOKEN
        and not any(_overlapping(b, f) for f in bases)
    ]
    counted_in = [b for b in bases if id(b) in taken_by_count or any(b is s for s in stand_ins)]
    doubts += _figures_apart_behind_stand_ins(counted_in, bases, tokens, mask, view, geometry, camera, markers_found)
    if expected is not None and len(bases) == expected:
        doubts += _figures_apart_behind_unseen_figures(bases, counted_in, tokens, mask, view, geometry, camera,
                                                       markers_found)
    for blob in discs:
        if kinds[id(blob)] is Kind.UNSURE and not _explained(blob, bases, camera) and _near_a_space(blob, geometry):
            doubt = (f"the object at ({blob.x_mm:.0f}, {blob.y_mm:.0f}) mm may be a token or a base "
                     f"({blob.diameter_mm:.0f} mm across)")
            # Something standing up on a space, apart from every taken base and with nothing of
            # it nearer the camera, is a fighter's foot: had one of those bases been something
            # else (a token and a figure fitted as one disc), this would be the fighter.
            standing_apart = (blob.stands_up and blob.ahead <= STANDING_CHANGE_AHEAD
                              and not any(_overlapping(blob, b) for b in bases))
            doubts.append((FirmDoubt(doubt) if standing_apart else Doubt(doubt)).seen_at(
                blob.x_mm, blob.y_mm, no_figure=blob.figure is Evidence.NO,
                token_sized=blob.diameter_mm < _size_cut(settings)))
    # Something standing clear of every space (a fighter off the row whose base matches the
    # board) is on no space whatever it is; but its figure may lean over one: that change is
    # explained, and a fighter could hide behind it as behind any other.
    standing = [b for b in discs if kinds[id(b)] is Kind.UNSURE and _stands_off_the_spaces(b, bases, geometry, camera)]
    cover = FigureCover(mask, view, geometry, camera, looked_at=search)
    solids = _solids(bases + tokens)
    # A space a fighter taken stands on holds no other: the rules let no two fighters share a space,
    # and whichever of them is there, ``occupied`` names it (with the count too, ``_with_fighter_count``).
    taken_spaces = {geometry.space_at(b.x_mm, b.y_mm) for b in bases}
    for space_id, base in _hidden_spaces(mask, view, geometry, camera, bases + standing, cover, solids):
        if space_id in taken_spaces:
            continue
        doubt = HidingDoubt(f"the fighter at ({base.x_mm:.0f}, {base.y_mm:.0f}) mm may hide a fighter on {space_id}",
                            space_id)
        if not any(base is b for b in bases):
            doubt.off_the_row = (float(base.x_mm), float(base.y_mm))
        doubts.append(doubt)
    explained = _explained_mask(mask, view, camera, bases + standing, tokens)
    unexplained = _unexplained(mask, view, geometry, camera, bases + standing, tokens, explained=explained)
    body_test = _but_for_figure_parts(mask, view, camera, bases, standing, tokens, solids, explained)
    for space_id, (x, y) in _figures_past_the_outlines(mask, view, geometry, camera, *body_test, markers_found,
                                                       looked_at=search):
        doubts.append(HidingDoubt(f"a figure standing at ({x:.0f}, {y:.0f}) mm on {space_id}'s outline shows in change "
                                  "that no base, figure or token explains", space_id).seen_at(x, y))
    for x, y, reach in unexplained:
        # Where no further fighter can stand on any space that one there could have changed
        # this from, what the change is (a hand over a covered marker, a shadow) cannot change
        # ``occupied``.
        if _room_for_one_more(cover, geometry, camera, settings, solids, (x, y, reach)):
            doubts.append(f"something that is neither a base nor a token is near ({x:.0f}, {y:.0f}) mm")
    if bases and len(unexplained) >= MAX_UNEXPLAINED_PLACES:
        # Not room for one more fighter, which the count could settle: change this widespread
        # is the light not removed (or a hand over the board), and any base taken in it may be
        # false. (With no base taken, the count alone says what the board holds.)
        doubts.append(FirmDoubt(f"change in {len(unexplained)} places that no base, figure or token explains "
                                "(the light may have changed)"))
    return sorted(bases, key=lambda b: b.x_mm), doubts


def _clear_bases_behind_on_another_space(bases: list[Blob], discs, geometry: BoardGeometry, camera: CameraPosition,
                                         settings: ArenaSettings) -> list[tuple[Blob, Blob]]:
    """(a fighter taken on a space, a clear base not taken standing right behind it on another space or
    on none): the count cannot tell which of the two is the fighter it counts.

    The one behind is a clear solid base by its own look (crisp, a base's size, changed all over, one
    step from the board) with its figure on it (it stands up, or its far outline runs on), and all that
    leaves it unsure is the change just in front of it, which lies on the taken fighter or where that
    fighter's figure shows. A figure standing on the taken disc would show there too, so the one behind
    is no fighter of its own only if it is that figure. It is not where nothing of a figure can reach it:

    - seen from so high that a figure stays over its base (``Evidence.UNKNOWN`` on the taken disc), a
      solid disc right behind it is no part of its figure but a base of its own (as
      ``_seen_base_behind_on_another_space`` says of a stand-in that stands up);
    - a figure's worth of change stands on the one behind (``Evidence.YES``, standing up): nothing stands
      behind a figure's top (as ``_stands_on_its_own`` says, there with nothing in front of it).

    Then either may be the fighter: the taken disc with the one behind a second thing, or the one behind
    with the taken disc something flat lying in front of it (two tokens resting one on the other fitted
    base-sized, a fighter 3-6 mm behind them off the row: the ``gap-behind`` built set, 61-80 degrees up;
    ``front`` and ``resting-behind``, 40-55 degrees up, with the fighter's figure plainly on it). Without the
    count the one behind changes no space and raises no doubt; with it, the count "settles" the doubt on the
    space in front, a guess between the two places. (Spec scene 12393, 39 degrees up: a fighter's figure
    fitted a crisp 27.3 mm disc behind its S3 base, only part of a figure's worth on it: that disc is its
    figure, and the count still places the fighter.)
    """
    pairs = []
    for taken in bases:
        space = geometry.space_at(taken.x_mm, taken.y_mm)
        if space is None:
            continue
        lx, ly = camera.lean(taken.x_mm, taken.y_mm, MAX_FIGURE_MM)
        for other in discs:
            if (any(other is b for b in bases) or any(_overlapping(other, b) or _near_any(other, [b]) for b in bases)
                    or other.fit_error_mm > CRISP_RIM_MM or not _solid_base_but_for_change_ahead(other, settings)
                    or _base_carrying_change_on(other, settings) is not other
                    or geometry.space_at(other.x_mm, other.y_mm) == space
                    or not _on_figure_line(other, [taken], camera)):
                continue
            if taken.figure is Evidence.UNKNOWN:
                if not (other.stands_up or other.runs_on_behind):
                    continue
            elif not (other.figure is Evidence.YES and other.stands_up):
                continue
            left = [p for p in other.ahead_points
                    if _distance_to_segment(p[0] - taken.x_mm, p[1] - taken.y_mm, lx, ly) >= taken.radius_mm + 2.5]
            if len(left) <= MAX_CHANGE_AHEAD * other.ahead_looked:
                pairs.append((taken, other))
    return pairs


def _ringed_bases_behind(bases: list[Blob], discs, geometry: BoardGeometry, camera: CameraPosition,
                         settings: ArenaSettings) -> list[FirmDoubt]:
    """A doubt for each fighter taken on a space with a base the board's colour right behind it, on another
    space or on none: a crisp base-sized rim changed only in part (a ring), something standing on it, joined
    to the taken disc's change where that disc's figure shows.

    A figure rises from its base's middle as one body, and what shows right past a disc's far rim is taken
    for its figure. A second crisp rim of a base's size there, apart from the disc, round change that covers
    only part of it, is a base of its own whose top is close to the board's colour: one fighter is one rim.
    What stands on that ring may be all the figure there is, and the disc in front something flat (two tokens
    overlapping, fitted base-sized and solid: the ``overlap-behind-board`` built set). Which of the two is the
    fighter cannot be told from above, with the count or without (the hundred-and-first pass). On the same
    space it changes nothing: not asked.
    Apart (not ``_overlapping``): two things lying on the board do not overlap, but a figure's body fitted as a
    disc may overlap its own base's fit, and one painted in part like the board is a ring too (used 920011: a
    crisp 26 mm ring, 0.52 changed, 4.3 mm into its base's fit).
    """
    doubts = []
    for taken in bases:
        space = geometry.space_at(taken.x_mm, taken.y_mm)
        if space is None:
            continue
        for other in discs:
            if (any(other is b for b in bases) or _overlapping(taken, other) or other.fit_error_mm > CRISP_RIM_MM
                    or not _size_cut(settings) + SIZE_MARGIN_MM <= other.diameter_mm <= _widest_base(settings)
                    or not MIN_RING_COVERAGE <= other.coverage < MIN_BASE_COVERAGE
                    or not (other.stands_up or other.figure is Evidence.YES)
                    or geometry.space_at(other.x_mm, other.y_mm) == space or not _on_figure_line(other, [taken], camera)
                    or math.hypot(other.x_mm - taken.x_mm, other.y_mm - taken.y_mm) - taken.radius_mm - other.radius_mm
                    >= FIGURE_HALF_WIDTH_MM):
                continue
            doubts.append(FirmDoubt(f"the fighter at ({taken.x_mm:.0f}, {taken.y_mm:.0f}) mm may be the base the "
                                    f"board's colour at ({other.x_mm:.0f}, {other.y_mm:.0f}) mm behind it, its figure "
                                    "that one's"))
    return doubts


def _whole_rims_before_a_figure(bases: list[Blob], geometry: BoardGeometry) -> list[FirmDoubt]:
    """A doubt for each fighter taken on a space by its own rim (not placed by its figure) whose far rim is seen
    whole where its figure would cross it (``far_rim_whole``): what stands past it starts behind it.

    A figure stands on its base's middle and hides that base's far rim where it rises past it. A crisp solid
    disc whose rim shows whole there, the change beyond a fraction of its own, is as like a flat thing (two
    tokens resting one on the other fit one crisp solid base-sized disc) with a fighter standing right behind
    it, on a base close to the board's colour, as a fighter whose figure is much fainter than its base: which,
    the look cannot tell, and the count says how many fighters there are, not which thing is one (the
    hundred-and-eighth pass). Doubt only."""
    return [FirmDoubt(f"the fighter at ({b.x_mm:.0f}, {b.y_mm:.0f}) mm may be something flat: its far rim shows "
                      "whole, and what stands past it may stand behind it")
            for b in bases if b.far_rim_whole and not b.figure_only and geometry.space_at(b.x_mm, b.y_mm) is not None]


def _solid_bases_overlapping(bases: list[Blob], discs, settings: ArenaSettings) -> list[tuple[Blob, Blob]]:
    """(a base taken, a disc not taken overlapping it that is a solid base but for the change in front
    of it): not the same base fitted again (its centre within the taken base)."""
    return [(taken, other) for taken in bases for other in discs
            if _overlapping(taken, other) and _solid_base_but_for_change_ahead(other, settings)
            and math.hypot(other.x_mm - taken.x_mm, other.y_mm - taken.y_mm) >= taken.radius_mm]


def _maybe_a_fighter_off_the_spaces(blob: Blob, blobs, geometry: BoardGeometry, settings: ArenaSettings) -> bool:
    """Is ``blob``, on a space, apart from a disc (not overlapping it) seen clear of every space that is
    not a token by its look: a base, or something unsure (a fighter there need not show as a clear base)?
    (A disc itself off the spaces is what may be the fighter there: spec scene 570001, a fighter off the
    row with a token lying against it, off the row too.)"""
    if geometry.space_at(blob.x_mm, blob.y_mm) is None:
        return False
    return any(other is not blob and is_disc(other, settings) and _off_the_spaces(other, geometry)
               and not _overlapping(blob, other) and classify(other, settings) is not Kind.TOKEN
               for other in blobs)


def _top_of_a_clear_base_figure(blob: Blob, blobs, mask, view: BoardView, camera: CameraPosition,
                                settings: ArenaSettings, search) -> bool:
    """Is ``blob`` where the figure of a clear base nearer the camera shows, one body with it: on that
    base's line away from the camera within a figure's lean (``_on_figure_line``), the change running on
    unbroken from the base's far rim to it (``_carries_on_to``)?

    A fighter is a figure rising from its base, and seen from above the figure's top lies on that line,
    within its height's lean; one fighter gives one base. A ringed disc standing up no further than a
    token resting on it could is let pass by the count as a fighter's foot (``select_bases``), for were
    it a token stack the fighter then unseen would raise a doubt. Here that fighter is not unseen: the
    clear base is it, and the disc is its figure's top. Taken for a foot too, it would be a base standing
    right behind the clear one, left unsure by it (``_figure_is_a_base_behind``), and the count's room
    filled by the top instead of the base (used 910188, 940098: a 20 mm ringed disc 23-30 mm behind a
    clear 26-27 mm base on S4 (S3), off the row; the base left as "a token or a base").
    """
    return any(other is not blob and is_disc(other, settings) and is_clear_base(other, settings)
               and _on_figure_line(blob, [other], camera) and _carries_on_to(other, blob, camera, mask, view, search)
               for other in blobs)


def _apart_behind_off_the_spaces(blob: Blob, mask, view: BoardView, geometry: BoardGeometry,
                                 camera: CameraPosition) -> bool:
    """Is ``blob``, within a resting token's reach, standing up past that reach only by change apart from it
    (after bare board: see ``_within_resting_reach``) that lies clear of every space where it is looked at?
    Something stands there of its own, and a fighter there changes no space (the seventy-fifth pass)."""
    reach = _resting_token_reach(camera, blob.x_mm, blob.y_mm)
    if not _stands_up(mask, view, camera, blob.x_mm, blob.y_mm, blob.radius_mm, allowance=reach):
        return False
    ax, ay = camera.away(blob.x_mm, blob.y_mm)
    along = blob.radius_mm + reach + _STANDS_UP_PAST_MM
    x, y = blob.x_mm + ax * along, blob.y_mm + ay * along
    return geometry.space_at(x, y) is None and geometry.edge_distance(x, y) >= OFF_SPACE_MM


def _bases_behind_tokens(discs, kinds, camera: CameraPosition, settings: ArenaSettings,
                        taken_by_count: set[int] = frozenset(), seen: tuple | None = None) -> dict:
    """Bases left unsure only by change just in front of them, all of it a crisp token lying
    there: those bases are fighters (``kinds`` updated). Returns each token-sized disc left
    unsure only by the change behind it -> the bases standing there, which explain it.

    Not a ringed disc standing up no further than a token resting on it could show, let pass by the
    count (``taken_by_count``, see ``select_bases``). The count lets it pass as a foot: nothing of it
    nearer the camera, were it a token stack the fighter then unseen would raise a doubt. With change
    in front of it, more of the thing lies nearer the camera, and a figure's top or middle has the
    rest of its figure there; where that figure rises from a base close to the board's colour, its
    foot with the base's near part may fit a crisp flat token-sized disc, which would "explain" the
    change as a token lying in front. (A built scene: a fighter off the row in front of S4, its 27 mm
    base the board's pink, a 14 x 40 mm figure, seen from 42 degrees up, 18 to the side: its figure's
    top over S4 fitted a ringed 17.3 mm disc within a resting token's reach, 0.58 of the band ahead
    changed, all of it on its own foot fitted a flat 18.6 mm disc; with the count S4 was read, a wrong
    ok: true on OpenCV 5.0 and 5.1.) A base behind a token is a fighter by its own look but for that
    token; this disc is a fighter by its look only with the count's leave, which is a foot's, and the
    change in front of it says it is no foot: the two leaves are not stacked."""
    cut = _size_cut(settings)
    # A crisp flat disc with nothing more of it nearer the camera (else it is a figure's middle).
    tokens = [t for t in discs if t.fit_error_mm <= CRISP_RIM_MM and t.diameter_mm <= cut - SIZE_MARGIN_MM
              and t.ahead <= MAX_CHANGE_AHEAD
              and classify(replace(t, figure=Evidence.NO, stands_up=False), settings) is Kind.TOKEN]
    behind: dict = {}
    for base in discs:
        if (kinds[id(base)] is not Kind.UNSURE or id(base) in taken_by_count
                or not _a_fighter_but_for_change_in_front(base, settings)):
            continue
        # Apart, not touching: a rim fitted against a touching disc may have taken in part of it. But
        # not where the base stands up of its own seen from so high that a figure stays over its base
        # (see ``_touching_token_settles``): the fifty-third pass.
        in_front = [t for t in tokens if _stands_behind(base, t, camera)
                    and (math.hypot(base.x_mm - t.x_mm, base.y_mm - t.y_mm) >= base.radius_mm + t.radius_mm
                         or (seen is not None and _touching_token_settles(base, t, discs, kinds, camera, settings, seen)))]
        left = [p for p in base.ahead_points if not any(_on_token(p, t, camera) for t in in_front)]
        if len(left) > MAX_CHANGE_AHEAD * base.ahead_looked:
            continue
        kinds[id(base)] = Kind.FIGHTER
        for token in in_front:
            if kinds[id(token)] is Kind.UNSURE:
                behind.setdefault(token, []).append(base)
    return behind


def _touching_token_settles(base: Blob, token: Blob, discs, kinds, camera: CameraPosition, settings: ArenaSettings,
                            seen: tuple) -> bool:
    """May a token touching a base on the camera's side settle that base (its change ahead), though the
    base's rim was fitted against it?

    The fear (``_bases_behind_tokens``: spec scene 20410) is a rim fitted round a token and part of the
    one touching it, a flat pair fitted base-sized. Seen from so high that a figure stays over its base
    (figure ``UNKNOWN``), a disc stands up only by change running on away from the camera past any flat
    top's reach (``_stands_up``), on the side away from the token: no flat thing fitted too big shows
    that, a figure's top over its base does. So where the base stands up of its own (no base behind it
    carries that change on: ``_figure_is_a_base_behind`` given the change), and the disc in front is a
    token by the reader's own judgement of it (``kinds``: by size alone, with every check against a
    figure's top over a base the board's colour, its standing up only into this base if at all, see
    ``_stands_up_only_into_a_base``), the token settles the base as an apart one does. (Fresh 670293,
    touching tokens: a fighter on S5 seen from 72 degrees, 27.4 mm, standing up, an 18.8 mm token laid
    against its base in front, 0.75 of the band ahead changed: a doubt.)
    """
    return (base.figure is Evidence.UNKNOWN and base.stands_up and kinds[id(token)] is Kind.TOKEN
            and not _figure_is_a_base_behind(base, discs, camera, settings, seen=seen))


def _figure_is_a_base_behind(blob: Blob, discs, camera: CameraPosition, settings: ArenaSettings,
                             seen: tuple | None = None) -> bool:
    """Is the change where the disc's figure should show another base's? (See ``_base_behind``.)

    ``seen``: (mask, view, search), the change the discs were fitted to. Given it, a base behind a disc
    seen from so high that a figure stays over its base counts only where the change runs on unbroken
    from the disc's far rim to it (see :func:`_carries_on_to`): the fifty-third pass.
    """
    for behind in _bases_behind(blob, discs, camera, settings):
        if seen is None or blob.figure is not Evidence.UNKNOWN or _carries_on_to(blob, behind, camera, *seen):
            return True
    return False


def _one_behind_the_other(front: Blob, discs, camera: CameraPosition, settings: ArenaSettings, seen: tuple) -> Blob | None:
    """The fighter standing right behind ``front`` where both are fighters, or None: ``front`` a base by its
    size alone, the one behind a base but for the change in front of it, which ``front``'s figure makes.

    Seen from so high that a figure stays over its base (figure ``UNKNOWN``), ``front`` stands up by change
    running on past its far rim; a base right behind it, the change joined to it (``_figure_is_a_base_behind``
    given ``seen``), may be what carries that on (a token pair in front of a fighter), so its standing up
    shows nothing of its own and its size alone must decide: *with* the checks a disc not standing up gets.
    Taken here where that size alone says a base: a crisp rim, its disc changed all over, one step from
    the board to its rim (no fainter ring: ``_base_carrying_change_on``), and round both ways
    (``pinched_alone_mm``: no direction across it narrower than its rim, where two tokens lying one over
    the other off centre are a base's size along their offset only). And the one behind is a clear solid
    base standing up (or its far outline running on) by itself, left unsure only by change in front of it
    that lies on ``front`` or where ``front``'s figure shows: the two then explain each other, each
    fighter's figure over its own base.

    Only where the two fits are apart by more than fitting error (``BASE_OVERLAP_MM``): a rim fitted against
    a touching disc may have taken in part of it, so its size and roundness are no evidence there. A vivid
    token resting 5 or 11 mm off another, 3 mm in front of a fighter and seen from 61 degrees, fits a crisp
    solid one-step 24.9-27.7 mm disc, not pinched (its narrow direction runs along the line to the fighter,
    whose change hides it), standing up, within 1.8 mm of the fighter's base (``bench/arena_stacked_tokens.py
    --set gap-behind``: without this, seven such scenes read S6 with ok: true). (Spec 670076, 67 degrees up:
    a fighter off the row in front of S4's, the fits 6.4 mm apart, was a doubt; 670108, 2.8 mm apart, stays one.)
    """
    if (front.figure is not Evidence.UNKNOWN or not front.stands_up or front.pinched_alone_mm is None
            or front.pinched_alone_mm >= PINCHED_MM or _base_carrying_change_on(front, settings) is not front
            or front.coverage < SIZE_ALONE_COVERAGE or front.fit_error_mm > CRISP_RIM_MM):
        return None
    carried = [b for b in _bases_behind(front, discs, camera, settings) if _carries_on_to(front, b, camera, *seen)]
    if len(carried) != 1 or not any(carried[0] is d for d in discs):
        return None  # (a foot or a faint ring placed as a base: not a disc of its own here)
    behind = carried[0]
    if math.hypot(behind.x_mm - front.x_mm, behind.y_mm - front.y_mm) < front.radius_mm + behind.radius_mm + BASE_OVERLAP_MM:
        return None  # not apart by more than fitting error: the rim in front may have taken in part of it
    if (behind.figure is not Evidence.UNKNOWN or not (behind.stands_up or behind.runs_on_behind)
            or _base_carrying_change_on(behind, settings) is not behind
            or not _a_fighter_but_for_change_in_front(behind, settings)):
        return None
    lx, ly = camera.lean(front.x_mm, front.y_mm, MAX_FIGURE_MM)
    left = [p for p in behind.ahead_points
            if _distance_to_segment(p[0] - front.x_mm, p[1] - front.y_mm, lx, ly) >= front.radius_mm + 2.5]
    return behind if len(left) <= MAX_CHANGE_AHEAD * behind.ahead_looked else None


def _carries_on_to(blob: Blob, behind: Blob, camera: CameraPosition, mask, view: BoardView, search) -> bool:
    """Does the change run on unbroken along the disc's line away from the camera, from its far rim to
    where that line reaches the base ``behind`` (comes within a figure's lean of its rim)?

    Seen from so high that a figure stays over its base, a disc stands up, or its far outline runs on,
    by change past its flat top's reach on that line; a base behind it "carries that change on" (see
    ``_base_behind``: a token resting on the disc, then the base, with no break between them). Where
    ``FIGURE_BREAK_MM`` of unchanged board cut that line before it reaches the base, the base carries
    nothing on from the disc (as ``_breaks_behind`` says of a figure: change that starts again after bare
    board belongs to something else): what stands up there stands up whether that base is there or not,
    and the disc is read as it would be alone. (Fresh 670188, 76 degrees up: a fighter on S8, 27.2 mm,
    standing up, its neighbour on S9 starting 16 mm of bare board away, off its line: both a doubt.)
    A line leaving the view, or where change is not looked for, answers yes (no break seen).
    """
    ax, ay = camera.away(blob.x_mm, blob.y_mm)
    dx, dy = behind.x_mm - blob.x_mm, behind.y_mm - blob.y_mm
    along, lateral = dx * ax + dy * ay, abs(dx * ay - dy * ax)
    end = along - math.sqrt(max((behind.radius_mm + _FIGURE_LEAN_MM) ** 2 - lateral ** 2, 0.0))
    distances = np.arange(blob.radius_mm, end, 1.0)
    if not distances.size:
        return True
    u, v = view.to_px(blob.x_mm + ax * distances, blob.y_mm + ay * distances)
    ui, vi = np.round(u).astype(int), np.round(v).astype(int)
    h, w = mask.shape
    inside = (ui >= 0) & (ui < w) & (vi >= 0) & (vi < h)
    if not inside.all():
        return True
    bare = mask[vi, ui] == 0
    if search is not None:
        bare &= search[vi, ui].astype(bool)
    return longest_run(bare) < FIGURE_BREAK_MM


def _base_behind(blob: Blob, discs, camera: CameraPosition, settings: ArenaSettings) -> Blob | None:
    """The first of :func:`_bases_behind`, or None."""
    return next(_bases_behind(blob, discs, camera, settings), None)


def _bases_behind(blob: Blob, discs, camera: CameraPosition, settings: ArenaSettings):
    """Each base (yielded in ``discs``' order) standing right behind the disc on its
    line away from the camera whose change shows where the disc's figure should (it was taken by its
    figure, or, seen from so high that a figure stays over its base, by its standing up or its far
    outline running on); none for a disc with no such evidence. A base seen by
    its faint ring is given at it; a fighter seen by its figure's foot alone, at the foot.

    A figure stands on its own base; change that shows there may be the base of a fighter behind
    (two tokens lying one over the other in front of a fighter, seen from 40-45 degrees): what
    stands on this disc, if anything, cannot be told from it, so it is no fighter by its figure.
    Seen from high above, a disc "stands up" when the change runs on past its flat top's reach: a
    token resting on it off its centre runs on up to ``_resting_token_reach``, and a base starting
    within that reach carries the change on from there (a vivid token resting 5-11 mm off a faint
    one, a fighter's base 0.5 mm behind it, 55-80 degrees up). Its standing up then shows nothing
    of its own, and its size alone (without the checks a disc not standing up gets) settles nothing.
    So with a ringed disc taken by its far outline running on past a flat top's (``runs_on_behind``,
    the figure's top of ``_ringed_base_from_above``): a base starting there carries that outline on
    (the same pair 11 mm off, 80 degrees up, on numpy 1.24 + OpenCV 4.11: fitted 25.0 mm, ``tiered`` 0.62).
    """
    if blob.figure is Evidence.UNKNOWN and (blob.stands_up or blob.runs_on_behind):
        # (Not standing up, its far outline running on past a flat top's: see ``_ringed_base_from_above``.)
        reach = _resting_token_reach(camera, blob.x_mm, blob.y_mm)
    elif blob.figure in (Evidence.YES, Evidence.PARTIAL):
        # Plain evidence: a base whose rim starts where this disc's own flat top could still show (so
        # nothing breaks off between them); partial evidence: where the change rising after a gap starts.
        reach = _flat_top_reach(camera, blob.x_mm, blob.y_mm) if blob.figure is Evidence.YES else _RISE_GAP_MM
    else:
        return
    ax, ay = camera.away(blob.x_mm, blob.y_mm)
    for other in discs:
        if other is blob or _overlapping(blob, other):
            continue
        foot = _foot_standing_on_the_board(other, settings)
        if foot is not None:
            other = foot
        elif blob.figure is Evidence.UNKNOWN:
            other = _base_carrying_change_on(other, settings)
        elif not _solid_base_but_for_change_ahead(other, settings):
            # Not a figure fitted as a disc (its own, or a ring round it); the change ahead is this disc.
            continue
        if other is None or _overlapping(blob, other):
            continue
        dx, dy = other.x_mm - blob.x_mm, other.y_mm - blob.y_mm
        along, lateral = dx * ax + dy * ay, abs(dx * ay - dy * ax)
        if lateral < other.radius_mm + _FIGURE_LEAN_MM and 0 < along < other.radius_mm + blob.radius_mm + reach:
            yield other


def _solid_base_but_for_change_ahead(blob: Blob, settings: ArenaSettings) -> bool:
    """A clear base changed all over, but for change just in front of it (towards the camera)."""
    return blob.coverage >= MIN_BASE_COVERAGE and is_clear_base(replace(blob, ahead=0.0), settings)


def _foot_standing_on_the_board(other: Blob, settings: ArenaSettings) -> Blob | None:
    """The base of a fighter seen by its figure's foot alone, if ``other`` is one: a crisp token-sized
    disc with a figure standing up out of it (plainly behind it or, from high above, unseen; not apart
    from it nor within a resting token's reach) and nothing of it nearer the camera; or None. Its base,
    unseen (close to the board's colour), is placed as the smallest a spec base may be, centred on the foot.

    A figure rises from its base's middle; the part of a figure fitted as a disc over its own base
    has the rest of that figure just in front of its rim (``ahead``), the foot of a figure on a base
    the board's colour has only that faint base there. (The ``resting-behind`` built set: a fighter on
    a base the spaces' colour 0.5 mm behind a token pair, 55-67 degrees up, seen as a 10.4-11.5 mm foot
    standing up, 0.10-0.29 of the band ahead changed, no ring found round it.)
    """
    if (other.diameter_mm > _size_cut(settings) - SIZE_MARGIN_MM or other.fit_error_mm > CRISP_RIM_MM
            or other.ahead > MAX_CHANGE_AHEAD or not other.stands_up or other.apart_behind
            or other.within_resting_reach or other.figure not in (Evidence.YES, Evidence.UNKNOWN)):
        return None
    return replace(other, radius_mm=min(_BEHIND_BASE_RADII_MM))


def _overlapping_base_behind(blob: Blob, discs, camera: CameraPosition, settings: ArenaSettings) -> Blob | None:
    """A clear, solid base (see ``_base_carrying_change_on``) on the line away from the camera of a disc
    taken as a fighter that overlaps that disc by more than fitting error (``_overlapping``), or None.

    Two solid bases cannot overlap, so one of the two fits is no base. A disc overlapping a taken base
    is otherwise left as that base's figure fitted as a disc (``select_bases``); here the one behind is
    itself a crisp disc of a base's size, changed all over and one step from the board, and what makes
    the one in front a fighter (its figure, its standing up, its outline running on) may be the change
    where that base is. Two tokens lying side by side or one on the other in front of a fighter fit so
    (the ``resting-behind`` built set: a vivid 22 mm token resting 5 or 11 mm off a faint one, across
    the line to the camera, fitted 25.0-29.1 mm, its fit reaching 3.3-7.9 mm into the base of the fighter
    0.5 mm behind it, 55-74 degrees up); a figure fitted as a disc behind its own base might too. Which
    of the two is a fighter cannot be told from them: the caller takes neither (a doubt, never a guess).
    """
    ax, ay = camera.away(blob.x_mm, blob.y_mm)
    for other in discs:
        if other is blob or not _overlapping(blob, other):
            continue
        base = _base_carrying_change_on(other, settings)
        if base is None:
            continue
        dx, dy = base.x_mm - blob.x_mm, base.y_mm - blob.y_mm
        if dx * ax + dy * ay > 0 and abs(dx * ay - dy * ax) < base.radius_mm + _FIGURE_LEAN_MM:
            return other
    return None


def _stands_up_only_into_a_base(blob: Blob, discs, camera: CameraPosition, settings: ArenaSettings) -> bool:
    """Does a token-sized disc seen from high above (figure ``UNKNOWN``) "stand up" only because a
    base touches it from behind, its near rim where the disc's own flat top could still show?

    Seen from so high that a figure stays over its base, a disc stands up when the change runs on
    away from the camera past its flat top's reach (``_stands_up``): a figure's top, tens of mm up,
    shows displaced there. A token laid against a fighter's base on the camera's side runs on into
    that base, which carries the change on from its near rim (fresh 590014, 590050, 590131: tokens
    of 15-22 mm against a fighter's base, 64-79 degrees up). That run-on is the base's, nothing of
    the disc's own; and no figure rises out of the disc itself: a fighter's base (25 mm at least)
    centred on it would overlap that base. What is left is what a disc lying alone shows from so
    high, so size alone decides, with all of its checks (a base's faint rim or a body in front, the
    outline past the far rim into change nothing else accounts for, a faint ring or skirt round it:
    a figure's top over a base the board's colour, its foot in front, is caught there as anywhere).
    ``_more_of_it_behind`` counts an outline running on into another disc as explained, alike.
    """
    if (blob.figure is not Evidence.UNKNOWN or not blob.stands_up or blob.apart_behind
            or blob.diameter_mm > _size_cut(settings) - SIZE_MARGIN_MM):
        return False
    flat_top = _flat_top_reach(camera, blob.x_mm, blob.y_mm)
    ax, ay = camera.away(blob.x_mm, blob.y_mm)
    for other in discs:
        if other is blob or _overlapping(blob, other):
            continue
        base = _base_carrying_change_on(other, settings)
        if base is None or _overlapping(blob, base):
            continue
        if math.hypot(base.x_mm - blob.x_mm, base.y_mm - blob.y_mm) >= _BASE_RADII_MM[0] + base.radius_mm:
            continue  # a fighter's base (the spec's smallest) centred on the disc would not overlap it
        # The stretch of the line away from the camera through the disc's centre where _stands_up
        # wants change past a flat top's reach: on the base, as its change mask reaches (2.5 mm past
        # its rim, as in _explained). Both ends suffice: a disc is convex.
        ends = (blob.radius_mm + flat_top, blob.radius_mm + flat_top + _STANDS_UP_PAST_MM)
        if all(math.hypot(blob.x_mm + ax * d - base.x_mm, blob.y_mm + ay * d - base.y_mm) < base.radius_mm + 2.5
               for d in ends):
            return True
    return False


def _base_carrying_change_on(other: Blob, settings: ArenaSettings) -> Blob | None:
    """The base ``other`` stands for, if its change runs on from its near rim as a base's own (the
    circle it stands on), or None: what can make a disc in front of it "stand up" from high above.

    A clear base (but for change in front of it) changed all over, one step from the board to its
    rim: its near rim carries the change on. Not a disc whose rim steps down to a fainter ring round
    a stronger middle (``tiered``): that is a figure's foot on a base close to the board's colour, or
    the faint ring of one; the base's faint front may not be in the change mask at all, so it carries
    nothing on, and what runs on to it from the disc in front is that disc's own (spec scene 70034: a
    fighter on S5 seen from 53 degrees, its figure leaning 18 mm on to the faint-ringed foot of a
    fighter behind it, ``tiered`` 0.88, measured 24.0 mm on OpenCV 5 and 24.6 mm on 4.11, either side
    of the clear base's size cut: the ring, not the size, decides). A fighter seen by its base's faint
    ring (the thirtieth pass) stands at that ring, a crisp base-sized outline wherever its figure's
    disc was fitted: its figure, over its base from high above, carries the change on there.
    """
    if other.base_ring is not None and classify(other, settings) is Kind.FIGHTER:
        return _placed_by_its_ring(other)
    if other.tiered >= MAX_TOKEN_TIERED or not _solid_base_but_for_change_ahead(other, settings):
        return None
    return other


def _more_of_it_in_front(blob: Blob, discs, camera: CameraPosition) -> bool:
    """Is a token-sized disc seen from high above joined to change just in front of its rim (towards
    the camera) that no other disc fitted there accounts for?

    Seen from so high that a figure stays over its base, a flat token is all there is of it: nothing
    of it lies nearer the camera than its front rim. A figure's top over a base the board's colour
    fits such a disc too, but its body stands under it, and shows nearer the camera the lower it is
    (190266: a figure's 14 mm top seen from 67 degrees, its body's change just in front of it).
    """
    if blob.figure is not Evidence.UNKNOWN or not blob.ahead_points:
        return False
    others = [d for d in discs if d is not blob]
    # Joined to the rim: on the band's nearest ring; and a body's width of it, not one point (a
    # speck of noise, or a shadow's edge at the band's side).
    joined = [p for p in blob.ahead_points
              if math.hypot(p[0] - blob.x_mm, p[1] - blob.y_mm) < blob.radius_mm + _AHEAD_NEAREST_MM + 1.0
              and not any(_on_token(p, other, camera) for other in others)]
    return len(joined) >= 2


def _more_of_it_behind(blob: Blob, discs, camera: CameraPosition) -> bool:
    """Does a token-sized disc seen from high above run on past its far rim, away from the camera,
    further than a flat token's top could show, into change no other disc fitted there accounts for?

    A flat token is all there is of it: its top, a few mm up, shows displaced away from the camera
    by that height's lean, and its far outline ends there. Something standing shows its upper part
    further away (250268: a 35 mm figure over a base the board's colour, seen from 69 degrees, its
    body and shoulders fitted as a 17.1 mm disc, the outline 4.5 mm past its far rim where a 6 mm
    token's top reaches 2.4 mm). The counterpart of ``_more_of_it_in_front``, for a figure whose
    near rim the fit took for the whole of it. A token lying against another disc fitted behind it
    runs on into that disc: explained.
    """
    if blob.figure is not Evidence.UNKNOWN or blob.apart_behind:
        return False  # (what lies beyond bare board behind it is no more of it: see ``_apart_behind``)
    flat_top = _flat_top_outline_reach(camera, blob.x_mm, blob.y_mm)
    if -blob.short_behind_mm <= flat_top:
        return False
    ax, ay = camera.away(blob.x_mm, blob.y_mm)
    past = (blob.x_mm + ax * (blob.radius_mm + flat_top), blob.y_mm + ay * (blob.radius_mm + flat_top))
    return not any(_on_token(past, other, camera) for other in discs if other is not blob)


def _foot_of_a_top_behind(blob: Blob, discs, camera: CameraPosition, view: BoardView, front_rim: "_FrontRimCheck",
                          search, settings: ArenaSettings) -> bool:
    """Is a token-sized disc joined to another disc ``classify`` takes for a token, lying behind it (on
    its line away from the camera) further off than any flat token's top could show, with no other disc
    between them, by change over the board's noise unbroken along most lines across their width?

    A token is flat and whole: the change it makes ends at its outline, its top's lean and its shadow;
    a second token lying behind it, apart from it, has bare board between them. A figure is one body
    from its foot to its top (see ``_apart_behind``): seen from low enough, over a base close to its
    space's colour, its foot may fit a token-sized disc and its top (lit from above) another one behind
    it, each flat by its look, its body between them too faint for the change mask yet unbroken over
    the board's noise (fresh 890222, 45 degrees up: a 13.1 mm "token" on S7 and a 19.7 mm one 36 mm
    behind it off the row, the body between at 2-4 times the board's noise; every change was then
    explained and S7 missed). Not enough to place a fighter by, but never a token: unsure. The gap must
    be longer than the mask's closing bridges (``_RISE_RUN_MM``) and than a token's own top reaches; a
    disc between them (a base behind a token), or a fighter behind placed by its base's faint ring (a
    token lying in front of that base: the sixty-eighth pass's scenes), is what joins them instead.
    """
    if blob.diameter_mm > _size_cut(settings) - SIZE_MARGIN_MM:
        return False
    least_gap = max(_flat_top_reach(camera, blob.x_mm, blob.y_mm), _RISE_RUN_MM)
    for top in discs:
        if top is blob or classify(top, settings) is not Kind.TOKEN or not _stands_behind(top, blob, camera):
            continue  # (a fighter behind, placed by its base's faint ring: its base is what joins them)
        dx, dy = top.x_mm - blob.x_mm, top.y_mm - blob.y_mm
        if math.hypot(dx, dy) - top.radius_mm - blob.radius_mm < least_gap:
            continue
        if any(other is not blob and other is not top
               and _distance_to_segment(other.x_mm - blob.x_mm, other.y_mm - blob.y_mm, dx, dy) < other.radius_mm
               for other in discs):
            continue
        if _body_between(blob, top, front_rim.smooth(), front_rim.ring_level(), view, search):
            return True
    return False


def _body_between(near: Blob, far: Blob, smooth, level: float, view: BoardView, search) -> bool:
    """Do most lines from disc ``near`` to disc ``far`` (``_BODY_LINE_SPACING_MM`` apart across the
    narrower one's width) run from one's rim to the other's with no ``FIGURE_BREAK_MM`` under ``level``
    in ``smooth``? A line leaving the view or where change is not looked for runs unbroken for nothing."""
    dx, dy = far.x_mm - near.x_mm, far.y_mm - near.y_mm
    apart = math.hypot(dx, dy)
    ux, uy = dx / apart, dy / apart
    half = min(near.radius_mm, far.radius_mm) - _BODY_LINE_SPACING_MM
    offsets = np.arange(-half, half + 0.01, _BODY_LINE_SPACING_MM)
    h, w = smooth.shape
    joined = 0
    for offset in offsets:
        start = math.sqrt(near.radius_mm ** 2 - offset ** 2)
        end = apart - math.sqrt(far.radius_mm ** 2 - offset ** 2)
        distances = np.arange(start, end, 1.0)
        u, v = view.to_px(near.x_mm + ux * distances - uy * offset, near.y_mm + uy * distances + ux * offset)
        ui, vi = np.round(u).astype(int), np.round(v).astype(int)
        if not ((ui >= 0) & (ui < w) & (vi >= 0) & (vi < h)).all() or (search is not None and not search[vi, ui].all()):
            continue
        if longest_run(smooth[vi, ui] < level) < FIGURE_BREAK_MM:
            joined += 1
    return joined >= _BODY_LINES_JOINED * len(offsets)


def _ahead_is_a_taken_base(blob: Blob, bases: list[Blob], camera: CameraPosition, settings: ArenaSettings) -> bool:
    """A crisp base left unsure only by change just in front of it, nearly all of it on bases
    already taken (a neighbour touching it on the camera's side)."""
    if not bases or blob.diameter_mm < _size_cut(settings) + SIZE_MARGIN_MM:
        return False
    if not _a_fighter_but_for_change_in_front(blob, settings):
        return False
    if _on_figure_line(blob, bases, camera):
        return False  # the top of that base's own figure, seen behind it
    left = [p for p in blob.ahead_points
            if not any(math.hypot(p[0] - b.x_mm, p[1] - b.y_mm) < b.radius_mm + 2.5 for b in bases)]
    return len(left) <= MAX_CHANGE_AHEAD * blob.ahead_looked


def _a_fighter_but_for_change_in_front(blob: Blob, settings: ArenaSettings) -> bool:
    """A crisp rim left unsure only by change just in front of it (towards the camera)."""
    return (blob.fit_error_mm <= CRISP_RIM_MM and blob.ahead > MAX_CHANGE_AHEAD
            and classify(replace(blob, ahead=0.0), settings) is Kind.FIGHTER)


def _overlapping(a: Blob, b: Blob) -> bool:
    """Do two fitted discs overlap by more than fitting error (so they cannot be two things)?"""
    return math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) < a.radius_mm + b.radius_mm - BASE_OVERLAP_MM


def _stands_behind(back: Blob, front: Blob, camera: CameraPosition) -> bool:
    """Is ``back`` apart from ``front`` and on its line away from the camera, within a figure's reach?"""
    if _overlapping(back, front):
        return False
    ax, ay = camera.away(front.x_mm, front.y_mm)
    dx, dy = back.x_mm - front.x_mm, back.y_mm - front.y_mm
    along = dx * ax + dy * ay
    reach = math.hypot(*camera.lean(front.x_mm, front.y_mm, MAX_FIGURE_MM)) + back.radius_mm
    return 0 < along < reach and abs(dx * ay - dy * ax) < back.radius_mm + front.radius_mm


def _on_token(point, token: Blob, camera: CameraPosition) -> bool:
    """Is a point on a flat token: its disc, or its top shown displaced away from the camera?"""
    lx, ly = camera.lean(token.x_mm, token.y_mm, MAX_TOKEN_THICKNESS_MM)
    return _distance_to_segment(point[0] - token.x_mm, point[1] - token.y_mm, lx, ly) < token.radius_mm + 2.5


def _stands_off_the_spaces(blob: Blob, bases, geometry: BoardGeometry, camera: CameraPosition) -> bool:
    """A standing disc (a figure's foot) clear of every space, and no part of a taken fighter."""
    if not (blob.stands_up or blob.figure is Evidence.YES) or _explained(blob, bases, camera):
        return False
    return _off_the_spaces(blob, geometry)


def _standing_in_for(missing: int, blobs, bases, geometry: BoardGeometry, camera: CameraPosition,
                     settings: ArenaSettings) -> list[Blob]:
    """Fighters known to be there but not taken as bases: placed by a standing disc.

    A base the colour of the board barely changes the view, but the figure standing at its
    middle does: a disc too small for a base, or a base whose faint rim fits less crisply,
    with change running on away from the camera (a figure) or a figure behind it. Its centre
    is the figure's foot, the base's middle. Taken only when exactly ``missing`` such discs
    are found, apart from every taken base and from each other, and nothing else stands up apart
    from them: a figure's top whose foot cannot be placed (more of it nearer the camera) is a
    standing thing too, and may be the fighter missing.
    """
    discs = [b for b in blobs if is_disc(b, settings)]
    standing: list[Blob] = []
    unplaced: list[Blob] = []  # standing things whose foot is not seen: figures' tops
    # Base-like discs first (their centre is the base's), then the rest nearest the camera
    # first: a figure's own top, behind its foot, is then on a taken candidate's figure line.
    for blob in sorted(blobs, key=lambda b: (not _base_like(b, settings), _distance_to_camera(b.peak_mm, camera))):
        # Clear of every space, where taking it never changes ``occupied``, a standing disc may
        # measure up to the spec's largest base + slack; on a space no wider than a clear base
        # (two touching tokens with a figure behind them measure some 31 mm).
        widest = _widest_base(settings) if _off_the_spaces(blob, geometry) else settings.base_mm + CLEAR_BASE_SLACK_MM
        widened = _widened_round_base(blob, geometry, settings)  # (one round rim: a base's, widened; no token pair's)
        if blob.fit_error_mm > STANDING_RIM_ERROR_MM or (blob.diameter_mm > widest and not widened):
            continue
        base_like = _base_like(blob, settings) or widened
        if not (base_like or blob.stands_up or blob.figure is Evidence.YES) or classify(blob, settings) is Kind.TOKEN:
            continue
        if not base_like and blob.ahead > MAX_CHANGE_AHEAD and not _stands_on_its_own(blob, geometry):
            unplaced.append(blob)
            continue  # more of the thing nearer the camera: a figure's top, its foot unseen
        if _explained(blob, bases, camera) and not _stands_on_its_own(blob, geometry):
            continue
        if not _on_the_board(blob, geometry):
            continue
        if _near_any(blob, bases + standing):
            continue  # the same thing fitted again, or part of a taken fighter
        if blob.broken_behind:
            # What stands up behind it starts apart from it (``_breaks_behind``): it, or what stands
            # there, is the fighter counted, and which cannot be told (the eighty-fifth pass).
            return []
        if _on_figure_line(blob, standing, camera):
            if _standing_on_its_own_behind_one_on_a_space(blob, standing, geometry, camera):
                return []  # a fighter of its own, or that candidate's figure: which one is counted cannot be told
            continue  # the top of a candidate's own figure
        if not base_like and _fighter_behind_on_another_space(blob, geometry, camera, settings):
            return []  # its own foot, or a token's in front of the fighter: which space it is on cannot be told
        if _seen_base_behind_on_another_space(blob, discs, bases, geometry, camera, settings):
            return []  # it, or the base behind it, is the fighter: which one cannot be told
        if _solid_base_overlapping_behind_on_another_space(blob, discs, bases, geometry, camera, settings):
            return []  # two solid discs overlapping: one is no base, and which one cannot be told
        if _ragged_foot_in_front_on_another_space(blob, blobs, bases, geometry, camera):
            return []  # its own foot, or a figure of the foot in front: which space it is on cannot be told
        standing.append(blob if base_like else replace(blob, figure_only=True))
    # A top that is no part of a fighter taken (a base or a stand-in: on it or its figure line) stands
    # somewhere unplaced. Then which of them all is the fighter missing cannot be told (220583: two
    # overlapping tokens stand up as a foot would, and the missing fighter's own top stood elsewhere).
    apart = [top for top in unplaced
             if not _explained(top, bases, camera) and not _on_figure_line(top, standing, camera)
             and not _near_any(top, bases + standing)]
    if standing and any(_apart_behind_a_stand_in_on_a_space(b, standing, bases, geometry, camera, settings)
                        for b in blobs):
        return []  # the candidate, or a thing apart from it off every space: which is counted cannot be told
    return standing if len(standing) == missing and not apart else []


def _figures_apart_behind_stand_ins(stand_ins: list[Blob], bases, tokens, mask, view: BoardView,
                                    geometry: BoardGeometry, camera: CameraPosition,
                                    markers_found=None) -> list[FirmDoubt]:
    """The doubts of a fighter taken for the count on a space (a stand-in, or a disc let pass by the count as
    a fighter's foot: ``taken_by_count``) with something standing apart from it, on another space or on none
    (the ninety-fifth pass), behind it: see ``_change_apart_from``."""
    return _apart_behind_doubts(stand_ins, bases, tokens, mask, view, geometry, camera, markers_found)


def _apart_behind_doubts(stand_ins: list[Blob], bases, tokens, mask, view: BoardView, geometry: BoardGeometry,
                         camera: CameraPosition, markers_found=None) -> list[FirmDoubt]:
    """A doubt for each of ``stand_ins`` with change standing apart behind it (``_change_apart_from``)."""
    doubts = []
    for stand_in in stand_ins:
        behind = _change_apart_from(stand_in, [b for b in bases if b is not stand_in], tokens, mask, view,
                                    geometry, camera, markers_found=markers_found)
        if behind is not None:
            doubts.append(FirmDoubt(f"the object at ({stand_in.x_mm:.0f}, {stand_in.y_mm:.0f}) mm may be a token "
                                    f"stack, and what stands apart behind it at ({behind[0]:.0f}, {behind[1]:.0f}) mm "
                                    "the fighter counted"))
    return doubts


def _figures_apart_behind_unseen_figures(bases: list[Blob], counted_in: list[Blob], tokens, mask, view: BoardView,
                                         geometry: BoardGeometry, camera: CameraPosition,
                                         markers_found=None) -> list[FirmDoubt]:
    """With the count, the doubts of a fighter taken by its ring (not for the count) whose figure is not seen
    joined to it (not ``Evidence.YES``), with change standing apart behind it (the ninety-eighth pass).

    Such a disc is a fighter by its ring alone (a fainter ring round a stronger middle standing up, read as a
    base the board's colour round its figure: ``_ringed_base``), which a faint token under a vivid one resting
    off it away from the camera shows too; change apart behind it is no figure of its own
    (a figure rises from its base's middle as one body), so something stands there, off the row or on another
    space, and it may be the one fighter counted: the same question as a stand-in's (``_change_apart_from``).
    A disc whose figure is seen joined to it is a fighter whatever stands behind it, and so is a solid one
    taken on its size (no ring: used 900229, 900243, 995346, real fighters with change apart behind). Asked
    only where the bases taken meet the count: with one short, what stands apart may be the one missing (used
    920013: a fighter on S8, the other off the row behind it; a doubt by the count already)."""
    by_ring = [b for b in bases
               if b.figure is not Evidence.YES and _ringed_base(b) and not any(b is c for c in counted_in)]
    return _apart_behind_doubts(by_ring, bases, tokens, mask, view, geometry, camera, markers_found)


def _change_apart_from(stand_in: Blob, others, tokens, mask, view: BoardView, geometry: BoardGeometry,
                       camera: CameraPosition, *, markers_found=None) -> tuple[float, float] | None:
    """Where (board mm, its end nearest the camera) change stands apart behind a stand-in on a space, on
    another space or on none, that no taken base, its figure or a token accounts for; None if there is none.

    A fighter is a figure rising from its base's middle: all the change its figure makes is joined to the
    base's own. Change behind the stand-in with bare board all round it, joined to no fighter taken and no
    token, is no part of a figure on it; where nothing else accounts for it, something stands there of its
    own: a fighter whose base does not change the view (the board's colour), its figure seen alone. Off
    every space such change raises no doubt, for it changes no space; but with the count, were it the
    fighter counted, the stand-in would be none. The count says how many fighters there are, not which of
    the two it counts, and the stand-in may be something flat (two tokens resting one on the other fitted
    23-26 mm, crisp and solid, as a base: the ``gap-behind-board`` built set, the fighter 3-6 mm behind them
    off the row, its figure fitted to no disc or to a ragged one, so ``_apart_behind_a_stand_in_on_a_space``
    never asks it). Behind: its figure corridor run on by the widest base, where the figure of a fighter
    standing right behind it shows (seen from 74-80 degrees up, past the stand-in's own corridor). Not change
    that meets a covered marker as a hand over it does (``_a_hand_over_a_covered_marker``: the ninety-eighth pass).
    """
    own = geometry.space_at(stand_in.x_mm, stand_in.y_mm)
    if own is None:
        return None
    ppm = view.px_per_mm
    count, labels = cv2.connectedComponents((mask > 0).view(np.uint8), connectivity=8)
    if count <= 2:
        return None
    joined = np.zeros(mask.shape, np.uint8)
    for disc in [stand_in, *others, *tokens]:
        cv2.circle(joined, _px(view, disc.x_mm, disc.y_mm), int(round(disc.radius_mm * ppm)), 1, -1)
    behind = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(behind, _figure_corridor(view, camera, stand_in, past_mm=LARGEST_BASE_MM), 1)
    left = (labels > 0) & (behind > 0) & (_explained_mask(mask, view, camera, others, tokens) == 0)
    left &= ~np.isin(labels, np.unique(labels[joined > 0]))  # a taken fighter's figure or a token's shade
    ax, ay = camera.away(stand_in.x_mm, stand_in.y_mm)
    for label in np.unique(labels[left]):
        vs, us = np.nonzero(left & (labels == label))
        if len(vs) < _UNEXPLAINED_AREA_MM2 * ppm * ppm:
            continue
        if _a_hand_over_a_covered_marker(labels == label, view, geometry, markers_found, camera):
            continue
        xs, ys = view.to_mm(us.astype(float), vs.astype(float))
        near = int(np.argmin((xs - stand_in.x_mm) * ax + (ys - stand_in.y_mm) * ay))
        if geometry.space_at(float(xs[near]), float(ys[near])) != own:
            return float(xs[near]), float(ys[near])
    return None


def _a_hand_over_a_covered_marker(region: np.ndarray, view: BoardView, geometry: BoardGeometry, markers_found,
                                  camera: CameraPosition) -> bool:
    """Does a changed region (bool mask) meet a marker not found as a hand over it does (``reaches_covered_marker``)?

    A marker not found is covered, by a hand most often; what of the hand lies on the board is cut off by the
    square kept out round the marker and has no shape of its own to read: it is no figure standing apart (used
    920138: a crescent round marker 11's square, 57 mm behind the count's stand-in on S8). A figure beside
    the marker meets the square only as wide as itself, and is still asked."""
    if markers_found is None:
        return False
    return reaches_covered_marker(region, view, geometry, markers_found, camera) is not None


def _on_the_board(blob: Blob, geometry: BoardGeometry) -> bool:
    """Does the whole disc lie on the board (no fighter stands off it)?"""
    w, h = geometry.board_mm
    return abs(blob.x_mm) <= w / 2 - blob.radius_mm and abs(blob.y_mm) <= h / 2 - blob.radius_mm


def _apart_behind_a_stand_in_on_a_space(blob: Blob, standing: list[Blob], bases, geometry: BoardGeometry,
                                        camera: CameraPosition, settings: ArenaSettings) -> bool:
    """Is the blob something of its own off every space, apart from a would-be stand-in on a space, and
    not a token by its own look (the seventieth pass)?

    ``_standing_in_for`` passes over what lies on a candidate's figure line as the top of the
    candidate's own figure, and a flat thing as a token. But a figure rises from its base without a gap:
    the band just in front of any part of it (towards the camera) is more of that figure, or, seen from
    high above, the base it stands on. A fitted disc with that band bare (nothing of it nearer the camera: at most
    ``MAX_CHANGE_AHEAD`` changed, the share a base's own rim allows) is apart from the candidate: a
    token lying off the row, or the top of a fighter whose base (the board's or the spaces' colour) is
    not seen. The count says how many fighters there are, not which of the two it is; where the
    candidate is on a space and this is on none, taking the candidate would be a guess (two tokens
    resting one on the other on S6, the fighter 0.5 mm behind them off the row on a base the spaces'
    colour: the ``resting-behind`` built set, 61-80 degrees up; seen from 80 degrees the fighter's top
    is a flat disc in a changed region of its own, so where it lies is not asked, only that it is off
    every space and on the board). A doubt only: nothing is taken by it.
    """
    if (blob.fit_error_mm > STANDING_RIM_ERROR_MM or blob.diameter_mm > _widest_base(settings)
            or not blob.ahead_looked or blob.ahead > MAX_CHANGE_AHEAD or not _off_the_spaces(blob, geometry)
            or _near_any(blob, bases + standing) or _explained(blob, bases, camera)):
        return False
    if not (blob.stands_up or blob.figure is Evidence.YES or (is_disc(blob, settings)
                                                              and classify(blob, settings) is not Kind.TOKEN)):
        return False  # a token by its own look
    if not _on_the_board(blob, geometry):
        return False  # no fighter stands there
    return any(geometry.space_at(s.x_mm, s.y_mm) is not None for s in standing)


def _fighter_behind_on_another_space(blob: Blob, geometry: BoardGeometry, camera: CameraPosition,
                                     settings: ArenaSettings) -> bool:
    """Could a token-sized standing disc be a token lying in front of the missing fighter, whose base
    (the board's colour, unseen) touches it from behind on a space other than the disc's own?

    A flat token changes the view as this disc does; what makes it stand up may be the figure of a
    fighter right behind it, on its line away from the camera, whose base does not change the view.
    Seen from low (36-44 degrees), a 15-22 mm token lying so measures as a fighter's base fitted
    token-sized does (crisp, solid, one step, the figure plainly behind it, standing up, nothing
    ahead: the thirty-seventh pass's built scenes and seed 450010). The count says a fighter is there,
    not which of the two places it stands on: where they lie on different spaces (or one on none),
    the stand-in would guess. The places behind: the disc's radius, a spec base's radius (25-28 mm)
    and the contact's slack along that line, and a figure's lean either side of it.
    """
    if blob.diameter_mm > _size_cut(settings) - SIZE_MARGIN_MM:
        return False  # no token is this wide
    own = geometry.space_at(blob.x_mm, blob.y_mm)
    ax, ay = camera.away(blob.x_mm, blob.y_mm)
    for along in (blob.radius_mm + radius for radius in _BEHIND_BASE_RADII_MM):
        for side in (-_FIGURE_LEAN_MM, 0.0, _FIGURE_LEAN_MM):
            x, y = blob.x_mm + ax * along - ay * side, blob.y_mm + ay * along + ax * side
            if geometry.space_at(x, y) != own:
                return True
    return False


def _standing_on_its_own_behind_one_on_a_space(blob: Blob, standing: list[Blob], geometry: BoardGeometry,
                                               camera: CameraPosition) -> bool:
    """Is a disc standing on its own off the spaces on the figure line of a would-be stand-in on a space?

    Standing on its own it is no figure's top (nothing stands behind a top): a fighter off the spaces,
    or that stand-in's figure after all. Either may be the fighter counted (two resting tokens standing
    up by the figure of a fighter behind them, its base the spaces' colour, 55-67 degrees up), and they
    lie on different spaces: taking the one in front would be a guess.
    """
    return _stands_on_its_own(blob, geometry) and any(
        geometry.space_at(s.x_mm, s.y_mm) is not None for s in standing if _on_figure_line(blob, [s], camera))


def _seen_base_behind_on_another_space(blob: Blob, discs, bases, geometry: BoardGeometry, camera: CameraPosition,
                                       settings: ArenaSettings) -> bool:
    """Does a base not taken stand right behind a would-be stand-in, where its figure should show
    (``_base_behind``: a clear base but for the change in front of it), on another space or on none?

    Either may be the fighter missing: the disc with its figure shown by that change, or the base
    behind with the disc in front of it something flat (two tokens resting one on the other, standing
    up by that fighter's figure, seen from 55-80 degrees: the thirty-fifth pass's built set, whose
    fighter stands off the row). The count says how many fighters there are, not which of the two
    places one stands on; where they lie on different spaces, taking the disc would be a guess. (A base
    taken is a fighter counted already: the disc in front is then no question of which.)

    Only seen from so high that a figure stays over its base (``Evidence.UNKNOWN``): a solid disc
    right behind it is then no part of its figure but a base of its own. Seen from lower, a figure
    leans past its base and may itself be fitted as such a disc (spec scene 12393, 39 degrees up: a
    fighter's figure behind its S3 base fitted a crisp 27.3 mm disc), which says nothing of a second fighter.

    A fighter's base behind has its figure on it: the disc stands up. One that does not may be a flat
    token lying there, fitted base-sized under the figure's top (72 degrees up, a 22 mm token against a
    fighter fitted 25.0 mm: test_arena_twentyninth_pass), which offers the fighter no second place.
    """
    if blob.figure is not Evidence.UNKNOWN:
        return False
    behind = _base_behind(blob, discs, camera, settings)
    if behind is None or not (behind.stands_up or behind.runs_on_behind) or any(
            _overlapping(behind, b) or _near_any(behind, [b]) for b in bases):
        return False
    return geometry.space_at(behind.x_mm, behind.y_mm) != geometry.space_at(blob.x_mm, blob.y_mm)


def _solid_base_overlapping_behind_on_another_space(blob: Blob, discs, bases, geometry: BoardGeometry,
                                                    camera: CameraPosition, settings: ArenaSettings) -> bool:
    """Does a clear, solid base not taken overlap a would-be stand-in from behind, by more than fitting
    error, on another space or on none (``_overlapping_base_behind``, asked of a stand-in as
    ``select_bases`` asks it of a disc taken as a fighter)?

    Two solid bases cannot overlap, so one of the two fits is no base: the stand-in's figure fitted as a
    disc behind it, or, the disc behind being the fighter, the stand-in something flat lying in front of
    it (two tokens resting one on the other, fitted 28.6-30.0 mm, 5.4-6.9 mm into the base of a fighter
    standing off the row 0.5 mm behind them: the ``resting-behind`` built set, 55-67 degrees up). The
    count says how many fighters there are, not which of the two places one stands on. ``_base_behind``
    skips a base overlapping the disc (one's own figure fitted as a disc overlaps its base), so
    ``_seen_base_behind_on_another_space`` never asks it; and such a disc, left unsure by its size or its
    look, was never asked ``_overlapping_base_behind`` either. (A base taken is a fighter counted already.)
    """
    behind = _overlapping_base_behind(blob, discs, camera, settings)
    if behind is None or any(_overlapping(behind, b) or _near_any(behind, [b]) for b in bases):
        return False
    return geometry.space_at(behind.x_mm, behind.y_mm) != geometry.space_at(blob.x_mm, blob.y_mm)


def _ragged_foot_in_front_on_another_space(blob: Blob, blobs, bases, geometry: BoardGeometry,
                                           camera: CameraPosition) -> bool:
    """Does a would-be stand-in lie where the figure of a standing foot nearer the camera shows, that
    foot too ragged to be placed, and on another space than the stand-in or on none?

    A figure rises from its foot and shows, seen from the camera, on the foot's line away from it:
    change of a figure's width, running on, standing up, with the rest of the figure in front of any
    part of it. A disc fitted on a figure's middle measures as a foot there does (token-sized, the
    figure behind it, standing up), and where the figure is narrower than the disc, the band just in
    front of its rim is mostly bare (``ahead`` under ``MAX_CHANGE_AHEAD``): nothing says it is no foot.
    What does is the foot itself, nearer the camera in the same changed region, with nothing of it in
    front of it and standing up: on a base close to the board's colour its rim fit takes the figure's
    foot and the base's faint edge together and is ragged (over ``STANDING_RIM_ERROR_MM``), so it is
    no candidate of its own. (Spec scene 487058, touching tokens, numpy 2 + OpenCV 5.0: a fighter off
    the row in front of S5 on a base 27 mm the board's pink, seen from 42 degrees up, its 44 mm figure
    over S5 fitted a 15.4 mm disc standing up, 0.38 of the band ahead changed; its foot fitted 23 mm,
    rim error 3.2 mm, the base's faint ring 28.8 mm round the true base.) The count says a fighter is
    there, not whether it is the disc or the foot in front: where they lie on different spaces (or
    one on none), taking the disc would be a guess. A foot is placed at its base's faint ring where
    one was found (``base_ring``), else at its fitted centre.
    """
    own = geometry.space_at(blob.x_mm, blob.y_mm)
    for foot in blobs:
        if (foot is blob or foot.fit_error_mm <= STANDING_RIM_ERROR_MM or foot.region != blob.region
                or not (foot.stands_up or foot.figure is Evidence.YES) or foot.ahead > MAX_CHANGE_AHEAD
                or _explained(foot, bases, camera)):
            continue
        placed = _placed_by_its_ring(foot) if foot.base_ring is not None else foot
        if geometry.space_at(placed.x_mm, placed.y_mm) == own:
            continue
        if _on_figure_line(blob, [foot], camera) or _on_figure_line(blob, [placed], camera):
            return True
    return False


def _near_any(blob: Blob, fighters: list[Blob]) -> bool:
    """Within 15 mm of a fighter taken (a base's or a stand-in's centre): the same thing fitted
    again, or part of that fighter."""
    return any(math.hypot(blob.x_mm - b.x_mm, blob.y_mm - b.y_mm) < 15.0 for b in fighters)


def _base_like(blob: Blob, settings: ArenaSettings) -> bool:
    """A crisp rim of a base's size, with nothing against a figure on it: a base, though some
    other sign left it unsure (change just in front of it, a base the board's colour that
    changed only its ring, a figure leaning where it cannot be seen)."""
    return (
        blob.fit_error_mm <= CRISP_RIM_MM
        and _size_cut(settings) + SIZE_MARGIN_MM <= blob.diameter_mm <= settings.base_mm + CLEAR_BASE_SLACK_MM
        and blob.figure is not Evidence.NO
    )


def _widest_base(settings: ArenaSettings) -> float:
    """The widest a fighter known to be missing may measure clear of every space (mm)."""
    return max(settings.base_mm, LARGEST_BASE_MM) + CLEAR_BASE_SLACK_MM


#: A widened base's near rim is one circle: the circles its two halves fit lie at most this far apart (mm; the
#: ninety-seventh pass: bases widened to 30.4-31.5 mm, 1.1-1.6; two overlapping tokens fitted 30-31 mm, 3.3 or more).
HALVES_APART_MM = 2.0
#: ... and each half's radius is a base's (12.5 mm and more, widened past 15), 2.5 mm past the largest token's (11
#: mm): a half of two tokens' rim is one token's arc (measured 7.7-13.0 mm; the bases' 14.3-16.7).
HALF_RADIUS_MM = 13.5


def _near_rim_halves(difference, mask, view: BoardView, camera: CameraPosition, radius: float, seed, disc):
    """For the disc (x, y, r) fitted from ``seed`` (u, v): its rim points found again (``_rim_points``), those
    the whole fit keeps (within 1 mm, or 2.5 median errors, of its circle) split at the ray towards the
    camera, each half fitted a circle (``_robust_circles``): (how far apart their centres lie, the smaller
    radius), in mm. None where the points fit another disc than ``disc`` or a half has under six points."""
    xs, ys, good, _ = _rim_points(difference, mask, view, [seed], camera, radius)
    whole = _robust_circles(xs, ys, good)[0]
    if whole is None:
        return None
    cu, cv, r, _ = whole
    x, y = view.to_mm(cu * view.px_per_mm, cv * view.px_per_mm)
    if math.hypot(x - disc[0], y - disc[1]) > _AGREE_MM or abs(r - disc[2]) > _AGREE_MM:
        return None  # (refitted from the middle of its rim, or as a base past a neighbour: not this seed's)
    off = np.abs(np.hypot(xs[0] - cu, ys[0] - cv) - r)
    kept = good[0] & (off < max(1.0, 2.5 * float(np.median(off[good[0]]))))
    middle = len(_RAY_ANGLES) // 2
    rays = np.arange(len(_RAY_ANGLES))
    halves = np.array([kept & (rays < middle), kept & (rays > middle)])
    if halves.sum(axis=1).min() < 6:
        return None
    fits = _robust_circles(np.broadcast_to(xs[0], halves.shape), np.broadcast_to(ys[0], halves.shape), halves)
    if None in fits:
        return None
    (au, av, ar, _), (bu, bv, br, _) = fits
    return math.hypot(au - bu, av - bv), min(ar, br)


def _widened_round_base(blob: Blob, geometry: BoardGeometry, settings: ArenaSettings) -> bool:
    """A crisp disc on a space wider than a clear base (``base_mm`` + ``CLEAR_BASE_SLACK_MM``) and up to the
    widest base (``_widest_base``), nothing against a figure on it, whose near rim is one circle: its two
    halves fit circles with one centre, each wider than a token's (``_near_rim_halves``).

    Why: on a space the limit is a clear base's because two overlapping tokens with a figure behind them
    fit some 31 mm. A base is one round rim; a shadow round its foot or its blur widens all of it alike
    (the eighty-second pass), so both halves of its near arc still lie on one circle. Two tokens' near
    arc is two arcs of a token's radius (at most 11 mm), each half one token's, their centres apart by
    the tokens' offset. The near arc is the one nothing standing on a base hides.
    Not off the spaces, where the widest base is the limit already: a hand's edge there (used 920155, a hand
    over marker 10, 36 degrees up) fitted a 31.5 mm disc whose halves lie 0.8 mm apart. A round near rim is
    no sign of a base where a hand may be; on a space it parts a base from two tokens only."""
    return (blob.near_halves is not None and blob.fit_error_mm <= CRISP_RIM_MM and not _off_the_spaces(blob, geometry)
            and settings.base_mm + CLEAR_BASE_SLACK_MM < blob.diameter_mm <= _widest_base(settings)
            and blob.figure is not Evidence.NO
            and blob.near_halves[0] <= HALVES_APART_MM and blob.near_halves[1] >= HALF_RADIUS_MM)


def _rimless_glow(linear: np.ndarray | DifferenceByRows, view: BoardView, camera: CameraPosition, x: float, y: float,
                  r: float) -> bool:
    """Is the change of the crisp base-sized disc at (x, y), radius ``r``, a smooth brightening of every
    channel with no rim: a lamp's highlight, not a solid?

    A fighter is a solid: where its base meets the board the change steps down to the board's noise within
    the outline's blur, whatever the base's colour (a base the board's colour is its faint ring, a rim too:
    ``_ringed_base`` takes it first). A glossy board's highlight is light added: every channel rises
    towards white, fading over tens of mm. Where it moved since the reference (the lamp or the camera moved:
    "the light may have changed"), the change mask and the disc fitter can still find a base-sized disc in it
    (the ninety-ninth pass's 1000277: a 28.5 mm "base" on S9, its rest behind taken for a figure). On the rays
    facing the camera (where no figure stands) the change must lose ``_RIM_STEP_SHARE`` of its level from the
    band inside the rim to the band outside (``_RIM_BAND_MM``); where it does not, and every channel there is
    brighter than the reference's under the new light, it is no base by its rim: unsure (a doubt at most).
    """
    _, steps, map_u, map_v = _facing_ray_maps(view, camera, x, y, _RAY_STEP_MM)
    near, far = _RIM_BAND_MM
    inside = (steps >= r - far) & (steps <= r - near)
    outside = (steps >= r + near) & (steps <= r + far)
    profiles = _along_rays(linear, map_u, map_v)
    level = profiles[:, inside].mean(axis=1)
    drop = (level - profiles[:, outside].mean(axis=1)) / np.maximum(level, 1e-3)
    if float(np.median(drop)) >= _RIM_STEP_SHARE or not isinstance(linear, DifferenceByRows):
        return False
    live, relit = linear.colours()  # (only here: a disc with no rim is rare)
    band = np.ascontiguousarray(map_u[:, inside]), np.ascontiguousarray(map_v[:, inside])
    return bool(np.all(np.median((cv2.remap(live, *band, cv2.INTER_LINEAR)
                                  / np.maximum(cv2.remap(relit, *band, cv2.INTER_LINEAR), 1e-3)).reshape(-1, 3),
                                 axis=0) > 1.0))


def _off_the_spaces(blob: Blob, geometry: BoardGeometry) -> bool:
    """Is the disc's centre clear of every space (``OFF_SPACE_MM`` or more)?"""
    return geometry.space_at(blob.x_mm, blob.y_mm) is None and geometry.edge_distance(blob.x_mm, blob.y_mm) >= OFF_SPACE_MM


def _stands_on_its_own(blob: Blob, geometry: BoardGeometry) -> bool:
    """A crisp standing disc with its own figure behind it, clear of every space: a fighter
    standing behind another's figure, not that figure's top (nothing stands behind a top).
    Clear of the spaces, taking it never changes ``occupied``."""
    return (blob.fit_error_mm <= CRISP_RIM_MM and blob.figure is Evidence.YES and blob.stands_up
            and blob.ahead <= STANDING_CHANGE_AHEAD and _off_the_spaces(blob, geometry))


def _hidden_spaces(mask, view: BoardView, geometry: BoardGeometry, camera: CameraPosition, bases, cover: FigureCover,
                   solids):
    """Spaces behind a fighter, inside its figure's corridor, where something changed.

    A fighter standing behind another, seen from the camera, hides behind its figure: the
    change there is explained by that figure, so no base can be told apart. Say so, unless
    no fighter can stand anywhere on the space unseen (see :mod:`vision.arena.hiding`): no
    base overlaps the ``solids`` seen (discs whose rim was fitted: bases and tokens; a fighter
    placed by its figure's foot has no rim to go by).
    """
    for base in bases:
        ax, ay = camera.away(base.x_mm, base.y_mm)
        reach = math.hypot(*camera.lean(base.x_mm, base.y_mm, MAX_FIGURE_MM)) + base.radius_mm
        for space_id, (sx, sy) in geometry.spaces.items():
            dx, dy = sx - base.x_mm, sy - base.y_mm
            along = dx * ax + dy * ay
            lateral = abs(dx * ay - dy * ax)
            if not (base.radius_mm < along < reach + base.radius_mm and lateral < FIGURE_HALF_WIDTH_MM + 0.15 * along):
                continue
            if (_disc_coverage(mask, view, sx, sy, _HIDDEN_CHECK_MM) >= 0.3
                    and cover.room(sx, sy, solids=solids, by_base=False)):
                yield space_id, base


def _room_for_one_more(cover: FigureCover, geometry: BoardGeometry, camera: CameraPosition, settings: ArenaSettings,
                       solids, area) -> bool:
    """Could a fighter that changed the ``area`` (x_mm, y_mm, reach_mm) stand on a space, not
    taken for one?

    A fighter changes the view round its base and along its figure, away from the camera: a
    fighter on a space further from the area than that reaches cannot have changed it. And
    every fighter changes the view all along its figure's body, or else over its base (see
    :mod:`vision.arena.hiding`): a space where no place not taken by a base or token seen has
    that change holds no further fighter, whatever else changed on it.
    """
    x, y, reach = area
    half = geometry.space_mm / 2
    for space_id, (sx, sy) in geometry.spaces.items():
        # The farthest a fighter on this space changes the view from its centre: its base,
        # and its tallest figure, leaning from the space's far side, a figure's width across.
        lean = max(math.hypot(*camera.lean(sx + dx, sy + dy, MAX_FIGURE_MM))
                   for dx in (-half, half) for dy in (-half, half))
        footprint = _widest_base(settings) / 2 + lean + FIGURE_HALF_WIDTH_MM
        apart = math.hypot(max(abs(x - sx) - half, 0.0), max(abs(y - sy) - half, 0.0))
        if apart <= footprint + reach and cover.room(sx, sy, solids=solids):
            return True
    return False


def _unexplained(mask, view: BoardView, geometry: BoardGeometry, camera: CameraPosition, bases, tokens, *,
                 explained: np.ndarray | None = None):
    """Changed areas on or near a space that no base, figure or token accounts for: each
    (x_mm, y_mm, reach_mm), its centre and how far from it the area reaches. ``explained``:
    ``_explained_mask`` of these bases and tokens, if the caller has it already."""
    if explained is None:
        explained = _explained_mask(mask, view, camera, bases, tokens)
    ppm = view.px_per_mm
    # Only change on a space counts: the rest works on the spaces' bounding box (a fraction of
    # the view), with a margin of unchanged board for the opening below, and its corner on
    # even pixels so the labelling meets the areas in the same order as on the whole view.
    half = geometry.space_mm / 2 + _SPACE_WATCH_MARGIN_MM
    spaces = [view.rect_mask(sx - half, sy - half, sx + half, sy + half) for sx, sy in geometry.spaces.values()]
    h, w = mask.shape
    v0 = max(0, min(rows.start for rows, _ in spaces) - 2) & ~1
    u0 = max(0, min(cols.start for _, cols in spaces) - 2) & ~1
    v1 = min(h, max(rows.stop for rows, _ in spaces) + 2)
    u1 = min(w, max(cols.stop for _, cols in spaces) + 2)
    near_spaces = np.zeros((v1 - v0, u1 - u0), bool)
    for rows, cols in spaces:
        near_spaces[rows.start - v0:rows.stop - v0, cols.start - u0:cols.stop - u0] = True
    left = (mask[v0:v1, u0:u1] > 0) & (explained[v0:v1, u0:u1] == 0) & near_spaces
    left = cv2.morphologyEx(left.view(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # Areas, centroids and reaches counted from the labelled pixels: connectedComponentsWithStats
    # costs several times as much, and has no reach.
    count, labels = cv2.connectedComponents(left, connectivity=8)
    if count <= 1:
        return []
    vs, us = _nonzero(labels)
    label = labels[vs, us]
    us, vs = us + u0, vs + v0
    area = np.bincount(label, minlength=count)
    centre_u = np.bincount(label, weights=us, minlength=count) / np.maximum(area, 1)
    centre_v = np.bincount(label, weights=vs, minlength=count) / np.maximum(area, 1)
    # Each area's farthest pixel from its centre: the pixels grouped by area, one reduction.
    by_area = np.argsort(label, kind="stable")
    distances = np.hypot(us - centre_u[label], vs - centre_v[label])[by_area]
    reaches = np.maximum.reduceat(distances, np.cumsum(area)[:-1])
    places = []
    for i in range(1, count):
        if area[i] < _UNEXPLAINED_AREA_MM2 * ppm * ppm:
            continue
        places.append((*view.to_mm(centre_u[i], centre_v[i]), float(reaches[i - 1]) / ppm))
    return places


def _solids(discs) -> list[tuple[float, float, float]]:
    """(x, y, radius) mm of the discs a body cannot stand in: every one but a figure's top seen alone."""
    return [(d.x_mm, d.y_mm, d.radius_mm) for d in discs if not d.figure_only]


def _but_for_figure_parts(mask, view: BoardView, camera: CameraPosition, bases, standing, tokens, solids,
                          explained: np.ndarray):
    """What ``_figures_past_the_outlines`` tests a body against: (the fighters and standing things, the
    solids, the explained mask), with the discs fitted narrower than any token (``_LEAST_TOKEN_FIT_MM``)
    left out of all three (the ninety-second pass).

    Such a disc is no token and no base: it is part of a figure, its top or its foot. Taken for a token
    (flat, a solid) or for a fighter's foot off the row (its figure corridor explaining the change
    behind it), the top of a lone fighter's figure on a space's back corner explains the change the
    body test asks about, and the board reads empty (the corner sweep's ``alone-back``, 35-45 degrees
    up: 9-11 mm discs). Left out, the body test decides: a top has its body running down to its base
    on the space, unbroken; a foot off the row has nothing of its figure nearer the camera."""
    parts = [d for d in standing + tokens if d.diameter_mm < _LEAST_TOKEN_FIT_MM]
    if not parts:
        return bases + standing, solids, explained
    standing = [d for d in standing if not any(d is p for p in parts)]
    tokens = [d for d in tokens if not any(d is p for p in parts)]
    solids = _solids(bases + tokens)
    return bases + standing, solids, _explained_mask(mask, view, camera, bases + standing, tokens)


def _figures_past_the_outlines(mask, view: BoardView, geometry: BoardGeometry, camera: CameraPosition, bases, solids,
                               explained: np.ndarray, markers_found=None, *, looked_at: np.ndarray | None = None):
    """Places on a space free of every base seen where a fighter's figure shows whole in change that no
    base, figure or token explains, that change lying off the spaces: each (space_id, (x_mm, y_mm)).

    ``_unexplained`` counts change on the spaces only: a base whose centre is on a space covers its
    middle. But a base the spaces' colour centred near a corner or an outline changes the view only
    where it lies off the space, and its figure leans away from the camera off it too (the
    forty-fourth pass's blind spot 2): nothing on the space changed. Every fighter changes the view
    all along its figure's body (see :mod:`vision.arena.hiding`), whatever its base's colour: where
    change nobody explains holds a whole body, at every height checked, of a fighter standing on a
    space, off that space, that fighter may be there. Only change that is not explained counts: what
    a taken fighter's figure or a token explains holds no body here. A space a taken fighter holds is
    passed over (one hidden there changes nothing read). Nor does change that runs up to a covered marker as
    a hand over it does (see :func:`vision.arena.hiding.reaches_covered_marker`): a hand's edge, cut
    off by the kept-out square, is no figure, and holds a figure's width anywhere along it.

    ``looked_at`` is where change is looked for (the reader's search mask; made for this view and layout
    if not given): a body may run on where nothing is looked at (round a marker, off the view), as
    ``FigureCover`` takes it, so a figure leaning into a marker's kept-out square is not ruled out there
    (the corner sweep's lone fighter on S9's back-right corner, S1's back-left: the ninety-second pass).
    Not into the square of a covered marker that the change meets as a hand over it does (see
    ``markers_reached``): the hand is there, and what of its change is left unexplained is no figure
    (900031); nor standing there: a body's foot shows in the change itself."""
    left = ((mask > 0) & (explained == 0)).view(np.uint8)
    if markers_found is not None and len(markers_found) < len(geometry.markers) and left.any():
        count, labels = cv2.connectedComponents(left, connectivity=8)
        # (Only a region that comes near a covered marker's kept-out square can run up to it.)
        near = set()
        for marker_id in set(geometry.markers) - set(markers_found):
            x0, y0, x1, y1 = marker_keep_out(geometry, marker_id)
            reach = _HAND_TOUCH_MM + 1.0
            near.update(int(label) for label in np.unique(labels[view.rect_mask(x0 - reach, y0 - reach, x1 + reach, y1 + reach)]))
        for label in sorted(near - {0}):
            region = labels == label
            if reaches_covered_marker(region, view, geometry, markers_found, camera) is not None:
                left[region] = 0
    # Worked out round the change only (past it all is unchanged; the body's width taken off and its
    # lean added reach no further than the margin), as over the whole view.
    rows, cols = changed_window(left, int(math.ceil((BODY_HALF_WIDTH_MM + HIDE_TOP_MM) * view.px_per_mm)) + 2)
    if rows.start == rows.stop:
        return []
    count, labels = cv2.connectedComponents(left[rows, cols], connectivity=8)
    h, w = labels.shape
    taken = {geometry.space_at(b.x_mm, b.y_mm) for b in bases}
    half = geometry.space_mm / 2
    steps = np.arange(-half, half + 0.01, HIDE_GRID_MM)
    unseen = ~(search_mask(view, geometry) if looked_at is None else looked_at)
    if markers_found is not None and len(markers_found) < len(geometry.markers):
        for marker_id in markers_reached(mask > 0, view, geometry, markers_found, camera):
            unseen[view.rect_mask(*marker_keep_out(geometry, marker_id))] = False  # (a hand there: no body)
    everywhere = np.ones(labels.shape, bool)
    covers = {}
    found = []
    for space_id, (sx, sy) in geometry.spaces.items():
        if space_id in taken:
            continue
        # Only change that meets the space: a fighter's figure stands on its base, on the space.
        r, c = view.rect_mask(sx - half, sy - half, sx + half, sy + half)
        r = slice(max(r.start - rows.start, 0), max(min(r.stop, rows.stop) - rows.start, 0))
        c = slice(max(c.start - cols.start, 0), max(min(c.stop, cols.stop) - cols.start, 0))
        if not labels[r, c].any():
            continue  # (most spaces: no change meets them, and np.unique costs ten times as much)
        meeting = np.unique(labels[r, c])
        meeting = tuple(int(label) for label in meeting[meeting > 0])
        if not meeting:
            continue
        if meeting not in covers:
            keep = np.zeros(count, np.uint8)
            keep[list(meeting)] = 1
            # (The foot's cover: the change itself; the body's: where nothing is looked at too.)
            covers[meeting] = tuple(FigureCover(keep[labels], view, geometry, camera, looked_at=seen).cover
                                    for seen in (everywhere, ~unseen[rows, cols]))
        foot_cover, cover = covers[meeting]
        cx, cy = (grid.ravel() for grid in np.meshgrid(sx + steps, sy + steps))
        free = np.ones(len(cx), bool)
        for x, y, radius in solids:
            free &= np.hypot(cx - x, cy - y) >= radius + MIN_BASE_MM / 2 - SOLID_OVERLAP_MM
        cx, cy = cx[free], cy[free]
        for height in _STANDING_BODY_MM:  # (the places left after each height only)
            lx, ly = camera.lean(cx, cy, height)
            u, v = (np.round(c).astype(int) for c in view.to_px(cx + lx, cy + ly))
            # Where nothing is looked at (round a marker, off the view) a body may run on, past the
            # window too; but not stand there: just above its base, it shows in the change itself.
            on_view = (u >= 0) & (u < unseen.shape[1]) & (v >= 0) & (v < unseen.shape[0])
            not_seen = ~on_view | unseen[np.clip(v, 0, unseen.shape[0] - 1), np.clip(u, 0, unseen.shape[1] - 1)]
            u, v = u - cols.start, v - rows.start
            inside = (u >= 0) & (u < w) & (v >= 0) & (v < h)
            if height == _STANDING_BODY_MM[0]:
                shown = inside & foot_cover[np.clip(v, 0, h - 1), np.clip(u, 0, w - 1)]
            else:
                shown = np.where(inside, cover[np.clip(v, 0, h - 1), np.clip(u, 0, w - 1)], not_seen)
            cx, cy = cx[shown], cy[shown]
            if not len(cx):
                break
        if len(cx):
            found.append((space_id, (float(cx.mean()), float(cy.mean()))))
    return found


#: Heights (mm) of a standing figure checked, from just above the tallest base (4.5 mm) to the least
#: figure's top: its change runs unbroken up from its base, where a body merely fitted into someone
#: else's change (a base off the row behind the space, 330441) leaves unchanged board below it.
_STANDING_BODY_MM = (5.0, 9.0) + BODY_HEIGHTS_MM


def _explained_mask(mask, view: BoardView, camera: CameraPosition, bases, tokens) -> np.ndarray:
    """Where the bases (and their figures' corridors) and the tokens seen account for change: 1, else 0."""
    explained = np.zeros_like(mask)
    ppm = view.px_per_mm
    for base in bases:
        cv2.circle(explained, _px(view, base.x_mm, base.y_mm), int(round((base.radius_mm + 2.5) * ppm)), 1, -1)
        cv2.fillConvexPoly(explained, _figure_corridor(view, camera, base), 1)
    for token in tokens:
        # The token's top, a few mm up, shows displaced away from the camera.
        lx, ly = camera.lean(token.x_mm, token.y_mm, MAX_TOKEN_THICKNESS_MM)
        radius = int(round((token.radius_mm + 2.5) * ppm))
        ends = (_px(view, token.x_mm, token.y_mm), _px(view, token.x_mm + lx, token.y_mm + ly))
        for end in ends:
            cv2.circle(explained, end, radius, 1, -1)
        cv2.line(explained, ends[0], ends[1], 1, 2 * radius)
    return explained


def _figure_corridor(view: BoardView, camera: CameraPosition, base: Blob, past_mm: float = 0.0) -> np.ndarray:
    """Where the figure standing on a base can show: a widening strip away from the camera (run on
    ``past_mm`` further: where that of a fighter standing that far behind it can)."""
    ax, ay = camera.away(base.x_mm, base.y_mm)
    reach = math.hypot(*camera.lean(base.x_mm, base.y_mm, MAX_FIGURE_MM)) + base.radius_mm + past_mm
    nx, ny = -ay, ax
    near = FIGURE_HALF_WIDTH_MM
    far = FIGURE_HALF_WIDTH_MM + 0.15 * reach
    corners = [
        (base.x_mm + nx * near, base.y_mm + ny * near),
        (base.x_mm + ax * reach + nx * far, base.y_mm + ay * reach + ny * far),
        (base.x_mm + ax * reach - nx * far, base.y_mm + ay * reach - ny * far),
        (base.x_mm - nx * near, base.y_mm - ny * near),
    ]
    return np.array([_px(view, x, y) for x, y in corners], np.int32)


def _px(view: BoardView, x: float, y: float) -> tuple[int, int]:
    u, v = view.to_px(x, y)
    return int(round(u)), int(round(v))


# --- helpers ----------------------------------------------------------------


def _distance_to_camera(point: tuple[float, float], camera: CameraPosition) -> float:
    return math.hypot(point[0] - camera.centre_mm[0], point[1] - camera.centre_mm[1])


def _explained(blob: Blob, bases: list[Blob], camera: CameraPosition) -> bool:
    """A peak inside a taken base, or where that base's figure shows (its line away from the camera)."""
    px, py = blob.peak_mm
    for base in bases:
        if math.hypot(px - base.x_mm, py - base.y_mm) < base.radius_mm + 3:
            return True
        if base.region != blob.region:
            continue
        lx, ly = camera.lean(base.x_mm, base.y_mm, MAX_FIGURE_MM)
        if _distance_to_segment(px - base.x_mm, py - base.y_mm, lx, ly) < base.radius_mm + 4:
            return True
    return False


def _on_figure_line(blob: Blob, bases: list[Blob], camera: CameraPosition) -> bool:
    """Does the blob sit where a taken base's figure shows: beyond its rim, on its away line?"""
    for base in bases:
        if base.region != blob.region:
            continue
        ax, ay = camera.away(base.x_mm, base.y_mm)
        dx, dy = blob.x_mm - base.x_mm, blob.y_mm - base.y_mm
        along = dx * ax + dy * ay
        lateral = abs(dx * ay - dy * ax)
        reach = math.hypot(*camera.lean(base.x_mm, base.y_mm, MAX_FIGURE_MM)) + base.radius_mm
        if 0.8 * base.radius_mm < along < reach and lateral < FIGURE_HALF_WIDTH_MM + 0.15 * along:
            return True
    return False


def _distance_to_segment(px: float, py: float, sx: float, sy: float) -> float:
    length2 = sx * sx + sy * sy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, (px * sx + py * sy) / length2))
    return math.hypot(px - t * sx, py - t * sy)


def _near_a_space(blob: Blob, geometry: BoardGeometry) -> bool:
    """Could this disc stand on a space? Its centre (give or take the fit) must be on one."""
    return geometry.space_at(blob.x_mm, blob.y_mm) is not None or geometry.edge_distance(blob.x_mm, blob.y_mm) < 4


def _figure_evidence(mask, view: BoardView, camera: CameraPosition, x: float, y: float, r: float, search) -> Evidence:
    """Is there change where a figure standing on a disc at (x, y) would show?

    Only where change can be seen: a figure leaning over a marker's keep-out counts by the
    part of it outside; one wholly inside it is neither seen nor missed (partial).
    """
    lx, ly = camera.lean(x, y, MIN_FIGURE_MM)
    reach = math.hypot(lx, ly)
    start = r + 2.0
    if reach < start + 4.0:
        return Evidence.UNKNOWN  # seen from so high that a figure stays over its base
    ax, ay = lx / reach, ly / reach
    distances = np.arange(start, reach, 1.0)
    h, w = mask.shape
    u, v = view.to_px(x + ax * distances, y + ay * distances)
    ui, vi = np.round(u).astype(int), np.round(v).astype(int)
    in_view = (ui >= 0) & (ui < w) & (vi >= 0) & (vi < h)
    ui, vi = ui[in_view], vi[in_view]
    hits = mask[vi, ui][search[vi, ui].astype(bool)] != 0
    if not hits.size:
        return Evidence.PARTIAL if in_view.any() else Evidence.UNKNOWN
    share = float(np.mean(hits))
    if share >= 0.7:
        return Evidence.YES
    if share <= 0.2:
        return Evidence.NO
    return Evidence.PARTIAL


def _flat_top_reach(camera: CameraPosition, x: float, y: float) -> float:
    """How far (mm) past a disc's far rim the top of the thickest token at (x, y) may show, with
    the change mask's slack: change further out stands up."""
    return math.hypot(*camera.lean(x, y, MAX_TOKEN_THICKNESS_MM)) + _FLAT_SLACK_MM


def _flat_top_outline_reach(camera: CameraPosition, x: float, y: float) -> float:
    """How far (mm) past a disc's far rim the outline (the difference's, sharper than the change
    mask) of the thickest token's top at (x, y) may run, with the fit's and the blur's slack."""
    return math.hypot(*camera.lean(x, y, MAX_TOKEN_THICKNESS_MM)) + _FAR_RIM_SLACK_MM


#: How far (mm) past a flat top's reach :func:`_stands_up` wants change all the way.
_STANDS_UP_PAST_MM = 3.0


def _resting_token_reach(camera: CameraPosition, x: float, y: float) -> float:
    """How far (mm) past a disc's far rim a token resting on it, off its centre, may show, with
    the change mask's slack: change further out stands up past any token stack.

    A token lies flat on another only with its centre over that one's top, so its far rim ends at
    most a largest token's radius past the lower one's, and its top is at most two thickest tokens
    up (shown displaced away from the camera by that height's lean)."""
    return TOKEN_MAX_MM / 2 + math.hypot(*camera.lean(x, y, 2 * MAX_TOKEN_THICKNESS_MM)) + _FLAT_SLACK_MM


def _may_stand_up_by_a_token(diameter_mm: float, tiered: float, ahead: float, settings: ArenaSettings) -> bool:
    """May a crisp disc of neither size, standing up, stand up only by a token under it or resting on it
    (then ``_within_resting_reach`` is asked)? Where its rim steps down to a fainter ring (a faint lower
    token's rim round the one resting on it), or where it is fitted under the size cut, nearer a token's
    size than a base's: a token resting off centre on a faint one, the upper one nearer the camera, fits
    one crisp step of a token's size (with the fit's bias), and the lower one shows past its far rim as a
    short figure's top would from high above (the eighty-eighth pass: 23.3 mm, 80 degrees up, 8 mm past).
    A base is 25 mm or more: one step fitted 24.2-24.8 mm whose figure stands up within the reach (seed
    100041; used 900040, 900201, 950034) stays a fighter. Asked of such a disc only with nothing of it
    nearer the camera (``ahead``): with more of it there, ``classify`` has it unsure already (a tall
    figure's head seen from low down: spec seed 250134)."""
    return tiered >= MAX_TOKEN_TIERED or (diameter_mm < _size_cut(settings) and ahead <= MAX_CHANGE_AHEAD)


def _within_resting_reach(score, bare_level: float, mask, view: BoardView, camera: CameraPosition, x: float, y: float,
                          r: float, search) -> bool:
    """Does the change that runs on from the disc's far rim, away from the camera, end where a token
    resting on it could still show (``_resting_token_reach``)? Change that starts again only after bare
    board across the disc's whole width (``_apart_behind``) is something apart, not more of it.

    A figure is one body joined to its foot: what stands on the disc runs on from it unbroken.
    ``_stands_up`` looks only past the reach, so alone it counts a fighter standing just behind a token
    pair as the pair's own figure, whatever lies between (the ``resting-behind`` built set: a vivid token
    resting 11 mm off a faint one, the pair's change ending 10-15 mm past its far rim, then 4-7 mm of bare
    board, then the fighter's base the spaces' colour and its figure, 55 and 80 degrees up: the
    seventy-fifth pass)."""
    reach = _resting_token_reach(camera, x, y)
    return (not _stands_up(mask, view, camera, x, y, r, allowance=reach)
            or _apart_behind(score, bare_level, view, camera, x, y, r, search, reach=reach))


def _stands_up(mask, view: BoardView, camera: CameraPosition, x: float, y: float, r: float,
               allowance: float | None = None) -> bool:
    """Does the change run on away from the camera beyond what a flat disc's top could (or, given
    ``allowance``, beyond that many mm past the disc's far rim)?

    Seen from high above, a figure on a base the colour of the board looks like a token;
    but its top, tens of mm up, still shows displaced away from the camera.
    """
    ax, ay = camera.away(x, y)
    allowance = _flat_top_reach(camera, x, y) if allowance is None else allowance
    distances = np.arange(r, r + allowance + _STANDS_UP_PAST_MM, 1.0)
    u = np.round((x + ax * distances + view.width_mm / 2) * view.px_per_mm).astype(int)
    v = np.round((view.height_mm / 2 - (y + ay * distances)) * view.px_per_mm).astype(int)
    h, w = mask.shape
    inside = (u >= 0) & (u < w) & (v >= 0) & (v < h)
    changed = np.zeros(len(distances), bool)
    changed[inside] = mask[v[inside], u[inside]] > 0
    beyond = distances > r + allowance
    return bool(changed[beyond].all()) if beyond.any() else False


class _FrontRimCheck:
    """Does a base's front rim show in front of a token-sized disc (see :func:`_base_rim_level`)?

    The smoothed change score and the level a rim must reach over the board's noise are worked
    out once per read, when a disc first asks (14 of 23 reads of the cost bench's scenes have no
    token-sized disc seen from high above); the noise level only for a rim that reaches the
    floor under it.
    """

    def __init__(self, score: np.ndarray, search: np.ndarray, regions: np.ndarray):
        self._score, self._search, self._regions = score, search, regions
        self._smooth: np.ndarray | None = None
        self._ring_level: float | None = None

    def shows(self, own_region: int, view: BoardView, camera: CameraPosition, x: float, y: float, r: float) -> bool:
        level = _base_rim_level(self.smooth(), self._regions, own_region, view, camera, x, y, r)
        if level < _MIN_RING_SCORE:
            return False  # under the floor the level never sinks below, whatever the noise
        return level >= self.ring_level()

    def smooth(self) -> np.ndarray:
        if self._smooth is None:
            self._smooth = cv2.blur(self._score, (3, 3))  # a rim a few px wide stands out of the noise
        return self._smooth

    def ring_level(self) -> float:
        """The level a faint rim (or body) must reach over the board's noise in ``smooth()``."""
        if self._ring_level is None:
            self._ring_level = max(_MIN_RING_SCORE, _RING_OVER_NOISE * _noise_level(self.smooth(), self._search))
        return self._ring_level


def _may_stand_in_a_base(blob: Blob, settings: ArenaSettings) -> bool:
    """A token-sized disc with a figure's evidence that ``classify`` would otherwise leave unsure: a
    figure plainly behind it, or standing up out of it (not apart from it, nor within a resting
    token's reach), or seen from high above with a base's faint rim in front of it. Such a disc may
    be a figure on a base close to the board's colour: ``_faint_base_ring`` looks for that base."""
    if blob.diameter_mm > _size_cut(settings) - SIZE_MARGIN_MM or blob.within_resting_reach:
        return False
    return (blob.figure is Evidence.YES or (blob.stands_up and not blob.apart_behind)
            or (blob.figure is Evidence.UNKNOWN and blob.rim_ahead))


def _placed_by_its_ring(blob: Blob) -> Blob:
    """A fighter seen by its base's faint ring (see ``_faint_base_ring``), placed as that base: its
    centre and radius are the ring's (the disc fitted was its figure's foot or top, off the centre).

    With the wider margin of a fighter placed by its figure (``figure_only``): the ring is found in
    the unshaded change, where the base's side facing the camera, darker than its top, may not show
    (a base the very colour of the space, 55 degrees up: centred 3.4 mm away from the camera); then
    its outline there is its top's, shown displaced away from the camera by the base's height's lean."""
    x, y, r = blob.base_ring
    return replace(blob, x_mm=x, y_mm=y, radius_mm=r, figure_only=True)


class _FaintRingCheck:
    """Is there a base's faint ring round a token-sized disc (see :func:`_faint_base_ring`)? The
    smoothed unshaded change and the level a ring must stand over the board's noise are worked out
    once per read, when a disc first asks (most reads have no such disc)."""

    def __init__(self, unshaded: np.ndarray, search: np.ndarray):
        self._unshaded, self._search = unshaded, search
        self._smooth: np.ndarray | None = None
        self._quiet = 0.0

    def _prepare(self) -> None:
        if self._smooth is None:
            self._smooth = cv2.blur(self._unshaded, (3, 3))  # a ring a few px wide stands out of the noise
            self._quiet = max(_MIN_RING_SCORE, _RING_OVER_NOISE * _noise_level(self._smooth, self._search))

    def round(self, mask, view: BoardView, camera: CameraPosition, x: float, y: float, r: float,
              settings: ArenaSettings) -> tuple | None:
        self._prepare()
        return _faint_base_ring(self._smooth, self._quiet, mask, view, camera, x, y, r, settings)

    def wider_than_a_token(self, mask, view: BoardView, camera: CameraPosition, x: float, y: float, r: float,
                           settings: ArenaSettings, arc: _FacingArc | None = None) -> bool:
        self._prepare()
        return _faint_ring_round_a_top(self._smooth, self._quiet, mask, view, camera, x, y, r, settings, arc)

    def fades_slower_than_it_rises(self, view: BoardView, camera: CameraPosition, x: float, y: float, r: float,
                                   arc: _FacingArc | None = None) -> bool:
        self._prepare()
        return _fades_slower_than_it_rises(self._smooth, self._quiet, view, camera, x, y, r, arc)


def _faint_base_ring(smooth, quiet: float, mask, view: BoardView, camera: CameraPosition, x: float, y: float,
                     r: float, settings: ArenaSettings) -> tuple | None:
    """The base close to the board's colour round a token-sized disc at (x, y): the circle (x_mm, y_mm,
    radius_mm) that the outline of a fainter ring round it fits, where that ring is one round faint
    disc a base's size (25-28 mm), or None.

    A base close to the board's colour changes the view only a little (its top, and its side facing
    the camera), under the change mask's faint level; the figure standing at its middle changes it
    plainly, and the rim fit takes the figure's foot (or, seen from high above, its top) for a
    token-sized disc. Along rays from the disc's centre over the arc facing the camera (where no
    figure covers the base), in the smoothed unshaded change (a shadow's darkening is no base), the
    outline is put at half the outermost plateau's level, as the rim fit does on the difference
    (``_rim_distances``; here the quiet end is the board's noise): on a token that plateau is its own
    top and the outline its own rim; round a figure's foot it is the base's faint top, a fainter step
    round a stronger middle, and the outline the base's rim. Those outline points must fit a circle
    crisply (``CRISP_RIM_MM``), with the disc's centre well inside it, a fainter step on most rays
    (``MIN_RING_FROM_ABOVE_TIERED``), and that circle must be a base's size
    (``_size_cut`` + ``SIZE_MARGIN_MM`` up to a clear base's): no token, nor a token lying on another
    (a faint lower token's ring is at most 22 mm, the size that fit measures), is that wide, and two
    or more faint tokens make no round outline that wide. Its centre is that base's centre.
    """
    circle = _faint_ring(smooth, quiet, mask, view, camera, x, y)
    if circle is None:
        return None
    cx, cy, radius, rms = circle
    if rms > CRISP_RIM_MM or not _size_cut(settings) + SIZE_MARGIN_MM <= 2 * radius <= settings.base_mm + CLEAR_BASE_SLACK_MM:
        return None
    return float(cx), float(cy), float(radius)


def _faint_ring_round_a_top(smooth, quiet: float, mask, view: BoardView, camera: CameraPosition, x: float, y: float,
                            r: float, settings: ArenaSettings, arc: _FacingArc | None = None) -> bool:
    """Is there a fainter ring round the token-sized disc at (x, y), fitting a disc wider than any
    token, a base's size or more (see ``_faint_ring``)? Asked of discs seen from high above that size
    alone would call tokens.

    Seen from high above, a figure over a base close to the board's colour shows as its pale top (or
    shoulders), a disc a token's size, with little of its body and nothing behind it (fresh 480197: a
    14 mm figure 31 mm tall seen from 69 degrees, fitted 15.4 mm, crisp, solid, its far outline only
    2.3 mm past its rim); the base shows only as a faint plateau round it, under the change mask's
    faint level. The ring measured there fits 30.7 mm for a 27 mm base, centred 0.5 mm from it (on a
    board this noisy, the half-level outline of so faint a plateau lies out in the noise), too wide
    for ``_faint_base_ring`` to place a fighter by it. What it shows no token can: a lone token's
    outermost plateau is its own top, its outline one step; a faint lower token's ring under one
    resting on it is a token's size. Not enough to place a fighter by, but never a token: unsure.
    This makes doubts, not fighters, so it asks less than ``_faint_base_ring``: the ring found on half
    the rays (480197's on 13 of 19 here, 12 on numpy 1.24 + OpenCV 4.11, where 2/3 are asked to place a
    base), its outline a disc's rim (``MAX_RIM_ERROR_MM``), still a fainter step on most rays.
    """
    circle = _faint_ring(smooth, quiet, mask, view, camera, x, y, found_share=_WIDE_RING_FOUND, arc=arc)
    return (circle is not None and circle[3] <= MAX_RIM_ERROR_MM
            and 2 * circle[2] >= _size_cut(settings) + SIZE_MARGIN_MM)


def _fades_slower_than_it_rises(smooth, quiet: float, view: BoardView, camera: CameraPosition, x: float, y: float,
                                r: float, arc: _FacingArc | None = None) -> bool:
    """Does the change of the disc at (x, y), radius ``r``, fade out past its rim slower than it rises
    inside it, on most rays facing the camera? Asked of discs seen from high above that size alone would
    call tokens and round which no wide faint ring shows.

    A lone edge's change is blurred by the camera and the smoothing alike on both sides: from its half
    level it falls to the board's noise (``2 * quiet`` over it) outside as far as it rises to within that
    of its top inside. A token lying on the board is one such edge. Something fainter round the disc,
    too faint for a plateau of its own, holds the fall up: the change fades out further than it rose
    (fresh 485025: a 19.7 mm figure's shoulders, seen from 77 degrees, fitted a crisp solid 22.2 mm
    disc, over a 26.6 mm base in the board's red: 1.75 mm longer outside, where tokens measure 0.5 mm
    or less). A base round a figure's top reaches past it on the rays facing the camera (the top lies
    away from the camera off the base's centre); one beside a token (touching tokens) lies on only a few
    rays. Not enough to place a fighter by, but never a token: unsure (a token resting on a faint
    lower one may then be a doubt too; never a wrong ``ok``).
    """
    arc = _FacingArc(view, camera, x, y) if arc is None else arc
    steps, profiles = arc.steps(_SKIRT_STEP_MM), arc.along(smooth, _SKIRT_STEP_MM)
    longer = _longer_fades(profiles, steps, r, quiet)
    return len(longer) >= len(profiles) / 2 and float(np.median(longer)) >= _SKIRT_MM


def _longer_fades(profiles: np.ndarray, steps: np.ndarray, r: float, quiet: float) -> np.ndarray:
    """Per ray with a clear edge (in ray order), how much further (mm) the change falls from its half
    level out to ``2 * quiet`` than it rises from there in to within ``2 * quiet`` of its top (the
    median inside ``r / 2``): see ``_fades_slower_than_it_rises``. A ray has a clear edge where its top
    is 4 quiet levels or more, the change falls under half of it, back to the noise past that, and rose
    clear of the noise before it (else the change runs on out of the ray, or never rose).

    (Cost, the forty-fifth pass: all rays at once, where they were measured ray by ray; 0.5 ms less a
    disc. Each threshold taken from a ray's top is worked out in float64 and rounded to the profiles'
    float32, as comparing a float32 ray with a Python float (``quiet`` is one) does: the same samples
    compared, the same bits.)
    """
    rays, samples = profiles.shape
    rows = np.arange(rays)
    _, from_ = _sample_ranges(samples)
    top = np.median(profiles[:, steps < r / 2], axis=1).astype(np.float64)
    half, has_half = _first_marked(profiles < (top / 2).astype(profiles.dtype)[:, None], rows, samples)
    outside, has_outside = _first_marked((profiles < 2 * quiet) & from_[half], rows, samples)
    near_top = (profiles > (top - 2 * quiet).astype(profiles.dtype)[:, None]) & ~from_[half]
    inside = _last_marked(near_top, rows, samples)
    edge = (top >= 4 * quiet) & has_half & has_outside & near_top[rows, inside]
    half = half[edge]
    return (outside[edge] - half) * _SKIRT_STEP_MM - (half - inside[edge]) * _SKIRT_STEP_MM


#: How far past a token-sized disc's fitted rim (mm) the band in front of it is read for a colour of its own
#: (see ``_tinted_in_front``): past the outline's blur (a lone edge's change is down to the board's noise
#: 3 mm out), and within where a figure's base round its top must still be.
_TINT_BAND_MM = np.array([3.0, 4.0, 5.0, 6.0])
#: Bare board, for the same band's measure where nothing stands: this far (mm) from any change or more.
_TINT_BARE_MM = 4.0
#: The spacing (mm) of the band's places over bare board, and the fewest places that make a measure.
_TINT_NULL_SPACING_MM = 8.0
_TINT_NULL_PLACES = 100
#: The bare places measured first (the first of them in the grid's first rows), where most tokens' bands are
#: matched (see ``_matched_on_bare_board``), and how far over the disc's level one must measure for that (a
#: share of the level or of the place's mean tint, the larger: far past any rounding of either).
_TINT_FIRST_GRID_ROWS, _TINT_FIRST_PLACES = 3, 16
_TINT_MATCH_SPARE = 1e-3


def _other_discs(fits, x: float, y: float, r: float) -> list[tuple[float, float, float]]:
    """The discs (x, y, r) fitted round other things than the disc at (x, y), radius ``r`` (a disc's rim,
    ``MAX_RIM_ERROR_MM``; fits centred within half its radius are the same disc fitted again)."""
    return [(f[0], f[1], f[2]) for f in fits
            if f[3] <= MAX_RIM_ERROR_MM and math.hypot(f[0] - x, f[1] - y) >= 0.5 * max(r, f[2])]


class _TintInFrontCheck:
    """Is there a faint colour of its own in front of a token-sized disc (see :func:`_tinted_in_front`)?
    The views' colours, the tint of the change (the ratio live / reference less 1, less its mean over the
    channels) and the bare board the band's measure is taken over are worked out once per read, when a disc
    first asks (most reads have no such disc)."""

    def __init__(self, difference, mask: np.ndarray, search: np.ndarray):
        self._difference, self._mask, self._search = difference, mask, search
        self._common: tuple | None = None
        self._prepared: tuple | None = None
        self._shade: tuple | None = None

    def _live_over_relit(self, view: BoardView) -> tuple:
        """(live, relit, live / relit, the bare board): what both checks start from, worked out once."""
        if self._common is None:
            live, relit = self._difference.colours()
            reach = int(math.ceil(_TINT_BARE_MM * view.px_per_mm))
            near = cv2.dilate((self._mask > 0).astype(np.uint8), np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
            self._common = live, relit, cv2.divide(live, relit), self._search & (near == 0)
        return self._common

    def in_front(self, view: BoardView, camera: CameraPosition, x: float, y: float, r: float, own_region: int,
                 regions: np.ndarray, others) -> bool:
        if not isinstance(self._difference, DifferenceByRows):
            return False  # (a change without the live colours: drawn scores in tests)
        if self._prepared is None:
            live, relit, quotient, bare = self._live_over_relit(view)
            # The ratio itself, less 1, not its logarithm: a little of a colour mixed into the board moves
            # it along one straight line, however much is mixed (a logarithm bends it).
            ratio = quotient - np.float32(1.0)  # (numpy's: OpenCV 4.x subtracts a lone number from one channel)
            tint = ratio - cv2.transform(ratio, np.full((3, 3), 1 / 3, np.float32))
            self._prepared = live, relit, tint, bare
        return _tinted_in_front(*self._prepared, self._search, view, camera, x, y, r, own_region, regions, others)

    def long_shadow(self, view: BoardView, x: float, y: float, r: float, own_region: int, regions: np.ndarray) -> bool:
        luma, level = self._brightness(view)
        if level is None:
            return False
        return _casts_a_long_shadow(luma, level, self._mask, self._search, regions, view, x, y, r, own_region)

    def side_ring(self, view: BoardView, camera: CameraPosition, x: float, y: float, r: float,
                  settings: ArenaSettings, arc: _FacingArc | None = None) -> bool:
        luma, level = self._brightness(view)
        if level is None:
            return False
        return _base_side_round(luma, level, self._mask, self._search, view, camera, x, y, r, settings, arc)

    def _brightness(self, view: BoardView) -> tuple:
        """(the brightness change, smoothed; the level under which a pixel is darker than bare board, or None)."""
        if not isinstance(self._difference, DifferenceByRows):
            return None, None  # (a change without the live colours: drawn scores in tests)
        if self._shade is None:
            _, _, quotient, bare_board = self._live_over_relit(view)
            # The brightness change alone (the mean over the channels of live / relit reference, less 1),
            # smoothed over a few px: a shadow is wide, the noise is not.
            luma = cv2.transform(quotient, np.full((1, 3), 1 / 3, np.float32)) - np.float32(1.0)
            luma = cv2.blur(luma, (3, 3))
            bare = luma[bare_board]  # (a copy: the deviations go in it)
            if bare.size < 100:
                self._shade = (luma, None)
            else:
                # The median once, not twice, and each by _median: np.median's partitions of some
                # 60,000 values were most of the check's cost.
                median = _median(bare)
                spread = 1.4826 * float(_median(np.abs(np.subtract(bare, median, out=bare), out=bare)))
                self._shade = (luma, float(median) - _SHADOW_OVER_NOISE * spread)
        return self._shade


def _tinted_in_front(live: np.ndarray, relit: np.ndarray, tint: np.ndarray, bare: np.ndarray, search: np.ndarray,
                     view: BoardView, camera: CameraPosition, x: float, y: float, r: float, own_region: int,
                     regions: np.ndarray, others) -> bool:
    """Does a faint colour of its own lie in front of the token-sized disc at (x, y), radius ``r``, over
    the band where a figure's base would stand, more than the same band shows anywhere on bare board?
    Asked of discs seen from high above that size alone would call tokens, round which neither a wide
    faint ring nor a faint skirt shows. ``live``, ``relit``: the live view's colours and the reference's
    under the new light, with the change's log offset (see :meth:`DifferenceByRows.colours`); ``tint``:
    their per-channel ratio less 1, less its mean over the channels.

    A token lies on bare board: past its outline's blur (``_TINT_BAND_MM``, 3 to 6 mm past its rim, on the
    arc facing the camera, ``_RING_ARC``), the camera sees the board, with a trace of the token's own colour
    (the blur's tail: a little of the token mixed into the board, which moves the ratio along the one line
    (token - board) / board, however much is mixed) and perhaps a shadow or the light (much the same ratio
    in every channel). Seen from
    high above, a figure's top is a disc like a token, and its base stands in front of it, towards the
    camera (the top shows displaced away from the camera by its height's lean): a base close to the board's
    colour tints that band faintly, in a direction of its own. Too faint for any pixel to stand out of a
    noisy board (fresh 610173: a yellow figure's shoulders, 35 mm up, fitted a crisp solid 19.8 mm disc,
    over a 25.4 mm base the colour of its space but 7 % less red; the board noise 0.27, the base's change
    0.3-0.5), but averaged over the band's 52 points the noise cancels and the base's colour stays.

    The measure: the mean tint over the band's points (where change can be seen, not in another changed
    region nor within 3 mm of another fitted disc: a shadow, the light, brighter or darker alike in every
    channel, are out of it), less its part along the disc's own colour (the blur's tail); its length. The
    same measure is taken with the same band at places ``_TINT_NULL_SPACING_MM`` apart over bare board
    (``bare``: ``_TINT_BARE_MM`` clear of any change) in this view: a disc whose band measures more than
    the most any of them does has something in front of it that no bare board shows, and is no token
    (unsure: a doubt, never a fighter). Too few places (``_TINT_NULL_PLACES``), or too little of the band
    seen, measure nothing.
    """
    ax, ay = camera.away(x, y)
    angles = math.atan2(-ay, -ax) + _RING_ARC[:, None]
    distances = (r + _TINT_BAND_MM)[None, :]
    dx, dy = (np.cos(angles) * distances).ravel(), (np.sin(angles) * distances).ravel()
    h, w = bare.shape
    u, v = (np.round(c).astype(int) for c in view.to_px(x + dx, y + dy))
    cu, cv_ = (int(round(c)) for c in view.to_px(x, y))
    if not (0 <= cu < w and 0 <= cv_ < h):
        return False
    inside = (u >= 0) & (u < w) & (v >= 0) & (v < h)
    u, v = _clamped(u, w - 1), _clamped(v, h - 1)
    label = regions[v, u]
    usable = inside & search[v, u] & ((label == 0) | (label == own_region))
    if others:  # (all of them at once: the same distances and sums, element by element, as one by one)
        ox, oy, orad = (np.array(c, np.float64)[:, None] for c in zip(*others))
        usable &= (np.hypot(x + dx - ox, y + dy - oy) > orad + _TINT_BAND_MM[0]).all(axis=0)
    if usable.sum() < len(usable) / 2:
        return False
    u, v = u[usable], v[usable]
    disc = np.median(live[max(0, cv_ - 2):cv_ + 3, max(0, cu - 2):cu + 3].reshape(-1, 3), axis=0)
    board = np.median(relit[v, u], axis=0)
    own = (disc - board) / board  # the blur's tail: the disc's colour mixed into the board (both offset)
    own = own - own.mean()
    norm = float(np.linalg.norm(own))
    own = own / norm if norm > 1e-9 else own
    level = _tint_left(tint[v, u].mean(axis=0), own)
    # The same band over bare board, at places on a grid over the view (offsets in whole px from each).
    du, dv = u - cu, v - cv_
    step = max(1, int(round(_TINT_NULL_SPACING_MM * view.px_per_mm)))
    gu = np.arange(max(0, -int(du.min())), min(w, w - int(du.max())), step)
    gv = np.arange(max(0, -int(dv.min())), min(h, h - int(dv.max())), step)
    if len(gu) * len(gv) < _TINT_NULL_PLACES:
        return False
    if _matched_on_bare_board(level, own, bare, tint, gu, gv[:_TINT_FIRST_GRID_ROWS], du, dv):
        return False
    places, mean_tint = _band_on_grid(bare, tint, gu, gv, step, du, dv)
    if places.sum() < _TINT_NULL_PLACES:
        return False
    null = _tint_left(mean_tint[places], own)
    return level > float(null.max())


#: How far past a token-sized disc's rim (mm) a shadow joined to it must run to be more than a token's:
#: the thickest token (``MAX_TOKEN_THICKNESS_MM``) under a lamp as low as 35 degrees casts its shadow
#: 6 / tan(35) = 8.6 mm past its rim, with some 3 mm of the shadow's softness.
_SHADOW_REACH_MM = 12.0
#: Half the width (mm) a shadow must have somewhere past that reach: the narrowest figure (12 mm) casts
#: one at least that wide; half of it again for the shadow's soft edges.
_SHADOW_HALF_WIDTH_MM = 3.0
#: How far past its rim (mm) a disc's own change may run (its blur, a figure's top's far side): change
#: joined to it further out is something else's.
_SHADOW_OWN_MM = 8.0
#: How near (mm) the disc's own changed region a shadow's pixel must come to be joined to it.
_SHADOW_JOIN_MM = 3.0
#: How much darker (in the bare board's spread of the smoothed brightness change) a shadow's pixel is.
_SHADOW_OVER_NOISE = 4.0
#: How far round the disc (mm past its rim) a shadow is looked for; one reaching further is the light.
_SHADOW_WINDOW_MM = 45.0


def _casts_a_long_shadow(luma: np.ndarray, level: float, mask: np.ndarray, search: np.ndarray, regions: np.ndarray,
                         view: BoardView, x: float, y: float, r: float, own_region: int) -> bool:
    """Does a shadow run out from the outline of the token-sized disc at (x, y), radius ``r``, further than
    any token could cast one (``_SHADOW_REACH_MM`` past its rim), joined to no other change?

    Under a lamp, a thing casts a shadow as long as it is tall times the light's slope. A token is a few mm
    thick: its shadow ends a few mm past its rim. A figure's top seen from high above is a disc like a
    token (the sixty-ninth pass: fresh 840209, a dark figure's shoulders over a base the very colour of
    its space), but the figure under it is 30-50 mm tall, and its shadow runs out from its foot, under the
    disc, tens of mm across the board. ``luma``: the brightness change (live / relit reference less 1,
    smoothed); ``level``: under it a pixel is darker than bare board is (the bare board's median, less
    ``_SHADOW_OVER_NOISE`` of its spread). The shadow: the darker pixels (changed nowhere else, where change
    can be seen) joined to the disc's outline (within ``_SHADOW_JOIN_MM`` of its own changed region); each
    such stretch that comes within a base's radius of no other changed region (the shadow of what stands
    there, which may fall by a token; a base the board's colour shows only by its figure), nor the window's edge or where change cannot be seen (a change of the light, not a shadow), and
    that is still a shadow's width (``_SHADOW_HALF_WIDTH_MM`` either side) further than ``_SHADOW_REACH_MM``
    past the rim, is something tall's (a base's side, a thin crescent round its front, is not). A doubt,
    never a fighter: with no shadow (a diffuse light) it says nothing.
    """
    ppm = view.px_per_mm
    h, w = luma.shape
    half = int(math.ceil((r + _SHADOW_WINDOW_MM) * ppm))
    pu, pv = view.to_px(x, y)
    cu, cv_ = int(round(pu)), int(round(pv))
    u0, u1, v0, v1 = cu - half, cu + half + 1, cv_ - half, cv_ + half + 1
    if u0 < 0 or v0 < 0 or u1 > w or v1 > h:
        return False  # (near the view's edge: the window would be cut)
    win = (slice(v0, v1), slice(u0, u1))
    changed = mask[win] > 0
    dark = (luma[win] < level) & search[win] & ~changed
    count, labels = cv2.connectedComponents(dark.astype(np.uint8), connectivity=8)
    if count <= 1:
        return False
    # (The columns' and rows' offsets broadcast, not a meshgrid's copies: the same values, element by element.)
    distance = np.hypot((np.arange(u0, u1) - pu)[None, :], (np.arange(v0, v1) - pv)[:, None]) / ppm - r
    # Joined to its outline: within _SHADOW_JOIN_MM of the disc's own changed region (a soft shadow's edge
    # and the outline's blur lie between them).
    side = 2 * int(math.ceil(_SHADOW_JOIN_MM * ppm)) + 1
    own_change = (changed & (regions[win] == own_region) & (distance <= _SHADOW_JOIN_MM)).astype(np.uint8)
    near_own = cv2.dilate(own_change, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))) > 0
    joined = np.unique(labels[near_own & dark])
    joined = joined[joined > 0]
    if not len(joined):
        return False
    # What each stretch touches (one px round it): the window's edge, the unseen; and other change within a
    # base's radius of it (``LARGEST_BASE_MM`` / 2): what stands there may cast it. A fighter whose base is
    # the board's colour changes the view only at its figure, and its shadow starts at its base's rim, up to
    # a base's radius from that change across the base's unchanged top (used 780086: a token 6 mm from such
    # a base, in its fighter's shadow).
    side = 2 * int(math.ceil(LARGEST_BASE_MM / 2 * ppm)) + 1
    # (Other change: past the disc's own outline, in its region or not: a base's change may join a token's.)
    other = cv2.dilate((changed & ((regions[win] != own_region) | (distance > _SHADOW_OWN_MM))).astype(np.uint8),
                       cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))) > 0
    edge = np.zeros(dark.shape, bool)
    edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
    stop = other | edge | ~search[win]
    for label in joined:
        own = labels == label
        # Wide out there: a figure 12-20 mm wide casts a shadow as wide. A base's side facing the camera, a
        # thin crescent round its front (a token may lie against it), is no shadow.
        width = cv2.distanceTransform(own.astype(np.uint8), cv2.DIST_L2, 3) / ppm
        if not ((width >= _SHADOW_HALF_WIDTH_MM) & (distance > _SHADOW_REACH_MM)).any():
            continue
        around = cv2.dilate(own.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        if (around & stop).any():
            continue
        return True
    return False


#: How much of the board (mm) that is neither changed nor dark lies, at the least, between a disc's outline and
#: a base's side round it (the base's top, the colour of its space); a token's own side and its shadow touch it.
_SIDE_APART_MM = 1.0
#: How wide (mm) a base's side shows at the most, along a ray: a few mm high, leaning by the view, with its
#: contact shadow, blurred (880000's: 5-7 mm at 1 px a mm, smoothed 3x3); a figure's shadow runs on further.
_SIDE_WIDTH_MM = 8.0


def _base_side_round(luma: np.ndarray, level: float, mask: np.ndarray, search: np.ndarray, view: BoardView,
                     camera: CameraPosition, x: float, y: float, r: float, settings: ArenaSettings,
                     arc: _FacingArc | None = None) -> bool:
    """Is the token-sized disc at (x, y), radius ``r``, ringed on the arc facing the camera by a thin band of
    darker change apart from its outline, that fits a circle round it a base's size?

    The seventy-first pass: a base is a low cylinder. A figure over a base the colour of its space seen from
    high above is a disc like a token (its top, or its top and the base's part over the board); the base's
    top is its space's colour, but its side, facing the camera and vertical, gets less of the light than the
    flat top and the board: a thin darker crescent at a base's radius round the figure's foot, with the base's
    top between it and the figure. A flat token is all there is of it: its own side and its shadow touch its
    outline; past them, nothing. ``luma``, ``level``: the brightness change and the level under which it is
    darker than bare board (see ``_TintInFrontCheck``). Per ray of the arc facing the camera, past the disc's
    outline (the end of its changed region) and its own dark tail (a dark thing's blur, a token's shadow): after
    ``_SIDE_APART_MM`` or more neither changed nor dark (a base's top), the first dark run, ending within
    ``_SIDE_WIDTH_MM``, clear of other change, where change can be seen; its inner edge (where a base's top
    ends and its side begins). On half the rays or more (as ``_faint_ring_round_a_top``), those edges must fit
    a circle as a rim (``MAX_RIM_ERROR_MM``), a base's size (as ``_faint_base_ring``: no token, nor a lower
    token under one resting on it, is that wide), centred inside the disc (the foot under the figure's top).
    880000: on 14 of 19 rays, a 25.8 mm circle (rms 0.39 mm) 1.8 mm from the true foot of a 25.2 mm base.
    """
    arc = _FacingArc(view, camera, x, y, _RAY_STEP_MM) if arc is None else arc
    angles, steps, profiles = arc.angles, arc.steps(_RAY_STEP_MM), arc.along(luma, _RAY_STEP_MM)
    inside = arc.along(mask, _RAY_STEP_MM, nearest=True) > 0
    seen = arc.along(search.view(np.uint8), _RAY_STEP_MM, nearest=True) > 0
    dark = profiles < level
    apart = int(round(_SIDE_APART_MM / _RAY_STEP_MM))
    widest = int(round(_SIDE_WIDTH_MM / _RAY_STEP_MM))
    rims, found = _side_rims(inside, seen, dark, steps, r, apart, widest)
    if found.sum() < _WIDE_RING_FOUND * len(angles):
        return False
    circle = _robust_circles((x + np.cos(angles) * rims)[None], (y + np.sin(angles) * rims)[None], found[None])[0]
    if circle is None:
        return False
    cx, cy, radius, rms = circle
    return (rms <= MAX_RIM_ERROR_MM and math.hypot(cx - x, cy - y) <= r
            and _size_cut(settings) + SIZE_MARGIN_MM <= 2 * radius <= settings.base_mm + CLEAR_BASE_SLACK_MM)


def _side_rims(inside: np.ndarray, seen: np.ndarray, dark: np.ndarray, steps: np.ndarray, r: float, apart: int,
               widest: int) -> tuple[np.ndarray, np.ndarray]:
    """Per ray of ``_base_side_round`` (rows of ``inside``, ``seen``, ``dark``, sampled at ``steps``): the step
    (mm) where a base's side begins, and whether one was found (0.0 and False where not). Past the disc's
    outline (the first sample from half its radius out of its changed region) and its own dark tail, the
    first ``apart`` samples in a row neither changed nor dark; then the first dark run, ending within
    ``widest`` samples, with no change and nothing unseen from the outline to its end.

    (Cost, the seventy-sixth pass: all rays at once, where each ray was walked in a loop of some ten numpy
    calls; the same samples found, the same steps.)"""
    rays, samples = dark.shape
    rows = np.arange(rays)
    _, from_ = _sample_ranges(samples)
    start, has_start = _first_marked(~inside & (steps >= r / 2), rows, samples)
    # Runs of ``apart`` samples neither changed nor dark, by where they start (counts of such samples so far).
    counted = np.zeros((rays, samples + 1), int)
    np.cumsum(~dark, axis=1, out=counted[:, 1:])
    clear_run = np.zeros((rays, samples), bool)
    clear_run[:, :samples - apart + 1] = counted[:, apart:] - counted[:, :samples - apart + 1] == apart
    clear, has_clear = _first_marked(clear_run & from_[start], rows, samples)
    first, has_first = _first_marked(dark & from_[clear], rows, samples)
    end, has_end = _first_marked(~dark & from_[first], rows, samples)
    between = from_[start] & ~from_[end]  # (from the outline to the dark run's end)
    found = (has_start & has_clear & has_first & has_end & (end - first <= widest)
             & ~(inside & between).any(axis=1) & (seen | ~between).all(axis=1))
    return np.where(found, steps[np.minimum(first, samples - 1)], 0.0), found


def _band_on_grid(bare: np.ndarray, tint: np.ndarray, gu: np.ndarray, gv: np.ndarray, step: int, du: np.ndarray,
                  dv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """At each place (gv[i], gu[j]) of an evenly spaced grid (``gu``, ``gv``: ``np.arange`` by ``step``, not empty),
    with the band's points at offsets (``du``, ``dv``) px from it, all inside the view: are all the band's
    points ``bare``, and the mean ``tint`` over them. Two (len(gv), len(gu)) and (len(gv), len(gu), 3) arrays.

    The same bits as gathering every place's points by fancy indexing, (places, points, 3), and taking
    their mean along the points (what this replaced): the points of one offset at every place are a
    strided slice of the view, no gather, and numpy's mean along an axis that is not the last adds the
    points one after another in their order, as the sum here does, then divides by the count (an intp,
    so in float64 on numpy 2, float32 on 1.x, as its ``mean``). A tenth of the cost: the gather of some
    100,000 values one at a time was most of ``_tinted_in_front``'s 4 ms."""
    rows = [slice(int(gv[0] + d), int(gv[-1] + d) + 1, step) for d in dv]
    cols = [slice(int(gu[0] + d), int(gu[-1] + d) + 1, step) for d in du]
    places = bare[rows[0], cols[0]].copy()
    total = tint[rows[0], cols[0]].copy()
    for r, c in zip(rows[1:], cols[1:]):
        places &= bare[r, c]
        total += tint[r, c]
    mean = np.true_divide(total, np.intp(len(du)), out=total, casting="unsafe")
    return places, mean


def _matched_on_bare_board(level, own: np.ndarray, bare: np.ndarray, tint: np.ndarray, gu: np.ndarray, gv: np.ndarray,
                           du: np.ndarray, dv: np.ndarray) -> bool:
    """Does some place (gv[i], gu[j]) over bare board measure the band (see ``_tinted_in_front``) as much as
    the disc's ``level`` or more, with room to spare? Then ``_tinted_in_front`` answers no, whatever the rest
    of its grid measures: with too few places it says nothing, and with enough, the most any place measures
    is at least that much.

    (Cost, the seventy-sixth pass: a plain token's band is matched among the grid's first bare places;
    measuring the whole grid, some 600 places, was most of the check's cost. Here the first
    ``_TINT_FIRST_PLACES`` bare places of the grid's first rows are measured, their points gathered. Each
    place's mean tint is the same bits as ``_band_on_grid``'s, but its measure's ``@`` may round otherwise
    for another count of places (BLAS): a place must pass the level by ``_TINT_MATCH_SPARE`` of the level or
    of its mean tint, the larger, far more than any rounding; where none does, the whole grid is measured as
    before.)"""
    if not level > 0:
        return True  # (no place measures under 0: never more than every one of them)
    rows, cols = gv[:, None, None] + dv, gu[None, :, None] + du  # (places' rows and columns, the band's points)
    first = np.flatnonzero(bare[rows, cols].all(axis=2))[:_TINT_FIRST_PLACES]  # (row-major places, bare)
    if not len(first):
        return False
    i, j = np.divmod(first, len(gu))
    # (The points summed one after another, then divided by an intp, as _band_on_grid has each place's mean.)
    mean_tint = np.true_divide(tint[rows[i, 0], cols[0, j]].sum(axis=1), np.intp(len(du)))
    spare = _TINT_MATCH_SPARE * np.maximum(level, np.linalg.norm(mean_tint, axis=-1))
    return bool((_tint_left(mean_tint, own) >= level + spare).any())


def _tint_left(mean_tint: np.ndarray, own: np.ndarray) -> np.ndarray:
    """The length of a mean tint (..., 3) (a ratio less 1, less its mean over the channels) less its part
    along the unit vector ``own``."""
    tint = mean_tint - (mean_tint @ own)[..., None] * own
    return np.linalg.norm(tint, axis=-1)


def _camera_facing_rays(smooth, view: BoardView, camera: CameraPosition, x: float, y: float, step_mm: float):
    """The rays of the arc facing the camera from (x, y) (``_BASE_RING_ARC``, out to ``_BASE_RING_RAY_MM``
    in ``step_mm`` steps): their angles (board frame), steps (mm), sample maps (view px) and ``smooth``
    sampled along them."""
    angles, steps, map_u, map_v = _facing_ray_maps(view, camera, x, y, step_mm)
    return angles, steps, map_u, map_v, _along_rays(smooth, map_u, map_v)


class _FacingArc:
    """The rays of the arc facing the camera from one disc's centre (see ``_camera_facing_rays``), walked once
    for all of the disc's token checks that ask for them (the faint ring, the skirt, the side ring): each
    image sampled along them once, every ``step_mm`` (``find_blobs``: the skirt's fine step); a check's
    coarser step (``_RAY_STEP_MM``) is every other sample of it. (A check asked alone walks its own, at its
    own step.)

    (Cost, the seventy-sixth pass: those checks walked the same rays three times, with three sample maps and
    the change mask sampled twice. The same bits: ``np.arange`` of 0.25 mm steps holds the 0.5 mm ones
    exactly, the maps are worked out per sample, and each output sample of ``cv2.remap`` reads its own map
    entries alone, so every other sample of the fine walk is the coarse walk's sample.)"""

    def __init__(self, view: BoardView, camera: CameraPosition, x: float, y: float, step_mm: float = _SKIRT_STEP_MM):
        self.angles, self._steps, self._map_u, self._map_v = _facing_ray_maps(view, camera, x, y, step_mm)
        self._step = step_mm
        self._walked: dict[tuple[int, bool], tuple] = {}

    def steps(self, step_mm: float) -> np.ndarray:
        """The samples' distances (mm) from the centre, every ``step_mm`` (a whole multiple of the arc's step)."""
        return self._steps[::self._every(step_mm)]

    def along(self, image, step_mm: float, nearest: bool = False) -> np.ndarray:
        """``image`` sampled along the rays every ``step_mm``: bilinear as ``_along_rays``, or the nearest px
        (0 off the view); each image walked once (kept with it, so its id stays its own)."""
        key = (id(image), nearest)
        if key not in self._walked:
            walked = (cv2.remap(image, self._map_u, self._map_v, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                                borderValue=0) if nearest else _along_rays(image, self._map_u, self._map_v))
            self._walked[key] = (image, walked)
        return np.ascontiguousarray(self._walked[key][1][:, ::self._every(step_mm)])

    def _every(self, step_mm: float) -> int:
        every = int(round(step_mm / self._step))
        assert every * self._step == step_mm, "a whole multiple of the arc's step"
        return every


def _facing_ray_maps(view: BoardView, camera: CameraPosition, x: float, y: float, step_mm: float):
    """The angles, steps and sample maps of ``_camera_facing_rays``."""
    ax, ay = camera.away(x, y)
    angles = math.atan2(-ay, -ax) + _BASE_RING_ARC
    steps = np.arange(0, _BASE_RING_RAY_MM, step_mm)
    ppm = view.px_per_mm
    u, v = view.to_px(x, y)
    map_u = (u + np.cos(angles)[:, None] * steps[None, :] * ppm).astype(np.float32)
    map_v = (v - np.sin(angles)[:, None] * steps[None, :] * ppm).astype(np.float32)
    return angles, steps, map_u, map_v


def _faint_ring(smooth, quiet: float, mask, view: BoardView, camera: CameraPosition, x: float, y: float,
               found_share: float = _BASE_RING_FOUND, arc: _FacingArc | None = None) -> tuple | None:
    """The circle (x_mm, y_mm, radius_mm, rms) that the outline of a fainter ring round the disc at (x, y)
    fits, over the arc facing the camera (see ``_faint_base_ring``): found on at least ``found_share`` of
    the rays, a fainter step round something stronger on most of those, and round the disc (its centre
    well inside). Else None. ``arc``: the disc's rays, if walked already (see ``_FacingArc``)."""
    arc = _FacingArc(view, camera, x, y, _RAY_STEP_MM) if arc is None else arc
    angles, profiles = arc.angles, arc.along(smooth, _RAY_STEP_MM)
    inside = arc.along(mask, _RAY_STEP_MM, nearest=True)
    # In the rim fit's units: its quiet end (where the blur tail dies out) is here the board's noise.
    distances, stepped = _rim_distances(profiles * np.float32(_QUIET_DIFFERENCE / quiet), inside)
    found = np.isfinite(distances)
    if found.sum() < found_share * len(angles):
        return None
    if (stepped & found).sum() < MIN_RING_FROM_ABOVE_TIERED * found.sum():
        return None  # on most rays the outline is the disc's own: a token's, or its shade's
    distances = np.where(found, distances, 0.0)
    circle = _robust_circles((x + np.cos(angles) * distances)[None], (y + np.sin(angles) * distances)[None],
                             found[None])[0]
    if circle is None:
        return None
    cx, cy, radius, _ = circle
    if math.hypot(cx - x, cy - y) > radius - _BASE_RING_INSIDE_MM:
        return None  # not round this disc
    return circle


def _base_rim_level(score, regions, own_region: int, view: BoardView, camera: CameraPosition, x: float, y: float,
                    r: float) -> float:
    """How clearly the front rim of a base shows in front of the disc at (x, y), where the base
    of a figure whose top the disc is would stand: the change score that most of the rim's
    front arc reaches (0 where nothing could be looked at).

    Seen from high above, a figure's top over a base the colour of the board is a disc like a
    token: only the base's side, a faint ring, tells them apart. A figure ``MIN_FIGURE_MM`` to
    ``MAX_FIGURE_MM`` tall shows its top displaced away from the camera by its height's lean;
    its base stands round the point it leans from. Most of the arc of that base's rim facing the
    camera must have changed, and not as part of another changed region: a straight line in
    front (a space's outline) follows a base-sized arc over only part of it.
    """
    cx, cy, cz = camera.centre_mm
    heights = np.arange(MIN_FIGURE_MM, MAX_FIGURE_MM + 1.0, 2.0)
    shrink = 1.0 / (1.0 + heights / np.maximum(cz - heights, 1e-6))
    ax, ay = camera.away(x, y)
    lateral = np.array([-_FIGURE_LEAN_MM, 0.0, _FIGURE_LEAN_MM])
    # Base centres: the point each height's top leans from, give or take the figure's own lean.
    bx = (cx + (x - cx) * shrink)[:, None] - ay * lateral[None, :]
    by = (cy + (y - cy) * shrink)[:, None] + ax * lateral[None, :]
    bx, by = bx.ravel()[:, None, None, None], by.ravel()[:, None, None, None]
    angles = (math.atan2(-ay, -ax) + _RING_ARC)[None, None, :, None]
    radii = (np.array(_BASE_RADII_MM)[None, :, None, None]
             + np.array([-_RING_WIDTH_MM, 0.0, _RING_WIDTH_MM])[None, None, None, :])
    px, py = bx + np.cos(angles) * radii, by + np.sin(angles) * radii
    u, v = (np.round(c).astype(int) for c in view.to_px(px, py))
    h, w = score.shape
    inside = (u >= 0) & (u < w) & (v >= 0) & (v < h)
    # Some 8,000 points: looked up by flat index (np.take), several times cheaper than by (row, column).
    at = _clamped(v, h - 1) * w + _clamped(u, w - 1)
    region = np.take(regions, at)
    # The largest over the rim's three widths (the last axis): numpy reduces an axis of three slowly,
    # a few thousand times over; maxima of whole slices (as of an image's channels) cost a fraction.
    values = _channel_max(np.where(inside & ((region == 0) | (region == own_region)), np.take(score, at), 0.0))
    # The disc's own blurred outline is no rim: points on it are not looked at.
    usable = (np.hypot(px - x, py - y) > r + 2.5) & inside
    usable = usable[..., 0] & usable[..., 1] & usable[..., 2]  # (all three widths: as above)
    looked = usable.sum(axis=2)
    values = np.where(usable, values, np.inf)
    # The level reached on all but (1 - _MIN_RING_SHARE) of the looked-at arc.
    k = np.floor((1 - _MIN_RING_SHARE) * looked).astype(int)
    level = np.take_along_axis(np.sort(values, axis=2), np.minimum(k, values.shape[2] - 1)[..., None], axis=2)[..., 0]
    level = np.where(looked >= len(_RING_ARC) // 2, level, 0.0)
    return float(level.max())


def _breaks_behind(mask, view: BoardView, camera: CameraPosition, x: float, y: float, r: float, search) -> bool:
    """Does the change along the line away from the camera break off (``FIGURE_BREAK_MM`` of
    unchanged board) between the disc's far rim and where a flat disc's top could still show?

    A figure stands on its base: seen from low enough for its figure to show, a solid base's
    change runs on unbroken out of its far rim into the figure. Change that starts again only
    after bare board belongs to something else behind it (180099: two overlapping tokens read
    as a fighter by the base of the fighter standing behind them).
    """
    ax, ay = camera.away(x, y)
    allowance = _flat_top_reach(camera, x, y)
    distances = np.arange(r, r + allowance, 1.0)
    u, v = view.to_px(x + ax * distances, y + ay * distances)
    ui, vi = np.round(u).astype(int), np.round(v).astype(int)
    h, w = mask.shape
    inside = (ui >= 0) & (ui < w) & (vi >= 0) & (vi < h)
    if not inside.all():
        return False
    bare = (mask[vi, ui] == 0) & search[vi, ui].astype(bool)
    return longest_run(bare) >= FIGURE_BREAK_MM


#: How strong (a share of the disc's own change) the change out of a disc's far rim must stay, all the
#: way, for a figure rising out of it (see ``_rises_out_of_it``).
_RISES_OUT_LEVEL = 0.5
#: Lines (mm off the centre line, across it) ``_rises_out_of_it`` walks: a figure's leg or flank off centre.
_RISES_OUT_LINES_MM = (-4.0, 0.0, 4.0)


def _rises_out_end(camera: CameraPosition, x: float, y: float, r: float) -> float:
    """How far (mm from the disc's centre, away from the camera) ``_rises_out_of_it`` follows the change."""
    return r + _resting_token_reach(camera, x, y) + _STANDS_UP_PAST_MM


def _base_in_its_run(blob: Blob, discs, camera: CameraPosition) -> bool:
    """Does a base-sized disc (not overlapping this one) lie behind it, away from the camera, across the
    lines ``_rises_out_of_it`` follows and starting before they end? (Not any disc: a figure's top is often
    fitted as one there, 19-23 mm, 23-35 mm behind its foot.)"""
    ax, ay = camera.away(blob.x_mm, blob.y_mm)
    end = _rises_out_end(camera, blob.x_mm, blob.y_mm, blob.radius_mm)
    for other in discs:
        if other is blob or not _base_sized(other.diameter_mm) or _overlapping(blob, other):
            continue
        dx, dy = other.x_mm - blob.x_mm, other.y_mm - blob.y_mm
        along, lateral = dx * ax + dy * ay, abs(dx * ay - dy * ax)
        if along > 0 and lateral < other.radius_mm + max(_RISES_OUT_LINES_MM) and along - other.radius_mm < end:
            return True
    return False


def _in_a_fitted_base(blob: Blob, discs) -> bool:
    """Does a base-sized disc overlap this one (``_overlapping``)?

    The foot rule reads a fighter whose base went unfitted (close to the board's or its space's colour)
    by its foot. Where a base-sized disc overlaps the foot, that fighter's base was fitted, in part at
    least, and the fighter is read by it; the foot inside it is its figure (``select_bases`` leaves such
    a disc to the base), not a second fighter taken first for being nearer the camera. (Fresh 350159: a
    figure's foot fitted 9 mm inside its base fitted 25.4 mm on its far part, 35 degrees up: taken as the
    fighter, it pushed the base, off every space but reaching over S4, out of the reading, and with it
    the twenty-fourth pass's doubt.)"""
    return any(other is not blob and _base_sized(other.diameter_mm) and _overlapping(blob, other) for other in discs)


def _rises_out_of_it(score, bare_level: float, view: BoardView, camera: CameraPosition, x: float, y: float, r: float,
                     search) -> bool:
    """Does the change run on out of the disc's far rim, away from the camera, with no dip: at every 1 mm
    step at least ``_RISES_OUT_LEVEL`` of the disc's own change (its median along the centre line inside
    it) and of the weaker of the strongest change before and after that step, and never bare board, on the
    strongest of lines a few mm either side of the centre line, from the rim to past where a token resting
    on it could show (``_resting_token_reach``, and ``_STANDS_UP_PAST_MM`` beyond, as ``_stands_up``)?

    One body seen without a break from its foot up: a figure on this disc. A token stack shows no further;
    a figure standing behind a token shows after the faint top of its own base (see
    ``_figure_rising_out_of_its_foot``). A line leaving the view or a marker's keep-out answers no."""
    ax, ay = camera.away(x, y)
    end = _rises_out_end(camera, x, y, r)
    end = max(end, _past_a_token_behind(view, camera, x, y, r))  # (a token lying just behind: the 103rd pass)
    distances = np.arange(-r + 2.0, end, 1.0)
    levels = _levels_away(score, view, ax, ay, x, y, distances, search)
    if levels is None:
        return False
    own = float(np.median(levels[1][distances <= r - 2.0]))
    if own <= 0:
        return False
    strongest = np.max(levels, axis=0)
    before = np.maximum.accumulate(strongest)  # the strongest change up to each step, and from it on
    after = np.maximum.accumulate(strongest[::-1])[::-1]
    # No dip: nowhere past the rim under that share of the disc's own change, nor of the weaker of the
    # strongest before and after it (a faint lower token, a vivid one resting on it, a base's faint top,
    # then the figure on that base: the resting-behind set, 55-74 degrees up, the lower token's own
    # change barely over the board's noise).
    level = _RISES_OUT_LEVEL * np.maximum(np.minimum(before, after), own)
    # Nor bare board (under ``bare_level``, as ``_apart_behind``): a faint token's own change barely
    # over the noise, then the board (the same set, 74 degrees up).
    level = np.maximum(level, bare_level)
    past = distances >= r
    return bool((strongest[past] >= level[past]).all())


#: The most (a share of the disc's own change) the change just past a disc's far rim may keep, on the lines across
#: its figure's middle, for that rim to be seen whole (see ``_far_rim_seen_whole``). Midway between the resting
#: token pairs' highest (0.26) and the faintest real figure seen past its base (used 940098: 0.32, a figure
#: much fainter against the board than its base; a third took it for a flat thing).
_WHOLE_RIM_SHARE = 0.29


def _levels_away(score, view: BoardView, ax: float, ay: float, x: float, y: float, distances: np.ndarray,
                 search) -> list[np.ndarray] | None:
    """The change score along each line a few mm either side of the centre line away from the camera
    (``_RISES_OUT_LINES_MM``; direction (ax, ay)) at ``distances`` mm from (x, y), or None where a line leaves the
    view or crosses a marker's keep-out."""
    h, w = score.shape
    levels = []
    for offset in _RISES_OUT_LINES_MM:
        u, v = view.to_px(x + ax * distances - ay * offset, y + ay * distances + ax * offset)
        ui, vi = np.round(u).astype(int), np.round(v).astype(int)
        if not ((ui >= 0) & (ui < w) & (vi >= 0) & (vi < h)).all() or not search[vi, ui].all():
            return None
        levels.append(score[vi, ui])
    return levels


def _far_rim_seen_whole(score, view: BoardView, camera: CameraPosition, x: float, y: float, r: float, search) -> bool:
    """Is the disc's far rim seen whole where a figure standing on it would cross it: on every line a few mm
    either side of the centre line away from the camera (``_RISES_OUT_LINES_MM``), the change over the band just
    past the far rim (``_RIM_BAND_MM``, past the outline's blur) under ``_WHOLE_RIM_SHARE`` of the disc's own (its
    median along the centre line inside it)?

    A figure stands on its base's middle: seen from low enough for it to show past the far rim, its body hides
    that rim over its width, and the change runs on from the base's top into the figure. Where instead the disc
    steps down at its far rim as at its near one, its rim whole, what shows further on starts behind the disc:
    something standing apart (a fighter on a base the board's colour right behind two tokens resting one on the
    other, fitted one crisp solid base-sized disc: the ``overlap-behind-board-resting`` built set; there the
    change past the rim keeps mostly 0.1-0.3 of the pair's, on the real fighters of used 998800-999099 0.49 and more). A
    figure much fainter against the board than its base does this too: which of the two it is cannot be told.
    A line leaving the view or a marker's keep-out answers no."""
    ax, ay = camera.away(x, y)
    near, far = _RIM_BAND_MM
    distances = np.arange(-r + 2.0, r + far + 0.01, 1.0)
    levels = _levels_away(score, view, ax, ay, x, y, distances, search)
    if levels is None:
        return False
    own = float(np.median(levels[1][distances <= r - 2.0]))
    past = np.max(levels, axis=0)[distances >= r + near]
    return own > 0 and float(past.max()) < _WHOLE_RIM_SHARE * own


#: A gap narrower than this many pixels, of the camera's image or of the top-down view (whichever has fewer per
#: board mm there), does not show as a dip in the change: the lens's and the warp's blur close it.
_GAP_SEEN_PX = 3.0


def _px_per_mm_away(view: BoardView, camera: CameraPosition, x: float, y: float) -> float:
    """Pixels per board mm along the line away from the camera at (x, y), in the camera's image (a pinhole's
    f sin(elevation) / distance) or in the top-down view, whichever has fewer: what a gap there is seen with."""
    cx, cy, cz = camera.centre_mm
    return min(camera.focal_px * cz / ((x - cx) ** 2 + (y - cy) ** 2 + cz ** 2), view.px_per_mm)


def _past_a_token_behind(view: BoardView, camera: CameraPosition, x: float, y: float, r: float) -> float:
    """How far (mm from the disc's centre, away from the camera) a token lying just behind the disc could show.

    ``_rises_out_of_it`` takes change running on out of a disc's far rim with no dip for a figure rising out of
    its foot. But a token may lie behind a token at any gap, and a gap under ``_GAP_SEEN_PX`` pixels of what sees
    it (``_px_per_mm_away``) shows no dip: the token behind then runs on out of the rim as a figure would, as far
    as that gap, a largest token and its thickest top's lean (1000250: two 19.7 mm tokens 4.8 mm apart, 57 degrees
    up, 2.5-3 mm of board seen between them; at 640 x 480, 0.84 px per mm away, and at 960 x 720, where the view's
    1 px per mm is the coarser, no dip). A figure's body runs on past that; a token behind does not."""
    gap = _GAP_SEEN_PX / _px_per_mm_away(view, camera, x, y)
    return r + gap + TOKEN_MAX_MM + math.hypot(*camera.lean(x, y, MAX_TOKEN_THICKNESS_MM)) + _FLAT_SLACK_MM


def _apart_behind(score, bare_level: float, view: BoardView, camera: CameraPosition, x: float, y: float,
                  r: float, search, reach: float | None = None) -> bool:
    """Does bare board (change score under ``bare_level``: not even faint change) cut every line
    away from the camera across the disc's width, for ``FIGURE_BREAK_MM`` or more, between the
    disc's far rim and the end of the stretch ``_stands_up`` looks at?

    A figure is one body joined to its foot: a figure standing on a disc (its foot, on a base the
    colour of the board) changes the view without a break from the disc's far rim out to its top,
    and a figure close to the board's colour does not stand on a base close to it too (see
    :mod:`vision.arena.hiding`). Change that starts again only after bare board on every line is
    something apart from the disc (a fighter's base a few mm behind a token, seen from high
    above: seeds 300165, 300227); the change mask's closing and hole filling bridge such a gap of
    up to some 5 mm, which is why ``_stands_up`` sees it as standing. Lines are laid every
    2 mm across the disc's whole width, so that a figure's leg or flank off its centre line,
    anywhere over the disc, keeps the line it is on unbroken; a line leaving the view or where
    change is not looked for (a marker's keep-out) answers no. ``reach``: the allowance (mm) past the far
    rim ``_stands_up`` was given, instead of a flat top's reach (see ``_within_resting_reach``).
    """
    ax, ay = camera.away(x, y)
    allowance = _flat_top_reach(camera, x, y) if reach is None else reach
    end = r + allowance + _STANDS_UP_PAST_MM  # where _stands_up stops looking
    h, w = score.shape
    for offset in np.arange(-r, r + 0.01, _APART_LINE_SPACING_MM):
        start = math.sqrt(max(r * r - offset * offset, 0.0))  # the disc's far rim on this line
        distances = np.arange(start, end, 1.0)
        u, v = view.to_px(x + ax * distances - ay * offset, y + ay * distances + ax * offset)
        ui, vi = np.round(u).astype(int), np.round(v).astype(int)
        if not ((ui >= 0) & (ui < w) & (vi >= 0) & (vi < h)).all() or not search[vi, ui].all():
            return False
        if longest_run(score[vi, ui] < bare_level) < FIGURE_BREAK_MM:
            return False
    return True


def _pinched_by(difference, mask, view: BoardView, x: float, y: float, r: float, search, joined=None,
                outline=None) -> float:
    """How far (mm) inside the fitted rim the outline lies on *both* sides of the disc, across
    its narrowest direction: rays out from the centre both ways, each to the outermost outline
    (see :func:`_rim_distances`); per direction the longer of the two counts.

    A base is round: no direction across it is narrower than its rim. Two discs lying one over
    the other, off centre, are a base's size along their offset only. A figure over a base
    close to the board's colour may stop a ray short on one side (its flank), never on both.
    A direction whose rays leave where change can be seen is not measured.

    ``joined``: per ray (``_WIDTH_ANGLES``, then the opposite ones), True where a ray that finds no outline
    ran on into a clear base behind the disc (see :func:`_rays_into_a_base_behind`): there the other ray
    of that direction counts alone. ``outline``: ``_outline_distances`` of these rays, if the caller has it.
    """
    angles = _PINCH_RAY_ANGLES
    distances, seen = _outline_distances(difference, mask, view, x, y, r, angles, search) if outline is None else outline
    half = len(_WIDTH_ANGLES)
    one, other = distances[:half], distances[half:]
    longer = np.maximum(one, other)  # NaN where either ray found no outline
    if joined is not None:
        longer = np.where(np.isnan(one) & joined[:half], other, np.where(np.isnan(other) & joined[half:], one, longer))
    usable = np.isfinite(longer) & seen[:half] & seen[half:]
    return float(r - longer[usable].min()) if usable.any() else 0.0


def _outline_distances(difference, mask, view: BoardView, x: float, y: float, r: float, angles, search):
    """Along rays out from (x, y) in each direction (board radians, to ``r`` + ``_PINCH_RAY_PAST_MM``): the distance
    (mm) to the outermost outline (see :func:`_rim_distances`; NaN where none), and whether the
    whole ray lies where change can be seen."""
    return _outlines(difference, mask, view, x, y, r, search, rays=angles)["rays"]


def _outlines(difference, mask, view: BoardView, x: float, y: float, r: float, search, **angle_sets) -> dict:
    """:func:`_outline_distances` of each set of directions (by name), all walked in one call: a disc's checks
    ask for two sets of the same reach (``_short_behind`` with ``_width_across`` or ``_pinched_by``), and each
    call is some 40 numpy calls on a few dozen rays. The same numbers: every step is per sample or per ray
    (the sample maps, the remaps, the blur along each ray, ``_rim_distances``), and each set's directions'
    cosines and sines are taken on that set alone, as its own call took them."""
    ppm = view.px_per_mm
    u, v = view.to_px(x, y)
    steps = np.arange(0, r + _PINCH_RAY_PAST_MM, _RAY_STEP_MM)
    sets = list(angle_sets.values())
    cos = np.concatenate([np.cos(angles) for angles in sets]) if len(sets) > 1 else np.cos(sets[0])
    sin = np.concatenate([np.sin(angles) for angles in sets]) if len(sets) > 1 else np.sin(sets[0])
    map_u = (u + cos[:, None] * steps[None, :] * ppm).astype(np.float32)
    map_v = (v - sin[:, None] * steps[None, :] * ppm).astype(np.float32)
    profiles = _along_rays(difference, map_u, map_v)
    profiles = cv2.blur(profiles, (3, 1))  # along the rays only, as for the rim fit
    inside = cv2.remap(mask, map_u, map_v, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    h, w = mask.shape
    ui, vi = np.round(map_u).astype(int), np.round(map_v).astype(int)
    seen = (ui >= 0) & (ui < w) & (vi >= 0) & (vi < h)  # (on the view, and then where change can be seen)
    seen &= search[_clamped(vi, h - 1), _clamped(ui, w - 1)]
    seen = seen[np.arange(len(seen)), seen.argmin(axis=1)]  # a row all True: its first False is none (see _first_marked)
    distances, _ = _rim_distances(profiles, inside)
    ends = np.cumsum([len(angles) for angles in sets])
    return {name: (distances[end - len(angles):end], seen[end - len(angles):end])
            for (name, angles), end in zip(angle_sets.items(), ends)}


def _far_side_angles(camera: CameraPosition, x: float, y: float) -> np.ndarray:
    """The directions (board radians) of :func:`_short_behind`'s rays."""
    ax, ay = camera.away(x, y)
    return math.atan2(ay, ax) + _FAR_SIDE_ANGLES


def _across_angles(camera: CameraPosition, x: float, y: float) -> np.ndarray:
    """The directions (board radians) of :func:`_width_across`' rays: both ways square to the line to the camera."""
    ax, ay = camera.away(x, y)
    return math.atan2(ay, ax) + np.concatenate((_ACROSS_ANGLES, _ACROSS_ANGLES + np.pi))


def _short_behind(difference, mask, view: BoardView, camera: CameraPosition, x: float, y: float, r: float,
                  search, outline=None) -> float:
    """How far (mm) inside the fitted rim the outline lies on the disc's far side: along the line
    away from the camera (and 5 and 10 degrees either side of it, the middle value), out from the
    fitted centre to the outermost outline (see :func:`_rim_distances`). 0 where it cannot be seen.

    The rim is fitted on the half facing the camera. A base's far rim is as far out, and whatever
    stands on it, a figure or the base's own top, shows displaced further away from the camera:
    nothing standing on a base stops its far outline short. A disc fitted too big on that half
    (a flat token with another lying against it, whose rim points pulled the fit) ends short.
    ``outline``: ``_outline_distances`` of its rays (``_far_side_angles``), if the caller has it.
    """
    distances, seen = (_outline_distances(difference, mask, view, x, y, r, _far_side_angles(camera, x, y), search)
                       if outline is None else outline)
    # A ray that finds no outline within reach ran on into more change: not short.
    distances = np.where(np.isnan(distances), r + _PINCH_RAY_PAST_MM, distances)[seen]
    return float(r - np.median(distances)) if len(distances) > len(_FAR_SIDE_ANGLES) // 2 else 0.0


def _width_across(difference, mask, view: BoardView, camera: CameraPosition, x: float, y: float, r: float,
                  search, outline=None) -> float:
    """How wide (mm) the change is across the line to the camera, through the fitted centre: rays
    both ways square to that line (and 10 degrees either side), each to the outermost outline (see
    :func:`_rim_distances`), the middle of the widths. Only directions whose rays lie wholly where
    change can be seen and find an outline on both sides count; 0 where fewer than two do.

    Across the line to the camera a flat disc is as wide as it is: its side and top show displaced
    along that line only. A token is at most ``TOKEN_MAX_MM`` wide there, however it is fitted.
    ``outline``: ``_outline_distances`` of its rays (``_across_angles``), if the caller has it.
    """
    distances, seen = (_outline_distances(difference, mask, view, x, y, r, _across_angles(camera, x, y), search)
                       if outline is None else outline)
    half = len(_ACROSS_ANGLES)
    # A ray that finds no outline within reach ran on into something else (a token or a die lying
    # against it, a shadow): that is no width of this thing, so that direction is not measured.
    usable = seen[:half] & seen[half:] & np.isfinite(distances[:half]) & np.isfinite(distances[half:])
    widths = (distances[:half] + distances[half:])[usable]
    return float(np.median(widths)) if len(widths) >= 2 else 0.0


def _rises_behind(mask, view: BoardView, camera: CameraPosition, x: float, y: float, r: float) -> bool:
    """Does a figure rise out of the disc's far rim? Along the line away from the camera (and
    along two lines a figure's half width beside it), change resumes within ``_RISE_GAP_MM`` of the
    rim and runs on, unbroken, ``_RISE_RUN_MM`` or more, past where a flat disc's top could show."""
    ax, ay = camera.away(x, y)
    allowance = _flat_top_reach(camera, x, y)
    reach = math.hypot(*camera.lean(x, y, MAX_FIGURE_MM))
    if reach <= allowance + _RISE_RUN_MM:
        return False  # seen from so high that a figure shows no further than a token's top
    distances = np.arange(0.0, reach, 1.0)
    h, w = mask.shape
    rises = 0
    for side in (-3.0, 0.0, 3.0):
        px, py = x + ax * (r + distances) - ay * side, y + ay * (r + distances) + ax * side
        u = np.round((px + view.width_mm / 2) * view.px_per_mm).astype(int)
        v = np.round((view.height_mm / 2 - py) * view.px_per_mm).astype(int)
        inside = (u >= 0) & (u < w) & (v >= 0) & (v < h)
        changed = np.zeros(len(distances), bool)
        changed[inside] = mask[v[inside], u[inside]] > 0
        starts = np.flatnonzero(changed & ~np.concatenate(([True], changed[:-1])))  # change resumes after a gap
        starts = np.concatenate((([0] if changed[0] else []), starts)).astype(int)
        for start in starts:
            if start > _RISE_GAP_MM:
                break
            run = int(np.argmin(changed[start:])) if not changed[start:].all() else len(changed) - start
            if run >= _RISE_RUN_MM and start + run > allowance:
                rises += 1
                break
    return rises >= 2


_AHEAD_ANGLES = np.radians(np.linspace(-35, 35, 8))


def _change_ahead(score, view: BoardView, camera: CameraPosition, x: float, y: float, r: float):
    """The changed points (board mm) of a band just outside the rim on the camera's side, and
    how many points of the band were looked at."""
    ax, ay = camera.away(x, y)
    angles = math.atan2(-ay, -ax) + _AHEAD_ANGLES[:, None]
    distances = np.array([r + _AHEAD_NEAREST_MM, r + 6.0, r + 8.0])[None, :]
    xs = (x + np.cos(angles) * distances).ravel()
    ys = (y + np.sin(angles) * distances).ravel()
    ui = np.round((xs + view.width_mm / 2) * view.px_per_mm).astype(int)
    vi = np.round((view.height_mm / 2 - ys) * view.px_per_mm).astype(int)
    h, w = score.shape
    inside = (ui >= 0) & (ui < w) & (vi >= 0) & (vi < h)
    changed = np.zeros(len(xs), bool)
    changed[inside] = score[vi[inside], ui[inside]] >= 1.0
    return tuple(zip(xs[changed].tolist(), ys[changed].tolist())), int(inside.sum())


def _disc_coverage(mask, view: BoardView, x: float, y: float, r: float, search=None) -> float:
    """Share of the disc that changed (``mask`` 0 or 1); only where change can be seen, if most of it can."""
    if r <= 0:
        return 0.0
    u, v = view.to_px(x, y)
    rp = r * view.px_per_mm
    h, w = mask.shape
    u0, u1 = max(0, int(u - rp)), min(w, int(u + rp) + 2)
    v0, v1 = max(0, int(v - rp)), min(h, int(v + rp) + 2)
    if u0 >= u1 or v0 >= v1:
        return 0.0
    # broadcast: the same disc as a full grid, without building one (np.ogrid's, at a fraction of its call cost)
    vv, uu = np.arange(v0, v1)[:, None], np.arange(u0, u1)[None, :]
    disc = (uu - u) ** 2 + (vv - v) ** 2 <= rp * rp
    pixels = int(np.count_nonzero(disc))  # (counted, not summed: a bool sum is a pass of its own, slower)
    if not pixels:
        return 0.0
    if search is not None:
        seen = disc & search[v0:v1, u0:u1]
        seen_pixels = int(np.count_nonzero(seen))
        if seen_pixels >= 0.5 * pixels:
            disc, pixels = seen, seen_pixels
    # The mean as numpy takes it: the exact (whole-number) sum over the count, one division.
    return int(mask[v0:v1, u0:u1][disc].sum()) / pixels


def _grow_into_faint_change(mask: np.ndarray, faint: np.ndarray) -> np.ndarray:
    """Hysteresis: faint change joins the mask where it touches clear change.

    A base close in colour to the board changes the view only faintly, but the figure on it
    changes it clearly; faint pixels on their own are noise or light, and stay out.
    """
    count, labels = cv2.connectedComponents(faint.astype(np.uint8), connectivity=8)
    seeded = np.bincount(labels[mask > 0], minlength=count) > 0
    seeded[0] = False
    if count <= 256:  # a byte lookup table costs far less than numpy's fancy indexing
        table = np.zeros(256, np.uint8)
        table[:count] = seeded
        return cv2.LUT(labels.astype(np.uint8), table) | (mask > 0).astype(np.uint8)
    return (seeded[labels] | (mask > 0)).astype(np.uint8)


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """A base whose top matches the board leaves a ring of change: fill it."""
    padded = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    # The board round the change, reached from outside, marked 2: the rest is the change (1) and its holes (0).
    cv2.floodFill(padded, None, (0, 0), 2)
    return (padded[1:-1, 1:-1] != 2).view(np.uint8)


def _peaks(distance: np.ndarray, minimum: float, *, separation_px: int) -> list[tuple[int, int]]:
    """Local maxima of the distance map above ``minimum``, strongest first, kept apart."""
    local_max = (distance >= cv2.dilate(distance, np.ones((3, 3), np.uint8))) & (distance >= minimum)
    vs, us = _nonzero(local_max)
    order = np.argsort(-distance[vs, us], kind="stable")
    kept: list[tuple[int, int]] = []
    for index in order:
        u, v = int(us[index]), int(vs[index])
        if all((u - ku) ** 2 + (v - kv) ** 2 >= separation_px**2 for ku, kv in kept):
            kept.append((u, v))
    return kept


def _clamped(index: np.ndarray, last: int) -> np.ndarray:
    """Whole numbers (pixel indices) held within 0 to ``last``: ``np.clip``'s answer, at a third of its
    cost on the small arrays here (its checks and dispatch cost more than the two passes)."""
    return np.minimum(np.maximum(index, 0), last)


def _nonzero(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero`` of a 2-D mask, in the same row-major order: ``cv2.findNonZero`` costs a
    fraction of it on a view that is mostly empty."""
    mask = np.ascontiguousarray(mask)
    points = cv2.findNonZero(mask.view(np.uint8) if mask.dtype == bool else mask)
    if points is None:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    points = points.reshape(-1, 2).astype(np.intp)
    return points[:, 1], points[:, 0]


def _front_seeds(mask, view: BoardView, camera: CameraPosition, radius_mm: float,
                 window: tuple[slice, slice] | None = None) -> list[tuple[int, int]]:
    """Points one base radius in from the outline where it faces the camera, a few mm apart;
    the outline is looked for in ``window`` (rows, columns) if given (all of it inside)."""
    ppm = view.px_per_mm
    rows, cols = window if window is not None else (slice(None), slice(None))
    part = mask[rows, cols]
    edge = part.astype(bool) & ~cv2.erode(part, np.ones((3, 3), np.uint8)).astype(bool)
    vs, us = _nonzero(edge)
    vs, us = vs + (rows.start or 0), us + (cols.start or 0)
    if len(us) == 0:
        return []
    xs = us / ppm - view.width_mm / 2
    ys = view.height_mm / 2 - vs / ppm
    ax, ay = xs - camera.centre_mm[0], ys - camera.centre_mm[1]
    norm = np.maximum(np.hypot(ax, ay), 1e-6)
    ax, ay = ax / norm, ay / norm  # away from the camera, board frame
    h, w = mask.shape
    # Facing the camera: one step towards the camera leaves the change.
    fu = _clamped(np.round(us - ax * 2 * ppm).astype(int), w - 1)
    fv = _clamped(np.round(vs + ay * 2 * ppm).astype(int), h - 1)
    front = mask[fv, fu] == 0
    su = np.round(us[front] + ax[front] * radius_mm * ppm).astype(int)
    sv = np.round(vs[front] - ay[front] * radius_mm * ppm).astype(int)
    # One seed per grid cell a few mm wide is enough: each seed fits a whole disc.
    cell = max(1, int(round(_FRONT_SEED_SPACING_MM * ppm)))
    _, first = np.unique((su // cell) * 1_000_003 + (sv // cell), return_index=True)
    return [(int(su[i]), int(sv[i])) for i in sorted(first)]


def _fit_near_rims(difference, mask, view: BoardView, seeds, camera: CameraPosition, radius_mm: float):
    """Per seed (u, v): a disc fitted to the rim, towards the camera, of the changed region round it.

    Along each ray the outline is put where the (linear) difference falls to half the level
    just inside it: blur does not move that point, so strong and faint colours size alike.
    Each is (x_mm, y_mm, radius_mm, rms_error_mm, tiered) or None. The rays of every seed
    are sampled and scanned together (each ray on its own row): per-call costs dominate.
    """
    if not seeds:
        return []
    return _fits_to(_rim_points(difference, mask, view, seeds, camera, radius_mm), view)


def _fits_to(rims, view: BoardView) -> list:
    """:func:`_fit_near_rims`' discs, from :func:`_rim_points`' answer ``rims``."""
    ppm = view.px_per_mm
    xs, ys, good, tiered = rims
    fits = []
    for k, fitted in enumerate(_robust_circles(xs, ys, good)):
        if fitted is None:
            fits.append(None)
            continue
        cu, cv, r, error = fitted
        x, y = view.to_mm(cu * ppm, cv * ppm)
        fits.append((x, y, r, error, float(tiered[k])))
    return fits


#: A base's rim rays that may have run on past it into a neighbour touching it (see _base_rim_past_a_neighbour).
_RAYS_PAST_THE_RIM = 2
#: How far past the rim (mm) such a ray's outline lies: further than any fitting error of a crisp rim.
_PAST_THE_RIM_MM = 2.0


def _base_rim_past_a_neighbour(xs: np.ndarray, ys: np.ndarray, valid: np.ndarray, pulled):
    """The crisp base-sized circle (cu, cv, r, rms) that all but one or two of a ragged fit's rim points lie
    on, those one or two lying well outside it; or None. ``pulled``: the circle (cu, cv, r, rms) fitted to
    them all.

    Where a base touches something changed in front of it or beside it (a token lying against it), the
    rays walked out of it towards the camera do not stop at its rim there: the change runs on, unbroken,
    into the neighbour, and the outline found lies out beyond the base's rim. The circle fitted to every
    ray is pulled towards it and ragged (``_robust_circles`` drops points far off a circle only once that
    circle is near the rim; pulled, it keeps them). The rim is what the other rays agree on: seen from 55
    and 74 degrees up, a fighter's vivid 27 mm base 0.5 mm behind two tokens resting one on the other,
    one or two of 14-15 rays ran 7.6-11 mm on into the tokens' change and the rest lie on a circle within
    0.6 mm (``bench/arena_stacked_tokens.py --set resting-behind``: fitted 2.2-2.6 mm off a circle, 6-7 mm
    towards the tokens, it was no disc, and no base stood behind them). Only a spec base's size is taken
    so (``_base_sized``); a ray short of the circle, or off it by less, is no neighbour's. The rays left out
    are looked for among those outside the pulled circle: pulled towards them, it still lies inside them;
    and those left on the rim must outnumber them by far (ten rays or more found the outline).

    ``_disc_fits`` asks it of a seed's own fit that is no disc (``is_disc``) and round its seed, and keeps
    what it gives only where no other seed fitted that base crisp (the disc was found: a fit past it would
    only stand in for that one). A fit that is a disc stands as fitted: used seed 940225, 34 degrees up, a
    figure's middle fitted 25.5 mm, 0.82 mm off a circle; two rays left out made it a crisp 24.3 mm "base"
    behind its fighter, and with the count a right reading became a doubt.
    """
    index = np.flatnonzero(valid)
    if len(index) < 3 * _RAYS_PAST_THE_RIM + 4:
        return None
    px, py = xs[index], ys[index]
    outside = np.flatnonzero(np.hypot(px - pulled[0], py - pulled[1]) > pulled[2])
    left_out = [(i,) for i in outside] + list(itertools.combinations(outside, 2))
    if not left_out:
        return None
    keep = np.ones((len(left_out), len(px)), bool)
    for row, rays in enumerate(left_out):
        keep[row, list(rays)] = False
    circles = [c if c is not None else (np.nan,) * 4 for c in
               _robust_circles(np.broadcast_to(px, keep.shape), np.broadcast_to(py, keep.shape), keep)]
    cx, cy, r, _ = np.array(circles).T
    with np.errstate(invalid="ignore"):
        off = np.hypot(px - cx[:, None], py - cy[:, None]) - r[:, None]
        on_rim, ran_on = np.abs(off) <= 1.0, off >= _PAST_THE_RIM_MM
        rms = np.sqrt(np.where(on_rim, off * off, 0.0).sum(axis=1) / np.maximum(on_rim.sum(axis=1), 1))
        good = (on_rim | ran_on).all(axis=1) & (ran_on.sum(axis=1) <= _RAYS_PAST_THE_RIM) & (rms <= CRISP_RIM_MM)
    rows = [row for row in np.flatnonzero(good) if _base_sized(2 * r[row])]
    if not rows:
        return None
    best = min(rows, key=lambda row: (ran_on[row].sum(), rms[row]))
    return float(cx[best]), float(cy[best]), float(r[best]), float(rms[best])


def _rim_points(difference, mask, view: BoardView, seeds, camera: CameraPosition, radius_mm: float,
                per_ray: bool = False):
    """The rim points :func:`_fit_near_rims` fits, per seed one row, rays in order of angle:
    (xs, ys) in view mm (u right, v down), which rays found the outline (none, where fewer than
    six did), and per seed the share of its rim that is a fainter ring round something stronger
    (``per_ray``: per ray, whether its outline is such a ring)."""
    ppm = view.px_per_mm
    us = np.array([u for u, _ in seeds], np.float64)
    vs = np.array([v for _, v in seeds], np.float64)
    towards = []
    for u, v in seeds:
        ax, ay = camera.away(*view.to_mm(u, v))
        towards.append(math.atan2(ay, -ax))  # in view coordinates (u right, v = -y): the camera's side
    angles = np.array(towards)[:, None] + _RAY_ANGLES[None, :]
    steps = np.arange(0, 2.2 * radius_mm, _RAY_STEP_MM)
    du, dv = np.cos(angles), np.sin(angles)
    map_u = (us[:, None, None] + du[:, :, None] * steps[None, None, :] * ppm).astype(np.float32).reshape(-1, len(steps))
    map_v = (vs[:, None, None] + dv[:, :, None] * steps[None, None, :] * ppm).astype(np.float32).reshape(-1, len(steps))
    profiles = _along_rays(difference, map_u, map_v)
    profiles = cv2.blur(profiles, (3, 1))  # along the rays only: steadier ramps
    inside = cv2.remap(mask, map_u, map_v, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    all_distances, all_tiered = _rim_distances(profiles, inside)
    rays = len(_RAY_ANGLES)
    good = np.isfinite(all_distances).reshape(len(seeds), rays)
    distances = np.where(good, all_distances.reshape(len(seeds), rays), 0.0)
    xs = us[:, None] / ppm + du * distances
    ys = vs[:, None] / ppm + dv * distances
    counts = good.sum(axis=1)
    ray_tiered = all_tiered.reshape(len(seeds), rays) & good
    if per_ray:
        return xs, ys, good & (counts >= 6)[:, None], ray_tiered
    tiered = ray_tiered.sum(axis=1) / np.maximum(counts, 1)  # share of the rim
    return xs, ys, good & (counts >= 6)[:, None], tiered


def _faint_ring_base(difference, mask, view: BoardView, seed: tuple[int, int], camera: CameraPosition,
                     radius_mm: float, settings: ArenaSettings, search) -> tuple | None:
    """The disc (x_mm, y_mm, radius_mm, rms_error_mm) of a base close to the board's colour round its
    figure's foot, seen from so high that the figure stays over its base, where a crisp ringed disc
    fitted between the sizes (from ``seed``) is one: its faint ring, fitted alone, is a crisp disc
    base-sized (as the size cut reads a fit: at least ``_size_cut`` + ``SIZE_MARGIN_MM``, at most a
    clear base's), round both ways (not ``_pinched_by`` ``PINCHED_MM``), and a figure standing on it
    would stay over it (figure ``UNKNOWN``). Else None.

    Why: a fainter ring round something stronger is the rim of one faint disc, and its own rim
    points fit that disc's size. The whole fit mixes in the rays that are one step from the board,
    which are something else's outline: a base's ring round its figure's foot may lose its far-side
    rays to the figure's top (670187: 24.7 mm fitted, its ring alone 26.7 mm, a 25.6 mm base); a
    faint token with a vivid one resting on it off its centre (the ``resting``/``resting-wide`` built
    sets, whose pairs fit 23.2-24.7 mm, ringed 0.48-0.9) has the upper token's own rim at its sides
    and back pulling the fit wider, while its ring alone is the lower token's rim: 21.3-24.0 mm on
    the 25 such pairs measured at 61-80 degrees (22.3-23.8 where they stand up), under the cut, as no
    token is over 22 mm. The disc so fitted is then judged as any base-sized
    one (``classify``: ringed, with its figure's top standing up out of it, or size alone)."""
    ring = _faint_ring_fit(difference, mask, view, seed, camera, radius_mm)
    if ring is None:
        return None
    x, y, r, error = ring
    if not (error <= CRISP_RIM_MM and _size_cut(settings) + SIZE_MARGIN_MM <= 2 * r
            <= settings.base_mm + CLEAR_BASE_SLACK_MM):
        return None
    if _figure_evidence(mask, view, camera, x, y, r, search) is not Evidence.UNKNOWN:
        return None  # seen from lower: the figure's outline may hold one-step rays of its own
    if _pinched_by(difference, mask, view, x, y, r, search) >= PINCHED_MM:
        # Round both ways, as a base is, whatever stands up behind it: a ring fitted from a short front
        # arc may come out wider than the faint disc it rims (the ``resting`` set, 61 degrees up: a 22
        # mm faint token with a 20 mm one 5 mm off, ring alone 25.6 mm, pinched 2.6 mm).
        return None
    return ring


def _faint_ring_fit(difference, mask, view: BoardView, seed: tuple[int, int], camera: CameraPosition,
                    radius_mm: float):
    """The disc (x_mm, y_mm, radius_mm, rms_error_mm) fitted from ``seed`` to the rim points of the
    rays whose outline is a fainter ring round something stronger, those alone; None where fewer
    than six rays are (see :func:`_faint_ring_base`)."""
    xs, ys, good, ray_tiered = _rim_points(difference, mask, view, [seed], camera, radius_mm, per_ray=True)
    valid = good & ray_tiered
    if valid.sum() < 6:
        return None
    fitted = _robust_circles(xs, ys, valid)[0]
    if fitted is None:
        return None
    cu, cv, r, error = fitted
    x, y = view.to_mm(cu * view.px_per_mm, cv * view.px_per_mm)
    return x, y, r, error


def _split_touching_pairs(fits: list, wide_rims: dict, view: BoardView) -> int:
    """Each fit of ``wide_rims`` (by index into ``fits``: its rim points xs, ys, valid) replaced by
    the disc of a base's radius its rim points lie on, where that disc touches another fit that is a
    crisp base (in place); how many were.

    Why: two touching bases show two front arcs of a base's radius meeting at a cusp. Where the
    neighbour stands on the camera's side, the rays towards the camera from a seed of the other run
    into it, and the rim points left are a short arc (the neighbour on one side, the figure's change
    on the other): too short to tell a 26 mm disc from a 34 mm one, and the least-squares circle
    through them comes out wider than any base (the nineteenth pass: 6 of 11 such fighters read short,
    fitted 30-34 mm). The spec fixes the radius a short arc cannot: a base's (25-28 mm). That disc is
    taken only where the points lie on it about as well as on the wide one *and* a neighbour is there, fitted as a crisp base of
    its own, touching it (no more overlap than two bases' fits may show): a figure's outline or
    tokens lying through each other leave no such pair. What is taken is a disc like any other, with
    all its checks (coverage, figure, rim ahead) still to pass."""
    if not wide_rims:
        return 0  # (most reads: no fit wider than a base, nothing to look at)
    replaced = 0
    bases_fitted = [f for j, f in enumerate(fits)
                    if j not in wide_rims and f[3] <= CRISP_RIM_MM and _base_sized(2 * f[2])]
    for i, (xs, ys, valid) in wide_rims.items():
        wide = fits[i]
        # Cheap first: a base's disc on these points lies within the wide one, its centre at most
        # ``shift`` from the wide one's; a base touching it stands some two base radii from that.
        shift = wide[2] - _BASE_RADII_MM[0] + 2 * MAX_RIM_ERROR_MM
        near = [f for f in bases_fitted if 2 * _BASE_RADII_MM[0] - BASE_OVERLAP_MM - shift
                <= math.hypot(f[0] - wide[0], f[1] - wide[1]) <= LARGEST_BASE_MM + _TOUCHING_GAP_MM + shift]
        if not near:
            continue
        based = _base_on_short_arc(wide[:5], xs, ys, valid, view)
        if based is None:
            continue
        x, y, r = based[:3]
        if any(-BASE_OVERLAP_MM <= math.hypot(f[0] - x, f[1] - y) - (f[2] + r) <= _TOUCHING_GAP_MM for f in near):
            fits[i] = (*based, *wide[5:])
            replaced += 1
    return replaced


def _base_sized(diameter_mm: float) -> bool:
    """Within the spec's bases (25-28 mm), measured: less the fitting's slack, plus the thickness bias."""
    return 2 * _BASE_RADII_MM[0] - SIZE_MARGIN_MM <= diameter_mm <= LARGEST_BASE_MM + SIZE_MARGIN_MM


def _base_on_short_arc(fitted, xs: np.ndarray, ys: np.ndarray, valid: np.ndarray, view: BoardView):
    """The disc of a base's radius (the spec's, ``_BASE_RADII_MM``: the one whose circle fits best)
    that the rim points of ``fitted`` (x, y, r, rms, tiered), a disc wider than any base, lie on
    about as well as on ``fitted``'s: (x, y, r, rms, tiered), or None.

    None too where a token's radius fits the arc far better than any base's (``_TOKEN_ARC_SHARE``): the
    arc does tell, and it is a token's rim (the eightieth pass: a 20 mm token touching a fighter's base,
    its front arc and the change of a fighter just behind it fitted 41 mm; a base's radius forced on that
    arc made a crisp 25 mm "base", 0.37 mm off, where a 10 mm radius fits it 0.12 mm off, on the token's
    true centre). The spec fixes the radius only where the arc cannot: tokens lie beside bases too."""
    circles = _circles_of_radii(fitted, xs, ys, valid, view, _BASE_RADII_MM + _TOKEN_RADII_MM)
    bases, tokens = circles[:len(_BASE_RADII_MM)], circles[len(_BASE_RADII_MM):]
    # The arc must not tell the two apart: the base's circle fits it as crisply as a base's rim,
    # or about as well as the wide circle does (and as one disc's rim may, at worst).
    worst = min(MAX_RIM_ERROR_MM, max(CRISP_RIM_MM, fitted[3] + _ARC_CANNOT_TELL_MM))
    bases = [c for c in bases if c is not None and c[3] <= worst]
    if not bases:
        return None
    based = min(bases, key=lambda c: c[3])
    return None if any(c is not None and c[3] <= _TOKEN_ARC_SHARE * based[3] for c in tokens) else based


def _circles_of_radii(fitted, xs: np.ndarray, ys: np.ndarray, valid: np.ndarray, view: BoardView,
                      radii_mm) -> list:
    """Per radius of ``radii_mm``, the circle of that radius through ``fitted``'s rim points: its
    centre fitted by Gauss-Newton, started on the side of the points' mean where ``fitted``'s lies,
    then the points far off it dropped (as in ``_robust_circles``) and fitted again.
    (x, y, r, rms, tiered) or None, per radius.

    All radii at once, one row each (a row's dropped points weigh nothing, a row that has
    converged or failed stays as it is): with 6-21 points a circle, numpy's per-call cost is what
    a circle costs, so one pass for the three radii costs about what one circle did."""
    ppm = view.px_per_mm
    px, py = xs[valid], ys[valid]
    if len(px) < _SHORT_ARC_MIN_POINTS:
        return [None] * len(radii_mm)
    radius = np.array(radii_mm, np.float64)
    column = radius[:, None]
    cu, cv = (c / ppm for c in view.to_px(fitted[0], fitted[1]))
    mx, my = px.mean(), py.mean()
    toward = math.hypot(cu - mx, cv - my) or 1.0
    cx, cy = mx + (cu - mx) / toward * radius, my + (cv - my) / toward * radius
    rows = len(radius)
    keep = np.ones((rows, len(px)), bool)
    alive = np.ones(rows, bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for _ in range(2):
            weight = keep.astype(np.float64)
            moving = alive.copy()
            for _ in range(_SHORT_ARC_STEPS):
                dx, dy = px - cx[:, None], py - cy[:, None]
                dist = np.maximum(np.hypot(dx, dy), 1e-6)
                jx, jy = -dx / dist * weight, -dy / dist * weight
                residual = dist - column
                a, b, c = (jx * jx).sum(axis=1), (jx * jy).sum(axis=1), (jy * jy).sum(axis=1)
                gx, gy = (jx * residual).sum(axis=1), (jy * residual).sum(axis=1)
                det = a * c - b * b
                singular = moving & (np.abs(det) < 1e-9)
                alive &= ~singular
                moving &= ~singular
                step_x, step_y = (c * gx - b * gy) / det, (a * gy - b * gx) / det
                cx, cy = np.where(moving, cx - step_x, cx), np.where(moving, cy - step_y, cy)
                moving &= np.hypot(step_x, step_y) >= 0.01
                if not moving.any():
                    break
            off = np.abs(np.hypot(px - cx[:, None], py - cy[:, None]) - column)
            keep = off < np.maximum(1.0, 2.5 * _row_medians(off, keep))[:, None]
            alive &= keep.sum(axis=1) >= _SHORT_ARC_MIN_POINTS
            if not alive.any():
                return [None] * rows
    rms = np.sqrt((np.where(keep, off, 0.0) ** 2).sum(axis=1) / np.maximum(keep.sum(axis=1), 1))
    circles = []
    for k in range(rows):
        if not alive[k]:
            circles.append(None)
            continue
        x, y = view.to_mm(float(cx[k]) * ppm, float(cy[k]) * ppm)
        circles.append((x, y, float(radius[k]), float(rms[k]), fitted[4]))
    return circles


def _row_medians(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Per row, the median of ``values`` where ``keep`` (as ``np.median``; a row keeping none: inf)."""
    counts = keep.sum(axis=1)
    ordered = np.sort(np.where(keep, values, np.inf), axis=1)
    rows = np.arange(len(values))
    upper = ordered[rows, np.minimum(counts // 2, values.shape[1] - 1)]
    lower = ordered[rows, np.maximum(counts - 1, 0) // 2]
    return (lower + upper) / 2


def _rim_distances(profiles: np.ndarray, inside: np.ndarray):
    """Per ray: distance (mm) to the outline at half the outermost plateau, and whether that
    plateau is a fainter ring round something stronger. NaN where a ray finds no outline.

    Along a ray: leave the change mask, run on to where the blur tail dies out (the quiet
    end), walk back in while the difference keeps climbing (the ramp), and take half the
    level where it levels off: that point does not move with blur or contrast.

    (Cost, the twenty-sixth pass: a few hundred rays of some 60 samples, so each step is a pass
    over a small array. A row's first marked sample is its ``argmax``, checked, not ``any`` and
    ``argmax``: numpy reduces a bool row by row slowly, and finds the first True fast; a row's
    last is found on a reversed copy; "at or before sample e" is a row of a table made once per
    ray length, not a comparison with a broadcast index. The same samples, the same arithmetic.)
    """
    rays, samples = profiles.shape
    rows = np.arange(rays)
    up_to, from_ = _sample_ranges(samples)
    outside = inside == 0
    first_out, has_out = _first_marked(outside, rows, samples - 1)
    quiet = (profiles < _QUIET_DIFFERENCE) & from_[first_out]
    end, _ = _first_marked(quiet, rows, samples - 1)
    # Back in from the quiet end past the tail, to the last sample still above the noise.
    loud = (profiles >= _QUIET_DIFFERENCE) & up_to[end]
    top = _last_marked(loud, rows, samples)
    # Then inwards while climbing; the plateau starts where the climb stops. (Each row's rise from
    # the next sample in one pass over the flat array; what that puts in column 0 spans two rows.)
    rise = np.empty_like(profiles)
    flat_profiles = profiles.reshape(-1)
    np.subtract(flat_profiles[:-1], flat_profiles[1:], out=rise.reshape(-1)[1:])
    rise[:, 0] = 0
    climbing = rise >= np.maximum(_RAMP_MIN_RISE, _RAMP_MIN_FRACTION * profiles)
    flat = ~climbing & up_to[top]
    level_at = _last_marked(flat, rows, samples)
    level = profiles[rows, level_at]
    half = level / 2
    below = (profiles < half[:, None]) & from_[level_at + 1] & up_to[end + 4]  # past level_at, before end + 5
    k, found = _first_marked(below, rows, 1)
    found &= has_out
    k = np.where(found, k, 1)
    a, b = profiles[rows, k - 1], profiles[rows, k]
    t = np.where(a != b, (a - half) / np.where(a != b, a - b, 1), 0.5)
    distances = np.where(found, (k - 1 + t) * _RAY_STEP_MM, np.nan)
    strongest_inside = (profiles * up_to[level_at]).max(axis=1)  # profiles are >= 0 (remapped differences)
    return distances, level < _TIER_RATIO * strongest_inside


@functools.lru_cache(maxsize=8)
def _sample_ranges(samples: int) -> tuple[np.ndarray, np.ndarray]:
    """Tables (read-only) of a ray of ``samples`` samples, row e: ``up_to[e]`` the samples at or
    before e, ``from_[e]`` those at or after it (e from 0 to ``samples + 4``)."""
    up_to = np.tri(samples + 5, samples, dtype=bool)
    from_ = ~np.tri(samples + 5, samples, -1, dtype=bool)
    up_to.flags.writeable = from_.flags.writeable = False
    return up_to, from_


def _first_marked(marked: np.ndarray, rows: np.ndarray, otherwise: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the index of its first True (``otherwise`` in a row with none), and whether it has one."""
    first = marked.argmax(axis=1)
    has = marked[rows, first]
    return np.where(has, first, otherwise), has


def _last_marked(marked: np.ndarray, rows: np.ndarray, samples: int) -> np.ndarray:
    """Per row, the index of its last True (0 in a row with none)."""
    last = samples - 1 - np.ascontiguousarray(marked[:, ::-1]).argmax(axis=1)
    return np.where(marked[rows, last], last, 0)


def _robust_circle(points: np.ndarray):
    """Least-squares circle (centre, radius, rms) that drops rim points from a touching neighbour."""
    return _robust_circles(points[None, :, 0], points[None, :, 1], np.ones((1, len(points)), bool))[0]


def _robust_circles(xs: np.ndarray, ys: np.ndarray, valid: np.ndarray) -> list:
    """:func:`_robust_circle` of each row's valid points (rows of ``xs``, ``ys``), all rows at once.

    The 3x3 normal equations of 2 cx x + 2 cy y + c = x^2 + y^2, formed from sums (centred on
    the points' mean, which keeps them small) and solved by Cramer's rule; then the points
    far off the circle are dropped and it is fitted again. With some 20 points per circle,
    numpy's per-call cost is what would dominate: every seed's circle is fitted together.
    A row is (cx, cy, r, rms) or None.
    """
    rows = len(xs)
    counts = valid.sum(axis=1)
    active = counts >= 5
    if not active.any():
        return [None] * rows
    # Each row's latest circle (set while it is active), all rows at once: numpy scalars taken
    # one by one cost more than the fit itself.
    fitted = np.zeros(rows, bool)
    latest = np.zeros((4, rows))
    # (The seventy-seventh pass: x and y together, each row as before.)
    both = np.array((xs, ys), np.float64)
    ox, oy = origin = (both * valid).sum(axis=2) / np.maximum(counts, 1)
    xs, ys = centred = np.where(valid, both - origin[:, :, None], 0.0)
    squares = xs * xs + ys * ys
    # (Cost, the twenty-sixth pass: some 20 points a circle, so numpy's per-call cost is the cost.
    # The eight sums in two calls, each row summed along its points as before; Cramer's rule with
    # the minors and products its four determinants share worked out once. The same operations on
    # the same operands: the same circles, to the last bit.)
    points = np.concatenate((centred, squares[None]))
    keep = valid.copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        for last in (False, False, True):
            n = keep.sum(axis=1)
            active &= n >= 5
            if not active.any():
                break
            kept_points = points * keep
            # (The seventy-seventh pass: the nine sums scaled in one call, 2 sx ... n, and unpacked as views.)
            factors = kept_points[_PRODUCT_FACTORS]
            sx2, sy2, sq, sxx4, syy4, sxy4, sxq2, syq2, n_ = np.concatenate((
                kept_points.sum(axis=2), (factors[0] * factors[1]).sum(axis=2), n[None])) * _SUM_SCALES
            det, cx, cy, c = _cramer(((sxx4, sxy4, sx2), (syy4, sy2), n_), (sxq2, syq2, sq))
            active &= np.abs(det) >= 1e-9
            r2 = c + cx**2 + cy**2
            fitted &= ~(active & (r2 <= 0))
            active &= r2 > 0
            r = np.sqrt(np.maximum(r2, 0.0))
            residual = np.where(valid, np.abs(np.hypot(xs - cx[:, None], ys - cy[:, None]) - r[:, None]), np.inf)
            kept = np.where(keep, residual, 0.0)
            rms = np.sqrt((kept * kept).sum(axis=1) / n)
            fitted |= active
            np.copyto(latest, (cx + ox, cy + oy, r, rms), where=active)
            if last:
                break  # (the points kept after the last fit are not used)
            ordered = np.sort(np.where(keep, residual, np.inf), axis=1)
            median = ordered[np.arange(rows), np.minimum(n // 2, ordered.shape[1] - 1)]
            new_keep = residual < np.maximum(1.0, 2.5 * median)[:, None]
            active &= ~(new_keep == keep).all(axis=1)
            keep = np.where(active[:, None], new_keep, keep)
    return [tuple(circle) if ok else None for ok, circle in zip(fitted.tolist(), latest.T.tolist())]


#: The products of x, y and q = x^2 + y^2 whose sums the circle fit needs: xx, yy, xy, xq, yq.
_PRODUCT_FACTORS = np.array([[0, 1, 0, 0, 1], [0, 1, 1, 2, 2]])
#: What the circle fit's sums (sx, sy, sq, sxx, syy, sxy, sxq, syq, n) are scaled by in its normal equations.
_SUM_SCALES = np.array([2.0, 2.0, 1.0, 4.0, 4.0, 4.0, 2.0, 2.0, 1.0])[:, None]
# Rows of :func:`_cramer`'s table: the system's upper triangle and right-hand side, then its 2x2 minors.
_M00, _M01, _M02, _M11, _M12, _M22, _R0, _R1, _R2, _A, _B, _C, _E, _G, _PQ, _QP = range(16)
#: The minors a, b, c, e, g, p - q, q - p, each x * y - z * w: [(x, y), (z, w)] (p = r1 m12, q = m11 r2).
_MINORS = np.array([[[_M11, _M01, _M01, _R1, _M01, _R1, _M11], [_M22, _M22, _M12, _M22, _R2, _M12, _R2]],
                    [[_M12, _M12, _M11, _M12, _R1, _M11, _R1], [_M12, _M02, _M02, _R2, _M02, _R2, _M12]]])
#: The four determinants (of m; m with column 0, 1, 2 the right-hand side), each u - v + w of three
#: products: [(u's factors), (v's), (w's)].
_DETERMINANTS = np.array([[[_M00, _R0, _M00, _M00], [_A, _A, _E, _QP]],
                          [[_M01, _M01, _R0, _M01], [_B, _E, _B, _G]],
                          [[_M02, _M02, _M02, _R0], [_C, _PQ, _G, _C]]])


def _cramer(upper, rhs):
    """The symmetric 3x3 system ``m`` (its upper triangle: rows (m00, m01, m02), (m11, m12), m22)
    ``m (x0, x1, x2) = rhs`` by Cramer's rule: (det m, x0, x1, x2), each determinant expanded
    along its first row, as a plain ``det3`` of ``m`` with a column replaced would (the same
    products: m10 is m01, m20 is m02 and m21 is m12 to the bit).

    The 2x2 minors are each shared by two of the four determinants (or one's negative another's):
    det = m00 a - m01 b + m02 c, x0 det = r0 a - m01 e + m02 (p - q), x1 det = m00 e - r0 b + m02 g,
    x2 det = m00 (q - p) - m01 g + r0 c. (The seventy-seventh pass: every minor, then every
    determinant, in one gather and a few calls on a table of them all, not some 40 calls on rows of
    a few circles; each number the same products and differences in the same order as before.)"""
    (m00, m01, m02), (m11, m12), m22 = upper
    r0, r1, r2 = rhs
    table = np.array((m00, m01, m02, m11, m12, m22, r0, r1, r2), np.float64)
    factors = table[_MINORS]
    products = factors[:, 0] * factors[:, 1]
    factors = np.concatenate((table, products[0] - products[1]))[_DETERMINANTS]
    products = factors[:, 0] * factors[:, 1]
    determinants = products[0] - products[1] + products[2]
    det = determinants[0]
    return (det, *(determinants[1:] / det))


