"""The kiosk side of the floor: ship every journal event to the central store, in order, exactly once.

The kiosk's SQLite journal stays the first record: the shipper only reads it (its own connection, its own thread
or process), so play never waits for the network or the central database. It asks the floor where its copy of this
kiosk ends, sends what follows in batches through ``ingest_events`` (each batch one transaction there), and polls
the journal for new events every ``poll_s``. A batch whose answer was lost (a crash, a timeout, a cut) is simply
sent again: the floor keys events by (kiosk, seq) and a resend changes nothing. After an outage it catches up by
itself. On every (re)connection the last ``recheck`` events already shipped are sent again, so a journal altered
or restored after shipping is found (the floor refuses it, keeps it aside and raises an alert).

Once the events are across, the evidence frames they cite follow (``frames_wanted`` / ``ingest_frame``), a few per
pass so that new events are never held up behind a backlog of pictures: each frame once, by its SHA-256, which the
shipper and the floor both check. A frame no longer on the kiosk's disk (pruned by the retention settings, which
the journal records) or altered there is skipped, never sent.

    shipper = Shipper("data/journal.sqlite3", "host=floor dbname=floor user=kiosk_k_07 password=…")
    thread = ShipperThread(shipper); thread.start()      # in the kiosk process
    shipper.status()                                     # for the kiosk's status bar
    thread.stop()
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from floor.errors import FloorError
from floor.replication import for_writes
from journal.evidence import EvidenceStore

_MEDIA_TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp"}
_COLUMNS = "seq, time, mono_ns, boot_id, kiosk_id, table_id, round_id, kind, payload, prev_hash, hash"
# Kept short so that a cut network shows within seconds rather than after the kernel's TCP timeouts.
_CONNECT_OPTIONS = {"connect_timeout": 3, "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
                    "keepalives_count": 2, "tcp_user_timeout": 10000, "application_name": "dealer-assist shipper"}


@dataclass(frozen=True, slots=True)
class ShipperStatus:
    """Where shipping stands, for the kiosk's status and ``floor ship``'s output."""

    state: str
    """``starting``, ``shipping``, ``caught up``, ``unreachable`` (retrying by itself) or ``refused`` (a fork or a
    gap the floor will not take, or credentials it does not know: a supervisor must look)."""
    local_seq: int = 0
    shipped_seq: int = 0
    problem: str | None = None
    last_contact: float | None = None  # time.monotonic() of the last answer from the floor

    @property
    def behind(self) -> int:
        return max(0, self.local_seq - self.shipped_seq)


@dataclass(frozen=True, slots=True)
class BatchResult:
    stored: int
    duplicates: int
    head_seq: int
    refused: str | None


class Shipper:
    """Ships one journal to the floor. Not thread-safe: one thread (``ShipperThread``) or process runs it."""

    def __init__(self, journal_path: str | Path, dsn: str, *, batch: int = 500, poll_s: float = 0.5,
                 heartbeat_s: float = 5.0, recheck: int = 200, retry_s: float = 5.0, refused_retry_s: float = 30.0,
                 on_batch: Callable[[BatchResult], None] | None = None, evidence_dir: str | Path | None = None,
                 frames_per_pass: int = 16) -> None:
        self.journal_path = Path(journal_path)
        self.evidence = EvidenceStore(Path(evidence_dir) if evidence_dir is not None
                                      else self.journal_path.parent / "evidence")
        self.frames_per_pass = frames_per_pass
        self.frames_skipped: dict[str, str] = {}
        """Frames not sent (digest -> why: pruned, missing, altered, refused), for the status and the tests."""
        self._frames_seq = 0  # every frame cited up to this event was sent or skipped (this connection)
        self.dsn = dsn
        self.batch = batch
        self.poll_s = poll_s
        self.heartbeat_s = heartbeat_s
        self.recheck = recheck
        self.retry_s = retry_s
        self.refused_retry_s = refused_retry_s
        self.on_batch = on_batch
        self._status = ShipperStatus("starting")
        self._status_lock = threading.Lock()
        self._conn: psycopg.Connection[Any] | None = None
        self._local: sqlite3.Connection | None = None
        self._next_seq = 0  # the floor holds every event before this one (0: ask it)
        self._last_sent = 0.0

    # -- status

    def status(self) -> ShipperStatus:
        with self._status_lock:
            return self._status

    def _set(self, **changes: Any) -> None:
        with self._status_lock:
            self._status = replace(self._status, **changes)

    # -- one pass

    def ship_pending(self, frames: int | None = -1) -> int:
        """Send everything the journal holds beyond the floor's copy, then up to ``frames`` evidence frames
        (-1: ``frames_per_pass``; None: every frame still wanted); returns the events stored now.

        Raises ``psycopg.OperationalError`` when the floor is unreachable (the caller retries) and ``FloorError``
        when it refuses (a fork, a gap, unknown credentials).
        """
        conn = self._connection()
        stored = 0
        while True:
            rows = self._read(self._next_seq, self.batch)
            if not rows:
                if time.monotonic() - self._last_sent >= self.heartbeat_s:
                    self._send(conn, [])
                self._set(state="caught up", problem=None)
                self.ship_frames(self.frames_per_pass if frames == -1 else frames)
                return stored
            self._set(state="shipping")
            result = self._send(conn, rows)
            stored += result.stored
            if result.refused is not None:
                self._set(state="refused", problem=result.refused)
                raise FloorError(f"the floor refused the journal: {result.refused}")
            self._next_seq = max(self._next_seq, rows[-1]["seq"] + 1)

    def ship_frames(self, most: int | None = None) -> int:
        """Upload up to ``most`` (None: all) of the frames the floor's copy cites and lacks; returns those stored."""
        conn = self._connection()
        head = self.status().shipped_seq  # every event up to here is at the floor: the query below sees them all
        if self._frames_seq >= head:
            return 0  # nothing new to look at: no query every poll for an idle table
        stored = 0
        left = most
        while left is None or left > 0:
            ask = 50 if left is None else min(left, 50)
            wanted = conn.execute("SELECT seq, digest FROM frames_wanted(%s, %s)", (self._frames_seq, ask)).fetchall()
            for seq, digest in wanted:
                stored += self._send_frame(conn, str(digest))
                self._frames_seq = max(self._frames_seq, int(seq))
            if len(wanted) < ask:
                self._frames_seq = max(self._frames_seq, head)  # looked at every reading up to the head
                break
            if left is not None:
                left -= len(wanted)
        return stored

    def _send_frame(self, conn: psycopg.Connection[Any], digest: str) -> int:
        path = self.evidence.path(digest)
        try:
            data = path.read_bytes() if path is not None else None
        except FileNotFoundError:
            data = None  # pruned between the look and the read
        if path is None or data is None:
            self.frames_skipped[digest] = "pruned" if self._pruned_locally(digest) else "missing"
            return 0
        if hashlib.sha256(data).hexdigest() != digest:
            self.frames_skipped[digest] = "altered"
            return 0
        media_type = _MEDIA_TYPES.get(path.suffix.lower(), "image/jpeg")
        try:
            row = conn.execute("SELECT ingest_frame(%s, %s, %s)", (digest, media_type, data)).fetchone()
        except (psycopg.errors.DataException, psycopg.errors.InsufficientPrivilege,
                psycopg.errors.IntegrityError) as error:
            self.frames_skipped[digest] = f"refused: {_first_line(error)}"
            return 0
        return 1 if row is not None and row[0] == "stored" else 0

    def _pruned_locally(self, digest: str) -> bool:
        """Whether the journal records deleting the frame (its evidence_pruned event may not be at the floor yet)."""
        row = self._journal().execute("SELECT 1 FROM events WHERE kind = 'evidence_pruned' AND instr(payload, ?) "
                                      "LIMIT 1", (f'"{digest}"',)).fetchone()
        return row is not None

    def _send(self, conn: psycopg.Connection[Any], rows: list[dict[str, Any]]) -> BatchResult:
        row = conn.execute("SELECT ingest_events(%s)", (Jsonb(rows),)).fetchone()
        answer = row[0] if row else {}
        result = BatchResult(int(answer.get("stored", 0)), int(answer.get("duplicates", 0)),
                             int(answer.get("head_seq", 0)), answer.get("refused"))
        self._last_sent = time.monotonic()
        self._set(shipped_seq=result.head_seq, last_contact=self._last_sent, local_seq=self._local_head())
        if self.on_batch is not None:
            self.on_batch(result)
        return result

    def _connection(self) -> psycopg.Connection[Any]:
        if self._conn is not None and not self._conn.closed:
            return self._conn
        try:
            conn = psycopg.connect(for_writes(self.dsn), autocommit=True, **_CONNECT_OPTIONS)  # type: ignore[arg-type]
        except psycopg.OperationalError as error:
            if "password authentication failed" in str(error) or "does not exist" in str(error):
                raise FloorError(f"the floor does not know this kiosk's credentials ({_first_line(error)}): "
                                 "enroll it with `dealer-assist floor add-kiosk` and check the DSN") from None
            raise
        try:
            head = conn.execute("SELECT last_seq FROM kiosk_head()").fetchone()
        except psycopg.errors.InsufficientPrivilege as error:
            conn.close()
            raise FloorError(f"the floor refuses this login: {_first_line(error)}") from None
        shipped = int(head[0]) if head else 0
        self._next_seq = max(1, shipped + 1 - self.recheck)  # resend the last few: finds a journal altered since
        self._frames_seq = 0  # ask again for every frame still lacking (one skipped before may be back)
        self._set(shipped_seq=shipped, last_contact=time.monotonic())
        self._conn = conn
        return conn

    # -- the local journal (read only)

    def _journal(self) -> sqlite3.Connection:
        if self._local is None:
            if not self.journal_path.exists():
                raise FloorError(f"there is no journal at {self.journal_path}: check the path")
            uri = f"{self.journal_path.resolve().as_uri()}?mode=ro"
            self._local = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            self._local.execute("PRAGMA busy_timeout=5000")
        return self._local

    def _local_head(self) -> int:
        row = self._journal().execute("SELECT max(seq) FROM events").fetchone()
        return int(row[0] or 0)

    def _read(self, after: int, limit: int) -> list[dict[str, Any]]:
        cursor = self._journal().execute(f"SELECT {_COLUMNS} FROM events WHERE seq >= ? ORDER BY seq LIMIT ?",
                                         (max(after, 1), limit))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    # -- the loop

    def run(self, stop: threading.Event) -> None:
        """Ship until ``stop`` is set; every failure is retried by itself (never raised)."""
        while not stop.is_set():
            wait = self.poll_s
            try:
                self.ship_pending()
                self._set(local_seq=self._local_head())
            except FloorError as error:
                self._set(state="refused", problem=str(error))
                self._drop_connection()
                wait = self.refused_retry_s
            except (psycopg.Error, OSError) as error:
                self._set(state="unreachable", problem=_first_line(error))
                self._drop_connection()
                wait = self.retry_s
            except sqlite3.Error as error:
                self._set(state="unreachable", problem=f"cannot read the journal ({error})")
                self._close_journal()
                wait = self.retry_s
            stop.wait(wait)
        self.close()

    def _drop_connection(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None

    def _close_journal(self) -> None:
        if self._local is not None:
            self._local.close()
            self._local = None

    def close(self) -> None:
        self._drop_connection()
        self._close_journal()


class ShipperThread(threading.Thread):
    """Runs a ``Shipper`` in the background of the kiosk process (a daemon: it never holds the kiosk open)."""

    def __init__(self, shipper: Shipper) -> None:
        super().__init__(name="floor-shipper", daemon=True)
        self.shipper = shipper
        self._stop_event = threading.Event()

    def run(self) -> None:
        self.shipper.run(self._stop_event)

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stop_event.set()
        self.join(timeout_s)


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]

