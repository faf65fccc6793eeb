"""Supervisors sign in as themselves: salted slow PIN hashes, a lock-out that grows, a session that locks itself after
two minutes without a touch (on the kiosk's clock, moved by hand here), every try and action on record with who;
a kiosk whose journal failed its check still lets a supervisor in, recording beside the refused journal."""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from journal import JournalReader
from journal.events import Event
from kiosk.clock import ManualClock
from kiosk.config import config_from_data, load_config, write_config
from kiosk.demo import DEMO_SUPERVISOR, demo_supervisor
from kiosk.model_hashes import SOFTWARE_SETTING
from kiosk.runtime import STOPPED_JOURNAL, KioskRuntime
from kiosk.supervisors import (
    FREE_TRIES,
    SignInDesk,
    hash_pin,
    pin_hash_problem,
    pin_matches,
    pin_problem,
)

PINS = {"S1": "9753", "S2": "318642"}


@pytest.fixture(scope="module")
def hashes() -> dict[str, str]:
    return {who: hash_pin(pin) for who, pin in PINS.items()}


def desk_of(hashes: dict[str, str]) -> tuple[SignInDesk, ManualClock, list[Event]]:
    clock = ManualClock()
    recorded: list[Event] = []
    return SignInDesk(lambda: hashes, clock, recorded.append), clock, recorded


def payloads(events: list[Event]) -> list[tuple[str, dict[str, Any]]]:
    return [(type(e).KIND, e.to_payload()) for e in events]


# ---- the PIN hash --------------------------------------------------------------------------------------------------
def test_a_pin_hash_is_salted_slow_and_says_nothing_of_the_pin(hashes: dict[str, str]) -> None:
    again = hash_pin(PINS["S1"])
    assert again != hashes["S1"]  # salted: the same PIN never gives the same line twice
    assert hashes["S1"].startswith("$argon2id$") and "9753" not in hashes["S1"]
    assert pin_hash_problem(hashes["S1"]) is None and pin_hash_problem(again) is None
    assert pin_matches(hashes["S1"], "9753") and pin_matches(again, "9753")
    assert not pin_matches(hashes["S1"], "9754") and not pin_matches(hashes["S1"], "")
    assert not pin_matches("g" * 64, "9753")  # a malformed hash matches nothing, without a traceback


@pytest.mark.parametrize("pin", ["123", "1234567890123", "12a4", "1111", "1234", "9876", "٣٤٥٦"])
def test_a_pin_too_short_long_or_guessed_first_is_refused(pin: str) -> None:
    assert pin_problem(pin) is not None
    with pytest.raises(ValueError):
        hash_pin(pin)


# ---- lock-out ------------------------------------------------------------------------------------------------------
def test_five_wrong_pins_lock_sign_in_with_a_growing_delay_and_each_try_is_recorded(hashes: dict[str, str]) -> None:
    desk, clock, recorded = desk_of(hashes)
    answers = [desk.sign_in("S1", wrong) for wrong in ("1357", "2460", "8642", "5555")]
    assert [a.message_key for a in answers] == ["signin.wrong"] * 4
    assert [a.tries_left for a in answers] == [4, 3, 2, 1]
    fifth = desk.sign_in("S2", "0000")  # another ID does not start a count of its own
    assert not fifth.ok and fifth.message_key == "signin.locked" and fifth.locked_for_s == 30
    refused = desk.sign_in("S1", PINS["S1"])  # the right PIN while locked out is refused too
    assert not refused.ok and refused.message_key == "signin.locked" and desk.who is None
    clock.advance(29)
    assert not desk.sign_in("S1", PINS["S1"]).ok
    clock.advance(1)
    assert desk.locked_for() == 0
    sixth = desk.sign_in("S1", "1470")
    assert sixth.locked_for_s == 60  # doubled
    clock.advance(60)
    assert desk.sign_in("S1", "1470").locked_for_s == 120
    clock.advance(120)
    assert desk.sign_in("S1", PINS["S1"]).ok and desk.who == "S1" and desk.failures == 0
    kinds = payloads(recorded)
    failed = [p for k, p in kinds if k == "supervisor_sign_in_failed"]
    assert len(failed) == 9  # every refused try, the ones while locked out included
    assert [p["supervisor"] for p in failed[:5]] == ["S1"] * 4 + ["S2"]
    assert [p["locked_for_s"] for p in failed[:5]] == [0, 0, 0, 0, 30]
    assert kinds[-1] == ("supervisor_signed_in", {"supervisor": "S1"})
    text = json.dumps(kinds)
    for pin in ("1357", "2460", "8642", "5555", "0000", "1470", PINS["S1"]):
        assert pin not in text  # no PIN, right or wrong, is ever recorded


