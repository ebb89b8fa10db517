"""Rules engine benchmark: events applied per second, and the time of one full random match.

    python bench/rules_bench.py [--matches 200] [--repeats 5]

* "apply, checked": replaying recorded random matches event by event through ``Match.apply``
  (shape check, private copy of the event, rules on a copy of the state), as the service does
  on start and on undo.
* "apply, unchecked": the same events through ``Match.apply_unchecked`` (rules only; state
  changed in place), the path simulation and search use.
* "random match": one whole random legal match, table events (seeded shuffle and dice) plus
  ``legal_actions()`` and a uniform random choice, applied through the unchecked path: what
  ``knockdown simulate`` does, minus the invariant checks.
  - "warm": the set-up's payment memos (``CostBook``) already filled by earlier matches, as in
    any run of many matches;
  - "cold": every match on a fresh copy of the set-up, so it starts with empty memos.
* "random match, checked + invariants": ``knockdown simulate``'s own per-match cost.

All on the practice box. Figures are CPU time (``time.process_time``, so other processes on
a shared machine do not count), the median over ``--repeats`` runs of all ``--matches``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.boxes import new_setup  # noqa: E402
from assistant.rules import Match  # noqa: E402
from assistant.rules.simulate import play_random  # noqa: E402


def _median_seconds(run: Callable[[], None], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        run()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    setup = new_setup(["practice"], fighters=["Brawler", "Duelist"])
    seeds = range(args.matches)

    records = [play_random(setup, seed, check=False)[0].events for seed in seeds]
    n_events = sum(len(r) for r in records)
    per_match = n_events / args.matches

    def replay(method: str) -> Callable[[], None]:
        def run() -> None:
            for events in records:
                m = Match(setup)
                push = getattr(m, method)
                for e in events:
                    push(e)
        return run

    def random_matches(fresh: bool, check: bool = False) -> Callable[[], None]:
        def run() -> None:
            for seed in seeds:
                play_random(setup.model_copy() if fresh else setup, seed, check=check)
        return run

    checked = n_events / _median_seconds(replay("apply"), args.repeats)
    unchecked = n_events / _median_seconds(replay("apply_unchecked"), args.repeats)
    warm = _median_seconds(random_matches(False), args.repeats) * 1000 / args.matches
    cold = _median_seconds(random_matches(True), args.repeats) * 1000 / args.matches
    fuzz = _median_seconds(random_matches(False, check=True), max(1, args.repeats // 2)) * 1000 / args.matches

    print(f"{args.matches} random matches of the practice box, {per_match:.0f} events each on average; "
          f"CPU time, median of {args.repeats}")
    print()
    print("| measure | figure | goal |")
    print("| --- | --- | --- |")
    print(f"| events applied per second, checked (`apply`) | {checked:,.0f} | >= 20,000 |")
    print(f"| events applied per second, unchecked (`apply_unchecked`) | {unchecked:,.0f} | |")
    print(f"| one full random match, warm memos (legal actions + apply) | {warm:.2f} ms | < 5 ms |")
    print(f"| one full random match, cold (fresh set-up, empty memos) | {cold:.2f} ms | < 5 ms |")
    print(f"| one full match replayed, checked | {1000 * per_match / checked:.2f} ms | |")
    print(f"| one random match with every invariant checked (`knockdown simulate`) | {fuzz:.2f} ms | |")


if __name__ == "__main__":
    main()
