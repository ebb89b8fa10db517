"""The Knockdown Test flow: Idle -> Armed -> Counting -> Judging -> Verdict -> (engine event).

Pure logic. Time comes from an injected clock; the countdown device and the tower
judge are injected too. The flow never applies anything to the engine itself: the
methods that finish a test return a :class:`Decision` (the engine event plus the
audit entry that explains it) and the service applies it. The flow moves on only
when the service calls :meth:`KnockdownFlow.sync` with the engine's new ``pending``,
so an event the engine refuses leaves the flow exactly where it was.

Threading: not thread-safe; the service calls it under its one lock.
"""

from __future__ import annotations

import enum
import math
import random
import secrets
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Protocol


class FlowState(enum.StrEnum):
    IDLE = "idle"
    ARMED = "armed"
    COUNTING = "counting"
    JUDGING = "judging"
    VERDICT = "verdict"


class FlowError(ValueError):
    """A flow command that does not fit the current state (quoted in the message)."""


class FlowInputError(FlowError):
    """A flow command or option with a bad value (quoted in the message)."""


class Countdown(Protocol):
    """What the flow needs from ``assistant.hardware.countdown.Countdown``."""

    def start(self) -> None: ...

    def done(self) -> None: ...

    def cancel(self) -> None: ...


class TowerSession(Protocol):
    """What the flow needs from ``vision.tower.TowerSession``."""

    def start(self, reference_frame) -> None: ...

    def add_frame(self, frame, t: float) -> None: ...

    def judge(self, deadline_t: float, now_t: float): ...


@dataclass(frozen=True)
class PendingTest:
    """The engine's open Knockdown Test: who builds, with how many cubes, which variant."""

    player: int
    heavy: int
    light: int
    variant: str

    @classmethod
    def from_pending(cls, pending: dict | None) -> "PendingTest | None":
        if not pending or pending.get("kind") != "knockdown_test":
            return None
        return cls(
            player=int(pending["player"]),
            heavy=int(pending.get("heavy", 0)),
            light=int(pending.get("light", 0)),
            variant=str(pending.get("variant", "tower")),
        )


def tall_tower_warning(test: PendingTest | None, view_holds_cubes: int | None,
                       builder: str | None = None) -> str | None:
    """Why the judge may say "uncertain" before the test starts: the tower to build is taller
    than the tower camera's picture holds (as calibrated). None when it fits or nobody measured."""
    if test is None or test.variant != "tower" or view_holds_cubes is None:
        return None
    cubes = test.heavy + test.light
    if cubes <= view_holds_cubes:
        return None
    who = builder or f"Player {test.player + 1}"
    return (f"the tower camera's picture holds {view_holds_cubes} cubes; {who} builds {cubes}: "
            "the judge may say uncertain -- move the camera back and recalibrate")


@dataclass(frozen=True)
class CameraVerdict:
    verdict: str  # "pass" | "fail" | "uncertain"
    confidence: float
    reasons: tuple[str, ...]
    annotated: Any = None  # BGR image or None
    details: dict = field(default_factory=dict)
    # The flow's likely why of a doubt (the tall-tower warning), kept apart from the judge's reason codes.
    view_warning: str | None = None

    @classmethod
    def from_judge(cls, verdict) -> "CameraVerdict":
        details = verdict.to_json() if hasattr(verdict, "to_json") else {}
        return cls(
            verdict=str(verdict.verdict),
            confidence=float(verdict.confidence),
            reasons=tuple(str(r) for r in (verdict.reasons or ())),
            annotated=getattr(verdict, "annotated", None),
            details=details if isinstance(details, dict) else {},
        )

    @property
    def passed(self) -> bool | None:
        return {"pass": True, "fail": False}.get(self.verdict)

    def to_json(self) -> dict:
        return {"verdict": self.verdict, "confidence": round(self.confidence, 3), "reasons": list(self.reasons),
                "view_warning": self.view_warning, "has_image": self.annotated is not None}


