"""The SQLite store: append-only events in one hash chain, one writer, checks that refuse a damaged journal."""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

from engine.clock import Clock
from journal import chain
from journal.anchors import Anchor, AnchorCheck, AnchorError, AnchorSink, check_anchors, gather
from journal.clock import SystemClock
from journal.errors import JournalCorrupted, JournalError, JournalKeyError, JournalVersionError
from journal.events import (
    ActionRecorded,
    ClockChanged,
    DealerSignedIn,
    DealerSignedOut,
    Event,
    EventError,
    KioskStarted,
    KioskStopped,
    Note,
    PaymentLine,
    ResultsShown,
    RoundBegun,
    RoundResumed,
    RoundSettled,
    RoundVoided,
    decode,
)
from journal.evidence import EvidenceStore
from journal.words import ANCHORS, OPENING, VERIFY, phrase_of

JSON = Any
SCHEMA_VERSION = 1
"""The journal format this code writes and reads (``PRAGMA user_version``); a newer one is refused."""

CLOCK_JUMP_MS = 2000
"""A wall clock that moves this much more or less than the monotonic clock between two events is a clock change."""

_TRIGGERS = {
    "events_no_update": "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
    "BEGIN SELECT RAISE(ABORT, 'journal events are append-only: UPDATE refused'); END",
    "events_no_delete": "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
    "BEGIN SELECT RAISE(ABORT, 'journal events are append-only: DELETE refused'); END",
}

