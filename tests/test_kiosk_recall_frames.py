"""The supervisor's recall shows the evidence, in a real Kivy window under Xvfb (a fresh kiosk process): on a journal
holding a round whose readings cite frames of the rendered felt (the kiosk's own round path writing them is tested
in test_evidence_frames.py), the supervisor signs in and the recall shows a thumbnail of the camera frame the house
reading and the seats reading were made from; a tap opens it full size with the read boxes, and KEEP FOR A DISPUTE
journals a hold on that round's frames. Screenshots go to artifacts/screenshots/ (40-*, 41-*)."""

# ruff: noqa: F811 - the Xvfb `display` fixture is imported from test_kiosk_ui
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

THIS = Path(__file__).resolve()
sys.path.insert(0, str(THIS.parent))
from test_kiosk_ui import REPO, SHOTS, Probe, display  # noqa: E402,F401 - display: the Xvfb fixture

pytestmark = [pytest.mark.ui, pytest.mark.slow]

SUPERVISOR, PIN = "S1", "9753"


HOUSE = {"house.high": ("KH", "8H"), "house.low": ("9S", "5H")}
SEAT = {"seat2.high": ("2H", "2C"), "seat2.low": ("QH", "8S")}


def journal_with_a_round(data: Path) -> None:
    """A round whose house and seat readings cite frames of the rendered felt, as the kiosk journals them."""
    from engine import baibuu
    from journal import Journal
    from journal.events import CardsRead
    from kiosk.evidence import EvidenceFrame, FrameEncoding
    from vision.layout import load_layout
    from vision.sources import SyntheticTableSource
    from vision.table_reader import SeenFrame
    from vision.zones import TableDetection

    journal = Journal.open(data / "journal.sqlite3", data / "kiosk.key", kiosk_id="K1", table_id="T1")
    journal.recover()
    round_id = journal.begin_round("baibuu", baibuu.Settings(seats=(2,)), None)
    source = SyntheticTableSource(load_layout("baibuu_7"))
    for number, places in enumerate((HOUSE, SEAT)):
        for zone, cards in places.items():
            source.place(zone, cards)
        image = source.read()
        placed = tuple(TableDetection(detection, (0.0, 0.0), placed.zone) for placed, detection in
                       zip(source.placed_cards(), _boxes(source), strict=True))
        frame = EvidenceFrame(SeenFrame(number, image, placed), FrameEncoding())
        digest = frame.store(journal)
        for zone, cards in places.items():
            journal.append(CardsRead(zone, cards, (0.99, 0.98), digest, frame.boxes(zone, list(map(_card, cards)))))
    journal.void_round(round_id, by="S1", reason="misdeal")
    journal.close()
    source.close()


def _card(text: str) -> Any:
    from engine.cards import parse_card

    return parse_card(text)


def _boxes(source: Any) -> list[Any]:
    from vision.placed_reader import PlacedReader

    return PlacedReader(source)(None)


def drive_recall_frames(app: Any) -> Iterator[float]:
    p = Probe(app)
    result = p.result
    yield 0.3
    p.tap(app.nav_buttons["supervisor"])
    yield 0.3
    sup = app.screens["supervisor"]
    result["locked_thumbs"] = len(sup.recall_frames.thumbs)
    p.tap(sup.unlock_button)
    yield 0.3
    pad = sup.dialog
    if SUPERVISOR in getattr(pad, "id_buttons", {}):
        p.tap(pad.id_buttons[SUPERVISOR])
    for key in PIN:
        p.tap(pad.keys[key])
    p.tap(pad.keys["OK"])
    yield from p.until("the recall", lambda: bool(sup.recall_frames.thumbs))
    thumbs = sup.recall_frames.thumbs
    result["captions"] = [thumb.caption.text for thumb in thumbs]
    result["thumb_sizes"] = [list(thumb.picture.texture.size) if thumb.picture else None for thumb in thumbs]
    result["thumb_on_screen"] = [list(thumb.to_window(*thumb.pos)) + list(thumb.size) for thumb in thumbs]
    result["window"] = list(app.root.get_root_window().size)
    yield from p.shot("40-recall-frames")
    thumbs[1].trigger_action(0)  # tap the seats frame
    yield 0.4
    dialog = sup.recall_frames.dialog
    result["dialog"] = {"title": dialog.title_label.text, "hold": dialog.hold_button.text,
                        "picture": list(dialog.picture.texture.size), "open": dialog.parent is not None}
    yield from p.shot("41-recall-frame-enlarged")
    p.tap(dialog.hold_button)
    result["held"] = [dialog.hold_button.text, dialog.hold_button.disabled, dialog.parent is not None]
    result["recall_after_hold"] = sup.recall_text.text
    p.tap(dialog.close_button)
    yield 0.3
    result["closed"] = dialog.parent is None
    p.tap(sup.lock_button)
    yield 0.2
    result["after_lock"] = len(sup.recall_frames.thumbs)
    p.finish()


