"""Card-reader models as versioned folders, and which one the kiosk reads with.

- The shipped model: ``models/`` of the repository.
- Models learnt for an enrolled deck: ``<data>/models/<deck-slug>-NNN/`` (the reader's files plus ``enrolled.json``:
  profile, base model, figures). A folder is never changed once written.
- ``<data>/models/active.json`` names the active folder, its hash and the profile it was learnt for; without it (or
  when its folder is gone) the shipped model is active.

A model's hash (the first 16 hex digits of SHA-256 over its manifest and both ONNX files) is how the journal names it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.clock import Clock
from vision.clock import SystemClock
from vision.enroll.profile import ProfileError, _read_json, _write_json, data_folder
from vision.reader_models import CLASSIFIER, DEFAULT_MODEL_DIR, DETECTOR, MANIFEST

ACTIVE_FILE = "active.json"
ENROLLED_FILE = "enrolled.json"
SHIPPED = "shipped"


def models_folder(root: Path | None = None) -> Path:
    return (root or data_folder()) / "models"


def model_hash(folder: Path) -> str:
    """The model's identity: a hash of what the kiosk runs (manifest + both ONNX files)."""
    digest = hashlib.sha256()
    for name in (MANIFEST, f"{DETECTOR}.onnx", f"{CLASSIFIER}.onnx"):
        path = folder / name
        if not path.exists():
            raise ProfileError(f"{folder} is not a complete card-reader model (no {name})")
        digest.update(name.encode())
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class ActiveModel:
    folder: Path
    name: str  # the folder's name, or "shipped"
    hash: str
    profile: str  # the deck profile it was learnt for ("" for the shipped model)
    since: str


def active_model(root: Path | None = None, shipped: Path = DEFAULT_MODEL_DIR) -> ActiveModel:
    """The model the kiosk reads with now."""
    path = models_folder(root) / ACTIVE_FILE
    if path.exists():
        data = _read_json(path, "active model record")
        folder = models_folder(root) / str(data.get("model", ""))
        if (folder / MANIFEST).exists():
            return ActiveModel(folder, folder.name, str(data["hash"]), str(data.get("profile", "")),
                               str(data.get("since", "")))
    try:
        digest = model_hash(shipped)
    except ProfileError:
        digest = ""
    return ActiveModel(shipped, SHIPPED, digest, "", "")


def active_model_dir(root: Path | None = None) -> Path:
    return active_model(root).folder


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
