"""The pyserial driver against the simulator over real pseudo-terminal pairs: the whole path, with faults."""

from __future__ import annotations

import contextlib
import queue
import time
from collections.abc import Callable, Iterator

import pytest
import serial

from hardware.client import DeviceClient, find_devices, open_port
from hardware.device import DeviceTiming
from hardware.events import (
    Button,
    ButtonPressed,
    ButtonReleased,
    DeviceEvent,
    DeviceFault,
    DeviceKind,
    DiceFault,
    DiceFaultReason,
    DiceRolled,
    LinkDown,
    LinkUp,
)
from hardware.link import LinkTiming
from hardware.sim import FaultPlan, start_simulated_devices

FAST_DEVICE = DeviceTiming(heartbeat=0.2, event_retry=0.1, shake_duration=0.05)
FAST_HOST = LinkTiming(
    ack_timeout=0.1, max_retries=3, shake_timeout=2.0, silence_timeout=1.0, backoff_initial=0.02, backoff_max=0.2
)


class Table:
    """A simulator and the two clients the kiosk would open, sharing one event queue."""

    def __init__(self, seed: int = 7, faults: FaultPlan | None = None) -> None:
        shaker_port, panel_port, self.sim = start_simulated_devices(seed, faults=faults, timing=FAST_DEVICE)
        self.inbox: queue.Queue[DeviceEvent] = queue.Queue()
        self.seen: list[DeviceEvent] = []
        self.shaker = DeviceClient(
            shaker_port, name="shaker", events=self.inbox, expect_kind=DeviceKind.SHAKER, timing=FAST_HOST,
            keys=self.sim.keys,
        )
        self.panel = DeviceClient(
            panel_port, name="panel", events=self.inbox, expect_kind=DeviceKind.PANEL, timing=FAST_HOST,
            keys=self.sim.keys,
        )
        assert self.shaker.wait_until_up(3.0) and self.panel.wait_until_up(3.0)

    def wait_for(self, done: Callable[[list[DeviceEvent]], bool], timeout: float = 3.0) -> list[DeviceEvent]:
        deadline = time.monotonic() + timeout
        while not done(self.seen):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out; events so far: {self.seen}")
            with contextlib.suppress(queue.Empty):
                self.seen.append(self.inbox.get(timeout=min(remaining, 0.1)))
        return self.seen

    def drain(self, seconds: float) -> list[DeviceEvent]:
        end = time.monotonic() + seconds
        return self.wait_for(lambda _: time.monotonic() >= end, seconds + 1)

    def of(self, kind: type) -> list[DeviceEvent]:
        return [e for e in self.seen if isinstance(e, kind)]

    def close(self) -> None:
        self.shaker.close()
        self.panel.close()
        self.sim.stop()


@pytest.fixture
def table() -> Iterator[Table]:
    made = Table()
    yield made
    made.close()


def has(kind: type, count: int = 1) -> Callable[[list[DeviceEvent]], bool]:
    return lambda seen: sum(isinstance(e, kind) for e in seen) >= count


def shakes_ended(count: int) -> Callable[[list[DeviceEvent]], bool]:
    """At least ``count`` shakes have ended, with dice or with a fault."""
    return lambda seen: sum(isinstance(e, DiceRolled | DiceFault) for e in seen) >= count


def test_a_shake_travels_over_the_pty_and_the_dice_are_the_ones_rolled(table: Table) -> None:
    shake_id = table.shaker.shake()
    table.wait_for(has(DiceRolled))
    [rolled] = table.of(DiceRolled)
    assert isinstance(rolled, DiceRolled)
    assert rolled.shake_id == shake_id and rolled.source == "shaker"
    assert table.sim.shaker.engine.rolls == [rolled.values]


