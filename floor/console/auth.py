"""Console accounts: Argon2-hashed passwords, lock-out after wrong tries, server-side sessions, CSRF tokens.

A session is a random token in an HttpOnly cookie; only its SHA-256 is stored, beside the session's CSRF token, so
a copy of the database opens no session. Every form carries the CSRF token and a POST without the right one is
refused. A name is locked *at one address* for ``LOCK_MINUTES`` after ``MAX_TRIES`` wrong passwords in a row from
there (so typing a supervisor's name elsewhere cannot lock the supervisor out); a right password during the lock is
refused too (and counted), so guessing on gains nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from engine.errors import InputError

ROLES = ("supervisor", "auditor", "admin")
MAX_TRIES = 5
LOCK_MINUTES = 15
SESSION_HOURS = 12
MIN_PASSWORD = 10

_hasher = PasswordHasher()
_DUMMY_HASH = _hasher.hash("not a password anyone has")

PERMISSIONS: dict[str, frozenset[str]] = {
    "view": frozenset(ROLES),
    "acknowledge": frozenset({"supervisor", "admin"}),
    "export": frozenset(ROLES),
    "audit": frozenset({"auditor", "admin"}),
    "accounts": frozenset({"admin"}),
    "settings": frozenset({"supervisor", "admin"}),
}


@dataclass(frozen=True, slots=True)
class Session:
    account: str
    role: str
    csrf: str
    language: str
    token_hash: str

    def may(self, permission: str) -> bool:
        return self.role in PERMISSIONS[permission]


@dataclass(frozen=True, slots=True)
class SignIn:
    """The answer to a sign-in: a session token, or why not (``wrong`` or ``locked`` with the minutes left)."""

    token: str | None
    refused: str = ""
    locked_minutes: int = 0


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def same_token(a: str, b: str) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(a.encode(), b.encode())


def check_account(name: str, password: str, role: str) -> None:
    if not name or len(name) > 64 or not all(c.isalnum() or c in "-_." for c in name):
        raise InputError(f"account name {name!r} is not usable: 1 to 64 letters, digits, '-', '_' or '.'")
    if role not in ROLES:
        raise InputError(f"role {role!r} is not known: use one of {', '.join(ROLES)}")
    if len(password) < MIN_PASSWORD:
        raise InputError(f"a console password has at least {MIN_PASSWORD} characters; choose a longer one")


def add_account(conn: Any, name: str, password: str, role: str, by: str) -> None:
    """Create an account (in the caller's transaction) and record who did it."""
    check_account(name, password, role)
    exists = conn.execute("SELECT 1 FROM console_accounts WHERE name = %s", (name,)).fetchone()
    if exists:
        raise InputError(f"there is already a console account {name!r}; choose another name")
    conn.execute("INSERT INTO console_accounts (name, password_hash, role, created_by) VALUES (%s, %s, %s, %s)",
                 (name, _hasher.hash(password), role, by))
    record(conn, by, "account_added", {"account": name, "role": role})


def sign_in(conn: Any, name: str, password: str, address: str, now: datetime) -> SignIn:
    """Check a password; count a wrong one against the name *at this address*, and lock that pair after too many;
    open a session when right. Every answer costs one Argon2 check (a made-up name, a locked one and a wrong
    password take the same time), and a name without an account is counted and locked like one with."""
    name = name[:64]
    row = conn.execute("SELECT password_hash FROM console_accounts WHERE name = %s", (name,)).fetchone()
    right = _verify(row[0] if row else _DUMMY_HASH, password) and row is not None
    failed, locked_until = conn.execute(
        "INSERT INTO console_sign_in_failures AS f (name, address, last_try) VALUES (%s, %s, %s) "
        "ON CONFLICT (name, address) DO UPDATE SET last_try = EXCLUDED.last_try "
        "RETURNING f.failed_tries, f.locked_until", (name, address, now)).fetchone()
    if locked_until is not None and locked_until > now:
        conn.execute("UPDATE console_sign_in_failures SET failed_tries = failed_tries + 1 WHERE name = %s AND "
                     "address = %s", (name, address))
        record(conn, name, "sign_in_refused", {"reason": "locked"}, address)
        return SignIn(None, "locked", _minutes_left(locked_until, now))
    if not right:
        failed += 1
        lock = now + timedelta(minutes=LOCK_MINUTES) if failed >= MAX_TRIES else None
        conn.execute("UPDATE console_sign_in_failures SET failed_tries = %s, locked_until = %s WHERE name = %s AND "
                     "address = %s", (0 if lock else failed, lock, name, address))
        reason = "wrong password" if row is not None else "no such account"
        record(conn, name, "sign_in_refused", {"reason": reason, "tries": failed}, address)
        if lock is not None:
            record(conn, name, "account_locked", {"minutes": LOCK_MINUTES, "tries": failed}, address)
            return SignIn(None, "locked", LOCK_MINUTES)
        return SignIn(None, "wrong")
    stored = row[0]
    if _hasher.check_needs_rehash(stored):
        conn.execute("UPDATE console_accounts SET password_hash = %s WHERE name = %s", (_hasher.hash(password), name))
    conn.execute("DELETE FROM console_sign_in_failures WHERE name = %s AND address = %s", (name, address))
    token = secrets.token_urlsafe(32)
    conn.execute("INSERT INTO console_sessions (token_hash, account, csrf, created_at, last_seen) "
                 "VALUES (%s, %s, %s, %s, %s)", (token_hash(token), name, secrets.token_urlsafe(32), now, now))
    record(conn, name, "signed_in", {}, address)
    return SignIn(token)


def session(conn: Any, token: str, now: datetime) -> Session | None:
    """The open session of a cookie's token, or None (unknown, signed out or expired)."""
    if not token:
        return None
    digest = token_hash(token)
    row = conn.execute(
        "SELECT s.account, a.role, s.csrf, s.language FROM console_sessions s JOIN console_accounts a "
        "ON a.name = s.account WHERE s.token_hash = %s AND s.ended_at IS NULL AND s.created_at > %s",
        (digest, now - timedelta(hours=SESSION_HOURS))).fetchone()
    if row is None:
        return None
    conn.execute("UPDATE console_sessions SET last_seen = %s WHERE token_hash = %s", (now, digest))
    return Session(row[0], row[1], row[2], row[3], digest)


def sign_out(conn: Any, current: Session, now: datetime, address: str) -> None:
    conn.execute("UPDATE console_sessions SET ended_at = %s WHERE token_hash = %s", (now, current.token_hash))
    record(conn, current.account, "signed_out", {}, address)


def set_language(conn: Any, current: Session, language: str, address: str) -> None:
    conn.execute("UPDATE console_sessions SET language = %s WHERE token_hash = %s", (language, current.token_hash))
    record(conn, current.account, "language_changed", {"language": language}, address)


def record(conn: Any, account: str, action: str, detail: dict[str, Any], address: str = "") -> None:
    """One console action, on record in the central store (append-only: no UPDATE or DELETE is allowed)."""
    from psycopg.types.json import Jsonb

    conn.execute("INSERT INTO console_actions (account, action, detail, address) VALUES (%s, %s, %s, %s)",
                 (account, action, Jsonb(detail), address))


def _verify(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def _minutes_left(until: datetime, now: datetime) -> int:
    return max(1, int((until - now).total_seconds() + 59) // 60)
