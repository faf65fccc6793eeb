"""Deck enrollment, measured on a deck design the shipped models never trained on: from photos of the deck spread on
the felt to a model that reads it, and how well the reader reads that deck before and after.

"The casino's own deck" is played by a held-out design of ``bench/vision_transfer.py`` (default
``procedural-standard``, a standard-index procedural test deck; also ``procedural-large``, ``procedural-jumbo``,
``konqi-modern``, ``xskat-french``). A deck the shipped models trained on (the 8 built-in decks, e.g.
``nicu-white``) is accepted too, but its figures are not transfer figures and the bench says so. Its faces are
printed onto rendered spreads (the photos the dealer takes), captured, confirmed (the dealer fixes the proposals)
and learnt with the kiosk's enrollment flow (``vision.enroll``, ``LearnSettings``); then the model before (the base)
and the model after read:

(a) the verification spread: a second spread never used for enrollment (three photos, 52 cards: tilted, turned 40°,
    seen at a slant), the kiosk's activation check; the kiosk's own verdict (truth from the profile's faces) is
    printed too;
(b) table scenes drawn by the card reader's generator from the deck's *original* faces (seeds 9 000 000…, none of
    them used for enrollment, whose scenes start at 7 000 000: overlaps, fans, hands, glare, perspective).

For each: *named right*: the cards (on the scenes: labelled, ≥ 40 % showing) a reading over them (IoU ≥ 0.5) names;
*unflagged wrong*: of the readings given without a flag, those that name no card lying under them (IoU ≥ 0.5);
*flagged*: the share of readings given with a flag. Truth comes from the renderer. Each reader forgets the deck's
familiarity before each set. Wall time is printed for every step.

    .venv/bin/python bench/vision_enroll.py [--deck procedural-standard] [--scenes 300] [--epochs 6]
                                            [--check-scenes 40] [--base MODEL_DIR] [--work DIR]

``--scenes`` and ``--epochs`` default to the kiosk's own (``LearnSettings``). The base model is the active one
(``models/`` when nothing was enrolled); ``--base`` names another folder. It runs the real fine-tune (minutes to
tens of minutes on 2 shared cores).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from vision_transfer import DESIGNS, DesignFigures, design_faces, scene_truth, tally  # noqa: E402

DEFAULT_DECK = "procedural-standard"
CHECK_SCENE_SEEDS = 9_000_000  # far from the learning job's scene seeds (LearnSettings.seed, 7 000 000…)


def trained_decks() -> tuple[str, ...]:
    """The deck designs the shipped models trained on (models/README.md, Data)."""
    from vision.synth.faces import DEBIAN_DECKS, FIVE_CARD_DRAW

    return (FIVE_CARD_DRAW, *DEBIAN_DECKS)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The bench's arguments; a bad one exits with status 2 and a one-line message naming it."""
    from vision.enroll.learn import LearnSettings

    kiosk = LearnSettings()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deck", default=DEFAULT_DECK,
                        help=f"the deck that plays the casino's own deck: a held-out design ({', '.join(DESIGNS)}; "
                             f"default {DEFAULT_DECK}) or a deck the models trained on (not a transfer figure)")
    parser.add_argument("--scenes", type=int, default=kiosk.scenes,
                        help=f"synthetic scenes rendered from the captured faces (the kiosk's: {kiosk.scenes})")
    parser.add_argument("--epochs", type=int, default=kiosk.epochs, help=f"the kiosk's: {kiosk.epochs}")
    parser.add_argument("--check-scenes", type=int, default=40, help="held-out generator scenes to read")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--base", type=Path, default=None, help="base model folder (default: the active model)")
    parser.add_argument("--work", type=Path, default=None, help="data folder for the run (default: a temp folder)")
    args = parser.parse_args(argv)
    problem = ""
    if args.deck not in (*DESIGNS, *trained_decks()):
        problem = (f"unknown deck {args.deck!r}: name a held-out design ({', '.join(DESIGNS)}) "
                   f"or a deck the models trained on ({', '.join(trained_decks())})")
    elif args.scenes < 0 or args.epochs < 1 or args.check_scenes < 1 or args.threads < 1:
        problem = "--scenes must be 0 or more, and --epochs, --check-scenes and --threads 1 or more"
    if problem:
        print(f"vision_enroll: {problem}", file=sys.stderr)
        raise SystemExit(2)
    return args