def test_the_longest_lock_out_is_fifteen_minutes(hashes: dict[str, str]) -> None:
    desk, clock, _ = desk_of(hashes)
    waits = []
    for _ in range(FREE_TRIES + 8):
        clock.advance(desk.locked_for())
        waits.append(desk.sign_in("S1", "2222").locked_for_s)
    assert waits[FREE_TRIES - 1 :] == [30, 60, 120, 240, 480, 900, 900, 900, 900]


def test_an_unknown_id_is_refused_and_counted_like_a_wrong_pin(hashes: dict[str, str]) -> None:
    desk, _, recorded = desk_of(hashes)
    answer = desk.sign_in("S9", PINS["S1"])
    assert not answer.ok and desk.failures == 1
    assert payloads(recorded)[-1][1]["reason"] == "no such supervisor"


# ---- the signed-in session -----------------------------------------------------------------------------------------
def test_a_session_locks_after_two_minutes_without_a_touch(hashes: dict[str, str]) -> None:
    desk, clock, recorded = desk_of(hashes)
    assert desk.sign_in("S2", PINS["S2"]).ok
    clock.advance(119)
    assert desk.current() == "S2"
    desk.touch()  # a touch starts the two minutes again
    clock.advance(119)
    assert desk.current() == "S2"
    clock.advance(1)
    assert desk.current() is None
    assert payloads(recorded)[-1] == ("supervisor_locked", {"supervisor": "S2", "reason": "no touch for 120 s"})
    desk.touch()  # a touch after the lock does not sign anyone back in
    assert desk.current() is None


def test_signing_in_as_another_supervisor_signs_the_first_out(hashes: dict[str, str]) -> None:
    desk, _, recorded = desk_of(hashes)
    desk.sign_in("S1", PINS["S1"])
    desk.sign_in("S2", PINS["S2"])
    kinds = [k for k, _ in payloads(recorded)]
    assert kinds == ["supervisor_signed_in", "supervisor_signed_out", "supervisor_signed_in"]
    assert desk.who == "S2"


# ---- the kiosk: who, on record -------------------------------------------------------------------------------------
def start(data: Path, config: Any, clock: ManualClock, config_path: Path | None = None) -> KioskRuntime:
    return KioskRuntime(config, data, clock=clock, read=lambda frame: [], demo_seed=3, config_path=config_path)


def entries(journal: Path) -> list[tuple[str, dict[str, Any]]]:
    with JournalReader.open(journal / "journal.sqlite3", journal / "kiosk.key") as reader:
        return [(e.kind, e.payload) for e in reader.entries()]


@pytest.mark.slow
def test_the_journal_names_the_supervisor_of_every_action(tmp_path: Path, hashes: dict[str, str]) -> None:
    clock = ManualClock()
    runtime = start(tmp_path / "data", config_from_data({"supervisors": hashes}), clock)
    try:
        assert runtime.table_screen() == "table-baibuu"
        assert not runtime.desk.sign_in("S1", "1358").ok
        assert runtime.desk.sign_in("S2", PINS["S2"]).ok
        runtime.verify_journal()
        settings = runtime.dice_table.table_settings.to_json()
        runtime.apply_settings({**settings, "max_bet": 500}, 10, by=runtime.supervisor)
        clock.advance(120)
        runtime.tick()  # the kiosk's loop locks an idle session
        assert runtime.desk.who is None
        with pytest.raises(Exception, match="sign in as a supervisor first"):
            runtime.supervisor  # noqa: B018
    finally:
        runtime.close()
    events = entries(tmp_path / "data")
    mine = [(k, p) for k, p in events if k.startswith(("supervisor", "journal_checked", "settings"))
            and p.get("setting") != SOFTWARE_SETTING]  # the start's own record of what it runs has no supervisor
    checked = mine[2][1]
    assert 3 <= checked.pop("events") < len(events)  # the events there were when it was checked
    assert mine == [
        ("supervisor_sign_in_failed", {"supervisor": "S1", "failures": 1, "locked_for_s": 0, "reason": "wrong PIN"}),
        ("supervisor_signed_in", {"supervisor": "S2"}),
        ("journal_checked", {"by": "S2", "sound": True, "problem": ""}),
        ("settings_changed", {"setting": "baibuu.max_bet", "before": 1000, "after": 500, "by": "S2"}),
        ("supervisor_locked", {"supervisor": "S2", "reason": "no touch for 120 s"}),
    ]


