"""How well the shipped card reader reads the losers' cards at a Sâm Lốc hand's end on the demo felt.

At the end of a hand each loser lays the cards he has left face up in a row in his own place (``samloc_4``: four
places of 600 x 170 mm, up to 10 cards a row, overlapping as the row grows). This renders such tables as the demo's
croupier lays them (``vision.sources.SyntheticTableSource``), reads them as the kiosk does (``TableReader`` with the
shipped model, the straightened table in tiles, the stabiliser over 3 frames) and counts, per row length, the cards
read right and sure, read right but marked unsure (the dealer confirms them), read wrong, and not read at all.
Half the tables are the ends of random hands (what the demo plays), half have every seat showing 7 to 10 cards (the
deepest overlap: 10 cards in 600 mm lie 59 mm apart, 63 mm wide). Prints figures; asserts nothing.

Run: ``nice .venv/bin/python bench/samloc_table.py [--tables 8] [--seed 1]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import Card, shuffled, standard_deck
from engine.samloc import Pass, PlayCards, Settings, State, random_deal
from vision.sources import SyntheticTableSource
from vision.table_reader import TableReader

SEATS = ("seat1", "seat2", "seat3", "seat4")
FRAMES_PER_TABLE = 4  # the stabiliser places a card after 3 frames in a row


def hand_end(rng: random.Random) -> list[tuple[Card, ...]]:
    """The cards each of four seats has left when a random hand ends (the winner none)."""
    hand = State.start(Settings(bet=10), random_deal(4, rng.randrange(4), rng))
    while not hand.is_over:
        actions = [a for a in hand.legal_actions() if isinstance(a, (PlayCards, Pass))]
        hand.apply(actions[rng.randrange(len(actions))])
    return [tuple(cards) for cards in hand.hands]


def long_rows(rng: random.Random) -> list[tuple[Card, ...]]:
    """Each seat showing 7 to 10 cards (10: a seat that never played), the rows overlapping most."""
    deck = shuffled(standard_deck(), rng.randrange(2**31))
    return [tuple(deck[10 * seat : 10 * seat + rng.randint(7, 10)]) for seat in range(4)]


def bucket(count: int) -> str:
    return "1-3 cards" if count <= 3 else "4-6 cards" if count <= 6 else "7-9 cards" if count <= 9 else "10 cards"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    import vision

    rng = random.Random(args.seed)
    source = SyntheticTableSource("samloc_4")
    reader = TableReader(source, read=vision.read)
    counts: dict[str, Counter[str]] = {}
    seconds: list[float] = []
    for number in range(args.tables):
        rows = hand_end(rng) if number % 2 == 0 else long_rows(rng)
        source.clear_all()
        for zone, cards in zip(SEATS, rows, strict=True):
            if cards:
                source.place(zone, cards)
        reader.forget()
        for _ in range(FRAMES_PER_TABLE):
            started = time.perf_counter()
            snapshot = reader.step()
            seconds.append(time.perf_counter() - started)
        if snapshot.problem:
            print(f"table {number + 1}: {snapshot.problem}")
            return 1
        for zone, cards in zip(SEATS, rows, strict=True):
            if not cards:
                continue
            tally = counts.setdefault(bucket(len(cards)), Counter())
            tally["rows"] += 1
            tally["laid"] += len(cards)
            place = snapshot.zones.get(zone)
            read = place.cards if place is not None else ()
            doubt = place.flags if place is not None else frozenset()  # a zone over capacity: every card unsure
            seen = [c.card for c in read]
            for placed in read:
                if placed.card not in cards:
                    tally["wrong"] += 1
                elif placed.flags or doubt:
                    tally["unsure"] += 1
                else:
                    tally["right"] += 1
            tally["missed"] += sum(1 for card in cards if card not in seen)
            tally["rows read whole and sure"] += int(sorted(map(str, seen)) == sorted(map(str, cards))
                                                     and not doubt and not any(c.flags for c in read))
    print(f"shipped reader on the samloc_4 demo felt: {args.tables} tables (seed {args.seed}), "
          f"{FRAMES_PER_TABLE} frames each, {sum(seconds) / len(seconds):.2f} s a frame")
    total: Counter[str] = Counter()
    for name in ("1-3 cards", "4-6 cards", "7-9 cards", "10 cards"):
        tally = counts.get(name)
        if not tally:
            continue
        total.update(tally)
        print(f"  rows of {name:<9}: {tally['rows']:3d} rows, {tally['laid']:3d} cards: right and sure "
              f"{tally['right']}, right but unsure {tally['unsure']}, wrong {tally['wrong']}, not read "
              f"{tally['missed']}; rows read whole and sure {tally['rows read whole and sure']}")
    share = 100.0 * total["right"] / total["laid"] if total["laid"] else 0.0
    print(f"  all: {total['laid']} cards, {total['right']} right and sure ({share:.1f} %), {total['unsure']} unsure, "
          f"{total['wrong']} wrong, {total['missed']} not read; {total['rows read whole and sure']} of "
          f"{total['rows']} rows read whole and sure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
