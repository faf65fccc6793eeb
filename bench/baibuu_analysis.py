"""The game's numbers, timed: the whole table of one setting (every commission 0-10 % under both copy rules, the
player by the house way), the same with the player setting every hand the best way, and house-way decisions per
second through the rank-pattern table over all 270,725 hands.

    .venv/bin/python bench/baibuu_analysis.py
"""

from __future__ import annotations

import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.baibuu.analysis import RankWayTable
from engine.cards import standard_deck
from kiosk.cli import main as dealer_assist


def timed_table(*options: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``dealer-assist baibuu analyse`` with these options, in this process."""
    wall, cpu = time.perf_counter(), time.process_time()
    sink = open("/dev/null", "w")  # noqa: SIM115
    saved, sys.stdout = sys.stdout, sink
    try:
        dealer_assist(["baibuu", "analyse", *options])
    finally:
        sys.stdout = saved
        sink.close()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    wall, cpu = timed_table()
    print(f"whole table of one setting, the player by the house way: {wall:.2f} s ({cpu:.2f} s CPU); goal < 10 s")
    wall, cpu = timed_table("--player", "best")
    print(f"whole table, the player setting every hand the best way: {wall:.2f} s ({cpu:.2f} s CPU); goal < 10 min")
    started = time.perf_counter()
    table = RankWayTable()
    print(f"rank-pattern table of the house way (1,820 patterns by the rules): {time.perf_counter() - started:.2f} s")
    hands = list(combinations(standard_deck(), 4))
    decide = table.decide
    best = 0.0
    for _ in range(3):
        started = time.perf_counter()
        for hand in hands:
            decide(hand)
        best = max(best, len(hands) / (time.perf_counter() - started))
    print(f"house way through the rank-pattern table: {best:,.0f} decisions/s over {len(hands):,} hands", end="")
    print("; goal 1,000,000")


if __name__ == "__main__":
    main()
