"""The hash chain: canonical JSON, the per-kiosk secret, and the keyed hash (HMAC-SHA-256) of each event."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Any

from journal.errors import JournalKeyError
from journal.words import OPENING

GENESIS = "0" * 64
"""The previous hash of the first event."""

KEY_BYTES = 32


def canonical_json(value: Any) -> str:
    """One text for one value: sorted keys, no spaces, UTF-8 kept, no NaN."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def header_json(
    seq: int, time: str, mono_ns: int, boot_id: str, kiosk_id: str, table_id: str, round_id: int | None, kind: str
) -> str:
    return canonical_json([seq, time, mono_ns, boot_id, kiosk_id, table_id, round_id, kind])


def event_hash(key: bytes, prev_hash: str, header: str, payload: bytes) -> str:
    """HMAC-SHA-256 over the previous hash, the event's header and its payload (both canonical JSON)."""
    mac = hmac.new(key, prev_hash.encode("ascii"), hashlib.sha256)
    mac.update(b"\n")
    mac.update(header.encode("utf-8"))
    mac.update(b"\n")
    mac.update(payload)
    return mac.hexdigest()


def head_mac(key: bytes, seq: int, last_hash: str) -> str:
    """Seals the chain's last event, so that cutting events off the end shows."""
    return hmac.new(key, f"head|{seq}|{last_hash}".encode("ascii"), hashlib.sha256).hexdigest()


def key_check(key: bytes) -> str:
    """A value stored in the journal that tells whether a key file is the one it was written with."""
    return hmac.new(key, b"dealer-assist journal key check", hashlib.sha256).hexdigest()


def anchor_mac(key: bytes, text: str) -> str:
    """The MAC of an anchor line (its own domain, so an anchor can never pass for an event or a seal)."""
    return hmac.new(key, b"anchor|" + text.encode("utf-8"), hashlib.sha256).hexdigest()


def load_key(path: Path, *, create: bool) -> bytes:
    """Read the per-kiosk secret; with ``create``, make a new one (mode 0600) when there is none.

    A key file others may read or write is refused: whoever holds the key can rewrite the journal and its hashes.
    """
    try:
        data = path.read_bytes()
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        if not create:
            raise JournalKeyError(OPENING["key_missing"](path=path)) from None
        return _create_key(path)
    except PermissionError:
        raise JournalKeyError(OPENING["key_unreadable"](path=path)) from None
    except IsADirectoryError:
        raise JournalKeyError(OPENING["key_is_folder"](path=path)) from None
    if mode & 0o077:
        raise JournalKeyError(OPENING["key_shared"](path=path, mode=f"{mode:o}"))
    text = data.strip()
    try:
        key = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise JournalKeyError(OPENING["key_not_hex"](path=path)) from None
    if len(key) != KEY_BYTES:
        raise JournalKeyError(OPENING["key_size"](path=path, size=len(key), expected=KEY_BYTES))
    return key


def _create_key(path: Path) -> bytes:
    if not path.parent.is_dir():  # not made here: a missing folder may be another volume that is not mounted
        raise JournalKeyError(OPENING["key_no_folder"](folder=path.parent))
    key = secrets.token_bytes(KEY_BYTES)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, key.hex().encode("ascii") + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    _fsync_dir(path.parent)
    return key


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
