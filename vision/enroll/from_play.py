"""Learning from play (issue 53 goal 3): fine-tune the any-deck readers on the rounds the dealers confirmed.

Every round a dealer confirms is a labelled example from the casino's own camera and deck: the evidence frame, the
box each card was read at and the card as finally confirmed (``journal.play_examples`` gathers them; this module
never reads the journal, ``dealer-assist vision learn-from-play`` hands it the examples). From them:

1. **faces**: each example cut as the reader cuts a face (``vision.reader_crops.square_crop`` around the box, through
   ``vision.synth.dataset.write_crops``), ``copies`` times with a detector's jitter;
2. **index corners**: each example's card outlined by the base model's outline model (the outline whose box matches
   the example's box best, at the reader's input size or a smaller one, where close-ups are outlined whole) and
   paired with the examples' boxes (``vision.real_index_patches.outlined_cards``, as for the real photos of the
   known deck), turned the way up that puts an index in its corners as the base index reader sees them (a squashed
   frame makes a card look wider than tall); the patches the reader cuts from the box and the outline are labelled
   by where the outline puts the index (``write_patches``), and the index corners themselves are cut at the outline
   the right way up, ``index_cuts`` times each with jitter; a corner under another outlined card is left out, not
   called hidden; an example the outline model does not outline gives no corner;
3. a class no example shows (a card not yet dealt) keeps its place from the generator's ``five-card-draw`` faces, as
   enrollment does, so that the models keep their classes;
4. the base folder's any-deck face reader (``card-classifier-any``) and any-deck index reader (``card-index-any``)
   are fine-tuned on them (``vision.train.train_face_transfer``, ``train_index_reader``: AdamW 0.0005, no warm-up),
   each for a few epochs and within a time box, and exported (``vision.train.export_models``) into a copy of the base
   folder, each blended half and half with the base's weights (``PlaySettings.blend``): everything else
   (detector, outline model, the known deck's models) stays the base's. The folder's
   ``reader.json`` says what it learnt from (``play``), which also gives it its own model hash.

Validation (Ultralytics' checkpoint metric): the check examples when given (rounds kept out of learning), else one
clean cut of the training examples; the run's last weights are exported either way, so nothing is chosen on them.
Checking a learnt folder before it is activated: ``check_on_examples`` (enrollment's ``verify_reader``: each model
reads the held-out rounds' frames whole, a card read right when a reading on its box names it).
"""

from __future__ import annotations

import json
import shutil
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.cards import JOKER, Card
from vision.enroll.profile import ProfileError
from vision.enroll.verify import SpreadTruth, TruthCard, VerifyReport, active_reader, model_reader, verify_reader
from vision.reader_classes import CLASS_NAMES

Box = tuple[float, float, float, float]
PLAY_KEY = "play"  # reader.json: what a folder learnt from play
MODEL_FILES = (".onnx", ".pt")


@dataclass(frozen=True)
class Example:
    """One confirmed card: the frame it lies in, the reader's box, the card, its round, what the reader said."""

    frame: Path
    box: Box
    card: Card
    round_id: int
    read_as: str = ""


@dataclass(frozen=True)
class PlaySettings:
    """How much to learn. ``minutes``: the time box for both trainings together (the faces take ``FACE_SHARE`` of
    it); an epoch under way when it runs out is cut short and the weights so far exported."""

    epochs: int = 5  # chosen beforehand (a few passes over a small set at a gentle rate), not on any figure
    index_epochs: int = 5
    copies: int = 8  # jittered face crops of each example
    index_cuts: int = 6  # jittered cuts of each example's index corners
    minutes: float | None = 20.0
    threads: int = 2
    batch: int | None = None  # None: the readers' recipes
    seed: int = 8_000_000
    # The learnt weights' share in the exported models, the rest the base's (weight-space ensembling, "WiSE-FT",
    # Wortsman et al. 2022): a few rounds show a few of the deck's cards, and weights learnt from them alone forget
    # how the base reads the cards not yet shown and take more of the picture for cards. Chosen beforehand (the
    # method's usual half), not on any figure.
    blend: float = 0.5

    def __post_init__(self) -> None:
        if (self.epochs < 1 or self.index_epochs < 0 or self.copies < 1 or self.index_cuts < 1 or self.threads < 1
                or (self.minutes is not None and self.minutes <= 0) or not 0.0 < self.blend <= 1.0):
            raise ProfileError("learning from play needs epochs ≥ 1, index epochs ≥ 0, copies ≥ 1, cuts ≥ 1, "
                               "threads ≥ 1, a time box over 0 minutes and a blend over 0 and at most 1")

    @classmethod
    def quick(cls) -> PlaySettings:
        """A smoke run: one tiny epoch of each."""
        return cls(epochs=1, index_epochs=1, copies=1, index_cuts=1, minutes=None, batch=8)


