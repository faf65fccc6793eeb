"""The floor as an ``AnchorSink``: the chain's head goes to the central store at each round's end.

The journal calls ``send`` at a round's end and carries on when it raises ``AnchorError`` (the next anchor covers
what was missed). So that an unreachable floor costs play at most one short connection timeout, a failure makes
the sink refuse at once for ``retry_s`` before trying again.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import asdict
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from floor.replication import for_writes
from journal.anchors import Anchor, AnchorError, Signer
from journal.chain import canonical_json
from journal.words import ANCHORS


class FloorAnchors:
    """Anchors kept in the floor's ``anchors`` table through ``record_anchor`` (as the kiosk's own login)."""

    def __init__(self, dsn: str, *, connect_timeout_s: int = 2, retry_s: float = 30.0) -> None:
        self.dsn = dsn
        self.connect_timeout_s = connect_timeout_s
        self.retry_s = retry_s
        self._conn: psycopg.Connection[Any] | None = None
        self._failed_at: float | None = None
        self._lock = threading.Lock()

    @property
    def where(self) -> str:
        return "the floor's central store"

    def send(self, anchor: Anchor, sign: Signer) -> None:
        fields = asdict(anchor)
        record = {**fields, "mac": sign(canonical_json(fields))}
        with self._lock:
            if self._failed_at is not None and time.monotonic() - self._failed_at < self.retry_s:
                raise AnchorError(ANCHORS["floor_unreachable"]())
            try:
                conn = self._connection()
                row = conn.execute("SELECT record_anchor(%s)", (Jsonb(record),)).fetchone()
            except psycopg.Error as error:
                self._failed_at = time.monotonic()
                self._close()
                first = (str(error).strip() or type(error).__name__).splitlines()[0]
                raise AnchorError(ANCHORS["floor_refused"](error=first)) from None
            self._failed_at = None
        if row is not None and row[0] == "mismatch":
            raise AnchorError(ANCHORS["floor_mismatch"](seq=anchor.seq))

    def _connection(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(for_writes(self.dsn), autocommit=True, connect_timeout=self.connect_timeout_s,
                                         application_name="dealer-assist anchors")
        return self._conn

    def _close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None

    def close(self) -> None:
        with self._lock:
            self._close()