_SCHEMA = [
    "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE events (
        seq INTEGER PRIMARY KEY,
        time TEXT NOT NULL,
        mono_ns INTEGER NOT NULL,
        boot_id TEXT NOT NULL,
        kiosk_id TEXT NOT NULL,
        table_id TEXT NOT NULL,
        round_id INTEGER,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
    )""",
    "CREATE INDEX events_by_round ON events(round_id) WHERE round_id IS NOT NULL",
    "CREATE INDEX events_by_kind ON events(kind)",
    "CREATE TABLE head (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, hash TEXT NOT NULL, "
    "mac TEXT NOT NULL)",
    *_TRIGGERS.values(),
]

_LIFECYCLE = {
    RoundBegun.KIND,
    ActionRecorded.KIND,
    ResultsShown.KIND,
    RoundSettled.KIND,
    RoundVoided.KIND,
    RoundResumed.KIND,
}
_CLOSING = (RoundSettled.KIND, RoundVoided.KIND)
_TABLE_KINDS = {"kiosk_started", "kiosk_stopped", "device_up", "device_down", "supervisor_signed_in",
                "device_refused", "device_paired", "devices_unauthenticated",
                "evidence_pruned", "evidence_held",
                "supervisor_signed_out", "settings_changed", "clock_changed", "supervisor_sign_in_failed",
                "supervisor_locked", "supervisor_added", "journal_checked",
                "dealer_signed_in", "dealer_signed_out", "dealer_sign_in_failed"}
"""Kinds about the table, never attached to the round in progress (the others are)."""


def software_version() -> str:
    try:
        return metadata.version("dealer-assist")
    except metadata.PackageNotFoundError:
        return "unknown"


# ---- values handed out -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One stored event with its place in the chain."""

    seq: int
    time: str
    mono_ns: int
    boot_id: str
    kiosk_id: str
    table_id: str
    round_id: int | None
    kind: str
    payload: dict[str, JSON]
    prev_hash: str
    hash: str

    @property
    def event(self) -> Event:
        return decode(self.kind, self.payload)

    @property
    def when(self) -> datetime:
        return datetime.fromisoformat(self.time)

    def to_json(self) -> dict[str, JSON]:
        return {
            "seq": self.seq, "time": self.time, "mono_ns": self.mono_ns, "boot_id": self.boot_id,
            "kiosk_id": self.kiosk_id, "table_id": self.table_id, "round_id": self.round_id, "kind": self.kind,
            "payload": self.payload, "prev_hash": self.prev_hash, "hash": self.hash,
        }


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The result of walking the whole journal; ``problem`` names the first bad thing found."""

    ok: bool
    events: int
    problem: str | None = None
    first_bad_seq: int | None = None
    frames: int = 0
    """Evidence frames the readings cite (each counted once)."""
    frames_pruned: int = 0
    """Of those, frames deleted by the retention settings, as an ``evidence_pruned`` event records."""


@dataclass(frozen=True, slots=True)
class OpenRound:
    """A round begun and neither settled nor voided: what the kiosk needs to rebuild it by replay."""

    round_id: int
    game: str
    settings: dict[str, JSON]
    deal: JSON
    actions: tuple[dict[str, JSON], ...]
    step: str
    """``dealt`` (no action yet), ``playing`` (actions recorded) or ``results_shown``."""
    shown: ResultsShown | None
    begun_at: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Recovery:
    """What ``Journal.recover()`` found on start."""

    sound: bool
    events: int
    problem: str | None = None
    first_bad_seq: int | None = None
    open_round: OpenRound | None = None

    def raise_if_unsound(self) -> None:
        if not self.sound:
            raise JournalCorrupted(_refusal(self.problem or "unknown problem"), seq=self.first_bad_seq)


def _refusal(problem: str) -> str:
    return OPENING["refusal"](problem=problem)


class Settlement(Protocol):
    """What an engine's ``settle()`` returns: payments (with reasons) and each party's net."""

    @property
    def payments(self) -> Sequence[Any]: ...

    @property
    def nets(self) -> Mapping[Any, int]: ...


# ---- reading ---------------------------------------------------------------------------------------------------


class JournalReader:
    """Read and check a journal; supervisors' tools open it this way (read only)."""

    def __init__(self, connection: sqlite3.Connection, key: bytes, path: Path, evidence: EvidenceStore) -> None:
        self._conn = connection
        self._key = key
        self.path = path
        self.evidence = evidence

    @classmethod
    def open(cls, path: str | Path, key_path: str | Path, *, evidence_dir: str | Path | None = None) -> JournalReader:
        path = Path(path)
        if not path.exists():
            raise JournalError(f"there is no journal at {path}: check --db (or DEALER_ASSIST_DATA)")
        key = chain.load_key(Path(key_path), create=False)
        connection = _connect(path, readonly=True)
        _check_format(connection, path, key)
        return cls(connection, key, path, EvidenceStore(_evidence_dir(path, evidence_dir)))

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> JournalReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- queries

    def count(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def entries(
        self,
        *,
        round_id: int | None = None,
        kinds: Sequence[str] | None = None,
        after_seq: int = 0,
        until_seq: int | None = None,
    ) -> Iterator[Entry]:
        """Stored events in order, optionally of one round, of some kinds, or within a range of seq."""
        where = ["seq > ?"]
        args: list[Any] = [after_seq]
        if round_id is not None:
            where.append("round_id = ?")
            args.append(round_id)
        if until_seq is not None:
            where.append("seq <= ?")
            args.append(until_seq)
        if kinds is not None:
            where.append(f"kind IN ({','.join('?' * len(kinds))})")
            args.extend(kinds)
        sql = f"SELECT {_COLUMNS} FROM events WHERE {' AND '.join(where)} ORDER BY seq"
        try:
            for row in self._conn.execute(sql, args):
                yield _entry(row)
        except (sqlite3.DatabaseError, ValueError) as error:
            raise JournalCorrupted(_refusal(OPENING["cannot_read_events"](error=error))) from None

    def last_entry(self) -> Entry | None:
        row = self._conn.execute(f"SELECT {_COLUMNS} FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        return None if row is None else _entry(row)

    def head(self) -> tuple[int, str]:
        """The last stored event's number and hash (what the events say, not the seal): (0, genesis) when empty."""
        row = self._conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        return (0, chain.GENESIS) if row is None else (int(row[0]), str(row[1]))

    def hash_at(self, seq: int) -> str | None:
        row = self._conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        return None if row is None else str(row[0])

    def journal_id(self) -> str | None:
        """The hash of the first event: names this journal among the kiosk's journals in its anchors."""
        return self.hash_at(1)

    def sign_anchor(self, text: str) -> str:
        return chain.anchor_mac(self._key, text)

    def check_anchors(self, files: Sequence[Path] = (), checkpoints: Sequence[str] = ()) -> AnchorCheck:
        """Whether this journal continues every anchor of these anchor files and checkpoints (see ``anchors``)."""
        given, problem, torn = gather(files, checkpoints, self.sign_anchor)
        result = check_anchors(self, self.journal_id(), given, problem)
        if torn:
            lines = ", ".join(map(str, torn))
            note = ANCHORS["torn"](lines=lines)
            result = replace(result, notes=(*result.notes, note))
        return result

    def round_ids(self) -> list[int]:
        rows = self._conn.execute("SELECT round_id FROM events WHERE kind = ? ORDER BY seq", (RoundBegun.KIND,))
        return [int(r[0]) for r in rows]

    def open_rounds(self) -> list[OpenRound]:
        rows = self._conn.execute(
            "SELECT round_id FROM events WHERE kind = ? AND round_id NOT IN "
            f"(SELECT round_id FROM events WHERE kind IN ({','.join('?' * len(_CLOSING))}) AND round_id IS NOT NULL) "
            "ORDER BY seq",
            (RoundBegun.KIND, *_CLOSING),
        ).fetchall()
        return [self._open_round(int(r[0])) for r in rows]

    def _open_round(self, round_id: int) -> OpenRound:
        entries = tuple(self.entries(round_id=round_id))
        begun = entries[0].event
        assert isinstance(begun, RoundBegun)
        actions: list[dict[str, JSON]] = []
        shown: ResultsShown | None = None
        step = "dealt"
        for entry in entries[1:]:
            event = entry.event
            if isinstance(event, ActionRecorded):
                actions.append(event.action)
                step, shown = "playing", None
            elif isinstance(event, ResultsShown):
                step, shown = "results_shown", event
        return OpenRound(round_id, begun.game, begun.settings, begun.deal, tuple(actions), step, shown,
                         entries[0].time, entries)

    # -- checks

    def verify(self) -> VerifyReport:
        """Walk the whole journal: file integrity, triggers, every link of the chain, the seal, evidence frames."""
        conn = self._conn
        try:
            conn.execute("BEGIN")  # one snapshot: a writer appending meanwhile is neither seen half nor blamed
            try:
                return self._verify()
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")
        except sqlite3.DatabaseError as error:
            return VerifyReport(False, 0, VERIFY["damaged"](error=error))

    def _verify(self) -> VerifyReport:
        conn = self._conn
        rows = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        if rows != ["ok"]:
            return VerifyReport(False, 0, VERIFY["damaged_integrity"](detail=rows[0]))
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version != SCHEMA_VERSION:
            return VerifyReport(False, 0, VERIFY["format"](version=version, expected=SCHEMA_VERSION))
        triggers = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall())
        for name, sql in _TRIGGERS.items():
            if _squash(triggers.get(name)) != _squash(sql):
                return VerifyReport(False, 0, VERIFY["trigger"](name=name))
        key = self._key
        expected_prev = chain.GENESIS
        expected_seq = 1
        count = 0
        frames: list[tuple[int, str]] = []
        pruned: dict[str, int] = {}
        cursor = conn.execute(  # as bytes: a flipped byte may leave text that is not UTF-8
            "SELECT seq, CAST(time AS BLOB), mono_ns, CAST(boot_id AS BLOB), CAST(kiosk_id AS BLOB), "
            "CAST(table_id AS BLOB), round_id, CAST(kind AS BLOB), CAST(payload AS BLOB), CAST(prev_hash AS BLOB), "
            "CAST(hash AS BLOB) FROM events ORDER BY seq"
        )
        for seq, time, mono, boot, kiosk, table, round_id, kind, payload, prev_hash, digest in cursor:
            count += 1
            if seq != expected_seq:
                what = VERIFY["missing" if seq > expected_seq else "duplicated"]()
                return VerifyReport(False, count, VERIFY["gap"](seq=expected_seq, what=what, next=seq), expected_seq)
            try:
                header = chain.header_json(seq, time.decode(), mono, boot.decode(), kiosk.decode(),
                                           table.decode(), round_id, kind.decode())
                prev_text, digest_text = prev_hash.decode("ascii"), digest.decode("ascii")
            except (UnicodeDecodeError, AttributeError):
                return VerifyReport(False, count, VERIFY["unreadable"](seq=seq), seq)
            if prev_text != expected_prev:
                return VerifyReport(False, count, VERIFY["out_of_order"](seq=seq, previous=seq - 1), seq)
            if chain.event_hash(key, prev_text, header, payload) != digest_text:
                return VerifyReport(False, count, VERIFY["altered"](seq=seq), seq)
            try:
                content = json.loads(payload)
                if kind in (b"cards_read", b"cards_misread") and b'"frame":"' in payload:
                    frames.append((seq, content["frame"]))
                elif kind == b"evidence_pruned":
                    pruned.update(dict.fromkeys(content["frames"], seq))
            except (ValueError, RecursionError, KeyError, TypeError):
                return VerifyReport(False, count, VERIFY["rewritten"](seq=seq), seq)
            expected_prev = digest_text
            expected_seq += 1
        head = conn.execute("SELECT seq, hash, mac FROM head WHERE id = 1").fetchone()
        last_seq = expected_seq - 1
        if head is None or head[2] != chain.head_mac(key, head[0], head[1]):
            return VerifyReport(False, count, VERIFY["seal"](), None)
        if head[0] != last_seq or head[1] != expected_prev:
            return VerifyReport(False, count, VERIFY["cut"](sealed=head[0], last=last_seq), last_seq + 1)
        gone: set[str] = set()
        for seq, frame in frames:
            if pruned.get(frame, 0) > seq and self.evidence.path(frame) is None:
                gone.add(frame)  # deleted by the retention settings, and journaled before it went
                continue
            trouble = self.evidence.check(frame)
            if trouble:
                return VerifyReport(False, count, VERIFY["event_trouble"](seq=seq, trouble=trouble), seq)
        return VerifyReport(True, count, frames=len({frame for _, frame in frames}), frames_pruned=len(gone))


_COLUMNS = "seq, time, mono_ns, boot_id, kiosk_id, table_id, round_id, kind, payload, prev_hash, hash"


def _entry(row: Sequence[Any]) -> Entry:
    try:
        payload = json.loads(row[8])
    except (ValueError, RecursionError):  # RecursionError: nested thousands deep, which the kiosk never writes
        raise JournalCorrupted(
            f"event {row[0]}: its content is not the JSON the kiosk writes (altered or damaged)"
        ) from None
    return Entry(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], payload, row[9], row[10])


