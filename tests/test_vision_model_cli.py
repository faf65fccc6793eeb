"""``dealer-assist vision read | eval | export | train`` through a subprocess, as a user runs them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import cv2
import pytest
import yaml

from vision.reader_classes import CLASS_NAMES, card_of_class_name
from vision.synth.dataset import write_scenes
from vision.synth.scene import render_scene
from vision.synth.textures import squashed_to_square


def _run(dealer_assist: list[str], env: dict[str, str], *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*dealer_assist, "vision", *args], capture_output=True, text=True, env=env,
                          timeout=timeout, check=False)


def test_read_json_prints_one_object_per_image(tmp_path: Path, dealer_assist: list[str],
                                               cli_env: dict[str, str]) -> None:
    paths = []
    for seed in (7_100_000, 7_100_001):
        path = tmp_path / f"table_{seed}.png"
        cv2.imwrite(str(path), render_scene(seed).image)
        paths.append(str(path))
    done = _run(dealer_assist, cli_env, "read", *paths, "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 2
    for line, path in zip(lines, paths, strict=True):
        obj = json.loads(line)
        assert obj["image"] == path
        assert obj["cards"], "every rendered table shows cards"
        for card in obj["cards"]:
            assert card["card"] in CLASS_NAMES
            assert 0.0 <= card["confidence"] <= 1.0
            x1, y1, x2, y2 = card["box"]
            assert 0 <= x1 < x2 <= 1280 and 0 <= y1 < y2 <= 720


@pytest.mark.parametrize("deck", ["known", "unseen"])
def test_read_deck_says_which_deck_the_photos_show(deck: str, tmp_path: Path, dealer_assist: list[str],
                                                   cli_env: dict[str, str]) -> None:
    from vision.reader import CardReader, ReaderSettings
    from vision.reader_models import DEFAULT_MODEL_DIR

    path = tmp_path / "table.png"
    cv2.imwrite(str(path), render_scene(7_100_003).image)
    done = _run(dealer_assist, cli_env, "read", str(path), "--json", "--deck", deck)
    assert done.returncode == 0, done.stderr
    pinned = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(familiar_deck=deck)).read(cv2.imread(str(path)))
    assert json.loads(done.stdout)["cards"] == [json.loads(json.dumps(d.to_json())) for d in pinned]


def test_read_says_when_it_read_square_photos_stretched_back(tmp_path: Path, dealer_assist: list[str],
                                                            cli_env: dict[str, str]) -> None:
    paths = []
    for seed in (7_300_000, 7_300_001):  # 16:9 scenes squashed to a square
        path = tmp_path / f"squashed_{seed}.png"
        cv2.imwrite(str(path), squashed_to_square(render_scene(seed).image))
        paths.append(str(path))
    done = _run(dealer_assist, cli_env, "read", *paths)
    assert done.returncode == 0, done.stderr
    assert "read stretched" in done.stderr and "wide" in done.stderr and "--squashed no" in done.stderr
    assert done.stdout.count(": ") >= 2 and "squashed_7300001.png" in done.stdout


def test_read_plain_text_names_the_cards(tmp_path: Path, dealer_assist: list[str], cli_env: dict[str, str]) -> None:
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), render_scene(7_100_002).image)
    done = _run(dealer_assist, cli_env, "read", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{path}: ") and " card" in done.stdout.splitlines()[0]


def test_read_refuses_a_missing_or_unreadable_image(tmp_path: Path, dealer_assist: list[str],
                                                    cli_env: dict[str, str]) -> None:
    done = _run(dealer_assist, cli_env, "read", str(tmp_path / "nope.jpg"))
    assert done.returncode == 2 and "no such image" in done.stderr
    bad = tmp_path / "bad.jpg"
    bad.write_text("not a picture")
    done = _run(dealer_assist, cli_env, "read", str(bad))
    assert done.returncode == 2 and "not an image" in done.stderr


def _words_style_dataset(root: Path) -> Path:
    """A YOLO set whose classes are named '10 of clubs'-style ('joker' for the joker), in another order than ours."""
    write_scenes(root / "scenes", range(7_200_000, 7_200_003))
    order = sorted(CLASS_NAMES, key=lambda n: n[::-1])  # a different order
    words = {n: card_of_class_name(n).name for n in order}  # 'jack of clubs'…
    (root / "test" / "labels").mkdir(parents=True)
    (root / "test" / "images").mkdir(parents=True)
    for label in sorted((root / "scenes" / "labels").glob("*.txt")):
        rows = []
        for line in label.read_text().splitlines():
            cls, rest = line.split(" ", 1)
            name = CLASS_NAMES[int(cls)]
            rows.append(f"{order.index(name)} {rest}\n")
        (root / "test" / "labels" / label.name).write_text("".join(rows))
        image = root / "scenes" / "images" / (label.stem + ".jpg")
        (root / "test" / "images" / image.name).symlink_to(image)
    data = root / "data.yaml"
    data.write_text(yaml.safe_dump({"path": str(root), "test": "test/images", "names": [words[n] for n in order]}))
    return data


def test_eval_reports_figures_and_a_confusion_plot(tmp_path: Path, dealer_assist: list[str],
                                                   cli_env: dict[str, str]) -> None:
    data = _words_style_dataset(tmp_path / "set")
    out = tmp_path / "report"
    done = _run(dealer_assist, cli_env, "eval", str(data), "--split", "test", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "cards identified right:" in done.stdout and "precision" in done.stdout and "recall" in done.stdout
    report = json.loads((out / "report.json").read_text())
    assert report["images"] == 3 and report["truth_cards"] > 0
    assert (out / "confusion.png").stat().st_size > 10_000
    # The same scenes labelled with our own class names score exactly the same: the words were mapped right.
    ours = tmp_path / "ours.yaml"
    ours.write_text(yaml.safe_dump({"path": str(tmp_path / "set" / "scenes"), "test": "images",
                                    "names": dict(enumerate(CLASS_NAMES))}))
    done = _run(dealer_assist, cli_env, "eval", str(ours), "--split", "test", "--out", str(tmp_path / "ours"))
    assert done.returncode == 0, done.stderr
    theirs = json.loads((tmp_path / "ours" / "report.json").read_text())
    # Only the set beside its scenes.jsonl can say how much of each card shows.
    assert report.pop("by_shown") == {} and sum(band["cards"] for band in theirs.pop("by_shown").values()) > 0
    assert theirs == report


def test_eval_refuses_a_missing_split(tmp_path: Path, dealer_assist: list[str], cli_env: dict[str, str]) -> None:
    data = tmp_path / "data.yaml"
    data.write_text(yaml.safe_dump({"path": str(tmp_path), "val": "val/images", "val2": "val2/images",
                                    "names": ["10 of clubs"]}))
    done = _run(dealer_assist, cli_env, "eval", str(data), "--split", "test")
    assert done.returncode == 2 and "no 'test' split; choose one of: val, val2" in done.stderr


def test_export_without_a_trained_run_says_so(tmp_path: Path, dealer_assist: list[str],
                                              cli_env: dict[str, str]) -> None:
    done = _run(dealer_assist, cli_env, "export", "--detector-run", str(tmp_path / "none"),
                "--classifier-run", str(tmp_path / "none"), "--models", str(tmp_path / "models"))
    assert done.returncode == 2 and "train" in done.stderr


@pytest.mark.parametrize("stage", ["detector", "classifier", "index", "straight"])
def test_train_refuses_a_missing_checkpoint_before_doing_anything(stage: str, tmp_path: Path,
                                                                  dealer_assist: list[str],
                                                                  cli_env: dict[str, str]) -> None:
    missing = tmp_path / "nope.pt"
    done = _run(dealer_assist, cli_env, "train", "--stage", stage, f"--{stage}-from", str(missing))
    assert done.returncode == 2 and f"no checkpoint {missing}" in done.stderr
    assert "github" not in (done.stdout + done.stderr).lower()  # nothing looked up online


@pytest.mark.parametrize("extra", [["--index-from", "nope.pt"], ["--transfer-decks", "-1"]])
def test_the_transfer_stage_refuses_bad_input_before_cutting_any_patch(extra: list[str], tmp_path: Path,
                                                                       dealer_assist: list[str],
                                                                       cli_env: dict[str, str]) -> None:
    args = [str(tmp_path / a) if a.endswith(".pt") else a for a in extra]
    done = _run(dealer_assist, cli_env, "train", "--stage", "index-transfer", *args)
    wanted = f"no checkpoint {tmp_path / 'nope.pt'}" if extra[0] == "--index-from" else "cannot be negative"
    assert done.returncode == 2 and wanted in done.stderr


@pytest.mark.parametrize(("stage", "copies", "wanted"), [
    ("detector-transfer", "0", "lists the real photos at least once"),
    ("classifier", "2", "holds 3 copies of each real crop")])
def test_train_refuses_too_few_real_copies_for_its_stage(stage: str, copies: str, wanted: str,
                                                         dealer_assist: list[str], cli_env: dict[str, str]) -> None:
    done = _run(dealer_assist, cli_env, "train", "--stage", stage, "--real-copies", copies)
    assert done.returncode == 2 and wanted in done.stderr


@pytest.mark.parametrize("rate", ["0", "1.5", "-0.001"])
def test_train_refuses_a_learning_rate_out_of_range(rate: str, tmp_path: Path, dealer_assist: list[str],
                                                    cli_env: dict[str, str]) -> None:
    done = _run(dealer_assist, cli_env, "train", "--stage", "classifier", "--lr", rate)
    assert done.returncode == 2 and f"--lr {float(rate)} is not a learning rate" in done.stderr


@pytest.mark.slow
def test_training_smoke_run_a_few_batches(tmp_path: Path) -> None:
    """Two tiny epochs of the classifier recipe on a handful of crops: the training path runs offline, writes
    checkpoints and can be resumed (the run is marked done and a second call returns at once)."""
    from vision.synth.dataset import scene_crops
    from vision.train import train_yolo

    write_scenes(tmp_path / "scenes", range(7_300_000, 7_300_002), (640, 360))
    for split in ("train", "val"):
        scene_crops(tmp_path / "scenes", tmp_path / "cls" / split, copies=1)
    run = tmp_path / "runs" / "smoke"
    train_yolo("yolo11n-cls.yaml", tmp_path / "cls", run, epochs=1, imgsz=32, batch=8, threads=1, plots=False)
    assert (run / "weights" / "last.pt").exists() and (run / "done").exists()
    train_yolo("yolo11n-cls.yaml", tmp_path / "cls", run, epochs=1, imgsz=32, batch=8, threads=1, plots=False)


def test_watch_before_calibration_lists_the_cards_it_sees(tmp_path: Path, dealer_assist: list[str],
                                                         cli_env: dict[str, str]) -> None:
    scene = render_scene(7_100_003)  # a table with no markers: the camera being aimed before calibration
    path = tmp_path / "aiming.png"
    cv2.imwrite(str(path), scene.image)
    done = _run(dealer_assist, cli_env, "watch", "--camera", str(path), "--frames", "1",
                "--snapshot", str(tmp_path / "view.png"))
    assert done.returncode == 1, done.stderr  # the missing calibration is a problem, said so
    lines = done.stdout.splitlines()
    seen = next(line for line in lines if line.startswith("seen, in no place: ")).split(": ", 1)[1].split()
    shown = {str(card.card) for card in scene.labelled_cards}
    assert len(set(seen) & shown) >= len(shown) - 1  # the cards in view are named (one may be misread)
    assert any(line.startswith("problem: not calibrated") for line in lines)
    assert (tmp_path / "view.png").exists()


@pytest.mark.parametrize(("device", "says"), [("0", "this machine has"), ("gpu", "give cpu, or a CUDA GPU's number")])
def test_train_names_a_device_it_cannot_use_before_doing_anything(device: str, says: str, dealer_assist: list[str],
                                                                  cli_env: dict[str, str]) -> None:
    import torch

    if device == "0" and torch.cuda.is_available():
        pytest.skip("this machine has a CUDA GPU")
    done = _run(dealer_assist, cli_env, "train", "--stage", "classifier", "--device", device)
    assert done.returncode == 2 and f"--device {device}" in done.stderr and says in done.stderr
    assert "datasets ready" not in done.stdout
