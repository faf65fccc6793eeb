"""The SHA-256 of every model file the kiosk reads with: journaled at every start, so that a round can be tied to the
exact models that read it, and shown on the floor's pit view beside the software version."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from engine.errors import InputError

MODEL_SUFFIXES = (".onnx",)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def model_hashes(*folders: Path) -> dict[str, str]:
    """``file name → SHA-256`` of each model file in ``folders`` (the active model's first: its name wins)."""
    found: dict[str, str] = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix in MODEL_SUFFIXES and path.is_file() and path.name not in found:
                found[path.name] = file_sha256(path)
    return found


SOFTWARE_SETTING = "software"
"""The ``settings_changed`` setting every kiosk start records: its release and models (``before``: the last start's).
A table-level event kind every release reads, so that a rolled-back release still reads the journal."""


def software_in_use(data: Path) -> dict[str, Any]:
    """What this start runs: ``{"version": …, "reader": "NAME HASH", "models": {file: SHA-256}}``."""
    from journal.store import software_version
    from vision.active_model import active_model
    from vision.reader_models import DEFAULT_MODEL_DIR

    try:
        active = active_model(data)
    except InputError as error:
        return {"version": software_version(), "reader": f"unavailable ({error})", "models": {}}
    return {"version": software_version(), "reader": f"{active.name} {active.hash}",
            "models": model_hashes(active.folder, DEFAULT_MODEL_DIR)}
