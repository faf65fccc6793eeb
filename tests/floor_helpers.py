"""Journals and enrolled kiosks for the floor's tests."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from floor.pg import LocalServer
from floor.store import KioskLogin, add_kiosk
from journal import Journal, ManualClock
from journal.chain import load_key
from journal.events import Note, SupervisorSignedIn
from journal.simulate import fill


@dataclass
class Kiosk:
    journal_path: Path
    key: bytes
    login: KioskLogin
    dsn: str


_made: dict[tuple[str, str, int, int], Path] = {}


def make_journal(folder: Path, kiosk_id: str, table_id: str, rounds: int, seed: int = 0) -> tuple[Path, bytes]:
    """A journal of ``rounds`` simulated rounds (every third voided), a dealer's CALL and a supervisor coming;
    written once per session (each event is fsynced) and copied for each test."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    path, key_path = folder / "journal.sqlite3", folder / "kiosk.key"
    made = _made.get((kiosk_id, table_id, rounds, seed))
    if made is None or not made.exists():
        made = Path(tempfile.mkdtemp(prefix="floor-journal-"))
        journal = Journal.open(made / path.name, made / key_path.name, kiosk_id=kiosk_id, table_id=table_id,
                               clock=ManualClock())
        journal.recover()
        fill(journal, rounds, seed, void_every=3)
        journal.append(Note(text="the dealer called the supervisor", by="dealer"))
        journal.append(SupervisorSignedIn("sup-1"))
        journal.close()
        _made[(kiosk_id, table_id, rounds, seed)] = made
    shutil.copyfile(made / path.name, path)
    shutil.copyfile(made / key_path.name, key_path)
    key_path.chmod(0o600)
    return path, load_key(key_path, create=False)


def enroll(server: LocalServer, owner_dsn: str, folder: Path, kiosk_id: str, table_id: str, rounds: int = 6,
           *, with_key: bool = True, seed: int = 0) -> Kiosk:
    path, key = make_journal(folder, kiosk_id, table_id, rounds, seed)
    with psycopg.connect(owner_dsn) as conn:
        login = add_kiosk(conn, kiosk_id, table_id, chain_key=key if with_key else None)
    dbname = psycopg.conninfo.conninfo_to_dict(owner_dsn)["dbname"]
    return Kiosk(path, key, login, server.dsn(str(dbname), login.role, login.password))


def local_events(path: Path, after: int = 0) -> list[dict[str, Any]]:
    conn = sqlite3.connect(path)
    try:
        cursor = conn.execute("SELECT seq, time, mono_ns, boot_id, kiosk_id, table_id, round_id, kind, payload, "
                              "prev_hash, hash FROM events WHERE seq > ? ORDER BY seq", (after,))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    finally:
        conn.close()


def alter_local_event(path: Path, seq: int, payload: str | None = None, hash_: str | None = None) -> None:
    """What someone editing the kiosk's SQLite file by hand does (the journal's triggers dropped first)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("DROP TRIGGER IF EXISTS events_no_update")
        if payload is not None:
            conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (payload, seq))
        if hash_ is not None:
            conn.execute("UPDATE events SET hash = ? WHERE seq = ?", (hash_, seq))
        conn.commit()
    finally:
        conn.close()


def central(owner_dsn: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(owner_dsn) as conn:
        return conn.execute(sql.encode(), params).fetchall()