@dataclass(frozen=True)
class Decision:
    """An engine event the flow asks the service to apply, and why (for the audit log)."""

    event: dict
    who: str | None
    audit_kind: str | None = None
    audit_detail: dict = field(default_factory=dict)

    @property
    def audit(self) -> tuple[str, dict] | None:
        return (self.audit_kind, self.audit_detail) if self.audit_kind else None


class KnockdownFlow:
    def __init__(
        self,
        *,
        countdown: Countdown | None = None,
        tower_session_factory: Callable[..., TowerSession] | None = None,
        clock: Callable[[], float] = time.monotonic,
        countdown_seconds: float = 10.0,
        grace_seconds: float = 5.0,
        confident_at: float = 0.9,
        auto_confirm: tuple[str, ...] = ("pass",),
        settle_timeout: float = 5.0,
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
        view_holds_cubes: int | None = None,
    ):
        if grace_seconds < 0:
            raise FlowInputError(f"grace_seconds must be >= 0, got {grace_seconds!r}")
        if not 0.0 <= confident_at <= 1.0:
            raise FlowInputError(f"confident_at must be between 0 and 1, got {confident_at!r}")
        if view_holds_cubes is not None and (isinstance(view_holds_cubes, bool) or not isinstance(view_holds_cubes, int)
                                             or view_holds_cubes < 1):
            raise FlowInputError(f"view_holds_cubes must be a whole number of cubes >= 1, got {view_holds_cubes!r}")
        self._countdown = countdown
        self._tower_factory = tower_session_factory
        self._clock = clock
        self.countdown_seconds = countdown_seconds
        self.grace_seconds = grace_seconds
        self.confident_at = confident_at
        self.auto_confirm = tuple(auto_confirm)
        self.settle_timeout = settle_timeout
        self._seed_source = seed_source
        # The tallest tower the calibrated tower camera holds (None: not measured).
        self.view_holds_cubes = view_holds_cubes
        self.builder: str | None = None  # the builder's name, for the warning
        self._reset(FlowState.IDLE, None)

    def _reset(self, state: FlowState, test: PendingTest | None) -> None:
        self.state = state
        self.test = test
        self.seconds_left: float | None = None
        self.started_at: float | None = None
        self.deadline: float | None = None
        self.finished_reason: str | None = None
        self.judging_since: float | None = None
        self.verdict: CameraVerdict | None = None
        self.auto_confirm_at: float | None = None
        self._session: TowerSession | None = None

    # -- following the engine -------------------------------------------------------
    def sync(self, pending: dict | None, *, fresh: bool = False, builder: str | None = None) -> None:
        """Follow the engine's ``pending`` after every change (apply, undo, restart).

        ``fresh`` says the last event resolved a test, so an open test now is a new one;
        ``builder`` names the fighter who builds (for the tall-tower warning).
        """
        self.builder = builder
        test = PendingTest.from_pending(pending)
        if test is None:
            self._leave(FlowState.IDLE, None)
        elif fresh or self.state is FlowState.IDLE or test != self.test:
            self._leave(FlowState.ARMED, test)

    # -- referee / button commands ---------------------------------------------------
    def start(self, reference_frame=None) -> None:
        """Start the countdown (the opponent's button press or a tap on the tablet)."""
        test = self._require(FlowState.ARMED, action="start")
        if test.variant != "tower":
            raise FlowError(f"start: the pending test uses the {test.variant!r} variant; roll or enter the dice")
        session = None
        if self._tower_factory is not None and reference_frame is not None:
            session = self._tower_factory(heavy=test.heavy, light=test.light)
            session.start(reference_frame)
        self._session = session
        self.state = FlowState.COUNTING
        self.started_at = self._clock()
        self.deadline = self.started_at + self.countdown_seconds
        self.seconds_left = self.countdown_seconds
        if self._countdown is not None:
            self._countdown.start()

    def done(self) -> None:
        """The builder says the tower stands: stop counting and judge now."""
        self._require(FlowState.COUNTING, action="done")
        if self._countdown is not None:
            self._countdown.done()  # the device answers with when_finished("done")
        else:
            self.countdown_finished("done")

    def cancel(self) -> None:
        """Abandon this attempt; the test is offered again (Armed)."""
        self._require(FlowState.COUNTING, FlowState.JUDGING, FlowState.VERDICT, action="cancel")
        self._leave(FlowState.ARMED, self.test)

    # -- device and camera inputs ------------------------------------------------------
    def countdown_tick(self, seconds_left: float) -> None:
        if self.state is FlowState.COUNTING:
            self.seconds_left = seconds_left

    def countdown_finished(self, reason: str) -> None:
        reason = str(reason)  # the device reports a str enum (FinishReason)
        if self.state is not FlowState.COUNTING:
            return  # a late callback after cancel or undo
        if reason == "cancelled":
            self._reset(FlowState.ARMED, self.test)
            return
        if reason not in ("zero", "done"):
            raise FlowInputError(f"countdown finished with reason {reason!r}; expected 'zero', 'done' or 'cancelled'")
        now = self._clock()
        self.finished_reason = reason
        # At zero the tower must stand as of the deadline; "done" claims it stands now.
        self.deadline = min(self.deadline or now, now) if reason == "done" else self.deadline
        self.seconds_left = 0.0 if reason == "zero" else self.seconds_left
        self.state = FlowState.JUDGING
        self.judging_since = now
        if self._session is None:
            self._set_verdict(CameraVerdict("uncertain", 0.0, ("no camera: the referee decides",)), now)

    def add_frame(self, frame, t: float) -> None:
        if self._session is not None and self.state in (FlowState.COUNTING, FlowState.JUDGING):
            self._session.add_frame(frame, t)

    def poll(self) -> Decision | None:
        """Advance time-driven steps; returns a Decision when a verdict auto-confirms."""
        now = self._clock()
        if self.state is FlowState.COUNTING and self._countdown is None:
            # No countdown device (a tablet-only table): the flow keeps time itself.
            self.seconds_left = max(0.0, self.deadline - now)
            if now >= self.deadline:
                self.countdown_finished("zero")
        if self.state is FlowState.JUDGING and self._session is not None:
            result = self._session.judge(self.deadline, now)
            if result is not None:
                self._set_verdict(CameraVerdict.from_judge(result), now)
            elif now - self.judging_since >= self.settle_timeout:
                self._set_verdict(CameraVerdict("uncertain", 0.0, ("the tower did not settle in time",)), now)
        if self.state is FlowState.VERDICT and self.auto_confirm_at is not None and now >= self.auto_confirm_at:
            return self._tower_decision(self.verdict.passed, who="camera", source="camera")
        return None

    # -- finishing a test ---------------------------------------------------------------
    def confirm(self, *, who: str) -> Decision:
        """Accept the camera's pass or fail."""
        self._require(FlowState.VERDICT, action="confirm")
        if self.verdict.passed is None:
            raise FlowError("confirm: the camera is uncertain; the referee must decide pass or fail (override)")
        return self._tower_decision(self.verdict.passed, who=who, source="camera")

    def decide(self, passed: bool, *, who: str, reason: str | None = None) -> Decision:
        """The referee's own verdict: an override when it contradicts the camera."""
        self._require(FlowState.ARMED, FlowState.COUNTING, FlowState.JUDGING, FlowState.VERDICT, action="override")
        if not isinstance(passed, bool):
            raise FlowInputError(f"override: 'passed' must be true or false, got {passed!r}")
        if self.test.variant != "tower":
            raise FlowError(f"override: the pending test uses the {self.test.variant!r} variant; enter the dice")
        camera = self.verdict.passed if self.verdict else None
        if camera is None:
            source = "referee"
        else:
            source = "camera" if camera == passed else "override"
        detail = {
            "passed": passed,
            "camera": self.verdict.to_json() if self.verdict else None,
            "state": self.state.value,
            "reason": reason,
        }
        return self._tower_decision(passed, who=who, source=source, audit_kind="override" if source == "override"
                                    else "referee_decision", audit_detail=detail)

    def roll_dice(self, dice: list[int] | None = None, *, who: str) -> Decision:
        """Dice variant: the referee enters three dice, or we roll them with a logged seed."""
        test = self._require(FlowState.ARMED, action="dice")
        if test.variant != "dice":
            raise FlowError(f"dice: the pending test uses the {test.variant!r} variant, not 'dice'")
        if dice is None:
            seed = self._seed_source()
            rng = random.Random(seed)
            dice = [rng.randint(1, 6) for _ in range(3)]
            audit = ("dice_rolled", {"seed": seed, "dice": dice})
        else:
            if (not isinstance(dice, list) or len(dice) != 3
                    or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
                raise FlowInputError(f"dice: 'dice' must be three integers from 1 to 6, got {dice!r}")
            audit = ("dice_entered", {"dice": dice})
        return Decision({"type": "dice", "player": test.player, "dice": list(dice)}, who, *audit)

    # -- views ------------------------------------------------------------------------------
    @property
    def view_warning(self) -> str | None:
        """The tall-tower warning for the open test; only with a camera judge (without one the
        referee decides every test anyway)."""
        if self._tower_factory is None:
            return None
        return tall_tower_warning(self.test, self.view_holds_cubes, self.builder)

    @property
    def evidence(self):
        """The annotated image of the current verdict, or None."""
        return self.verdict.annotated if self.verdict else None

    def snapshot(self) -> dict:
        now = self._clock()
        test = self.test
        return {
            "state": self.state.value,
            "player": test.player if test else None,
            "heavy": test.heavy if test else None,
            "light": test.light if test else None,
            "wounds": test.heavy + test.light if test else None,
            "variant": test.variant if test else None,
            # Whole seconds, as the opponent counts aloud; also keeps SSE traffic to one message a second.
            "seconds_left": None if self.seconds_left is None else math.ceil(self.seconds_left - 1e-9),
            "finished": self.finished_reason,
            "camera": self._session is not None,
            "verdict": self.verdict.to_json() if self.verdict else None,
            "auto_confirm_in": (None if self.auto_confirm_at is None
                                else math.ceil(max(0.0, self.auto_confirm_at - now) - 1e-9)),
            "view_warning": self.view_warning,
        }

    # -- internals -----------------------------------------------------------------------------
    def _require(self, *states: FlowState, action: str) -> PendingTest:
        if self.state not in states:
            allowed = " or ".join(s.value for s in states)
            raise FlowError(f"{action}: the Knockdown Test flow is {self.state.value!r}; this needs {allowed}")
        return self.test

    def _set_verdict(self, verdict: CameraVerdict, now: float) -> None:
        warning = self.view_warning
        if warning and verdict.verdict == "uncertain":
            # Say the likely why with the doubt, beside the judge's reasons; the verdict itself is the judge's.
            verdict = replace(verdict, view_warning=warning)
        self.state = FlowState.VERDICT
        self.verdict = verdict
        confident = verdict.passed is not None and verdict.confidence >= self.confident_at
        self.auto_confirm_at = now + self.grace_seconds if confident and verdict.verdict in self.auto_confirm else None

    def _tower_decision(self, passed: bool, *, who: str, source: str, audit_kind: str | None = None,
                        audit_detail: dict | None = None) -> Decision:
        event = {"type": "tower", "player": self.test.player, "passed": passed, "source": source}
        if audit_kind is None and self.verdict is not None:
            audit_kind, audit_detail = "camera_verdict", {"camera": self.verdict.to_json(), "judge": self.verdict.details}
        return Decision(event, who, audit_kind, audit_detail or {})

    def _leave(self, state: FlowState, test: PendingTest | None) -> None:
        """Go to ``state``, stopping a running countdown; its late "cancelled" report is then ignored."""
        counting = self.state is FlowState.COUNTING
        self._reset(state, test)
        if counting and self._countdown is not None:
            self._countdown.cancel()