def _squash(sql: str | None) -> str:
    return " ".join((sql or "").split())


def _evidence_dir(path: Path, evidence_dir: str | Path | None) -> Path:
    return Path(evidence_dir) if evidence_dir is not None else path.parent / "evidence"


def _connect(path: Path, *, readonly: bool) -> sqlite3.Connection:
    try:
        if readonly:
            connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                                         check_same_thread=False)
        else:
            connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA busy_timeout=5000")
        connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as error:
        raise JournalCorrupted(_refusal(OPENING["cannot_open"](path=path, error=error))) from None
    return connection


def _check_format(connection: sqlite3.Connection, path: Path, key: bytes) -> None:
    try:
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise JournalVersionError(OPENING["newer"](path=path, version=version, supported=SCHEMA_VERSION))
        if version < 1:
            raise JournalCorrupted(_refusal(OPENING["not_a_journal"](path=path)))
        row = connection.execute("SELECT value FROM meta WHERE name = 'key_check'").fetchone()
    except sqlite3.DatabaseError as error:
        raise JournalCorrupted(_refusal(OPENING["cannot_read"](path=path, error=error))) from None
    if row is None or row[0] != chain.key_check(key):
        raise JournalKeyError(OPENING["wrong_key"](path=path))


# ---- writing ---------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _RoundProgress:
    round_id: int
    game: str
    step: str
    actions: int


