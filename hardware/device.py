"""The device's side of the protocol, sans I/O: what a shaker or a panel does with each frame, in time.

The simulator runs one ``DeviceEngine`` per simulated device; the reference firmware in ``firmware/`` does the
same things in C++. It is fed bytes and the time, and gives back whole frames to write (whole frames, so that the
simulator can drop, corrupt or repeat them one by one).

Protocol 3: the device keeps its paired key (``key``, its EEPROM), derives a session key at every ``ID NEW
challenge``, tags every frame it sends with it and acts on no host frame whose tag is not right (``ID NEW`` and
``PAIR`` excepted: they carry no tag). A plain ``ID`` it cannot check is answered untagged, so that a host learns
the session it knew is gone and starts a new one.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from hardware import auth
from hardware.events import Button, DeviceIdentity, DeviceKind, DeviceState
from hardware.protocol import (
    MAX_NUMBER,
    NO_SEQ,
    PROTOCOL_VERSION,
    Ack,
    BadFrame,
    ButtonReport,
    DiceReport,
    Frame,
    FrameParser,
    Heartbeat,
    Ident,
    Identify,
    Message,
    MessageError,
    Nak,
    Pair,
    Paired,
    PairRefused,
    QueryStatus,
    Shake,
    ShakeAccepted,
    Stat,
    StateReport,
    encode,
    encode_signed,
    from_frame,
    next_seq,
)

MAX_PENDING_EVENTS = 16
"""Events kept while the host does not acknowledge them; beyond this the oldest button edge is dropped."""

_REFUSAL = {
    DeviceState.SHAKING: "BUSY",
    DeviceState.DOME_OPEN: "DOME_OPEN",
    DeviceState.JAMMED: "JAMMED",
    DeviceState.SENSOR_FAULT: "SENSOR",
}


@dataclass(frozen=True, slots=True)
class DeviceTiming:
    heartbeat: float = 1.0
    """Seconds between heartbeats."""
    event_retry: float = 0.25
    """Seconds before an unacknowledged event is sent again (for as long as it stays unacknowledged)."""
    shake_duration: float = 0.2
    """Seconds from accepting SHAKE to reporting the dice (a real shaker takes about 2 s)."""


@dataclass(frozen=True, slots=True)
class ForcedDice:
    """What the next shake reports instead of fair dice: raw values (``None`` = missing die) or an error code."""

    values: tuple[int | None, ...] = ()
    error: str | None = None


@dataclass(slots=True)
class DeviceCounts:
    crc_errors: int = 0
    malformed: int = 0
    duplicate_shakes: int = 0
    stale_shakes: int = 0
    """SHAKE commands refused because their number is older than the last shake of the session (replays)."""
    shakes_taken: int = 0
    """SHAKE commands accepted (a shake started); each ends in dice or an error."""
    shakes_rolled: int = 0
    events_dropped: int = 0
    unauthenticated: int = 0
    """Host frames not acted on because their tag was missing or wrong (or no session key was agreed yet)."""


class DeviceEngine:
    """One shaker or panel. Not thread-safe: the simulator holds a lock around every call."""

    def __init__(
        self,
        identity: DeviceIdentity,
        dice: random.Random | None = None,
        timing: DeviceTiming | None = None,
        now: float = 0.0,
        key: bytes | None = None,
        pairing_how: str | None = None,
        version: int = PROTOCOL_VERSION,
    ) -> None:
        self.identity = identity
        self.key = key
        """The paired key, as kept in EEPROM (None: never paired). Survives a reboot."""
        self.pairing_how = pairing_how or ("BUTTON" if identity.kind == DeviceKind.PANEL else "JUMPER")
        """What a person does to put this device in pairing mode (``NOPAIR``'s word)."""
        self.pairing_mode = False
        """True from a power-up with the pairing button held (or the jumper fitted) until a key is taken."""
        self.version = version
        """The protocol the device speaks: 3, or 2 for an old device (no tags, no pairing)."""
        self.timing = timing or DeviceTiming()
        self.counts = DeviceCounts()
        self.rolls: list[tuple[int, ...]] = []
        """Every set of dice actually rolled (the tests check a repeated SHAKE never adds one)."""
        self._dice = dice or random.Random()
        self._forced: deque[ForcedDice] = deque()
        self._nonce = random.Random()  # session numbers need not repeat with the dice's seed
        self.boot = 0
        self.session = 0
        self._power_on(now)

    def _power_on(self, now: float) -> None:
        self.boot = self.boot % 0xFFFF + 1  # like a power-up counter kept in EEPROM
        self.state = DeviceState.READY
        self._parser = FrameParser()
        self._out: list[bytes] = []
        self._seq = 0
        self._events: deque[tuple[int, Message]] = deque()
        self._event_sent_at: float | None = None
        self._shaking_command = 0
        self._session_low = self._nonce.getrandbits(16)
        self._session_key: bytes | None = None
        self._new_session()
        self._shake_done_at: float | None = None
        self._next_heartbeat = now
        self._releases: list[tuple[float, Button]] = []
        self.host_seen = False
        """True once a host has said ID since power-up (before that, a new session would drop its events)."""

    def _new_session(self) -> None:
        """A session number never used before: the power-up count above, a count of ``ID NEW`` from a random
        start below. Events are numbered from 1 again, and the memory of the last shake is cleared."""
        self._session_low = (self._session_low + 1) & 0xFFFF
        self.session = (self.boot & 0xFFFF) << 16 | self._session_low
        self._event_number = 0
        self._last_shake_command = 0
        self._last_shake_reply: Message | None = None

    # --- controls (the simulator's fault injection and the panel's buttons) ------------------------------

    def force_next_dice(self, forced: ForcedDice) -> None:
        self._forced.append(forced)

    @property
    def forced_pending(self) -> bool:
        """True when the next shake's outcome is already forced."""
        return bool(self._forced)

    def set_state(self, state: DeviceState, now: float) -> None:
        """Put the device in a state (jam it, open the dome, break the sensor, make it ready again)."""
        if state == self.state:
            return
        if self._shake_done_at is not None and state != DeviceState.SHAKING:
            # A fault in the middle of a shake ends that shake with an error instead of dice.
            self._finish_shake(now, error=_REFUSAL.get(state, "SENSOR"))
        self.state = state
        self._queue_event(StateReport(self.session, self._next_event(), state), now)

    def press(self, button: Button, now: float, hold: float = 0.05) -> None:
        """Press a panel button and release it ``hold`` seconds later."""
        self._queue_event(ButtonReport(self.session, self._next_event(), button, True), now)
        self._releases.append((now + hold, button))

    def reboot(self, now: float, pairing: bool = False) -> None:
        """Power cycle: everything in memory is lost (not the paired key). ``pairing``: with the pairing button
        held, or the jumper fitted, so that the device takes a new key."""
        self._power_on(now)
        self.pairing_mode = pairing and self.version >= 3

    # --- I/O ----------------------------------------------------------------------------------------------

    def frames_to_send(self) -> list[bytes]:
        frames, self._out = self._out, []
        return frames

    def next_deadline(self) -> float:
        times = [self._next_heartbeat]
        if self._shake_done_at is not None:
            times.append(self._shake_done_at)
        if self._events and self._event_sent_at is not None:
            times.append(self._event_sent_at + self.timing.event_retry)
        times += [at for at, _ in self._releases]
        return min(times)

    def poll(self, now: float) -> None:
        if self._shake_done_at is not None and now >= self._shake_done_at:
            self._finish_shake(now)
        due = [button for at, button in self._releases if at <= now]
        self._releases = [(at, button) for at, button in self._releases if at > now]
        for button in due:
            self._queue_event(ButtonReport(self.session, self._next_event(), button, False), now)
        if self._events and self._event_sent_at is not None and now >= self._event_sent_at + self.timing.event_retry:
            self._send_head_event(now)
        if now >= self._next_heartbeat:
            self._out.append(self._encode(NO_SEQ, Heartbeat(self.state)))
            self._next_heartbeat = now + self.timing.heartbeat

    def data_received(self, data: bytes, now: float) -> None:
        for item in self._parser.feed(data):
            if isinstance(item, BadFrame):
                # A damaged frame is dropped without an answer: its sequence number cannot be trusted.
                if item.reason == "crc":
                    self.counts.crc_errors += 1
                else:
                    self.counts.malformed += 1
                continue
            if not isinstance(item, Frame):
                continue  # garbage between frames
            try:
                message = from_frame(item)
            except MessageError:
                self.counts.malformed += 1
                continue
            if self.version >= 3 and not self._believed(item, message):
                if isinstance(message, Identify) and not message.new_session:
                    # Maybe a host of a session this device no longer has (it restarted): say who it is, untagged,
                    # so the host starts a new session. An untagged IDENT is never believed by a host.
                    self._out.append(encode(item.seq, Ident(self.identity, self.session, self.version)))
                else:
                    self.counts.unauthenticated += 1
                continue
            self._command(item.seq, message, now)

    def host_gone(self) -> None:
        """The host closed the port: forget half a frame."""
        self._parser.reset()

    # --- inside -------------------------------------------------------------------------------------------

    def _believed(self, frame: Frame, message: Message) -> bool:
        """A host frame is acted on when its tag is right under the session key; ``ID NEW`` and ``PAIR`` need none."""
        if isinstance(message, Pair) or (isinstance(message, Identify) and message.new_session):
            return True
        if self._session_key is None:
            return False
        return auth.tag_matches(self._session_key, auth.HOST, frame.covered, frame.tag)

    def _encode(self, seq: int, message: Message) -> bytes:
        return encode_signed(seq, message, self._session_key, auth.DEVICE)

    def _reply(self, seq: int, message: Message) -> None:
        self._out.append(self._encode(seq, message))

    def _command(self, seq: int, message: Message, now: float) -> None:
        match message:
            case Pair(key=key):
                if self.version < 3:
                    self.counts.malformed += 1  # a version 2 device knows no PAIR
                elif self.pairing_mode:
                    self.key, self.pairing_mode = key, False
                    self._out.append(encode(seq, Paired()))
                else:
                    self._out.append(encode(seq, PairRefused(self.pairing_how)))
            case Identify(new_session=new, challenge=challenge):
                self.host_seen = True
                if new:  # the events of the old session are the old host's; the new host asks for the state
                    self._new_session()
                    self._events.clear()
                    self._event_sent_at = None
                    self._session_key = None
                    if self.version >= 3 and challenge is not None and self.key is not None:
                        self._session_key = auth.session_key(self.key, challenge, self.session)
                self._reply(seq, Ident(self.identity, self.session, self.version))
                if self._events:
                    self._send_head_event(now)  # a host that came back gets what it missed at once
            case QueryStatus():
                self._reply(seq, Stat(self.state, self._last_shake_command))
            case Shake(command=command):
                self._shake_command(seq, command, now)
            case Ack():
                if self._events and self._events[0][0] == seq:
                    self._events.popleft()
                    self._event_sent_at = None
                    if self._events:
                        self._send_head_event(now)
            case _:
                self.counts.malformed += 1  # a device message sent to a device

    def _shake_command(self, seq: int, command: int, now: float) -> None:
        if self.identity.kind != DeviceKind.SHAKER:
            self._reply(seq, Nak("UNSUPPORTED", self.session, command))
            return
        if command == self._last_shake_command and self._last_shake_reply is not None:
            self.counts.duplicate_shakes += 1  # a retry: answer again, never roll again
            self._reply(seq, self._last_shake_reply)
            return
        if command < self._last_shake_command or command == 0:
            self.counts.stale_shakes += 1  # an old SHAKE sent again: the host has long moved on
            self._reply(seq, Nak("STALE", self.session, command))
            return
        refusal = _REFUSAL.get(self.state)
        reply: Message = Nak(refusal, self.session, command) if refusal else ShakeAccepted(self.session, command)
        self._last_shake_command, self._last_shake_reply = command, reply
        self._reply(seq, reply)
        if refusal is None:
            self.state = DeviceState.SHAKING
            self._shaking_command = command
            self._shake_done_at = now + self.timing.shake_duration
            self.counts.shakes_taken += 1

    def _finish_shake(self, now: float, error: str | None = None) -> None:
        self._shake_done_at = None
        if self.state == DeviceState.SHAKING:
            self.state = DeviceState.READY
        forced = self._forced.popleft() if self._forced else None
        if error is None and forced is not None:
            error = forced.error
        head = (self.session, self._next_event(), self._shaking_command)
        if error is not None:
            self._queue_event(DiceReport(*head, error=error), now)
            return
        if forced is not None:
            values: tuple[int | None, ...] = forced.values
        else:
            values = tuple(self._dice.randint(1, 6) for _ in range(3))
        self.counts.shakes_rolled += 1
        self.rolls.append(tuple(v if v is not None else 0 for v in values))
        self._queue_event(DiceReport(*head, values), now)

    def _next_event(self) -> int:
        self._event_number = self._event_number % MAX_NUMBER + 1
        return self._event_number

    def _queue_event(self, message: Message, now: float) -> None:
        if len(self._events) >= MAX_PENDING_EVENTS:
            for index, (_, queued) in enumerate(self._events):
                if index > 0 and isinstance(queued, ButtonReport):
                    del self._events[index]
                    self.counts.events_dropped += 1
                    break
        self._seq = next_seq(self._seq)
        self._events.append((self._seq, message))
        if len(self._events) == 1:
            self._send_head_event(now)

    def _send_head_event(self, now: float) -> None:
        seq, message = self._events[0]
        self._out.append(self._encode(seq, message))
        self._event_sent_at = now
