"""Leave decks out: how the card reader reads deck designs it never trained on.

Every design measured here is held out of all training: two Debian decks the face loader leaves out (read from the
pictures inside their SVG files, ``vision.synth.raster_decks``: ``konqi-modern``, four colours and dragons;
``xskat-french``, four-corner indices and German court letters) and procedural decks of the test seed family
(``vision.synth.procedural.TEST_DECK_SEEDS``, fonts no training deck uses), one per index size (standard, large,
jumbo). The shipped models trained on the 8 built-in decks (and the real photos' deck): none of those is a design
here, so every figure is a transfer figure.

Each design is drawn into the same synthetic table scenes (``--scenes``, seeds 7 000 000…: overlaps, fans, hands,
chips, perspective, light, blur, noise), read by the whole reader as ``dealer-assist vision read`` reads photos
given together (``vision.photo_batch``: the deck's familiarity counted over all a design's scenes, and the scenes read
before it settled read again), and reported:

- named right: the labelled cards (≥ 40 % of the face showing) that a reading over them (IoU ≥ 0.5) names;
- unflagged wrong: of the readings given without a flag, the share that name no card lying under them (IoU ≥ 0.5);
- flagged: the share of readings given with a flag (low confidence, duplicate, partly covered);
- index corners: the any-deck index reader alone (the index reader where the folder has none) on every index
  corner that shows whole (≥ 80 %), cut at the card's true corners: the share it names right, and the share it
  names wrong at ≥ 0.8 (a sure misread), cut from the scene as drawn (before ``--salt-pepper`` or ``--squash``);
- familiar: the frames read with the face trusted (``vision.reader_familiar``: the deck's face and index readings
  agreed); a held-out design should be read index first. The reader forgets the deck between designs.
  (Before step 49 each scene was read once, as it came: the first scenes before the count settled.)

    .venv/bin/python bench/vision_transfer.py [--scenes 30] [--models DIR] [--designs a,b] [--json OUT]
        [--surface stone|paper|...]  (the same scenes drawn on one table top; stone and paper are no training top)
        [--salt-pepper 0.04]  (that share of every scene's pixels turned black or white: impulse noise)
        [--squash]  (every scene squashed to a square, its width shrunk to its height)
        [--scale 0.5]  (every scene taken with fewer pixels: 640 x 360, cards half as big)
        [--dim 0.25]  (a webcam in that share of the light: shot noise, gain, JPEG)
        [--one-by-one]  (every scene read alone, by a fresh count of the deck: one `vision read` call a photo)
        [--close-ups]  (phone photos of one or two cards close up on wood, stone and white, instead of scenes)

The default (30 scenes a design) takes a few minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
if TYPE_CHECKING:
    from vision.detection import Detection

SCENE_SEEDS = 7_000_000  # the scenes every held-out design is drawn into
# Other scenes of the same designs, for choosing the reader's settings (--validation); the figures the model card
# reports are measured on SCENE_SEEDS only, never tuned on.
VALIDATION_SEEDS = 7_500_000
# --close-ups: seeds of the close-up photos (their own drawing, not the scenes'); the validation ones chose the
# reader's close_up_* settings (step 49)
CLOSE_UP_SEEDS = 8_000_000
CLOSE_UP_VALIDATION_SEEDS = 8_800_000
CLOSE_UP_TOPS = ("wood", "stone", "paper")
MATCH_IOU = 0.5
SHOWS_WHOLE = 0.8
SURE = 0.8
# Held-out designs: name → how to draw it. Procedural test decks: (seed, index size).
PROCEDURAL_TEST = {"procedural-standard": (900_000, "standard"), "procedural-large": (900_001, "large"),
                   "procedural-jumbo": (900_002, "jumbo")}
DESIGNS = ("konqi-modern", "xskat-french", *PROCEDURAL_TEST)


@dataclass
class DesignFigures:
    design: str
    scenes: int = 0
    cards: int = 0
    right: int = 0
    readings: int = 0
    flagged: int = 0
    unflagged: int = 0
    unflagged_wrong: int = 0
    corners: int = 0
    corners_right: int = 0
    corners_sure_wrong: int = 0
    familiar_frames: int = 0  # frames read with the face trusted (the deck counted as familiar)
    seconds: float = 0.0
    # every reading's confidence and whether a card of its name lies under it, for the calibration table
    confidences: list[tuple[float, bool]] = field(default_factory=list)

    def counts(self) -> dict[str, Any]:
        """The figures without the per-reading confidences (for JSON)."""
        return {k: v for k, v in asdict(self).items() if k != "confidences"}

    def shares(self) -> dict[str, float]:
        def share(a: int, b: int) -> float:
            return round(100.0 * a / b, 1) if b else 0.0

        return {"named_right_pct": share(self.right, self.cards),
                "unflagged_wrong_pct": share(self.unflagged_wrong, self.unflagged),
                "flagged_pct": share(self.flagged, self.readings),
                "index_right_pct": share(self.corners_right, self.corners),
                "index_sure_wrong_pct": share(self.corners_sure_wrong, self.corners)}


def design_faces(design: str):  # type: ignore[no-untyped-def]
    from vision.synth.procedural import procedural_deck
    from vision.synth.raster_decks import RASTER_DECKS, raster_deck

    if design in RASTER_DECKS:
        return raster_deck(design)
    if design in PROCEDURAL_TEST:
        seed, size = PROCEDURAL_TEST[design]
        return procedural_deck(seed, size)
    raise SystemExit(f"unknown design {design!r}; held-out designs: {', '.join(DESIGNS)}")


TruthCards = Sequence[tuple[Any, tuple[float, float, float, float]]]  # (card, box)


def scene_truth(scene: Any) -> tuple[TruthCards, TruthCards]:
    """The cards of a rendered scene a reader should name, and every card lying there, each with its box clipped to
    the frame: a reader boxes what the camera shows (the detector learnt clipped boxes), so a card half out of the
    frame is named right with the half that shows."""
    size = (scene.image.shape[1], scene.image.shape[0])
    return ([(p.card, p.box_in_frame(size)) for p in scene.labelled_cards],
            [(p.card, p.box_in_frame(size)) for p in scene.cards])


def tally(figures: DesignFigures, readings: Sequence[Any], labelled: TruthCards, present: TruthCards) -> None:
    """Count one frame: ``labelled`` the cards that should be named, ``present`` every card lying there."""
    from vision.detection import iou

    for card, box in labelled:
        figures.cards += 1
        best = max(readings, key=lambda d: iou(d.box, box), default=None)
        figures.right += best is not None and iou(best.box, box) >= MATCH_IOU and best.card == card
    for reading in readings:
        figures.readings += 1
        right = any(card == reading.card and iou(reading.box, box) >= MATCH_IOU for card, box in present)
        figures.confidences.append((float(reading.confidence), right))
        if reading.flags:
            figures.flagged += 1
            continue
        figures.unflagged += 1
        figures.unflagged_wrong += not right


def scaled(image: Any, scale: float) -> Any:
    """``image`` taken with fewer pixels (``scale`` 0.5: a 640 x 360 webcam frame of a 1280 x 720 scene)."""
    import cv2

    height, width = image.shape[:2]
    return cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)


def scaled_truth(cards: TruthCards, scale: float) -> TruthCards:
    return [(card, (x1 * scale, y1 * scale, x2 * scale, y2 * scale)) for card, (x1, y1, x2, y2) in cards]


def squashed_truth(cards: TruthCards, width: int, height: int) -> TruthCards:
    scale = height / width
    return [(card, (x1 * scale, y1, x2 * scale, y2)) for card, (x1, y1, x2, y2) in cards]


def close_up(seed: int, faces: Any) -> tuple[Any, TruthCards]:
    """A phone photo (1280 x 960) of one or two cards of ``faces`` close up, each 22-38 % of the photo's width (over
    the square root of how many), turned up to 25 degrees (a third upside down), on wood, stone or a white table in
    turn, lit and noised as the scenes are; and its cards with their boxes."""
    import numpy as np

    from vision.synth.faces import paste_card
    from vision.synth.textures import SURFACES, apply_lighting, apply_sensor

    rng = np.random.default_rng(seed)
    width, height = 1280, 960
    photo = SURFACES[CLOSE_UP_TOPS[seed % len(CLOSE_UP_TOPS)]](rng, (width, height))
    cards = sorted(faces, key=str)
    count = 1 + seed % 2
    truth = []
    for k in range(count):
        card = cards[int(rng.integers(len(cards)))]
        w = rng.uniform(0.22, 0.38) * width / count ** 0.5
        cx, cy = width * (k + 0.5) / count + rng.uniform(-40, 40), height / 2 + rng.uniform(-60, 60)
        turn = np.deg2rad(rng.uniform(-25, 25) + (180 if rng.random() < 0.3 else 0))
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        corners = (np.array([[-w / 2, -0.7 * w], [w / 2, -0.7 * w], [w / 2, 0.7 * w], [-w / 2, 0.7 * w]]) @ rotation.T
                   + [cx, cy]).astype(np.float32)
        paste_card(photo, faces[card], corners)
        truth.append((card, (float(corners[:, 0].min()), float(corners[:, 1].min()), float(corners[:, 0].max()),
                             float(corners[:, 1].max()))))
    return apply_sensor(rng, apply_lighting(rng, photo)), truth


def measure(reader, design: str, scenes: int,  # type: ignore[no-untyped-def]
            first_seed: int = SCENE_SEEDS, surface: str | None = None, salt_pepper: float = 0.0,
            squash: bool = False, close_ups: bool = False, dim: float = 1.0,
            one_by_one: bool = False, scale: float = 1.0) -> DesignFigures:
    import numpy as np

    from vision.photo_batch import read_photos
    from vision.reader_index import index_patch
    from vision.reader_models import to_tensor
    from vision.synth.faces import register_deck
    from vision.synth.scene import render_scene
    from vision.synth.textures import dim_light, salt_and_pepper, squashed_to_square

    name = f"held-out-{design}"
    faces = design_faces(design)
    register_deck(name, faces)
    reader.forget_deck()  # each design is a new deck at a new table
    figures = DesignFigures(design)
    index_names = reader.manifest.any_index_names or reader.manifest.index_names
    started = time.perf_counter()
    drawn: dict[int, object] = {}

    def scene_image(seed: int) -> object:
        if seed not in drawn:
            drawn[seed] = close_up(seed, faces) if close_ups else render_scene(seed, decks=[name], surface=surface)
        image = drawn[seed][0] if close_ups else drawn[seed].image  # type: ignore[index, attr-defined]
        image = dim_light(image, dim, seed) if dim < 1.0 else image
        image = scaled(image, scale) if scale != 1.0 else image
        image = squashed_to_square(image) if squash else image
        return salt_and_pepper(image, salt_pepper, seed) if salt_pepper else image

    def read_scenes() -> Iterator[tuple[int, list[Detection]]]:
        seeds = range(first_seed, first_seed + scenes)
        if not one_by_one:  # as ``dealer-assist vision read`` reads photos given together (``vision.photo_batch``)
            yield from read_photos(reader, seeds, scene_image).readings
            return
        for seed in seeds:  # as one ``vision read`` call a photo: each read by a fresh count of the deck
            reader.forget_deck()
            yield from read_photos(reader, [seed], scene_image).readings

    for seed, readings in read_scenes():
        scene = drawn.pop(seed)
        figures.scenes += 1
        figures.familiar_frames += reader.familiarity.familiar()
        if close_ups:
            image, labelled, present = scene[0], scene[1], scene[1]
        else:
            image, (labelled, present) = scene.image, scene_truth(scene)
        if scale != 1.0:
            labelled, present = scaled_truth(labelled, scale), scaled_truth(present, scale)
        if squash:
            height, width = (round(side * scale) for side in image.shape[:2])
            labelled, present = squashed_truth(labelled, width, height), squashed_truth(present, width, height)
        tally(figures, readings, labelled, present)
        if close_ups:
            continue
        if not index_names:
            continue
        patches, truth = [], []
        for placed in scene.labelled_cards:
            for turn, share in ((0, placed.index_shares[0]), (2, placed.index_shares[1])):
                if share >= SHOWS_WHOLE:
                    corners = np.roll(placed.corners.astype(np.float64), -turn, axis=0)
                    patches.append(index_patch(scene.image, corners, reader.manifest.index_imgsz))
                    truth.append(str(placed.card))
        if patches:
            probs = reader.backend.read_any_index(to_tensor(patches))
            for row, card in zip(probs, truth, strict=True):
                named = index_names[int(row.argmax())]
                figures.corners += 1
                figures.corners_right += named == card
                figures.corners_sure_wrong += named != card and float(row.max()) >= SURE
    figures.seconds = round(time.perf_counter() - started, 1)
    return figures


def row(figures: DesignFigures) -> str:
    s = figures.shares()
    wrong = f"{s['unflagged_wrong_pct']:.1f}% ({figures.unflagged_wrong}/{figures.unflagged})"
    return (f"{figures.design:<22}{figures.cards:>6}{s['named_right_pct']:>12.1f}%{wrong:>22}"
            f"{s['flagged_pct']:>8.1f}%{figures.corners:>15}{s['index_right_pct']:>12.1f}%"
            f"{s['index_sure_wrong_pct']:>11.1f}%{figures.familiar_frames:>6}/{figures.scenes}")


CONFIDENCE_BANDS = (0.0, 0.5, 0.8, 0.9, 0.99, 1.0)


def calibration(confidences: Sequence[tuple[float, bool]]) -> list[tuple[float, float, int, float]]:
    """Per confidence band (from, to, readings, share right): whether a confidence means the same on a deck
    never seen as the thresholds chosen on the known deck assume."""
    rows = []
    for low, high in itertools.pairwise(CONFIDENCE_BANDS):
        inside = [right for conf, right in confidences if low <= conf < high or (high == 1.0 and conf == 1.0)]
        rows.append((low, high, len(inside), sum(inside) / len(inside) if inside else 0.0))
    return rows


def parse_settings(pairs: list[str]):  # type: ignore[no-untyped-def]
    """``NAME=VALUE`` pairs as reader settings, each value of its default's type."""
    from dataclasses import fields

    from vision.reader import ReaderSettings

    defaults = {f.name: getattr(ReaderSettings(), f.name) for f in fields(ReaderSettings)}
    chosen: dict[str, object] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name not in defaults:
            raise SystemExit(f"--setting {pair}: no reader setting {name!r}; see vision.reader.ReaderSettings")
        kind = type(defaults[name])
        try:
            if kind is bool:
                chosen[name] = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}[
                    value.lower()]
            else:
                chosen[name] = kind(value)
        except (KeyError, ValueError):
            raise SystemExit(f"--setting {pair}: {name} takes a {kind.__name__} (now {defaults[name]!r}), "
                             f"not {value!r}") from None
    from engine.errors import InputError

    try:
        return ReaderSettings(**chosen)  # type: ignore[arg-type]
    except InputError as error:
        raise SystemExit(f"--setting: {error}") from None


