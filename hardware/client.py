"""The pyserial transport: one background thread per device turns the port's bytes into events on a queue.

``DeviceClient`` opens any pyserial URL or path (``/dev/ttyUSB0``, ``loop://``, ``socket://host:port``,
``hwgrep://…``) exclusively, identifies the device, and from then on keeps the link alive: when the port fails
(unplugged) or the device stops answering, it reports ``LinkDown``, reopens with backoff, and reports ``LinkUp``
when the device answers again. ``find_devices`` lists ports and who answers on each.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import serial
import serial.tools.list_ports

from engine.clock import Clock, SystemClock
from engine.errors import InputError
from hardware import auth
from hardware.events import DeviceEvent, DeviceFault, DeviceIdentity, DeviceKind, DeviceState, LinkCounters
from hardware.link import HostLink, LinkTiming
from hardware.protocol import (
    PROTOCOL_VERSION,
    Frame,
    FrameParser,
    Ident,
    Identify,
    MessageError,
    Pair,
    Paired,
    PairRefused,
    encode,
    from_frame,
)

_log = logging.getLogger(__name__)

BAUD_RATES = (9600, 19200, 38400, 57600, 115200)
DEFAULT_BAUD = 115200
_READ_WAIT = 0.05  # longest a read blocks; shake() wakes it at once where the port supports cancel_read


def open_port(url: str, baudrate: int = DEFAULT_BAUD, exclusive: bool = True) -> Any:
    """Open a serial port by path or pyserial URL, 8N1, exclusively where the platform allows it."""
    if baudrate not in BAUD_RATES:
        raise InputError(f"baud rate {baudrate} is not one of {', '.join(map(str, BAUD_RATES))}")
    port = serial.serial_for_url(url, do_not_open=True, baudrate=baudrate, timeout=_READ_WAIT, write_timeout=1.0)
    if exclusive and hasattr(port, "exclusive"):
        with contextlib.suppress(ValueError, AttributeError):
            port.exclusive = True
    port.open()
    with contextlib.suppress(serial.SerialException, OSError, NotImplementedError):
        port.reset_input_buffer()  # bytes from before we were listening are stale
    return port


class DeviceClient:
    """A shaker or panel seen from the host. Thread-safe; events arrive on ``events`` (and ``on_event``)."""

    def __init__(
        self,
        port: str,
        *,
        name: str = "device",
        events: queue.Queue[DeviceEvent] | None = None,
        on_event: Callable[[DeviceEvent], None] | None = None,
        expect_kind: DeviceKind | None = None,
        expect_serial: str | None = None,
        baudrate: int = DEFAULT_BAUD,
        timing: LinkTiming | None = None,
        clock: Clock | None = None,
        exclusive: bool = True,
        keys: Mapping[str, bytes] | None = None,
        allow_v2: bool = False,
    ) -> None:
        if baudrate not in BAUD_RATES:
            raise InputError(f"baud rate {baudrate} is not one of {', '.join(map(str, BAUD_RATES))}")
        self.port_name = port
        self.name = name
        self.events: queue.Queue[DeviceEvent] = events if events is not None else queue.Queue()
        self._on_event = on_event
        self._baudrate = baudrate
        self._exclusive = exclusive
        self._clock: Clock = clock or SystemClock()
        """Stamps events' ``at`` and times the link; a clock that moves only when told would hold its timeouts."""
        self._lock = threading.Lock()
        self._link = HostLink(name, port, timing, expect_kind, expect_serial, keys=keys, allow_v2=allow_v2)
        self._timing = self._link.timing
        self._port: Any = None
        self._closing = threading.Event()
        self._up = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"serial-{name}", daemon=True)
        self._thread.start()

    # --- what the kiosk calls -----------------------------------------------------------------------------

    def shake(self) -> int:
        """Ask the shaker to shake; returns at once with the shake's id. The dice come as an event.

        While a shake is pending, calling again returns the same id and does not shake again.
        """
        with self._lock:
            shake_id = self._link.shake(self._clock.monotonic())
        self._wake()
        return shake_id

    def close(self) -> None:
        """Stop the reader thread and close the port."""
        self._closing.set()
        self._wake()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def __enter__(self) -> DeviceClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def counters(self) -> LinkCounters:
        with self._lock:
            return self._link.counters

    @property
    def connected(self) -> bool:
        """True while the device is identified and answering."""
        with self._lock:
            return self._link.up

    @property
    def identity(self) -> DeviceIdentity | None:
        with self._lock:
            return self._link.identity

    @property
    def authenticated(self) -> bool:
        """True while the device is up and proved it holds its paired key (False for an allowed version 2 one)."""
        with self._lock:
            return self._link.up and self._link.authenticated

    @property
    def state(self) -> DeviceState | None:
        with self._lock:
            return self._link.state

    def wait_until_up(self, timeout: float) -> bool:
        """Block until the device is identified (or ``timeout`` seconds pass); True if it is."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.connected:
                return True
            self._up.wait(min(0.05, max(0.0, deadline - time.monotonic())))
        return self.connected

    # --- reader thread ------------------------------------------------------------------------------------

    def _wake(self) -> None:
        port = self._port
        if port is not None and hasattr(port, "cancel_read"):
            with contextlib.suppress(Exception):
                port.cancel_read()

    def _emit(self, events: Iterable[DeviceEvent]) -> None:
        for event in events:
            self.events.put(event)
            if self._on_event is not None:
                try:
                    self._on_event(event)
                except Exception:  # the link must outlive a faulty listener
                    _log.exception("on_event callback failed for %r", event)

    def _run(self) -> None:
        backoff = self._timing.backoff_initial
        while not self._closing.is_set():
            try:
                port = open_port(self.port_name, self._baudrate, self._exclusive)
            except (serial.SerialException, OSError, ValueError) as error:
                with self._lock:
                    events = self._link.open_failed(self._clock.monotonic(), _why(error))
                self._emit(events)
                self._idle(backoff)
                backoff = min(backoff * 2, self._timing.backoff_max)
                continue
            self._port = port
            with self._lock:
                self._link.connection_made(self._clock.monotonic())
            try:
                reason = self._serve(port)
            except Exception as error:  # a bug must not silently stop the devices of a kiosk that runs for days
                _log.exception("serial driver error on %s", self.port_name)
                reason = f"driver error: {error!r}"
                text = f"the serial driver hit an error on {self.port_name} ({error!r}); reconnecting"
                self._emit([DeviceFault(self.name, "DRIVER_ERROR", text, self._clock.monotonic())])
            self._port = None
            with contextlib.suppress(Exception):
                port.close()
            if self._closing.is_set():
                break
            with self._lock:
                was_up = self._link.up
                events = self._link.connection_lost(self._clock.monotonic(), reason)
            self._up.clear()
            self._emit(events)
            backoff = self._timing.backoff_initial if was_up else min(backoff * 2, self._timing.backoff_max)
            self._idle(backoff)
        with self._lock:
            self._link.connection_lost(self._clock.monotonic(), "closed")

    def _idle(self, seconds: float) -> None:
        """Wait before reopening the port, still ending shakes that run out of time meanwhile."""
        until = time.monotonic() + seconds
        while not self._closing.is_set():
            with self._lock:
                now = self._clock.monotonic()
                events = self._link.poll(now)
                deadline = self._link.next_deadline()
            self._emit(events)
            left = until - time.monotonic()
            if left <= 0:
                return
            if deadline is not None:
                left = min(left, max(0.005, deadline - now))
            self._closing.wait(left)

    def _serve(self, port: Any) -> str:
        """Pump one open port until it fails or the device must be dropped; returns why it ended."""
        while not self._closing.is_set():
            try:
                with self._lock:
                    outgoing = self._link.data_to_send()
                if outgoing:
                    port.write(outgoing)
                waiting = port.in_waiting
                data = port.read(max(1, min(waiting, 4096)))
            except (serial.SerialException, OSError) as error:
                return _why(error)
            with self._lock:
                now = self._clock.monotonic()
                events = self._link.data_received(data, now) if data else []
                events += self._link.poll(now)
                dead = self._link.dead_reason
                up = self._link.up
            if up:
                self._up.set()
            self._emit(events)
            if dead is not None:
                return dead
        return "closed"


def _why(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    if "returned no data" in text:  # pyserial's words when the other end of the line went away
        return "the device was disconnected (unplugged or powered off)"
    if isinstance(error, OSError) and error.strerror:
        text = error.strerror + (f": {error.filename}" if error.filename else "")
    return text


# --- finding devices ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FoundPort:
    """A serial port and who answered on it (``identity``), or why nothing did (``problem``)."""

    port: str
    description: str
    identity: DeviceIdentity | None
    problem: str | None
    baudrate: int | None = None
    """The rate at which it answered."""
    trust: str = ""
    """Whether the device proved it holds its paired key: ``authenticated``, or why not (``not paired with this
    kiosk``, ``NOT AUTHENTICATED: …``, ``protocol 2: not authenticated``)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """A device's answer to ``ID NEW challenge``: who it says it is, and whether it proved it."""

    identity: DeviceIdentity
    version: int
    trust: str
    authenticated: bool


