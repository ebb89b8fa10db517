"""Rules engine benchmark: events applied per second, and the time of one full random match.

    python bench/rules_bench.py [--matches 200]

* "apply": replaying recorded random matches event by event through the checked path
  (Match.apply), as the service does on start and on undo.
* "random match": one whole random legal match, generating legal actions and applying
  them (what `knockdown simulate` does, minus the invariant checks).
Both use the practice box; figures are medians over several repeats.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.boxes import new_setup  # noqa: E402
from assistant.rules import Match  # noqa: E402
from assistant.rules.simulate import play_random  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    setup = new_setup(["practice"], fighters=["Brawler", "Duelist"])

    records = [play_random(setup, seed, check=False)[0].events for seed in range(args.matches)]
    n_events = sum(len(r) for r in records)

    apply_rates = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        for events in records:
            m = Match(setup)
            for e in events:
                m.apply(e)
        apply_rates.append(n_events / (time.perf_counter() - t0))

    match_ms = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        for seed in range(args.matches):
            play_random(setup, seed, check=False)
        match_ms.append((time.perf_counter() - t0) * 1000 / args.matches)

    print(f"| measure | median of {args.repeats} | goal |")
    print("| --- | --- | --- |")
    print(f"| events applied per second (replay, checked) | {statistics.median(apply_rates):,.0f} | >= 20,000 |")
    print(f"| one full random match (legal actions + apply, {n_events / args.matches:.0f} events avg) "
          f"| {statistics.median(match_ms):.2f} ms | < 5 ms |")
    print(f"| one full match replayed (apply only) | "
          f"{1000 * (n_events / args.matches) / statistics.median(apply_rates):.2f} ms | |")


if __name__ == "__main__":
    main()
