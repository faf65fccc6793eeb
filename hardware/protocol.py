"""The wire protocol, sans I/O: bytes in → frames and messages out; messages in → bytes out.

A frame is one ASCII line (see ``PROTOCOL.md``)::

    $SS TYPE FIELD FIELD*CCCC\\r\\n

``SS`` is the sequence number (two hex digits), ``CCCC`` the CRC-16/CCITT-FALSE of everything between ``$`` and
``*``. ``SS`` only pairs a frame with its answer on the link; what a frame is about is bound by numbers in its
fields: the device's session number, its event number and the host's shake number (eight hex digits each), so an
old frame sent again under a new ``SS`` is recognised and refused (protocol version 2). Nothing here reads a
clock or a port; the host and device logic (``hardware.link``, ``hardware.device``) and the tests drive it.

Protocol version 3 adds a **tag** before the CRC (``$SS TYPE FIELD #TTTTTTTTTTTTTTTT*CCCC``): HMAC-SHA-256 under
the session key, 64 bits (``hardware.auth``). This module only carries it (``Frame.tag``, ``encode_signed``);
whether a tag is right is the link's and the device's to check.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass, field

from hardware import auth
from hardware.events import Button, DeviceIdentity, DeviceKind, DeviceState

START = b"$"
CRC_MARK = b"*"
END = b"\r\n"
MAX_FRAME = 100
"""Longest frame in bytes, from ``$`` to LF inclusive; anything longer is dropped as malformed (version 2: 80;
the tag adds 18 bytes: the longest version 3 frame, a shaker's tagged ``IDENT`` with 46 characters of firmware
and serial number together, has 100)."""
TAG_MARK = b" #"
"""Between the last field and the tag."""
NO_SEQ = 0
"""Sequence number of unsequenced frames (heartbeats); real sequence numbers run 1..255 and wrap to 1."""
PROTOCOL_VERSION = 3
"""The version of ``PROTOCOL.md`` spoken here; a device says its own in ``IDENT``."""
MAX_NUMBER = 0xFFFF_FFFF
"""Session, event and shake numbers are eight hex digits; they start at 1 and in practice never wrap."""

_BODY = re.compile(
    rb"([0-9A-Fa-f]{2}) ([A-Z]{2,8})((?: [!\"%-)+-~]{1,24})*)(?: #([0-9A-Fa-f]{16}))?\*([0-9A-Fa-f]{4})"
)
_TOKEN = re.compile(r"[!\"%-)+-~]{1,24}")  # printable ASCII without space, '#', '$' and '*'


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR."""
    return binascii.crc_hqx(data, 0xFFFF)


def next_seq(seq: int) -> int:
    """The sequence number after ``seq``: 1..255, then 1 again (0 is reserved for unsequenced frames)."""
    return seq % 255 + 1


# --- frames ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Frame:
    seq: int
    type: str
    fields: tuple[str, ...] = ()
    tag: str | None = field(default=None, compare=False)
    """The frame's tag (16 hex digits) as received or to send; None for an unsigned frame."""

    def __post_init__(self) -> None:
        if not 0 <= self.seq <= 255:
            raise ValueError(f"sequence number {self.seq} is outside 0..255")
        if not re.fullmatch(r"[A-Z]{2,8}", self.type):
            raise ValueError(f"message type {self.type!r} must be 2-8 capital letters")
        for text in self.fields:
            if not _TOKEN.fullmatch(text):
                raise ValueError(f"field {text!r} must be 1-24 printable ASCII characters without space, #, * or $")

    @property
    def covered(self) -> bytes:
        """The text a tag covers: sequence number, type and fields as written (``03 SHAKE 00000001``)."""
        return " ".join((f"{self.seq:02X}", self.type, *self.fields)).encode("ascii")

    def signed(self, key: bytes, direction: bytes) -> Frame:
        """This frame with its tag under ``key`` (the session key), sent in ``direction`` (``auth.HOST``…)."""
        return Frame(self.seq, self.type, self.fields, auth.tag(key, direction, self.covered))

    def encode(self) -> bytes:
        body = self.covered
        if self.tag is not None:
            body += TAG_MARK + self.tag.encode("ascii")
        frame = START + body + CRC_MARK + f"{crc16(body):04X}".encode("ascii") + END
        if len(frame) > MAX_FRAME:
            raise ValueError(f"frame of {len(frame)} bytes is longer than {MAX_FRAME}")
        return frame