def deck_faces(deck: str) -> tuple[dict[Any, Any], bool]:
    """The deck's faces and whether the shipped models never trained on its design."""
    if deck in DESIGNS:
        return dict(design_faces(deck)), True
    from vision.synth.faces import load_deck

    return load_deck(deck), False


def spread_box(corners: Any) -> tuple[float, float, float, float]:
    return (float(corners[:, 0].min()), float(corners[:, 1].min()), float(corners[:, 0].max()),
            float(corners[:, 1].max()))


def read_spreads(reader: Any, spreads: Sequence[Any], name: str) -> tuple[DesignFigures, list[list[Any]]]:
    reader.forget_deck()
    figures, frames = DesignFigures(name), []
    started = time.perf_counter()
    for spread in spreads:
        readings = reader.read(spread.image)
        frames.append(readings)
        truth = [(card, spread_box(corners)) for card, corners in zip(spread.cards, spread.corners, strict=True)]
        tally(figures, readings, truth, truth)
        figures.scenes += 1
    figures.seconds = round(time.perf_counter() - started, 1)
    return figures, frames


def read_scenes(reader: Any, scenes: Sequence[Any], name: str) -> DesignFigures:
    reader.forget_deck()
    figures = DesignFigures(name)
    started = time.perf_counter()
    for scene in scenes:
        readings = reader.read(scene.image)
        tally(figures, readings, *scene_truth(scene))
        figures.scenes += 1
    figures.seconds = round(time.perf_counter() - started, 1)
    return figures


def line(label: str, figures: DesignFigures) -> str:
    s = figures.shares()
    return (f"  {label:<7} named right {s['named_right_pct']:5.1f}% ({figures.right}/{figures.cards}); unflagged wrong "
            f"{s['unflagged_wrong_pct']:5.1f}% ({figures.unflagged_wrong}/{figures.unflagged}); flagged "
            f"{s['flagged_pct']:5.1f}% ({figures.flagged}/{figures.readings} readings); "
            f"read in {figures.seconds:.1f} s")


def cached(frames: Sequence[Any], readings: Sequence[list[Any]]) -> Callable[[Any], list[Any]]:
    """A read function answering each frame with the readings already taken of it."""
    by_frame = {id(frame): r for frame, r in zip(frames, readings, strict=True)}
    return lambda frame: by_frame[id(frame)]


