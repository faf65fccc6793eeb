"""Command-to-result latency over a real pty pair at 9600 and 115200 baud.

For each baud rate: start the simulated shaker and panel (the simulator paces bytes at the line rate, since a pty
has none), open them with the real driver, then measure
- shake: from ``shake()`` to the ``DiceRolled`` event on the queue, with a shake that takes no time (so what is
  left is the protocol: SHAKE out, ACK and DICE back, the host's ACK), and
- button: from the simulated press to the ``ButtonPressed`` event.
Prints median, 95th percentile and worst, and the wire time of the bytes alone for comparison.

Protocol 3: the devices are paired with a key made for the run and every frame is tagged (HMAC-SHA-256) and
checked on both sides, so the figures include that cost; ``--hmac-only`` also times the tag of one frame alone.
Compare with protocol 2 by running this script from a checkout of a version before protocol 3.

    .venv/bin/python bench/serial_latency.py [--rounds 40]
"""

from __future__ import annotations

import argparse
import queue
import statistics
import sys
import time

from hardware import auth
from hardware.client import DeviceClient
from hardware.device import DeviceTiming
from hardware.events import Button, ButtonPressed, DeviceEvent, DeviceKind, DiceFault, DiceRolled
from hardware.protocol import ButtonReport, DiceReport, Shake, ShakeAccepted, encode_signed, to_frame
from hardware.sim import start_simulated_devices


def wait_for(inbox: queue.Queue[DeviceEvent], kind: type, timeout: float = 5.0) -> DeviceEvent:
    deadline = time.perf_counter() + timeout
    while True:
        event = inbox.get(timeout=max(0.0, deadline - time.perf_counter()))
        if isinstance(event, kind) or (kind is DiceRolled and isinstance(event, DiceFault)):
            return event


def figures(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    median, worst = statistics.median(ordered), ordered[-1]
    return f"median {median * 1000:6.1f} ms   p95 {p95 * 1000:6.1f} ms   max {worst * 1000:6.1f} ms"


def measure(baud: int, rounds: int, paced: bool = True) -> None:
    """``paced``: the simulator holds each frame for its time on the line at ``baud``; unpaced, what is left is
    the host's and the simulator's own work (the protocol's cost on the host)."""
    timing = DeviceTiming(shake_duration=0.0)
    sim_baud = baud if paced else 10**9
    shaker_port, panel_port, sim = start_simulated_devices(seed=1, timing=timing, baud=sim_baud)
    inbox: queue.Queue[DeviceEvent] = queue.Queue()
    buttons: queue.Queue[DeviceEvent] = queue.Queue()
    shaker = DeviceClient(
        shaker_port, name="shaker", events=inbox, expect_kind=DeviceKind.SHAKER, baudrate=baud, keys=sim.keys
    )
    panel = DeviceClient(
        panel_port, name="panel", events=buttons, expect_kind=DeviceKind.PANEL, baudrate=baud, keys=sim.keys
    )
    try:
        assert shaker.wait_until_up(5) and panel.wait_until_up(5), "the simulated devices did not come up"
        time.sleep(0.2)
        shakes: list[float] = []
        presses: list[float] = []
        for _ in range(rounds):
            start = time.perf_counter()
            shaker.shake()
            event = wait_for(inbox, DiceRolled)
            shakes.append(time.perf_counter() - start)
            assert isinstance(event, DiceRolled), event
            start = time.perf_counter()
            sim.press(Button.CONFIRM, hold=0.001)
            wait_for(buttons, ButtonPressed)
            presses.append(time.perf_counter() - start)
            time.sleep(0.02)
        key, host, device = bytes(32), auth.HOST, auth.DEVICE
        shake_frames = (
            encode_signed(1, Shake(1), key, host) + encode_signed(1, ShakeAccepted(1, 1), key, device)
            + encode_signed(1, DiceReport(1, 1, 1, (3, 5, 6)), key, device)
        )
        wire_shake = len(shake_frames) * 10 / baud
        wire_press = len(encode_signed(1, ButtonReport(1, 1, Button.CONFIRM, True), key, device)) * 10 / baud
        rate = f"{baud:>6} baud" if paced else "   unpaced"
        print(f"{rate}  shake→dice   {figures(shakes)}   (the bytes alone: {wire_shake * 1000:.1f} ms)")
        print(f"{rate}  press→event  {figures(presses)}   (the bytes alone: {wire_press * 1000:.1f} ms)")
        print(f"             counters: shaker {shaker.counters}")
    finally:
        shaker.close()
        panel.close()
        sim.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    key = auth.new_key()
    covered = to_frame(1, ButtonReport(1, 1, Button.CONFIRM, True)).covered
    start, count = time.perf_counter(), 20000
    for _ in range(count):
        auth.tag(key, auth.DEVICE, covered)
    print(f"one tag (HMAC-SHA-256 of a BTN frame) on the host: {(time.perf_counter() - start) / count * 1e6:.1f} µs")
    print(f"serial latency over a pty pair, protocol 3 (every frame tagged), {args.rounds} rounds each")
    for baud in (9600, 115200):
        measure(baud, args.rounds)
    print("unpaced (no line time: the host's and the simulator's own work):")
    measure(115200, args.rounds, paced=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
