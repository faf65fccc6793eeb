"""Bài Bửu engine figures: house-way decisions per second over all 270,725 hands, and the time to play and settle
a 6-seat round (roll, house, house set, six seats, settlement).

    .venv/bin/python bench/baibuu.py [--quick]
"""

from __future__ import annotations

import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.baibuu import STANDARD_HOUSE_WAY, HouseWay, Settings, State, house_way
from engine.baibuu.house_way import STANDARD_RULES
from engine.cards import shuffled, standard_deck


def decisions_per_second(hands: list[tuple], decide) -> tuple[float, float]:  # type: ignore[type-arg, no-untyped-def]
    start = time.perf_counter()
    for hand in hands:
        decide(hand)
    seconds = time.perf_counter() - start
    return len(hands) / seconds, seconds


def six_seat_round(deck: list) -> None:  # type: ignore[type-arg]
    state = State(Settings())
    state.roll([3, 5, 6])
    house = deck[:4]
    state.reveal_house(house)
    split = house_way(house)
    state.set_house(split.high.cards, split.low.cards)
    for index, seat in enumerate(state.settings.seats):
        cards = deck[4 + 4 * index : 8 + 4 * index]
        seat_split = house_way(cards)
        state.set_seat(seat, 100, seat_split.high.cards, seat_split.low.cards)
    state.settle().to_json()


def main() -> None:
    quick = "--quick" in sys.argv
    hands = list(combinations(standard_deck(), 4))
    print(f"hands: {len(hands):,}")
    fresh = HouseWay(STANDARD_RULES)  # an empty memory of decisions: the first pass works every set of ranks out
    rate, seconds = decisions_per_second(hands, fresh.split)
    print(f"house way, first pass (1,820 sets of ranks worked out): {rate:,.0f} decisions/s ({seconds:.2f} s)")
    rate, seconds = decisions_per_second(hands, STANDARD_HOUSE_WAY.split)
    print(f"house way, warm: {rate:,.0f} decisions/s ({seconds:.2f} s)")
    sample = hands if not quick else hands[::10]
    rate, seconds = decisions_per_second(sample, STANDARD_HOUSE_WAY.split_uncached)
    print(f"house way, every rule run on every hand (no memory): {rate:,.0f} decisions/s ({len(sample):,} hands)")

    decks = [shuffled(standard_deck(), seed) for seed in range(200 if quick else 2000)]
    times = []
    for deck in decks:
        start = time.perf_counter()
        six_seat_round(deck)
        times.append(time.perf_counter() - start)
    times.sort()
    print(
        f"6-seat round played and settled ({len(times)} rounds): median {statistics.median(times) * 1e6:.0f} µs, "
        f"p99 {times[int(len(times) * 0.99)] * 1e6:.0f} µs"
    )


if __name__ == "__main__":
    main()
