"""Rules-tracker commands: replay, simulate, new, boxes."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from assistant.boxes import BoxError, list_boxes, load_box, new_setup
from assistant.cli.commands._common import fail
from assistant.rules import InvalidData, Match, RecordError
from assistant.rules.simulate import play_random


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("replay", help="replay a match record and print the state it rebuilds")
    p.add_argument("record", help="a match record (JSON lines, see docs/match-record.md); - for stdin")
    p.add_argument("--json", action="store_true", help="print the state as JSON (docs/state-schema.md)")
    p.add_argument("--events", type=int, metavar="N", help="replay only the first N events (step through)")
    p.set_defaults(handler=cmd_replay)

    p = subparsers.add_parser("simulate", help="play random legal matches end to end, checking every invariant")
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--boxes", default="practice", help="comma-separated boxes (e.g. tg,nemesis,siege)")
    p.add_argument("--variant", choices=("tower", "dice"), default="tower")
    p.add_argument("--merged", action="store_true", help="draw a random merged set-up per match from --boxes")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_simulate)

    p = subparsers.add_parser("new", help="set up a new match and write its record header")
    p.add_argument("--boxes", default="practice", help="comma-separated boxes (e.g. tg,nemesis,siege)")
    p.add_argument("--random", action="store_true", help="randomize fighters, skill set and arena (Randomizer tokens)")
    p.add_argument("--fighters", help="two fighter names, comma-separated")
    p.add_argument("--players", default="Player 1,Player 2", help="two player names, comma-separated")
    p.add_argument("--arena", help="arena layout id or a .toml path")
    p.add_argument("--variant", choices=("tower", "dice"), default="tower")
    p.add_argument("--seed", type=int, help="seed for --random")
    p.add_argument("--out", help="write the record here (default: stdout)")
    p.set_defaults(handler=cmd_new)

    p = subparsers.add_parser("boxes", help="list the boxes, or validate one box's data files")
    p.add_argument("box", nargs="?", help="a box id: show and validate it")
    p.set_defaults(handler=cmd_boxes)


def _split(text: str | None) -> list[str]:
    return [x.strip() for x in (text or "").split(",") if x.strip()]


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.record == "-" else Path(args.record).read_text(encoding="utf-8")
    except OSError as err:
        return fail(f"cannot read {args.record}: {err.strerror}")
    except UnicodeDecodeError:
        return fail(f"{args.record}: not a UTF-8 text file")
    try:
        m = Match.from_record(text)
    except RecordError as err:
        return fail(f"{args.record}: {err}")
    if args.events is not None:
        if not 0 <= args.events <= len(m.events):
            return fail(f"--events {args.events}: the record has {len(m.events)} events")
        while len(m.events) > args.events:
            m.pop()
    snap = m.snapshot()
    if args.json:
        json.dump(snap, sys.stdout, indent=2)
        print()
    else:
        print(describe(snap))
    return 0


def describe(snap: dict) -> str:
    """A short human summary of a state snapshot."""
    lines = []
    a, b = snap["players"]
    status = {"finished": "match over", "playing": "playing"}.get(snap["phase"], f"set-up ({snap['phase']})")
    lines.append(f"{a['fighter']} ({a['name']}) vs {b['fighter']} ({b['name']}) - {status}, round {snap['round']}")
    for p in (a, b):
        w = p["wounds"]
        lines.append(
            f"  {p['fighter']:<14} space {p['space']:<4} wounds {w['heavy']}H {w['light']}L  "
            f"hand {p['hand_size']}  victory tokens {p['victory_tokens']}"
            + (f"  tokens {p['tokens']}" if p["tokens"] else "")
        )
    if snap["row"]:
        lines.append("  Attack Row: " + ", ".join(c["name"] for c in snap["row"]) + f"   deck {snap['deck_count']}")
    if snap["phase"] == "playing":
        active = snap["players"][snap["active"]]["fighter"]
        lines.append(f"  turn {snap['turn']}: {active}, {snap['actions_left']} action(s) left")
    if snap["pending"]:
        lines.append(f"  pending: {snap['pending']['kind']}")
    if snap["winner"] is not None:
        lines.append(f"  winner: {snap['players'][snap['winner']]['fighter']}")
    return "\n".join(lines)


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.matches < 1:
        return fail(f"--matches {args.matches}: must be at least 1")
    boxes = _split(args.boxes)
    try:
        fixed = None if args.merged else new_setup(boxes, variant=args.variant, seed=args.seed)
    except (BoxError, InvalidData) as err:
        return fail(str(err))
    started = time.perf_counter()
    finished = events = 0
    failures = []
    for i in range(args.matches):
        seed = args.seed * 1_000_003 + i
        setup = fixed or new_setup(boxes, variant=args.variant, seed=seed)
        _, result = play_random(setup, seed)
        events += result.events
        finished += result.finished
        if result.violations:
            failures.append({"seed": seed, "violations": result.violations[:5]})
    elapsed = time.perf_counter() - started
    report = {
        "matches": args.matches, "finished": finished, "events": events, "violations": len(failures),
        "failures": failures[:20], "seconds": round(elapsed, 3),
        "events_per_second": round(events / elapsed) if elapsed else None,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{finished}/{args.matches} matches finished, {events} events, {len(failures)} with violations "
              f"({elapsed:.2f} s, {report['events_per_second']} events/s)")
        for f in failures[:20]:
            print(f"  seed {f['seed']}: {f['violations'][0]}")
    return 0 if not failures and finished == args.matches else 1


def cmd_new(args: argparse.Namespace) -> int:
    fighters = _split(args.fighters) or None
    players = _split(args.players)
    if len(players) != 2:
        return fail(f"--players {args.players!r}: give two names, comma-separated")
    seed = args.seed
    try:
        if not args.random and fighters is None:
            # Without --random, a stable default: the first two fighters of the first box.
            fighters = [f.name for f in load_box(_split(args.boxes)[0]).fighters[:2]] if _split(args.boxes) else None
        setup = new_setup(_split(args.boxes), fighters=fighters, players=players, variant=args.variant,
                          arena=args.arena, seed=seed)
    except (BoxError, InvalidData) as err:
        return fail(str(err))
    text = Match(setup).to_record()
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"new match: {setup.fighters[0].name} vs {setup.fighters[1].name} on {setup.arena.id} -> {args.out}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_boxes(args: argparse.Namespace) -> int:
    if not args.box:
        for box_id in list_boxes():
            try:
                box = load_box(box_id)
            except (BoxError, InvalidData) as err:
                print(f"{box_id}: INVALID: {err}")
                continue
            tag = " (practice data)" if box.info.practice else ""
            print(f"{box.id}: {box.info.name}{tag} - fighters {', '.join(f.name for f in box.fighters)}; "
                  f"{box.deck_size} Attack cards, {len(box.skills)} skills; arenas {', '.join(box.info.arenas)}")
        return 0
    try:
        box = load_box(args.box)
    except (BoxError, InvalidData) as err:
        return fail(str(err))
    print(f"{box.id}: {box.info.name} - valid")
    for f in box.fighters:
        print(f"  fighter {f.name} ({f.fighter_class}): " + ", ".join(f"{s.name} [{s.type.value}]" for s in f.specials))
    print(f"  {box.deck_size} Attack cards ({len(box.cards)} distinct), {len(box.skills)} Skill cards")
    return 0