@pytest.mark.slow
def test_a_restart_does_not_wipe_out_a_lock_out(tmp_path: Path, hashes: dict[str, str]) -> None:
    config = config_from_data({"supervisors": hashes})
    runtime = start(tmp_path / "data", config, ManualClock())
    try:
        for wrong in ("1357", "2460", "8642", "5555", "1470"):
            runtime.desk.sign_in("S1", wrong)
    finally:
        runtime.close()  # the kiosk is switched off and on again
    runtime = start(tmp_path / "data", config, ManualClock())
    try:
        answer = runtime.desk.sign_in("S1", PINS["S1"])
        assert not answer.ok and answer.message_key == "signin.locked" and answer.locked_for_s == 30
        runtime.clock.advance(30)
        assert runtime.desk.sign_in("S1", "3579").locked_for_s == 60  # the count goes on from 5
        runtime.clock.advance(60)
        assert runtime.desk.sign_in("S1", PINS["S1"]).ok
    finally:
        runtime.close()
    runtime = start(tmp_path / "data", config, ManualClock())
    try:  # after a sign-in the count starts again
        assert runtime.desk.failures == 0 and runtime.desk.locked_for() == 0
    finally:
        runtime.close()


def tamper(data: Path) -> None:
    """Someone edits a recorded event behind the kiosk's back."""
    with contextlib.closing(sqlite3.connect(data / "journal.sqlite3", isolation_level=None)) as db:
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
            db.execute(f"DROP TRIGGER {name}")
        seq, payload = db.execute("SELECT seq, payload FROM events WHERE kind = 'action_recorded'").fetchone()
        event = json.loads(payload)
        event["action"]["dice"] = [6, 6, 6]
        db.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(event), seq))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
def test_a_supervisor_signs_in_on_a_kiosk_whose_journal_failed_and_is_recorded_beside_it(
    tmp_path: Path, hashes: dict[str, str]
) -> None:
    data = tmp_path / "data"
    config = config_from_data({"supervisors": hashes})
    runtime = start(data, config, ManualClock())
    runtime.controller.command("manual_dice", dice=(1, 2, 3))
    runtime.close()
    tamper(data)
    before = digest(data / "journal.sqlite3")
    runtime = start(data, config, ManualClock())
    try:
        assert runtime.blocked is not None and runtime.table_screen() == "stopped"
        assert not runtime.desk.sign_in("S2", "1111").ok
        assert runtime.desk.sign_in("S1", PINS["S1"]).ok  # on the old code this raised: the journal refuses writes
        message = runtime.verify_journal()
        assert message.key == "sup.verify_bad"
        from journal.review import recall

        assert [d.summary.round_id for d in recall(runtime.journal, 10)] == [1]  # recall reads the refused journal
        runtime.desk.sign_out()
    finally:
        runtime.close()
    assert digest(data / "journal.sqlite3") == before  # the evidence is untouched
    beside = [(k, p) for k, p in entries(data / STOPPED_JOURNAL) if k not in ("kiosk_started", "kiosk_stopped")]
    assert [k for k, _ in beside] == [
        "note",
        "supervisor_sign_in_failed",
        "supervisor_signed_in",
        "journal_checked",
        "supervisor_signed_out",
    ]
    assert beside[3][1]["by"] == "S1" and beside[3][1]["sound"] is False


