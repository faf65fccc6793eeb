"""Sâm Lốc engine speed: random complete hands per second, and the time to list the legal plays.

Run: ``.venv/bin/python bench/samloc.py [--hands N] [--seed S]``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.samloc import Settings, State, action_from_json, random_deal, replay


def random_hand(rng: random.Random, settings: Settings, players: int) -> State:
    hand = State.start(settings, random_deal(players, rng.randrange(players), rng))
    while not hand.is_over:
        actions = hand.legal_actions()
        hand.apply(actions[rng.randrange(len(actions))])
    hand.settle()
    return hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    settings = Settings(bet=100)

    for players in (2, 4):
        started = time.perf_counter()
        finished = [random_hand(rng, settings, players) for _ in range(args.hands)]
        elapsed = time.perf_counter() - started
        actions = sum(len(hand.history) for hand in finished)
        print(
            f"{players} players: {args.hands / elapsed:,.0f} random complete hands/s "
            f"({actions / args.hands:.1f} actions per hand, legal actions listed before each, settled)"
        )

    lead_times: list[float] = []
    answer_times: list[float] = []
    counts: list[int] = []
    for _ in range(args.hands):
        hand = random_hand(rng, settings, 4)
        replayed = State.start(hand.settings, hand.deal)
        for record in hand.history:
            if replayed.turn is not None:
                started = time.perf_counter()
                plays = replayed.legal_plays(replayed.turn)
                (lead_times if replayed.leading else answer_times).append(time.perf_counter() - started)
                counts.append(len(plays))
            replayed.apply(action_from_json(record.to_json()))
    for name, times in (("leading", lead_times), ("answering", answer_times)):
        print(
            f"legal plays when {name}: median {statistics.median(times) * 1e6:.0f} µs, "
            f"p99 {sorted(times)[int(len(times) * 0.99)] * 1e6:.0f} µs over {len(times)} calls"
        )
    print(f"legal plays offered per turn: mean {statistics.mean(counts):.1f}, max {max(counts)}")

    hand = random_hand(rng, settings, 4)
    started = time.perf_counter()
    for _ in range(200):
        replay(hand.settings, hand.deal_to_json(), hand.actions_json())
    print(f"replay of a recorded 4-player hand from JSON: {(time.perf_counter() - started) / 200 * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
