"""The one referee service: the current match, the store, the devices and the flow.

Every change goes through one lock around engine + store: the engine checks the
event, the store commits it, and only then is the caller answered and the change
published (with a new ``version``) to the SSE subscribers. If the commit fails the
engine is rolled back, so nothing is ever half-applied.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from assistant.knockdown import Decision, FlowState, KnockdownFlow
from assistant.service.broadcast import Broadcaster, Message
from assistant.store import MatchStore

log = logging.getLogger("knockdown.service")

# Events that resolve a Knockdown Test: an open test after one of them is a new test.
RESOLVING_EVENTS = frozenset({"tower", "dice", "knockdown_test"})
VERSION_LEASE = 10_000
UNREPLAYABLE = "unreplayable"  # a stored match this engine cannot replay (kept, not resumed)
# The live state carries only the newest log entries: the table shows these, and a whole
# match's log (~50 KB) in every SSE message to every tablet is most of the traffic. The
# whole log stays in the record and the replay page.
LIVE_LOG_ENTRIES = 60
# The flow states in which the tower camera watches the build mat.
WATCHING_STATES = (FlowState.ARMED, FlowState.COUNTING, FlowState.JUDGING)


class ServiceError(ValueError):
    """A request the service refuses; ``code`` and ``status`` become the API error."""

    code = "bad_request"
    status = 400


class NoMatch(ServiceError):
    code = "no_match"
    status = 409


class InvalidRequest(ServiceError):
    """Well-formed JSON with a value the service cannot use (the message names it)."""

    code = "invalid"
    status = 422


class Busy(ServiceError):
    """A request that must wait for what the service is doing now (the message says what)."""

    code = "busy"
    status = 409


class NotSaved(ServiceError):
    """A change the service could not make durable, so it did not make it."""

    code = "not_saved"
    status = 500


class Engine(Protocol):
    """The seam to the rules engine (see :mod:`assistant.service.wiring`)."""

    IllegalAction: type[Exception]
    RecordError: type[Exception]

    def new_match(self, options: dict) -> tuple[dict, Any]: ...

    def replay(self, header: dict, events: list[dict]) -> Any: ...

    def from_record(self, text: str) -> tuple[dict, Any]: ...


class Camera(Protocol):
    def read(self) -> Any: ...


@dataclass
class Hardware:
    """What the service runs on, for /api/health and the log."""

    simulated: bool = True
    countdown: str = "none"  # "gpio", "mock-gpio" or "none" (the flow keeps time itself)
    camera: str = "none"  # "camera", "demo" or "none"
    tower_judge: str = "none"  # "vision" or "none"
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"simulated": self.simulated, "countdown": self.countdown, "camera": self.camera,
                "tower_judge": self.tower_judge, "notes": list(self.notes)}


def _rounded(value: Any) -> float | None:
    # 0 means "not read lately" (the tower camera is read only during a test): no figure then.
    return round(float(value), 1) if isinstance(value, (int, float)) and value > 0 else None


def _status_of(snapshot: dict) -> tuple[str, Any]:
    """The store's match status and result, from an engine snapshot."""
    finished = snapshot.get("phase") == "finished" or snapshot.get("status") == "finished"
    return ("finished" if finished else "in_progress"), {"winner": snapshot.get("winner")}


def export_record(store: MatchStore, engine: Engine, match_id: int) -> str:
    """A stored match as a match record, replayed through the engine (so it is checked)."""
    row = store.match(match_id)
    return engine.replay(row.header, store.events(match_id)).to_record()


def import_record(store: MatchStore, engine: Engine, text: str, *, who: str | None = None) -> int:
    """Keep a match record from elsewhere (checked by replaying it); never made current."""
    header, match = engine.from_record(text)
    status, result = _status_of(match.snapshot())
    return store.create_match(header, status=status, result=result, events=list(match.events),
                              make_current=False, who=who)