def capture_and_confirm(deck: str, faces: Mapping[Any, Any], root: Path, base: Path) -> tuple[Any, float, int, int]:
    """Two photos of the spread deck captured with the base model's proposals, the wrong ones fixed by the dealer,
    saved: (profile, seconds, faces captured, proposed right)."""
    import numpy as np

    from engine.cards import standard_deck
    from vision.enroll.capture import capture_frame, open_proposer
    from vision.enroll.confirm import ConfirmController
    from vision.enroll.profile import Draft
    from vision.enroll.spread import render_spread

    cards = list(standard_deck())
    started = time.perf_counter()
    Draft.open(f"bench {deck}", root).discard()
    draft = Draft.open(f"bench {deck}", root)
    proposer, why = open_proposer(base)
    if why:
        print(why)
    truth_of_capture = {}
    for seed, half in ((101, cards[:26]), (102, cards[26:])):
        spread = render_spread(faces, half, seed=seed)
        result = capture_frame(draft, spread.image, proposer)
        for problem in result.problems:
            print(f"  capture (seed {seed}): {problem}")
        for face in result.added:
            centre = np.asarray(face.corners).mean(axis=0)
            i = int(np.argmin([np.linalg.norm(c.mean(axis=0) - centre) for c in spread.corners]))
            truth_of_capture[face.index] = spread.cards[i]
    controller = ConfirmController(draft)
    proposed_right = sum(f.proposed == truth_of_capture[f.index] for f in draft.faces)
    for face in list(draft.faces):  # the dealer fixes what the model proposed wrong
        if face.card != truth_of_capture[face.index]:
            controller.fix(face.index, truth_of_capture[face.index])
    profile = controller.save()
    return profile, time.perf_counter() - started, len(draft.faces), proposed_right


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)

    from engine.cards import standard_deck
    from vision.enroll.learn import LearnJob, LearnSettings
    from vision.enroll.registry import active_model_dir, describe
    from vision.enroll.spread import render_spread
    from vision.enroll.verify import spread_truth, verify_reader
    from vision.reader import CardReader
    from vision.synth.faces import register_deck
    from vision.synth.scene import render_scene

    root = args.work or Path(tempfile.mkdtemp(prefix="enroll-bench-"))
    base = args.base or active_model_dir()
    faces, held_out = deck_faces(args.deck)
    cards = list(standard_deck())
    print(f"deck {args.deck!r} as the casino's own deck; base model {describe(base)}; data in {root}")
    print("  a design the shipped models never trained on: transfer figures" if held_out else
          "  NOT a transfer figure: the shipped models trained on this deck")

    # 1. Capture and confirm.
    profile, capture_s, captured, proposed_right = capture_and_confirm(args.deck, faces, root, base)
    print(f"capture: {captured} faces from 2 photos in {capture_s:.1f} s; the base model proposed "
          f"{proposed_right}/{len(cards)} right; the dealer fixed {captured - proposed_right}")

    # What is read: (a) the verification spread, (b) held-out table scenes of the original faces.
    spreads = [render_spread(faces, cards[:18], seed=201, perspective=0.03),
               render_spread(faces, cards[18:36], seed=202, tilt_degrees=40),
               render_spread(faces, cards[36:], seed=203)]
    frames = [s.image for s in spreads]
    deck_name = f"held-out-{args.deck}" if held_out else args.deck
    if held_out:
        register_deck(deck_name, faces)
    t = time.perf_counter()
    scenes = [render_scene(CHECK_SCENE_SEEDS + i, decks=[deck_name]) for i in range(args.check_scenes)]
    render_s = time.perf_counter() - t

    # 2. Before: the base model.
    old_reader = CardReader(base, threads=args.threads)
    spread_before, old_frames = read_spreads(old_reader, spreads, "spread before")
    scenes_before = read_scenes(old_reader, scenes, "scenes before")

    # 3. Learn.
    settings = LearnSettings(scenes=args.scenes, epochs=args.epochs, threads=args.threads)
    t = time.perf_counter()
    model = LearnJob(profile, settings, root, base_model=base).run()
    learn_s = time.perf_counter() - t
    print(f"learn: {args.scenes} scenes, {args.epochs} epochs in {learn_s / 60:.1f} min → {describe(model)}")

    # 4. After: the enrolled model; and the kiosk's own verification (truth from the profile's faces).
    new_reader = CardReader(model, threads=args.threads)
    spread_after, new_frames = read_spreads(new_reader, spreads, "spread after")
    t = time.perf_counter()
    truth = spread_truth(frames, profile)
    old = verify_reader(cached(frames, old_frames), frames, truth, describe(base))
    new = verify_reader(cached(frames, new_frames), frames, truth, describe(model))
    verify_s = time.perf_counter() - t + spread_before.seconds + spread_after.seconds
    scenes_after = read_scenes(new_reader, scenes, "scenes after")

    print(f"(a) verification spread: {len(spreads)} photos, {spread_before.cards} cards")
    print(line("before", spread_before))
    print(line("after", spread_after))
    print(f"  the kiosk's verdict (truth from the profile's faces, {len(truth.cards)} cards found): "
          f"before {old.accuracy:.1%}, after {new.accuracy:.1%}; activated: {new.right >= old.right}; "
          f"verification took {verify_s:.1f} s")
    print(f"(b) held-out table scenes: {args.check_scenes} scenes (seeds {CHECK_SCENE_SEEDS}…), "
          f"{scenes_before.cards} labelled cards, rendered in {render_s:.1f} s")
    print(line("before", scenes_before))
    print(line("after", scenes_after))
    print(f"wall time: capture {capture_s:.1f} s, learn {learn_s / 60:.1f} min, verification {verify_s:.1f} s; "
          f"photos to a verified model {(capture_s + learn_s + verify_s) / 60:.1f} min")
    (root / "bench.json").write_text(json.dumps({
        "deck": args.deck, "held_out": held_out, "base": describe(base), "model": describe(model),
        "scenes": args.scenes, "epochs": args.epochs, "capture_s": round(capture_s, 1), "learn_s": round(learn_s, 1),
        "verify_s": round(verify_s, 1), "proposed_right": proposed_right,
        "kiosk_verify_before": old.accuracy, "kiosk_verify_after": new.accuracy,
        **{name: {**f.counts(), **f.shares()} for name, f in (("spread_before", spread_before),
                                                           ("spread_after", spread_after),
                                                           ("scenes_before", scenes_before),
                                                           ("scenes_after", scenes_after))},
    }, indent=1) + "\n")
    print(f"figures written to {root / 'bench.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