@dataclass(frozen=True, slots=True)
class Garbage:
    """Bytes skipped while hunting for ``$`` (line noise, a half frame after a resync)."""

    count: int


@dataclass(frozen=True, slots=True)
class BadFrame:
    """A frame that was dropped: ``reason`` is ``crc``, ``malformed``, ``too_long`` or ``cut_short``."""

    reason: str
    raw: bytes


ParseItem = Frame | Garbage | BadFrame


class FrameParser:
    """Splits a byte stream into frames; resynchronises on the next ``$`` after anything it cannot use.

    ``feed`` never raises on any input; every byte ends up in exactly one item (a frame, a bad frame or garbage),
    except the bytes of a frame still being received.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._in_frame = False

    def reset(self) -> None:
        self._buffer.clear()
        self._in_frame = False

    def feed(self, data: bytes) -> list[ParseItem]:
        items: list[ParseItem] = []
        garbage = 0
        for byte in data:
            if not self._in_frame:
                if byte == 0x24:  # '$'
                    if garbage:
                        items.append(Garbage(garbage))
                        garbage = 0
                    self._in_frame = True
                    self._buffer = bytearray(b"$")
                else:
                    garbage += 1
                continue
            if byte == 0x24:  # a new start inside a frame: the old one was cut short
                items.append(BadFrame("cut_short", bytes(self._buffer)))
                self._buffer = bytearray(b"$")
                continue
            self._buffer.append(byte)
            if byte == 0x0A:  # LF ends a frame
                items.append(_parse_line(bytes(self._buffer)))
                self._in_frame = False
                self._buffer = bytearray()
            elif len(self._buffer) >= MAX_FRAME:
                items.append(BadFrame("too_long", bytes(self._buffer)))
                self._in_frame = False
                self._buffer = bytearray()
        if garbage:
            items.append(Garbage(garbage))
        return items


def _parse_line(line: bytes) -> Frame | BadFrame:
    body = line[1:].rstrip(b"\n")
    body = body.removesuffix(b"\r")
    match = _BODY.fullmatch(body)
    if match is None:
        return BadFrame("malformed", line)
    covered = body[: body.rindex(CRC_MARK)]
    if crc16(covered) != int(match.group(5), 16):
        return BadFrame("crc", line)
    fields = tuple(match.group(3).decode("ascii").split())
    tag = match.group(4).decode("ascii").upper() if match.group(4) else None
    frame = Frame(int(match.group(1), 16), match.group(2).decode("ascii"), fields, tag)
    if tag is not None and frame.covered != body[: body.rindex(TAG_MARK)]:
        # The tag covers the text as written; a sender that wrote the sequence number in small letters signed
        # other bytes than the ones rebuilt here. Keep what it covered, exactly.
        return _RawFrame(frame.seq, frame.type, frame.fields, tag, body[: body.rindex(TAG_MARK)])
    return frame


@dataclass(frozen=True, slots=True)
class _RawFrame(Frame):
    """A received frame whose text differs from its canonical form (small hex letters): the tag covers ``raw``."""

    raw: bytes = b""

    @property
    def covered(self) -> bytes:
        return self.raw


# --- messages ----------------------------------------------------------------------------------------------


class MessageError(ValueError):
    """A frame whose CRC is right but whose type or fields are not in the protocol."""


@dataclass(frozen=True, slots=True)
class Identify:
    """Host → device ``ID``: who are you? ``new_session`` (``ID NEW challenge``) also clears the device's memory
    and, with the host's fresh ``challenge`` (24 hex digits), starts an authenticated session (version 3)."""

    new_session: bool = False
    challenge: str | None = None


