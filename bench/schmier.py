"""Schmier engine speed: random complete hands per second, and replays of recorded hands per second.

Run: .venv/bin/python bench/schmier.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.schmier import Phase, Settings, State, random_deal, replay
from engine.schmier.randomplay import random_action


def play_hands(seconds: float, rng: random.Random) -> tuple[int, int, int, list[State]]:
    """Play random hands to their end for about ``seconds``; count complete (scored) ones and throw-ins."""
    complete = thrown = actions = 0
    kept: list[State] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        hand = State(Settings(), random_deal(rng, rng.randrange(6)))
        while not hand.is_over:
            hand.apply(random_action(hand, rng, pass_chance=0.5))
        actions += len(hand.history)
        if hand.phase is Phase.THROWN_IN:
            thrown += 1
        else:
            complete += 1
            if len(kept) < 200:
                kept.append(hand)
    return complete, thrown, actions, kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rng = random.Random(2026)

    start = time.perf_counter()
    complete, thrown, actions, kept = play_hands(args.seconds, rng)
    elapsed = time.perf_counter() - start
    print(f"random complete hands: {complete / elapsed:8.0f} per second ({complete} in {elapsed:.1f} s)")
    print(f"thrown-in hands:       {thrown:8d} (all passed; not counted above)")
    print(f"actions applied:       {actions / elapsed:8.0f} per second")

    recorded = [(hand.deal_to_json(), [record.to_json() for record in hand.history]) for hand in kept]
    start = time.perf_counter()
    rounds = 0
    while time.perf_counter() - start < args.seconds / 2:
        for deal, history in recorded:
            replay(Settings(), deal, history)
        rounds += 1
    elapsed = time.perf_counter() - start
    print(f"replays from JSON:     {rounds * len(recorded) / elapsed:8.0f} hands per second")


if __name__ == "__main__":
    main()
