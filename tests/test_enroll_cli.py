"""``dealer-assist vision enroll`` through a subprocess, as a supervisor types it."""

from __future__ import annotations

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
    assert "26 cards found" in done.stdout and "name every face by hand" in done.stdout
    assert "52 faces not named yet" in done.stdout

    status = _run(dealer_assist, env, "status", "House deck")
    assert status.returncode == 0 and "#52" in status.stdout

    fixed = _run(dealer_assist, env, "confirm", "House deck", "--set", "1=AS", "--set", "2=AS", "--drop", "3")
    assert fixed.returncode == 0
    assert "AS ×2" in fixed.stdout and "51 faces" in fixed.stdout

    refused = _run(dealer_assist, env, "confirm", "House deck", "--save")
    assert refused.returncode == 2 and "cannot be saved yet" in refused.stderr
    assert refused.stderr.startswith("dealer-assist: ")

    bad = _run(dealer_assist, env, "confirm", "House deck", "--set", "4=9Z")
    assert bad.returncode == 2 and "e.g. 7=QH" in bad.stderr

    listing = _run(dealer_assist, env, "list")
    assert listing.returncode == 0 and "deck profiles: none yet" in listing.stdout


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