@dataclass(frozen=True, slots=True)
class Pair:
    """Host → device ``PAIR k1 k2 k3 k4``: keep this paired key (taken only in pairing mode, a person at the
    device). The key travels in the clear once, on a cable a supervisor is watching: see ``PROTOCOL.md`` §12."""

    key: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class Paired:
    """Device → host ``PAIRED``: the key is kept; the pairing mode is over."""


@dataclass(frozen=True, slots=True)
class PairRefused:
    """Device → host ``NOPAIR how``: not in pairing mode. ``how`` says what a person does to enter it:
    ``BUTTON`` (hold CONFIRM, or the shaker's pairing button, while powering it up) or ``JUMPER`` (fit the pairing
    jumper and power it up)."""

    how: str


@dataclass(frozen=True, slots=True)
class QueryStatus:
    """Host → device ``ST``."""


@dataclass(frozen=True, slots=True)
class Shake:
    """Host → device ``SHAKE command``: shake once. ``command`` (1..0xFFFFFFFF, eight hex digits on the wire) is
    the host's shake number: it only grows, so no result can ever be mistaken for another shake's."""

    command: int


@dataclass(frozen=True, slots=True)
class Ack:
    """Host → device ``ACK``: the event with this frame's sequence number was received."""


@dataclass(frozen=True, slots=True)
class ShakeAccepted:
    """Device → host ``ACK session command``: the shake ``command`` was taken in ``session``; dice follow."""

    session: int
    command: int


@dataclass(frozen=True, slots=True)
class Nak:
    """Device → host ``NAK code session command``: the shake ``command`` was understood but refused."""

    code: str
    session: int
    command: int


@dataclass(frozen=True, slots=True)
class Ident:
    """Device → host ``IDENT version kind firmware serial session``, the reply to ``ID``.

    ``session`` (eight hex digits) is the device's session number: new at every power-up and at every ``ID NEW``,
    never one it used before. Every event and every answer to a shake names it, so nothing from an earlier
    session can pass for something of this one. ``version`` is the protocol version the device speaks (a version
    1 device's four-field ``IDENT`` parses with ``version=1`` and its boot number as ``session``).
    """

    identity: DeviceIdentity
    session: int
    version: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class Stat:
    """Device → host ``STAT state last``: ``last`` is the number of the last shake command taken (0 if none)."""

    state: DeviceState
    last_command: int


@dataclass(frozen=True, slots=True)
class DiceReport:
    """Device → host ``DICE session event command d1 d2 d3`` or ``DICE session event command ERR code``.

    ``command`` is the number of the shake this answers. ``values`` holds what the device sent, unchecked
    (``None`` for a die reported missing as ``-``); the host decides whether it is a result
    (``hardware.link.validate_dice``).
    """

    session: int
    event: int
    command: int
    values: tuple[int | None, ...] = ()
    error: str | None = None


@dataclass(frozen=True, slots=True)
class ButtonReport:
    """Device → host ``BTN session event button DOWN|UP``."""

    session: int
    event: int
    button: Button
    pressed: bool


@dataclass(frozen=True, slots=True)
class StateReport:
    """Device → host ``STATE session event state``: the state changed to or from a fault."""

    session: int
    event: int
    state: DeviceState


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Device → host ``HB state``, unsequenced, about once a second."""

    state: DeviceState


Message = (
    Identify
    | Pair
    | Paired
    | PairRefused
    | QueryStatus
    | Shake
    | Ack
    | ShakeAccepted
    | Nak
    | Ident
    | Stat
    | DiceReport
    | ButtonReport
    | StateReport
    | Heartbeat
)

COMMANDS = (Identify, QueryStatus, Shake, Pair)
"""Host messages that the device answers with a reply carrying the same sequence number."""
EVENTS = (DiceReport, ButtonReport, StateReport)
"""Device messages with the device's own sequence number, which the host acknowledges with ``ACK``."""
REPLIES = (ShakeAccepted, Nak, Ident, Stat, Paired, PairRefused)

ERROR_CODE = re.compile(r"[A-Z][A-Z_]{1,15}")


def _n(number: int) -> str:
    if not 0 <= number <= MAX_NUMBER:
        raise ValueError(f"number {number} does not fit in eight hex digits")
    return f"{number:08X}"


