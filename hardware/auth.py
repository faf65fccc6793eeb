"""Protocol 3's authentication, sans I/O: the paired key, the session key, and the tag of every frame.

A device and its kiosk share a 256-bit **paired key**, made by the kiosk when they are paired (``PAIR``). Each
session (``ID NEW challenge``) both sides derive a **session key** from it, the host's fresh random challenge and
the device's session number; every frame after that carries a **tag**: HMAC-SHA-256 under the session key over
the frame's direction and its text, truncated to 64 bits. The CRC still catches line noise; the tag is what makes
a frame believed. ``PROTOCOL.md`` §12 has the layout byte for byte and a worked example.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

KEY_BYTES = 32
"""A paired key: 256 bits from the kiosk's CSPRNG."""
CHALLENGE_BYTES = 12
"""The host's challenge in ``ID NEW``: 96 random bits, 24 hex digits (one field)."""
TAG_HEX = 16
"""A tag on the wire: the first 64 bits of the HMAC, as 16 capital hex digits."""
SESSION_LABEL = b"dealer-assist v3 session "
"""What the session key's HMAC input starts with (then the challenge and the session number, in hex)."""
HOST = b"H"
"""Direction byte of a frame the host sends (the first byte the tag covers)."""
DEVICE = b"D"
"""Direction byte of a frame the device sends."""

_CHALLENGE = re.compile(r"[0-9A-F]{24}")


def new_key() -> bytes:
    """A fresh paired key."""
    return secrets.token_bytes(KEY_BYTES)


def new_challenge() -> str:
    """A fresh challenge for ``ID NEW``, as it goes on the wire (24 capital hex digits)."""
    return secrets.token_hex(CHALLENGE_BYTES).upper()


def is_challenge(text: str) -> bool:
    return _CHALLENGE.fullmatch(text.upper()) is not None


def session_key(paired_key: bytes, challenge: str, session: int) -> bytes:
    """HMAC-SHA-256(paired key, ``"dealer-assist v3 session " + challenge + " " + session``), all in capital hex."""
    if len(paired_key) != KEY_BYTES:
        raise ValueError(f"a paired key has {KEY_BYTES} bytes, not {len(paired_key)}")
    text = SESSION_LABEL + challenge.upper().encode("ascii") + b" " + f"{session:08X}".encode("ascii")
    return hmac.new(paired_key, text, hashlib.sha256).digest()


def tag(key: bytes, direction: bytes, covered: bytes) -> str:
    """The tag of a frame: HMAC-SHA-256(session key, direction + covered), first 8 bytes, in capital hex.

    ``covered`` is the frame's text from its sequence number to its last field (``03 SHAKE 00000001``): the
    bytes after ``$`` up to, not including, the space before ``#``.
    """
    return hmac.new(key, direction + covered, hashlib.sha256).digest()[: TAG_HEX // 2].hex().upper()


def tag_matches(key: bytes, direction: bytes, covered: bytes, received: str | None) -> bool:
    """True when ``received`` is the right tag (compared in constant time)."""
    if received is None:
        return False
    return hmac.compare_digest(tag(key, direction, covered), received.upper())


def key_to_fields(key: bytes) -> tuple[str, str, str, str]:
    """The paired key as ``PAIR`` carries it: four fields of 16 capital hex digits."""
    text = key.hex().upper()
    return text[0:16], text[16:32], text[32:48], text[48:64]


def key_from_fields(fields: tuple[str, ...]) -> bytes | None:
    """The key ``PAIR``'s four fields carry, or None if they are not four fields of 16 hex digits."""
    if len(fields) != 4 or not all(re.fullmatch(r"[0-9A-Fa-f]{16}", f) for f in fields):
        return None
    return bytes.fromhex("".join(fields))