FACE_SHARE = 0.4  # of the time box: the faces' epochs cost about as much as the corners' on this CPU


def _by_frame(examples: Sequence[Example]) -> dict[Path, list[Example]]:
    frames: dict[Path, list[Example]] = defaultdict(list)
    for example in examples:
        frames[example.frame].append(example)
    return frames


def _load(path: Path) -> np.ndarray:
    """An evidence frame as the reader reads it: with salt-and-pepper noise median-filtered away where it has some
    (``ReaderSettings.impulse_noise``), so that the crops learnt from are the crops read."""
    from vision.frame_noise import without_impulse_noise
    from vision.reader import ReaderSettings

    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise ProfileError(f"cannot read the evidence frame {path}")
    return without_impulse_noise(np.asarray(image, np.uint8), ReaderSettings().impulse_noise)


def build_face_crops(examples: Sequence[Example], out: Path, settings: PlaySettings,
                     check: Sequence[Example] = ()) -> Path:
    """The face reader's set under ``out`` (``train/<class>``, ``val/<class>``); returns ``out``."""
    from vision.synth.dataset import write_crops

    rng = np.random.default_rng(settings.seed)
    for split in ("train", "val"):
        for name in CLASS_NAMES:
            (out / split / name).mkdir(parents=True, exist_ok=True)
    for split, chosen, copies, jitter in (("train", examples, settings.copies, 0.06),
                                          ("val", check or examples, 1, 0.0)):
        for k, (path, found) in enumerate(sorted(_by_frame(chosen).items())):
            image = _load(path)
            boxes = [(str(e.card), e.box) for e in found]
            write_crops(image, boxes, out / split, f"play{k:05d}", rng, copies=copies, jitter=jitter)
    _fill_faces(out, settings.seed)
    return out


def _fill_faces(out: Path, seed: int) -> None:
    """A class without an example in a split gets crops of the generator's ``five-card-draw`` card (enrollment's
    way, ``vision.enroll.learn``), so that the face reader keeps its classes."""
    from vision.enroll.spread import render_spread
    from vision.reader_classes import card_of_class_name
    from vision.reader_crops import square_crop
    from vision.synth.faces import FIVE_CARD_DRAW, load_deck

    other = load_deck(FIVE_CARD_DRAW)
    for split, count in (("train", 4), ("val", 1)):
        for name in CLASS_NAMES:
            folder = out / split / name
            if any(folder.iterdir()):
                continue
            card = card_of_class_name(name)
            for k in range(count):
                spread = render_spread(other, [card], seed=seed + k, size=(400, 300),
                                       tilt_degrees=180 if card is JOKER else 30)
                pts = spread.corners[0]
                box = (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))
                cv2.imwrite(str(folder / f"other_{k}.jpg"), square_crop(spread.image, box))


