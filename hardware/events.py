"""What the serial devices tell the rest of the program: small frozen events, one union type.

Every event names its ``source`` (the name the kiosk gave the device when it opened it, e.g. ``"shaker"``) and
carries ``at``, the host clock's reading (seconds, monotonic) when the event was made. Nothing here decides a
game outcome: a ``DiceFault`` says why a shake gave no result; the round logic shakes again and counts it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class DeviceKind(StrEnum):
    """What a device says it is in its identity reply (the wire word is the value)."""

    SHAKER = "SHAKER"
    PANEL = "PANEL"


class Button(StrEnum):
    """The buttons of the dealer's panel (the wire word is the value)."""

    SHAKE = "SHAKE"
    CONFIRM = "CONFIRM"
    NEXT = "NEXT"
    VOID = "VOID"
    CALL_SUPERVISOR = "CALL"


class DeviceState(StrEnum):
    """The state a device reports in its status reply, its heartbeats and its state-change events."""

    READY = "READY"
    SHAKING = "SHAKING"
    DOME_OPEN = "DOME_OPEN"
    JAMMED = "JAMMED"
    SENSOR_FAULT = "SENSOR_FAULT"


class DiceFaultReason(StrEnum):
    """Why a shake gave no result. Each one means: shake again (and count it)."""

    INVALID_VALUE = "INVALID_VALUE"
    """The device read a die outside 1–6."""
    MISSING_DIE = "MISSING_DIE"
    """Fewer than three dice were read."""
    SENSOR_FAULT = "SENSOR_FAULT"
    """The camera or sensor under the dome could not read the dice."""
    JAMMED = "JAMMED"
    """The shaker motor or dome is jammed."""
    DOME_OPEN = "DOME_OPEN"
    """The dome was open (or opened) so the dice were not shaken under cover."""
    BUSY = "BUSY"
    """The device refused: it was still busy with something else."""
    TIMEOUT = "TIMEOUT"
    """No result came back in time (the device was silent, or the link stayed down)."""
    INTERRUPTED = "INTERRUPTED"
    """The shaker took the shake, then started a new session before its result was taken (it restarted, or
    something on the cable made it): its result is lost, and asking again would roll a second time unseen."""


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """Three dice, each 1–6, read by the shaker after the shake ``shake_id`` (as returned by ``shake()``)."""

    source: str
    shake_id: int
    values: tuple[int, int, int]
    at: float

    @property
    def total(self) -> int:
        return sum(self.values)


@dataclass(frozen=True, slots=True)
class DiceFault:
    """The shake ``shake_id`` gave no result; ``message`` says why in a dealer's words. Shake again."""

    source: str
    shake_id: int
    reason: DiceFaultReason
    message: str
    at: float


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    source: str
    button: Button
    at: float


@dataclass(frozen=True, slots=True)
class ButtonReleased:
    source: str
    button: Button
    at: float


@dataclass(frozen=True, slots=True)
class DeviceIdentity:
    """Who answered on a port: kind, firmware version and serial number, as the device reports them."""

    kind: DeviceKind
    firmware: str
    serial_number: str


@dataclass(frozen=True, slots=True)
class LinkUp:
    """The device answered (after opening or after a reconnect) and is who it should be."""

    source: str
    port: str
    identity: DeviceIdentity
    at: float
    authenticated: bool = True
    """False only for a version 2 device let in by an explicit setting: its frames carry no tag."""


@dataclass(frozen=True, slots=True)
class LinkDown:
    """The link to the device was lost; the driver keeps trying to reconnect, with backoff."""

    source: str
    port: str
    reason: str
    at: float


@dataclass(frozen=True, slots=True)
class DeviceStatus:
    """The device's state changed (or was first learnt)."""

    source: str
    state: DeviceState
    at: float


@dataclass(frozen=True, slots=True)
class DeviceFault:
    """Something is wrong with the device or the link that a person may need to look at.

    ``code`` is a stable word (e.g. ``WRONG_DEVICE``, ``REFUSED``, ``JAMMED``); ``message`` says what to do.
    ``NOT_AUTHENTICATED``: a device, or a frame, that did not prove it holds the paired key was refused (nothing
    it sent is acted on); ``UNAUTHENTICATED_ALLOWED``: a version 2 device is in use by an explicit setting.
    """

    source: str
    code: str
    message: str
    at: float
    serial: str = ""
    """The unit's serial number as it named itself, where known (an unauthenticated device may lie about it)."""


DeviceEvent = (
    DiceRolled
    | DiceFault
    | ButtonPressed
    | ButtonReleased
    | LinkUp
    | LinkDown
    | DeviceStatus
    | DeviceFault
)
"""Everything a device client puts on its queue."""


@dataclass(frozen=True, slots=True)
class LinkCounters:
    """Faults handled on one link since it was opened (a snapshot; read ``client.counters`` again for news)."""

    retries: int = 0
    """Commands sent again because no acknowledgement came in time."""
    crc_errors: int = 0
    """Frames dropped because their CRC did not match."""
    malformed: int = 0
    """Frames dropped because they were cut short, too long, or not in the message grammar."""
    garbage_bytes: int = 0
    """Bytes skipped while looking for the start of a frame."""
    duplicates: int = 0
    """Frames recognised as repeats of the last one (its acknowledgement was lost) and not acted on twice."""
    timeouts: int = 0
    """Commands given up after the last retry, and shakes whose result never came."""
    reconnects: int = 0
    """Times the link came back after being lost."""
    dice_faults: int = 0
    """Shakes that gave no valid result (each one means a re-shake)."""
    refused: int = 0
    """Results and events refused as old: from another session, for a shake other than the one asked for, or
    repeating an event number already acted on under a new sequence number (a replayed frame)."""
    unauthenticated: int = 0
    """Devices and frames refused because they did not prove they hold the paired key (protocol 3): an unpaired
    device, another key, a recorded session played back, a frame altered on the wire, a version 2 device."""
