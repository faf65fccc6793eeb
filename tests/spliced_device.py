"""A spliced-in device, written from ``hardware/PROTOCOL.md`` alone, as a stranger at the table would write it.

It imports nothing of the project: it frames, checks CRCs and (if it was given a key) tags frames itself, from the
document. It stands in for a second board spliced onto the shaker's or the panel's cable and answers as the unit
it claims to be, with the dice it chooses. Tests use it to check that none of it is ever acted on.
"""

from __future__ import annotations

import binascii
import hashlib
import hmac
import os
import select
import threading
import time
import tty


def crc(text: bytes) -> int:
    return binascii.crc_hqx(text, 0xFFFF)  # §3: CRC-16/CCITT-FALSE


def frame(covered: str, session_key: bytes | None = None, direction: bytes = b"D") -> bytes:
    """``$`` + covered [+ `` #`` + tag] + ``*CCCC`` CR LF (§2, §12.3)."""
    text = covered.encode("ascii")
    if session_key is not None:
        tag = hmac.new(session_key, direction + text, hashlib.sha256).digest()[:8].hex().upper()
        text += b" #" + tag.encode("ascii")
    return b"$" + text + b"*" + f"{crc(text):04X}".encode("ascii") + b"\r\n"


def parse(line: bytes) -> tuple[int, str, list[str], str | None] | None:
    """(sequence number, type, fields, tag) of a line with a good CRC, else None."""
    line = line.strip()
    if not line.startswith(b"$") or b"*" not in line:
        return None
    body, _, check = line[1:].rpartition(b"*")
    if len(check) != 4 or crc(body) != int(check, 16):
        return None
    words = body.decode("ascii", "replace").split(" ")
    tag = None
    if len(words) > 2 and words[-1].startswith("#"):
        tag = words.pop()[1:]
    return int(words[0], 16), words[1], words[2:], tag


class SplicedDevice:
    """Answers on the master side of a pty; the host opens ``port`` like the real device's."""

    def __init__(
        self,
        kind: str = "SHAKER",
        serial: str = "SK-000999",
        dice: tuple[int, int, int] = (6, 6, 6),
        version: int = 3,
        key: bytes | None = None,
        recording: dict[str, bytes] | None = None,
    ) -> None:
        self.kind, self.serial, self.dice, self.version = kind, serial, dice, version
        self.key = key
        """A key of its own (never the paired one): it tags frames as §12 says, with the wrong key."""
        self.recording = recording or {}
        """Whole frames recorded from a real device in an earlier session, sent back as answers by type."""
        self.session = 0x00C0FFEE
        self.session_key: bytes | None = None
        self.event = 0
        self.seq = 0
        self.shakes_answered = 0
        self.heard: list[str] = []
        master, slave = os.openpty()
        tty.setraw(slave)
        self._master, self._slave = master, slave
        self.port = os.ttyname(slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        os.close(self._master)
        os.close(self._slave)

    def send(self, data: bytes) -> None:
        os.write(self._master, data)

    def _answer(self, covered: str) -> None:
        self.send(frame(covered, self.session_key))

    def _event(self, text: str) -> None:
        self.seq = self.seq % 255 + 1
        self.event += 1
        self._answer(f"{self.seq:02X} {text.format(session=f'{self.session:08X}', event=f'{self.event:08X}')}")

    def _run(self) -> None:
        pending = b""
        last_heartbeat = 0.0
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.05)
            if ready:
                try:
                    pending += os.read(self._master, 4096)
                except OSError:
                    return
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                parsed = parse(line)
                if parsed is not None:
                    self._handle(*parsed)
            if time.monotonic() - last_heartbeat > 0.5:
                self._answer("00 HB READY")
                last_heartbeat = time.monotonic()

    def _handle(self, seq: int, kind: str, fields: list[str], _tag: str | None) -> None:
        self.heard.append(kind)
        if kind == "ID":
            if fields and fields[0] == "NEW":
                self.session += 1
                self.event = 0
                challenge = fields[1] if len(fields) > 1 else ""
                if self.key is not None and challenge:
                    text = f"dealer-assist v3 session {challenge.upper()} {self.session:08X}".encode("ascii")
                    self.session_key = hmac.new(self.key, text, hashlib.sha256).digest()
            if "IDENT" in self.recording:
                self.send(self.recording["IDENT"])
                return
            self._answer(f"{seq:02X} IDENT {self.version} {self.kind} 9.9.9 {self.serial} {self.session:08X}")
        elif kind == "ST":
            self._answer(f"{seq:02X} STAT READY 00000000")
        elif kind == "SHAKE" and fields:
            self.shakes_answered += 1
            self._answer(f"{seq:02X} ACK {self.session:08X} {fields[0]}")
            a, b, c = self.dice
            self._event(f"DICE {{session}} {{event}} {fields[0]} {a} {b} {c}")

    def press(self, button: str = "CONFIRM") -> None:
        """A forged press: BTN DOWN then UP."""
        self._event(f"BTN {{session}} {{event}} {button} DOWN")
        self._event(f"BTN {{session}} {{event}} {button} UP")
