"""Which model the kiosk reads with is the reading side's to say (``vision.active_model``); enrollment's registry
keeps its API on top of it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from vision import active_model as reading_side
from vision.enroll import registry
from vision.enroll.profile import ProfileError
from vision.reader_models import DEFAULT_MODEL_DIR


def test_saying_which_model_is_active_imports_nothing_of_enrollment() -> None:
    code = ("import sys, vision.active_model as a; a.active_model(); "
            "print(sorted(m for m in sys.modules if m.startswith('vision.enroll')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[]"


def test_the_registry_keeps_its_api(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert registry.active_model is reading_side.active_model
    assert registry.active_model_dir is reading_side.active_model_dir
    monkeypatch.setenv("DEALER_ASSIST_DATA", str(tmp_path))
    assert registry.models_folder() == reading_side.models_folder() == tmp_path / "models"
    shipped = reading_side.active_model()
    assert shipped.shipped and shipped.folder == DEFAULT_MODEL_DIR and shipped.hash == registry.model_hash(
        DEFAULT_MODEL_DIR)
    assert "the shipped model" in reading_side.describe_active(shipped)
    with pytest.raises(ProfileError, match="not a complete card-reader model"):  # enrollment's error, as before
        registry.model_hash(tmp_path)

    learnt = tmp_path / "models" / "house-deck-001"
    learnt.mkdir(parents=True)
    for file in DEFAULT_MODEL_DIR.iterdir():
        (learnt / file.name).symlink_to(file)
    registry.set_active(learnt, "house-deck@v1")
    active = reading_side.active_model()
    assert active.folder == learnt and active.profile == "house-deck@v1" and not active.shipped
    assert "the active model house-deck-001" in reading_side.describe_active(active)

    (tmp_path / "models" / "active.json").write_text("{half")
    with pytest.raises(reading_side.ModelFolderError, match="damaged"):
        reading_side.active_model()
    (tmp_path / "models" / "active.json").write_text(json.dumps({"model": "gone-001", "hash": "x"}))
    assert reading_side.active_model().shipped  # its folder is gone: the shipped model reads
