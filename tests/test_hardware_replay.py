"""Old frames slipped back onto the line with new sequence numbers are never acted on; fresh ones still are.

Between the host driver and the simulated device sits a serial bridge on a second real pty pair: it passes every
byte through, keeps what the device sent, and replays it (same content, a new sequence number, a good CRC) at
the worst moments: right after the press it repeats, into a later host session, and once the host's command
counter has gone round past 255 to the very number an old result names.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import selectors
import threading
import time
import tty
from collections.abc import Callable, Iterator

import pytest

from hardware.client import DeviceClient
from hardware.device import DeviceTiming
from hardware.events import (
    Button,
    ButtonPressed,
    ButtonReleased,
    DeviceEvent,
    DeviceKind,
    DeviceState,
    DiceFault,
    DiceRolled,
)
from hardware.link import LinkTiming
from hardware.protocol import Frame, FrameParser
from hardware.sim import start_simulated_devices

FAST_DEVICE = DeviceTiming(heartbeat=0.2, event_retry=0.1, shake_duration=0.05)
FAST_HOST = LinkTiming(
    ack_timeout=0.1, max_retries=3, shake_timeout=3.0, silence_timeout=1.0, backoff_initial=0.02, backoff_max=0.2
)
Hook = Callable[[Frame], list[bytes]]


def not_taken(client: DeviceClient) -> int:
    """Frames refused: as old (protocol 2's numbers), or because their tag no longer fits (protocol 3: the
    sequence number is under the tag, so a frame re-sent under a new one is refused before its numbers are read)."""
    counters = client.counters
    return counters.refused + counters.unauthenticated


def resequenced(frame: Frame, seq: int) -> bytes:
    """The same frame under another sequence number, with a CRC that matches: what a replay looks like."""
    return Frame(seq, frame.type, frame.fields).encode()


class Bridge:
    """A serial bridge between a host port (a new pty pair) and a device port, with a tap and a way to inject."""

    def __init__(self, device_port: str) -> None:
        self._device = os.open(device_port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self._device)
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._host, self._slave = master, slave  # the slave stays open: the host may close and reopen it
        self.port = os.ttyname(slave)
        self.from_device: list[Frame] = []
        self.from_host: list[Frame] = []
        self.after_device_frame: Hook | None = None
        """Called with each frame the device sent, once it is passed on; what it returns goes to the host next."""
        self.after_host_frame: Hook | None = None
        """Called with each frame the host sent, once it is passed on; what it returns goes to the host next."""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bridge", daemon=True)
        self._thread.start()

    def inject(self, data: bytes) -> None:
        """Write bytes to the host as if the device had sent them."""
        with self._lock:
            os.write(self._host, data)

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._device, selectors.EVENT_READ, "device")
        selector.register(self._host, selectors.EVENT_READ, "host")
        pending = {"device": b"", "host": b""}
        parsers = {"device": FrameParser(), "host": FrameParser()}
        while not self._stop.is_set():
            for key, _ in selector.select(0.05):
                side = key.data
                try:
                    data = os.read(key.fd, 4096)
                except (BlockingIOError, OSError):
                    continue
                pending[side] += data
                while b"\n" in pending[side]:  # pass whole lines, so injected frames never split one
                    line, pending[side] = pending[side].split(b"\n", 1)
                    self._pass(side, line + b"\n", parsers[side])
        selector.close()

    def _pass(self, side: str, line: bytes, parser: FrameParser) -> None:
        frames = [item for item in parser.feed(line) if isinstance(item, Frame)]
        # Kept before it is passed on: a test that has seen the host act on a frame finds it in the tap.
        (self.from_device if side == "device" else self.from_host).extend(frames)
        with self._lock:
            os.write(self._host if side == "device" else self._device, line)
        for item in frames:
            hook = self.after_device_frame if side == "device" else self.after_host_frame
            for extra in hook(item) if hook is not None else []:
                self.inject(extra)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for fd in (self._device, self._host, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class Setup:
    """The simulator, a bridge in front of one of its devices, and a host client on the bridge."""

    def __init__(self, device: str, seed: int = 5) -> None:
        _, _, self.sim = start_simulated_devices(seed, timing=FAST_DEVICE)
        self.device = getattr(self.sim, device)
        self.kind = DeviceKind.SHAKER if device == "shaker" else DeviceKind.PANEL
        self.bridge = Bridge(self.device.port)
        self.seen: list[DeviceEvent] = []
        self.client = self.connect()

    def connect(self) -> DeviceClient:
        """A host session on the bridge (a kiosk that starts, or starts again)."""
        self.inbox: queue.Queue[DeviceEvent] = queue.Queue()
        self.seen = []
        client = DeviceClient(
            self.bridge.port, name="dev", events=self.inbox, expect_kind=self.kind, timing=FAST_HOST,
            keys=self.sim.keys,
        )
        assert client.wait_until_up(3.0)
        return client

    def wait_for(self, done: Callable[[list[DeviceEvent]], bool], timeout: float = 4.0) -> list[DeviceEvent]:
        deadline = time.monotonic() + timeout
        while not done(self.seen):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out; events so far: {self.seen}")
            with contextlib.suppress(queue.Empty):
                self.seen.append(self.inbox.get(timeout=min(remaining, 0.1)))
        return self.seen

    def of(self, kind: type) -> list[DeviceEvent]:
        return [e for e in self.seen if isinstance(e, kind)]

    def shake_and_wait(self) -> DiceRolled | DiceFault:
        shake_id = self.client.shake()
        ended = self.wait_for(lambda seen: any(_ends(e, shake_id) for e in seen))
        [outcome] = [e for e in ended if _ends(e, shake_id)]
        assert isinstance(outcome, DiceRolled | DiceFault)
        return outcome

    def close(self) -> None:
        self.client.close()
        self.bridge.close()
        self.sim.stop()


def _ends(event: DeviceEvent, shake_id: int) -> bool:
    return isinstance(event, DiceRolled | DiceFault) and event.shake_id == shake_id


@pytest.fixture
def panel() -> Iterator[Setup]:
    made = Setup("panel")
    yield made
    made.close()


@pytest.fixture
def shaker() -> Iterator[Setup]:
    made = Setup("shaker")
    yield made
    made.close()


def _edges(setup: Setup) -> list[tuple[str, Button]]:
    return [(type(e).__name__, e.button) for e in setup.seen if isinstance(e, ButtonPressed | ButtonReleased)]


def test_button_frames_replayed_with_new_sequence_numbers_are_not_pressed_again(panel: Setup) -> None:
    panel.sim.press(Button.CONFIRM, hold=0.02)
    panel.wait_for(lambda seen: any(isinstance(e, ButtonReleased) for e in seen))
    captured = [f for f in panel.bridge.from_device if f.type == "BTN"]
    assert len(captured) == 2  # the press and the release, as the device sent them
    rng = random.Random(1)
    replays = 0
    for frame in captured * 30:
        seq = rng.choice([s for s in range(1, 256) if s != frame.seq])
        panel.bridge.inject(resequenced(frame, seq))
        replays += 1
    panel.sim.press(Button.VOID, hold=0.02)  # a fresh press after the replays: it still counts, once
    panel.wait_for(lambda seen: sum(isinstance(e, ButtonReleased) for e in seen) >= 2)
    assert _edges(panel) == [
        ("ButtonPressed", Button.CONFIRM),
        ("ButtonReleased", Button.CONFIRM),
        ("ButtonPressed", Button.VOID),
        ("ButtonReleased", Button.VOID),
    ]
    assert not_taken(panel.client) >= replays


def test_an_old_result_replayed_into_a_new_host_session_is_not_the_new_shake(shaker: Setup) -> None:
    shaker.device.force_next_dice((1, 1, 1))
    assert shaker.shake_and_wait() == shaker.of(DiceRolled)[0]
    shaker.device.force_next_dice(error="SENSOR")
    assert isinstance(shaker.shake_and_wait(), DiceFault)
    old_results = [f for f in shaker.bridge.from_device if f.type == "DICE"]  # a result and a failed shake
    shaker.client.close()  # the kiosk restarts: a new host session on the same, still powered, shaker
    shaker.client = shaker.connect()
    shaker.device.engine.timing = DeviceTiming(heartbeat=0.2, event_retry=0.1, shake_duration=0.3)
    shaker.device.force_next_dice((6, 6, 6))
    rng = random.Random(2)
    shaker.bridge.after_device_frame = lambda frame: (
        [resequenced(old, rng.randint(1, 255)) for old in old_results] if frame.type == "ACK" else []
    )  # each old result slipped in while the new shake is rolling
    outcome = shaker.shake_and_wait()
    assert isinstance(outcome, DiceRolled) and outcome.values == (6, 6, 6)
    assert shaker.device.engine.rolls[-1] == (6, 6, 6)
    assert not_taken(shaker.client) >= len(old_results)


def test_an_old_result_is_not_taken_once_the_command_counter_has_gone_past_255(shaker: Setup) -> None:
    shaker.device.force_next_dice((1, 1, 1))
    shaker.shake_and_wait()
    [old_shake] = [f for f in shaker.bridge.from_host if f.type == "SHAKE"]
    old_results = [f for f in shaker.bridge.from_device if f.type == "DICE"]
    assert old_results  # the tap holds the result the host took: it is what gets replayed
    shaker.device.set_state(DeviceState.JAMMED)  # refused at once: a quick way to use up command numbers
    commands = 0

    def last_command_seq() -> int:
        return [f.seq for f in shaker.bridge.from_host if f.type != "ACK"][-1]

    while last_command_seq() % 255 + 1 != old_shake.seq or commands < 200:
        assert isinstance(shaker.shake_and_wait(), DiceFault)
        commands += 1
    assert commands > 250  # the host's next command goes out under the old shake's number again
    shaker.device.set_state(DeviceState.READY)
    shaker.device.engine.timing = DeviceTiming(heartbeat=0.2, event_retry=0.1, shake_duration=0.3)
    shaker.device.force_next_dice((6, 6, 6))
    shaker.bridge.after_device_frame = lambda frame: (
        [resequenced(old, 0x80) for old in old_results] if frame.type == "ACK" else []
    )
    reconnects = shaker.client.counters.reconnects
    outcome = shaker.shake_and_wait()
    assert [f.seq for f in shaker.bridge.from_host if f.type == "SHAKE"][-1] == old_shake.seq
    assert isinstance(outcome, DiceRolled) and outcome.values == (6, 6, 6)
    assert shaker.client.counters.reconnects == reconnects, "the link dropped: the replay may have been flushed unseen"
    assert not_taken(shaker.client) >= 1, shaker.client.counters


def test_an_old_refusal_replayed_under_a_new_shakes_number_does_not_end_it(shaker: Setup) -> None:
    shaker.device.set_state(DeviceState.DOME_OPEN)
    assert isinstance(shaker.shake_and_wait(), DiceFault)
    [old_refusal] = [f for f in shaker.bridge.from_device if f.type == "NAK"]
    shaker.device.set_state(DeviceState.READY)
    shaker.device.force_next_dice((2, 4, 6))
    shaker.bridge.after_host_frame = lambda frame: (
        [resequenced(old_refusal, frame.seq)] if frame.type == "SHAKE" else []
    )  # the old NAK reaches the host before the shaker's own answer
    outcome = shaker.shake_and_wait()
    assert isinstance(outcome, DiceRolled) and outcome.values == (2, 4, 6)
    assert not_taken(shaker.client) >= 1
