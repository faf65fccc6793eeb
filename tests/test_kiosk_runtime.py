"""The kiosk wired up, without a window: the simulated panel and shaker over their ptys, the synthetic camera,
the journal on disk. Set-up changes are journaled; a journal that fails its check stops play."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from journal import JournalReader
from kiosk.config import load_config
from kiosk.controller.table import DiceTable
from kiosk.runtime import KioskRuntime
from vision.placed_reader import PlacedReader


def start(data: Path) -> KioskRuntime:
    holder: dict[str, PlacedReader] = {}
    runtime = KioskRuntime(
        load_config(None), data, read=lambda frame: holder["r"](frame) if "r" in holder else [], demo_seed=2
    )
    holder["r"] = PlacedReader(runtime.camera.source)
    return runtime


def pump(runtime: KioskRuntime, condition: Callable[[], bool], timeout: float = 20) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        runtime.tick()
        if condition():
            return True
        time.sleep(0.02)
    return False


@pytest.mark.slow
def test_panel_buttons_over_the_pty_drive_the_round_and_the_croupier_deals(tmp_path: Path) -> None:
    runtime = start(tmp_path / "data")
    try:
        links = runtime.devices.links
        assert pump(runtime, lambda: links["shaker"].health.value == "ok" and links["panel"].health.value == "ok")
        runtime.devices.press("CALL")
        assert pump(runtime, lambda: runtime.supervisor_called)
        assert runtime.status_text().startswith("SUPERVISOR CALLED")
        runtime.devices.press("SHAKE")
        assert pump(runtime, lambda: runtime.controller.phase.value == "house")
        assert pump(runtime, lambda: runtime.controller.view().house_set_ok is not None)
        view = runtime.controller.view()
        assert view.dice is not None and 3 <= view.dice.total <= 18
        assert runtime.health().camera.value == "ok" and runtime.health().journal.value == "ok"
    finally:
        runtime.close()
    with JournalReader.open(tmp_path / "data" / "journal.sqlite3", tmp_path / "data" / "kiosk.key") as reader:
        kinds = [entry.kind for entry in reader.entries()]
    assert "dice_rolled" in kinds and "house_split_shown" in kinds and "note" in kinds


@pytest.mark.slow
def test_set_up_changes_are_journaled_and_saved(tmp_path: Path) -> None:
    runtime = start(tmp_path / "data")
    runtime.config_path = tmp_path / "kiosk.yaml"
    try:
        settings = runtime.dice_table.table_settings.to_json()
        runtime.apply_settings({**settings, "seats": [2, 5], "commission": 0.04}, 20, by="supervisor")
        runtime.switch_game("samloc", by="supervisor")
        runtime.set_table_id("T7", by="supervisor")
        assert runtime.dice_table.table_settings.seats == (2, 5) and runtime.game == "samloc"
        # the shaker and the set-up still reach the Bài Bửu table while another game is played, through its protocol
        assert isinstance(runtime.dice_table, DiceTable) and runtime.dice_table is runtime.controllers["baibuu"]
        # the runtime's controller and table are the game played now
        assert runtime.controller is runtime.controllers["samloc"] and runtime.table.controller is runtime.controller
    finally:
        runtime.close()
    saved = load_config(tmp_path / "kiosk.yaml")
    assert saved.game == "samloc" and saved.default_bet == 20 and saved.table_id == "T7"
    assert saved.game_settings("baibuu").seats == (2, 5)
    with JournalReader.open(tmp_path / "data" / "journal.sqlite3", tmp_path / "data" / "kiosk.key") as reader:
        changed = {e.payload["setting"]: e.payload for e in reader.entries() if e.kind == "settings_changed"}
    assert changed["baibuu.seats"]["after"] == [2, 5] and changed["baibuu.seats"]["by"] == "supervisor"
    assert changed["game"]["after"] == "samloc" and changed["default_bet"]["after"] == 20
    assert changed["table_id"]["after"] == "T7"


@pytest.mark.slow
def test_an_altered_journal_stops_play_with_a_message(tmp_path: Path) -> None:
    data = tmp_path / "data"
    runtime = start(data)
    runtime.controller.command("manual_dice", dice=(1, 2, 3))
    runtime.close()
    with sqlite3.connect(data / "journal.sqlite3") as db:  # someone edits a recorded event behind the kiosk's back
        triggers = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
        for name in triggers:
            db.execute(f"DROP TRIGGER {name}")
        seq, payload = db.execute("SELECT seq, payload FROM events WHERE kind = 'action_recorded'").fetchone()
        event = json.loads(payload)
        assert event["action"]["dice"] == [1, 2, 3]
        event["action"]["dice"] = [6, 6, 6]
        db.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(event), seq))
    runtime = start(data)
    try:
        assert runtime.blocked is not None
        view = runtime.table.view()
        assert view.alert is not None and view.alert.key == "sup.verify_bad"
        assert not any(command.enabled for command in view.commands)
        runtime.table.command("shake")
        assert runtime.controller.round_id is None
        for game in ("samloc", "schmier"):  # the gate stands in front of every game's table, not only Bài Bửu's
            table = runtime.tables[game]
            table.on_button("SHAKE")
            assert table.controller.round_id is None and table.view().alert == view.alert
            assert not any(command.enabled for command in table.view().commands)
        assert runtime.health().journal.value == "down"
    finally:
        runtime.close()
