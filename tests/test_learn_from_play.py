"""Learning from play (issue 53 goal 3): the labelled examples a kiosk journal holds, and the learn command.

Real journals written through the project's own ``Journal`` API (SQLite, hash chain, evidence folder), real images
(cards of the ``five-card-draw`` deck laid on felt by ``vision.enroll.spread``), pruning by the kiosk's own evidence
retention, and the real command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from engine.cards import parse_card
from journal import Journal, JournalReader, ManualClock
from journal.events import CardsCorrected, CardsRead
from journal.play_examples import play_examples
from journal.retention import Retention, prune

REPO = Path(__file__).resolve().parent.parent
NO_PAYMENTS: dict[str, Any] = {"payments": [], "nets": {}}


def _spread(cards: tuple[str, ...], seed: int) -> tuple[bytes, list[tuple[int, int, int, int]]]:
    """A real picture of ``cards`` lying apart on felt (JPEG) and each card's box in it."""
    from vision.enroll.spread import render_spread
    from vision.synth.faces import FIVE_CARD_DRAW, load_deck

    spread = render_spread(load_deck(FIVE_CARD_DRAW), [parse_card(c) for c in cards], seed=seed, size=(640, 360),
                           card_width=110.0)
    boxes = [(int(c[:, 0].min()), int(c[:, 1].min()), int(np.ceil(c[:, 0].max())), int(np.ceil(c[:, 1].max())))
             for c in spread.corners]
    ok, data = cv2.imencode(".jpg", spread.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return bytes(data), boxes


def _open(folder: Path, clock: ManualClock | None = None) -> Journal:
    journal = Journal.open(folder / "journal.sqlite3", folder / "kiosk.key", kiosk_id="K1", table_id="T1",
                           clock=clock or ManualClock(datetime(2026, 12, 1, tzinfo=UTC)))
    assert journal.recover().sound
    return journal


def _begin(journal: Journal) -> int:
    from engine import baibuu

    return journal.begin_round("baibuu", baibuu.Settings(seats=(2,)), None)


def _read(journal: Journal, zone: str, cards: tuple[str, ...], seed: int,
          boxes: tuple[tuple[int, ...], ...] | None = None) -> tuple[str, list[tuple[int, int, int, int]]]:
    data, found = _spread(cards, seed)
    frame = journal.store_frame(data)
    journal.append(CardsRead(zone, cards, tuple(0.9 for _ in cards), frame,
                             tuple(found) if boxes is None else boxes))
    return frame, found


def test_a_settled_round_gives_its_cards_as_confirmed_the_dealers_correction_included(tmp_path: Path) -> None:
    journal = _open(tmp_path)
    round_id = _begin(journal)
    frame, boxes = _read(journal, "house.high", ("9H", "AS"), seed=1)  # the reader says 9H ...
    journal.append(CardsCorrected("house.high", ("9H", "AS"), ("7H", "AS"), by="D-7"))  # ... the dealer: 7H
    journal.close_round(round_id, NO_PAYMENTS)
    journal.close()
    with JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key") as reader:
        found = play_examples(reader)
    assert found.rounds == [round_id]
    assert [(e.card, e.read_as, e.box, e.corrected) for e in found.examples] == [
        ("7H", "9H", boxes[0], True), ("AS", "AS", boxes[1], False)]
    example = found.examples[0]
    assert example.frame == frame and example.zone == "house.high" and example.round_id == round_id
    assert example.path.exists() and cv2.imread(str(example.path)) is not None  # the evidence frame itself


def test_voided_and_open_rounds_give_no_example(tmp_path: Path) -> None:
    journal = _open(tmp_path)
    voided = _begin(journal)
    _read(journal, "house.high", ("2C", "3D"), seed=2)
    journal.void_round(voided, by="S-1", reason="a card was exposed")
    settled = _begin(journal)
    _read(journal, "house.high", ("4S", "5H"), seed=3)
    journal.close_round(settled, NO_PAYMENTS)
    _begin(journal)
    _read(journal, "house.high", ("6S", "7C"), seed=4)  # left open
    journal.close()
    with JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key") as reader:
        found = play_examples(reader)
    assert found.rounds == [settled] and sorted(e.card for e in found.examples) == ["4S", "5H"]
    assert found.voided == 1 and found.open == 1


def test_a_card_set_by_hand_gives_none_and_a_correction_before_the_reading_names_what_the_reader_said(
    tmp_path: Path,
) -> None:
    journal = _open(tmp_path)
    round_id = _begin(journal)
    # The kiosk corrects the live places and journals the confirmed cards at CONFIRM: the correction comes first.
    journal.append(CardsCorrected("seat2.high", ("KD", "2C"), ("KH", "2C"), by="D-7"))
    _read(journal, "seat2.high", ("KH", "2C"), seed=5)
    data, box = _spread(("QS",), seed=6)
    frame = journal.store_frame(data)
    journal.append(CardsRead("seat2.low", ("QS", "JD"), (0.9, 1.0), frame, (tuple(box[0]), ())))  # JD set by hand
    journal.append(CardsCorrected("seat2.low", ("QS", "JD"), ("QS", "JD", "10C"), by="D-7"))  # 10C added by hand
    journal.close_round(round_id, NO_PAYMENTS)
    journal.close()
    with JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key") as reader:
        found = play_examples(reader)
    assert sorted((e.zone, e.card, e.read_as) for e in found.examples) == [
        ("seat2.high", "2C", "2C"), ("seat2.high", "KH", "KD"), ("seat2.low", "QS", "QS")]
    assert found.by_hand == 2


def test_frames_pruned_by_the_evidence_retention_give_none_and_rounds_takes_the_newest(tmp_path: Path) -> None:
    clock = ManualClock(datetime(2026, 12, 1, tzinfo=UTC))
    journal = _open(tmp_path, clock)
    old = _begin(journal)
    _read(journal, "house.high", ("8D", "8C"), seed=7)
    journal.close_round(old, NO_PAYMENTS)
    clock.advance(31 * 24 * 3600)
    done = prune(journal, Retention(days=30, max_mb=None))  # the kiosk's own retention: round 1's frame goes
    assert done.frames == 1
    kept = []
    for seed in (8, 9):
        round_id = _begin(journal)
        _read(journal, "house.high", ("AD", "KS"), seed=seed)
        journal.close_round(round_id, NO_PAYMENTS)
        kept.append(round_id)
    journal.close()
    with JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key") as reader:
        found = play_examples(reader)
        newest = play_examples(reader, rounds=1)
    assert found.rounds == kept and found.pruned == 2 and len(found.examples) == 4
    assert all(e.round_id != old for e in found.examples)
    assert newest.rounds == kept[-1:] and {e.round_id for e in newest.examples} == {kept[-1]}


def test_an_altered_frame_gives_none(tmp_path: Path) -> None:
    journal = _open(tmp_path)
    round_id = _begin(journal)
    frame, _ = _read(journal, "house.high", ("3S", "4S"), seed=10)
    journal.close_round(round_id, NO_PAYMENTS)
    path = journal.evidence.path(frame)
    journal.close()
    assert path is not None
    path.write_bytes(path.read_bytes()[:-10] + b"0123456789")
    with JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key") as reader:
        found = play_examples(reader)
    assert found.examples == [] and found.altered == 2


def test_the_learn_command_needs_a_supervisor_and_a_journal(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "kiosk.cli", "vision", "learn-from-play", "--data", str(tmp_path)],
                            capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.returncode == 2 and "--by SUPERVISOR" in result.stderr
    result = subprocess.run([sys.executable, "-m", "kiosk.cli", "vision", "learn-from-play", "--data", str(tmp_path),
                             "--by", "S-1"], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.returncode == 2 and f"there is no journal at {tmp_path / 'journal.sqlite3'}" in result.stderr
    assert not (tmp_path / "play-jobs").exists()  # refused before anything starts in the background


@pytest.mark.slow  # about 25 s on 2 quiet cores (two tiny epochs and two ONNX exports); minutes on busy ones
def test_learn_from_play_fine_tunes_checks_and_activates_a_model_the_reader_loads(tmp_path: Path) -> None:
    """A tiny journal (three settled rounds of real pictures, one corrected card), one tiny epoch of each reader:
    a new model folder under the data folder that the reader loads, checked on the kept-out round and activated,
    the switch journaled first."""
    pytest.importorskip("ultralytics")
    from vision.active_model import active_model
    from vision.reader import CardReader

    data = tmp_path / "data"
    data.mkdir()
    journal = _open(data)
    for seed, cards in enumerate((("9H", "AS"), ("KD", "2C"), ("5S", "10H")), start=20):
        round_id = _begin(journal)
        _read(journal, "house.high", cards, seed=seed)
        if seed == 20:
            journal.append(CardsCorrected("house.high", cards, ("7H", "AS"), by="D-7"))
        journal.close_round(round_id, NO_PAYMENTS)
    journal.close()
    env = {**os.environ, "DEALER_ASSIST_DATA": str(data), "YOLO_OFFLINE": "1"}
    result = subprocess.run([sys.executable, "-m", "kiosk.cli", "vision", "learn-from-play", "--foreground", "--quick",
                             "--by", "S-1", "--data", str(data), "--threads", "2"],
                            capture_output=True, text=True, cwd=REPO, env=env, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "6 examples (1 corrected by the dealer) from 3 settled rounds" in result.stdout
    model = data / "models" / "play-001"
    manifest = json.loads((model / "reader.json").read_text())
    assert manifest["play"]["rounds"] == [1, 2] and manifest["play"]["check_examples"] == 2
    reader = CardReader(model)
    frame = cv2.imread(str(next((data / "evidence").rglob("*.jpg"))))
    assert reader.read(frame)  # the folder reads
    active = active_model(data)
    assert active.name == "play-001" and f"active model: play-001 ({active.hash})" in result.stdout
    with JournalReader.open(data / "journal.sqlite3", data / "kiosk.key") as reader_:
        (switch,) = reader_.entries(kinds=["reader_model_changed"])
    assert switch.payload["model"] == active.hash and switch.payload["by"] == "S-1"
    assert switch.payload["cards_checked"] == 2


def test_at_the_kiosk_a_corrected_card_keeps_the_box_the_reader_read_it_at(tmp_path: Path) -> None:
    """The Bài Bửu controller journals the confirmed cards at CONFIRM, after the dealer's corrections: a card the
    dealer corrected lies where the reader read the card it replaced, and that is the example; the house hand's
    other card is confirmed as read."""
    from engine.baibuu import Settings
    from engine.cards import parse_cards
    from kiosk.clock import ManualClock as KioskClock
    from kiosk.controller.baibuu import BaiBuuController
    from kiosk.controller.view import CardRead
    from kiosk.evidence import EvidenceFrame, FrameEncoding
    from vision.detection import Detection
    from vision.table_reader import SeenFrame
    from vision.zones import TableDetection

    clock = KioskClock()
    journal = Journal.open(tmp_path / "j.sqlite3", tmp_path / "k.key", kiosk_id="K1", table_id="T1", clock=clock)
    assert journal.recover().sound
    controller = BaiBuuController(Settings(seats=(2,), min_bet=10), journal, clock, lambda: 1, default_bet=100,
        confirm_repeat_s=0,  # a manual clock that never moves: CONFIRMs in a row are meant
    )
    read = {"house.high": parse_cards("9H AS"), "house.low": parse_cards("QH 4C")}
    boxes = {"9H": (10.0, 10.0, 60.0, 80.0), "AS": (70.0, 10.0, 120.0, 80.0), "QH": (10.0, 90.0, 60.0, 160.0),
             "4C": (70.0, 90.0, 120.0, 160.0)}
    placed = tuple(TableDetection(Detection(card, 0.6, boxes[str(card)]), (0.0, 0.0), zone)
                   for zone, cards in read.items() for card in cards)
    seen = EvidenceFrame(SeenFrame(7, np.full((180, 320, 3), (40, 120, 40), np.uint8), placed), FrameEncoding())
    controller.command("shake")
    controller.on_dice(1, (3, 5, 6))
    clock.advance(1)
    controller.on_table({zone: tuple(CardRead(c, 0.99) for c in cards) for zone, cards in read.items()}, frame=seen)
    controller.command("correct", zone="house.high", index=0, card=parse_card("7H"))  # the reader said 9H
    controller.command("correct", zone="house.low", index=2, card=parse_card("2D"))  # a card set by hand
    controller.command("correct", zone="house.low", index=2, card=None)  # ... and taken away again
    controller.command("confirm")
    assert controller.phase.value == "seats", controller.alert
    cited = {e.payload["zone"]: e.payload["boxes"] for e in journal.entries(kinds=["cards_read"])}
    assert cited["house.high"] == [[10, 10, 60, 80], [70, 10, 120, 80]]
    controller.command("void", reason="test")  # voided: nothing to learn from it
    assert play_examples(journal).examples == []
    journal.close()
    # Had it been settled: the same events in a settled round.
    again = Journal.open(tmp_path / "j.sqlite3", tmp_path / "k.key", kiosk_id="K1", table_id="T1", clock=clock)
    assert again.recover().sound
    round_id = _begin(again)
    for entry in list(again.entries(round_id=1, kinds=["cards_corrected", "cards_read"])):
        again.append(entry.event)
    again.close_round(round_id, NO_PAYMENTS)
    found = play_examples(again)
    again.close()
    assert sorted((e.zone, e.card, e.read_as, e.box) for e in found.examples) == [
        ("house.high", "7H", "9H", (10, 10, 60, 80)), ("house.high", "AS", "AS", (70, 10, 120, 80)),
        ("house.low", "4C", "4C", (70, 90, 120, 160)), ("house.low", "QH", "QH", (10, 90, 60, 160))]