def _ask_once(port: Any, message: Identify | Pair, seq: int, timeout: float, tries: int) -> Frame | None:
    """Send one command (again, up to ``tries`` times) and return the reply with its sequence number."""
    parser = FrameParser()
    for _ in range(tries):
        port.write(encode(seq, message))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for item in parser.feed(port.read(max(1, port.in_waiting))):
                if isinstance(item, Frame) and item.seq == seq and item.type in ("IDENT", "PAIRED", "NOPAIR"):
                    return item
    return None


def challenge(
    port_name: str, keys: Mapping[str, bytes] | None = None, baudrate: int = DEFAULT_BAUD, timeout: float = 0.5,
    tries: int = 2,
) -> Answer:
    """Ask the device on a port who it is with ``ID NEW`` and a fresh challenge, and check its answer's tag with
    the unit's key from ``keys``. Starts a new session on the device. Raises ``TimeoutError`` if it is silent."""
    port = open_port(port_name, baudrate)
    try:
        asked = Identify(new_session=True, challenge=auth.new_challenge())
        reply = _ask_once(port, asked, 0xF0, timeout, tries)
    finally:
        port.close()
    message = None
    if reply is not None:
        with contextlib.suppress(MessageError):
            message = from_frame(reply)
    if reply is None or not isinstance(message, Ident):
        raise TimeoutError(f"no device answered on {port_name}")
    identity = message.identity
    if message.version != PROTOCOL_VERSION:
        return Answer(identity, message.version, f"protocol {message.version}: not authenticated", False)
    key = (keys if keys is not None else {}).get(identity.serial_number)
    if key is None:
        return Answer(identity, message.version, "not paired with this kiosk", False)
    assert asked.challenge is not None
    session_key = auth.session_key(key, asked.challenge, message.session)
    if auth.tag_matches(session_key, auth.DEVICE, reply.covered, reply.tag):
        return Answer(identity, message.version, "authenticated", True)
    return Answer(identity, message.version, "NOT AUTHENTICATED: it does not hold this kiosk's key", False)


