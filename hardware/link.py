"""The host's side of one device link, sans I/O: acknowledgements, retries, duplicates, timeouts, the shake.

``HostLink`` is fed bytes and the time, and gives back bytes to write and device events. The transport
(``hardware.client``) owns the port and the thread; the tests drive ``HostLink`` directly with a fake clock.

One command is in flight at a time (stop and wait). A command that gets no reply within ``ack_timeout`` is sent
again with the same sequence number, at most ``max_retries`` times; after that the link is declared dead and the
transport reconnects. A pending shake survives a reconnect: it is sent again with its shake number, which the
device recognises, so a shake is never rolled twice; if no result comes within ``shake_timeout`` of the
``shake()`` call, the shake ends in ``DiceFault(TIMEOUT)``.

Nothing is taken on its sequence number alone (protocol version 2): a result must name the device's current
session and the number of the shake asked for, and an event must be newer than the last one of its session; the
rest is refused and counted (``LinkCounters.refused``), so old frames sent again under new numbers do nothing.

Nothing is believed that is not authenticated (protocol version 3): the link starts every session with ``ID NEW``
and a fresh random challenge; the device's ``IDENT`` must carry the tag only the holder of the unit's paired key
(``keys``, by serial number) can make, and every frame after it the tag of that session's key. A device that is
not paired, holds another key, plays back a recorded session or speaks version 2 is refused (``DeviceFault``
``NOT_AUTHENTICATED``, counted in ``LinkCounters.unauthenticated``); so is every frame whose tag is wrong. Only
``allow_v2`` lets a version 2 device in, and then every ``LinkUp`` comes with an ``UNAUTHENTICATED_ALLOWED`` fault.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

from hardware import auth
from hardware.events import (
    ButtonPressed,
    ButtonReleased,
    DeviceEvent,
    DeviceFault,
    DeviceIdentity,
    DeviceKind,
    DeviceState,
    DeviceStatus,
    DiceFault,
    DiceFaultReason,
    DiceRolled,
    LinkCounters,
    LinkDown,
    LinkUp,
)
from hardware.protocol import (
    MAX_NUMBER,
    PROTOCOL_VERSION,
    Ack,
    BadFrame,
    ButtonReport,
    DiceReport,
    Frame,
    FrameParser,
    Garbage,
    Heartbeat,
    Ident,
    Identify,
    Message,
    MessageError,
    Nak,
    Pair,
    QueryStatus,
    Shake,
    ShakeAccepted,
    Stat,
    StateReport,
    encode_signed,
    from_frame,
    next_seq,
)


@dataclass(frozen=True, slots=True)
class LinkTiming:
    """How patient the host is. The defaults suit a real shaker at 115200 or 9600 baud."""

    ack_timeout: float = 0.3
    """Seconds to wait for the reply to a command before sending it again."""
    max_retries: int = 3
    """Times a command is sent again before the link is declared dead."""
    shake_timeout: float = 10.0
    """Seconds from ``shake()`` to the dice result before the shake ends in a TIMEOUT fault."""
    silence_timeout: float = 3.5
    """Seconds without any frame (heartbeats come every second) before the link is declared dead."""
    backoff_initial: float = 0.05
    """First wait before reopening a lost port; doubles on each failure up to ``backoff_max``."""
    backoff_max: float = 2.0

    def __post_init__(self) -> None:
        for name in ("ack_timeout", "shake_timeout", "silence_timeout", "backoff_initial", "backoff_max"):
            if not getattr(self, name) > 0:
                raise ValueError(f"link timing {name} must be a positive number of seconds")
        if self.max_retries < 0:
            raise ValueError("link timing max_retries must be 0 or more")


_NAK_REASONS = {
    "BUSY": DiceFaultReason.BUSY,
    "JAMMED": DiceFaultReason.JAMMED,
    "DOME_OPEN": DiceFaultReason.DOME_OPEN,
    "SENSOR": DiceFaultReason.SENSOR_FAULT,
    "MISSING": DiceFaultReason.MISSING_DIE,
    "INVALID": DiceFaultReason.INVALID_VALUE,
}

_REASON_WORDS = {
    DiceFaultReason.INVALID_VALUE: "a die read outside 1-6",
    DiceFaultReason.MISSING_DIE: "fewer than three dice were read",
    DiceFaultReason.SENSOR_FAULT: "the dice sensor failed",
    DiceFaultReason.JAMMED: "the shaker is jammed; clear it",
    DiceFaultReason.DOME_OPEN: "the dome is open; close it",
    DiceFaultReason.BUSY: "the shaker was busy",
    DiceFaultReason.TIMEOUT: "no result came back from the shaker",
    DiceFaultReason.INTERRUPTED: "the shaker restarted in the middle of the shake and its result is lost",
}


def validate_dice(report: DiceReport) -> tuple[tuple[int, int, int] | None, DiceFaultReason | None, str]:
    """Turn what the device reported into three dice, or the reason it is no result, with a message.

    Only three values, each 1–6, make a result; anything else is a fault, whatever the device claimed.
    """
    if report.error is not None:
        reason = _NAK_REASONS.get(report.error, DiceFaultReason.SENSOR_FAULT)
        return None, reason, f"shake again: {_REASON_WORDS[reason]} (device said {report.error})"
    present = [v for v in report.values if v is not None]
    if len(report.values) != 3 or len(present) != 3:
        shown = " ".join("-" if v is None else str(v) for v in report.values) or "nothing"
        return None, DiceFaultReason.MISSING_DIE, f"shake again: {_REASON_WORDS[DiceFaultReason.MISSING_DIE]} ({shown})"
    bad = [v for v in present if not 1 <= v <= 6]
    if bad:
        shown = " ".join(str(v) for v in present)
        reason = DiceFaultReason.INVALID_VALUE
        return None, reason, f"shake again: {_REASON_WORDS[reason]} ({shown})"
    a, b, c = present
    return (a, b, c), None, ""


@dataclass(slots=True)
class _Outgoing:
    seq: int
    message: Message
    sent_at: float | None = None
    tries: int = 0


@dataclass(slots=True)
class _ShakeRequest:
    shake_id: int
    command: int
    """The shake number on the wire; its result must name it (and the device's current session)."""
    started: float
    seq: int | None = None
    acked: bool = False


@dataclass(slots=True)
class _Counts:
    retries: int = 0
    crc_errors: int = 0
    malformed: int = 0
    garbage_bytes: int = 0
    duplicates: int = 0
    timeouts: int = 0
    reconnects: int = 0
    dice_faults: int = 0
    refused: int = 0
    unauthenticated: int = 0


class HostLink:
    """The host end of one link. Not thread-safe: the transport holds a lock around every call."""

    def __init__(
        self,
        source: str,
        port: str,
        timing: LinkTiming | None = None,
        expect_kind: DeviceKind | None = None,
        expect_serial: str | None = None,
        keys: Mapping[str, bytes] | None = None,
        allow_v2: bool = False,
    ) -> None:
        self.source = source
        self.port = port
        self.timing = timing or LinkTiming()
        self.expect_kind = expect_kind
        self.expect_serial = expect_serial
        self.keys: Mapping[str, bytes] = keys if keys is not None else {}
        """Paired keys by unit serial number; a unit without one is refused."""
        self.allow_v2 = allow_v2
        """Let a version 2 device in, unauthenticated (an explicit setting, shown wherever the link is)."""
        self.authenticated = False
        """True while the link runs on a session key the device proved it holds."""
        self._session_key: bytes | None = None
        self._v2 = False
        self._refusal_reported: str | None = None
        self._forgery_reported = False
        self._untagged_pending = False
        """An untagged frame came while up; the device is being asked whether it lost its session."""
        self.identity: DeviceIdentity | None = None
        self.state: DeviceState | None = None
        self.connected = False
        self.up = False
        self.dead_reason: str | None = None
        """Set when the link should be dropped (no replies, silence, wrong device); the transport reconnects."""
        self._parser = FrameParser()
        self._out = bytearray()
        self._seq = 0
        self._queue: deque[_Outgoing] = deque()
        self._in_flight: _Outgoing | None = None
        self._shake: _ShakeRequest | None = None
        self._shake_ids = 0
        self._commands = 0
        self._session: int | None = None
        """The device's session number, learnt from its IDENT; events and shake answers must name it."""
        self._last_event = 0
        """The highest event number of this session seen; an event must be newer to be acted on."""
        self._last_event_seq: int | None = None
        self._session_started = False
        self._ever_up = False
        self._down_reported = False
        self._echo_reported = False
        self._last_heard = 0.0
        self._counts = _Counts()

    # --- what the transport calls -------------------------------------------------------------------------

    @property
    def counters(self) -> LinkCounters:
        c = self._counts
        return LinkCounters(
            c.retries, c.crc_errors, c.malformed, c.garbage_bytes, c.duplicates, c.timeouts, c.reconnects,
            c.dice_faults, c.refused, c.unauthenticated,
        )

    def connection_made(self, now: float) -> None:
        """The port is open: forget half-received bytes and identify the device (a new session the first time)."""
        self.connected = True
        self.up = False
        self.dead_reason = None
        self._parser.reset()
        self._out.clear()
        self._last_heard = now
        self._queue = deque(o for o in self._queue if isinstance(o.message, Shake))
        if self._in_flight is not None and isinstance(self._in_flight.message, Shake):
            self._queue.appendleft(self._in_flight)
        self._in_flight = None
        shake = self._shake
        if shake is not None and shake.seq is not None and not any(o.seq == shake.seq for o in self._queue):
            # Acknowledged before the link went: ask again with the same number. A device that remembers it
            # answers ACK and re-sends the result; one that rebooted (and never reported it) rolls it now.
            self._queue.appendleft(_Outgoing(shake.seq, Shake(shake.command)))
        for outgoing in self._queue:
            outgoing.sent_at, outgoing.tries = None, 0
        # A session is taken up again only with its key (or, for an allowed version 2 device, as it is).
        resume = self._session_started and (self._session_key is not None or self._v2)
        self._queue.appendleft(_Outgoing(self._take_seq(), self._identify(new=not resume)))
        self._pump(now)

    @staticmethod
    def _identify(new: bool) -> Identify:
        """``ID``, or ``ID NEW`` with a fresh challenge (a retry of it keeps its challenge: same message)."""
        return Identify(new_session=True, challenge=auth.new_challenge()) if new else Identify()

    def connection_lost(self, now: float, reason: str) -> list[DeviceEvent]:
        """The port failed, or the link was dropped. Returns ``LinkDown`` once per outage."""
        self.connected = False
        self.up = False
        self.dead_reason = None
        return self._report_down(now, reason)

    def open_failed(self, now: float, reason: str) -> list[DeviceEvent]:
        """Opening the port failed. Returns ``LinkDown`` once per outage."""
        return self._report_down(now, reason)

    def _report_down(self, now: float, reason: str) -> list[DeviceEvent]:
        if self._down_reported:
            return []
        self._down_reported = True
        return [LinkDown(self.source, self.port, reason, now)]

    def shake(self, now: float) -> int:
        """Ask for a shake; returns its id. While one is pending, returns that one's id (never a second roll)."""
        if self._shake is not None:
            return self._shake.shake_id
        self._shake_ids += 1
        self._commands = self._commands % MAX_NUMBER + 1
        self._shake = _ShakeRequest(self._shake_ids, self._commands, now)
        outgoing = _Outgoing(self._take_seq(), Shake(self._commands))
        self._shake.seq = outgoing.seq
        self._queue.append(outgoing)
        self._pump(now)
        return self._shake_ids

    @property
    def shake_pending(self) -> bool:
        return self._shake is not None

    def data_to_send(self) -> bytes:
        data = bytes(self._out)
        self._out.clear()
        return data

    def next_deadline(self) -> float | None:
        """When ``poll`` next has something to do (a retry, a shake timeout, the silence limit)."""
        times: list[float] = []
        if self._in_flight is not None and self._in_flight.sent_at is not None:
            times.append(self._in_flight.sent_at + self.timing.ack_timeout)
        if self._shake is not None:
            times.append(self._shake.started + self.timing.shake_timeout)
        if self.connected:
            times.append(self._last_heard + self.timing.silence_timeout)
        return min(times) if times else None

    def poll(self, now: float) -> list[DeviceEvent]:
        """Retries, timeouts, silence. Call whenever ``next_deadline`` has passed (calling more often is fine)."""
        events: list[DeviceEvent] = []
        if self._shake is not None and now >= self._shake.started + self.timing.shake_timeout:
            self._counts.timeouts += 1
            text = f"shake again: {_REASON_WORDS[DiceFaultReason.TIMEOUT]}"
            events.append(self._fault_shake(now, DiceFaultReason.TIMEOUT, text))
        if not self.connected:
            return events
        flight = self._in_flight
        if flight is not None and flight.sent_at is not None and now >= flight.sent_at + self.timing.ack_timeout:
            if flight.tries > self.timing.max_retries:
                if self.dead_reason is None:
                    self._counts.timeouts += 1
                    self.dead_reason = f"no reply to {type(flight.message).__name__} after {flight.tries} tries"
            else:
                self._counts.retries += 1
                self._send(flight, now)
        if now >= self._last_heard + self.timing.silence_timeout and self.dead_reason is None:
            self.dead_reason = f"device silent for {self.timing.silence_timeout:g} s"
        return events

    def data_received(self, data: bytes, now: float) -> list[DeviceEvent]:
        events: list[DeviceEvent] = []
        for item in self._parser.feed(data):
            if isinstance(item, Garbage):
                self._counts.garbage_bytes += item.count
            elif isinstance(item, BadFrame):
                if item.reason == "crc":
                    self._counts.crc_errors += 1
                else:
                    self._counts.malformed += 1
            else:
                events.extend(self._frame_received(item, now))
        self._pump(now)
        return events

    # --- inside -------------------------------------------------------------------------------------------

    def _take_seq(self) -> int:
        self._seq = next_seq(self._seq)
        return self._seq

    def _send(self, outgoing: _Outgoing, now: float) -> None:
        outgoing.tries += 1
        outgoing.sent_at = now
        message = outgoing.message
        starts_session = isinstance(message, Identify) and message.new_session
        self._out += encode_signed(outgoing.seq, message, None if starts_session else self._session_key, auth.HOST)

    def _pump(self, now: float) -> None:
        """Send the next queued command if none is in flight (only ``ID`` until the device is identified)."""
        if not self.connected or self._in_flight is not None or not self._queue:
            return
        if not self.up and not isinstance(self._queue[0].message, Identify):
            return
        self._in_flight = self._queue.popleft()
        self._send(self._in_flight, now)

    def _frame_received(self, frame: Frame, now: float) -> list[DeviceEvent]:
        try:
            message = from_frame(frame)
        except MessageError:
            self._counts.malformed += 1
            return []
        flight = self._in_flight
        if (
            isinstance(message, Ident) and flight is not None and flight.seq == frame.seq
            and isinstance(flight.message, Identify)
        ):
            self._last_heard = now
            return self._reply_received(frame, message, now)  # its tag is checked where the session is known
        if isinstance(message, Identify | QueryStatus | Shake | Ack | Pair):
            return self._echoed(now)
        if self._session_key is not None:
            if not auth.tag_matches(self._session_key, auth.DEVICE, frame.covered, frame.tag):
                return self._forged(frame, now)
        elif not self._v2:
            if not self.up:
                self._last_heard = now  # a device still being identified; nothing it says is acted on
            return []
        self._last_heard = now
        if isinstance(message, Heartbeat):
            return self._state_seen(message.state, now)
        if isinstance(message, DiceReport | ButtonReport | StateReport):
            if not self.up:
                return []  # not from a device we have identified yet; it sends it again after its IDENT
            return self._event_received(frame.seq, message, now)
        if isinstance(message, ShakeAccepted | Nak | Ident | Stat):
            return self._reply_received(frame, message, now)
        self._counts.malformed += 1  # a reply about pairing outside pairing: not part of a running link
        return []

    def _echoed(self, now: float) -> list[DeviceEvent]:
        self._counts.malformed += 1  # a host message coming back: the line echoes (loopback plug, wrong wiring)
        if self._echo_reported:
            return []
        self._echo_reported = True
        text = f"{self.port} sends our own commands back (a loopback plug or wrong wiring?); check the cable"
        return [DeviceFault(self.source, "ECHO", text, now)]

    def _forged(self, frame: Frame, now: float) -> list[DeviceEvent]:
        """A frame whose tag is missing or wrong: never acted on, counted, reported once per link-up.

        An untagged frame may also come from the device itself after a restart the link did not notice: it is
        asked who it is (a plain, tagged ``ID``, also after a wrongly tagged frame); a device that lost the session
        answers untagged and the link starts a new one, while one that still has it answers in its session, and
        the untagged frame was not its own: reported then.
        """
        self._counts.unauthenticated += 1
        self._ask_who()  # also a device whose session was reset from the cable (ID NEW needs no key) shows so
        if frame.tag is None:
            self._untagged_pending = True
            return []
        return self._report_forgery(frame.type, now)

    def _report_forgery(self, frame_type: str, now: float) -> list[DeviceEvent]:
        if self._forgery_reported:
            return []
        self._forgery_reported = True
        serial = self.identity.serial_number if self.identity is not None else ""
        what = self.identity.kind.value.lower() if self.identity is not None else "device"
        text = (
            f"{what} {serial} on {self.port}: a {frame_type} frame that failed its authentication was refused "
            "(forged, spliced in or altered on the wire); nothing it said was acted on; call a supervisor"
        )
        return [DeviceFault(self.source, "NOT_AUTHENTICATED", text, now, serial)]

    def _refuse(self, identity: DeviceIdentity, why: str, now: float) -> list[DeviceEvent]:
        """Refuse the device that answered: the link is dropped (and retried), the refusal reported once."""
        self._counts.unauthenticated += 1
        self._session_key = None
        self.authenticated = False
        self.dead_reason = f"not authenticated: {why}"
        text = f"{identity.kind.value.lower()} not authenticated: {identity.serial_number} on {self.port}: {why}"
        if text == self._refusal_reported:
            return []
        self._refusal_reported = text
        return [DeviceFault(self.source, "NOT_AUTHENTICATED", text, now, identity.serial_number)]

    def _reply_received(self, frame: Frame, message: Message, now: float) -> list[DeviceEvent]:
        seq = frame.seq
        flight = self._in_flight
        if flight is None or flight.seq != seq:
            self._counts.duplicates += 1  # a reply to a command already answered (its retry crossed the reply)
            return []
        if isinstance(flight.message, Shake) and not (
            isinstance(message, ShakeAccepted | Nak)
            and message.session == self._session
            and message.command == flight.message.command
        ):
            # An answer about another shake or from another session (an old frame under this sequence number):
            # not this shake's answer, which is still awaited (the retry brings it if it was lost).
            self._counts.refused += 1
            return []
        self._in_flight = None
        events: list[DeviceEvent] = []
        if isinstance(flight.message, Identify):
            if not isinstance(message, Ident):
                self.dead_reason = f"the device answered ID with {type(message).__name__}"
                return []
            events += self._identified(message, frame, flight.message, now)
        elif isinstance(flight.message, QueryStatus):
            if isinstance(message, Stat):
                events += self._state_seen(message.state, now)
        elif isinstance(flight.message, Shake):
            if isinstance(message, ShakeAccepted):
                if self._shake is not None and self._shake.command == message.command:
                    self._shake.acked = True
            elif isinstance(message, Nak):
                reason = _NAK_REASONS.get(message.code)
                if reason is None:
                    text = f"the shaker refused to shake ({message.code}); check the device"
                    events.append(DeviceFault(self.source, "REFUSED", text, now))
                    reason = DiceFaultReason.BUSY
                else:
                    text = f"shake again: {_REASON_WORDS[reason]} (device said {message.code})"
                if self._shake is not None and self._shake.command == message.command:
                    events.append(self._fault_shake(now, reason, text))
        self._pump(now)
        return events

    def _identified(self, ident: Ident, frame: Frame, asked: Identify, now: float) -> list[DeviceEvent]:
        identity = ident.identity
        if ident.version == 2 and not self.allow_v2:
            why = (
                "it speaks serial protocol version 2, whose frames are not authenticated: update its firmware and "
                "pair it (dealer-assist devices pair), or allow version 2 devices in the kiosk's config "
                "(devices.allow_version_2); call a supervisor"
            )
            return self._refuse(identity, why, now)
        if ident.version not in (PROTOCOL_VERSION, 2):
            self.dead_reason = f"protocol version {ident.version}, {PROTOCOL_VERSION} expected"
            text = (
                f"the {identity.kind.value.lower()} on {self.port} speaks serial protocol version {ident.version}; "
                f"this kiosk speaks version {PROTOCOL_VERSION}: update the device's firmware (hardware/PROTOCOL.md)"
            )
            return [DeviceFault(self.source, "PROTOCOL", text, now)]
        if self.expect_kind is not None and identity.kind != self.expect_kind:
            self.dead_reason = f"wrong device: {identity.kind.value} answered, {self.expect_kind.value} expected"
            text = (
                f"the device on {self.port} is a {identity.kind.value.lower()}, not a "
                f"{self.expect_kind.value.lower()}; check which cable goes where"
            )
            return [DeviceFault(self.source, "WRONG_DEVICE", text, now)]
        if self.expect_serial is not None and identity.serial_number != self.expect_serial:
            self.dead_reason = f"wrong device: serial {identity.serial_number}, expected {self.expect_serial}"
            text = (
                f"the {identity.kind.value.lower()} on {self.port} has serial number {identity.serial_number}, "
                f"not {self.expect_serial}; plug in the right one or change the configuration"
            )
            return [DeviceFault(self.source, "WRONG_DEVICE", text, now)]
        if ident.version == PROTOCOL_VERSION:
            if asked.new_session:
                key = self.keys.get(identity.serial_number)
                if key is None:
                    why = (
                        f"it is not paired with this kiosk: a supervisor pairs it "
                        f"(dealer-assist devices pair --port {self.port}); until then nothing it sends is acted on"
                    )
                    return self._refuse(identity, why, now)
                if asked.challenge is None:
                    raise AssertionError("ID NEW is always sent with a challenge")
                session_key = auth.session_key(key, asked.challenge, ident.session)
                if not auth.tag_matches(session_key, auth.DEVICE, frame.covered, frame.tag):
                    why = (
                        "it did not prove it holds the key paired with this kiosk (another key, a recording of an "
                        "earlier session, or a device spliced into the cable); nothing it sends is acted on; call a "
                        "supervisor"
                    )
                    return self._refuse(identity, why, now)
                self._session_key, self._v2 = session_key, False
            elif self._session_key is None or not auth.tag_matches(
                self._session_key, auth.DEVICE, frame.covered, frame.tag
            ):
                # The device no longer has the session we knew (it restarted): start a new one, authenticated.
                self._untagged_pending = False
                self._session_started = False
                self._queue.appendleft(_Outgoing(self._take_seq(), self._identify(new=True)))
                return []
            elif self._untagged_pending and ident.session == self._session:
                # The device still has its session: the untagged frames that made us ask were not its own.
                self._untagged_pending = False
                spliced = self._report_forgery("untagged", now)
                self._queue.appendleft(_Outgoing(self._take_seq(), QueryStatus()))
                return spliced
        else:
            self._session_key, self._v2 = None, True
        if self.identity is not None and identity.serial_number != self.identity.serial_number:
            # Another unit of the same kind: it never saw our numbers, so start a fresh session with it.
            self._session_started = False
            if not asked.new_session:
                self._queue.appendleft(_Outgoing(self._take_seq(), self._identify(new=True)))
        interrupted: list[DeviceEvent] = []
        if ident.session != self._session:
            # A new session (power cycle, ID NEW, another unit): its events are numbered afresh, and it has no
            # memory of a shake asked for in the old one.
            self._session = ident.session
            self._last_event, self._last_event_seq = 0, None
            if self._shake is not None and self._shake.acked:
                # It took the shake in the session now gone: whether it rolled, and what, is not known here (a
                # result may have been kept from us, and ID NEW needs no key). Asking again would roll a second
                # time unseen, so that whoever can reset the session could choose among rolls: the dealer shakes
                # again instead, on record.
                text = f"shake again: {_REASON_WORDS[DiceFaultReason.INTERRUPTED]}"
                interrupted.append(self._fault_shake(now, DiceFaultReason.INTERRUPTED, text))
            else:
                self._ask_shake_again()
        self._session_started = True
        if self.up and identity == self.identity:
            # Asked again in the middle of a link (an event named another session): not a new connection.
            self._queue.appendleft(_Outgoing(self._take_seq(), QueryStatus()))
            return interrupted
        self.identity = identity
        self.state = None  # the STAT reply that follows reports it afresh after every LinkUp
        self.up = True
        self.authenticated = not self._v2
        self._refusal_reported, self._forgery_reported = None, False
        if self._ever_up:
            self._counts.reconnects += 1
        self._ever_up = True
        self._down_reported = False
        self._queue.appendleft(_Outgoing(self._take_seq(), QueryStatus()))
        events: list[DeviceEvent] = [*interrupted, LinkUp(self.source, self.port, identity, now,
                                                          authenticated=not self._v2)]
        if self._v2:
            text = (
                f"{identity.kind.value.lower()} {identity.serial_number} on {self.port} speaks protocol version 2: "
                "its dice and buttons are NOT authenticated (allowed by devices.allow_version_2); update its "
                "firmware and pair it"
            )
            events.append(DeviceFault(self.source, "UNAUTHENTICATED_ALLOWED", text, now, identity.serial_number))
        return events

    def _ask_shake_again(self) -> None:
        """Send the pending shake again, with its number, unless it is about to go out anyway."""
        shake = self._shake
        if shake is None:
            return
        outgoing = [o for o in (self._in_flight, *self._queue) if o is not None]
        if any(isinstance(o.message, Shake) for o in outgoing):
            return
        shake.acked = False
        shake.seq = self._take_seq()
        self._queue.append(_Outgoing(shake.seq, Shake(shake.command)))

    def _ask_who(self) -> None:
        """Ask the device who it is (plain ``ID``, which leaves its session alone), unless that is under way."""
        if any(isinstance(o.message, Identify) for o in (self._in_flight, *self._queue) if o is not None):
            return
        self._queue.appendleft(_Outgoing(self._take_seq(), Identify()))

    def _event_received(
        self, seq: int, message: DiceReport | ButtonReport | StateReport, now: float
    ) -> list[DeviceEvent]:
        if message.session != self._session:
            # From another session: an old frame sent again, or the device restarted without the link noticing.
            # Not acknowledged; the device is asked who it is, and if its session really changed, it sends this
            # event again after its IDENT (and it is taken then).
            self._counts.refused += 1
            self._ask_who()
            return []
        self._out += encode_signed(seq, Ack(), self._session_key, auth.HOST)
        if message.event <= self._last_event:
            if message.event == self._last_event and seq == self._last_event_seq:
                self._counts.duplicates += 1  # the same frame again: our ACK was lost
            else:
                self._counts.refused += 1  # an event already acted on, under a new sequence number
            return []
        self._last_event, self._last_event_seq = message.event, seq
        if isinstance(message, ButtonReport):
            kind = ButtonPressed if message.pressed else ButtonReleased
            return [kind(self.source, message.button, now)]
        if isinstance(message, StateReport):
            return self._state_seen(message.state, now)
        shake = self._shake
        if shake is None or shake.command != message.command:
            self._counts.refused += 1  # the result of a shake already settled or given up on
            return []
        values, reason, text = validate_dice(message)
        if values is None:
            assert reason is not None
            return [self._fault_shake(now, reason, text)]
        self._shake = None
        return [DiceRolled(self.source, shake.shake_id, values, now)]

    def _fault_shake(self, now: float, reason: DiceFaultReason, text: str) -> DiceFault:
        shake = self._shake
        assert shake is not None
        self._shake = None
        self._counts.dice_faults += 1
        if self._in_flight is not None and isinstance(self._in_flight.message, Shake):
            self._in_flight = None
        self._queue = deque(o for o in self._queue if not isinstance(o.message, Shake))
        return DiceFault(self.source, shake.shake_id, reason, text, now)

    def _state_seen(self, state: DeviceState, now: float) -> list[DeviceEvent]:
        if not self.up or state == self.state:  # before LinkUp, the STAT reply right after it tells
            return []
        self.state = state
        return [DeviceStatus(self.source, state, now)]