def build_index_patches(examples: Sequence[Example], out: Path, base: Path, settings: PlaySettings,
                        check: Sequence[Example] = ()) -> Path:
    """The index reader's set under ``out`` (``train/<class>``, ``val/<class>``, with ``none``); returns ``out``."""
    from vision.enroll.learn_index import INDEX_CLASSES
    from vision.enroll.learn_index import _fill_empty_classes as fill_index
    from vision.reader import CardReader
    from vision.real_index_patches import HALF_SHOWN, corner_region, lies_free, outlined_cards
    from vision.synth.procedural_patches import write_patches
    from vision.synth.scene import PlacedCard, Scene

    for split in ("train", "val"):
        for name in INDEX_CLASSES:
            (out / split / name).mkdir(parents=True, exist_ok=True)
    reader = CardReader(base, threads=settings.threads)
    rng = np.random.default_rng(settings.seed + 1)
    for split, chosen, cuts in (("train", examples, settings.index_cuts), ("val", check or examples, 1)):
        for k, (path, found) in enumerate(sorted(_by_frame(chosen).items())):
            image = _load(path)
            cards = outlined_cards([(e.card, e.box) for e in found], _outlines(reader, image, found))
            quads = [_index_way_up(reader, image, c.outline) for c in cards]
            placed = []
            for k, (card, quad) in enumerate(zip(cards, quads, strict=True)):
                others = [q.astype(np.float32) for j, q in enumerate(quads) if j != k]
                free = [lies_free(corner_region(quad, corner), others) for corner in (0, 2)]
                placed.append(PlacedCard(card.card, quad.astype(np.float32), 1.0,
                                         (1.0 if free[0] else HALF_SHOWN, 1.0 if free[1] else HALF_SHOWN)))
            if placed:
                write_patches(out / split, Scene(k, "play", image, tuple(placed)), "play", keep_none=1, keep_card=1.0,
                              rng=rng, cuts=cuts)  # every ``none`` patch: a frame of one or two cards has few
                _write_index_corners(out / split, image, placed, f"play_{k:05d}", rng, cuts)
    fill_index(out, settings.seed)
    return out


OUTLINE_SIZES = (None, 256, 192, 160)  # the reader's outline look's input, then smaller ones for close-ups


def _outlines(reader: Any, image: np.ndarray, found: Sequence[Example]) -> list[Any]:
    """Each example's card outline: of the outline model's outlines at the reader's input size and at smaller ones
    (a card photographed close up is outlined whole only there, as the coarse look boxes it), the one whose box
    matches the example's box best (IoU at least 0.5)."""
    from vision.detection import iou
    from vision.reader_outline import outline_box

    best: dict[int, tuple[float, Any]] = {}
    for size in OUTLINE_SIZES:
        for outline in reader.outlines(image, size)[0]:
            around = outline_box(outline)
            for i, example in enumerate(found):
                overlap = iou(around, example.box)
                if overlap >= 0.5 and overlap > best.get(i, (0.0, None))[0]:
                    best[i] = (overlap, outline)
    return [outline for _, outline in best.values()]


def _write_index_corners(out: Path, image: np.ndarray, placed: Sequence[Any], prefix: str, rng: np.random.Generator,
                         cuts: int) -> None:
    """The index corners themselves, cut upright at each card's outline the right way up (jittered): the reader cuts
    its patches at outlines turned by their shape, which on a squashed frame miss the index, so ``write_patches``
    alone would teach such a frame's corners as ``none`` only; this teaches the deck's index glyphs too."""
    from vision.reader_index import index_patch
    from vision.synth.index_patches import INDEX_SHOWS
    from vision.synth.procedural_patches import CORNER_JITTER

    for i, card in enumerate(placed):
        corners = card.corners.astype(np.float64)
        width = float(np.linalg.norm(corners[1] - corners[0]))
        folder = out / str(card.card)
        for cut in range(cuts):
            jittered = corners + rng.normal(0, CORNER_JITTER * width, corners.shape)
            for turn, share in ((0, card.index_shares[0]), (2, card.index_shares[1])):
                if share >= INDEX_SHOWS:
                    patch = index_patch(image, np.roll(jittered, -turn, axis=0))
                    cv2.imwrite(str(folder / f"{prefix}_corner{i}_{cut}_{turn}.jpg"), patch,
                                [cv2.IMWRITE_JPEG_QUALITY, 92])


