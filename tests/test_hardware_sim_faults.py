"""The simulator's per-shake faults (a die read 7, a missing die, a jam) really happen, end to end: from the
simulated shaker over a real pty to the host driver's fault event, and on to the Bài Bửu controller's alert."""

from __future__ import annotations

import contextlib
import queue
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.baibuu import Settings
from hardware.client import DeviceClient
from hardware.device import DeviceTiming
from hardware.events import DeviceEvent, DeviceKind, DeviceState, DiceFault, DiceFaultReason, DiceRolled
from hardware.link import LinkTiming
from hardware.sim import FaultPlan, start_simulated_devices
from journal import Journal, JournalReader
from kiosk.clock import ManualClock
from kiosk.controller.baibuu import BaiBuuController
from kiosk.i18n import Catalogue

FAST_DEVICE = DeviceTiming(heartbeat=0.2, event_retry=0.1, shake_duration=0.05)
FAST_HOST = LinkTiming(ack_timeout=0.1, shake_timeout=3.0, silence_timeout=1.0, backoff_initial=0.02)


class Shaker:
    """A simulated shaker with a fault plan, and the host driver on its pty."""

    def __init__(self, faults: FaultPlan, seed: int = 4) -> None:
        port, _, self.sim = start_simulated_devices(seed, faults=faults, timing=FAST_DEVICE)
        self.inbox: queue.Queue[DeviceEvent] = queue.Queue()
        self.client = DeviceClient(port, name="shaker", events=self.inbox, expect_kind=DeviceKind.SHAKER,
                                   timing=FAST_HOST, keys=self.sim.keys)
        assert self.client.wait_until_up(3.0)

    def outcome(self, shake_id: int) -> DiceRolled | DiceFault:
        """The event that ended the shake ``shake_id``."""
        deadline = time.monotonic() + 4.0
        while time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                event = self.inbox.get(timeout=0.1)
                if isinstance(event, DiceRolled | DiceFault) and event.shake_id == shake_id:
                    return event
        raise AssertionError(f"shake {shake_id} never ended")

    def close(self) -> None:
        self.client.close()
        self.sim.stop()


def started(faults: FaultPlan, seed: int = 4) -> Iterator[Shaker]:
    shaker = Shaker(faults, seed)
    yield shaker
    shaker.close()


@pytest.mark.parametrize(
    ("faults", "reason", "told"),
    [
        (FaultPlan(invalid_die=1.0), DiceFaultReason.INVALID_VALUE, "a die read outside 1-6"),
        (FaultPlan(missing_die=1.0), DiceFaultReason.MISSING_DIE, "fewer than three dice"),
        (FaultPlan(jam=1.0), DiceFaultReason.JAMMED, "jammed"),
    ],
)
def test_a_fault_plan_gives_its_fault_and_the_baibuu_dealer_is_told(
    faults: FaultPlan, reason: DiceFaultReason, told: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    journal = Journal.open(tmp_path / "j.sqlite3", tmp_path / "k.key", kiosk_id="K1", table_id="T1", clock=clock)
    assert journal.recover().sound
    for shaker in started(faults):
        controller = BaiBuuController(
            Settings(seats=(2, 3), min_bet=10), journal, clock, shaker.client.shake, default_bet=100
        )
        controller.command("shake")
        assert controller.pending_shake is not None
        fault = shaker.outcome(controller.pending_shake)
        assert isinstance(fault, DiceFault), f"the shaker gave dice {fault}"
        assert fault.reason == reason and told in fault.message
        controller.on_dice_fault(fault.shake_id, fault.reason.value, fault.message)
        alert = controller.view().alert
        assert alert is not None and alert.key == "alert.dice_fault"
        assert Catalogue().text(f"dice_fault.{reason.value.lower()}") in Catalogue().text(alert)  # named for the dealer
        assert shaker.client.counters.dice_faults == 1
        if reason is DiceFaultReason.INVALID_VALUE:
            assert "7" in fault.message and any(7 in roll for roll in shaker.sim.shaker.engine.rolls)
        if reason is DiceFaultReason.JAMMED:  # it stays jammed: the next shake is refused until cleared
            assert shaker.sim.shaker.engine.state == DeviceState.JAMMED
            again = shaker.outcome(shaker.client.shake())
            assert isinstance(again, DiceFault) and again.reason == DiceFaultReason.JAMMED
            assert shaker.sim.shaker.engine.rolls == []
    journal.close()
    with JournalReader.open(tmp_path / "j.sqlite3", tmp_path / "k.key") as reader:
        assert "dice_reshaken" in [entry.kind for entry in reader.entries()]


def test_fault_rates_are_per_shake_and_the_same_seed_gives_the_same_faults_on_the_same_shakes() -> None:
    runs = []
    for _ in range(2):
        for shaker in started(FaultPlan(invalid_die=0.3, missing_die=0.3), seed=8):
            outcomes = []
            for _ in range(12):
                ended = shaker.outcome(shaker.client.shake())
                outcomes.append(ended.reason if isinstance(ended, DiceFault) else ended.values)
            runs.append(outcomes)
    assert runs[0] == runs[1]
    kinds = {o if isinstance(o, DiceFaultReason) else "dice" for o in runs[0]}
    assert kinds == {DiceFaultReason.INVALID_VALUE, DiceFaultReason.MISSING_DIE, "dice"}