def identify(port_name: str, baudrate: int = DEFAULT_BAUD, timeout: float = 0.5, tries: int = 2) -> DeviceIdentity:
    """Ask the device on a port who it is (``ID``, which leaves its session alone). Raises ``OSError`` if silent.

    What it says is not proof of anything: ``challenge`` checks it holds its key."""
    port = open_port(port_name, baudrate)
    try:
        reply = _ask_once(port, Identify(), 0xF0, timeout, tries)
    finally:
        port.close()
    if reply is not None:
        with contextlib.suppress(MessageError):
            message = from_frame(reply)
            if isinstance(message, Ident):
                return message.identity
    raise TimeoutError(f"no device answered on {port_name}")


class PairingError(InputError):
    """Pairing did not happen; the message says why and what to do."""


def pair(
    port_name: str, key: bytes, baudrate: int = DEFAULT_BAUD, timeout: float = 0.5, tries: int = 3
) -> DeviceIdentity:
    """Give the device on a port its paired key (it must be in pairing mode: a person at the device), then check
    with a fresh challenge that it holds it. Returns who it is; raises ``PairingError`` saying why not."""
    port = open_port(port_name, baudrate)
    try:
        reply = _ask_once(port, Pair(key), 0xE0, timeout, tries)
    finally:
        port.close()
    if reply is None:
        raise PairingError(f"no device answered the pairing request on {port_name}; check the cable and the port")
    try:
        message = from_frame(reply)
    except MessageError as error:
        raise PairingError(f"the device on {port_name} answered the pairing request wrongly ({error})") from None
    if isinstance(message, PairRefused):
        how = {
            "BUTTON": "hold its CONFIRM (or PAIR) button while you power it up, then pair again",
            "JUMPER": "fit its pairing jumper, power it up, pair again, then take the jumper off",
        }.get(message.how, f"put it in pairing mode ({message.how}) and pair again")
        raise PairingError(f"the device on {port_name} is not in pairing mode: a person at the device must {how}")
    if not isinstance(message, Paired):
        raise PairingError(f"the device on {port_name} did not take the key ({reply.type})")
    answered = challenge(port_name, _AnyUnit(key), baudrate, timeout, tries)
    if not answered.authenticated:
        raise PairingError(
            f"the {answered.identity.kind.value.lower()} {answered.identity.serial_number} on {port_name} said it "
            f"took the key but does not prove it holds it ({answered.trust}); pair it again"
        )
    return answered.identity