def _index_way_up(reader: Any, image: np.ndarray, outline: Any) -> Any:
    """``outline`` (``upright_outline``: a short edge first) or the same card a quarter turn round, whichever puts
    the corners where the base index reader sees an index (its patches at corners 0 and 2 read least ``none``).
    Upright by its shape alone is wrong where the frame was squashed (a card wider than tall on the picture)."""
    from vision.reader_index import NO_INDEX, index_patch
    from vision.reader_models import to_tensor

    names = reader.manifest.any_index_names if reader.backend.has_any_index_reader else reader.manifest.index_names
    if NO_INDEX not in names:
        return outline
    read = reader.backend.read_any_index if reader.backend.has_any_index_reader else reader.backend.read_index
    ways = [outline, np.roll(outline, 1, axis=0)]
    patches = [index_patch(image, np.roll(way, -turn, axis=0)) for way in ways for turn in (0, 2)]
    shows = 1.0 - read(to_tensor(patches))[:, names.index(NO_INDEX)]
    return ways[int(shows[2:].max() > shows[:2].max())]


def _time_box(seconds: float | None) -> dict[str, Callable[[Any], None]]:
    """Ultralytics callbacks that stop a run once ``seconds`` have passed (the epoch under way ends there, is
    validated and saved)."""
    if seconds is None:
        return {}
    start = time.monotonic()

    def on_batch_end(trainer: Any) -> None:
        if time.monotonic() - start > seconds:
            trainer.stop = True

    return {"on_train_batch_end": on_batch_end}


def _start_weights(base: Path, any_deck: str, fallback: str) -> Path:
    for name in (any_deck, fallback):
        if (base / f"{name}.pt").exists():
            return base / f"{name}.pt"
    raise ProfileError(f"the base model {base} has no {any_deck}.pt (nor {fallback}.pt) to start from: learning "
                       "needs the PyTorch weights beside the ONNX files")


def _as_best(run: Path, shim: Path, base: Path, blend: float) -> Path:
    """A run folder whose ``best.pt`` (what ``export_models`` takes) is ``run``'s last weights, blended with the
    ``base`` checkpoint's: ``blend`` of the learnt ones, the rest the base's."""
    import torch

    last = run / "weights" / "last.pt"
    if not last.exists():
        raise ProfileError(f"the training run {run} left no weights")
    (shim / "weights").mkdir(parents=True, exist_ok=True)
    target = shim / "weights" / "best.pt"
    if blend >= 1.0:
        shutil.copy(last, target)
        return shim
    learnt = torch.load(last, map_location="cpu", weights_only=False)
    start = torch.load(base, map_location="cpu", weights_only=False)
    key = "ema" if learnt.get("ema") is not None else "model"
    model = learnt[key].float()
    before = (start.get("ema") or start["model"]).float().state_dict()
    state = model.state_dict()
    for name, value in state.items():
        if value.is_floating_point() and name in before and before[name].shape == value.shape:
            state[name] = blend * value + (1.0 - blend) * before[name]
    model.load_state_dict(state)
    learnt[key] = model.half()
    torch.save(learnt, target)
    return shim