def test_the_same_seed_gives_the_same_dice() -> None:
    rolls = []
    for _ in range(2):
        other = Table(seed=42)
        try:
            for _ in range(3):
                other.shaker.shake()
                other.wait_for(has(DiceRolled, len(other.of(DiceRolled)) + 1))
            rolls.append([e.values for e in other.of(DiceRolled)])  # type: ignore[union-attr]
        finally:
            other.close()
    assert rolls[0] == rolls[1]


def test_every_button_press_and_release_arrives_in_order(table: Table) -> None:
    for button in Button:
        table.sim.press(button, hold=0.02)
        table.wait_for(has(ButtonReleased, list(Button).index(button) + 1))
    edges = [(type(e).__name__, e.button) for e in table.seen if isinstance(e, ButtonPressed | ButtonReleased)]
    expected = [(kind, b) for b in Button for kind in ("ButtonPressed", "ButtonReleased")]
    assert edges == expected


def test_a_dropped_command_is_retried_and_rolled_once(table: Table) -> None:
    table.sim.shaker.drop_next(incoming=1, only="SHAKE")
    table.shaker.shake()
    table.wait_for(has(DiceRolled))
    assert table.shaker.counters.retries >= 1
    assert len(table.sim.shaker.engine.rolls) == 1


def test_a_dropped_ack_leads_to_a_duplicate_shake_that_is_not_rolled(table: Table) -> None:
    table.sim.shaker.drop_next(outgoing=1, only="ACK")
    table.shaker.shake()
    table.wait_for(has(DiceRolled))
    table.drain(0.3)
    assert table.sim.shaker.engine.counts.duplicate_shakes >= 1
    assert len(table.sim.shaker.engine.rolls) == 1 and len(table.of(DiceRolled)) == 1


def test_corrupted_frames_are_counted_and_recovered(table: Table) -> None:
    table.sim.shaker.corrupt_next(incoming=1, only="SHAKE")
    table.shaker.shake()
    table.wait_for(has(DiceRolled))
    assert table.sim.shaker.engine.counts.crc_errors == 1 and table.shaker.counters.retries >= 1
    table.sim.shaker.corrupt_next(outgoing=1, only="DICE")
    table.shaker.shake()
    table.wait_for(has(DiceRolled, 2))
    assert table.shaker.counters.crc_errors == 1
    assert len(table.sim.shaker.engine.rolls) == 2


def test_garbage_on_the_line_is_skipped_and_counted(table: Table) -> None:
    table.sim.panel.send_raw(b"\x00\xff line noise \r\n")
    table.sim.press(Button.NEXT)
    table.wait_for(has(ButtonPressed))
    assert table.panel.counters.garbage_bytes >= 10
    assert table.panel.connected


def test_every_frame_sent_twice_still_gives_one_result_and_one_press() -> None:
    doubled = Table(faults=FaultPlan(duplicate=1.0))
    try:
        doubled.shaker.shake()
        doubled.sim.press(Button.VOID)
        doubled.wait_for(lambda seen: has(DiceRolled)(seen) and has(ButtonReleased)(seen))
        doubled.drain(0.3)
        assert len(doubled.of(DiceRolled)) == 1 and len(doubled.of(ButtonPressed)) == 1
        assert doubled.shaker.counters.duplicates >= 1 and doubled.panel.counters.duplicates >= 1
    finally:
        doubled.close()


def test_a_die_out_of_range_over_the_pty_is_a_fault(table: Table) -> None:
    table.sim.shaker.force_next_dice((3, 7, 1))
    table.shaker.shake()
    table.wait_for(has(DiceFault))
    assert table.of(DiceFault)[0].reason == DiceFaultReason.INVALID_VALUE  # type: ignore[union-attr]
    assert not table.of(DiceRolled)
    assert table.shaker.counters.dice_faults == 1


def test_a_shaker_that_never_comes_back_times_out_the_shake(table: Table) -> None:
    table.sim.shaker.unplug()
    shake_id = table.shaker.shake()
    table.wait_for(has(DiceFault), timeout=4.0)
    fault = table.of(DiceFault)[0]
    assert (fault.shake_id, fault.reason) == (shake_id, DiceFaultReason.TIMEOUT)  # type: ignore[union-attr]
    assert table.of(LinkDown)
    assert table.shaker.counters.timeouts >= 1


