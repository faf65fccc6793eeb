"""Training the card reader's two models with Ultralytics, offline, on the CPU: resumable, with a progress bar."""

from __future__ import annotations

import os
import shutil
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
               **overrides: Any) -> Path:
    """Train (or resume) one Ultralytics model; returns the run folder. ``weights`` starts from a checkpoint."""
    prepare_offline_ultralytics()
    from ultralytics import YOLO

    set_cpu_threads(threads)
    last = run_dir / "weights" / "last.pt"
    if last.exists() and not (run_dir / "done").exists():
        try:
            YOLO(str(last)).train(resume=True, workers=0)
            (run_dir / "done").write_text("finished\n")
            return run_dir
        except AssertionError:  # Ultralytics: "training to N epochs is finished, nothing to resume"
            (run_dir / "done").write_text("finished\n")
            return run_dir
    model = YOLO(model_yaml)
    if weights is not None:
        model = model.load(str(weights))
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