@pytest.mark.slow
def test_a_journal_that_cannot_be_opened_stops_play_instead_of_the_kiosk(
    tmp_path: Path, hashes: dict[str, str]
) -> None:
    data = tmp_path / "data"
    config = config_from_data({"supervisors": hashes})
    start(data, config, ManualClock()).close()
    (data / "journal.sqlite3").write_bytes(b"not a database at all" * 100)
    for side in data.glob("journal.sqlite3-*"):
        side.unlink()
    runtime = start(data, config, ManualClock())
    try:
        assert runtime.table_screen() == "stopped" and not runtime.journal_readable
        assert "cannot be opened as a journal" in (runtime.recovery.problem or "")
        assert runtime.desk.sign_in("S2", PINS["S2"]).ok
        assert runtime.verify_journal().key == "sup.verify_bad"
        assert runtime.health().journal.value == "down"
    finally:
        runtime.close()
    assert (data / "journal.sqlite3").read_bytes() == b"not a database at all" * 100
    assert "journal_checked" in [k for k, _ in entries(data / STOPPED_JOURNAL)]


@pytest.mark.slow
def test_the_first_supervisor_is_set_up_on_a_kiosk_without_one(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.yaml"
    write_config(load_config(None), path)
    runtime = start(tmp_path / "data", load_config(path), ManualClock(), config_path=path)
    try:
        assert runtime.table_screen() == "supervisor"  # nothing is played before there is a supervisor
        with pytest.raises(Exception, match="digits in a row"):
            runtime.add_first_supervisor("4711", "1234")
        runtime.add_first_supervisor("4711", "9753")
        assert runtime.desk.who == "4711" and runtime.table_screen() == "table-baibuu"
        with pytest.raises(Exception, match="has its supervisors"):
            runtime.add_first_supervisor("4712", "8642")
    finally:
        runtime.close()
    saved = load_config(path)
    assert list(saved.supervisors) == ["4711"] and pin_matches(saved.supervisors["4711"], "9753")
    assert "9753" not in path.read_text()
    kinds = [(k, p) for k, p in entries(tmp_path / "data") if k.startswith("supervisor")]
    assert kinds == [("supervisor_added", {"supervisor": "4711", "by": "4711"}),
                     ("supervisor_signed_in", {"supervisor": "4711"})]


def test_the_demo_makes_its_own_supervisor_and_pin() -> None:
    config, pin = demo_supervisor(load_config(None))
    assert list(config.supervisors) == [DEMO_SUPERVISOR] and pin_problem(pin) is None
    assert pin_matches(config.supervisors[DEMO_SUPERVISOR], pin)
    assert load_config(None).supervisors == {}  # the built-in default itself has no PIN to guess


# ---- the command ---------------------------------------------------------------------------------------------------
def run(command: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, env=env, input=stdin, capture_output=True, text=True, timeout=60, check=False)


def test_check_refuses_a_bad_or_old_pin_hash_naming_the_key(
    tmp_path: Path, dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    path = tmp_path / "kiosk.yaml"
    for text, key in (
        ("supervisors:\n  S1: 'zz-not-a-hash'\n", "supervisors.S1: not an Argon2id PIN hash"),
        ("supervisor_pin_sha256: '" + "g" * 64 + "'\n", "supervisor_pin_sha256 is no longer accepted"),
    ):
        path.write_text(text)
        done = run([*dealer_assist, "kiosk", "--config", str(path), "--check"], cli_env)
        assert done.returncode == 2, done.stdout
        assert key in done.stderr and "--add-supervisor" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_add_supervisor_sets_a_pin_in_the_config(
    tmp_path: Path, dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    path = tmp_path / "kiosk.yaml"
    add = [*dealer_assist, "kiosk", "--config", str(path), "--add-supervisor"]
    assert run([*add, "S1"], cli_env, "9753\n").returncode == 0
    assert run([*add, "S2"], cli_env, "318642\n").returncode == 0
    refused = run([*add, "S3"], cli_env, "1111\n")
    assert refused.returncode == 2 and "one digit repeated" in refused.stderr
    done = run([*dealer_assist, "kiosk", "--config", str(path), "--check"], cli_env)
    assert done.returncode == 0 and "supervisors S1, S2" in done.stdout
    saved = load_config(path).supervisors
    assert pin_matches(saved["S1"], "9753") and pin_matches(saved["S2"], "318642")
    assert "9753" not in path.read_text()