def main() -> int:
    from vision.synth.textures import SURFACES

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=30, help="scenes per held-out design (default 30)")
    parser.add_argument("--models", type=Path, default=None, help="model folder (default: the shipped models/)")
    parser.add_argument("--designs", default=",".join(DESIGNS), help=f"comma-separated, of: {', '.join(DESIGNS)}")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--validation", action="store_true",
                        help=f"draw the validation scenes (seeds {VALIDATION_SEEDS}…), for choosing settings")
    parser.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE",
                        help="a reader setting to try (vision.reader.ReaderSettings), repeatable")
    parser.add_argument("--surface", choices=list(SURFACES), default=None,
                        help="draw every scene on this table top (the same cards, hands and light): felt, wood and "
                             "cloth are the training scenes' tops, stone and paper (a white table) are not")
    parser.add_argument("--salt-pepper", type=float, default=0.0, metavar="SHARE",
                        help="turn this share of every scene's pixels black or white (impulse noise, which no "
                             "training scene has), e.g. 0.04")
    parser.add_argument("--squash", action="store_true",
                        help="squash every scene to a square (its width shrunk to its height), as some cameras' "
                             "exports do: cards look narrower than they are")
    parser.add_argument("--dim", type=float, default=1.0, metavar="LIGHT",
                        help="a webcam in this share of the light (0.25: a quarter): shot noise, its gain, JPEG; "
                             "dimmer than any training scene")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="every scene taken with fewer pixels, e.g. 0.5: a 640 x 360 webcam frame, cards half "
                             "as big as any training scene's")
    parser.add_argument("--close-ups", action="store_true",
                        help="instead of table scenes, phone photos of one or two cards close up on wood, stone and "
                             f"a white table (seeds {CLOSE_UP_SEEDS}…, validation {CLOSE_UP_VALIDATION_SEEDS}…)")
    parser.add_argument("--one-by-one", action="store_true",
                        help="read every scene alone, by a fresh count of the deck (as one `vision read` call a "
                             "photo), not as one table's frames")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    designs = [d.strip() for d in args.designs.split(",") if d.strip()]
    unknown = [d for d in designs if d not in DESIGNS]
    if unknown or args.scenes < 1:
        print(f"unknown design(s) {', '.join(unknown)}; held-out designs: {', '.join(DESIGNS)}" if unknown
              else "--scenes must be 1 or more", file=sys.stderr)
        return 2
    if not 0.0 <= args.salt_pepper <= 1.0:
        print(f"--salt-pepper is a share of the pixels, 0 to 1, got {args.salt_pepper}", file=sys.stderr)
        return 2
    if not 0.1 <= args.scale <= 2.0:
        print(f"--scale is how many pixels the camera takes against the scene's, 0.1 to 2, got {args.scale}",
              file=sys.stderr)
        return 2
    if not 0.0 < args.dim <= 1.0:
        print(f"--dim is a share of the light, over 0 and at most 1, got {args.dim}", file=sys.stderr)
        return 2

    from vision.reader import CardReader
    from vision.reader_models import DEFAULT_MODEL_DIR

    models = args.models or DEFAULT_MODEL_DIR
    first_seed = VALIDATION_SEEDS if args.validation else SCENE_SEEDS
    if args.close_ups:
        first_seed = CLOSE_UP_VALIDATION_SEEDS if args.validation else CLOSE_UP_SEEDS
    reader = CardReader(models, settings=parse_settings(args.setting), threads=args.threads)
    tried = f"; settings {' '.join(args.setting)}" if args.setting else ""
    on = f"; every scene on {args.surface}" if args.surface else ""
    on += f"; {args.salt_pepper:.1%} of pixels turned black or white" if args.salt_pepper else ""
    on += "; squashed to a square" if args.squash else ""
    on += f"; {args.dim:.0%} of the light" if args.dim < 1.0 else ""
    on += f"; taken at {args.scale:g} of the scene's size" if args.scale != 1.0 else ""
    on += "; close-ups, not table scenes" if args.close_ups else ""
    on += "; every scene read alone" if args.one_by_one else ""
    print(f"models {models}; {args.scenes} scenes per held-out design (seeds {first_seed}…){tried}{on}")
    print(f"{'design':<22}{'cards':>6}{'named right':>13}{'unflagged wrong':>22}{'flagged':>9}"
          f"{'index corners':>15}{'index right':>13}{'sure wrong':>12}{'familiar':>10}")
    results = []
    total = DesignFigures("all")
    for design in designs:
        figures = measure(reader, design, args.scenes, first_seed, args.surface, args.salt_pepper, args.squash,
                          args.close_ups, args.dim, args.one_by_one, args.scale)
        results.append(figures)
        print(row(figures), flush=True)
        for key, value in figures.counts().items():
            if isinstance(value, int) and key != "design":
                setattr(total, key, getattr(total, key) + value)
        total.confidences.extend(figures.confidences)
    print(row(total))
    print("confidence against readings right, all designs: "
          + "; ".join(f"{low:.2f}-{high:.2f} {count} readings, {100 * right:.1f}% right"
                      for low, high, count, right in calibration(total.confidences) if count))
    if args.json:
        args.json.write_text(json.dumps({"models": str(models), "scenes": args.scenes,
                                         "designs": [{**f.counts(), **f.shares()} for f in [*results, total]],
                                         "calibration": [dict(zip(("from", "to", "readings", "right"), r, strict=True))
                                                         for r in calibration(total.confidences)]},
                                        indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
