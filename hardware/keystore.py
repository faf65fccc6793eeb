"""The host's paired keys: one file, one unit a line, kept by the rules of the journal's key.

::

    # dealer-assist paired device keys (protocol 3). Secret: mode 0600, never copied into a log or the journal.
    SK-000123 9F1C…(64 hex digits)
    PN-000045 03AB…

The kiosk keeps the file beside its journal key (``devices.keys`` in that key's folder: outside the data folder
where the config puts the key elsewhere); ``dealer-assist devices pair`` writes it, the links read it. Whoever
reads it can pass for the devices, so a file others may read or write is refused, as the journal's key is.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from engine.errors import InputError
from hardware.auth import KEY_BYTES

FILE_NAME = "devices.keys"
KEYS_ENV = "DEALER_ASSIST_DEVICE_KEYS"
_HEADER = (
    "# dealer-assist paired device keys (protocol 3): SERIAL KEY, one unit a line. Secret: mode 0600, never copied "
    "into a log or the journal.\n"
)
_LINE = re.compile(r"(\S{1,24}) ([0-9A-Fa-f]{64})")


class KeyFileError(InputError):
    """The key file cannot be used; the message names the file, the problem and what to do."""


def default_keys_path() -> Path:
    """``$DEALER_ASSIST_DEVICE_KEYS``, else ``devices.keys`` beside the journal key (``$DEALER_ASSIST_KEY``), else in
    the data folder (``$DEALER_ASSIST_DATA`` or ``./data``), as the kiosk's embedded default keeps it."""
    named = os.environ.get(KEYS_ENV)
    if named:
        return Path(named)
    journal_key = os.environ.get("DEALER_ASSIST_KEY")
    if journal_key:
        return Path(journal_key).parent / FILE_NAME
    return Path(os.environ.get("DEALER_ASSIST_DATA") or "data") / FILE_NAME


def load_keys(path: Path) -> dict[str, bytes]:
    """The paired keys by serial number; an empty mapping when the file does not exist (nothing paired yet)."""
    try:
        text = path.read_text(encoding="ascii")
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        return {}
    except PermissionError:
        raise KeyFileError(f"the device key file {path} cannot be read by this user; run as the kiosk's user") from None
    except (UnicodeDecodeError, IsADirectoryError):
        raise KeyFileError(f"{path} is not a device key file (SERIAL and 64 hex digits a line)") from None
    if mode & 0o077:
        raise KeyFileError(
            f"the device key file {path} may be read or written by others (mode {mode:o}): whoever reads it can "
            f"pass for the devices; chmod 600 {path}, then pair the devices again"
        )
    keys: dict[str, bytes] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            raise KeyFileError(
                f"{path} line {number} is not 'SERIAL KEY' (a serial number and 64 hex digits); pair that unit again"
            )
        keys[match.group(1)] = bytes.fromhex(match.group(2))
    return keys


def save_key(path: Path, serial: str, key: bytes) -> None:
    """Keep ``key`` for unit ``serial`` (replacing its old one), writing the whole file anew with mode 0600."""
    if len(key) != KEY_BYTES:
        raise ValueError(f"a paired key has {KEY_BYTES} bytes")
    if not re.fullmatch(r"\S{1,24}", serial):
        raise KeyFileError(f"serial number {serial!r} cannot be kept in the key file")
    if not path.parent.is_dir():  # not made here: a missing folder may be another volume that is not mounted
        raise KeyFileError(f"the folder {path.parent} for the device key file does not exist (is its volume mounted?)")
    keys = load_keys(path)
    keys[serial] = key
    text = _HEADER + "".join(f"{unit} {value.hex().upper()}\n" for unit, value in sorted(keys.items()))
    temporary = path.with_name(path.name + ".new")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, text.encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    temporary.replace(path)


def save_keys(path: Path, keys: dict[str, bytes]) -> None:
    """Keep every key of ``keys`` (the simulator's session keys for a separate host process, tests)."""
    for serial, key in keys.items():
        save_key(path, serial, key)