class Journal(JournalReader):
    """The kiosk's journal: the one writer. See the module docstring of ``journal`` for the life of a round."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        key: bytes,
        path: Path,
        evidence: EvidenceStore,
        *,
        kiosk_id: str,
        table_id: str,
        clock: Clock,
        boot_id: str,
        lock_fd: int,
    ) -> None:
        super().__init__(connection, key, path, evidence)
        self.kiosk_id = kiosk_id
        self.table_id = table_id
        self.clock = clock
        self.boot_id = boot_id
        self.key_path: Path | None = None
        self._lock_fd = lock_fd
        self._mutex = threading.RLock()
        self._checked = False
        self._refused: str | None = None
        self._open: _RoundProgress | None = None
        self._next_round = 1
        self._dealer = ""  # the dealer signed in now, as the journal last recorded it
        self._in_step = False  # inside step(): writes join its one transaction
        head = connection.execute("SELECT seq, hash FROM head WHERE id = 1").fetchone()
        self._head_seq, self._head_hash = (0, chain.GENESIS) if head is None else (int(head[0]), str(head[1]))
        self._last_times: tuple[datetime, int] | None = None
        self._new_with_old_key = False
        """A new journal begun with this kiosk's existing key: the previous journal was moved or deleted."""
        self.created = False
        """The journal file was made by this open (a new journal)."""
        self.anchors: AnchorSink | None = None
        self.anchor_problem: str | None = None
        """Why the last anchor could not be kept (None: kept, or no anchor sink); play goes on regardless."""
        self._pending_anchor: str | None = None
        """An anchor asked for inside a step, sent once the step is recorded."""

    @classmethod
    def open(  # type: ignore[override]
        cls,
        path: str | Path,
        key_path: str | Path,
        *,
        kiosk_id: str,
        table_id: str,
        clock: Clock | None = None,
        evidence_dir: str | Path | None = None,
        boot_id: str | None = None,
        anchors: AnchorSink | None = None,
    ) -> Journal:
        """Open (or create) the journal for writing; one process at a time. Call ``recover()`` next.

        With ``anchors``, the chain's head is sent there at every round's end and when the kiosk stops.
        """
        if not kiosk_id.strip() or not table_id.strip():
            raise JournalError("a journal needs the kiosk id and the table id from the kiosk's configuration")
        path = Path(path)
        key_path = Path(key_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        lock_fd = _take_writer_lock(path)
        try:
            existed = path.exists() and path.stat().st_size > 0
            key_existed = key_path.exists()
            key = chain.load_key(key_path, create=not existed)
            connection = _connect(path, readonly=False)
            if not _has_schema(connection):
                connection.execute("PRAGMA journal_mode=WAL")
                _create_schema(connection, key)
            _check_format(connection, path, key)  # before anything is written to a journal of another version
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
        except BaseException:
            os.close(lock_fd)
            raise
        clock = clock or SystemClock()
        if boot_id is None:
            boot_id = _machine_boot_id() if isinstance(clock, SystemClock) else uuid.uuid4().hex
        journal = cls(connection, key, path, EvidenceStore(_evidence_dir(path, evidence_dir)), kiosk_id=kiosk_id,
                      table_id=table_id, clock=clock, boot_id=boot_id, lock_fd=lock_fd)
        journal._new_with_old_key = not existed and key_existed
        journal.key_path = key_path
        journal.created = not existed
        journal.anchors = anchors
        return journal

    def close(self, reason: str | None = "kiosk shut down") -> None:
        """Record the kiosk's stop (when play was allowed) and let go of the journal."""
        with self._mutex:
            if self._lock_fd < 0:
                return
            try:
                if reason is not None and self._checked and self._refused is None:
                    self.append(KioskStopped(reason))
                    self.anchor("kiosk stopped")
            finally:
                self._conn.close()
                os.close(self._lock_fd)
                self._lock_fd = -1

    def __enter__(self) -> Journal:
        return self

    def verify(self) -> VerifyReport:
        with self._mutex:
            return super().verify()

    # -- start

    def recover(self) -> Recovery:
        """Check the journal (file, triggers, chain, seal, evidence), find the open round, record the start.

        When the journal is unsound nothing is recorded and every later write is refused.
        """
        with self._mutex:
            report = self.verify()
            if not report.ok:
                self._refused = report.problem or "unknown problem"
                self._checked = True
                return Recovery(False, report.events, report.problem, report.first_bad_seq)
            open_rounds = self.open_rounds()
            top = self._conn.execute("SELECT MAX(round_id) FROM events").fetchone()[0]
            self._next_round = int(top or 0) + 1
            self._dealer = self._last_dealer()
            open_round = open_rounds[-1] if open_rounds else None
            if open_round is not None:
                self._open = _RoundProgress(open_round.round_id, open_round.game, open_round.step,
                                            len(open_round.actions))
            last = self.last_entry()
            if last is not None and last.boot_id == self.boot_id:
                self._last_times = (last.when, last.mono_ns)
            if not self._checked:
                self._checked = True
                self.append(KioskStarted(software_version(), open_round.round_id if open_round else None))
                if self._new_with_old_key and self._head_seq == 1:
                    self.append(Note(f"a new journal was started with this kiosk's existing key {self.key_path}: "
                                     "the previous journal was moved away or deleted", by="journal"))
            return Recovery(True, self._head_seq, open_round=open_round)

    # -- any event

    def append(self, event: Event) -> Entry:
        """Record an event of the table. Dice, cards and notes belong to the round in progress, if any.

        Round events (begun, action, results, settled, voided, resumed) go through their own methods.
        """
        if event.KIND in _LIFECYCLE:
            raise JournalError(f"record {event.KIND} through the journal's round methods (begin_round, …)")
        frame = getattr(event, "frame", None)
        if frame is not None and self.evidence.path(frame) is None:
            raise JournalError(f"{event.KIND} cites evidence frame {frame[:12]}… that is not stored: keep the frame "
                               "with store_frame() first and cite the hash it returns")
        with self._mutex:
            round_id = None
            if event.KIND not in _TABLE_KINDS and self._open is not None:
                round_id = self._open.round_id
            entry = self._write(event, round_id)
            if isinstance(event, DealerSignedIn):
                self._dealer = event.dealer
            elif isinstance(event, DealerSignedOut) and event.dealer == self._dealer:
                self._dealer = ""
            return entry

    @property
    def dealer(self) -> str:
        """The dealer signed in at the table now ("" when none is): each round begun is written with their ID."""
        return self._dealer

    def _last_dealer(self) -> str:
        row = self._conn.execute("SELECT kind, payload FROM events WHERE kind IN (?, ?) ORDER BY seq DESC LIMIT 1",
                                 (DealerSignedIn.KIND, DealerSignedOut.KIND)).fetchone()
        return str(json.loads(row[1]).get("dealer", "")) if row is not None and row[0] == DealerSignedIn.KIND else ""

    def store_frame(self, data: bytes, suffix: str = ".jpg") -> str:
        """Keep an encoded camera frame as evidence; returns its hash for ``CardsRead.frame``."""
        return self.evidence.put(data, suffix)

    # -- the round

    @property
    def open_round_id(self) -> int | None:
        return None if self._open is None else self._open.round_id

    def begin_round(self, game: str, settings: Mapping[str, JSON] | Any, deal: JSON) -> int:
        """Start a round: the game, its settings (``Settings`` or its JSON) and the deal (JSON). Returns its id."""
        from engine.games import GAMES

        if game not in GAMES:
            raise JournalError(f"unknown game {game!r}: the kiosk plays {', '.join(GAMES)}")
        settings_json = dict(settings.to_json() if hasattr(settings, "to_json") else settings)
        with self._mutex:
            if self._open is not None:
                raise JournalError(f"round {self._open.round_id} is still open ({self._open.step}): "
                                   "settle it or have a supervisor void it before the next round")
            round_id = self._next_round
            self._write(RoundBegun(game, settings_json, _json_ready(deal), self._dealer), round_id)
            self._next_round += 1
            self._open = _RoundProgress(round_id, game, "dealt", 0)
            return round_id

    def record_action(self, round_id: int, action: Mapping[str, JSON] | Any) -> Entry:
        """Record one action (an engine action record, or its JSON) in the order it was applied."""
        description = ""
        if hasattr(action, "to_json"):
            description = action.describe() if hasattr(action, "describe") else ""
            action = action.to_json()
        with self._mutex:
            progress = self._round(round_id)
            entry = self._write(ActionRecorded(progress.actions, dict(_json_ready(action)), description), round_id)
            progress.actions += 1
            progress.step = "playing"
            return entry

    def show_results(self, round_id: int, settlement: Settlement | Mapping[str, JSON],
                     lines: Sequence[str] = ()) -> Entry:
        """Record the results and payments about to be shown to the dealer (write first, then show)."""
        payments, nets = settlement_json(settlement)
        with self._mutex:
            progress = self._round(round_id)
            entry = self._write(ResultsShown(payments, nets, tuple(lines)), round_id)
            progress.step = "results_shown"
            return entry

    def close_round(self, round_id: int, settlement: Settlement | Mapping[str, JSON],
                    confirmed_by: str = "dealer") -> Entry:
        """Settle the round: the payments made. The round is closed; the next may begin."""
        payments, nets = settlement_json(settlement)
        with self._mutex:
            self._round(round_id)
            entry = self._write(RoundSettled(payments, nets, confirmed_by), round_id)
            self._open = None
            self.anchor(f"round {round_id} settled")
            return entry

    def void_round(self, round_id: int, by: str, reason: str) -> Entry:
        """Void the round (no money moves): who decided it and why."""
        with self._mutex:
            self._round(round_id)
            entry = self._write(RoundVoided(by, reason), round_id)
            self._open = None
            self.anchor(f"round {round_id} voided")
            return entry

    def anchor(self, why: str) -> bool:
        """Send the chain's head to the anchor sink; False when there is none or it failed.

        A sink that cannot be written never stops play: the first failure, and the return to normal, are noted
        in the journal, and ``anchor_problem`` says why for the kiosk's status. The next anchor covers every event
        recorded meanwhile.
        """
        with self._mutex:
            if self.anchors is None or not self._checked or self._refused is not None or self._head_seq < 1:
                return False
            if self._in_step:  # an anchor never names an event a failed step would take back
                self._pending_anchor = why
                return False
            journal_id = self.journal_id() or ""
            anchor = Anchor(self.kiosk_id, self.table_id, journal_id, self._head_seq, self._head_hash,
                            _iso(self.clock.now()), why)
            try:
                self.anchors.send(anchor, self.sign_anchor)
            except AnchorError as error:
                if self.anchor_problem is None:
                    self.anchor_problem = phrase_of(error)  # the sink's phrase: the kiosk's screen words it
                    self._write(Note(f"the chain's head could not be anchored ({error}); play goes on, the "
                                     "journal keeps every event, and the next anchor that is kept covers them",
                                     by="journal"), None)
                return False
            if self.anchor_problem is not None:
                self.anchor_problem = None
                self._write(Note(f"anchors are kept again in {self.anchors.where}", by="journal"), None)
            return True

    def refuse(self, problem: str) -> None:
        """Refuse every later write: a check outside the chain (the anchors) found the journal unsound."""
        with self._mutex:
            self._refused = problem

    def resume_round(self, round_id: int, by: str = "kiosk") -> Entry:
        """Record that the round found open at start is taken up again where it was."""
        with self._mutex:
            progress = self._round(round_id)
            return self._write(RoundResumed(progress.step, progress.actions, by), round_id)

    def _round(self, round_id: int) -> _RoundProgress:
        if self._open is None or self._open.round_id != round_id:
            now = "no round is open" if self._open is None else f"round {self._open.round_id} is the open one"
            raise JournalError(f"round {round_id} is not open ({now}): it is settled, voided or was never begun")
        return self._open

    @contextmanager
    def step(self) -> Iterator[None]:
        """The writes made inside are one step of a round: all of them are recorded, or none (an error inside, or
        the kiosk killed half way, leaves the journal as it was before the step). Steps inside a step join it."""
        with self._mutex:
            if self._in_step:
                yield
                return
            self._pending_anchor = None
            kept = (self._head_seq, self._head_hash, self._last_times, self._next_round,
                    None if self._open is None else replace(self._open))
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise JournalError(f"could not begin recording ({error}): nothing was recorded; check the disk") \
                    from None
            self._in_step = True
            try:
                yield
                self._conn.execute("COMMIT")
            except BaseException as error:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                self._head_seq, self._head_hash, self._last_times, self._next_round, self._open = kept
                if isinstance(error, sqlite3.Error):
                    raise JournalError(f"could not record this step ({error}): nothing of it was recorded; check "
                                       "the disk and do not show or pay its result") from None
                raise
            finally:
                self._in_step = False
            if self._pending_anchor is not None:  # the step is recorded: now its round's end is anchored
                why, self._pending_anchor = self._pending_anchor, None
                self.anchor(why)

    # -- the one place that writes

    def _write(self, event: Event, round_id: int | None) -> Entry:
        if not self._checked:
            raise JournalError("the journal has not been checked: call recover() before recording anything")
        if self._refused is not None:
            raise JournalCorrupted(_refusal(self._refused))
        if self._lock_fd < 0:
            raise JournalError("the journal is closed")
        now = self.clock.now()
        if now.tzinfo is None:
            raise JournalError("the clock gave a time without a time zone; the journal keeps UTC")
        mono = self.clock.monotonic_ns()
        if self._last_times is not None and not isinstance(event, ClockChanged):
            jump = _clock_jump_ms(self._last_times, now, mono)
            if abs(jump) > CLOCK_JUMP_MS:
                before = self._last_times[0]
                self._last_times = None
                self._write(ClockChanged(_iso(before), _iso(now), jump), None)
        payload = chain.canonical_json(event.to_payload())
        return self._insert(now, mono, round_id, event.KIND, payload)

    def _insert(self, now: datetime, mono: int, round_id: int | None, kind: str, payload: str) -> Entry:
        seq = self._head_seq + 1
        time = _iso(now)
        header = chain.header_json(seq, time, mono, self.boot_id, self.kiosk_id, self.table_id, round_id, kind)
        digest = chain.event_hash(self._key, self._head_hash, header, payload.encode("utf-8"))
        conn = self._conn
        own = not self._in_step  # inside a step, the step begins and commits the transaction
        try:
            if own:
                conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(
                    f"INSERT INTO events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (seq, time, mono, self.boot_id, self.kiosk_id, self.table_id, round_id, kind, payload,
                     self._head_hash, digest),
                )
                conn.execute("UPDATE head SET seq = ?, hash = ?, mac = ? WHERE id = 1",
                             (seq, digest, chain.head_mac(self._key, seq, digest)))
                if own:
                    conn.execute("COMMIT")
            except BaseException:
                if own and conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise JournalError(f"could not record {kind} ({error}): nothing was recorded; check the disk "
                               "and do not show or pay this result until it is recorded") from None
        entry = Entry(seq, time, mono, self.boot_id, self.kiosk_id, self.table_id, round_id, kind,
                      json.loads(payload), self._head_hash, digest)
        self._head_seq, self._head_hash = seq, digest
        self._last_times = (now, mono)
        return entry


