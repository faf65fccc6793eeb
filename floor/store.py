"""Enrolling the floor's tables and kiosks: each kiosk gets its own login role, able only to ship its own events."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

import psycopg
from psycopg import sql

from floor.errors import FloorError

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}")


@dataclass(frozen=True, slots=True)
class KioskLogin:
    """What a kiosk needs to ship: its login role and password (the DSN's host and database are the floor's)."""

    kiosk_id: str
    table_id: str
    role: str
    password: str


def role_for(kiosk_id: str) -> str:
    return "kiosk_" + re.sub(r"[^a-z0-9_]", "_", kiosk_id.lower())


def add_table(conn: psycopg.Connection, table_id: str, name: str = "") -> None:
    _check_id(table_id, "table")
    conn.execute("INSERT INTO tables (table_id, name) VALUES (%s, %s) ON CONFLICT (table_id) DO NOTHING",
                 (table_id, name))


def add_kiosk(conn: psycopg.Connection, kiosk_id: str, table_id: str, *, password: str | None = None,
              chain_key: bytes | None = None) -> KioskLogin:
    """Enroll a kiosk at a table (the table is added when new): a login role that may call the ingest functions
    and nothing else. With ``chain_key`` (the kiosk's journal key) every event's hash is checked on arrival."""
    _check_id(kiosk_id, "kiosk")
    role = role_for(kiosk_id)
    password = password or secrets.token_urlsafe(24)
    with conn.transaction():
        add_table(conn, table_id)
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
        statement = "ALTER ROLE {} LOGIN PASSWORD {}" if exists else "CREATE ROLE {} LOGIN PASSWORD {}"
        conn.execute(sql.SQL(statement).format(sql.Identifier(role), sql.Literal(password)))
        conn.execute(sql.SQL("GRANT floor_kiosk TO {}").format(sql.Identifier(role)))
        row = conn.execute("SELECT table_id FROM kiosks WHERE kiosk_id = %s", (kiosk_id,)).fetchone()
        if row is not None and row[0] != table_id:
            raise FloorError(f"kiosk {kiosk_id} is enrolled at table {row[0]}, not {table_id}: a kiosk moved to "
                             "another table is enrolled again under a new kiosk id (its journal's events name the "
                             "table they were written at)")
        conn.execute("INSERT INTO kiosks (kiosk_id, table_id, role_name) VALUES (%s, %s, %s) "
                      "ON CONFLICT (kiosk_id) DO NOTHING", (kiosk_id, table_id, role))
        if chain_key is not None:
            conn.execute("INSERT INTO kiosk_keys (kiosk_id, chain_key) VALUES (%s, %s) ON CONFLICT (kiosk_id) "
                         "DO UPDATE SET chain_key = EXCLUDED.chain_key", (kiosk_id, chain_key))
    return KioskLogin(kiosk_id, table_id, role, password)


def _check_id(value: str, what: str) -> None:
    if not _ID.fullmatch(value):
        raise FloorError(f"{what} id {value!r} is not usable: letters, digits, '.', '_' and '-', at most 63, "
                         "starting with a letter or digit")
