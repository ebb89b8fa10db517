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

All on the practice box. Figures are CPU time (``time.process_time``, so time given to other
processes does not count), the best of ``--repeats`` runs of all ``--matches`` (timeit's
convention: slower runs measure interference, not the code); the median is printed beside it.
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


def _seconds(run: Callable[[], None], repeats: int) -> tuple[float, float]:
    """(best, median) CPU seconds of ``repeats`` runs."""
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        run()
        times.append(time.process_time() - t0)
    return min(times), statistics.median(times)


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

    def per_match_ms(t: tuple[float, float]) -> str:
        return f"{t[0] * 1000 / args.matches:.2f} ms (median {t[1] * 1000 / args.matches:.2f})"

    def rate(t: tuple[float, float]) -> str:
        return f"{n_events / t[0]:,.0f} (median {n_events / t[1]:,.0f})"

    checked = _seconds(replay("apply"), args.repeats)
    unchecked = _seconds(replay("apply_unchecked"), args.repeats)
    warm = _seconds(random_matches(False), args.repeats)
    cold = _seconds(random_matches(True), args.repeats)
    fuzz = _seconds(random_matches(False, check=True), max(1, args.repeats // 2))

    print(f"{args.matches} random matches of the practice box, {per_match:.0f} events each on average; "
          f"CPU time, best of {args.repeats} (median in brackets)")
    print()
    print("| measure | figure | goal |")
    print("| --- | --- | --- |")
    print(f"| events applied per second, checked (`apply`) | {rate(checked)} | >= 20,000 |")
    print(f"| events applied per second, unchecked (`apply_unchecked`) | {rate(unchecked)} | |")
    print(f"| one full random match, warm memos (legal actions + apply) | {per_match_ms(warm)} | < 5 ms |")
    print(f"| one full random match, cold (fresh set-up, empty memos) | {per_match_ms(cold)} | < 5 ms |")
    print(f"| one full match replayed, checked | {per_match_ms(checked)} | |")
    print(f"| one random match with every invariant checked (`knockdown simulate`) | {per_match_ms(fuzz)} | |")


if __name__ == "__main__":
    main()
