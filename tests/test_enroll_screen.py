"""The enrollment dialog of the kiosk in a real window (Xvfb): behind the supervisor PIN, capture a spread, see the
faces in a grid, fix one on the card picker, save the profile."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve()
sys.path.insert(0, str(THIS.parent))
from test_kiosk_ui import display  # noqa: E402,F401 - the Xvfb display fixture

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def drive_enrollment(app: Any) -> Iterator[float]:
    """Runs inside the kiosk process."""
    from engine.cards import parse_card, standard_deck
    from vision.enroll.spread import render_spread
    from vision.synth.faces import available_decks, load_deck

    result: dict[str, Any] = {}
    try:
        deck = "nicu-white" if "nicu-white" in available_decks() else "five-card-draw"
        faces = load_deck(deck)
        spreads = [render_spread(faces, list(standard_deck())[:26], seed=71).image,
                   render_spread(faces, list(standard_deck())[26:], seed=72).image]
        app.show("supervisor")
        sup = app.screens["supervisor"]
        result["locked_disabled"] = sup.enroll_button.disabled
        sup.unlock_button.trigger_action(0)
        yield 0.3
        for key in "2468":
            sup.dialog.keys[key].trigger_action(0)
        sup.dialog.keys["OK"].trigger_action(0)
        yield 0.3
        while app.catalogue.language != "km":  # opened on a Khmer screen: every word Khmer, the deck's name too
            app.language_button.trigger_action(0)
        sup.enroll_button.trigger_action(0)
        yield 0.5
        dialog = sup.dialog
        result["name_km"] = dialog.name_input.text
        import kivy.uix.textinput

        result["input_drawn_by"] = kivy.uix.textinput.Label.__name__  # Khmer typed or offered: shaped, not boxes
        app.screenshot(os.environ["KIOSK_SHOTS"], "enroll-km")
        dialog.name_input.text = "House deck"
        while app.catalogue.language != "en":
            app.language_button.trigger_action(0)
        dialog.redraw()
        shown = iter(spreads)
        dialog.frame_source = lambda: next(shown)  # the camera's picture: a photo of the spread deck
        dialog.model_dir = Path(os.environ["KIOSK_TEST_OUT"]).parent / "no-model"  # every face named by touch
        dialog.capture_button.trigger_action(0)
        yield 0.3
        dialog.capture_button.trigger_action(0)
        yield 0.5
        result["tiles"] = len(dialog.tiles)
        result["message"] = dialog.message_label.text
        result["save_enabled_before"] = not dialog.save_button.disabled
        first = min(dialog.tiles)
        dialog.tiles[first].trigger_action(0)  # no model here: every face is named by touch
        yield 0.3
        result["picker_title"] = dialog.picker.title_label.text
        dialog.picker.keys["QH"].trigger_action(0)
        yield 0.3
        result["first_after_fix"] = dialog.tiles[first].text
        result["message_after_fix"] = dialog.message_label.text
        while app.catalogue.language != "km":  # the deck's problems, and a name no folder can take, in Khmer
            app.language_button.trigger_action(0)
        dialog.redraw()
        result["problems_km"] = dialog.message_label.text.splitlines()[1:]
        dialog.name_input.text = "បៀផ្ទះ"
        dialog.capture_button.trigger_action(0)
        yield 0.2
        result["bad_name_km"] = dialog.message_label.text.splitlines()[0]
        dialog.name_input.text = "House deck"
        while app.catalogue.language != "en":
            app.language_button.trigger_action(0)
        app.screenshot(os.environ["KIOSK_SHOTS"], "enroll-grid")
        # The rest named by the spreads' known answers, through the same controller the touches drive.
        truth = {}
        for face in dialog.controller.draft.faces:
            import numpy as np

            image_index = int(face.frame.split("/")[1][:4]) - 1
            spread = render_spread(faces, list(standard_deck())[:26] if image_index == 0
                                   else list(standard_deck())[26:], seed=71 + image_index)
            centre = np.asarray(face.corners).mean(axis=0)
            i = int(np.argmin([np.linalg.norm(c.mean(axis=0) - centre) for c in spread.corners]))
            truth[face.index] = spread.cards[i]
        for index, card in truth.items():
            dialog.fix(index, card)
        yield 0.3
        result["save_enabled"] = not dialog.save_button.disabled
        dialog.save_button.trigger_action(0)
        yield 0.3
        result["saved_message"] = dialog.message_label.text
        result["learn_enabled"] = not dialog.learn_button.disabled
        result["activate_enabled"] = not dialog.activate_button.disabled  # nothing learnt yet
        result["first_card"] = str(truth[first]) == str(parse_card(str(truth[first])))
    except Exception as error:  # report, so the test shows why
        import traceback

        result["failed"] = f"{error}\n{traceback.format_exc()}"
    Path(os.environ["KIOSK_TEST_OUT"]).write_text(json.dumps(result))
    app.stop()


def test_enrollment_on_the_kiosk_behind_the_pin(display: str, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "result.json"
    shots = tmp_path / "shots"
    shots.mkdir()
    env = dict(os.environ, DISPLAY=display, KIVY_NO_ARGS="1", KIOSK_TEST_OUT=str(out), KIOSK_SHOTS=str(shots),
               KIVY_HOME=str(tmp_path / "kivy-home"), PYTHONPATH=str(REPO))
    command = [sys.executable, "-m", "kiosk.testing", "--data", str(tmp_path / "data"), "--size", "1280x800",
               "--driver", f"{THIS}:drive_enrollment", "--reader", "placed"]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, timeout=240, check=False)
    assert out.exists(), done.stdout.decode(errors="replace")[-3000:] + done.stderr.decode(errors="replace")[-3000:]
    result = json.loads(out.read_text())
    assert not result.get("failed"), result.get("failed")
    assert result["locked_disabled"] is True  # nothing to touch before the PIN
    assert result["tiles"] == 52 and "26 cards found" in result["message"]
    assert not result["save_enabled_before"]
    assert "#" in result["picker_title"]
    assert result["first_after_fix"].endswith("Q♥")
    assert "missing 51" in result["message_after_fix"]
    from test_kiosk_languages import english_words

    from kiosk.i18n import Catalogue

    assert result["problems_km"][0].startswith("ខ្វះ 51៖") and result["problems_km"][1] == "សន្លឹកមិនទាន់ដាក់ឈ្មោះ៖ 51"
    assert not [line for line in result["problems_km"] if english_words(line)]
    assert result["bad_name_km"] == Catalogue("km").text("enroll.bad_name")
    assert result["save_enabled"] and "house-deck@v1" in result["saved_message"] and result["learn_enabled"]
    assert not result["activate_enabled"]
    assert result["name_km"] == Catalogue("km").text("enroll.default_name") and not english_words(result["name_km"])
    assert result["input_drawn_by"] == "ShapedLabel"
    kept = REPO / "artifacts" / "screenshots" / "languages"
    kept.mkdir(parents=True, exist_ok=True)
    for shot in shots.glob("enroll-km*.png"):  # looked at with the other screens' Khmer screenshots
        shutil.copy(shot, kept / shot.name)
    assert (tmp_path / "data" / "decks" / "house-deck" / "v001" / "profile.json").exists()