class _AnyUnit(Mapping[str, bytes]):
    """One key for whatever serial number the device gives (the check right after pairing)."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def __getitem__(self, serial: str) -> bytes:
        return self._key

    def __iter__(self) -> Any:
        return iter(())

    def __len__(self) -> int:
        return 0


def find_devices(
    extra_ports: Iterable[str] = (),
    baudrate: int | None = None,
    timeout: float = 0.5,
    scan: bool = True,
    keys: Mapping[str, bytes] | None = None,
) -> list[FoundPort]:
    """Every serial port the system lists (unless ``scan`` is false), plus ``extra_ports``, with who answers and
    whether it proves it holds its paired key from ``keys`` (each device is asked with a fresh challenge).

    Without ``baudrate``, each port is asked at 115200 and then at 9600 baud.
    """
    rates = (baudrate,) if baudrate is not None else (DEFAULT_BAUD, 9600)
    candidates: dict[str, str] = {}
    listed = serial.tools.list_ports.comports() if scan else []
    for info in sorted(listed, key=lambda i: i.device):
        candidates[info.device] = info.description or ""
    for extra in extra_ports:
        candidates.setdefault(extra, "given on the command line")
    found: list[FoundPort] = []
    for name, description in candidates.items():
        found.append(_ask(name, description, rates, timeout, keys or {}))
    return found


def _ask(
    name: str, description: str, rates: tuple[int, ...], timeout: float, keys: Mapping[str, bytes]
) -> FoundPort:
    problem = "no answer"
    for rate in rates:
        try:
            answer = challenge(name, keys, rate, timeout)
            return FoundPort(name, description, answer.identity, None, rate, answer.trust)
        except TimeoutError as error:
            problem = _why(error)  # silent at this rate: try the next one
        except (serial.SerialException, OSError, ValueError) as error:
            return FoundPort(name, description, None, _why(error))  # the port itself cannot be used
    return FoundPort(name, description, None, problem)


def find_port(
    kind: DeviceKind, serial_number: str | None = None, extra_ports: Iterable[str] = (), baudrate: int | None = None,
    keys: Mapping[str, bytes] | None = None,
) -> str:
    """The port where a device of this kind (and serial number, if given) answers; ``InputError`` if none does."""
    for found in find_devices(extra_ports, baudrate, keys=keys):
        ident = found.identity
        if ident is not None and ident.kind == kind and serial_number in (None, ident.serial_number):
            return found.port
    wanted = kind.value.lower() + (f" with serial number {serial_number}" if serial_number else "")
    raise InputError(f"no {wanted} answers on any serial port; check the cable and `dealer-assist devices`")