def to_frame(seq: int, message: Message) -> Frame:
    match message:
        case Identify(new_session=new, challenge=challenge):
            if not new:
                return Frame(seq, "ID")
            return Frame(seq, "ID", ("NEW",) if challenge is None else ("NEW", challenge))
        case Pair(key=key):
            return Frame(seq, "PAIR", auth.key_to_fields(key))
        case Paired():
            return Frame(seq, "PAIRED")
        case PairRefused(how=how):
            return Frame(seq, "NOPAIR", (how,))
        case QueryStatus():
            return Frame(seq, "ST")
        case Shake(command=command):
            return Frame(seq, "SHAKE", (_n(command),))
        case Ack():
            return Frame(seq, "ACK")
        case ShakeAccepted(session=session, command=command):
            return Frame(seq, "ACK", (_n(session), _n(command)))
        case Nak(code=code, session=session, command=command):
            return Frame(seq, "NAK", (code, _n(session), _n(command)))
        case Ident(identity=ident, session=session, version=version):
            if version == 1:  # what a version 1 device sends: only for tests of the host's refusal
                return Frame(seq, "IDENT", (ident.kind.value, ident.firmware, ident.serial_number, f"{session:04X}"))
            return Frame(
                seq, "IDENT", (str(version), ident.kind.value, ident.firmware, ident.serial_number, _n(session))
            )
        case Stat(state=state, last_command=last):
            return Frame(seq, "STAT", (state.value, _n(last)))
        case DiceReport(session=session, event=event, command=command, values=values, error=error):
            head = (_n(session), _n(event), _n(command))
            if error is not None:
                return Frame(seq, "DICE", (*head, "ERR", error))
            return Frame(seq, "DICE", (*head, *("-" if v is None else str(v) for v in values)))
        case ButtonReport(session=session, event=event, button=button, pressed=pressed):
            return Frame(seq, "BTN", (_n(session), _n(event), button.value, "DOWN" if pressed else "UP"))
        case StateReport(session=session, event=event, state=state):
            return Frame(seq, "STATE", (_n(session), _n(event), state.value))
        case Heartbeat(state=state):
            return Frame(seq, "HB", (state.value,))
    raise TypeError(f"not a protocol message: {message!r}")


def encode(seq: int, message: Message) -> bytes:
    """The bytes of one unsigned frame carrying ``message`` with sequence number ``seq``."""
    return to_frame(seq, message).encode()


def encode_signed(seq: int, message: Message, key: bytes | None, direction: bytes) -> bytes:
    """The bytes of one frame carrying ``message``, tagged under the session ``key`` (unsigned when None)."""
    frame = to_frame(seq, message)
    return (frame if key is None else frame.signed(key, direction)).encode()


def _number(text: str, what: str) -> int:
    if not re.fullmatch(r"[0-9A-Fa-f]{8}", text):
        raise MessageError(f"{what} {text!r} is not eight hex digits")
    return int(text, 16)


def _state(text: str) -> DeviceState:
    try:
        return DeviceState(text)
    except ValueError:
        raise MessageError(f"unknown device state {text!r}") from None


def _arity(frame: Frame, *counts: int) -> None:
    if len(frame.fields) not in counts:
        wanted = " or ".join(str(c) for c in counts)
        raise MessageError(f"{frame.type} takes {wanted} field(s), got {len(frame.fields)}")


def _kind(text: str) -> DeviceKind:
    try:
        return DeviceKind(text)
    except ValueError:
        raise MessageError(f"unknown device kind {text!r}") from None


def _ident(frame: Frame) -> Ident:
    fields = frame.fields
    if len(fields) == 4:  # version 1: kind firmware serial boot
        if not re.fullmatch(r"[0-9A-Fa-f]{4}", fields[3]):
            raise MessageError(f"boot number {fields[3]!r} is not four hex digits")
        return Ident(DeviceIdentity(_kind(fields[0]), fields[1], fields[2]), int(fields[3], 16), version=1)
    _arity(frame, 4, 5)
    if not re.fullmatch(r"[1-9][0-9]{0,3}", fields[0]):
        raise MessageError(f"protocol version {fields[0]!r} is not a number")
    identity = DeviceIdentity(_kind(fields[1]), fields[2], fields[3])
    return Ident(identity, _number(fields[4], "session number"), version=int(fields[0]))


