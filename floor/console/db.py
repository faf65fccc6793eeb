"""A few PostgreSQL connections kept open for the console's requests (one transaction each).

The DSN may name the primary and its standby (``host=db1,db2``): requests go to whichever takes writes, and after a
failover the connections to the lost server are dropped at the next request, which connects to the new primary.
Heavy reads (reports, exports) may go to the standby through ``reading()``.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import psycopg

from engine.errors import InputError
from floor.replication import for_reads, for_writes, host_count


class StoreUnreachable(InputError):
    """No server the DSN names takes writes now: PostgreSQL is down, or a failover is under way."""


class Database:
    def __init__(self, dsn: str, size: int = 4) -> None:
        self.dsn = dsn
        self._idle: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue(maxsize=size)
        self._reads = Database(for_reads(dsn), size) if host_count(dsn) > 1 and for_reads(dsn) != dsn else self

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection inside one transaction: committed when the block ends, rolled back if it raises."""
        conn: psycopg.Connection[Any] | None = None
        try:
            with ExitStack() as stack:
                conn = self._begin(stack)
                yield conn
        except BaseException:
            if conn is not None and (conn.closed or conn.broken):
                conn = None
            raise
        finally:
            if conn is not None and not conn.closed:
                try:
                    self._idle.put_nowait(conn)
                except queue.Full:
                    conn.close()

    def reading(self) -> Any:
        """Like ``transaction()``, for reads only, on the standby when the DSN names one and it is up."""
        return self._reads.transaction()

    def _begin(self, stack: ExitStack) -> psycopg.Connection[Any]:
        """An open transaction on a kept connection, or on a new one when the kept ones lead to a lost server."""
        while True:
            try:
                conn, kept = self._idle.get_nowait(), True
            except queue.Empty:
                conn, kept = connect(self.dsn), False
            try:
                stack.enter_context(conn.transaction())
                return conn
            except psycopg.OperationalError:
                conn.close()
                if not kept:
                    raise
                self._drop_idle()  # the server they lead to is gone (a failover): every kept one with it

    def _drop_idle(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return

    def close(self) -> None:
        self._drop_idle()
        if self._reads is not self:
            self._reads.close()


def connect(dsn: str) -> psycopg.Connection[Any]:
    try:
        return psycopg.connect(for_writes(dsn), autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise StoreUnreachable(f"cannot reach the floor's PostgreSQL ({first}); check --dsn / "
                         "DEALER_ASSIST_FLOOR_DSN and that the server is running") from None
