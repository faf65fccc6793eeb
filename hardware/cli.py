"""``dealer-assist device-sim``, ``dealer-assist devices`` and ``dealer-assist shake``."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from engine.errors import InputError

_FAULT_RATES = ("garbage", "drop", "corrupt", "duplicate", "invalid_die", "missing_die", "jam")
_FAULT_HELP = {
    "garbage": "junk bytes before a frame, per frame",
    "drop": "a frame lost on the wire, per frame",
    "corrupt": "a frame with one byte changed, per frame",
    "duplicate": "a frame sent twice, per frame",
    "invalid_die": "a shake that reads a die as 7, per shake",
    "missing_die": "a shake that reads only two dice, per shake",
    "jam": "a shake that jams half-way (the shaker stays jammed until 'ready' is typed), per shake",
}

_SIM_HELP = """\
Type a button: shake, confirm, next, void, call (hold it with e.g. 'confirm 2' for 2 s).
Or a fault for the shaker: jam, dome, sensor, ready (clears it), invalid (next shake reads a 7),
missing (next shake reads two dice), drop, corrupt, garbage, unplug, replug, reboot;
'pairing' powers the shaker up in pairing mode ('pairing panel': the panel). 'quit' stops."""


def register(subparsers: Any) -> None:
    sim = subparsers.add_parser(
        "device-sim",
        help="run a simulated dice shaker and button panel on pseudo-terminals",
        description="Runs a simulated shaker and/or panel on pty pairs and prints the ports to connect to. "
        "Buttons and faults are typed on stdin. " + _SIM_HELP.replace("\n", " "),
    )
    sim.add_argument("--only", choices=("shaker", "panel"), help="simulate just one of the two devices")
    sim.add_argument("--seed", type=int, help="seed for reproducible dice (and random faults)")
    sim.add_argument("--baud", type=int, default=115200, help="line rate to emulate (default 115200)")
    sim.add_argument("--dir", help="folder for the port symlinks (default: a new temporary folder)")
    sim.add_argument("--shake-seconds", type=float, default=0.5, help="how long a shake takes (default 0.5)")
    sim.add_argument("--heartbeat", type=float, default=1.0, help="seconds between heartbeats (default 1)")
    sim.add_argument("--duration", type=float, help="stop after this many seconds (default: run until quit)")
    for name in _FAULT_RATES:
        sim.add_argument(
            "--" + name.replace("_", "-"), type=float, default=0.0, metavar="P",
            help=_FAULT_HELP[name] + " (a probability, 0-1)",
        )
    sim.add_argument("--disconnect-every", type=float, metavar="S", help="unplug and replug every S seconds")
    sim.add_argument("--keys", type=Path, metavar="FILE",
                     help="where to write the key the simulated devices are paired with for this run, for `shake` "
                          "and `devices --keys FILE` (default: DIR/devices.keys)")
    sim.add_argument("--unpaired", action="store_true",
                     help="devices that hold no key (every host refuses them until they are paired: type 'pairing' "
                          "to power the shaker up in pairing mode)")
    sim.add_argument("--protocol", type=int, choices=(2, 3), default=3,
                     help="the protocol the simulated devices speak (2: an old, unauthenticated device)")
    sim.set_defaults(func=_device_sim)

    devices = subparsers.add_parser(
        "devices", help="list serial ports and which device answers on each; pair a device with this kiosk",
        description="Lists the system's serial ports (and any given with --port), asks each who it is with a fresh "
        "challenge and says whether it proves it holds the key paired with this kiosk. `devices pair --port PORT` "
        "pairs the device on PORT (a person at the device holds its pairing button while powering it up, or fits "
        "its jumper; a supervisor signs with their PIN).",
    )
    devices.add_argument("action", nargs="?", choices=("list", "pair"), default="list",
                         help="list (default) or pair")
    devices.add_argument("--port", action="append", default=[], help="also try this path or pyserial URL")
    devices.add_argument("--keys", type=Path, metavar="FILE",
                         help="the paired keys (default: devices.keys beside the journal key; "
                              "$DEALER_ASSIST_DEVICE_KEYS)")
    devices.add_argument("--no-scan", action="store_true", help="try only the ports given with --port")
    devices.add_argument("--baud", type=int, help="ask only at this rate (default: 115200, then 9600)")
    devices.add_argument("--timeout", type=float, default=0.5, help="seconds to wait for each answer")
    devices.set_defaults(func=_devices)

    shake = subparsers.add_parser(
        "shake", help="shake the dice once and print them",
        description="Connects to the shaker on PORT, shakes once and prints the three dice or why there are none.",
    )
    shake.add_argument("--port", required=True, help="path or pyserial URL of the shaker")
    shake.add_argument("--baud", type=int, default=115200)
    shake.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for the dice (default 10)")
    shake.add_argument("--keys", type=Path, metavar="FILE",
                       help="the paired keys (default: devices.keys beside the journal key; "
                            "$DEALER_ASSIST_DEVICE_KEYS)")
    shake.add_argument("--allow-version-2", action="store_true",
                       help="take dice from a protocol 2 device, which cannot prove who it is (NOT authenticated)")
    shake.set_defaults(func=_shake)


def _device_sim(args: argparse.Namespace) -> int:
    from hardware.device import DeviceTiming
    from hardware.events import DeviceKind
    from hardware.sim import FaultPlan, Simulator

    if args.shake_seconds < 0 or args.heartbeat <= 0:
        raise InputError("--shake-seconds must be 0 or more and --heartbeat more than 0")
    try:
        faults = FaultPlan(
            **{name: getattr(args, name) for name in _FAULT_RATES}, disconnect_every=args.disconnect_every
        )
        if args.baud <= 0:
            raise ValueError("--baud must be a positive number")
    except ValueError as error:
        raise InputError(str(error)) from None
    from hardware.auth import new_key
    from hardware.keystore import FILE_NAME, save_keys

    timing = DeviceTiming(heartbeat=args.heartbeat, shake_duration=args.shake_seconds)
    simulator = Simulator(args.dir)
    key = None if args.unpaired or args.protocol == 2 else new_key()
    kinds = {"shaker": DeviceKind.SHAKER, "panel": DeviceKind.PANEL}
    keys: dict[str, bytes] = {}
    for name, kind in kinds.items():
        if args.only in (None, name):
            device = simulator.add(
                name, kind, seed=args.seed, faults=faults, timing=timing, baud=args.baud, key=key, version=args.protocol
            )
            print(f"{name}: {device.port}", flush=True)
            if key is not None:
                keys[device.engine.identity.serial_number] = key
    if keys:
        key_file = args.keys or simulator.directory / FILE_NAME
        with contextlib.suppress(FileNotFoundError):
            os.unlink(key_file)  # this run's key only
        save_keys(key_file, keys)
        print(f"keys: {key_file}  (paired for this run: give `shake` and `devices` --keys {key_file})", flush=True)
    simulator.start()
    print(_SIM_HELP, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    reader = threading.Thread(target=_read_commands, args=(simulator, stop), daemon=True)
    reader.start()
    try:
        stop.wait(args.duration)
    except KeyboardInterrupt:
        pass
    finally:
        simulator.stop()
    return 0


def _read_commands(simulator: Any, stop: threading.Event) -> None:
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0].lower() in ("quit", "exit", "q"):
            break
        try:
            print(_sim_command(simulator, words), flush=True)
        except ValueError as error:
            print(f"? {error}", flush=True)
    else:
        if not sys.stdin.isatty():
            return  # stdin closed (run in the background): keep serving until a signal or --duration
    stop.set()


def _sim_command(simulator: Any, words: list[str]) -> str:
    from hardware.events import DeviceState
    from hardware.sim import parse_button

    word = words[0].lower()
    if word == "pairing":
        name = words[1].lower() if len(words) > 1 else "shaker"
        device = simulator.devices.get(name)
        if device is None:
            raise ValueError(f"no {name} is simulated")
        device.power_up_pairing()
        return f"{name}: powered up in pairing mode (it takes the next PAIR)"
    shaker = simulator.devices.get("shaker")
    states = {"jam": DeviceState.JAMMED, "dome": DeviceState.DOME_OPEN, "sensor": DeviceState.SENSOR_FAULT,
              "ready": DeviceState.READY}
    if word in states or word in ("invalid", "missing", "drop", "corrupt", "garbage", "unplug", "replug", "reboot"):
        if shaker is None:
            raise ValueError("no shaker is simulated")
        if word in states:
            shaker.set_state(states[word])
        elif word == "invalid":
            shaker.force_next_dice((3, 7, 1))
        elif word == "missing":
            shaker.force_next_dice((4, None, 2))
        elif word == "drop":
            shaker.drop_next(outgoing=1)
        elif word == "corrupt":
            shaker.corrupt_next(outgoing=1)
        elif word == "garbage":
            shaker.send_raw(b"\x00\xffnoise#@!\r\n")
        elif word == "unplug":
            shaker.unplug()
        elif word == "reboot":
            shaker.unplug(reboot=True)
            shaker.replug()
        else:
            shaker.replug()
        return f"shaker: {word}"
    panel = simulator.devices.get("panel")
    if panel is None:
        raise ValueError("no panel is simulated")
    button = parse_button(word)
    hold = float(words[1]) if len(words) > 1 else 0.1
    panel.press(button, hold)
    return f"panel: {button.name.lower()} pressed for {hold:g} s"


def _keys(args: argparse.Namespace) -> dict[str, bytes]:
    from hardware.keystore import default_keys_path, load_keys

    return load_keys(args.keys or default_keys_path())


def _devices(args: argparse.Namespace) -> int:
    from hardware.client import BAUD_RATES, find_devices

    if args.timeout <= 0:
        raise InputError("--timeout must be a positive number of seconds")
    if args.baud is not None and args.baud not in BAUD_RATES:
        raise InputError(f"baud rate {args.baud} is not one of {', '.join(map(str, BAUD_RATES))}")
    if args.action == "pair":
        pair_with = getattr(args, "pair_with", None)
        if pair_with is None:
            raise InputError("pairing needs the kiosk's part of dealer-assist (a supervisor signs it): reinstall it")
        if len(args.port) != 1:
            raise InputError("devices pair needs the one port of the device to pair: --port PORT")
        return int(pair_with(args))
    found = find_devices(args.port, args.baud, args.timeout, scan=not args.no_scan, keys=_keys(args))
    if not found:
        print("no serial ports found (give one with --port)")
        return 1
    width = max(len(f.port) for f in found)
    for item in found:
        if item.identity is not None:
            ident = item.identity
            what = (
                f"{ident.kind.value.lower()}  firmware {ident.firmware}  serial {ident.serial_number}  "
                f"{item.baudrate} baud  {item.trust}"
            )
        else:
            what = f"no answer ({item.problem})"
        print(f"{item.port:<{width}}  {what}")
    return 0


def _shake(args: argparse.Namespace) -> int:
    import queue

    from hardware.client import DeviceClient
    from hardware.events import DeviceEvent, DeviceFault, DeviceKind, DiceFault, DiceRolled, LinkDown
    from hardware.link import LinkTiming

    if args.timeout <= 0:
        raise InputError("--timeout must be a positive number of seconds")
    inbox: queue.Queue[DeviceEvent] = queue.Queue()
    timing = LinkTiming(shake_timeout=args.timeout)
    deadline = time.monotonic() + args.timeout + 1.0
    with DeviceClient(
        args.port, name="shaker", events=inbox, expect_kind=DeviceKind.SHAKER, baudrate=args.baud, timing=timing,
        keys=_keys(args), allow_v2=args.allow_version_2,
    ) as client:
        shake_id: int | None = None
        problem = "the shaker did not answer"
        while time.monotonic() < deadline:
            if shake_id is None and client.connected:
                shake_id = client.shake()
            try:
                event = inbox.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(event, DiceRolled) and event.shake_id == shake_id:
                a, b, c = event.values
                print(f"{a} {b} {c}  (total {event.total})")
                return 0
            if isinstance(event, DiceFault) and event.shake_id == shake_id:
                print(f"no result: {event.message}", file=sys.stderr)
                return 1
            if isinstance(event, DeviceFault) and event.code == "NOT_AUTHENTICATED":
                print(f"no result: {event.message}", file=sys.stderr)
                return 1
            if isinstance(event, DeviceFault) and event.code == "UNAUTHENTICATED_ALLOWED":
                print(f"warning: {event.message}", file=sys.stderr)
            elif isinstance(event, DeviceFault):
                problem = event.message
            elif isinstance(event, LinkDown):
                if shake_id is None:
                    raise InputError(
                        f"cannot reach a shaker on {args.port}: {event.reason}; check the cable and the port "
                        "(`dealer-assist devices` lists them)"
                    )
                problem = f"lost the shaker on {args.port}: {event.reason}"
        print(f"dealer-assist: {problem}", file=sys.stderr)
        return 1