class RefereeService:
    def __init__(
        self,
        *,
        store: MatchStore,
        engine: Engine,
        flow: KnockdownFlow | None = None,
        countdown: Any = None,
        button: Any = None,
        camera: Camera | None = None,
        hardware: Hardware | None = None,
        owned: tuple = (),
        arena: Any = None,
        tower_demo: Any = None,
        tower_calibrator: Any = None,
        poll_interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.store = store
        self.engine = engine
        self.flow = flow if flow is not None else KnockdownFlow(countdown=countdown, clock=clock)
        self.countdown = countdown
        self.button = button
        self.camera = camera
        self.hardware = hardware or Hardware()
        self._owned = owned  # more things to close with the service (the GPIO board)
        self.arena = arena  # ArenaMonitor: the arena camera beside the tracker (or None)
        self.tower_demo = tower_demo  # in simulation: the rendered build mat follows the flow
        self.tower_calibrator = tower_calibrator  # TowerCalibrator: the tablet's tower calibration (or None)
        self._tower_calibrating = False  # its frames are being read: nothing else reads the tower camera
        self._positions: tuple = ()
        self.poll_interval = poll_interval
        self.broadcaster = Broadcaster()
        self.lock = threading.RLock()
        self.started = time.time()
        self._clock = clock
        self._latest_frame = None
        self._match = None
        self._match_id: int | None = None
        self._version, self._version_end = store.lease("state_version", VERSION_LEASE)
        self._last_flow_view: dict | None = None
        self._stop = threading.Event()
        self._poller: threading.Thread | None = None
        if countdown is not None:
            countdown.when_tick = self._on_countdown_tick
            countdown.when_finished = self._on_countdown_finished
        if button is not None:
            button.when_pressed = self._on_button_press
            button.when_long_pressed = self._on_button_long_press
        with self.lock:
            self._resume()

    # -- life cycle ---------------------------------------------------------------
    def _resume(self) -> None:
        """Replay the current match from the store, exactly where it was."""
        match_id = self.store.current_match_id()
        row = self.store.match(match_id) if match_id is not None else None
        if row is not None and row.status == UNREPLAYABLE:
            row = None
        if row is not None:
            try:
                self._match = self.engine.replay(row.header, self.store.events(match_id))
            except ValueError as error:  # IllegalAction / RecordError / bad setup: e.g. after a rules change
                # Keep serving (the match stays in the store, exportable as stored) rather than
                # refusing to start; the referee starts a new match.
                self.store.set_status(match_id, UNREPLAYABLE, {"error": str(error)})
                self.hardware.notes.append(f"match {match_id} no longer replays and was set aside: {error}")
                log.error("match %s no longer replays: %s", match_id, error)
                self._publish()
                return
            self._match_id = match_id
            self._follow_arena()
            self._sync_flow(self._match.snapshot())
            self._cancel_interrupted_countdown(match_id)
            log.info("resumed match %s at event %d", match_id, len(self._match.events))
        self._publish()

    def _cancel_interrupted_countdown(self, match_id: int) -> None:
        # A countdown running when the power went is never half-applied: the flow is
        # Armed again (from the engine's pending test) and the log says why.
        countdown_entries = [e for e in self.store.audit_log(match_id) if e.kind.startswith("countdown_")]
        if countdown_entries and countdown_entries[-1].kind == "countdown_started":
            self.store.log(match_id, "countdown_finished", {"reason": "restart", "re_offered": True}, who="service")
            log.warning("match %s: a countdown was running when the service stopped; re-offered", match_id)

    def start(self) -> "RefereeService":
        """Start the background loop (camera frames, countdown timing, auto-confirm)."""
        if self._poller is None:
            self._poller = threading.Thread(target=self._poll_loop, name="knockdown-poll", daemon=True)
            self._poller.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._poller is not None:
            self._poller.join(timeout=5)
            self._poller = None
        self.broadcaster.close()
        for device in (self.countdown, self.button, self.camera, self.arena, *self._owned):
            closer = getattr(device, "close", None)
            if closer is not None:
                closer()
        self.store.close()

    def __enter__(self) -> "RefereeService":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading -------------------------------------------------------------------
    @property
    def version(self) -> int:
        return self._version

    @property
    def current_match_id(self) -> int | None:
        return self._match_id

    def state(self) -> dict:
        with self.lock:
            return self._state()

    def _state(self, snapshot: dict | None = None) -> dict:
        match_json = None
        if self._match is not None:
            snapshot = live_snapshot(snapshot if snapshot is not None else self._match.snapshot())
            match_json = {"id": self._match_id, "events": len(self._match.events)}
        if snapshot is not None and self.arena is not None:
            self._positions = tuple(p.get("space") for p in snapshot.get("players", ()))
        return {
            "version": self._version,
            "match": match_json,
            "snapshot": snapshot,
            "knockdown": self.flow.snapshot(),
            "arena": self._arena_view(),
            "tower": self.tower_calibrator.view() if self.tower_calibrator is not None else None,
        }

    def _arena_view(self) -> dict | None:
        if self.arena is None:
            return None
        legal = (lambda: self._match.legal_actions()) if self._match is not None else None
        return self.arena.view(legal)

    def _follow_arena(self) -> None:
        setup = getattr(self._match, "setup", None)
        if self.arena is not None and setup is not None:
            self.arena.set_match(setup.arena.to_dict(), [f.name for f in setup.fighters])

    def legal_actions(self) -> list[dict]:
        with self.lock:
            return list(self._require_match().legal_actions())

    def reveal_options(self) -> dict | None:
        """What the table may turn up now (skill deals, Attack cards): physical, not a decision."""
        with self.lock:
            options = getattr(self._match, "reveal_options", None)
            return options() if options is not None else None

    def is_custom_deck(self) -> bool:
        """Whether the current match's cards are entered at the table by their printed values."""
        setup = getattr(self._match, "setup", None)
        return bool(setup is not None and setup.deck.custom)

    def health(self) -> dict:
        return {
            "status": "ok",
            "version": self._version,
            "match_id": self._match_id,
            "uptime_s": round(time.time() - self.started, 1),
            "hardware": self.hardware.to_json(),
            "arena": None if self.arena is None else self._arena_health(),
            "cameras": [
                {"name": name, "fps": _rounded(getattr(camera, "fps", None)), "open": getattr(camera, "is_open", True)}
                for name, camera in (("tower", self.camera), ("arena", getattr(self.arena, "camera", None)))
                if camera is not None
            ],
        }

    def _arena_health(self) -> dict:
        view = self.arena.view()
        return {"state": view["state"], "agrees": view["state"] == "agrees", "messages": view.get("messages", [])}

    def evidence(self):
        with self.lock:
            return self.flow.evidence

    def matches(self) -> list[dict]:
        return [row.to_json() for row in self.store.matches()]

    def record(self, match_id: int) -> str:
        """The match record (header + live events), as the engine writes it."""
        with self.lock:
            if match_id == self._match_id and self._match is not None:
                return self._match.to_record()
            return export_record(self.store, self.engine, match_id)

    # -- changing the match -----------------------------------------------------------
    def new_match(self, options: dict, *, who: str | None = None) -> dict:
        if not isinstance(options, dict):
            raise ServiceError(f"new match options must be a JSON object, got {options!r}")
        with self.lock:
            header, match = self.engine.new_match(options)
            snapshot = match.snapshot()
            status, result = _status_of(snapshot)
            events = list(match.events)  # a setup may begin with automatic events
            match_id = self.store.create_match(header, status=status, result=result, events=events, who=who)
            self._match, self._match_id = match, match_id
            self._follow_arena()
            self._sync_flow(snapshot, fresh=True)
            return self._publish()

    def import_record(self, text: str, *, who: str | None = None) -> int:
        return import_record(self.store, self.engine, text, who=who)

    def apply(self, event: Any, *, who: str | None = None) -> dict:
        """Check, commit, then publish one engine event. Raises the engine's IllegalAction."""
        if not isinstance(event, dict):
            raise ServiceError(f"an action must be a JSON object, got {event!r}")
        with self.lock:
            return self._apply(event, who=who)

    def _apply(self, event: dict, *, who: str | None, audit: tuple[str, dict] | None = None) -> dict:
        match = self._require_match()
        match.apply(event)  # raises IllegalAction with the state unchanged
        try:
            snapshot = match.snapshot()  # once per change: it is the costly part of a state
            status, result = _status_of(snapshot)
            self.store.append(self._match_id, match.events[-1], who=who, status=status, result=result, audit=audit)
        except BaseException:
            match.pop()
            raise
        self._sync_flow(snapshot, fresh=event.get("type") in RESOLVING_EVENTS)
        return self._publish(snapshot=snapshot)

    def undo(self, *, who: str | None = None, reason: str | None = None) -> dict:
        with self.lock:
            match = self._require_match()
            if not match.events:
                raise ServiceError("undo: the match has no event to undo")
            popped = match.pop()
            try:
                snapshot = match.snapshot()
                status, result = _status_of(snapshot)
                self.store.undo_last(self._match_id, who=who, reason=reason, status=status, result=result)
            except BaseException:
                match.apply(popped)
                raise
            self._sync_flow(snapshot, fresh=popped.get("type") in RESOLVING_EVENTS)
            return self._publish(snapshot=snapshot)

    # -- the Knockdown Test -------------------------------------------------------------
    def _sync_flow(self, snapshot: dict, *, fresh: bool = False) -> None:
        """The flow follows the engine's pending test, knowing the builder's name."""
        pending = snapshot.get("pending")
        self.flow.sync(pending, fresh=fresh, builder=_player_name(snapshot, (pending or {}).get("player")))

    def knockdown_start(self, *, who: str | None = None) -> dict:
        with self.lock:
            self._require_match()
            if self._tower_calibrating:
                raise Busy("start: the tower camera is being calibrated; start the countdown in a moment")
            reference = self._latest_frame
            if reference is None and self.camera is not None:
                reference = self.camera.read()  # armed a moment ago: the loop has not read one yet
            self.flow.start(reference)
            self.store.log(self._match_id, "countdown_started", {"test": self.flow.snapshot()}, who=who)
            return self._publish()

    def knockdown_done(self, *, who: str | None = None) -> dict:
        with self.lock:
            self.flow.done()
            return self._publish()

    def knockdown_cancel(self, *, who: str | None = None) -> dict:
        with self.lock:
            self.flow.cancel()
            return self._publish(reason="cancelled", who=who)

    def knockdown_confirm(self, *, who: str | None = None) -> dict:
        with self.lock:
            return self._decide(self.flow.confirm(who=who or "referee"))

    def knockdown_override(self, passed: Any, *, who: str | None = None, reason: str | None = None) -> dict:
        with self.lock:
            return self._decide(self.flow.decide(passed, who=who or "referee", reason=reason))

    def knockdown_dice(self, dice: Any = None, *, who: str | None = None) -> dict:
        with self.lock:
            return self._decide(self.flow.roll_dice(dice, who=who or "referee"))

    def _decide(self, decision: Decision) -> dict:
        return self._apply(decision.event, who=decision.who, audit=decision.audit)

    # -- the arena camera -----------------------------------------------------------------
    def _require_arena(self):
        if self.arena is None:
            raise ServiceError("there is no arena camera (cameras.arena.source)")
        return self.arena

    def arena_calibrate(self, *, who: str | None = None) -> dict:
        arena = self._require_arena()
        self._require_match()
        try:
            info = arena.calibrate()  # reads a frame: outside the service lock
        except ValueError as error:
            raise InvalidRequest(str(error)) from None
        with self.lock:
            self.store.log(self._match_id, "arena_calibrated", info, who=who)
            return self._publish()

    def arena_dismiss(self, *, who: str | None = None) -> dict:
        arena = self._require_arena()
        with self.lock:
            try:
                arena.dismiss()
            except ValueError as error:
                raise InvalidRequest(str(error)) from None
            self.store.log(self._match_id, "arena_dismissed", {"view": arena.view()}, who=who)
            return self._publish()

    def arena_fix(self, *, who: str | None = None) -> dict:
        """Make the tracker agree with the camera: recorded as referee adjustments."""
        arena = self._require_arena()
        with self.lock:
            match = self._require_match()
            try:
                events = arena.fix_events()
            except ValueError as error:
                raise InvalidRequest(str(error)) from None
            trial = match.copy()
            for event in events:  # all or nothing: check them together before committing any
                trial.apply(event)
            for event in events:
                self._apply(event, who=who, audit=("arena_fix", {"event": event}))
            return self._publish()

    # -- the tower camera -------------------------------------------------------------------
    def tower_calibrate(self, *, who: str | None = None) -> dict:
        """Calibrate the tower camera the service owns, as ``knockdown calibrate tower`` does, then
        judge with it at once: saved first, used only once saved (never half-applied)."""
        calibrator = self.tower_calibrator
        if calibrator is None:
            raise ServiceError("there is no tower camera judge to calibrate (cameras.tower.source)")
        with self.lock:
            if self.flow.state in WATCHING_STATES:
                raise Busy(f"the Knockdown Test is {self.flow.state.value}: the tower camera is watching the build "
                           "mat; calibrate it once the test is decided")
            if self._tower_calibrating:
                raise Busy("the tower camera is being calibrated already")
            self._tower_calibrating = True
        try:
            try:
                calibration = calibrator.measure(self.camera)  # ~2 s of frames: outside the service lock
            except ValueError as error:
                raise InvalidRequest(str(error)) from None
            with self.lock:
                try:
                    saved = calibrator.save_and_use(calibration)
                except (OSError, ValueError) as error:  # ConfigError is a ValueError
                    raise NotSaved(f"the tower calibration was not saved to {calibrator.save_to} ({error}); "
                                   "nothing changed") from None
                self.flow.view_holds_cubes = calibration.tallest_tower_cubes
                self.store.log(self._match_id, "tower_calibrated", saved, who=who)
                log.info("tower camera calibrated: %s", "; ".join(saved["measured"]))
                return {**self._publish(), "calibration": saved}
        finally:
            self._tower_calibrating = False

    # -- device callbacks and the background loop -----------------------------------------
    def _on_countdown_tick(self, seconds_left: float) -> None:
        with self.lock:
            self.flow.countdown_tick(seconds_left)
            self._publish_if_changed()

    def _on_countdown_finished(self, reason: str) -> None:
        with self.lock:
            if self.flow.state is not FlowState.COUNTING:
                return  # the answer to our own cancel: the flow has already moved on
            self.flow.countdown_finished(reason)
            self._publish_if_changed(reason=str(reason))

    def _on_button_press(self) -> None:
        """The opponent's button: starts the countdown, or "tower done" while counting."""
        try:
            with self.lock:
                if self.flow.state is FlowState.ARMED:
                    self.knockdown_start(who="button")
                elif self.flow.state is FlowState.COUNTING:
                    self.knockdown_done(who="button")
        except ValueError as error:  # e.g. a dice-variant test: the button has nothing to start
            log.warning("button press ignored: %s", error)

    def _on_button_long_press(self) -> None:
        """A long press (2 s or more) cancels a running countdown."""
        with self.lock:
            if self.flow.state is FlowState.COUNTING:
                self.knockdown_cancel(who="button")

    def poll(self) -> None:
        """One step of the background loop (public so tests can drive it without threads)."""
        frame = None
        # While a calibration reads the tower camera, it is its only reader.
        watching = self.flow.state in WATCHING_STATES and not self._tower_calibrating
        if self.tower_demo is not None:
            with self.lock:
                self.tower_demo.follow(self.flow.snapshot())
        if self.camera is not None and watching:
            frame = self.camera.read()  # outside the lock: a camera read can be slow
        with self.lock:
            if frame is not None:
                self._latest_frame = frame
                self.flow.add_frame(frame, self._clock())
            elif not watching:
                self._latest_frame = None  # never judge against a frame from an earlier test
            decision = self.flow.poll()
            positions = self._positions
            arena_turn = self.arena is not None and self.flow.state is FlowState.IDLE and self._match is not None
            if decision is not None:
                try:
                    self._decide(decision)
                except self.engine.IllegalAction as error:
                    # Never retry in a loop: the verdict now waits for the referee.
                    self.flow.auto_confirm_at = None
                    log.error("auto-confirm refused by the engine: %s", error)
            self._publish_if_changed()
        # The arena is read outside the lock and never during a Knockdown Test, so a slow
        # reading cannot delay the tower's frames.
        if arena_turn and self.arena.poll(positions, self._clock()):
            with self.lock:
                self._publish()

    def _poll_loop(self) -> None:
        while not self._stop.wait(self.poll_interval):
            try:
                self.poll()
            except Exception:  # the loop must outlive one bad frame
                log.exception("background poll failed")

    # -- publishing --------------------------------------------------------------------------
    def _publish_if_changed(self, **why) -> None:
        if self.flow.snapshot() != self._last_flow_view:
            self._publish(**why)

    def _publish(self, *, reason: str | None = None, who: str | None = None, snapshot: dict | None = None) -> dict:
        flow_view = self.flow.snapshot()
        previous = self._last_flow_view
        if previous and previous["state"] == "counting" and flow_view["state"] != "counting" and self._match_id:
            # Durable trace of every countdown's end, so a restart knows none is running.
            finished = {"reason": reason or self.flow.finished_reason or "resolved"}
            self.store.log(self._match_id, "countdown_finished", finished, who=who)
        self._last_flow_view = flow_view
        self._version += 1
        if self._version >= self._version_end:
            self._version, self._version_end = self.store.lease("state_version", VERSION_LEASE)
        state = self._state(snapshot)
        self.broadcaster.publish(Message(self._version, "state", json.dumps(state, separators=(",", ":"))))
        return state

    def _require_match(self):
        if self._match is None:
            raise NoMatch("there is no match yet: start one with POST /api/matches")
        return self._match


def _player_name(snapshot: dict, player: Any) -> str | None:
    """The name the tablet shows for ``player`` (the engine's ``players[p].name``), or None."""
    players = snapshot.get("players")
    if not isinstance(player, int) or not isinstance(players, (list, tuple)) or not 0 <= player < len(players):
        return None
    entry = players[player]
    return entry.get("name") if isinstance(entry, dict) else None


def live_snapshot(snapshot: dict) -> dict:
    """``snapshot`` with its ``log`` cut to the newest LIVE_LOG_ENTRIES (each entry keeps its ``seq``)."""
    log_entries = snapshot.get("log")
    if not isinstance(log_entries, list) or len(log_entries) <= LIVE_LOG_ENTRIES:
        return snapshot
    return {**snapshot, "log": log_entries[-LIVE_LOG_ENTRIES:]}
