"""The store: round life cycle, recovery of an open round by replay, key file, format version, one writer."""

from __future__ import annotations

import os
import random
import sqlite3
import stat
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine import baibuu, samloc
from engine.cards import shuffled, standard_deck
from engine.games import load
from journal import (
    Journal,
    JournalCorrupted,
    JournalError,
    JournalKeyError,
    JournalReader,
    JournalVersionError,
    ManualClock,
)
from journal.events import CardsRead, DeviceDown, DiceRolled, RoundBegun
from journal.simulate import play_round


def _open(folder: Path, clock: ManualClock | None = None) -> Journal:
    return Journal.open(folder / "journal.sqlite3", folder / "kiosk.key", kiosk_id="K-7", table_id="T3",
                        clock=clock or ManualClock())


def _journal(folder: Path, clock: ManualClock | None = None) -> Journal:
    journal = _open(folder, clock)
    assert journal.recover().sound
    return journal


def _baibuu_round() -> tuple[baibuu.Settings, baibuu.Deal, baibuu.State]:
    settings = baibuu.Settings(seats=(2, 5))
    deal = baibuu.Deal.from_deck(shuffled(standard_deck(), 7))
    return settings, deal, baibuu.State(settings, deal)


def test_a_round_is_recorded_in_order_and_closed(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    settings, deal, state = _baibuu_round()
    round_id = journal.begin_round("baibuu", settings, deal.to_json())
    journal.append(DiceRolled((2, 3, 4)))
    journal.record_action(round_id, state.roll([2, 3, 4]))
    house = state.stack_of(1)
    assert house is not None
    journal.record_action(round_id, state.reveal_house(house))
    split = baibuu.house_way(house)
    journal.record_action(round_id, state.set_house(split.high.cards, split.low.cards))
    for seat in (2, 5):
        cards = state.stack_of(seat) or ()
        journal.record_action(round_id, state.set_seat(seat, 100, cards[:2], cards[2:]))
    journal.show_results(round_id, state.settle())
    journal.close_round(round_id, state.settle())
    assert journal.open_round_id is None
    kinds = [(e.kind, e.round_id) for e in journal.entries()]
    assert kinds == [("kiosk_started", None), ("round_begun", 1), ("dice_rolled", 1)] + [
        ("action_recorded", 1)] * 5 + [("results_shown", 1), ("round_settled", 1)]
    actions = [e.payload["action"] for e in journal.entries(kinds=["action_recorded"])]
    assert actions == [r.to_json() for r in state.history]
    settled = journal.last_entry()
    assert settled is not None
    assert settled.payload["nets"] == {str(k): v for k, v in state.settle().nets.items()}
    assert journal.begin_round("baibuu", settings, None) == 2


def test_the_round_life_cycle_is_enforced(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    first = journal.begin_round("samloc", {"bet": 10}, None)
    with pytest.raises(JournalError, match=f"round {first} is still open"):
        journal.begin_round("samloc", {"bet": 10}, None)
    with pytest.raises(JournalError, match="not open"):
        journal.record_action(first + 1, {"seat": 0, "pass": True})
    with pytest.raises(JournalError, match="begin_round"):
        journal.append(RoundBegun("samloc", {}, None))
    journal.void_round(first, "S-1", "test")
    with pytest.raises(JournalError, match="unknown game 'poker'"):
        journal.begin_round("poker", {}, None)
    with pytest.raises(JournalError, match="not open"):
        journal.close_round(first, {"payments": [], "nets": {}})


def test_nothing_is_written_before_the_journal_is_checked(tmp_path: Path) -> None:
    journal = _open(tmp_path)
    with pytest.raises(JournalError, match="recover"):
        journal.append(DeviceDown("shaker", "unplugged"))
    journal.close()
    with JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key") as reader:
        assert reader.count() == 0


def test_device_events_stay_off_the_round_and_dice_join_it(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    before = journal.append(DiceRolled((1, 1, 1)))
    round_id = journal.begin_round("samloc", {"bet": 10}, None)
    down = journal.append(DeviceDown("panel", "no reply for 3 s"))
    dice = journal.append(DiceRolled((6, 6, 6)))
    assert (before.round_id, down.round_id, dice.round_id) == (None, None, round_id)


@pytest.mark.parametrize("game", ["baibuu", "samloc", "schmier"])
def test_an_open_round_is_rebuilt_exactly_after_a_restart(tmp_path: Path, game: str) -> None:
    rng = random.Random(11)
    journal = _journal(tmp_path)
    round_id, _ = play_round(journal, game, rng, void=True)  # leaves a settled-or-voided history behind
    # a round interrupted half way: write part of a real round, then "crash" (close without recording a stop)
    module = load(game)
    settings, deal, state, records = _half_round(game, rng)
    open_id = journal.begin_round(game, settings, deal)
    for record in records:
        journal.record_action(open_id, record)
    journal.close(None)

    journal = _open(tmp_path)
    recovery = journal.recover()
    assert recovery.sound and recovery.open_round is not None
    found = recovery.open_round
    assert (found.round_id, found.game, found.step) == (open_id, game, "playing")
    rebuilt = module.replay(module.settings_from_json(found.settings), found.deal, list(found.actions))
    assert rebuilt == state
    journal.resume_round(open_id)
    started = next(journal.entries(kinds=["kiosk_started"], after_seq=found.entries[-1].seq))
    assert started.payload["open_round"] == open_id
    assert journal.last_entry().kind == "round_resumed"  # type: ignore[union-attr]
    assert open_id == round_id + 1


def _half_round(game: str, rng: random.Random) -> tuple[object, object, object, list[object]]:
    if game == "baibuu":
        settings, deal, state = _baibuu_round()
        records: list[object] = [state.roll([3, 3, 5])]
        house = state.stack_of(1) or ()
        records.append(state.reveal_house(house))
        return settings, deal.to_json(), state, records
    if game == "samloc":
        s_settings = samloc.Settings(bet=20)
        s_state = samloc.State.start(s_settings, samloc.random_deal(3, 0, rng))
        records = []
        while len(records) < 4 and not s_state.is_over:
            records.append(s_state.apply(s_state.legal_actions()[-1]))
        return s_settings, s_state.deal_to_json(), s_state, records
    from engine import schmier
    from engine.schmier.randomplay import random_action

    m_settings = schmier.Settings()
    m_deal = schmier.random_deal(rng, 2)
    m_state = schmier.State(m_settings, m_deal)
    records = [m_state.apply(random_action(m_state, rng)) for _ in range(8)]
    return m_settings, m_deal.to_json(), m_state, records


def test_an_open_round_can_be_voided_by_a_supervisor_after_a_restart(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    round_id = journal.begin_round("samloc", {"bet": 10}, None)
    journal.show_results(round_id, {"payments": [{"from": 0, "to": 1, "amount": 30, "reason": "3 cards left"}],
                                    "nets": {"0": -30, "1": 30}})
    journal.close(None)
    journal = _open(tmp_path)
    recovery = journal.recover()
    assert recovery.open_round is not None and recovery.open_round.step == "results_shown"
    assert recovery.open_round.shown is not None and recovery.open_round.shown.nets == {"0": -30, "1": 30}
    journal.void_round(round_id, by="S-4", reason="power cut before payout; chips returned")
    assert journal.open_round_id is None
    journal.close()
    journal = _open(tmp_path)
    assert journal.recover().open_round is None


def test_the_key_file_is_created_private_and_its_loss_is_a_clear_error(tmp_path: Path) -> None:
    _journal(tmp_path).close()
    key = tmp_path / "kiosk.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    key.rename(tmp_path / "elsewhere.key")
    with pytest.raises(JournalKeyError, match=r"the journal's key is not at .*kiosk\.key: if it was moved, give "
                       "where it is now .*; otherwise restore it from the kiosk's key backup"):
        _open(tmp_path)
    with pytest.raises(JournalKeyError, match="not at"):
        JournalReader.open(tmp_path / "journal.sqlite3", key)
    assert not key.exists()  # a new key was not made behind the supervisor's back


def test_another_kiosks_key_is_refused(tmp_path: Path) -> None:
    _journal(tmp_path).close()
    other = tmp_path / "other"
    _journal(other).close()
    with pytest.raises(JournalKeyError, match="does not belong"):
        JournalReader.open(tmp_path / "journal.sqlite3", other / "kiosk.key")
    (tmp_path / "bad.key").write_text("not a key\n")
    (tmp_path / "bad.key").chmod(0o600)
    with pytest.raises(JournalKeyError, match="64 hex digits"):
        JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "bad.key")


def test_a_journal_from_a_newer_version_is_refused_untouched(tmp_path: Path) -> None:
    _journal(tmp_path).close()
    path = tmp_path / "journal.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA user_version = 99")
    connection.close()
    before = path.read_bytes()
    with pytest.raises(JournalVersionError, match=r"newer dealer-assist .*format 99.*update dealer-assist"):
        _open(tmp_path)
    with pytest.raises(JournalVersionError):
        JournalReader.open(path, tmp_path / "kiosk.key")
    assert path.read_bytes() == before


def test_only_one_writer_at_a_time(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    with pytest.raises(JournalError, match="another process is already writing"):
        _open(tmp_path)
    with JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key") as reader:  # readers may
        assert reader.count() == 1
    journal.close()
    _open(tmp_path).close()


def test_commits_are_durable_and_rows_are_append_only(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    assert journal._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    journal.append(DiceRolled((4, 5, 6)))
    with sqlite3.connect(tmp_path / "journal.sqlite3") as other:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            other.execute("UPDATE events SET payload = '{}' WHERE seq = 2")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            other.execute("DELETE FROM events WHERE seq = 2")
    other.close()
    assert journal.verify().ok


def test_a_clock_change_is_recorded(tmp_path: Path) -> None:
    clock = ManualClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC))
    journal = _journal(tmp_path, clock)
    clock.advance(5)
    journal.append(DiceRolled((1, 2, 3)))
    clock.set_wall(clock.now() - timedelta(minutes=7))  # NTP stepped the clock back
    clock.advance(1)
    journal.append(DiceRolled((2, 2, 2)))
    kinds = [e.kind for e in journal.entries()]
    assert kinds == ["kiosk_started", "dice_rolled", "clock_changed", "dice_rolled"]
    change = next(journal.entries(kinds=["clock_changed"]))
    assert change.payload["jump_ms"] == -420_000
    clock.advance(3)
    journal.append(DiceRolled((3, 3, 3)))  # steady again: nothing more
    assert [e.kind for e in journal.entries()].count("clock_changed") == 1


def test_evidence_is_kept_by_content_hash_and_checked(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    digest = journal.store_frame(b"\xff\xd8 frame one")
    assert journal.store_frame(b"\xff\xd8 frame one") == digest  # same content, same file
    journal.append(CardsRead("seat 2", ("AS", "KD"), (0.97, 0.93), digest))
    assert journal.verify().ok
    path = journal.evidence.path(digest)
    assert path is not None
    path.write_bytes(b"\xff\xd8 another frame")
    report = journal.verify()
    assert not report.ok and report.first_bad_seq == 2 and "altered" in (report.problem or "")
    path.unlink()
    assert "missing" in (journal.verify().problem or "")


def test_an_unsound_journal_refuses_every_write_and_records_nothing(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    journal.append(DiceRolled((1, 2, 3)))
    journal.close()
    with sqlite3.connect(tmp_path / "journal.sqlite3") as connection:
        connection.execute("DROP TRIGGER events_no_update")
        connection.execute("UPDATE events SET payload = replace(payload, '[1,2,3]', '[6,6,6]') WHERE seq = 2")
    connection.close()
    size = os.path.getsize(tmp_path / "journal.sqlite3")
    journal = _open(tmp_path)
    recovery = journal.recover()
    assert not recovery.sound
    with pytest.raises(JournalCorrupted, match="never repaired"):
        recovery.raise_if_unsound()
    with pytest.raises(JournalCorrupted, match="Play is stopped"):
        journal.append(DiceRolled((4, 4, 4)))
    with pytest.raises(JournalCorrupted):
        journal.begin_round("samloc", {"bet": 10}, None)
    journal.close()
    assert os.path.getsize(tmp_path / "journal.sqlite3") == size
    with JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key") as reader:
        assert reader.count() == 3  # started, dice, stopped: nothing added since


def test_a_supervisor_can_verify_while_the_kiosk_writes(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    stop = threading.Event()

    def kiosk() -> None:
        shake = 0
        while not stop.is_set():
            shake += 1
            journal.append(DiceRolled((shake % 6 + 1, 2, 3)))

    writer = threading.Thread(target=kiosk)
    writer.start()
    try:
        with JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key") as reader:
            reports = []
            for _ in range(15):
                reports.append(reader.verify())
                time.sleep(0.02)
    finally:
        stop.set()
        writer.join()
    assert all(report.ok for report in reports), [r.problem for r in reports if not r.ok]
    assert reports[-1].events > reports[0].events  # it really was writing meanwhile
    journal.close()


def test_a_journal_started_afresh_beside_an_existing_key_says_so(tmp_path: Path) -> None:
    _journal(tmp_path).close()
    (tmp_path / "journal.sqlite3").rename(tmp_path / "kept-as-evidence.sqlite3")
    journal = _journal(tmp_path)
    kinds = [(e.kind, e.payload.get("by")) for e in journal.entries()]
    assert kinds == [("kiosk_started", None), ("note", "journal")]
    assert "previous journal was moved away or deleted" in journal.last_entry().payload["text"]  # type: ignore
    journal.close()
    journal = _journal(tmp_path)  # an ordinary restart adds no note
    assert [e.kind for e in journal.entries()].count("note") == 1
