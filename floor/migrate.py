"""Versioned migrations of the central store: ``floor/migrations/NNNN_name.sql``, each applied once, in order.

Each file runs in its own transaction with its number recorded in ``schema_migrations``; an advisory lock keeps
two runners (two consoles starting at once) from applying the same file twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import psycopg

MIGRATIONS = Path(__file__).with_name("migrations")
_NAME = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
_LOCK = 0x466C6F6F72  # "Floor": the advisory lock every runner takes


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    path: Path


def available(folder: Path = MIGRATIONS) -> list[Migration]:
    """The migration files in order of their number (a misnamed file is an error, not skipped)."""
    found = []
    for path in sorted(folder.glob("*.sql")):
        match = _NAME.fullmatch(path.name)
        if match is None:
            raise ValueError(f"{path}: a migration is named NNNN_words.sql (four digits, lower case)")
        found.append(Migration(int(match[1]), match[2], path))
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise ValueError(f"two migrations in {folder} share a number: {versions}")
    return found


def applied(conn: psycopg.Connection) -> list[int]:
    with conn.cursor() as cur:
        cur.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")
        row = cur.fetchone()
        if row is None or not row[0]:
            return []
        cur.execute("SELECT version FROM schema_migrations ORDER BY version")
        return [int(r[0]) for r in cur.fetchall()]


def migrate(conn: psycopg.Connection, folder: Path = MIGRATIONS) -> list[Migration]:
    """Apply every migration not yet applied; returns those applied now. ``conn`` is the database owner's."""
    done_now: list[Migration] = []
    conn.autocommit = True
    conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK,))
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, "
            "applied_at timestamptz NOT NULL DEFAULT now())"
        )
        conn.execute("REVOKE ALL ON schema_migrations FROM PUBLIC")
        done = set(applied(conn))
        for migration in available(folder):
            if migration.version in done:
                continue
            with conn.transaction():
                conn.execute(migration.path.read_text(encoding="utf-8").encode("utf-8"))
                conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                             (migration.version, migration.name))
            done_now.append(migration)
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK,))
    return done_now