def learn_from_play(examples: Sequence[Example], base: Path, target: Path, work: Path,
                    settings: PlaySettings | None = None, check: Sequence[Example] = (),
                    report: Callable[[str], None] = lambda stage: None, info: dict[str, Any] | None = None,
                    keep_sets: bool = False) -> Path:
    """Fine-tune ``base``'s any-deck face and index readers on ``examples`` and write the new model folder
    ``target`` (a copy of ``base`` with those two replaced); ``work`` holds the sets and runs. ``check``: examples
    kept out of learning, the validation split. ``info`` goes into ``reader.json`` under ``play``. The sets (crops
    and patches of evidence frames) are deleted once the folder is written unless ``keep_sets``: the evidence
    retention decides how long pictures of the table are kept, and the runs keep only weights and figures."""
    from vision import train
    from vision.reader_models import ANY_DECK_CLASSIFIER, ANY_DECK_INDEX_READER, CLASSIFIER, INDEX_READER, MANIFEST

    settings = settings or PlaySettings()
    if not examples:
        raise ProfileError("no confirmed card to learn from: play some rounds first (cards set by hand and frames "
                           "the evidence retention pruned give none)")
    if target.exists():
        raise ProfileError(f"{target} exists already: learning writes a new model folder")
    train.prepare_offline_ultralytics()
    work.mkdir(parents=True, exist_ok=True)
    report("faces")
    faces = build_face_crops(examples, work / "faces", settings, check)
    report("corners")
    corners = build_index_patches(examples, work / "corners", base, settings, check) if settings.index_epochs else None
    overrides: dict[str, Any] = {"plots": False, "verbose": False, "val": True}
    if settings.batch:
        overrides["batch"] = settings.batch
    total = settings.minutes * 60 if settings.minutes is not None else None
    started = time.monotonic()
    report("train faces")
    face_start = _start_weights(base, ANY_DECK_CLASSIFIER, CLASSIFIER)
    index_start = _start_weights(base, ANY_DECK_INDEX_READER, INDEX_READER) if corners is not None else face_start
    face_run = train.train_face_transfer(
        faces, work / "face-run", epochs=settings.epochs, threads=settings.threads, start_from=face_start,
        callbacks=_time_box(None if total is None else total * FACE_SHARE), **overrides)
    index_run = None
    if corners is not None:
        report("train corners")
        left = None if total is None else max(total - (time.monotonic() - started), 1.0)
        index_run = train.train_index_reader(
            corners, work / "index-run", epochs=settings.index_epochs, threads=settings.threads,
            start_from=index_start, callbacks=_time_box(left),
            **{k: v for k, v in overrides.items() if k != "batch"})  # the index recipe's batch is fixed
    report("export")
    staging = target.with_name(f".{target.name}.partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for item in base.iterdir():
        if item.is_file() and (item.suffix in MODEL_FILES or item.name == MANIFEST):
            shutil.copy(item, staging / item.name)
    index_best = None if index_run is None else _as_best(index_run, work / "index-best", index_start, settings.blend)
    train.export_models(work / "no-run", work / "no-run", staging, any_index_run=index_best,
                        any_face_run=_as_best(face_run, work / "face-best", face_start, settings.blend))
    manifest = json.loads((staging / MANIFEST).read_text())
    manifest[PLAY_KEY] = {**(info or {}), "examples": len(examples), "check_examples": len(check),
                          "rounds": sorted({e.round_id for e in examples}), "settings": asdict(settings)}
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging.replace(target)
    for cut in (faces, corners):  # pictures cut from evidence frames: kept no longer than the frames themselves
        if cut is not None and not keep_sets:
            shutil.rmtree(cut, ignore_errors=True)
    report("done")
    return target


def check_on_examples(check: Sequence[Example], candidate: Path, active: Path) -> tuple[VerifyReport, VerifyReport]:
    """The active model and the candidate, each reading the check examples' frames whole as at the table: per
    model, how many of the confirmed cards a reading on their box names (enrollment's ``verify_reader``)."""
    from vision.enroll.registry import describe

    frames = sorted(_by_frame(check).items())
    images = [_load(path) for path, _ in frames]
    truth = SpreadTruth([TruthCard(i, e.card, e.box) for i, (_, found) in enumerate(frames) for e in found])
    old = verify_reader(active_reader(active), images, truth, describe(active))
    new = verify_reader(model_reader(candidate), images, truth, describe(candidate))
    return old, new


def split_check(round_ids: Sequence[int], every: int = 5) -> set[int]:
    """The rounds kept out of learning to check the new model on: every ``every``-th of them (oldest first), and
    the newest when that gives none but there are two or more; none for a single round."""
    ordered = sorted(set(round_ids))
    chosen = {r for i, r in enumerate(ordered) if i % every == every - 1}
    if not chosen and len(ordered) >= 2:
        chosen = {ordered[-1]}
    return chosen
