"""Which card-reader model the kiosk reads with: the reading side's part of the model registry.

- The shipped model: ``models/`` of the repository.
- Models learnt for an enrolled deck: ``<data>/models/<deck-slug>-NNN/`` (``<data>``: ``./data`` unless
  ``DEALER_ASSIST_DATA`` names another folder).
- ``<data>/models/active.json`` names the active folder, its hash and the deck profile it was learnt for; without it
  (or when its folder is gone) the shipped model is active.

A model's hash (the first 16 hex digits of SHA-256 over its manifest and both ONNX files) is how the journal names it.
Reading needs only this module; enrollment (``vision.enroll.registry``) writes the record and lists the learnt models.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from engine.errors import InputError
from vision.reader_models import CLASSIFIER, DEFAULT_MODEL_DIR, DETECTOR, MANIFEST

DATA_ENV = "DEALER_ASSIST_DATA"
ACTIVE_FILE = "active.json"
SHIPPED = "shipped"


class ModelFolderError(InputError):
    """A model folder or the active-model record that cannot be used (with what to do about it)."""


def data_folder() -> Path:
    """The kiosk's data folder: ``DEALER_ASSIST_DATA``, else ``./data``."""
    return Path(os.environ.get(DATA_ENV) or "data")


def models_folder(root: Path | None = None) -> Path:
    return (root or data_folder()) / "models"


def model_hash(folder: Path) -> str:
    """The model's identity: a hash of what the kiosk runs (manifest + both ONNX files)."""
    digest = hashlib.sha256()
    for name in (MANIFEST, f"{DETECTOR}.onnx", f"{CLASSIFIER}.onnx"):
        path = folder / name
        if not path.exists():
            raise ModelFolderError(f"{folder} is not a complete card-reader model (no {name})")
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

    @property
    def shipped(self) -> bool:
        return self.name == SHIPPED


def active_record(root: Path | None = None) -> dict[str, object] | None:
    """``active.json`` as written by the last activation, or None when there is none."""
    path = models_folder(root) / ACTIVE_FILE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError, RecursionError) as error:
        raise ModelFolderError(f"the active model record {path} is damaged ({error}); delete it to read with the "
                               "shipped model, or activate a model again") from error
    if not isinstance(data, dict):
        raise ModelFolderError(f"the active model record {path} is damaged (not an object); delete it to read with "
                               "the shipped model, or activate a model again")
    return data


def active_model(root: Path | None = None, shipped: Path = DEFAULT_MODEL_DIR) -> ActiveModel:
    """The model the kiosk reads with now."""
    data = active_record(root)
    if data is not None:
        folder = models_folder(root) / str(data.get("model", ""))
        if data.get("model") and (folder / MANIFEST).exists():
            return ActiveModel(folder, folder.name, str(data.get("hash", "")), str(data.get("profile", "")),
                               str(data.get("since", "")))
    try:
        digest = model_hash(shipped)
    except ModelFolderError:
        digest = ""
    return ActiveModel(shipped, SHIPPED, digest, "", "")


def active_model_dir(root: Path | None = None) -> Path:
    return active_model(root).folder


def describe_active(active: ActiveModel, root: Path | None = None) -> str:
    """How a command says which model it reads with: the folder, and why that one."""
    if active.shipped:
        return (f"{active.folder} (the shipped model: no enrolled model is active under "
                f"{models_folder(root)})")
    learnt = f", learnt for {active.profile}" if active.profile else ""
    return f"{active.folder} (the active model {active.name} {active.hash}{learnt})"
