"""A real PostgreSQL for the floor's tests: one server per test session (initdb in a temporary folder, localhost
only, stopped at the end), and a fresh migrated database per test."""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from floor.migrate import migrate
from floor.pg import SUPERUSER, LocalServer

_numbers = itertools.count(1)
_TEMPLATE = "floor_template"  # migrated once; each test's database is a copy of it


@pytest.fixture(scope="session")
def floor_server() -> Iterator[LocalServer]:
    server = LocalServer.create()
    server.start()
    with psycopg.connect(server.create_database(_TEMPLATE)) as conn:
        migrate(conn)
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture
def floor_dsn(floor_server: LocalServer) -> str:
    """The owner's DSN of a new database with the floor's schema migrated in."""
    return floor_server.create_database(f"floor_test_{next(_numbers)}", template=_TEMPLATE)


@dataclass
class FloorPair:
    """A primary with a hot standby following it by streaming replication, and the floor's database on them."""

    primary: LocalServer
    standby: LocalServer
    dbname: str

    def dsn(self, user: str = SUPERUSER, password: str | None = None) -> str:
        """A DSN naming both servers, primary first, as a casino's clients name them."""
        one = self.primary.dsn(self.dbname, user, password)
        return one.replace("host=127.0.0.1 ", "host=127.0.0.1,127.0.0.1 ").replace(
            f"port={self.primary.port} ", f"port={self.primary.port},{self.standby.port} ")


def _in_memory(prefix: str) -> Path:
    """A folder in memory where the machine has one (a cluster there is made and dropped in a second, not five)."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir="/dev/shm" if Path("/dev/shm").is_dir() else None))


@pytest.fixture
def floor_pair() -> Iterator[FloorPair]:
    """A new primary and standby of their own (a test may kill the primary and promote the standby)."""
    primary = LocalServer.create(_in_memory("floor-primary-"))
    standby: LocalServer | None = None
    try:
        primary.start()
        with psycopg.connect(primary.create_database("floor")) as conn:
            migrate(conn)
        standby = LocalServer.standby_of(primary, _in_memory("floor-standby-"))
        standby.start()
        yield FloorPair(primary, standby, "floor")
    finally:
        primary.remove()
        if standby is not None:
            standby.remove()
