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
            raise JournalKeyError(
                f"the journal's key is not at {path}: if it was moved, give where it is now (--key, the kiosk "
                "config's journal.key, or DEALER_ASSIST_KEY); otherwise restore it from the kiosk's key backup. "
                "Without it the journal cannot be checked or extended (a new key would not match)"
            ) from None
        return _create_key(path)
    except PermissionError:
        raise JournalKeyError(f"cannot read the key file {path}: run as the kiosk's user") from None
    except IsADirectoryError:
        raise JournalKeyError(f"the key path {path} is a folder: give the key file itself") from None
    if mode & 0o077:
        raise JournalKeyError(f"the key file {path} may be read or written by others (mode {mode:o}): make it "
                              f"the kiosk user's alone with `chmod 600 {path}`")
    text = data.strip()
    try:
        key = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise JournalKeyError(f"the key file {path} is not a journal key (64 hex digits expected)") from None
    if len(key) != KEY_BYTES:
        raise JournalKeyError(f"the key file {path} holds {len(key)} bytes, a journal key has {KEY_BYTES}")
    return key


def _create_key(path: Path) -> bytes:
    if not path.parent.is_dir():  # not made here: a missing folder may be another volume that is not mounted
        raise JournalKeyError(f"the key's folder {path.parent} does not exist: mount the key's volume or create "
                              "the folder (readable by the kiosk's user only)")
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