def test_the_recall_shows_the_frames_the_readings_were_made_from_and_a_dispute_keeps_them(
    display: str, tmp_path: Path
) -> None:
    from journal import JournalReader
    from kiosk.config import config_from_data, write_config
    from kiosk.supervisors import hash_pin

    config = tmp_path / "kiosk.yaml"
    write_config(config_from_data({"supervisors": {SUPERVISOR: hash_pin(PIN)}}), config)
    data = tmp_path / "data"
    journal_with_a_round(data)
    out = tmp_path / "result.json"
    env = dict(os.environ, DISPLAY=display, KIVY_NO_ARGS="1", KIOSK_TEST_OUT=str(out), KIOSK_SHOTS=str(SHOTS),
               KIVY_HOME=str(tmp_path / "kivy-home"), PYTHONPATH=str(REPO))
    command = [sys.executable, "-m", "kiosk.testing", "--data", str(data), "--config", str(config),
               "--driver", f"{THIS}:drive_recall_frames", "--reader", "placed"]
    process = subprocess.run(command, cwd=REPO, env=env, capture_output=True, timeout=120)
    text = (process.stdout + process.stderr).decode(errors="replace")
    assert out.exists(), f"the driver wrote no result (exit {process.returncode}):\n{text[-4000:]}"
    result = json.loads(out.read_text())
    assert not result.get("failed"), f"{result['failed']}\n{text[-3000:]}"

    assert result["locked_thumbs"] == 0
    assert result["captions"] == ["#1 house", "#1 seats"]
    width, height = result["window"]
    for size, (x, y, w, h) in zip(result["thumb_sizes"], result["thumb_on_screen"], strict=True):
        assert size is not None and size[0] >= 160 and size[0] > size[1]  # a picture, in the camera's shape
        assert 0 <= x <= x + w <= width and 0 <= y <= y + h <= height  # on the screen, not scrolled away
    dialog = result["dialog"]
    assert dialog["open"] and dialog["picture"] == [1920, 1080]  # the whole frame, full size
    assert dialog["title"] == "#1 seats: the camera frame of 2 readings, as kept"
    assert dialog["hold"] == "KEEP FOR A DISPUTE"
    assert result["held"] == ["KEPT FOR A DISPUTE", True, True] and result["closed"] and result["after_lock"] == 0
    assert f"Frames kept for a dispute, by {SUPERVISOR}" in result["recall_after_hold"]  # the recall says so at once
    for shot in result["shots"]:
        assert Path(shot).stat().st_size > 10_000, shot
    with JournalReader.open(data / "journal.sqlite3", data / "kiosk.key") as reader:
        held = [e.payload for e in reader.entries(kinds=["evidence_held"])]
        frames = {e.payload["frame"] for e in reader.entries(kinds=["cards_read"])}
    assert held == [{"round": 1, "by": SUPERVISOR, "reason": "dispute"}]  # a code: each screen words it
    assert len(frames) == 2