def test_unplug_and_replug_in_the_middle_of_a_shake_gives_one_result(table: Table) -> None:
    table.sim.shaker.engine.timing = DeviceTiming(heartbeat=0.2, event_retry=0.1, shake_duration=0.4)
    shake_id = table.shaker.shake()
    time.sleep(0.1)  # acknowledged; the dice are rolling
    table.sim.shaker.unplug()
    table.wait_for(has(LinkDown))
    time.sleep(0.5)  # the shake ends while the cable is out
    table.sim.shaker.replug()
    table.wait_for(has(DiceRolled), timeout=4.0)
    table.drain(0.3)
    assert [e.shake_id for e in table.of(DiceRolled)] == [shake_id]  # type: ignore[union-attr]
    assert len(table.sim.shaker.engine.rolls) == 1
    shaker_links = [type(e) for e in table.seen if isinstance(e, LinkUp | LinkDown) and e.source == "shaker"]
    assert shaker_links[-2:] == [LinkDown, LinkUp]
    assert table.shaker.counters.reconnects >= 1


def test_the_port_is_opened_exclusively(table: Table) -> None:
    with pytest.raises(serial.SerialException):
        open_port(table.sim.shaker.port)


def test_the_wrong_device_on_a_port_is_reported(table: Table) -> None:
    with DeviceClient(table.sim.panel.port, name="x", expect_kind=DeviceKind.SHAKER, timing=FAST_HOST,
                      exclusive=False, keys=table.sim.keys) as wrong:
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            event = wrong.events.get(timeout=3)
            if isinstance(event, DeviceFault):
                assert event.code == "WRONG_DEVICE" and "check which cable" in event.message
                break
        else:
            raise AssertionError("no WRONG_DEVICE fault")
        assert not wrong.connected


def test_devices_are_found_by_identity() -> None:
    shaker_port, panel_port, sim = start_simulated_devices(1, timing=FAST_DEVICE)
    try:
        ports = [shaker_port, panel_port, "/nonexistent/tty"]
        found = {f.port: f for f in find_devices(ports, timeout=0.3, scan=False)}
        kinds = {port: item.identity.kind if item.identity else None for port, item in found.items()}
        assert kinds[shaker_port] == DeviceKind.SHAKER and kinds[panel_port] == DeviceKind.PANEL
        assert found["/nonexistent/tty"].identity is None and found["/nonexistent/tty"].problem
    finally:
        sim.stop()


@pytest.mark.slow
def test_everything_at_once_every_shake_ends_exactly_once() -> None:
    faults = FaultPlan(garbage=0.2, drop=0.1, corrupt=0.1, duplicate=0.1, invalid_die=0.2, missing_die=0.1)
    noisy = Table(seed=3, faults=faults)
    try:
        for n in range(1, 9):
            noisy.shaker.shake()
            noisy.sim.press(Button.CONFIRM, hold=0.02)
            noisy.wait_for(shakes_ended(n), 8.0)
        noisy.drain(0.5)
        ended = [e.shake_id for e in noisy.seen if isinstance(e, DiceRolled | DiceFault)]
        assert sorted(ended) == list(range(1, 9))
        assert all(1 <= v <= 6 for e in noisy.of(DiceRolled) for v in e.values)  # type: ignore[union-attr]
        counters = noisy.shaker.counters
        assert counters.retries + counters.crc_errors + counters.garbage_bytes + counters.duplicates > 0
    finally:
        noisy.close()



def test_a_loopback_url_opens_and_the_echo_is_named() -> None:
    with DeviceClient("loop://", name="shaker", timing=FAST_HOST) as looped:
        event = looped.events.get(timeout=3)
        while not isinstance(event, DeviceFault):
            event = looped.events.get(timeout=3)
        assert event.code == "ECHO"
        assert not looped.connected


