"""``dealer-assist vision read | eval | train | export``: the card reader's model commands."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from engine.errors import InputError


def register(vision_subparsers: Any) -> None:
    read = vision_subparsers.add_parser("read", help="the cards in photos")
    read.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    read.add_argument("--json", action="store_true", help="one JSON object per image, one line each")
    _model_options(read)
    read.set_defaults(func=_read)

    ev = vision_subparsers.add_parser("eval", help="measure the reader on a YOLO-format dataset")
    ev.add_argument("data", type=Path, metavar="DATA.yaml")
    ev.add_argument("--split", default="val", help="which split of DATA.yaml to read (default: val)")
    ev.add_argument("--limit", type=int, default=None, help="read only the first N images")
    ev.add_argument("--out", type=Path, default=Path("runs/vision/eval"), help="folder for the report and the plot")
    _model_options(ev)
    ev.set_defaults(func=_eval)

    tr = vision_subparsers.add_parser("train", help="build the training sets and train the models (resumable)")
    tr.add_argument("--stage", choices=["data", "detector", "classifier", "index", "index-real", "index-transfer",
                                        "face-transfer", "detector-transfer", "index-designs", "face-designs",
                                        "detector-designs", "corner-designs", "outline",
                                        "straight", "export", "all"],
                    default="all", help="index: build the index reader's patch set and train it (models/HISTORY.md, "
                    "step 15); index-real: the shipped index reader fine-tuned on the real training photos' index "
                    "corners as well (step 47; runs/vision/index-real); index-transfer: the index reader on "
                    "procedural decks as well as the built-in ones, without running any model to cut them (step 41; "
                    "runs/vision/index-transfer); face-transfer: the "
                    "any-deck face reader, the card classifier fine-tuned on crops of procedural decks (--transfer-"
                    "decks, step 43; runs/vision/face-transfer); detector-transfer: the detector fine-tuned on "
                    "tiles of procedural decks with whole-card boxes (--transfer-decks, step 44; "
                    "runs/vision/detector-transfer); outline: the outline model's tiles and training (step 17); "
                    "index-designs / face-designs: the any-deck index and face readers fine-tuned on hundreds of real "
                    "deck designs (../shared/data/card-designs, --design-copies; issue 53; runs/vision/index-designs, "
                    "runs/vision/face-designs); detector-designs: the detector fine-tuned on scenes of those designs, "
                    "half close up, with chips, cash and hands (--design-scenes; runs/vision/detector-designs); "
                    "corner-designs: a detector of index corners on such scenes (runs/vision/corner-designs); "
                    "straight: the straight classifier's crops (cards "
                    "straightened by the shipped outline model) and training (step 30)")
    tr.add_argument("--detector-epochs", type=int, default=30)
    tr.add_argument("--classifier-epochs", type=int, default=12)
    tr.add_argument("--index-epochs", type=int, default=30)
    tr.add_argument("--index-scenes", type=int, default=1600,
                    help="training scenes whose cards' index corners are cut for the index reader (default 1600)")
    tr.add_argument("--index-photo-scenes", type=int, default=600,
                    help="scenes of the photographed deck cut for the index reader (default 600)")
    tr.add_argument("--transfer-decks", type=int, default=300,
                    help="procedural training decks for --stage index-transfer, face-transfer and detector-transfer, "
                         "two scenes each "
                         "(default 300)")
    tr.add_argument("--top-decks", type=int, default=0,
                    help="for --stage detector-transfer: this many more procedural decks, their scenes drawn on a "
                         "white table and grey stone, tops the other scenes lack (default 0; step 48 tried 200)")
    tr.add_argument("--transfer-cuts", type=int, default=2, choices=(1, 2),
                    help="cuts of each procedural scene for --stage index-transfer (default 2, as step 41; step 42 "
                         "cut once and drew more decks instead)")
    tr.add_argument("--design-copies", type=int, default=2,
                    help="how many times each card-designs image is laid on a table for --stage index-designs and "
                         "face-designs (default 2)")
    tr.add_argument("--design-scenes", type=int, default=2000,
                    help="scenes of the card-designs images for --stage detector-designs (default 2000)")
    tr.add_argument("--outline-epochs", type=int, default=30)
    tr.add_argument("--outline-scenes", type=int, default=1600,
                    help="training scenes cut into tiles for the outline model (default 1600)")
    tr.add_argument("--outline-photo-scenes", type=int, default=400,
                    help="scenes of the photographed deck cut into tiles for the outline model (default 400)")
    tr.add_argument("--hours", type=float, default=None, help="time box per model (Ultralytics stops in time)")
    tr.add_argument("--train-scenes", type=int, default=640)
    tr.add_argument("--table-frames", type=int, default=150, help="frames of the demo table cut into classifier crops")
    tr.add_argument("--extra-scenes", type=int, default=0,
                    help="more synthetic scenes rendered only for their classifier crops (not kept as frames)")
    tr.add_argument("--real-copies", type=int, default=3,
                    help="jittered copies of each real training crop, 3 or more (default 3; more keeps the real "
                         "photos' weight in a set grown by --extra-scenes and --photo-scenes); for --stage "
                         "detector-transfer, how many times the real training photos are listed")
    tr.add_argument("--photo-scenes", type=int, default=0,
                    help="synthetic scenes drawn from the real photos' own deck (its whole cards cut flat from the "
                         "training photos), for classifier crops")
    tr.add_argument("--proposal-scenes", type=int, default=0,
                    help="scenes whose cards are cut where the shipped detector boxes them, for the classifier")
    tr.add_argument("--hard-copies", type=int, default=2,
                    help="extra copies of each proposal crop of a card showing less than 3/4 of its face")
    tr.add_argument("--detector-from", type=Path, default=None,
                    help="fine-tune the detector from this checkpoint (e.g. models/card-detector.pt)")
    tr.add_argument("--classifier-from", type=Path, default=None,
                    help="fine-tune the classifier from this checkpoint (e.g. models/card-classifier.pt)")
    tr.add_argument("--index-from", type=Path, default=None,
                    help="fine-tune the index reader from this checkpoint (e.g. models/card-index.pt; AdamW 0.0005, "
                         "no warm-up); default: a first run from the card classifier's weights")
    tr.add_argument("--outline-from", type=Path, default=None,
                    help="fine-tune the outline model from this checkpoint (default: a first run takes the card "
                         "detector's layers)")
    tr.add_argument("--straight-from", type=Path, default=None,
                    help="fine-tune the straight classifier from this checkpoint (default: the shipped card "
                         "classifier, models/card-classifier.pt)")
    tr.add_argument("--lr", type=float, default=None,
                    help="starting learning rate (AdamW; default 0.002, a detector fine-tune 0.0005)")
    tr.add_argument("--threads", type=int, default=2, help="CPU threads for torch (default 2)")
    tr.add_argument("--device", default="cpu",
                    help="where to train: cpu (default), or a CUDA GPU's number (0; 0,1 for two) on a machine with one")
    tr.add_argument("--real", type=Path, default=None, help="the real-cards-train folder")
    tr.add_argument("--models", type=Path, default=None, help="where export puts the models (default: models/)")
    tr.set_defaults(func=_train)

    ex = vision_subparsers.add_parser("export", help="copy the best checkpoints to models/ and export them to ONNX")
    ex.add_argument("--detector-run", type=Path, default=None)
    ex.add_argument("--classifier-run", type=Path, default=None)
    ex.add_argument("--index-run", type=Path, default=None,
                    help="the index reader's run (default: runs/vision/index, when it has been trained)")
    ex.add_argument("--outline-run", type=Path, default=None,
                    help="the outline model's run (default: runs/vision/outline, when it has been trained)")
    ex.add_argument("--straight-run", type=Path, default=None,
                    help="the straight classifier's run (default: runs/vision/straight, when it has been trained)")
    ex.add_argument("--index-any-run", type=Path, default=None,
                    help="the any-deck index reader's run (default: runs/vision/index-transfer, when it has been "
                         "trained: --stage index-transfer)")
    ex.add_argument("--face-any-run", type=Path, default=None,
                    help="the any-deck face reader's run (default: runs/vision/face-transfer, when it has been "
                         "trained: --stage face-transfer)")
    ex.add_argument("--corner-run", type=Path, default=None,
                    help="the index-corner detector's run (default: runs/vision/corner-designs, when it has been "
                         "trained: --stage corner-designs)")
    ex.add_argument("--corner-index-run", type=Path, default=None,
                    help="the corner index reader's run (default: runs/vision/corner-index, when it has been trained: "
                         "python -m vision.train_corner_index)")
    ex.add_argument("--models", type=Path, default=None)
    ex.set_defaults(func=_export)


def _model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--models", type=Path, default=None,
                        help="model folder (default: the active model: the enrolled one last activated under the "
                             "data folder, ./data or $DEALER_ASSIST_DATA; else the shipped models/)")
    parser.add_argument("--backend", choices=["onnx", "torch"], default="onnx",
                        help="onnx: ONNX Runtime, as the kiosk (default); torch: the Ultralytics checkpoints")
    parser.add_argument("--deck", choices=["auto", "known", "unseen"], default="auto",
                        help="auto: count over the photos whether they show the deck the card classifier knows, and "
                             "read those read before the count settled again (default); known: they do (the models' "
                             "own deck, an enrolled deck); unseen: they do not, read index first")
    parser.add_argument("--squashed", choices=["auto", "no"], default="auto",
                        help="auto: square photos may be camera frames squashed to a square; they are also read "
                             "stretched back to 16:9 and 4:3, wide and tall, and read the way that leaves clearly the "
                             "most readings without a flag (default); no: read them as they are")


def _model_folder(args: argparse.Namespace) -> tuple[Path, str]:
    """The model folder to read with (--models, else the active model) and how to say which it is."""
    from vision.active_model import active_model, describe_active

    if args.models is not None:
        return args.models, f"{args.models} (--models)"
    active = active_model()
    return active.folder, describe_active(active)


def _reader(args: argparse.Namespace, say: Any = None) -> Any:
    """The reader of ``_model_folder``; ``say`` (a file) is told which model folder it reads with."""
    from vision.reader import CardReader, ReaderSettings

    folder, which = _model_folder(args)
    if say is not None:
        print(f"reading with model folder {which}", file=say)
    if args.backend == "torch":
        from vision.train import prepare_offline_ultralytics

        prepare_offline_ultralytics()
    return CardReader(folder, backend=args.backend, settings=ReaderSettings(familiar_deck=args.deck))


def _read(args: argparse.Namespace) -> int:
    from vision.image_files import read_image
    from vision.photo_batch import aspect_name, read_photos

    frames = [read_image(path) for path in args.images]
    reader = _reader(args, say=sys.stderr)  # stdout holds the readings alone
    batch = read_photos(reader, range(len(frames)), frames.__getitem__, unsquash=args.squashed == "auto")
    if batch.stretched:
        print(f"the square photos were read stretched {aspect_name(batch.aspect)}: they read surer so (a squashed "
              "export); --squashed no reads them as they are", file=sys.stderr)
    for k, detections in batch.readings:
        path = args.images[k]
        if args.json:
            print(json.dumps({"image": str(path), "cards": [d.to_json() for d in detections]}))
            continue
        print(f"{path}: {len(detections)} card{'s' if len(detections) != 1 else ''}")
        for d in detections:
            flags = f"  [{', '.join(sorted(d.flags))}]" if d.flags else ""
            x1, y1, x2, y2 = (round(v) for v in d.box)
            print(f"  {d.card.pretty:>4}  {d.confidence:5.1%}  at ({x1}, {y1})-({x2}, {y2}){flags}")
    return 0


def _eval(args: argparse.Namespace) -> int:
    from vision.eval import IN_PLACE_COVER, confusion_plot, evaluate, write_report
    from vision.photo_batch import aspect_name

    if not args.data.exists():
        raise InputError(f"no such dataset file: {args.data}")
    reader = _reader(args, say=sys.stdout)
    result = evaluate(reader, args.data, args.split, args.limit, progress=sys.stderr.isatty(),
                      unsquash=args.squashed == "auto")
    args.out.mkdir(parents=True, exist_ok=True)
    write_report(result, args.out / "report.json")
    plot = confusion_plot(result, args.out / "confusion.png")
    s = result.summary()
    print(f"images {s['images']}, cards {s['truth_cards']}, reported {s['reported']} ({s['flagged']} flagged)")
    if result.aspect != (1.0, 1.0):
        print(f"the square photos were read stretched {aspect_name(result.aspect)} (--squashed no: as they are)")
    print(f"cards identified right: {s['cards_right']:.2%} (wrong {s['wrong']}, missed {s['missed']}, "
          f"extra {s['extra']}, of them {s['extra_unflagged']} without a flag)")
    if s["under_label"]:
        print(f"not counted as extra: {s['under_label']} readings, named right, of cards showing too little of their "
              "face to be labelled (the scenes record them)")
    print(f"cards named in place (a reading of the card covers {IN_PLACE_COVER:.0%} of its labelled box): "
          f"{s['named_in_place']:.2%}")
    print(f"per-image card set: precision {s['set_precision']:.2%}, recall {s['set_recall']:.2%}")
    for band, figures in s["by_shown"].items():
        print(f"  cards {band} of their face: {figures['right']} of {figures['cards']} right "
              f"({figures['share_right']:.2%})")
    print(f"readings without a flag: {s['certain']}, of which right {s['certain_precision']:.2%}")
    worst = sorted(s["per_class_accuracy"].items(), key=lambda kv: kv[1])[:5]
    print("weakest classes: " + ", ".join(f"{k} {v:.0%}" for k, v in worst))
    print(f"report: {args.out / 'report.json'}; confusion plot: {plot}")
    return 0


def _train(args: argparse.Namespace) -> int:
    from vision import train

    for checkpoint, example in ((args.detector_from, "models/card-detector.pt"),
                                (args.classifier_from, "models/card-classifier.pt"),
                                (args.index_from, "models/card-index.pt"),
                                (args.outline_from, "models/card-outline.pt"),
                                (args.straight_from, "models/card-classifier.pt")):
        if checkpoint is not None and not checkpoint.is_file():
            raise InputError(f"no checkpoint {checkpoint} to fine-tune from; give a .pt file such as {example}")
    if args.lr is not None and not 0 < args.lr < 1:
        raise InputError(f"--lr {args.lr} is not a learning rate; give a value between 0 and 1, such as 0.001")
    rate: dict[str, object] = {} if args.lr is None else {"lr0": args.lr}
    rate.update(_device_settings(args.device))
    if min(args.train_scenes, args.table_frames, args.extra_scenes, args.photo_scenes, args.proposal_scenes,
           args.hard_copies, args.index_scenes, args.index_photo_scenes, args.outline_scenes, args.transfer_decks,
           args.outline_photo_scenes) < 0:
        raise InputError("scene, frame and copy counts cannot be negative; give 0 or more")
    if args.stage in ("detector-transfer", "detector-designs") and args.real_copies < 1:
        raise InputError(f"--real-copies {args.real_copies}: the detector's set lists the real photos at least once; "
                         "give 1 or more")
    if args.stage not in ("detector-transfer", "detector-designs") and args.real_copies < 3:
        raise InputError(f"--real-copies {args.real_copies}: the set always holds 3 copies of each real crop; give 3 "
                         "or more")
    if args.stage == "index-real":  # needs none of the other sets
        patches = train.build_real_index_patches(real_dir=args.real)
        train.train_index_reader(patches, train.RUNS / "index-real", epochs=args.index_epochs, hours=args.hours,
                                 threads=args.threads,
                                 start_from=args.index_from or train.REPO_ROOT / "models" / "card-index.pt", **rate)
        return 0
    if args.stage == "index-transfer":  # needs none of the other sets
        patches = train.build_transfer_index_patches(decks=args.transfer_decks, real_dir=args.real,
                                                     procedural_cuts=args.transfer_cuts)
        train.train_index_reader(patches, train.RUNS / "index-transfer", epochs=args.index_epochs, hours=args.hours,
                                 threads=args.threads, start_from=args.index_from, **rate)
        return 0
    if args.stage == "face-transfer":  # needs none of the other sets
        crops = train.build_transfer_face_crops(decks=args.transfer_decks, real_dir=args.real)
        train.train_face_transfer(crops, epochs=args.classifier_epochs, hours=args.hours, threads=args.threads,
                                  start_from=args.classifier_from, **rate)
        return 0
    if args.stage == "index-designs":  # needs none of the other sets
        patches = train.build_design_index_patches(copies=args.design_copies, real_dir=args.real)
        train.train_index_reader(patches, train.RUNS / "index-designs", epochs=args.index_epochs, hours=args.hours,
                                 threads=args.threads,
                                 start_from=args.index_from or train.REPO_ROOT / "models" / "card-index-any.pt",
                                 **rate)
        return 0
    if args.stage == "detector-designs":  # needs none of the other sets
        data = train.build_design_detector_set(scenes=args.design_scenes, real_copies=args.real_copies,
                                               real_dir=args.real)
        train.train_detector(data, train.RUNS / "detector-designs", epochs=args.detector_epochs, hours=args.hours,
                             threads=args.threads,
                             start_from=args.detector_from or train.REPO_ROOT / "models" / "card-detector.pt", **rate)
        return 0
    if args.stage == "corner-designs":  # needs none of the other sets
        data = train.build_corner_detector_set(scenes=args.design_scenes)
        train.train_corner_detector(data, epochs=args.detector_epochs, hours=args.hours, threads=args.threads,
                                    start_from=args.detector_from or train.REPO_ROOT / "models" / "card-detector.pt",
                                    **rate)
        return 0
    if args.stage == "face-designs":  # needs none of the other sets
        crops = train.build_design_face_crops(copies=args.design_copies, real_dir=args.real)
        face_from = args.classifier_from or train.REPO_ROOT / "models" / "card-classifier-any.pt"
        train.train_face_transfer(crops, train.RUNS / "face-designs", epochs=args.classifier_epochs, hours=args.hours,
                                  threads=args.threads, start_from=face_from, **rate)
        return 0
    if args.stage == "detector-transfer":  # needs none of the other sets
        data = train.build_transfer_detector_set(decks=args.transfer_decks, real_dir=args.real,
                                                 top_decks=args.top_decks, real_copies=args.real_copies)
        train.train_detector(data, train.RUNS / "detector-transfer", epochs=args.detector_epochs, hours=args.hours,
                             threads=args.threads,
                             start_from=args.detector_from or train.REPO_ROOT / "models" / "card-detector.pt", **rate)
        return 0
    sets = train.build_datasets(train_scenes=args.train_scenes, real_dir=args.real, table_frames=args.table_frames,
                                extra_scenes=args.extra_scenes, photo_scenes=args.photo_scenes,
                                real_copies=args.real_copies, proposal_scenes=args.proposal_scenes,
                                hard_copies=args.hard_copies)
    if args.stage == "data":
        print(f"datasets ready: {sets['detector']}, {sets['classifier']}")
        return 0
    if args.stage in ("detector", "all"):
        train.train_detector(sets["detector"], epochs=args.detector_epochs, hours=args.hours, threads=args.threads,
                             start_from=args.detector_from, **rate)
    if args.stage in ("classifier", "all"):
        train.train_classifier(sets["classifier"], epochs=args.classifier_epochs, hours=args.hours,
                               threads=args.threads, start_from=args.classifier_from, **rate)
    if args.stage in ("index", "all"):
        patches = train.build_index_patches(train_scenes=args.index_scenes, photo_scenes=args.index_photo_scenes,
                                            real_dir=args.real)
        train.train_index_reader(patches, epochs=args.index_epochs, hours=args.hours, threads=args.threads,
                                 start_from=args.index_from, **rate)
    if args.stage in ("outline", "all"):
        tiles = train.build_outline_tiles(train_scenes=args.outline_scenes, photo_scenes=args.outline_photo_scenes,
                                          real_dir=args.real)
        train.train_outline_model(tiles, epochs=args.outline_epochs, hours=args.hours, threads=args.threads,
                                  start_from=args.outline_from, **rate)
    if args.stage in ("straight", "all"):
        crops = train.build_straight_crops(real_dir=args.real)
        train.train_straight_classifier(crops, epochs=args.classifier_epochs, hours=args.hours, threads=args.threads,
                                        start_from=args.straight_from, **rate)
    if args.stage in ("export", "all"):
        print(f"exported: {_do_export(None, None, None, None, None, args.models)}")
    return 0


def _device_settings(device: str) -> dict[str, object]:
    """Ultralytics' ``device`` (and data-loading workers, on a GPU) for ``--device``; a GPU that is not there is named
    before any data is built."""
    device = device.strip().lower()
    if device == "cpu":
        return {}
    if not re.fullmatch(r"\d+(,\d+)*", device):
        raise InputError(f"--device {device}: give cpu, or a CUDA GPU's number such as 0 (0,1 for two)")
    import torch

    wanted = [int(n) for n in device.split(",")]
    have = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if max(wanted) >= have:
        seen = f"{have} CUDA GPU{'s' if have != 1 else ''}" if have else "no CUDA GPU"
        raise InputError(f"--device {device}: this machine has {seen} that torch can use; train on the CPU "
                         "(--device cpu) or on a machine with one")
    return {"device": device, "workers": min(8, os.cpu_count() or 1)}


def _do_export(detector_run: Path | None, classifier_run: Path | None, index_run: Path | None,
               outline_run: Path | None, straight_run: Path | None, models: Path | None,
               any_index_run: Path | None = None, any_face_run: Path | None = None,
               corner_run: Path | None = None, corner_index_run: Path | None = None) -> Path:
    from vision import train

    return train.export_models(detector_run or train.RUNS / "detector", classifier_run or train.RUNS / "classifier",
                               models or train.REPO_ROOT / "models", index_run or train.RUNS / "index",
                               outline_run or train.RUNS / "outline", straight_run or train.RUNS / "straight",
                               any_index_run or train.RUNS / "index-transfer",
                               any_face_run or train.RUNS / "face-transfer",
                               corner_run or train.RUNS / "corner-designs",
                               corner_index_run or train.RUNS / "corner-index")


def _export(args: argparse.Namespace) -> int:
    try:
        manifest = _do_export(args.detector_run, args.classifier_run, args.index_run, args.outline_run,
                              args.straight_run, args.models, args.index_any_run, args.face_any_run,
                              args.corner_run, args.corner_index_run)
        print(f"exported: {manifest}")
    except FileNotFoundError as error:
        raise InputError(str(error)) from error
    return 0