def _dice(frame: Frame) -> DiceReport:
    fields = frame.fields
    if len(fields) < 4:
        raise MessageError("DICE needs the session, event and shake numbers and the dice or ERR code")
    session = _number(fields[0], "session number")
    event = _number(fields[1], "event number")
    command = _number(fields[2], "shake number")
    if fields[3] == "ERR":
        _arity(frame, 5)
        if not ERROR_CODE.fullmatch(fields[4]):
            raise MessageError(f"DICE error {fields[4]!r} is not an error code")
        return DiceReport(session, event, command, error=fields[4])
    if len(fields) > 9:
        raise MessageError(f"DICE reports at most 6 dice, got {len(fields) - 3}")
    values: list[int | None] = []
    for text in fields[3:]:
        if text == "-":
            values.append(None)
        elif re.fullmatch(r"[0-9]{1,2}", text):
            values.append(int(text))
        else:
            raise MessageError(f"die value {text!r} is not a number")
    return DiceReport(session, event, command, tuple(values))


def from_frame(frame: Frame) -> Message:
    """The message a frame carries; raises ``MessageError`` if the type or the fields are not in the protocol."""
    kind, fields = frame.type, frame.fields
    if kind == "ID":
        _arity(frame, 0, 1, 2)
        if fields and fields[0] != "NEW":
            raise MessageError(f"ID takes no field, NEW, or NEW and a challenge, got {fields[0]!r}")
        if len(fields) == 2 and not auth.is_challenge(fields[1]):
            raise MessageError(f"challenge {fields[1]!r} is not 24 hex digits")
        return Identify(new_session=bool(fields), challenge=fields[1].upper() if len(fields) == 2 else None)
    if kind == "PAIR":
        key = auth.key_from_fields(fields)
        if key is None:
            raise MessageError("PAIR carries the key as four fields of 16 hex digits")
        return Pair(key)
    if kind == "PAIRED":
        _arity(frame, 0)
        return Paired()
    if kind == "NOPAIR":
        _arity(frame, 1)
        if not ERROR_CODE.fullmatch(fields[0]):
            raise MessageError(f"NOPAIR {fields[0]!r} is not a word of capitals")
        return PairRefused(fields[0])
    if kind == "ST":
        _arity(frame, 0)
        return QueryStatus()
    if kind == "SHAKE":
        _arity(frame, 1)
        return Shake(_number(fields[0], "shake number"))
    if kind == "ACK":
        _arity(frame, 0, 2)
        if not fields:
            return Ack()
        return ShakeAccepted(_number(fields[0], "session number"), _number(fields[1], "shake number"))
    if kind == "NAK":
        _arity(frame, 3)
        if not ERROR_CODE.fullmatch(fields[0]):
            raise MessageError(f"NAK code {fields[0]!r} is not an error code")
        return Nak(fields[0], _number(fields[1], "session number"), _number(fields[2], "shake number"))
    if kind == "IDENT":
        return _ident(frame)
    if kind == "STAT":
        _arity(frame, 2)
        return Stat(_state(fields[0]), _number(fields[1], "last shake number"))
    if kind == "DICE":
        return _dice(frame)
    if kind == "BTN":
        _arity(frame, 4)
        session, event = _number(fields[0], "session number"), _number(fields[1], "event number")
        try:
            button = Button(fields[2])
        except ValueError:
            raise MessageError(f"unknown button {fields[2]!r}") from None
        if fields[3] not in ("DOWN", "UP"):
            raise MessageError(f"button edge {fields[3]!r} is neither DOWN nor UP")
        return ButtonReport(session, event, button, fields[3] == "DOWN")
    if kind == "STATE":
        _arity(frame, 3)
        return StateReport(_number(fields[0], "session number"), _number(fields[1], "event number"), _state(fields[2]))
    if kind == "HB":
        _arity(frame, 1)
        return Heartbeat(_state(fields[0]))
    raise MessageError(f"unknown message type {kind!r}")
