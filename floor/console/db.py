"""A few PostgreSQL connections kept open for the console's requests (one transaction each)."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from engine.errors import InputError


class Database:
    def __init__(self, dsn: str, size: int = 4) -> None:
        self.dsn = dsn
        self._idle: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue(maxsize=size)

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection inside one transaction: committed when the block ends, rolled back if it raises."""
        try:
            conn = self._idle.get_nowait()
        except queue.Empty:
            conn = connect(self.dsn)
        try:
            with conn.transaction():
                yield conn
        except BaseException:
            if conn.closed or conn.broken:
                conn = None  # type: ignore[assignment]
            raise
        finally:
            if conn is not None and not conn.closed:
                try:
                    self._idle.put_nowait(conn)
                except queue.Full:
                    conn.close()

    def close(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return


def connect(dsn: str) -> psycopg.Connection[Any]:
    try:
        return psycopg.connect(dsn, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise InputError(f"cannot reach the floor's PostgreSQL ({first}); check --dsn / "
                         "DEALER_ASSIST_FLOOR_DSN and that the server is running") from None
