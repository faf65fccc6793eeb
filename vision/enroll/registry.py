"""Card-reader models as versioned folders: which one the kiosk reads with, and the ones learnt for enrolled decks.

- The shipped model: ``models/`` of the repository.
- Models learnt for an enrolled deck: ``<data>/models/<deck-slug>-NNN/`` (the reader's files plus ``enrolled.json``:
  profile, base model, figures). A folder is never changed once written.
- ``<data>/models/active.json`` names the active folder, its hash and the profile it was learnt for; without it (or
  when its folder is gone) the shipped model is active.

Which model is active is the reading side's to say (``vision.active_model``, which the reader imports without this
package); this module re-exports it, writes the record (``set_active``) and lists the learnt models.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.clock import Clock
from vision import active_model as _active
from vision.active_model import ACTIVE_FILE, SHIPPED, ActiveModel, ModelFolderError, active_model, active_model_dir
from vision.clock import SystemClock
from vision.enroll.profile import ProfileError, _read_json, _write_json
from vision.reader_models import DEFAULT_MODEL_DIR, MANIFEST

__all__ = ["ACTIVE_FILE", "ENROLLED_FILE", "SHIPPED", "ActiveModel", "active_model", "active_model_dir", "describe",
           "list_models", "model_hash", "model_info", "models_folder", "new_model_folder", "set_active",
           "write_model_info"]

ENROLLED_FILE = "enrolled.json"


def models_folder(root: Path | None = None) -> Path:
    return _active.models_folder(root)


def model_hash(folder: Path) -> str:
    """The model's identity: a hash of what the kiosk runs (manifest + both ONNX files)."""
    try:
        return _active.model_hash(folder)
    except ModelFolderError as error:
        raise ProfileError(str(error)) from error


def set_active(folder: Path, profile: str, clock: Clock | None = None, root: Path | None = None) -> ActiveModel:
    """Make ``folder`` (a model under the data folder, or the shipped one) the active model."""
    now = (clock or SystemClock()).now().isoformat(timespec="seconds")
    if folder.resolve() == DEFAULT_MODEL_DIR.resolve():
        (models_folder(root) / ACTIVE_FILE).unlink(missing_ok=True)
        return active_model(root)
    if folder.parent.resolve() != models_folder(root).resolve():
        raise ProfileError(f"{folder} is not a model of this kiosk's data folder ({models_folder(root)})")
    digest = model_hash(folder)
    _write_json(models_folder(root) / ACTIVE_FILE, {"model": folder.name, "hash": digest, "profile": profile,
                                                    "since": now})
    return ActiveModel(folder, folder.name, digest, profile, now)


def new_model_folder(profile_slug: str, root: Path | None = None) -> Path:
    """The next free ``<slug>-NNN`` folder name (not created)."""
    base = models_folder(root)
    taken = [int(m.group(1)) for p in (base.iterdir() if base.is_dir() else [])
             if (m := re.fullmatch(re.escape(profile_slug) + r"-(\d{3,})", p.name))]
    return base / f"{profile_slug}-{max(taken, default=0) + 1:03d}"


def model_info(folder: Path) -> dict[str, Any]:
    path = folder / ENROLLED_FILE
    return dict(_read_json(path, "model record")) if path.exists() else {}


def list_models(root: Path | None = None) -> list[tuple[str, Path, dict[str, Any]]]:
    """(name, folder, enrolled.json) of every complete model under the data folder, oldest first."""
    base = models_folder(root)
    if not base.is_dir():
        return []
    return [(p.name, p, model_info(p)) for p in sorted(base.iterdir()) if (p / MANIFEST).exists()]


def write_model_info(folder: Path, info: dict[str, Any]) -> None:
    _write_json(folder / ENROLLED_FILE, info)


def describe(folder: Path) -> str:
    try:
        return f"{folder.name} ({model_hash(folder)})"
    except ProfileError:
        return f"{folder.name} (incomplete)"
