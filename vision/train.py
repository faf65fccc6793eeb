"""Training the card reader's two models with Ultralytics, offline, on the CPU: resumable, with a progress bar."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from vision.train_data import REPO_ROOT, WORK_DIR

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def prepare_offline_ultralytics(config_dir: Path = WORK_DIR / "ultralytics-config") -> None:
    """Make Ultralytics run without a network: no downloads, no auto-install, a local font as its Arial."""
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"
    os.environ["YOLO_CONFIG_DIR"] = str(config_dir)
    font_dir = config_dir / "Ultralytics"
    font_dir.mkdir(parents=True, exist_ok=True)
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        if not (font_dir / name).exists() and FONT.exists():
            shutil.copy(FONT, font_dir / name)


def set_cpu_threads(threads: int) -> None:
    import torch
    from ultralytics.utils import torch_utils

    torch.set_num_threads(threads)
    torch_utils.NUM_THREADS = threads  # Ultralytics resets torch's threads to this when it picks the CPU


def train_yolo(model_yaml: str, data: Path, run_dir: Path, *, epochs: int, imgsz: int, batch: int,
               threads: int = 2, time_hours: float | None = None, weights: Path | None = None,
               transfer: Path | None = None, callbacks: Mapping[str, Callable[[Any], None]] | None = None,
               **overrides: Any) -> Path:
    """Train (or resume) one Ultralytics model; returns the run folder. ``weights`` starts from a checkpoint;
    ``transfer`` builds the model from its YAML and takes every layer that fits from another task's checkpoint;
    ``callbacks`` (Ultralytics event name → function of the trainer) report progress."""
    prepare_offline_ultralytics()
    from ultralytics import YOLO

    set_cpu_threads(threads)
    last = run_dir / "weights" / "last.pt"
    if last.exists() and not (run_dir / "done").exists():
        try:
            resumed = YOLO(str(last))
            for event, function in (callbacks or {}).items():
                resumed.add_callback(event, function)
            resumed.train(resume=True, workers=0)
            (run_dir / "done").write_text("finished\n")
            return run_dir
        except AssertionError:  # Ultralytics: "training to N epochs is finished, nothing to resume"
            (run_dir / "done").write_text("finished\n")
            return run_dir
    # From a checkpoint, start from the checkpoint itself: building from the YAML and loading it would leave the
    # classification head behind (the YAML's 1000 classes do not match), so a fine-tune would start from a random head.
    model = YOLO(str(weights)) if weights is not None else YOLO(model_yaml)
    if transfer is not None and weights is None:
        model.load(str(transfer))
    for event, function in (callbacks or {}).items():
        model.add_callback(event, function)
    args: dict[str, Any] = dict(data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, workers=0, device="cpu",
                                project=str(run_dir.parent), name=run_dir.name, exist_ok=True, plots=True,
                                amp=False, verbose=True)
    if time_hours:
        args["time"] = time_hours
    args.update(overrides)
    model.train(**args)
    (run_dir / "done").write_text("finished\n")
    return run_dir


RUNS = REPO_ROOT / "runs" / "vision"
DETECTOR_RECIPE = {"model": "yolo26n.yaml", "imgsz": 320, "batch": 16}
DETECTOR_MAX_IMGSZ = 640  # the reader shrinks big frames at most by half, up to this input size
CLASSIFIER_RECIPE = {"model": "yolo11n-cls.yaml", "imgsz": 160, "batch": 64}


EXTRA_SCENE_SEEDS = 3_000_000  # scenes rendered only for their crops
PHOTO_DECK_SEEDS = 4_000_000  # scenes drawn from the real photographs' own deck
PHOTO_DECKS = 8  # decks made of the photographed faces (face k of each card in deck k)
PROPOSAL_SEEDS = 6_000_000  # scenes cut where the shipped detector boxes their cards
SECOND_VAL_SEED = 1_000_100  # the second validation scenes (synth/val2) follow the first 100


def build_datasets(work: Path = WORK_DIR, train_scenes: int = 640, val_scenes: int = 100, test_scenes: int = 100,
                   real_dir: Path | None = None, table_frames: int = 150, extra_scenes: int = 0,
                   photo_scenes: int = 0, real_copies: int = 3, proposal_scenes: int = 0,
                   hard_copies: int = 2, second_val_scenes: int = 300) -> dict[str, Path]:
    """Every training set, written under ``work`` (kept between runs: finished parts are not redone).

    - ``real-det``: the real photos' boxes as one class, split by source photo;
    - ``synth/{train,val,test}``: seeded scenes (train seeds 0…, val 1 000 000…, test 2 000 000…);
    - ``synth/val2``: ``second_val_scenes`` more validation scenes (seeds 1 000 100…), for choosing the reader's
      settings: the first 100 hold few half-covered cards (72), too few to tell settings apart;
    - ``synth-tiles/{train,val}``: two 640 px tiles of each scene, where cards are as big, once the detector's
      input is shrunk, as the reader sees them in a 1280 x 720 frame;
    - ``det``: data.yaml for the detector (real photos + synthetic tiles);
    - ``cls``: classifier crops (real train crops three times with jitter, synthetic scene crops, crops of the demo
      table's deck as its camera sees it; val: real val crops only, since checkpoints are chosen on real images);
      with ``extra_scenes``, crops of that many more scenes rendered for their crops alone, and with
      ``photo_scenes``, crops of scenes drawn from the real photographs' own deck (``vision.synth.photo_deck``: the
      training photos' whole cards cut flat); with ``proposal_scenes``, crops of that many more scenes cut around the
      shipped detector's own boxes, cards showing less than 3/4 of their face ``hard_copies`` times more
      (``vision.synth.dataset.proposal_crops``); ``real_copies`` over 3 adds that many more jittered copies of each real
      training crop, so that the real photos keep their weight in a grown set. These grow the set in place and
      resume where they stopped.
    """
    from vision.synth.dataset import detector_tiles, detector_view, rendered_crops, scene_crops, write_scenes
    from vision.synth.table_crops import table_crops
    from vision.train_data import DEFAULT_REAL_PHOTOS, prepare_eval_sets, prepare_real_detector_set, real_crops

    real = real_dir or DEFAULT_REAL_PHOTOS
    prepare_real_detector_set(work / "real-det", real)
    synth = work / "synth"
    write_scenes(synth / "val", range(1_000_000, 1_000_000 + val_scenes))
    write_scenes(synth / "train", range(0, train_scenes))
    write_scenes(synth / "test", range(2_000_000, 2_000_000 + test_scenes))
    if second_val_scenes:
        write_scenes(synth / "val2", range(SECOND_VAL_SEED, SECOND_VAL_SEED + second_val_scenes))
    prepare_eval_sets(work, real)
    for split in ("train", "val", "test"):
        detector_view(synth / split, work / "synth-det" / split)
    for split, seed in (("train", 4), ("val", 5)):
        detector_tiles(synth / split, work / "synth-tiles" / split, seed=seed)
    import yaml

    det = work / "det"
    det.mkdir(parents=True, exist_ok=True)
    det_yaml = det / "data.yaml"
    det_yaml.write_text(yaml.safe_dump({
        "path": str(work),
        "train": ["real-det/train/images", "synth-tiles/train/images"],
        "val": ["real-det/val/images", "synth-tiles/val/images"],
        "test": ["real-det/test/images", "synth-det/test/images"],
        "names": {0: "card"},
    }, sort_keys=False))
    cls = work / "cls"
    marker = cls / "done"
    if not marker.exists():
        shutil.rmtree(cls, ignore_errors=True)
        real_crops(cls / "train", "train", real, copies=3, jitter=0.06, seed=1)
        scene_crops(synth / "train", cls / "train", seed=2, copies=1, jitter=0.06)
        table_crops(cls / "train", table_frames, seed=3)
        real_crops(cls / "val", "val", real, copies=1, jitter=0.0)
        marker.write_text("built\n")
    extra_real = work / "cls-logs" / "real-copies.txt"
    if real_copies > 3 and not extra_real.exists():
        real_crops(cls / "train", "train", real, copies=real_copies - 3, jitter=0.06, seed=11, stem_suffix="_x")
        extra_real.parent.mkdir(parents=True, exist_ok=True)
        extra_real.write_text(f"{real_copies}\n")
    if extra_scenes:
        rendered_crops(cls / "train", range(EXTRA_SCENE_SEEDS, EXTRA_SCENE_SEEDS + extra_scenes),
                       work / "cls-logs" / "extra-scenes.txt", prefix="extra")
    if photo_scenes:
        from vision.synth.photo_deck import photo_faces, register_photo_decks

        decks = register_photo_decks(photo_faces(real), PHOTO_DECKS)
        rendered_crops(cls / "train", range(PHOTO_DECK_SEEDS, PHOTO_DECK_SEEDS + photo_scenes),
                       work / "cls-logs" / "photo-deck-scenes.txt", decks=decks, prefix="photo")
    if proposal_scenes:
        from vision.synth.dataset import proposal_crops

        proposal_crops(cls / "train", range(PROPOSAL_SEEDS, PROPOSAL_SEEDS + proposal_scenes),
                       work / "cls-logs" / "proposal-scenes.txt", hard_copies=hard_copies)
    return {"detector": det_yaml, "classifier": cls}


def train_detector(det_yaml: Path, run_dir: Path = RUNS / "detector", epochs: int = 30, hours: float | None = None,
                   start_from: Path | None = None, threads: int = 2, **overrides: Any) -> Path:
    r = DETECTOR_RECIPE
    # No rotation: turning an axis-aligned label turns it into a bigger box than the card, and the detector learns to
    # box wide (after 4 epochs with ±15 degrees, 79 % of its boxes on the synthetic validation scenes were over 15 %
    # bigger than the card; without, 4 %); crops then take in the neighbours and the classifier misreads. The scenes
    # already hold cards at every angle.
    settings: dict[str, Any] = {"flipud": 0.5, "degrees": 0.0, "close_mosaic": 3, "patience": 100}
    if start_from is not None:  # a fine-tune: a gentle fixed AdamW rate, no warm-up to undo what was learnt
        settings.update(optimizer="AdamW", lr0=0.0005, warmup_epochs=0.0)
    settings.update(overrides)
    return train_yolo(str(r["model"]), det_yaml, run_dir, epochs=epochs, imgsz=int(r["imgsz"]), batch=int(r["batch"]),
                      threads=threads, time_hours=hours, weights=start_from, **settings)


def train_classifier(cls_dir: Path, run_dir: Path = RUNS / "classifier", epochs: int = 12,
                     hours: float | None = None, start_from: Path | None = None, threads: int = 2,
                     callbacks: Mapping[str, Callable[[Any], None]] | None = None, **overrides: Any) -> Path:
    r = CLASSIFIER_RECIPE
    # No left-right or up-down flips: a mirrored card index is not a card. Mild crops only: the index must stay.
    # A short warm-up and a fixed AdamW rate: on 2 shared cores only a few epochs fit, and Ultralytics' automatic
    # choice for 53 classes (lr 0.000175, 3 warm-up epochs) spends them all warming up.
    batch = int(overrides.pop("batch", r["batch"]))
    return train_yolo(str(r["model"]), cls_dir, run_dir, epochs=epochs, imgsz=int(r["imgsz"]), batch=batch,
                      threads=threads, time_hours=hours, weights=start_from, callbacks=callbacks,
                      **{"fliplr": 0.0, "flipud": 0.0, "scale": 0.25, "erasing": 0.3, "patience": 100,
                         "optimizer": "AdamW", "lr0": 0.002, "warmup_epochs": 0.5, **overrides})


INDEX_RECIPE = {"model": "yolo11n-cls.yaml", "imgsz": 64, "batch": 128}
INDEX_VAL_SEEDS = range(1_000_000, 1_000_100)  # the synthetic validation scenes: real photos have no card corners


def build_index_patches(work: Path = WORK_DIR, train_scenes: int = 1600, photo_scenes: int = 600,
                        real_dir: Path | None = None) -> Path:
    """The index reader's patch set (``vision.synth.index_patches``) under ``work/index``: the training scenes'
    cards and ``photo_scenes`` scenes of the photographed deck; validated on the synthetic validation scenes.
    Resumable, scene by scene."""
    from vision.synth.index_patches import index_training_patches

    out, logs = work / "index", work / "index-logs"
    index_training_patches(out / "val", INDEX_VAL_SEEDS, logs / "val.txt")
    index_training_patches(out / "train", range(0, train_scenes), logs / "train.txt")
    if photo_scenes:
        from vision.synth.photo_deck import photo_faces, register_photo_decks
        from vision.train_data import DEFAULT_REAL_PHOTOS

        decks = register_photo_decks(photo_faces(real_dir or DEFAULT_REAL_PHOTOS), PHOTO_DECKS)
        index_training_patches(out / "train", range(PHOTO_DECK_SEEDS, PHOTO_DECK_SEEDS + photo_scenes),
                               logs / "photo.txt", decks=decks, prefix="photo")
    return out


def build_real_index_patches(work: Path = WORK_DIR, real_cuts: int = 4, builtin_scenes: int = 200,
                             photo_scenes: int = 100, val_scenes: int = 30, real_dir: Path | None = None) -> Path:
    """The index reader's set for learning the known deck's real corners (``work/index-real``, step 47): the index
    corners of the real training photos (``vision.real_index_patches``, each cut ``real_cuts`` times), with the
    built-in decks' and the photographed deck's scenes cut as the any-deck set cuts them (the same seeds), so that
    the reader keeps what it read; validated on the real validation photos' corners and ``val_scenes`` built-in
    deck validation scenes. Resumable part by part."""
    from vision.real_index_patches import real_index_patches
    from vision.synth.photo_deck import photo_faces, register_photo_decks
    from vision.synth.procedural_patches import deck_index_patches
    from vision.train_data import DEFAULT_REAL_PHOTOS

    out, logs = work / "index-real", work / "index-real-logs"
    logs.mkdir(parents=True, exist_ok=True)
    for split, cuts in (("train", real_cuts), ("val", 1)):
        marker = logs / f"real-{split}.done"
        if not marker.exists():
            real_index_patches(out / split, split, cuts, real_dir=real_dir)
            marker.write_text("done\n")
    deck_index_patches(out / "val", range(1_000_000, 1_000_000 + val_scenes), logs / "val-scenes.txt", keep_card=1.0)
    deck_index_patches(out / "train", range(0, builtin_scenes), logs / "builtin.txt", keep_none=3, keep_card=1.0,
                       cuts=2)
    names = register_photo_decks(photo_faces(real_dir or DEFAULT_REAL_PHOTOS), PHOTO_DECKS)
    deck_index_patches(out / "train", range(PHOTO_DECK_SEEDS, PHOTO_DECK_SEEDS + photo_scenes), logs / "photo.txt",
                       decks=names, prefix="photo", keep_none=3, keep_card=1.0, cuts=2)
    return out


def build_design_index_patches(work: Path = WORK_DIR, copies: int = 2, real_cuts: int = 2,
                               real_dir: Path | None = None, designs: Path | None = None) -> Path:
    """The any-deck index reader's set of real designs (``work/index-designs``, issue 53): the index corners of
    the card-designs' training images laid ``copies`` times each (``vision.synth.design_crops``), with the known
    deck's real index corners cut ``real_cuts`` times so that it stays read; validated on the designs' validation
    images and the real validation photos' corners. Resumable part by part."""
    from vision.real_index_patches import real_index_patches
    from vision.synth.design_crops import DEFAULT_DESIGNS, write_design_patches

    out, logs = work / "index-designs", work / "index-designs-logs"
    logs.mkdir(parents=True, exist_ok=True)
    steps: list[tuple[str, Callable[[], int]]] = [
        ("design-train", lambda: write_design_patches(out / "train", "train", copies, seed=0,
                                                      root=designs or DEFAULT_DESIGNS)),
        ("design-val", lambda: write_design_patches(out / "val", "valid", 1, seed=1, root=designs or DEFAULT_DESIGNS)),
        ("real-train", lambda: real_index_patches(out / "train", "train", real_cuts, real_dir=real_dir)),
        ("real-val", lambda: real_index_patches(out / "val", "val", 1, real_dir=real_dir)),
    ]
    _run_once(steps, logs)
    _every_class_in_both(out, with_none=True)
    return out


def build_design_face_crops(work: Path = WORK_DIR, copies: int = 2, real_copies: int = 2,
                            real_dir: Path | None = None, designs: Path | None = None) -> Path:
    """The any-deck face reader's set of real designs (``work/face-designs``, issue 53): the card-designs' training
    images laid ``copies`` times each and cut as the reader cuts a face, with the known deck's real training crops
    ``real_copies`` times, jittered; validated on the designs' validation images and the real validation crops."""
    from vision.synth.design_crops import DEFAULT_DESIGNS, write_design_faces
    from vision.train_data import DEFAULT_REAL_PHOTOS, real_crops

    out, logs = work / "face-designs", work / "face-designs-logs"
    logs.mkdir(parents=True, exist_ok=True)
    real = real_dir or DEFAULT_REAL_PHOTOS
    root = designs or DEFAULT_DESIGNS
    steps: list[tuple[str, Callable[[], int]]] = [
        ("design-train", lambda: write_design_faces(out / "train", "train", copies, seed=0, root=root)),
        ("design-val", lambda: write_design_faces(out / "val", "valid", 1, seed=1, root=root)),
        ("real-train", lambda: real_crops(out / "train", "train", real, copies=real_copies, jitter=0.06, seed=1)),
        ("real-val", lambda: real_crops(out / "val", "val", real, copies=1, jitter=0.0)),
    ]
    _run_once(steps, logs)
    _every_class_in_both(out, with_none=False)
    return out


def build_design_detector_set(work: Path = WORK_DIR, scenes: int = 2000, val_scenes: int = 150,
                              table_scenes: int = 400, real_copies: int = 2, real_dir: Path | None = None,
                              designs: Path | None = None) -> Path:
    """The detector's set for cards of any real design at any size (``work/det-designs/data.yaml``, issue 53):
    ``scenes`` scenes of the card-designs' training images, half close up, with chips, cash and hands
    (``vision.synth.design_scenes``), the real training photos ``real_copies`` times and the built-in decks' tiles
    of ``table_scenes`` table scenes (seeds 0…), so that table scenes stay read; validated on the real validation
    photos and scenes of the designs' validation images. Resumable."""
    import yaml

    from vision.synth.dataset import detector_tiles, write_scenes
    from vision.synth.design_crops import DEFAULT_DESIGNS
    from vision.synth.design_scenes import write_design_scenes
    from vision.train_data import DEFAULT_REAL_PHOTOS, prepare_real_detector_set

    root = designs or DEFAULT_DESIGNS
    prepare_real_detector_set(work / "real-det", real_dir or DEFAULT_REAL_PHOTOS)
    out = work / "det-designs"
    write_design_scenes(out / "val", "valid", val_scenes, seed=1, root=root)
    write_design_scenes(out / "train", "train", scenes, seed=0, root=root)
    train = ["real-det/train/images"] * real_copies + ["det-designs/train/images"]
    if table_scenes:
        synth = work / "synth" / "train"
        write_scenes(synth, range(0, table_scenes))
        detector_tiles(synth, work / "synth-tiles" / "train", seed=4)
        train.append("synth-tiles/train/images")
    data = out / "data.yaml"
    data.write_text(yaml.safe_dump({"path": str(work), "train": train,
                                    "val": ["real-det/val/images", "det-designs/val/images"],
                                    "names": {0: "card"}}, sort_keys=False))
    return data


def build_corner_detector_set(work: Path = WORK_DIR, scenes: int = 2400, val_scenes: int = 150,
                              designs: Path | None = None) -> Path:
    """The index-corner detector's set (``work/corner-designs/data.yaml``, issue 53): scenes of the card-designs
    images, half close up, labelled by each visible index corner (``vision.synth.design_scenes``). Resumable."""
    import yaml

    from vision.synth.design_crops import DEFAULT_DESIGNS
    from vision.synth.design_scenes import write_design_scenes

    root = designs or DEFAULT_DESIGNS
    out = work / "corner-designs"
    write_design_scenes(out / "val", "valid", val_scenes, seed=1, root=root, corners=True)
    write_design_scenes(out / "train", "train", scenes, seed=0, root=root, corners=True)
    data = out / "data.yaml"
    data.write_text(yaml.safe_dump({"path": str(out), "train": "train/images", "val": "val/images",
                                    "names": {0: "corner"}}, sort_keys=False))
    return data


CORNER_IMGSZ = 416  # index corners are small at table size: a larger input than the card detector's


def train_corner_detector(data: Path, run_dir: Path = RUNS / "corner-designs", epochs: int = 4,
                          hours: float | None = None, start_from: Path | None = None, threads: int = 2,
                          **overrides: Any) -> Path:
    """The index-corner detector: the card detector's network fine-tuned to box index corners."""
    settings: dict[str, Any] = {"flipud": 0.0, "fliplr": 0.0, "degrees": 0.0, "close_mosaic": 1, "patience": 100}
    if start_from is not None:
        settings.update(optimizer="AdamW", lr0=0.001, warmup_epochs=0.0)
    settings.update(overrides)
    return train_yolo(str(DETECTOR_RECIPE["model"]), data, run_dir, epochs=epochs, imgsz=CORNER_IMGSZ,
                      batch=int(DETECTOR_RECIPE["batch"]), threads=threads, time_hours=hours, weights=start_from,
                      **settings)


def _run_once(steps: list[tuple[str, Callable[[], int]]], logs: Path) -> None:
    """Each named step run unless an earlier run finished it (a marker file in ``logs``): sets build resumably."""
    for name, step in steps:
        marker = logs / f"{name}.done"
        if not marker.exists():
            step()
            marker.write_text("done\n")


def _every_class_in_both(out: Path, with_none: bool) -> None:
    """Every class a folder in both splits, as the model's output has."""
    from vision.reader_classes import CLASS_NAMES
    from vision.reader_index import NO_INDEX

    for split in ("train", "val"):
        for name in (*CLASS_NAMES, NO_INDEX) if with_none else CLASS_NAMES:
            (out / split / name).mkdir(parents=True, exist_ok=True)


TOP_DECKS = 700_000  # procedural training decks drawn on other table tops (``build_transfer_detector_set``)
TOP_SURFACES = ("paper", "stone")  # the tops the built-in scenes lack: a white table, grey stone
TRANSFER_VAL_DECKS = 800_000  # procedural decks of the transfer set's validation patches (never trained, never tested)


def build_transfer_index_patches(work: Path = WORK_DIR, decks: int = 300, scenes_per_deck: int = 2,
                                 val_decks: int = 30, real_dir: Path | None = None, procedural_cuts: int = 2) -> Path:
    """The index reader's patch set for reading decks it never saw (``work/index-transfer``): ``decks`` procedural
    training decks (seeds 0…, ``scenes_per_deck`` scenes each), two-thirds as many scenes of the built-in decks
    (seeds 0…) and a third as many of the photographed deck (seeds 4 000 000…), cut without running any model
    (``vision.synth.procedural_patches``; built-in and photographed scenes twice, procedural ones
    ``procedural_cuts`` times); validated on ``val_decks`` other procedural decks (seeds 800 000…) and as many
    built-in deck scenes (the validation seeds). Test decks (``TEST_DECK_SEEDS``) and the Debian decks left out of
    the built-in ones never take part. Resumable, deck by deck and scene by scene."""
    from vision.synth.procedural_patches import deck_index_patches, procedural_index_patches

    out, logs = work / "index-transfer", work / "index-transfer-logs"
    builtin_scenes, photo_scenes = decks * 2 // 3, decks // 3
    procedural_index_patches(out / "val", range(TRANSFER_VAL_DECKS, TRANSFER_VAL_DECKS + val_decks),
                             logs / "val-decks.txt", scenes_per_deck=1, keep_card=1.0)
    deck_index_patches(out / "val", range(1_000_000, 1_000_000 + val_decks), logs / "val-scenes.txt", keep_card=1.0)
    procedural_index_patches(out / "train", range(0, decks), logs / "decks.txt", scenes_per_deck=scenes_per_deck,
                             keep_none=3, keep_card=1.0, cuts=procedural_cuts)
    deck_index_patches(out / "train", range(0, builtin_scenes), logs / "builtin.txt", keep_none=3, keep_card=1.0,
                       cuts=2)
    if photo_scenes:
        from vision.synth.photo_deck import photo_faces, register_photo_decks
        from vision.train_data import DEFAULT_REAL_PHOTOS

        names = register_photo_decks(photo_faces(real_dir or DEFAULT_REAL_PHOTOS), PHOTO_DECKS)
        deck_index_patches(out / "train", range(PHOTO_DECK_SEEDS, PHOTO_DECK_SEEDS + photo_scenes),
                           logs / "photo.txt", decks=names, prefix="photo", keep_none=3, keep_card=1.0, cuts=2)
    return out


def build_transfer_face_crops(work: Path = WORK_DIR, decks: int = 600, scenes_per_deck: int = 2,
                              val_decks: int = 40, real_dir: Path | None = None) -> Path:
    """The any-deck face reader's crops (``work/face-transfer``): every labelled card of ``scenes_per_deck`` scenes
    of each of ``decks`` procedural training decks (``vision.synth.procedural_crops``), of a third as many scenes of
    the built-in decks (seeds 0…) and a sixth as many of the photographed deck (seeds 4 000 000…), with the real
    training crops once, jittered, so that the decks the card classifier knows stay known; validated on
    ``val_decks`` other procedural decks (seeds 800 000…, two scenes each) and the real validation crops. Test decks
    never take part. Resumable."""
    from vision.reader_classes import CLASS_NAMES
    from vision.synth.dataset import rendered_crops
    from vision.synth.procedural_crops import procedural_face_crops
    from vision.train_data import DEFAULT_REAL_PHOTOS, real_crops

    real = real_dir or DEFAULT_REAL_PHOTOS
    out, logs = work / "face-transfer", work / "face-transfer-logs"
    marker = logs / "real-crops-done"
    if not marker.exists():
        real_crops(out / "val", "val", real, copies=1, jitter=0.0)
        real_crops(out / "train", "train", real, copies=1, jitter=0.06, seed=1)
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text("built\n")
    procedural_face_crops(out / "val", range(TRANSFER_VAL_DECKS, TRANSFER_VAL_DECKS + val_decks),
                          logs / "val-decks.txt", scenes_per_deck=2, jitter=0.0)
    procedural_face_crops(out / "train", range(0, decks), logs / "decks.txt", scenes_per_deck=scenes_per_deck)
    rendered_crops(out / "train", range(0, decks // 3), logs / "builtin.txt", prefix="builtin")
    from vision.synth.photo_deck import photo_faces, register_photo_decks

    names = register_photo_decks(photo_faces(real), PHOTO_DECKS)
    rendered_crops(out / "train", range(PHOTO_DECK_SEEDS, PHOTO_DECK_SEEDS + decks // 6), logs / "photo.txt",
                   decks=names, prefix="photo")
    for split in ("train", "val"):  # every class a folder in both splits, as the classifier's output has
        for name in CLASS_NAMES:
            (out / split / name).mkdir(parents=True, exist_ok=True)
    return out


def build_transfer_detector_set(work: Path = WORK_DIR, decks: int = 600, scenes_per_deck: int = 2,
                                val_decks: int = 60, real_dir: Path | None = None, top_decks: int = 0,
                                real_copies: int = 1) -> Path:
    """The detector's set for boxing whole cards of decks it never saw (``work/det-transfer/data.yaml``): two 640 px
    tiles of ``scenes_per_deck`` scenes of each of ``decks`` procedural training decks
    (``vision.synth.procedural_tiles``), the built-in decks' tiles (the detector's own ``synth-tiles/train``: at
    least two-thirds as many scenes, seeds 0…, more where the detector stage rendered more) and the real training
    photos, so that the decks the detector knows stay known; validated on
    the real validation photos and one scene of each of ``val_decks`` other procedural decks (seeds 800 000…). With
    ``top_decks``, that many more procedural decks (seeds 700 000…) are drawn on the table tops the built-in
    scenes lack (``TOP_SURFACES``: grey stone, a white table), validated on a scene of each of ``val_decks // 2``
    more validation decks on those tops. ``real_copies``: how many times the real training photos are listed, so
    that they keep their weight beside the drawn tiles. Test decks never take part. Resumable."""
    import yaml

    from vision.synth.dataset import detector_tiles, write_scenes
    from vision.synth.procedural_tiles import procedural_detector_tiles
    from vision.train_data import DEFAULT_REAL_PHOTOS, prepare_real_detector_set

    prepare_real_detector_set(work / "real-det", real_dir or DEFAULT_REAL_PHOTOS)
    synth = work / "synth" / "train"
    write_scenes(synth, range(0, decks * 2 // 3))
    detector_tiles(synth, work / "synth-tiles" / "train", seed=4)
    out, logs = work / "det-transfer", work / "det-transfer-logs"
    procedural_detector_tiles(out / "val", range(TRANSFER_VAL_DECKS, TRANSFER_VAL_DECKS + val_decks),
                              logs / "val-decks.txt", scenes_per_deck=1)
    procedural_detector_tiles(out / "train", range(0, decks), logs / "decks.txt", scenes_per_deck=scenes_per_deck)
    train = ["real-det/train/images"] * real_copies + ["synth-tiles/train/images", "det-transfer/train/images"]
    val = ["real-det/val/images", "det-transfer/val/images"]
    if top_decks:
        top_val = range(TRANSFER_VAL_DECKS + val_decks, TRANSFER_VAL_DECKS + val_decks + val_decks // 2)
        procedural_detector_tiles(out / "val-tops", top_val, logs / "val-tops.txt", scenes_per_deck=1,
                                  surfaces=TOP_SURFACES)
        procedural_detector_tiles(out / "train-tops", range(TOP_DECKS, TOP_DECKS + top_decks), logs / "tops.txt",
                                  scenes_per_deck=scenes_per_deck, surfaces=TOP_SURFACES)
        train.append("det-transfer/train-tops/images")
        val.append("det-transfer/val-tops/images")
    data = out / "data.yaml"
    data.write_text(yaml.safe_dump({"path": str(work), "train": train, "val": val, "names": {0: "card"}},
                                   sort_keys=False))
    return data


def train_face_transfer(crops: Path, run_dir: Path = RUNS / "face-transfer", epochs: int = 4,
                        hours: float | None = None, start_from: Path | None = None, threads: int = 2,
                        **overrides: Any) -> Path:
    """The any-deck face reader: the card classifier fine-tuned (from its shipped weights, AdamW 0.0005 without
    warm-up) on ``build_transfer_face_crops``' crops of many deck designs."""
    return train_classifier(crops, run_dir, epochs=epochs, hours=hours, threads=threads,
                            start_from=start_from or REPO_ROOT / "models" / "card-classifier.pt",
                            **{"lr0": 0.0005, "warmup_epochs": 0.0, **overrides})


def train_index_reader(index_dir: Path, run_dir: Path = RUNS / "index", epochs: int = 30, hours: float | None = None,
                       start_from: Path | None = None, threads: int = 2,
                       callbacks: Mapping[str, Callable[[Any], None]] | None = None, **overrides: Any) -> Path:
    """Train the index reader (53 cards + ``none``, 64 px patches), by default from the card classifier's weights;
    ``start_from`` fine-tunes an index checkpoint (AdamW 0.0005, no warm-up). No flips, rotations or shears: a
    turned index must read as ``none``, so that the upright patch wins."""
    r = INDEX_RECIPE
    weights = start_from or REPO_ROOT / "models" / "card-classifier.pt"
    schedule = ({"lr0": 0.0005, "warmup_epochs": 0.0} if start_from is not None
                else {"lr0": 0.002, "warmup_epochs": 0.5})
    return train_yolo(str(r["model"]), index_dir, run_dir, epochs=epochs, imgsz=int(r["imgsz"]), batch=int(r["batch"]),
                      threads=threads, time_hours=hours, weights=weights, callbacks=callbacks,
                      **{"fliplr": 0.0, "flipud": 0.0, "scale": 0.1, "erasing": 0.0, "auto_augment": "",
                         "patience": 100, "optimizer": "AdamW", **schedule, **overrides})


OUTLINE_RECIPE = {"model": "yolo26n-obb.yaml", "imgsz": 320, "batch": 16}


def build_outline_tiles(work: Path = WORK_DIR, train_scenes: int = 1600, photo_scenes: int = 400,
                        real_dir: Path | None = None) -> Path:
    """The outline model's data (``work/outline-tiles``, returns its data.yaml): two 640 px tiles of each training
    and validation scene, and of ``photo_scenes`` scenes of the photographed deck, each card labelled by its outline
    as an oriented box. Real photos take no part: their labels are axis-aligned boxes, not outlines."""
    import yaml

    from vision.synth.dataset import detector_tiles, write_scenes

    synth, out = work / "synth", work / "outline-tiles"
    write_scenes(synth / "val", range(1_000_000, 1_000_100))
    write_scenes(synth / "train", range(0, train_scenes))
    detector_tiles(synth / "val", out / "val", seed=5, oriented=True)
    detector_tiles(synth / "train", out / "train", seed=4, oriented=True)
    train_dirs = ["outline-tiles/train/images"]
    if photo_scenes:
        from vision.synth.photo_deck import photo_faces, register_photo_decks
        from vision.train_data import DEFAULT_REAL_PHOTOS

        decks = register_photo_decks(photo_faces(real_dir or DEFAULT_REAL_PHOTOS), PHOTO_DECKS)
        write_scenes(synth / "photo", range(PHOTO_DECK_SEEDS, PHOTO_DECK_SEEDS + photo_scenes), decks=decks)
        detector_tiles(synth / "photo", out / "photo", seed=6, oriented=True)
        train_dirs.append("outline-tiles/photo/images")
    data = out / "data.yaml"
    data.write_text(yaml.safe_dump({"path": str(work), "train": train_dirs, "val": ["outline-tiles/val/images"],
                                    "names": {0: "card"}}, sort_keys=False))
    return data


def train_outline_model(data: Path, run_dir: Path = RUNS / "outline", epochs: int = 30, hours: float | None = None,
                        start_from: Path | None = None, threads: int = 2, **overrides: Any) -> Path:
    """Train the outline model (YOLO26n-obb, one class: each card's outline as an oriented box). A first run takes
    the card detector's layers (all but the angle); ``start_from`` fine-tunes an outline checkpoint, without mosaic
    and warm-up: with mosaic back on, a fine-tune first fell under where it started (models/HISTORY.md, steps 18-19).
    Turns and flips are safe here: an oriented label turns with its card."""
    r = OUTLINE_RECIPE
    transfer = None if start_from is not None else REPO_ROOT / "models" / "card-detector.pt"
    schedule = ({"mosaic": 0.0, "close_mosaic": 0, "warmup_epochs": 0.0} if start_from is not None
                else {"close_mosaic": 3, "warmup_epochs": 0.5})
    return train_yolo(str(r["model"]), data, run_dir, epochs=epochs, imgsz=int(r["imgsz"]), batch=int(r["batch"]),
                      threads=threads, time_hours=hours, weights=start_from, transfer=transfer,
                      **{"flipud": 0.5, "fliplr": 0.5, "degrees": 0.0, "patience": 100, "optimizer": "AdamW",
                         "lr0": 0.001, **schedule, **overrides})


REAL_OUTLINE_COPIES = 3  # the real training photos' crops are 8 % of the set written once; step 31 of the model card


def build_straight_crops(work: Path = WORK_DIR, real_dir: Path | None = None) -> Path:
    """The straight classifier's crops (``vision.synth.straight_crops``) under ``work/straight``: the training scenes
    (``synth/train``) and the photographed deck's scenes (``synth/photo``, rendered by the outline stage) with the real
    training photos (each of their outlined cards written ``REAL_OUTLINE_COPIES`` times more, jittered); validated on
    the synthetic validation scenes and the real validation photos. Built once (a ``done`` file marks it); delete the
    folder to build it again."""
    from vision.synth.dataset import SCENES_FILE
    from vision.synth.straight_crops import photo_pictures, scene_pictures, write_straight_crops
    from vision.train_data import DEFAULT_REAL_PHOTOS

    out, real = work / "straight", real_dir or DEFAULT_REAL_PHOTOS
    if (out / "done").exists():
        return out
    shutil.rmtree(out, ignore_errors=True)
    synth = work / "synth"
    write_straight_crops(out / "val", scene_pictures(synth / "val", "scene"), seed=1)
    write_straight_crops(out / "val", photo_pictures("val", real), seed=2)
    write_straight_crops(out / "train", photo_pictures("train", real), seed=3, outline_copies=REAL_OUTLINE_COPIES)
    if (synth / "photo" / SCENES_FILE).exists():
        write_straight_crops(out / "train", scene_pictures(synth / "photo", "photo"), seed=4)
    write_straight_crops(out / "train", scene_pictures(synth / "train", "scene"), seed=5)
    (out / "done").write_text("built\n")
    return out


def train_straight_classifier(crops: Path, run_dir: Path = RUNS / "straight", epochs: int = 30,
                              hours: float | None = None, start_from: Path | None = None, threads: int = 2,
                              **overrides: Any) -> Path:
    """Train the straight classifier (the straight look's: cards straightened by their outlines), by default from
    the shipped card classifier's weights at AdamW 0.001 (the card classifier's recipe otherwise)."""
    return train_classifier(crops, run_dir, epochs=epochs, hours=hours, threads=threads,
                            start_from=start_from or REPO_ROOT / "models" / "card-classifier.pt",
                            **{"lr0": 0.001, **overrides})


def export_models(detector_run: Path, classifier_run: Path, models_dir: Path = REPO_ROOT / "models",
                  index_run: Path | None = None, outline_run: Path | None = None,
                  straight_run: Path | None = None, any_index_run: Path | None = None,
                  any_face_run: Path | None = None, corner_run: Path | None = None,
                  corner_index_run: Path | None = None) -> Path:
    """Copy the best checkpoints (chosen on real validation images; the index reader's on synthetic ones) to
    ``models_dir``, export them to ONNX and write ``reader.json``; returns the manifest's path. A model whose run has
    no checkpoint is kept as ``models_dir`` already has it (so one retrained model can be exported alone); without
    an index reader there or trained, the reader reads without one."""
    import json

    prepare_offline_ultralytics()
    from ultralytics import YOLO

    from vision.reader_models import (
        ANY_DECK_CLASSIFIER,
        ANY_DECK_INDEX_READER,
        CLASSIFIER,
        CORNER_DETECTOR,
        DETECTOR,
        INDEX_READER,
        MANIFEST,
        OUTLINE_MODEL,
        STRAIGHT_CLASSIFIER,
    )

    models_dir.mkdir(parents=True, exist_ok=True)
    path = models_dir / MANIFEST
    keys = {DETECTOR: "detector", CLASSIFIER: "classifier", INDEX_READER: "index", OUTLINE_MODEL: "outline",
            STRAIGHT_CLASSIFIER: "straight", ANY_DECK_INDEX_READER: "index_any", ANY_DECK_CLASSIFIER: "classifier_any",
            CORNER_DETECTOR: "corner"}
    before = json.loads(path.read_text()) if path.exists() else {}
    manifest: dict[str, Any] = {role: before[key] for role, key in keys.items()
                                if key in before and (models_dir / f"{role}.onnx").exists()}
    roles = [(DETECTOR, detector_run, DETECTOR_RECIPE["imgsz"], True),
             (CLASSIFIER, classifier_run, CLASSIFIER_RECIPE["imgsz"], True),
             (INDEX_READER, index_run, INDEX_RECIPE["imgsz"], True),
             (OUTLINE_MODEL, outline_run, OUTLINE_RECIPE["imgsz"], True),
             (STRAIGHT_CLASSIFIER, straight_run, CLASSIFIER_RECIPE["imgsz"], True),
             (ANY_DECK_INDEX_READER, any_index_run, INDEX_RECIPE["imgsz"], True),
             (ANY_DECK_CLASSIFIER, any_face_run, CLASSIFIER_RECIPE["imgsz"], True),
             (CORNER_DETECTOR, corner_run, CORNER_IMGSZ, True)]
    for role, run, imgsz, dynamic in roles:
        best = run / "weights" / "best.pt" if run is not None else None
        if best is None or not best.exists():
            if role in manifest or role in (INDEX_READER, OUTLINE_MODEL, STRAIGHT_CLASSIFIER, ANY_DECK_INDEX_READER,
                                            ANY_DECK_CLASSIFIER, CORNER_DETECTOR):
                continue
            raise FileNotFoundError(f"no trained checkpoint {best}; run 'dealer-assist vision train' first")
        target = models_dir / f"{role}.pt"
        shutil.copy(best, target)
        from ultralytics.utils.torch_utils import strip_optimizer

        strip_optimizer(str(target))  # weights only (half precision): what inference needs
        model = YOLO(str(target))
        # Raw outputs of the one-to-many head; the reader applies NMS as Ultralytics' predict does (on these
        # weights its boxes are tighter and fewer doubled than the NMS-free head's).
        onnx = Path(model.export(format="onnx", imgsz=int(imgsz), dynamic=dynamic, simplify=True, batch=1))
        if onnx.resolve() != (models_dir / f"{role}.onnx").resolve():
            shutil.move(str(onnx), models_dir / f"{role}.onnx")
        names = model.names
        manifest[role] = {"imgsz": int(imgsz), "names": [names[i] for i in sorted(names)]}
        if role in (DETECTOR, OUTLINE_MODEL):
            manifest[role]["max_imgsz"] = DETECTOR_MAX_IMGSZ
    from vision.corner_index import CORNER_INDEX_MODEL

    if corner_index_run is not None and (corner_index_run / CORNER_INDEX_MODEL).exists():  # already ONNX
        shutil.copy(corner_index_run / CORNER_INDEX_MODEL, models_dir / CORNER_INDEX_MODEL)
    data = {keys[role]: manifest[role] for role in keys if role in manifest}
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path
