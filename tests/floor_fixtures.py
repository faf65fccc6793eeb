"""A real PostgreSQL for the floor's tests: one server per test session (initdb in a temporary folder, localhost
only, stopped at the end), and a fresh migrated database per test."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import psycopg
import pytest

from floor.migrate import migrate
from floor.pg import LocalServer

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def floor_server() -> Iterator[LocalServer]:
    server = LocalServer.create()
    server.start()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture
def floor_dsn(floor_server: LocalServer) -> str:
    """The owner's DSN of a new database with the floor's schema migrated in."""
    dsn = floor_server.create_database(f"floor_test_{next(_numbers)}")
    with psycopg.connect(dsn) as conn:
        migrate(conn)
    return dsn
