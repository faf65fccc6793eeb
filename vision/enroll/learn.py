"""Learn: fine-tune the card reader's classifier and index reader on one deck profile, as a resumable background job.

The job, under ``<data>/enroll-jobs/<slug>-v<N>/``, goes through stages, each of which picks up where it stopped:

1. ``scenes``: synthetic table scenes rendered from the profile's faces by the card reader's own generator
   (``render_scene`` with the faces registered as a deck: overlaps, fans, glare, perspective …);
2. ``crops``: classifier crops of those scenes (the reader's ``scene_crops``) plus the captured crops of the real
   cards, every confirmed view of each (``write_crops`` on the capture frames, jittered like a detector's boxes);
   validation: the captured crops. A partial deck's scenes hold only its own cards, and a card it lacks is learnt
   from the generator's ``five-card-draw`` faces only as much as keeps the classifier's classes (it stays with the
   base model);
   and the index corners of the same scenes and photos (``vision.enroll.learn_index``);
3. ``train``: the reader's ``train_classifier`` started from the active model's classifier, then its
   ``train_index_reader`` started from the active model's any-deck index reader (each resumes from its last
   checkpoint after a restart);
4. ``export``: the reader's ``export_models`` into a new model folder (the active detector and outline model, the
   new classifier and index reader).

``status.json`` says the stage, the progress (0..1) and the seconds left (estimated from the rate so far); it is
rewritten atomically, so the kiosk can poll it while the old model keeps serving the table.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.cards import JOKER
from engine.clock import Clock
from vision.clock import SystemClock
from vision.enroll.profile import DeckProfile, ProfileError, _read_json, _write_json, data_folder, load_profile
from vision.enroll.registry import active_model, describe, new_model_folder, write_model_info
from vision.reader_classes import CLASS_NAMES

STATUS_FILE = "status.json"
STAGES = ("scenes", "crops", "train", "export", "done")
# Share of the whole job's time each stage takes on a CPU (measured on this machine, roughly).
WEIGHTS = {"scenes": 0.25, "crops": 0.05, "train": 0.65, "export": 0.05}
DECK_PREFIX = "enrolled:"


@dataclass(frozen=True)
class LearnSettings:
    """How much to learn. The defaults took 14.7 minutes on this machine's two shared CPU cores, under the 30 minutes
    a casino can wait (bench/vision_enroll.py, models/HISTORY.md step 45: on the enrollment bench's validation scenes
    150 scenes and 4 epochs named 98.3 % right and flagged 25 % of readings, 300 and 6 98.6 % and 14 %);
    ``quick()`` is a smoke run."""

    scenes: int = 300
    scene_size: tuple[int, int] = (960, 540)
    captured_copies: int = 12  # jittered crops of each captured card
    epochs: int = 6
    # The index reader learns the deck's corners too (0: the enrolled model keeps the active any-deck index reader).
    index_epochs: int = 4
    index_other_decks: int = 60  # generated decks' corners mixed in, so that other designs are not forgotten
    threads: int = 2
    batch: int | None = None  # None: the reader's recipe
    seed: int = 7_000_000  # scene seeds start here (far from the reader's own training seeds)

    def __post_init__(self) -> None:
        if (self.scenes < 0 or self.epochs < 1 or self.captured_copies < 1 or self.threads < 1
                or self.index_epochs < 0 or self.index_other_decks < 0):
            raise ProfileError("learning needs scenes ≥ 0, epochs ≥ 1, captured copies ≥ 1, threads ≥ 1, index epochs "
                               "≥ 0 and other decks ≥ 0")

    @classmethod
    def quick(cls) -> LearnSettings:
        return cls(scenes=4, scene_size=(640, 360), captured_copies=1, epochs=1, index_epochs=1, index_other_decks=1,
                   batch=32)


class TrainingStackMissing(ProfileError):
    """Learning a deck needs the training extra (Ultralytics and torch), which a kiosk may be installed without."""


def require_training_stack() -> None:
    if importlib.util.find_spec("ultralytics") is None:
        raise TrainingStackMissing(
            "learning a deck needs the training extra, which this kiosk lacks: install it with "
            "\".venv/bin/pip install -e '.[train]'\" (the table keeps playing on the current model meanwhile)"
        )


def jobs_folder(root: Path | None = None) -> Path:
    return (root or data_folder()) / "enroll-jobs"


class LearnJob:
    """One profile's learning job: its folder, its status, and the work itself (``run``)."""

    def __init__(self, profile: DeckProfile, settings: LearnSettings | None = None, root: Path | None = None,
                 clock: Clock | None = None, base_model: Path | None = None) -> None:
        """``base_model``: the model folder to start from and take the detector of (default: the active one)."""
        self.profile = profile
        self.base_model = base_model
        self.root = root
        self.folder = jobs_folder(root) / f"{profile.slug}-v{profile.version}"
        self.clock = clock or SystemClock()
        saved = self.folder / "settings.json"
        if settings is None and saved.exists():
            data = _read_json(saved, "learning settings")
            settings = LearnSettings(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})
        self.settings = settings or LearnSettings()
        self._t0 = 0
        self._p0 = 0.0
        self._stage = ""
        self._stage_t0 = 0

    # ---- status -------------------------------------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        path = self.folder / STATUS_FILE
        if not path.exists():
            return {"stage": "not started", "progress": 0.0, "seconds_left": None, "state": "not started"}
        return dict(_read_json(path, "learning status"))

    def _report(self, stage: str, within: float, state: str = "running", **extra: Any) -> None:
        done = sum(WEIGHTS[s] for s in STAGES[: STAGES.index(stage)] if s in WEIGHTS)
        progress = min(1.0, done + WEIGHTS.get(stage, 0.0) * max(0.0, min(1.0, within)))
        now = self.clock.monotonic_ns()
        if stage != self._stage:
            self._stage, self._stage_t0 = stage, now
        gained = progress - self._p0
        left = None
        if state == "running" and gained > 0.002:
            # The stages run at different paces: the current one by its own rate, the rest by the job's so far.
            per_unit = (now - self._t0) / 1e9 / gained
            rest = sum(WEIGHTS.get(s, 0.0) for s in STAGES[STAGES.index(stage) + 1 :])
            if 0.02 < within < 1.0:
                current = (now - self._stage_t0) / 1e9 / within * (1.0 - within)
            else:
                current = per_unit * WEIGHTS.get(stage, 0.0) * (1.0 - max(0.0, within))
            left = round(current + per_unit * rest)
        previous = self.status()
        data = {**{k: v for k, v in previous.items() if k in ("model", "started", "base_model")},
                "profile": self.profile.ref, "stage": stage, "state": state, "progress": round(progress, 4),
                "seconds_left": left, "updated": self.clock.now().isoformat(timespec="seconds"),
                "pid": os.getpid(), **extra}
        _write_json(self.folder / STATUS_FILE, data)

    # ---- the work -----------------------------------------------------------------------------------------------

    def run(self) -> Path:
        """Do (or finish) every stage; returns the new model's folder. The active model is not touched."""
        require_training_stack()
        self.folder.mkdir(parents=True, exist_ok=True)
        _write_json(self.folder / "settings.json", asdict(self.settings))
        status = self.status()
        if status.get("state") == "done" and status.get("model") and Path(status["model"]).exists():
            return Path(status["model"])
        self._t0, self._p0 = self.clock.monotonic_ns(), float(status.get("progress", 0.0))
        base = self.base_model or active_model(self.root).folder
        if status.get("stage") == "not started":
            self._report("scenes", 0.0, started=self.clock.now().isoformat(timespec="seconds"),
                         base_model=describe(base))
        try:
            scenes = self._scenes()
            cls_dir = self._crops(scenes)
            index_dir = self._index_patches(scenes)
            run_dir = self._train(cls_dir, base)
            index_run = self._train_index(index_dir, base) if index_dir is not None else None  # None: base has none
            model = self._export(run_dir, base, index_run)
        except BaseException as error:
            state = "stopped" if isinstance(error, KeyboardInterrupt) else "failed"
            self._report(self.status().get("stage", "scenes"), 0.0, state=state, error=str(error) or repr(error))
            if state == "failed":
                (self.folder / "error.txt").write_text(traceback.format_exc())
            raise
        self._report("done", 1.0, state="done", model=str(model))
        return model

    def _register_faces(self) -> str:
        from vision.synth.faces import register_deck

        name = DECK_PREFIX + self.profile.ref
        register_deck(name, self.profile.faces())
        return name

    def _scenes(self) -> Path:
        """Table scenes drawn with the profile's faces: only its own cards (a partial deck's scenes hold what it
        has), none when no card was seen whole (the captured crops alone are learnt then)."""
        from vision.synth.dataset import SCENES_FILE, write_scenes

        out = self.folder / "scenes"
        deck = self._register_faces()
        scenes = self.settings.scenes if self.profile.faces() else 0
        seeds = range(self.settings.seed, self.settings.seed + scenes)
        for i, seed in enumerate(seeds):  # one at a time, so that progress shows and a restart resumes
            self._report("scenes", i / max(len(seeds), 1))
            write_scenes(out, [seed], self.settings.scene_size, [deck])
        if not (out / SCENES_FILE).exists():
            (out / SCENES_FILE).parent.mkdir(parents=True, exist_ok=True)
            (out / SCENES_FILE).touch()
        return out

    def _crops(self, scenes: Path) -> Path:
        from vision.synth.dataset import scene_crops, write_crops

        cls = self.folder / "cls"
        marker = cls / "done"
        if marker.exists():
            return cls
        shutil.rmtree(cls, ignore_errors=True)
        self._report("crops", 0.0)
        share = self._face_share("crops")
        rng = np.random.default_rng(self.settings.seed)
        for name in CLASS_NAMES:  # every class folder, so that the classes keep the base model's order
            (cls / "train" / name).mkdir(parents=True, exist_ok=True)
            (cls / "val" / name).mkdir(parents=True, exist_ok=True)
        scene_crops(scenes, cls / "train", seed=self.settings.seed, copies=1, jitter=0.06)
        views = self.profile.views  # every confirmed view of every card: more views, more examples
        for i, view in enumerate(views):
            card_text = str(view.card)
            frame = cv2.imread(str(self.profile.folder / view.frame))
            if frame is None:
                raise ProfileError(f"cannot read the capture frame {view.frame} of {self.profile.ref}")
            pts = np.asarray(view.corners, np.float64)
            box = (*pts.min(axis=0), *pts.max(axis=0))
            box_f = tuple(float(v) for v in box)
            write_crops(frame, [(card_text, box_f)], cls / "train", f"captured_{i}", rng,  # type: ignore[list-item]
                        copies=self.settings.captured_copies, jitter=0.06)
            write_crops(frame, [(card_text, box_f)], cls / "val", f"captured_{i}", rng, copies=1,  # type: ignore[list-item]
                        jitter=0.0)
            self._report("crops", share * (i + 1) / (len(views) + 1))
        self._fill_empty_classes(cls)
        marker.write_text("built\n")
        return cls

    def _face_share(self, stage: str) -> float:
        """The share of the ``crops`` or ``train`` stage the faces take (the index corners take the rest: with the
        default settings, on this machine's 2 cores, the index reader's 4 epochs took about twice the faces' 6)."""
        if not self.settings.index_epochs:
            return 1.0
        return 0.5 if stage == "crops" else 0.3

    def _index_patches(self, scenes: Path) -> Path | None:
        if not self.settings.index_epochs:
            return None
        from vision.enroll.learn_index import build_index_patches

        share = self._face_share("crops")
        return build_index_patches(self.folder / "index", scenes, self.profile, seed=self.settings.seed,
                                   captured_cuts=self.settings.captured_copies,
                                   other_decks=self.settings.index_other_decks,
                                   report=lambda within: self._report("crops", share + (1 - share) * within))

    def _train_callbacks(self, start: float, end: float) -> dict[str, Any]:
        """Ultralytics callbacks reporting the train stage's progress from ``start`` to ``end`` of it."""
        counter = {"batch": 0}

        def on_epoch_start(trainer: Any) -> None:
            counter["batch"] = 0

        def on_batch_end(trainer: Any) -> None:
            counter["batch"] += 1
            per_epoch = max(len(trainer.train_loader), 1)
            within = (trainer.epoch + counter["batch"] / per_epoch) / max(trainer.epochs, 1)
            self._report("train", start + (end - start) * within, epoch=int(trainer.epoch) + 1,
                         epochs=int(trainer.epochs))

        return {"on_train_epoch_start": on_epoch_start, "on_train_batch_end": on_batch_end}

    def _train_index(self, index_dir: Path, base_folder: Path) -> Path | None:
        from vision import train
        from vision.reader_models import ANY_DECK_INDEX_READER, INDEX_READER

        run_dir = self.folder / "index-run"
        if (run_dir / "done").exists():
            return run_dir
        start = next((p for p in (base_folder / f"{ANY_DECK_INDEX_READER}.pt", base_folder / f"{INDEX_READER}.pt")
                      if p.exists()), None)
        if start is None:  # a base model without an index reader: the enrolled one reads without one too
            return None
        overrides: dict[str, Any] = {"plots": False, "verbose": False}
        self._report("train", self._face_share("train"))
        train.train_index_reader(index_dir, run_dir, epochs=self.settings.index_epochs, start_from=start,
                                 threads=self.settings.threads,
                                 callbacks=self._train_callbacks(self._face_share("train"), 1.0), **overrides)
        return run_dir

    def _fill_empty_classes(self, cls: Path) -> None:
        """A class this deck lacks (a deck without a joker) still needs examples, or the classifier's output order
        would change: take them from a deck that has the card (the generator's ``five-card-draw`` faces)."""
        from vision.enroll.spread import render_spread
        from vision.reader_classes import card_of_class_name
        from vision.reader_crops import square_crop
        from vision.synth.faces import FIVE_CARD_DRAW, load_deck

        other = load_deck(FIVE_CARD_DRAW)
        for split in ("train", "val"):
            for name in CLASS_NAMES:
                folder = cls / split / name
                if any(folder.iterdir()):
                    continue
                card = card_of_class_name(name)
                if card not in other:
                    raise ProfileError(f"no example of {name} to keep the classifier's classes")
                count = 6 if split == "train" else 2
                for k in range(count):
                    spread = render_spread(other, [card], seed=self.settings.seed + k, size=(400, 300),
                                           tilt_degrees=180 if card is JOKER else 30)
                    pts = spread.corners[0]
                    box = (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()),
                           float(pts[:, 1].max()))
                    cv2.imwrite(str(folder / f"other_{k}.jpg"), square_crop(spread.image, box))

    def _train(self, cls_dir: Path, base_folder: Path) -> Path:
        from vision import train

        run_dir = self.folder / "run"
        if (run_dir / "done").exists():  # finished before a restart
            return run_dir
        start = base_folder / "card-classifier.pt"
        overrides: dict[str, Any] = {"plots": False, "verbose": False}
        if self.settings.batch:
            overrides["batch"] = self.settings.batch
        self._report("train", 0.0)
        train.train_classifier(cls_dir, run_dir, epochs=self.settings.epochs, threads=self.settings.threads,
                               start_from=start if start.exists() else None,
                               callbacks=self._train_callbacks(0.0, self._face_share("train")), **overrides)
        return run_dir

    def _export(self, run_dir: Path, base_folder: Path, index_run: Path | None = None) -> Path:
        from vision import train

        self._report("export", 0.0)
        detector = base_folder / "card-detector.pt"
        if not detector.exists():
            raise ProfileError(f"the active model {base_folder} has no card-detector.pt to pair the new classifier "
                               "with; ship or train the card reader first ('dealer-assist vision train')")
        shim = self.folder / "detector-run" / "weights"
        shim.mkdir(parents=True, exist_ok=True)
        shutil.copy(detector, shim / "best.pt")
        target = new_model_folder(self.profile.slug, self.root)
        staging = target.with_name("." + target.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        train.export_models(shim.parent, run_dir, staging, index_run=index_run)
        _carry_corner_models(base_folder, staging, index_learnt=index_run is not None)
        if index_run is not None:
            _mark_index_deck(staging, self.profile.ref)
        write_model_info(staging, {
            "profile": self.profile.ref, "base_model": self.status().get("base_model", ""),
            "created": self.clock.now().isoformat(timespec="seconds"), "settings": asdict(self.settings),
            "results": _last_results(run_dir),
        })
        os.replace(staging, target)
        return target


def _carry_corner_models(base: Path, folder: Path, index_learnt: bool = False) -> None:
    """Give the enrolled folder the base model's outline model and, unless the job taught the index reader the deck
    (``index_learnt``), as its index reader the base's any-deck index reader (its index reader where it has none):
    they read card corners and outlines of any French-suited deck, so the enrolled deck keeps the index look and the
    check of face against index (``vision.reader_familiar``)."""
    import json

    from vision.reader_models import ANY_DECK_INDEX_READER, INDEX_READER, MANIFEST, OUTLINE_MODEL

    base_manifest = json.loads((base / MANIFEST).read_text())
    manifest = json.loads((folder / MANIFEST).read_text())
    index_source, index_key = ((ANY_DECK_INDEX_READER, "index_any") if "index_any" in base_manifest
                               else (INDEX_READER, "index"))
    carried = [(OUTLINE_MODEL, OUTLINE_MODEL, "outline", "outline")]
    if not index_learnt:
        carried.insert(0, (index_source, INDEX_READER, index_key, "index"))
    for source, target, key_from, key_to in carried:
        files = [base / f"{source}{suffix}" for suffix in (".onnx", ".pt")]
        if key_from not in base_manifest or not files[0].exists():
            continue
        for file in files:
            if file.exists():
                shutil.copy(file, folder / f"{target}{file.suffix}")
        manifest[key_to] = base_manifest[key_from]
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")


def _mark_index_deck(folder: Path, profile_ref: str) -> None:
    """Record in the manifest that the folder's index reader learnt this deck (``deck_index_contradiction``)."""
    import json

    from vision.reader_models import MANIFEST

    manifest = json.loads((folder / MANIFEST).read_text())
    manifest["index"]["deck"] = profile_ref
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")


def _last_results(run_dir: Path) -> dict[str, str]:
    results = run_dir / "results.csv"
    if not results.exists():
        return {}
    lines = [line for line in results.read_text().splitlines() if line.strip()]
    if len(lines) < 2:
        return {}
    head = [h.strip() for h in lines[0].split(",")]
    return dict(zip(head, (v.strip() for v in lines[-1].split(",")), strict=False))


def start_in_background(profile_ref: str, settings: LearnSettings | None = None, root: Path | None = None) -> LearnJob:
    """Start (or resume) the learning job of a profile in a separate, low-priority process and return at once."""
    require_training_stack()
    profile = load_profile(profile_ref, root)
    job = LearnJob(profile, settings, root)
    job.folder.mkdir(parents=True, exist_ok=True)
    _write_json(job.folder / "settings.json", asdict(job.settings))
    status = job.status()
    if status.get("state") == "running" and _alive(int(status.get("pid", 0))):
        return job
    env = dict(os.environ)
    if root is not None:
        env["DEALER_ASSIST_DATA"] = str(root)
    log = (job.folder / "job.log").open("a")
    subprocess.Popen(
        [sys.executable, "-m", "kiosk.cli", "vision", "enroll", "learn", profile.ref, "--foreground"],
        stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, start_new_session=True,
        preexec_fn=lambda: os.nice(10),
        cwd=Path(__file__).resolve().parents[2])
    return job


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def format_status(status: dict[str, Any]) -> str:
    left = status.get("seconds_left")
    eta = f", about {int(left) // 60} min {int(left) % 60:02d} s left" if isinstance(left, (int, float)) else ""
    bar_len = 30
    filled = round(float(status.get("progress", 0.0)) * bar_len)
    bar = "█" * filled + "░" * (bar_len - filled)
    text = f"{bar} {float(status.get('progress', 0.0)):4.0%}  {status.get('state')}: {status.get('stage')}{eta}"
    if status.get("epoch"):
        text += f" (epoch {status['epoch']}/{status.get('epochs')})"
    if status.get("error"):
        text += f"\n  error: {status['error']}"
    if status.get("model"):
        text += f"\n  new model: {status['model']}"
    return text
