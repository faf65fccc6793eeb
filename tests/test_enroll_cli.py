"""``dealer-assist vision enroll`` through a subprocess, as a supervisor types it."""

from __future__ import annotations

import json
import subprocess

import cv2
import pytest

from engine.cards import standard_deck
from vision.enroll.spread import render_spread
from vision.synth.faces import available_decks, load_deck

DECK = "nicu-white" if "nicu-white" in available_decks() else "five-card-draw"


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photos")
    faces = load_deck(DECK)
    cards = list(standard_deck())
    paths = []
    for seed, half in ((61, cards[:26]), (62, cards[26:])):
        path = folder / f"spread{seed}.jpg"
        cv2.imwrite(str(path), render_spread(faces, half, seed=seed).image)
        paths.append(str(path))
    return paths


def _run(dealer_assist, env, *args):
    return subprocess.run([*dealer_assist, "vision", "enroll", *args], capture_output=True, text=True, env=env,
                          timeout=120, check=False)


def test_capture_status_confirm_and_list(tmp_path, photos, dealer_assist, cli_env):
    env = {**cli_env, "DEALER_ASSIST_DATA": str(tmp_path / "data")}
    done = _run(dealer_assist, env, "capture", "House deck", *photos, "--models", str(tmp_path / "no-model"))
    assert done.returncode == 0, done.stderr
    assert "no model to find the cards with" in done.stdout  # the outline way, on the felt
    assert "26 cards found" in done.stdout and "name every face by hand" in done.stdout
    assert "52 faces not named yet" in done.stdout

    refused = _run(dealer_assist, env, "confirm", "House deck", "--save")  # nothing named: nothing to save
    assert refused.returncode == 2 and "no face is named" in refused.stderr
    assert refused.stderr.startswith("dealer-assist: ")

    status = _run(dealer_assist, env, "status", "House deck")
    assert status.returncode == 0 and "#52" in status.stdout

    fixed = _run(dealer_assist, env, "confirm", "House deck", "--set", "1=AS", "--set", "2=AS", "--drop", "3")
    assert fixed.returncode == 0
    assert "views: AS ×2" in fixed.stdout and "51 faces" in fixed.stdout  # two views of the ace: not an error
    assert "more than once" not in fixed.stdout
    status = _run(dealer_assist, env, "status", "House deck")
    assert "A♠ ×2" in status.stdout

    bad = _run(dealer_assist, env, "confirm", "House deck", "--set", "4=9Z")
    assert bad.returncode == 2 and "e.g. 7=QH" in bad.stderr

    saved = _run(dealer_assist, env, "confirm", "House deck", "--save")  # a partial deck saves what it has
    assert saved.returncode == 0, saved.stderr
    assert "saved house-deck@v1 (1 cards, 2 views)" in saved.stdout
    assert "missing 51: 2S 3S" in saved.stdout and "stay with the base model" in saved.stdout
    assert "left out: 49 faces not named" in saved.stdout

    listing = _run(dealer_assist, env, "list")
    assert listing.returncode == 0 and "deck profiles: house-deck@v1" in listing.stdout


def test_a_second_batch_is_named_by_a_saved_profile(tmp_path, photos, dealer_assist, cli_env):
    from vision.enroll.capture import FaceProposer, capture_frame
    from vision.enroll.confirm import ConfirmController
    from vision.enroll.profile import Draft

    root = tmp_path / "data"
    draft = Draft.open("House deck", root)
    faces = load_deck(DECK)
    for path in photos:
        capture_frame(draft, cv2.imread(path), FaceProposer(faces))
    ConfirmController(draft).save()

    env = {**cli_env, "DEALER_ASSIST_DATA": str(root)}
    done = _run(dealer_assist, env, "capture", "House deck again", *photos, "--like", "house-deck")
    assert done.returncode == 0, done.stderr
    assert "complete" in done.stdout
    saved = _run(dealer_assist, env, "confirm", "House deck again", "--save")
    assert saved.returncode == 0 and "house-deck-again@v1" in saved.stdout
    listing = _run(dealer_assist, env, "list")
    assert "house-deck@v1" in listing.stdout and "house-deck-again@v1" in listing.stdout

    missing = _run(dealer_assist, env, "learn", "no-such-deck")
    assert missing.returncode == 2 and "no deck profile" in missing.stderr
    no_model = _run(dealer_assist, env, "verify", "house-deck", photos[0])
    assert no_model.returncode == 2 and "no model has been learnt" in no_model.stderr


def test_capture_names_and_skips_bad_photos_and_goes_on(tmp_path, photos, dealer_assist, cli_env):
    env = {**cli_env, "DEALER_ASSIST_DATA": str(tmp_path / "data")}
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"half a jpeg")
    dark = tmp_path / "dark.jpg"
    cv2.imwrite(str(dark), (cv2.imread(photos[0]) * 0.1).astype("uint8"))
    done = _run(dealer_assist, env, "capture", "House deck", str(broken), str(tmp_path / "gone.jpg"), str(dark),
                photos[1])
    assert done.returncode == 0, done.stderr
    assert "finding the cards with model folder" in done.stdout and "the shipped model" in done.stdout
    assert f"{broken}: skipped, unreadable:" in done.stdout
    assert f"{dark}: skipped, too dark" in done.stdout
    assert f"{photos[1]}: 26 cards found" in done.stdout  # the batch went on
    assert "skipped 3 photos:" in done.stdout
    summary = done.stdout.split("skipped 3 photos:")[1]
    assert str(broken) in summary and "gone.jpg: unreadable: no such image" in summary and str(dark) in summary


def test_read_says_which_model_and_reads_with_the_active_one(tmp_path, photos, dealer_assist, cli_env):
    from vision.enroll.registry import models_folder, set_active
    from vision.reader_models import DEFAULT_MODEL_DIR

    root = tmp_path / "data"
    env = {**cli_env, "DEALER_ASSIST_DATA": str(root)}

    def read(*args):
        return subprocess.run([*dealer_assist, "vision", "read", *args], capture_output=True, text=True, env=env,
                              timeout=120, check=False)

    shipped = read(photos[0])
    assert shipped.returncode == 0, shipped.stderr
    assert shipped.stderr.startswith(f"reading with model folder {DEFAULT_MODEL_DIR} (the shipped model")

    learnt = models_folder(root) / "house-deck-001"  # an enrolled model (here: the shipped files, linked)
    learnt.mkdir(parents=True)
    for file in DEFAULT_MODEL_DIR.iterdir():
        (learnt / file.name).symlink_to(file)
    set_active(learnt, "house-deck@v1", root=root)
    active = read(photos[0], "--json")
    assert active.returncode == 0, active.stderr
    assert f"reading with model folder {learnt} (the active model house-deck-001" in active.stderr
    assert "learnt for house-deck@v1" in active.stderr
    assert json.loads(active.stdout.splitlines()[0])["cards"]  # stdout stays JSON
    told = read(photos[0], "--models", str(DEFAULT_MODEL_DIR))
    assert f"reading with model folder {DEFAULT_MODEL_DIR} (--models)" in told.stderr