@pytest.mark.slow
def test_a_shaker_unplugged_every_half_second_still_ends_every_shake_once() -> None:
    flaky = Table(seed=5, faults=FaultPlan(disconnect_every=0.5))
    try:
        for n in range(1, 5):
            flaky.shaker.shake()
            flaky.wait_for(shakes_ended(n), 6.0)
            time.sleep(0.2)
        flaky.drain(0.3)
        ended = [e.shake_id for e in flaky.seen if isinstance(e, DiceRolled | DiceFault)]
        assert sorted(ended) == [1, 2, 3, 4]
        assert len(flaky.sim.shaker.engine.rolls) <= 4
        assert flaky.shaker.counters.reconnects >= 1
    finally:
        flaky.close()


def test_the_usage_example_shown_to_the_kiosk_runs_as_written() -> None:
    import hardware

    doc = hardware.__doc__ or ""
    example = doc.split("::\n", 1)[1].split("\nA real device", 1)[0]
    code = "\n".join(line.removeprefix("    ") for line in example.splitlines())
    namespace: dict[str, object] = {}
    exec(compile(code, "hardware/__init__.py docstring", "exec"), namespace)
    assert namespace["pressed"] == Button.CONFIRM
    dice = namespace["dice"]
    assert isinstance(dice, tuple) and len(dice) == 3


def test_a_listener_that_raises_does_not_stop_the_link() -> None:
    shaker_port, _, sim = start_simulated_devices(2, timing=FAST_DEVICE)
    calls: list[DeviceEvent] = []

    def broken_listener(event: DeviceEvent) -> None:
        calls.append(event)
        raise RuntimeError("listener bug")

    try:
        with DeviceClient(
            shaker_port, name="shaker", on_event=broken_listener, timing=FAST_HOST, keys=sim.keys
        ) as client:
            assert client.wait_until_up(3)
            client.shake()
            deadline = time.monotonic() + 3
            while not any(isinstance(e, DiceRolled) for e in calls) and time.monotonic() < deadline:
                time.sleep(0.02)
            assert any(isinstance(e, DiceRolled) for e in calls)
            assert client.connected
    finally:
        sim.stop()


def test_a_shaker_behind_a_socket_url_works_the_same() -> None:
    """``socket://host:port`` (a serial-to-network bridge) goes through the same driver."""
    import random
    import socket
    import threading

    from hardware.device import DeviceEngine
    from hardware.events import DeviceIdentity

    server = socket.create_server(("127.0.0.1", 0))
    key = bytes(32)
    engine = DeviceEngine(DeviceIdentity(DeviceKind.SHAKER, "net-1", "NET-1"), random.Random(4), FAST_DEVICE, key=key)
    stop = threading.Event()

    def bridge() -> None:
        connection, _ = server.accept()
        connection.settimeout(0.01)
        with connection:
            while not stop.is_set():
                try:
                    data = connection.recv(4096)
                except TimeoutError:
                    data = b""
                now = time.monotonic()
                if data:
                    engine.data_received(data, now)
                engine.poll(now)
                try:
                    for frame in engine.frames_to_send():
                        connection.sendall(frame)
                except OSError:
                    return  # the client closed the connection

    thread = threading.Thread(target=bridge, daemon=True)
    thread.start()
    try:
        url = f"socket://127.0.0.1:{server.getsockname()[1]}"
        with DeviceClient(
            url, name="shaker", expect_kind=DeviceKind.SHAKER, timing=FAST_HOST, keys={"NET-1": key}
        ) as client:
            assert client.wait_until_up(3)
            shake_id = client.shake()
            event = client.events.get(timeout=3)
            while not isinstance(event, DiceRolled):
                event = client.events.get(timeout=3)
            assert event.shake_id == shake_id and [event.values] == engine.rolls
    finally:
        stop.set()
        thread.join(timeout=2)
        server.close()
