"""Deck enrollment, measured: from photos of a deck spread on the felt to a model that reads that deck.

"The casino's own deck" is played by one of Debian's SVG decks: its faces are printed onto rendered spreads (the
photos the dealer would take), captured, confirmed, learnt; then both the model before and the model after read
(a) a second spread never used for enrollment (the verification the kiosk runs) and (b) table scenes rendered by
the card reader's generator from the deck's *original* faces (overlaps, fans, glare, perspective), none of them
used for enrollment. Prints wall time per step and accuracy before and after.

    .venv/bin/python bench/vision_enroll.py [--deck nicu-white] [--scenes 120] [--epochs 3] [--check-scenes 40]
                                            [--base MODEL_DIR] [--work DIR]

The base model is the active one (``models/`` when nothing was enrolled); ``--base`` names another folder. Keep it
short on a shared CPU: it runs the real fine-tune (minutes).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def scene_accuracy(read, scenes) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """Cards of labelled scenes read right: a detection over the card (IoU ≥ 0.5) naming it."""
    from vision.enroll.verify import _iou

    right = total = 0
    for scene in scenes:
        detections = list(read(scene.image))
        for placed in scene.labelled_cards:
            total += 1
            best = max(detections, key=lambda d: _iou(d.box, placed.box), default=None)
            right += best is not None and _iou(best.box, placed.box) >= 0.5 and best.card == placed.card
    return right, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deck", default="nicu-white", help="the Debian deck that plays the casino's own deck")
    parser.add_argument("--scenes", type=int, default=120, help="synthetic scenes rendered from the captured faces")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--check-scenes", type=int, default=40, help="held-out generator scenes to read")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--base", type=Path, default=None, help="base model folder (default: the active model)")
    parser.add_argument("--work", type=Path, default=None, help="data folder for the run (default: a temp folder)")
    args = parser.parse_args()

    from engine.cards import standard_deck
    from vision.enroll.capture import capture_frame, open_proposer
    from vision.enroll.confirm import ConfirmController
    from vision.enroll.learn import LearnJob, LearnSettings
    from vision.enroll.profile import Draft
    from vision.enroll.registry import active_model_dir, describe
    from vision.enroll.spread import render_spread
    from vision.enroll.verify import model_reader, spread_truth, verify_reader
    from vision.synth.faces import load_deck
    from vision.synth.scene import render_scene

    root = args.work or Path(tempfile.mkdtemp(prefix="enroll-bench-"))
    base = args.base or active_model_dir()
    faces = load_deck(args.deck)
    cards = list(standard_deck())
    print(f"deck {args.deck!r} as the casino's own deck; base model {describe(base)}; data in {root}")

    # 1. Capture two photos of the spread deck, proposals by the base model.
    t = time.perf_counter()
    draft = Draft.open(f"bench {args.deck}", root)
    draft.discard()
    draft = Draft.open(f"bench {args.deck}", root)
    proposer, why = open_proposer(base)
    if why:
        print(why)
    truth_of_capture = {}
    for seed, half in ((101, cards[:26]), (102, cards[26:])):
        spread = render_spread(faces, half, seed=seed)
        result = capture_frame(draft, spread.image, proposer)
        for face in result.added:
            import numpy as np

            centre = np.asarray(face.corners).mean(axis=0)
            i = int(np.argmin([np.linalg.norm(c.mean(axis=0) - centre) for c in spread.corners]))
            truth_of_capture[face.index] = spread.cards[i]
    capture_s = time.perf_counter() - t
    controller = ConfirmController(draft)
    proposed_right = sum(f.proposed == truth_of_capture[f.index] for f in draft.faces)
    for face in list(draft.faces):  # the dealer fixes what the model proposed wrong
        if face.card != truth_of_capture[face.index]:
            controller.fix(face.index, truth_of_capture[face.index])
    profile = controller.save()
    print(f"capture: {len(draft.faces)} faces from 2 photos in {capture_s:.1f} s; the base model proposed "
          f"{proposed_right}/52 right; the dealer fixed {52 - proposed_right}")

    # 2. Learn.
    settings = LearnSettings(scenes=args.scenes, epochs=args.epochs, threads=args.threads)
    t = time.perf_counter()
    job = LearnJob(profile, settings, root, base_model=base)
    model = job.run()
    learn_s = time.perf_counter() - t
    print(f"learn: {args.scenes} scenes, {args.epochs} epochs in {learn_s / 60:.1f} min → {describe(model)}")

    # 3. Verify on a second spread, and on held-out generator scenes of the original faces.
    check_frames = [render_spread(faces, cards[:18], seed=201, perspective=0.03).image,
                    render_spread(faces, cards[18:36], seed=202, tilt_degrees=40).image,
                    render_spread(faces, cards[36:], seed=203).image]
    t = time.perf_counter()
    truth = spread_truth(check_frames, profile)
    old_read, new_read = model_reader(base), model_reader(model)
    old = verify_reader(old_read, check_frames, truth, describe(base))
    new = verify_reader(new_read, check_frames, truth, describe(model))
    verify_s = time.perf_counter() - t
    print(f"verification spread ({len(truth.cards)} cards, {verify_s:.1f} s): before {old.accuracy:.1%}, "
          f"after {new.accuracy:.1%}")
    scenes = [render_scene(9_000_000 + i, decks=[args.deck]) for i in range(args.check_scenes)]
    old_right, total = scene_accuracy(old_read, scenes)
    new_right, _ = scene_accuracy(new_read, scenes)
    print(f"held-out table scenes ({args.check_scenes} scenes, {total} cards): before {old_right / max(total, 1):.1%}"
          f", after {new_right / max(total, 1):.1%}")
    print(f"total wall time, photos to a verified model: {(capture_s + learn_s + verify_s) / 60:.1f} min")
    (root / "bench.json").write_text(json.dumps({
        "deck": args.deck, "base": describe(base), "model": describe(model), "capture_s": round(capture_s, 1),
        "learn_s": round(learn_s, 1), "verify_s": round(verify_s, 1), "proposed_right": proposed_right,
        "spread_before": old.accuracy, "spread_after": new.accuracy,
        "scenes_before": old_right / max(total, 1), "scenes_after": new_right / max(total, 1), "scene_cards": total,
    }, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
