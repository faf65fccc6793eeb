"""The kiosk and its journal's outside witnesses: anchors at start, at every round's end and at stop; a journal that
does not continue them stops play; an anchor that cannot be kept never does; a production config keeps its key and
anchors off the journal's folder."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from journal import Journal, JournalReader, ManualClock
from journal.anchors import AnchorFile, read_anchor_file
from journal.chain import anchor_mac, load_key
from kiosk.cli import main
from kiosk.config import JournalConfig, config_from_data
from kiosk.i18n import Catalogue, Msg
from kiosk.journal_place import recover_anchored
from kiosk.runtime import KioskRuntime
from kiosk.supervisors import hash_pin
from tests.test_kiosk_languages import english_words

SUPERVISOR_HASH = hash_pin("9753")


@pytest.fixture
def place(tmp_path: Path) -> dict[str, Path]:
    """A data folder, and two other 'volumes' for the key and the anchors."""
    folders = {name: tmp_path / name for name in ("data", "keys", "anchors")}
    for folder in folders.values():
        folder.mkdir()
    return folders


def assert_worded_in_vietnamese_and_khmer(*messages: Msg) -> None:
    for language in ("vi", "km"):
        for message in messages:
            shown = Catalogue(language).text(message)
            assert english_words(re.sub(r"\S*/\S*", "", shown)) == [], shown  # a path is shown as it is


def _start(place: dict[str, Path]) -> KioskRuntime:
    config = replace(config_from_data({"devices": {"shaker": "none", "panel": "none"},
                                       "supervisors": {"S1": SUPERVISOR_HASH}}),
                     journal=JournalConfig(key=str(place["keys"] / "kiosk.key"),
                                           anchors=str(place["anchors"] / "K1.anchors")))
    return KioskRuntime(config, place["data"], demo_seed=3)


def _anchors(place: dict[str, Path]) -> list[str]:
    key = load_key(place["keys"] / "kiosk.key", create=False)
    read = read_anchor_file(place["anchors"] / "K1.anchors", lambda text: anchor_mac(key, text))
    assert read.problem is None
    return [anchor.why for anchor in read.anchors]


def test_the_kiosk_anchors_its_start_and_stop_and_keeps_its_key_where_configured(place: dict[str, Path]) -> None:
    runtime = _start(place)
    assert runtime.blocked is None and runtime.health().journal.value == "ok"
    runtime.close()
    assert not (place["data"] / "kiosk.key").exists() and (place["keys"] / "kiosk.key").exists()
    assert _anchors(place) == ["kiosk started", "kiosk stopped"]


def _kiosk_session(place: dict[str, Path]) -> None:
    """A start and a stop as the kiosk makes them, without its devices and camera (those cost seconds)."""
    journal = Journal.open(place["data"] / "journal.sqlite3", place["keys"] / "kiosk.key", kiosk_id="K1",
                           table_id="T1", clock=ManualClock(), anchors=AnchorFile(place["anchors"] / "K1.anchors"))
    assert recover_anchored(journal).sound
    journal.close()


def test_a_kiosk_on_a_journal_swapped_for_an_older_copy_does_not_play(place: dict[str, Path]) -> None:
    _kiosk_session(place)
    shutil.copy2(place["data"] / "journal.sqlite3", place["data"] / "older.sqlite3")
    _kiosk_session(place)
    shutil.copy2(place["data"] / "older.sqlite3", place["data"] / "journal.sqlite3")
    runtime = _start(place)
    try:
        assert runtime.blocked is not None and "ROLLED BACK" in runtime.blocked.params["error"]
        assert runtime.health().journal.value == "down"
        assert runtime.desk.sign_in("S1", "9753").ok
        checked = runtime.verify_journal()  # VERIFY JOURNAL on the supervisor screen says it too
        assert checked.key == "sup.verify_bad" and "ROLLED BACK" in checked.params["error"]
        assert_worded_in_vietnamese_and_khmer(runtime.blocked, checked)  # the stop screen's words, and VERIFY's
    finally:
        runtime.close()
    with JournalReader.open(place["data"] / "journal.sqlite3", place["keys"] / "kiosk.key") as reader:
        assert reader.count() == 2  # the older copy's start and stop: the kiosk wrote nothing to it (evidence)
    assert _anchors(place) == ["kiosk started", "kiosk stopped"] * 2


def test_a_new_journal_begun_after_the_old_one_is_moved_away_plays(place: dict[str, Path]) -> None:
    _kiosk_session(place)
    (place["data"] / "journal.sqlite3").rename(place["data"] / "kept-as-evidence.sqlite3")
    _kiosk_session(place)
    assert _anchors(place) == ["kiosk started", "kiosk stopped"] * 2
    with JournalReader.open(place["data"] / "journal.sqlite3", place["keys"] / "kiosk.key") as reader:
        notes = [e.payload["text"] for e in reader.entries(kinds=["note"])]
    assert any(text.startswith("a new journal was begun: the anchors in the anchor file") for text in notes)


def test_an_anchor_volume_that_is_gone_warns_and_play_goes_on(place: dict[str, Path]) -> None:
    _kiosk_session(place)
    shutil.rmtree(place["anchors"])  # the anchor volume is not mounted today
    runtime = _start(place)
    try:
        health = runtime.health()
        assert runtime.blocked is None and health.journal.value == "warn"
        assert "does not exist: mount the anchor volume" in dict(health.details)["journal"]
        # the supervisor's Devices list words the journal light's detail in the screen's language
        detail = runtime.journal_words()
        assert_worded_in_vietnamese_and_khmer(Msg("sup.journal_line", {"health": "", "detail": detail}))
    finally:
        runtime.close()
    with JournalReader.open(place["data"] / "journal.sqlite3", place["keys"] / "kiosk.key") as reader:
        notes = [e.payload["text"] for e in reader.entries(kinds=["note"])]
    assert sum(text.startswith("the chain's head could not be anchored") for text in notes) == 1


# ---- --check of a production config ------------------------------------------------------------------------------


def _check(config_text: str, place: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = place["data"] / "kiosk.yaml"
    path.write_text(config_text)
    code = main(["kiosk", "--check", "--config", str(path), "--data", str(place["data"])])
    return code, capsys.readouterr().out


def test_check_refuses_a_production_config_that_keeps_the_key_beside_the_journal(
    place: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _check("devices: {shaker: /dev/ttyUSB0, panel: /dev/ttyUSB1}\n", place, capsys)
    assert code == 1
    assert f"REFUSED: journal.key: the journal's key {place['data'] / 'kiosk.key'} is in the journal's folder" in out
    assert "warning: journal.anchors is not set" in out

    code, out = _check(f"devices: {{shaker: /dev/ttyUSB0}}\njournal: {{key: {place['data']}/k.key, anchors: "
                       f"{place['anchors']}/a.jsonl}}\n", place, capsys)
    assert code == 1 and "REFUSED: journal.key" in out


def test_check_passes_a_production_config_with_key_and_anchors_elsewhere(
    place: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _check(f"devices: {{shaker: /dev/ttyUSB0}}\njournal: {{key: {place['keys']}/kiosk.key, anchors: "
                       f"{place['anchors']}/K1.anchors}}\n", place, capsys)
    assert code == 0 and "OK: table" in out and "REFUSED" not in out
    assert "same volume as the journal" in out  # a test's folders share one disk: said, not refused


def test_the_demo_config_is_told_where_production_keeps_the_key(
    place: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _check("table_id: T4\n", place, capsys)
    assert code == 0 and "warning: demo only: journal.key" in out and "OK: table T4" in out


def test_a_kiosk_whose_key_is_not_where_the_config_says_stops_with_where_it_looked(place: dict[str, Path]) -> None:
    _kiosk_session(place)
    (place["keys"] / "kiosk.key").rename(place["keys"] / "moved.key")
    runtime = _start(place)
    try:
        assert runtime.blocked is not None and runtime.health().journal.value == "down"
        assert runtime.blocked.params["error"].startswith(
            f"the journal's key is not at {place['keys'] / 'kiosk.key'}: if it was moved, give where it is now")
        assert_worded_in_vietnamese_and_khmer(runtime.blocked)
    finally:
        runtime.close()
    assert not (place["keys"] / "kiosk.key").exists()  # no new key made in its place
