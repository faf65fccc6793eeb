"""Tampering shows: a flipped byte, a deleted, reordered or forged row, a dropped trigger, a cut-off end."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from journal import Journal, JournalCorrupted, JournalReader, ManualClock, VerifyReport
from journal.chain import canonical_json, header_json
from journal.events import DiceRolled
from journal.simulate import fill
from journal.store import _TRIGGERS

DB = "journal.sqlite3"
KEY = "kiosk.key"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One journal of six rounds, written once (durable commits cost time) and copied for each test."""
    folder = tmp_path_factory.mktemp("template")
    journal = Journal.open(folder / DB, folder / KEY, kiosk_id="K-7", table_id="T3", clock=ManualClock())
    assert journal.recover().sound
    fill(journal, 6, seed=3)
    journal.append(DiceRolled((2, 5, 5)))
    journal.close()  # the last connection: SQLite folds the WAL into the file
    assert not (folder / (DB + "-wal")).exists()
    return folder


@pytest.fixture
def folder(template: Path, tmp_path: Path) -> Path:
    for name in (DB, KEY):
        shutil.copy2(template / name, tmp_path / name)
    return tmp_path


def _verify(folder: Path) -> VerifyReport:
    with JournalReader.open(folder / DB, folder / KEY) as reader:
        return reader.verify()


@contextmanager
def _untriggered(folder: Path) -> Iterator[sqlite3.Connection]:
    """What someone with the file would do: drop the triggers, change rows, put the triggers back."""
    connection = sqlite3.connect(folder / DB, isolation_level=None)
    for name in _TRIGGERS:
        connection.execute(f"DROP TRIGGER {name}")
    yield connection
    for sql in _TRIGGERS.values():
        connection.execute(sql)
    connection.close()


def _count(folder: Path) -> int:
    with sqlite3.connect(folder / DB) as connection:
        return int(connection.execute("SELECT COUNT(*) FROM events").fetchone()[0])


def test_the_untouched_journal_verifies(folder: Path) -> None:
    report = _verify(folder)
    assert report.ok and report.events == _count(folder)


def test_a_flipped_byte_in_a_payment_is_found(folder: Path) -> None:
    data = bytearray((folder / DB).read_bytes())
    marker = b'"amount":'
    at = data.index(marker) + len(marker)  # the first digit of the first stored amount
    data[at] = ord("9") if data[at] != ord("9") else ord("8")
    (folder / DB).write_bytes(bytes(data))
    report = _verify(folder)
    assert not report.ok
    assert report.first_bad_seq is not None and "altered" in (report.problem or "")


@pytest.mark.parametrize("seed", range(4))
def test_a_flipped_byte_anywhere_in_the_events_is_found(folder: Path, seed: int) -> None:
    with sqlite3.connect(folder / DB) as connection:
        seq, payload = random.Random(seed).choice(connection.execute("SELECT seq, payload FROM events").fetchall())
    connection.close()
    data = bytearray((folder / DB).read_bytes())
    at = data.index(payload.encode()) + random.Random(seed).randrange(len(payload))
    data[at] ^= 0x01
    (folder / DB).write_bytes(bytes(data))
    report = _verify(folder)
    assert not report.ok and report.first_bad_seq == seq


def test_a_damaged_file_header_stops_the_kiosk(folder: Path) -> None:
    data = bytearray((folder / DB).read_bytes())
    data[0:16] = b"garbage garbage!"
    (folder / DB).write_bytes(bytes(data))
    with pytest.raises(JournalCorrupted, match="cannot be opened as a journal"):
        Journal.open(folder / DB, folder / KEY, kiosk_id="K-7", table_id="T3", clock=ManualClock())


def test_a_deleted_row_is_found(folder: Path) -> None:
    with _untriggered(folder) as connection:
        connection.execute("DELETE FROM events WHERE seq = 20")
    report = _verify(folder)
    assert not report.ok and report.first_bad_seq == 20 and "event 20 is missing" in (report.problem or "")


def test_reordered_rows_are_found(folder: Path) -> None:
    with _untriggered(folder) as connection:
        connection.execute("UPDATE events SET seq = -1 WHERE seq = 30")
        connection.execute("UPDATE events SET seq = 30 WHERE seq = 31")
        connection.execute("UPDATE events SET seq = 31 WHERE seq = -1")
    report = _verify(folder)
    assert not report.ok and report.first_bad_seq == 30 and "does not follow" in (report.problem or "")


def test_a_dropped_trigger_is_found(folder: Path) -> None:
    with sqlite3.connect(folder / DB) as connection:
        connection.execute("DROP TRIGGER events_no_delete")
    connection.close()
    report = _verify(folder)
    assert not report.ok and "events_no_delete" in (report.problem or "")


def test_events_cut_off_the_end_are_found(folder: Path) -> None:
    last = _count(folder)
    with _untriggered(folder) as connection:
        connection.execute("DELETE FROM events WHERE seq > ?", (last - 3,))
    report = _verify(folder)
    assert not report.ok and "cut off the end" in (report.problem or "")


def test_a_rewritten_row_with_a_recomputed_unkeyed_hash_is_found(folder: Path) -> None:
    """Changing a result and recomputing a plain SHA-256 chain does not help without the kiosk's key."""
    with _untriggered(folder) as connection:
        rows = connection.execute(
            "SELECT seq, time, mono_ns, boot_id, kiosk_id, table_id, round_id, kind, payload FROM events "
            "WHERE kind = 'round_settled' LIMIT 1").fetchall()
        seq, *header, payload = rows[0]
        changed = json.loads(payload)
        changed["payments"] = []
        text = canonical_json(changed)
        prev = connection.execute("SELECT hash FROM events WHERE seq = ?", (seq - 1,)).fetchone()[0]
        forged = hashlib.sha256((prev + header_json(seq, *header)).encode() + text.encode()).hexdigest()
        connection.execute("UPDATE events SET payload = ?, hash = ? WHERE seq = ?", (text, forged, seq))
    report = _verify(folder)
    assert not report.ok and report.first_bad_seq == seq


def test_the_kiosk_refuses_to_play_on_an_altered_journal(folder: Path) -> None:
    with _untriggered(folder) as connection:
        connection.execute("UPDATE events SET table_id = 'T9' WHERE seq = 12")
    journal = Journal.open(folder / DB, folder / KEY, kiosk_id="K-7", table_id="T3", clock=ManualClock())
    recovery = journal.recover()
    assert not recovery.sound and recovery.first_bad_seq == 12
    with pytest.raises(JournalCorrupted, match="event 12 was altered"):
        journal.append(DiceRolled((1, 1, 2)))
    journal.close()


def test_logs_verify_exits_non_zero_naming_the_first_bad_event(
    folder: Path, dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    command = [*dealer_assist, "logs", "verify", "--db", str(folder / DB), "--key", str(folder / KEY)]
    sound = subprocess.run(command, capture_output=True, text=True, env=cli_env, timeout=60)
    assert sound.returncode == 0 and "SOUND" in sound.stdout
    with _untriggered(folder) as connection:
        connection.execute("DELETE FROM events WHERE seq = 25")
    broken = subprocess.run(command, capture_output=True, text=True, env=cli_env, timeout=60)
    assert broken.returncode == 1
    assert "NOT SOUND" in broken.stdout and "first bad event: 25" in broken.stdout
