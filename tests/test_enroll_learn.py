"""Learn: the fine-tune job for a few batches (scenes from the profile's faces, captured crops, the reader's trainer),
with progress, a time estimate, and a restart that resumes instead of starting over."""

from __future__ import annotations

import json
import shutil

import pytest

from engine.cards import standard_deck
from vision.enroll.capture import FaceProposer, capture_frame
from vision.enroll.confirm import ConfirmController
from vision.enroll.learn import LearnJob, LearnSettings, format_status
from vision.enroll.learn_index import INDEX_CLASSES
from vision.enroll.profile import Draft, ProfileError
from vision.enroll.spread import render_spread
from vision.reader_classes import CLASS_NAMES
from vision.reader_index import NO_INDEX
from vision.reader_models import DEFAULT_MODEL_DIR
from vision.synth.faces import available_decks, load_deck

DECK = "nicu-white" if "nicu-white" in available_decks() else "five-card-draw"


@pytest.fixture(scope="module")
def profile(tmp_path_factory):
    root = tmp_path_factory.mktemp("data")
    faces = load_deck(DECK)
    cards = list(standard_deck())
    draft = Draft.open("Nicu white", root)
    for seed, half in ((21, cards[:26]), (22, cards[26:])):
        capture_frame(draft, render_spread(faces, half, seed=seed).image, FaceProposer(faces))
    return ConfirmController(draft).save(), root


def test_the_job_builds_its_data_from_the_profile(profile):
    deck_profile, root = profile
    job = LearnJob(deck_profile, LearnSettings.quick(), root)
    job.folder.mkdir(parents=True, exist_ok=True)
    scenes = job._scenes()
    records = [json.loads(line) for line in (scenes / "scenes.jsonl").read_text().splitlines()]
    assert len(records) == 4 and all(r["deck"] == "enrolled:nicu-white@v1" for r in records)
    assert {c["card"] for r in records for c in r["cards"]} <= {str(c) for c in deck_profile.cards}
    cls = job._crops(scenes)
    assert sorted(p.name for p in (cls / "train").iterdir()) == sorted(CLASS_NAMES)
    captured = list((cls / "val").glob("*/captured_*.jpg"))
    assert len(captured) == 52  # one clean crop of every captured card
    assert all(any((cls / split / name).iterdir()) for split in ("train", "val") for name in CLASS_NAMES)
    assert job.status()["stage"] == "crops" and 0.25 <= job.status()["progress"] <= 0.3


def test_the_job_cuts_the_decks_index_corners_from_its_scenes_and_the_dealers_photos(profile):
    deck_profile, root = profile
    job = LearnJob(deck_profile, LearnSettings.quick(), root)
    job.folder.mkdir(parents=True, exist_ok=True)
    index = job._index_patches(job._scenes())
    assert index is not None
    # every class the index reader has, in both splits (the deck's own cards, and "none" for a corner without one)
    assert all(any((index / split / name).iterdir()) for split in ("train", "val") for name in INDEX_CLASSES)
    # each captured card's corners are taught under its own name: the dealer's photos are the validation split
    named = {folder.name for folder in (index / "val").iterdir() if any(folder.glob("captured*.jpg"))}
    assert named - {NO_INDEX} == {str(card) for card in deck_profile.cards}
    assert list((index / "train").glob("*/scene_*.jpg")) and list((index / "train").glob("*/proc*.jpg"))
    assert 0.3 <= job.status()["progress"] <= 0.31  # the crops stage is over
    # no index learning asked for: none cut
    assert LearnJob(deck_profile, LearnSettings(index_epochs=0), root)._index_patches(job.folder / "scenes") is None


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_few_batches_of_fine_tuning_with_progress_and_resume(profile):
    deck_profile, root = profile
    bare = root / "bare-model"  # a base model without a detector: the job must say it cannot pair
    bare.mkdir(exist_ok=True)
    shutil.copy(DEFAULT_MODEL_DIR / "card-index-any.pt", bare)  # the index reader the deck's corners teach
    job = LearnJob(deck_profile, LearnSettings.quick(), root, base_model=bare)
    seen: list[dict] = []
    original = job._report

    def spy(stage, within, state="running", **extra):
        original(stage, within, state, **extra)
        seen.append(job.status())

    job._report = spy  # type: ignore[method-assign]
    with pytest.raises(ProfileError, match=r"no card-detector\.pt"):  # no shipped reader here to pair with
        job.run()
    assert (job.folder / "run" / "weights" / "last.pt").exists()
    assert (job.folder / "index-run" / "weights" / "last.pt").exists()  # the index reader learnt the corners too
    progress = [s["progress"] for s in seen]
    assert progress == sorted(progress) and progress[-1] >= 0.9
    assert any(s["stage"] == "train" and s.get("epoch") == 1 for s in seen)
    assert any(isinstance(s.get("seconds_left"), int) for s in seen)
    status = job.status()
    assert status["state"] == "failed" and "card-detector.pt" in status["error"]
    assert "failed" in format_status(status)

    # A restart: the finished stages are not redone (the scenes and crops are kept, training is finished).
    scenes_before = (job.folder / "scenes" / "scenes.jsonl").stat().st_mtime_ns
    again = LearnJob(deck_profile, None, root, base_model=bare)
    assert again.settings == LearnSettings.quick()  # the job's own settings come back from its folder
    with pytest.raises(ProfileError, match=r"no card-detector\.pt"):
        again.run()
    assert (job.folder / "scenes" / "scenes.jsonl").stat().st_mtime_ns == scenes_before
    assert (job.folder / "run" / "done").exists() and (job.folder / "index-run" / "done").exists()


