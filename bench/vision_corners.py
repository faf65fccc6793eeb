"""The corner look's reading of index corners, alone, on card-designs' test split: real designs neither the corner
index reader nor its epoch choice ever saw, each laid on a drawn table at any turn and its two index corners boxed
as the corner detector boxes them. The reader then does what it does with a detector's box: tries the quarter
turns the box allows, reads the rank (OCR × corner index reader) and the suit.

    .venv/bin/python bench/vision_corners.py [--models DIR] [--copies 1] [--limit N]

Prints, for each way of choosing the upright turn: rank right, suit right, the share of corners sure (rank and suit
past the reader's thresholds) and how many of those are right, OCR lines a corner, and milliseconds a corner. A
figure on laid design photos: it says which way reads corners better, not how a real table reads.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


SURER = ((0.99, 0.8), (0.999, 0.95), (0.999, 0.99), (0.9999, 0.99), (0.9999, 0.999))  # sureness looked at


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", type=Path, default=REPO / "models")
    parser.add_argument("--copies", type=int, default=1, help="times each test design is laid")
    parser.add_argument("--limit", type=int, default=None, help="the first N test designs only")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    import numpy as np

    from vision.corner_reader import CornerReader
    from vision.reader import ReaderSettings
    from vision.synth.design_corners import detector_boxes
    from vision.synth.design_crops import laid_designs

    settings = ReaderSettings()
    reader = CornerReader(args.models, index_reader=None, index_names=())
    laid = []
    rng = np.random.default_rng(args.seed)
    for _, card, photo, corners in laid_designs("test", args.copies, args.seed, limit=args.limit):
        if card.suit is not None:
            laid.append((str(card), photo, [(box, 1.0) for box, _ in detector_boxes(photo, corners, rng)]))
    count = sum(len(found) for _, _, found in laid)
    print(f"card-designs test split: {len(laid)} laid design photos, {count} index corners; models {args.models}")
    for name, by_network in (("the turn the corner index reader is surest of, read by the OCR", True),
                             ("the turn where the OCR (every turn the box allows) and it agree most", False)):
        reader.turn_by_network = by_network
        lines = 0
        counting = reader._ranks.read

        def counted(crops: list, counting: object = counting) -> object:
            nonlocal lines
            lines += len(crops)
            return counting(crops)  # type: ignore[operator]

        reader._ranks.read = counted  # type: ignore[method-assign]
        rank = suit = sure = sure_right = 0
        read = []
        began = time.perf_counter()
        for card, photo, found in laid:
            for corner in reader.read_boxes(photo, found):
                rank += corner.card[:-1] == card[:-1]
                suit += corner.card[-1] == card[-1]
                read.append((corner.rank_sure, corner.suit_sure, corner.card == card))
                if corner.rank_sure >= settings.corner_rank_sure and corner.suit_sure >= settings.corner_suit_sure:
                    sure += 1
                    sure_right += corner.card == card
        seconds = time.perf_counter() - began
        reader._ranks.read = counting  # type: ignore[method-assign]
        print(f"  {name}: rank right {rank / count:.1%}, suit right {suit / count:.1%}, sure {sure / count:.1%} "
              f"({sure_right} of {sure} right), {lines / count:.2f} OCR lines a corner, "
              f"{1000 * seconds / count:.1f} ms a corner")
        for rank_at, suit_at in SURER:
            past = [right for r, s, right in read if r >= rank_at and s >= suit_at]
            print(f"    rank {rank_at}, suit {suit_at}: {len(past) / count:.1%} of corners past, "
                  f"{sum(past)} of {len(past)} right ({sum(past) / max(len(past), 1):.2%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