def settlement_json(settlement: Settlement | Mapping[str, JSON]) -> tuple[tuple[PaymentLine, ...], dict[str, int]]:
    """Payments and nets (party names as text) from an engine settlement or its JSON form."""
    if isinstance(settlement, Mapping):
        raw_payments = settlement.get("payments", ())
        raw_nets = settlement.get("nets", {})
    else:
        raw_payments, raw_nets = settlement.payments, settlement.nets
    payments = []
    for payment in raw_payments:
        data = payment.to_json() if hasattr(payment, "to_json") else payment
        payments.append(PaymentLine.from_json(data))
    nets: dict[str, int] = {}
    for party, amount in dict(raw_nets).items():
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise EventError(f"the net of {party} is a whole number of chips, not {amount!r}")
        nets[str(party)] = amount
    return tuple(payments), nets


def _json_ready(value: JSON) -> JSON:
    try:
        return json.loads(chain.canonical_json(value))
    except (TypeError, ValueError) as error:
        raise EventError(f"cannot record a value that is not plain JSON ({error})") from None


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _clock_jump_ms(last: tuple[datetime, int], now: datetime, mono: int) -> int:
    wall_ms = (now - last[0]).total_seconds() * 1000
    mono_ms = (mono - last[1]) / 1e6
    return round(wall_ms - mono_ms)


def _has_schema(connection: sqlite3.Connection) -> bool:
    return bool(connection.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'events'").fetchone()[0])


def _create_schema(connection: sqlite3.Connection, key: bytes) -> None:
    connection.execute("BEGIN IMMEDIATE")
    try:
        for statement in _SCHEMA:
            connection.execute(statement)
        connection.execute("INSERT INTO meta VALUES ('key_check', ?)", (chain.key_check(key),))
        connection.execute("INSERT INTO meta VALUES ('created_by', ?)", (software_version(),))
        connection.execute("INSERT INTO head VALUES (1, 0, ?, ?)",
                           (chain.GENESIS, chain.head_mac(key, 0, chain.GENESIS)))
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def _take_writer_lock(path: Path) -> int:
    lock_path = path.with_name(path.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise JournalError(f"another process is already writing the journal {path}: only one kiosk program "
                           "may run per journal (stop the other one first)") from None
    return fd


def _machine_boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return uuid.uuid4().hex
