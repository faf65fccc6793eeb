"""Host link against the device engine, wired in memory with a fake clock: every fault, deterministically."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.device import DeviceEngine, DeviceTiming, ForcedDice
from hardware.events import (
    Button,
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
    LinkDown,
    LinkUp,
)
from hardware.link import HostLink, LinkTiming
from hardware.protocol import ButtonReport, Identify, encode

SHAKER = DeviceIdentity(DeviceKind.SHAKER, "1.0.0", "SK-1")
KEY = bytes(range(32))
"""The key every unit of these tests is paired with (the host holds it for SK-1, SK-2 and PN-1)."""
KEYS = {"SK-1": KEY, "SK-2": KEY, "PN-1": KEY}
TIMING = LinkTiming(ack_timeout=0.3, max_retries=3, shake_timeout=5.0, silence_timeout=3.5)
Rule = Callable[[bytes], bool]


class Wire:
    """A host and a device joined by a simulated cable that can lose frames in either direction."""

    def __init__(self, identity: DeviceIdentity = SHAKER, seed: int = 1, expect: DeviceKind | None = None) -> None:
        self.now = 0.0
        self.host = HostLink("shaker", "mem", TIMING, expect_kind=expect or identity.kind, keys=KEYS)
        self.device = DeviceEngine(identity, random.Random(seed), DeviceTiming(shake_duration=0.5), now=0.0, key=KEY)
        self.events: list[DeviceEvent] = []
        self.plugged = True
        self.lose_to_device: list[Rule] = []
        self.lose_to_host: list[Rule] = []
        self.loss_rate = 0.0
        self.rng = random.Random(seed)
        self.host.connection_made(self.now)

    def _passes(self, frame: bytes, rules: list[Rule]) -> bool:
        for rule in rules:
            if rule(frame):
                rules.remove(rule)  # each rule loses one frame
                return False
        return not (self.loss_rate and self.rng.random() < self.loss_rate)

    def step(self, dt: float = 0.01) -> None:
        self.now += dt
        outgoing = self.host.data_to_send()
        if self.plugged:
            for frame in outgoing.splitlines(keepends=True):
                if self._passes(frame, self.lose_to_device):
                    self.device.data_received(frame, self.now)
        self.device.poll(self.now)
        for frame in self.device.frames_to_send():
            if self.plugged and self._passes(frame, self.lose_to_host):
                self.events += self.host.data_received(frame, self.now)
        self.events += self.host.poll(self.now)

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / 0.01)):
            self.step()

    def run_until(self, done: Callable[[], bool], limit: float = 10.0) -> None:
        end = self.now + limit
        while not done() and self.now < end:
            self.step()
        assert done(), f"not done after {limit} s; events: {self.events}"

    def of(self, kind: type) -> list[DeviceEvent]:
        return [e for e in self.events if isinstance(e, kind)]

    def unplug(self, reason: str = "cable pulled") -> None:
        self.plugged = False
        self.events += self.host.connection_lost(self.now, reason)
        self.device.host_gone()

    def replug(self) -> None:
        self.plugged = True
        self.host.connection_made(self.now)


def frame_type(kind: str) -> Rule:
    return lambda frame: frame.split(b" ")[1].split(b"*")[0] == kind.encode()


def up_wire(**kwargs: object) -> Wire:
    wire = Wire(**kwargs)  # type: ignore[arg-type]
    wire.run_until(lambda: bool(wire.of(LinkUp)) and wire.host.state is not None)
    wire.run(0.1)  # the STAT reply is in
    return wire


def test_the_link_comes_up_and_reports_the_device_and_its_state() -> None:
    wire = up_wire()
    assert wire.of(LinkUp) == [LinkUp("shaker", "mem", SHAKER, wire.of(LinkUp)[0].at)]
    assert [e.state for e in wire.of(DeviceStatus)] == [DeviceState.READY]  # type: ignore[union-attr]
    assert wire.host.counters.retries == 0


def test_a_shake_gives_the_dice_the_device_rolled_once() -> None:
    wire = up_wire()
    shake_id = wire.host.shake(wire.now)
    wire.run_until(lambda: bool(wire.of(DiceRolled)))
    [rolled] = wire.of(DiceRolled)
    assert isinstance(rolled, DiceRolled)
    assert rolled.shake_id == shake_id
    assert wire.device.rolls == [rolled.values]
    assert all(1 <= v <= 6 for v in rolled.values)


def test_asking_again_while_a_shake_is_pending_does_not_shake_twice() -> None:
    wire = up_wire()
    first = wire.host.shake(wire.now)
    wire.step()
    assert wire.host.shake(wire.now) == first
    wire.run(2.0)
    assert len(wire.of(DiceRolled)) == 1 and len(wire.device.rolls) == 1
    assert wire.host.shake(wire.now) == first + 1  # the next one is a new shake


def test_a_lost_shake_command_is_sent_again_and_rolled_once() -> None:
    wire = up_wire()
    wire.lose_to_device.append(frame_type("SHAKE"))
    wire.host.shake(wire.now)
    wire.run(2.0)
    assert wire.host.counters.retries == 1
    assert len(wire.device.rolls) == 1 and len(wire.of(DiceRolled)) == 1


def test_a_lost_ack_makes_the_host_repeat_shake_which_the_device_does_not_roll_again() -> None:
    wire = up_wire()
    wire.lose_to_host.append(frame_type("ACK"))
    wire.host.shake(wire.now)
    wire.run(2.0)
    assert wire.host.counters.retries == 1
    assert wire.device.counts.duplicate_shakes == 1
    assert len(wire.device.rolls) == 1 and len(wire.of(DiceRolled)) == 1


def test_a_lost_host_ack_makes_the_device_repeat_the_result_which_the_host_reports_once() -> None:
    wire = up_wire()
    wire.lose_to_device.append(frame_type("ACK"))
    wire.host.shake(wire.now)
    wire.run(2.0)
    assert wire.host.counters.duplicates >= 1
    assert len(wire.of(DiceRolled)) == 1


def test_a_lost_button_ack_does_not_press_the_button_twice() -> None:
    wire = up_wire()
    wire.lose_to_device.append(frame_type("ACK"))
    wire.device.press(Button.CONFIRM, wire.now, hold=0.1)
    wire.run(1.0)
    assert [(type(e), e.button) for e in wire.of(ButtonPressed) + wire.of(ButtonReleased)] == [  # type: ignore[union-attr]
        (ButtonPressed, Button.CONFIRM),
        (ButtonReleased, Button.CONFIRM),
    ]
    assert wire.host.counters.duplicates == 1


def test_a_die_out_of_range_is_a_counted_fault_not_a_result() -> None:
    wire = up_wire()
    wire.device.force_next_dice(ForcedDice((3, 7, 1)))
    shake_id = wire.host.shake(wire.now)
    wire.run(1.0)
    assert not wire.of(DiceRolled)
    [fault] = wire.of(DiceFault)
    assert isinstance(fault, DiceFault)
    assert (fault.shake_id, fault.reason) == (shake_id, DiceFaultReason.INVALID_VALUE)
    assert "3 7 1" in fault.message
    assert wire.host.counters.dice_faults == 1


def test_a_missing_die_and_a_sensor_error_are_faults() -> None:
    wire = up_wire()
    wire.device.force_next_dice(ForcedDice((4, None, 2)))
    wire.device.force_next_dice(ForcedDice(error="SENSOR"))
    for _ in range(2):
        wire.host.shake(wire.now)
        wire.run(1.0)
    assert [e.reason for e in wire.of(DiceFault)] == [  # type: ignore[union-attr]
        DiceFaultReason.MISSING_DIE,
        DiceFaultReason.SENSOR_FAULT,
    ]
    assert not wire.of(DiceRolled)


def test_a_shake_refused_because_the_dome_is_open_says_so() -> None:
    wire = up_wire()
    wire.device.set_state(DeviceState.DOME_OPEN, wire.now)
    wire.run(0.1)
    wire.host.shake(wire.now)
    wire.run(1.0)
    [fault] = wire.of(DiceFault)
    assert fault.reason == DiceFaultReason.DOME_OPEN  # type: ignore[union-attr]
    assert "close it" in fault.message  # type: ignore[union-attr]
    assert wire.device.rolls == []
    assert DeviceState.DOME_OPEN in [e.state for e in wire.of(DeviceStatus)]  # type: ignore[union-attr]


def test_a_jam_in_the_middle_of_a_shake_ends_it_with_a_fault() -> None:
    wire = up_wire()
    wire.host.shake(wire.now)
    wire.run(0.2)
    wire.device.set_state(DeviceState.JAMMED, wire.now)
    wire.run(1.0)
    assert [e.reason for e in wire.of(DiceFault)] == [DiceFaultReason.JAMMED]  # type: ignore[union-attr]
    assert wire.device.rolls == []


def test_a_device_that_stops_answering_times_out_the_command_and_the_shake() -> None:
    wire = up_wire()
    wire.loss_rate = 1.0
    shake_id = wire.host.shake(wire.now)
    wire.run(1.3)  # 4 tries 0.3 s apart
    assert wire.host.counters.retries == 3
    assert wire.host.counters.timeouts == 1
    assert wire.host.dead_reason is not None and "no reply" in wire.host.dead_reason
    wire.run(4.0)
    [fault] = wire.of(DiceFault)
    assert (fault.shake_id, fault.reason) == (shake_id, DiceFaultReason.TIMEOUT)  # type: ignore[union-attr]


def test_silence_without_heartbeats_marks_the_link_dead() -> None:
    wire = up_wire()
    wire.lose_to_host.extend([lambda frame: True] * 1000)
    wire.run(3.6)
    assert wire.host.dead_reason is not None and "silent" in wire.host.dead_reason


def test_unplugged_after_the_ack_the_result_arrives_after_replug_exactly_once() -> None:
    wire = up_wire()
    shake_id = wire.host.shake(wire.now)
    wire.run(0.1)  # acknowledged, shaking
    wire.unplug()
    wire.run(1.0)  # the shake ends while the cable is out; the device keeps the result
    assert len(wire.device.rolls) == 1
    wire.replug()
    wire.run(1.0)
    assert [e.shake_id for e in wire.of(DiceRolled)] == [shake_id]  # type: ignore[union-attr]
    assert len(wire.device.rolls) == 1
    assert [type(e) for e in wire.events if isinstance(e, LinkUp | LinkDown)] == [LinkUp, LinkDown, LinkUp]
    assert wire.host.counters.reconnects == 1


def test_unplugged_before_the_ack_the_same_shake_is_asked_again_and_rolled_once() -> None:
    wire = up_wire()
    wire.lose_to_host.append(frame_type("ACK"))
    wire.host.shake(wire.now)
    wire.run(0.05)  # the device has taken the shake; its ACK was lost
    wire.unplug()
    wire.run(1.0)
    wire.replug()
    wire.run(1.5)
    assert len(wire.device.rolls) == 1 and len(wire.of(DiceRolled)) == 1
    assert wire.device.counts.duplicate_shakes == 1


def test_a_device_that_rebooted_in_the_middle_of_a_shake_ends_it_and_never_rolls_it_again_unseen() -> None:
    wire = up_wire()
    shake_id = wire.host.shake(wire.now)
    wire.run(0.1)  # taken (ACK), rolling
    wire.unplug()
    wire.device.reboot(wire.now)  # the shake in progress is lost with the power
    wire.replug()
    wire.run(1.5)
    assert wire.device.rolls == [] and wire.of(DiceRolled) == []
    [ended] = wire.of(DiceFault)
    assert ended.shake_id == shake_id and ended.reason is DiceFaultReason.INTERRUPTED  # type: ignore[union-attr]
    assert ended.message.startswith("shake again: the shaker restarted")  # type: ignore[union-attr]


def test_a_session_reset_from_the_cable_cannot_make_a_taken_shake_roll_again() -> None:
    """Whoever reaches the cable can send ID NEW (it carries no tag) and hide the DICE frame: the shake ends in a
    fault the dealer sees and the journal keeps (a reshake), never in a second roll the host takes silently."""
    wire = up_wire()
    wire.lose_to_host.append(frame_type("DICE"))  # the result is kept from the host ...
    wire.host.shake(wire.now)
    wire.run(0.6)
    assert len(wire.device.rolls) == 1
    wire.device.data_received(encode(0x77, Identify(True, "00" * 12)), wire.now)  # ... and the session reset
    wire.run(2.0)
    assert len(wire.device.rolls) == 1 and wire.of(DiceRolled) == []
    assert [e.reason for e in wire.of(DiceFault)] == [DiceFaultReason.INTERRUPTED]  # type: ignore[union-attr]


def test_the_wrong_kind_of_device_is_refused_with_a_message() -> None:
    panel = DeviceIdentity(DeviceKind.PANEL, "1.0.0", "PN-1")
    wire = Wire(panel, expect=DeviceKind.SHAKER)
    wire.run(0.5)
    assert not wire.of(LinkUp)
    [fault] = wire.of(DeviceFault)
    assert fault.code == "WRONG_DEVICE" and "panel" in fault.message  # type: ignore[union-attr]
    assert wire.host.dead_reason is not None


def test_a_panel_refuses_to_shake() -> None:
    panel = DeviceIdentity(DeviceKind.PANEL, "1.0.0", "PN-1")
    wire = up_wire(identity=panel)
    wire.host.shake(wire.now)
    wire.run(0.5)
    assert [e.code for e in wire.of(DeviceFault)] == ["REFUSED"]  # type: ignore[union-attr]
    assert len(wire.of(DiceFault)) == 1


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), loss=st.floats(0.0, 0.4), shakes=st.integers(1, 4))
def test_on_a_lossy_cable_no_shake_is_ever_rolled_twice_or_reported_twice(seed: int, loss: float, shakes: int) -> None:
    wire = up_wire(seed=seed)
    wire.loss_rate = loss
    for _ in range(shakes):
        wire.host.shake(wire.now)
        wire.run_until(lambda: not wire.host.shake_pending, limit=6.0)
        if wire.host.dead_reason is not None:  # what the transport would do: reconnect
            wire.unplug(wire.host.dead_reason)
            wire.replug()
    results = [e for e in wire.events if isinstance(e, DiceRolled)]
    faults = [e for e in wire.events if isinstance(e, DiceFault)]
    ids = [e.shake_id for e in results + faults]
    assert sorted(ids) == list(range(1, shakes + 1))  # each shake ends exactly once
    assert len(wire.device.rolls) <= shakes
    rolled = list(wire.device.rolls)
    for result in results:  # every reported result is dice the device really rolled
        assert result.values in rolled
        rolled.remove(result.values)


def test_a_device_that_never_answers_is_reported_down_once_not_on_every_attempt() -> None:
    wire = Wire()
    wire.plugged = False  # the port opens but nothing answers
    for _ in range(3):
        wire.run_until(lambda: wire.host.dead_reason is not None, limit=3.0)
        wire.events += wire.host.connection_lost(wire.now, wire.host.dead_reason or "")
        wire.host.connection_made(wire.now)
    assert len(wire.of(LinkDown)) == 1
    assert "no reply to Identify" in wire.of(LinkDown)[0].reason  # type: ignore[union-attr]


def test_another_unit_plugged_in_mid_shake_gets_a_new_session_and_rolls_the_shake_once() -> None:
    wire = up_wire()
    wire.lose_to_host.append(frame_type("ACK"))  # the first unit took the shake but its ACK was lost
    shake_id = wire.host.shake(wire.now)
    wire.run(0.05)
    wire.unplug()
    first_unit = wire.device
    wire.device = DeviceEngine(
        DeviceIdentity(DeviceKind.SHAKER, "1.0.0", "SK-2"), random.Random(9), now=wire.now, key=KEY
    )
    wire.replug()
    wire.run(3.0)
    assert [e.shake_id for e in wire.of(DiceRolled)] == [shake_id]  # type: ignore[union-attr]
    assert len(wire.device.rolls) == 1
    assert wire.of(LinkUp)[-1].identity.serial_number == "SK-2"  # type: ignore[union-attr]
    assert len(first_unit.rolls) <= 1


def test_a_line_that_echoes_our_commands_is_named_as_the_problem() -> None:
    host = HostLink("shaker", "loop://", TIMING)
    host.connection_made(0.0)
    echoed = host.data_to_send()
    events = host.data_received(echoed, 0.01) + host.data_received(echoed, 0.02)
    assert [e.code for e in events if isinstance(e, DeviceFault)] == ["ECHO"]
    assert host.counters.malformed == 2


def test_after_a_power_cycle_the_devices_first_events_are_not_taken_for_repeats() -> None:
    wire = up_wire()
    wire.device.set_state(DeviceState.DOME_OPEN, wire.now)  # the device's event 01
    wire.run(0.3)
    wire.unplug()
    wire.device.reboot(wire.now)  # numbering starts again at 01
    wire.replug()
    wire.run(0.3)
    wire.device.press(Button.VOID, wire.now, hold=0.05)  # event 01 again, but a new one
    wire.run(0.5)
    assert [e.button for e in wire.of(ButtonPressed)] == [Button.VOID]  # type: ignore[union-attr]


def test_nothing_is_taken_from_a_device_before_it_has_said_who_it_is() -> None:
    host = HostLink("panel", "mem", TIMING, expect_kind=DeviceKind.PANEL)
    host.connection_made(0.0)
    host.data_to_send()  # the ID NEW
    assert host.data_received(encode(1, ButtonReport(1, 1, Button.VOID, True)), 0.01) == []
    assert host.data_to_send() == b""  # not even acknowledged: the device will send it again if it still counts


def test_a_device_speaking_protocol_version_1_is_refused_with_a_message_saying_so() -> None:
    from hardware.protocol import Ident

    host = HostLink("shaker", "mem", TIMING, expect_kind=DeviceKind.SHAKER)
    host.connection_made(0.0)
    host.data_to_send()  # the ID NEW, numbered 01
    v1 = encode(1, Ident(SHAKER, 0x2A, version=1))
    assert v1.startswith(b"$01 IDENT SHAKER 1.0.0 SK-1 002A*")  # what a version 1 device answers
    [fault] = host.data_received(v1, 0.01)
    assert isinstance(fault, DeviceFault) and fault.code == "PROTOCOL"
    assert "version 1" in fault.message and "update the device's firmware" in fault.message
    assert not host.up and host.dead_reason is not None


def test_a_device_that_restarts_without_the_link_noticing_has_its_next_press_taken_once() -> None:
    wire = up_wire(identity=DeviceIdentity(DeviceKind.PANEL, "1.0.0", "PN-1"))
    wire.device.press(Button.NEXT, wire.now, hold=0.05)
    wire.run(0.5)
    wire.device.reboot(wire.now)  # a brown-out: the cable stays in, the host sees no error
    wire.run(1.5)  # its first untagged heartbeat: asked who it is, it has lost the session, a new one is made
    wire.device.press(Button.VOID, wire.now, hold=0.05)  # event 1 of a session the host did not know before
    wire.run(1.0)
    assert [e.button for e in wire.of(ButtonPressed)] == [Button.NEXT, Button.VOID]  # type: ignore[union-attr]
    assert [e.button for e in wire.of(ButtonReleased)] == [Button.NEXT, Button.VOID]  # type: ignore[union-attr]
    assert len(wire.of(LinkUp)) == 1  # asked who it is again, without a new connection
    assert not [e for e in wire.events if isinstance(e, DeviceFault)]  # a restart is no attack