def test_learning_without_the_training_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from vision.enroll import learn

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        learn.importlib.util, "find_spec", lambda name, *a: None if name == "ultralytics" else real_find_spec(name, *a)
    )
    with pytest.raises(learn.TrainingStackMissing, match=r"pip install -e '\.\[train\]'"):
        learn.start_in_background("no-such-deck")


def test_an_enrolled_model_keeps_the_base_models_corner_readers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from vision.enroll.learn import _carry_corner_models

    base, enrolled = tmp_path / "base", tmp_path / "enrolled"
    base.mkdir()
    enrolled.mkdir()
    entry = {"imgsz": 64, "names": ["AS", "none"]}
    (base / "reader.json").write_text(json.dumps({"classifier": {"imgsz": 160, "names": ["AS"]}, "index": entry,
                                                  "index_any": {**entry, "names": ["AS", "none"]},
                                                  "outline": {"imgsz": 320, "names": ["card"]}}))
    for name in ("card-index", "card-index-any", "card-outline"):
        for suffix in (".onnx", ".pt"):
            (base / f"{name}{suffix}").write_text(f"{name}{suffix}")
    (enrolled / "reader.json").write_text(json.dumps({"classifier": {"imgsz": 160, "names": ["AS"]}}))
    _carry_corner_models(base, enrolled)
    manifest = json.loads((enrolled / "reader.json").read_text())
    # the any-deck index reader becomes the enrolled deck's index reader; the outline model comes along
    assert (enrolled / "card-index.onnx").read_text() == "card-index-any.onnx"
    assert (enrolled / "card-outline.pt").read_text() == "card-outline.pt"
    assert manifest["index"] == base_manifest_entry(base, "index_any") and "outline" in manifest
    assert manifest["classifier"] == {"imgsz": 160, "names": ["AS"]}

    # an index reader the job taught the deck stays the enrolled folder's own
    learnt = {"imgsz": 64, "names": ["AS", "KS", "none"]}
    (enrolled / "card-index.onnx").write_text("learnt")
    (enrolled / "reader.json").write_text(json.dumps({"classifier": {"imgsz": 160, "names": ["AS"]}, "index": learnt}))
    _carry_corner_models(base, enrolled, index_learnt=True)
    manifest = json.loads((enrolled / "reader.json").read_text())
    assert (enrolled / "card-index.onnx").read_text() == "learnt" and manifest["index"] == learnt
    assert "outline" in manifest


def test_the_reader_knows_an_index_reader_that_learnt_the_deck(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from vision.enroll.learn import _mark_index_deck
    from vision.reader_models import MANIFEST, ModelManifest

    shutil.copy(DEFAULT_MODEL_DIR / MANIFEST, tmp_path / MANIFEST)
    assert ModelManifest.load(tmp_path).index_deck == ""  # the shipped index reader learnt many designs
    _mark_index_deck(tmp_path, "house-deck@v2")
    assert ModelManifest.load(tmp_path).index_deck == "house-deck@v2"


def base_manifest_entry(base, key: str):  # type: ignore[no-untyped-def]
    return json.loads((base / "reader.json").read_text())[key]


def test_a_partial_deck_learns_every_view_it_has(tmp_path):
    """Two views of a card are two examples; a card seen only cut by the picture's edge is learnt from what showed
    (its crops), never drawn as a face; the practice scenes hold only the deck's own cards."""
    import cv2
    import numpy as np

    faces = load_deck(DECK)
    cards = list(standard_deck())
    draft = Draft.open("Half deck", tmp_path)
    capture_frame(draft, render_spread(faces, cards[:6], seed=23).image, FaceProposer(faces))
    capture_frame(draft, render_spread(faces, cards[:2], seed=24).image, FaceProposer(faces))  # AS, KS again
    spread = render_spread(faces, cards[20:21], seed=25, size=(400, 300), tilt_degrees=0)
    frame = spread.image[:, : int(spread.corners[0][:, 0].mean())].copy()  # the card cut through its middle
    name = draft.add_frame(frame)
    h, w = frame.shape[:2]
    part = [[float(spread.corners[0][:, 0].min()), 40.0], [w - 1.0, 40.0], [w - 1.0, h - 40.0],
            [float(spread.corners[0][:, 0].min()), h - 40.0]]
    draft.add_face(name, part, cv2.resize(frame, (200, 290)), cards[20], 0.9, found_by="cut")
    draft.save()
    profile = ConfirmController(draft).save()
    assert len(profile.views) == 9 and len(profile.cards) == 7 and len(profile.missing) == 45
    assert profile.partial_only == (cards[20],) and cards[20] not in profile.faces()
    assert [v.partial for v in profile.views_of(cards[20])] == [True]

    job = LearnJob(profile, LearnSettings.quick(), tmp_path)
    job.folder.mkdir(parents=True, exist_ok=True)
    scenes = job._scenes()
    records = [json.loads(line) for line in (scenes / "scenes.jsonl").read_text().splitlines()]
    drawn = {c["card"] for r in records for c in r["cards"]}
    assert drawn and drawn <= {str(c) for c in cards[:6]}  # the deck's own cards, whole ones only
    cls = job._crops(scenes)
    captured = sorted(p.parent.name for p in (cls / "val").glob("*/captured_*.jpg"))
    assert len(captured) == 9  # one clean crop of every view, the cut one too
    assert captured.count(str(cards[0])) == 2 and str(cards[20]) in captured
    assert np.asarray(cv2.imread(str(next((cls / "val" / str(cards[20])).glob("captured_*.jpg"))))).size
