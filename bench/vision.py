"""Card reader figures: frames per second of the whole reading pipeline at 1280x720 (ONNX Runtime vs PyTorch) and
accuracy on held-out synthetic scenes and held-out real photographs.

    .venv/bin/python bench/vision.py [--frames 20] [--passes 3] [--threads 2] [--no-accuracy] [--real-limit N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# Threads that sleep instead of spinning while they wait: on a shared, busy CPU spinning OpenMP threads make
# PyTorch many times slower. Set before torch is imported.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def frames_per_second(backend: str, frames: list, threads: int, passes: int = 3,
                      **changes: object) -> tuple[float, float, float]:
    """Frames a second of the reader with its default settings, ``changes`` made: the median of ``passes`` passes
    over ``frames`` after a first pass (a kiosk reads for days; the first pass over a fresh reader is the slower one,
    by more than the spread of the later passes), that first pass's, and cards a frame."""
    from vision.reader import CardReader, ReaderSettings

    reader = CardReader(backend=backend, threads=threads, settings=ReaderSettings(**changes))
    reader.read(frames[0])  # models loaded
    timed = []
    cards = 0
    for _ in range(1 + passes):
        cards = 0
        start = time.perf_counter()
        for frame in frames:
            cards += len(reader.read(frame))
        timed.append(len(frames) / (time.perf_counter() - start))
    return statistics.median(timed[1:]), timed[0], cards / len(frames)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--passes", type=int, default=3, help="timed passes over the frames, after a first (median)")
    parser.add_argument("--no-accuracy", action="store_true")
    parser.add_argument("--real-limit", type=int, default=None, help="read only the first N real test images")
    args = parser.parse_args()

    from vision.synth.scene import render_scene
    from vision.train import prepare_offline_ultralytics

    prepare_offline_ultralytics()
    frames = [render_scene(5_000_000 + i).image for i in range(args.frames)]
    print(f"reading pipeline (detector + crops + classifier + flags), {args.frames} synthetic 1280x720 frames, "
          f"{args.threads} threads; machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for backend in ("onnx", "torch"):
        fps, first, cards = frames_per_second(backend, frames, args.threads, args.passes)
        print(f"  {backend:6s}: {fps:5.1f} frames/s ({1000 / fps:6.1f} ms a frame, {cards:.1f} cards a frame; "
              f"median of {args.passes} passes; the first pass over the frames: {first:.1f} frames/s)")
    for what, changes in (
        ("with the second look (off since step 43)", {"second_look": True}),
        ("without the outline model (its finds, index corners, straight look)", {"outline_look": False}),
        ("without the outline model and the index look", {"outline_look": False, "index_look": False}),
        ("with the frame padded to a square (step 45 and before)", {"input_stride": 0}),
        ("without the coarse look (issue 53)", {"coarse_look": 0.0}),
        ("the deck read as unseen, with the corner look (issue 53)", {"familiar_deck": "unseen", "unseen_settled": 0}),
        ("the deck read as unseen, the corner look's OCR reading every turn (step 55)",
         {"familiar_deck": "unseen", "unseen_settled": 0, "corner_turn_by_network": False}),
        ("the deck read as unseen, without the corner look", {"familiar_deck": "unseen", "unseen_settled": 0,
                                                             "corner_look": False}),
    ):
        fps, _first, _cards = frames_per_second("onnx", frames, args.threads, args.passes, **changes)
        print(f"  onnx {what}: {fps:5.1f} frames/s ({1000 / fps:6.1f} ms a frame)")
    if args.no_accuracy:
        return 0

    from vision.eval import evaluate
    from vision.reader import CardReader
    from vision.train_data import WORK_DIR

    reader = CardReader()
    for title, data, split, limit in (
        ("held-out synthetic scenes", WORK_DIR / "synth-test.yaml", "test", None),
        ("held-out real photographs (test split by source photo)", WORK_DIR / "real-test.yaml", "test",
         args.real_limit),
    ):
        if not data.exists():
            print(f"{title}: {data} missing; run 'dealer-assist vision train --stage data' first")
            continue
        s = evaluate(reader, data, split, limit).summary()
        print(f"{title}: {s['images']} images, {s['truth_cards']} cards: {s['cards_right']:.2%} identified right "
              f"(wrong {s['wrong']}, missed {s['missed']}, extra {s['extra']} ({s['extra_unflagged']} unflagged), "
              f"under the labelling share {s['under_label']}, "
              f"flagged {s['flagged']}); "
              f"named in place {s['named_in_place']:.2%}; card-set precision {s['set_precision']:.2%}, "
              f"recall {s['set_recall']:.2%}; unflagged readings right {s['certain_precision']:.2%} of {s['certain']}")
        for band, figures in s["by_shown"].items():
            print(f"  cards {band} of their face: {figures['right']} of {figures['cards']} right "
                  f"({figures['share_right']:.2%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
