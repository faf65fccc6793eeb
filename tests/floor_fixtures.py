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
