"""Protocol 3: only a device that proves it holds the key paired with the kiosk is believed (issue 59).

A spliced device written from PROTOCOL.md alone (``tests/spliced_device.py``), a device holding another key, a
recorded session played back, a DICE frame altered on the wire with its CRC recomputed, a forged panel CONFIRM,
version 2 devices with and without the setting: each over real ptys, against the real driver, the real command
line and the kiosk's runtime with its SQLite journal. None of their dice or buttons is ever acted on.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import selectors
import subprocess
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hardware.client import DeviceClient, find_devices
from hardware.device import DeviceTiming
from hardware.events import (
    Button,
    ButtonPressed,
    DeviceEvent,
    DeviceFault,
    DeviceKind,
    DiceFault,
    DiceFaultReason,
    DiceRolled,
    LinkUp,
)
from hardware.keystore import load_keys, save_key
from hardware.link import LinkTiming
from hardware.sim import start_simulated_devices
from tests.spliced_device import SplicedDevice, crc, frame, parse

FAST_DEVICE = DeviceTiming(heartbeat=0.2, event_retry=0.1, shake_duration=0.05)
FAST_HOST = LinkTiming(
    ack_timeout=0.1, max_retries=3, shake_timeout=2.0, silence_timeout=1.0, backoff_initial=0.02, backoff_max=0.2
)
PAIRED_KEY = bytes(range(0x80, 0xA0))
"""The key the kiosk of these tests paired with unit SK-000999 (which the spliced device claims to be)."""


def collect(client: DeviceClient, until: Callable[[list[DeviceEvent]], bool], seconds: float) -> list[DeviceEvent]:
    seen: list[DeviceEvent] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not until(seen):
        with contextlib.suppress(queue.Empty):
            seen.append(client.events.get(timeout=0.05))
    return seen


def faults(seen: list[DeviceEvent]) -> list[DeviceFault]:
    return [e for e in seen if isinstance(e, DeviceFault)]


@pytest.fixture
def spliced() -> Iterator[SplicedDevice]:
    device = SplicedDevice()
    yield device
    device.close()


# --- the spliced device: no key -----------------------------------------------------------------------------


def test_a_spliced_device_with_no_key_gets_no_dice_from_the_driver(spliced: SplicedDevice) -> None:
    keys = {"SK-000999": PAIRED_KEY}  # the unit it claims to be is paired; it does not hold that key
    with DeviceClient(spliced.port, name="shaker", expect_kind=DeviceKind.SHAKER, timing=FAST_HOST, keys=keys) as c:
        shake_id = c.shake()
        seen = collect(c, lambda s: any(isinstance(e, DiceFault) for e in s), 4.0)
        assert not [e for e in seen if isinstance(e, DiceRolled | LinkUp)]
        [refusal] = faults(seen)
        assert refusal.code == "NOT_AUTHENTICATED" and refusal.serial == "SK-000999"
        assert "shaker not authenticated: SK-000999" in refusal.message and "call a supervisor" in refusal.message
        assert [e.shake_id for e in seen if isinstance(e, DiceFault)] == [shake_id]  # ended by its timeout
        assert spliced.shakes_answered == 0  # never even asked: the link never came up
        assert c.counters.unauthenticated >= 2  # asked again and again, refused each time, reported once


def test_a_spliced_device_gets_no_dice_from_the_shake_command(
    spliced: SplicedDevice, dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    keys = tmp_path / "devices.keys"
    save_key(keys, "SK-000999", PAIRED_KEY)
    result = subprocess.run(
        [*dealer_assist, "shake", "--port", spliced.port, "--keys", str(keys), "--timeout", "3"],
        capture_output=True, text=True, env=cli_env, timeout=30,
    )
    assert result.returncode == 1 and result.stdout == ""
    assert "no result: shaker not authenticated: SK-000999" in result.stderr
    assert "6 6 6" not in result.stdout + result.stderr


def test_an_unpaired_device_is_named_by_the_devices_command(
    spliced: SplicedDevice, dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    result = subprocess.run(
        [*dealer_assist, "devices", "--no-scan", "--port", spliced.port, "--keys", str(tmp_path / "none.keys")],
        capture_output=True, text=True, env=cli_env, timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("serial SK-000999  115200 baud  not paired with this kiosk")
    keys = tmp_path / "devices.keys"
    save_key(keys, "SK-000999", PAIRED_KEY)
    found = find_devices([spliced.port], scan=False, keys=load_keys(keys))
    assert found[0].trust == "NOT AUTHENTICATED: it does not hold this kiosk's key"


def test_a_device_holding_a_wrong_key_is_refused(tmp_path: Path) -> None:
    """It tags every frame exactly as §12 says, with a key of its own: its IDENT fails the challenge."""
    forger = SplicedDevice(key=bytes(range(32)))
    try:
        keys = {"SK-000999": PAIRED_KEY}
        with DeviceClient(forger.port, name="shaker", expect_kind=DeviceKind.SHAKER, timing=FAST_HOST,
                          keys=keys) as client:
            client.shake()
            seen = collect(client, lambda s: any(isinstance(e, DiceFault) for e in s), 4.0)
        [refusal] = faults(seen)
        assert "did not prove it holds the key paired with this kiosk" in refusal.message
        assert not [e for e in seen if isinstance(e, DiceRolled)] and forger.shakes_answered == 0
    finally:
        forger.close()


# --- the kiosk -----------------------------------------------------------------------------------------------


def test_an_unpaired_shaker_is_refused_by_the_kiosk_journalled_and_on_the_dealers_screen(
    spliced: SplicedDevice, tmp_path: Path
) -> None:
    from journal import JournalReader
    from kiosk.config import config_from_data
    from kiosk.runtime import KioskRuntime

    config = config_from_data({"devices": {"shaker": spliced.port, "panel": "none"},
                               "camera": {"reader": "placement"}})
    runtime = KioskRuntime(config, tmp_path / "data")
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not runtime.devices.refusals:
            runtime.tick()
            time.sleep(0.02)
        assert "shaker NOT AUTHENTICATED (SK-000999): call a supervisor" in runtime.status_text().replace(
            "Shaker", "shaker")
        assert runtime.devices.shake() is None  # the round cannot go on from it: no shake is even asked
        assert runtime.health().shaker.value == "down"
        [line] = [runtime.catalogue.text(m) for m in runtime.devices.diagnostics() if "not authenticated" in
                  runtime.catalogue.text(m)][:1]
        assert re.search(r"not authenticated [1-9]", line)
        for _ in range(20):  # more refusals on the wire: journalled once
            runtime.tick()
            time.sleep(0.05)
    finally:
        runtime.close()
    with JournalReader.open(tmp_path / "data" / "journal.sqlite3", tmp_path / "data" / "kiosk.key") as reader:
        refused = [entry for entry in reader.entries() if entry.kind == "device_refused"]
        kinds = [entry.kind for entry in reader.entries()]
    assert len(refused) == 1 and "dice_rolled" not in kinds
    assert refused[0].payload["serial"] == "SK-000999" and refused[0].payload["device"] == "shaker"


# --- on the wire, between the real device and the host --------------------------------------------------------


class Tap:
    """A pty pair between the host and a real (simulated) device: passes bytes on, records what the device sent,
    lets a test rewrite the device's frames (``rewrite``) or slip in its own (``inject``)."""

    def __init__(self, device_port: str) -> None:
        self._device = os.open(device_port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self._device)
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._host, self._slave = master, slave
        self.port = os.ttyname(slave)
        self.recorded: list[bytes] = []
        self.rewrite: Callable[[bytes], bytes] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def inject(self, data: bytes) -> None:
        os.write(self._host, data)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for fd in (self._device, self._host, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._device, selectors.EVENT_READ, "device")
        selector.register(self._host, selectors.EVENT_READ, "host")
        partial = b""
        while not self._stop.is_set():
            for key, _ in selector.select(0.05):
                try:
                    data = os.read(key.fd, 4096)
                except OSError:
                    continue
                if key.data == "host":
                    os.write(self._device, data)
                    continue
                partial += data
                while b"\n" in partial:
                    line, partial = partial.split(b"\n", 1)
                    line += b"\n"
                    self.recorded.append(line)
                    os.write(self._host, self.rewrite(line) if self.rewrite else line)


@pytest.fixture
def shaker_tap() -> Iterator[tuple[Tap, object]]:
    _, _, sim = start_simulated_devices(3, timing=FAST_DEVICE, key=PAIRED_KEY)
    tap = Tap(sim.shaker.port)
    yield tap, sim
    tap.close()
    sim.stop()


def test_one_byte_of_a_dice_frame_changed_with_its_crc_fixed_is_refused(shaker_tap: tuple[Tap, object]) -> None:
    tap, sim = shaker_tap

    def six(line: bytes) -> bytes:
        """The first die made a 6; the tag left as it was, the CRC recomputed: only the tag can tell."""
        parsed = parse(line)
        if parsed is None or parsed[1] != "DICE":
            return line
        covered, _, tag = line[1:].split(b"*")[0].partition(b" #")
        altered = re.sub(rb" [1-6] ([1-6]) ([1-6])$", rb" 6 \1 \2", covered) + b" #" + tag
        return b"$" + altered + b"*" + f"{crc(altered):04X}".encode() + b"\r\n"

    tap.rewrite = six
    sim.shaker.force_next_dice((1, 2, 3))  # type: ignore[attr-defined]
    with DeviceClient(tap.port, name="shaker", expect_kind=DeviceKind.SHAKER, timing=FAST_HOST,
                      keys={"SIM-SH-0001": PAIRED_KEY}) as client:
        assert client.wait_until_up(3) and client.authenticated
        shake_id = client.shake()
        seen = collect(client, lambda s: any(isinstance(e, DiceRolled | DiceFault) for e in s), 5.0)
        counters = client.counters
    assert not [e for e in seen if isinstance(e, DiceRolled)]  # neither 6 2 3 nor, altered each time, 1 2 3
    [ended] = [e for e in seen if isinstance(e, DiceFault)]
    assert ended.shake_id == shake_id and ended.reason is DiceFaultReason.TIMEOUT
    assert counters.crc_errors == 0 and counters.unauthenticated >= 1
    [forged] = faults(seen)
    assert forged.code == "NOT_AUTHENTICATED" and "a DICE frame that failed its authentication" in forged.message


def test_a_recorded_session_played_back_is_refused(shaker_tap: tuple[Tap, object]) -> None:
    tap, _sim = shaker_tap
    keys = {"SIM-SH-0001": PAIRED_KEY}
    with DeviceClient(tap.port, name="shaker", expect_kind=DeviceKind.SHAKER, timing=FAST_HOST, keys=keys) as client:
        assert client.wait_until_up(3)
        client.shake()
        assert any(isinstance(e, DiceRolled) for e in collect(
            client, lambda s: any(isinstance(e, DiceRolled) for e in s), 3.0))
    recording: dict[str, bytes] = {}
    for line in tap.recorded:  # the first frame of each type: the IDENT answering the host's first ID NEW
        parsed = parse(line)
        if parsed is not None:
            recording.setdefault(parsed[1], line)
    assert recording["IDENT"].startswith(b"$01 IDENT") and recording["IDENT"].count(b" #") == 1
    player = SplicedDevice(serial="SIM-SH-0001", recording=recording)
    try:
        with DeviceClient(player.port, name="shaker", expect_kind=DeviceKind.SHAKER, timing=FAST_HOST,
                          keys=keys) as client:
            seen = collect(client, faults, 4.0)  # its ID NEW is numbered 01, as in the recording
            client.shake()
            seen += collect(client, lambda s: any(isinstance(e, DiceFault) for e in s), 4.0)
        assert not [e for e in seen if isinstance(e, DiceRolled | LinkUp)] and "SHAKE" not in player.heard
        assert "did not prove it holds the key" in faults(seen)[0].message  # another challenge, another key
    finally:
        player.close()


def test_a_forged_panel_confirm_slipped_onto_the_line_is_not_pressed() -> None:
    _, _, sim = start_simulated_devices(4, timing=FAST_DEVICE, key=PAIRED_KEY)
    tap = Tap(sim.panel.port)
    try:
        with DeviceClient(tap.port, name="panel", expect_kind=DeviceKind.PANEL, timing=FAST_HOST,
                          keys={"SIM-PA-0002": PAIRED_KEY}) as client:
            assert client.wait_until_up(3)
            time.sleep(0.2)
            ident = next(parse(line) for line in tap.recorded if parse(line) and parse(line)[1] == "IDENT")  # type: ignore[index]
            session = ident[2][4]  # type: ignore[index]
            for n in range(5):  # the live session's number, fresh event numbers, a tag made up, a good CRC
                forged = f"{0x40 + n:02X} BTN {session} {0x100 + n:08X} CONFIRM DOWN"
                tap.inject(frame(forged, session_key=os.urandom(32)))
                tap.inject(frame(f"{0x50 + n:02X} BTN {session} {0x200 + n:08X} VOID DOWN"))  # and untagged
            seen = collect(client, lambda s: False, 1.0)
            assert not [e for e in seen if isinstance(e, ButtonPressed)]
            assert client.counters.unauthenticated >= 10
            assert [f.code for f in faults(seen)] == ["NOT_AUTHENTICATED"]  # reported once, counted each time
            sim.press(Button.NEXT)  # the real panel still works
            pressed = collect(client, lambda s: any(isinstance(e, ButtonPressed) for e in s), 3.0)
            assert [e.button for e in pressed if isinstance(e, ButtonPressed)] == [Button.NEXT]
    finally:
        tap.close()
        sim.stop()


# --- version 2 devices ---------------------------------------------------------------------------------------


def test_a_version_2_device_is_refused_unless_the_setting_allows_it() -> None:
    old = SplicedDevice(serial="SK-000002", version=2, dice=(2, 3, 4))  # an honest old shaker
    try:
        with DeviceClient(old.port, name="shaker", expect_kind=DeviceKind.SHAKER, timing=FAST_HOST) as client:
            client.shake()
            seen = collect(client, lambda s: any(isinstance(e, DiceFault) for e in s), 4.0)
        assert not [e for e in seen if isinstance(e, DiceRolled)]
        assert "protocol version 2, whose frames are not authenticated" in faults(seen)[0].message
        with DeviceClient(old.port, name="shaker", expect_kind=DeviceKind.SHAKER, timing=FAST_HOST,
                          allow_v2=True) as client:
            assert client.wait_until_up(3) and not client.authenticated
            client.shake()
            seen = collect(client, lambda s: any(isinstance(e, DiceRolled) for e in s), 4.0)
        [up] = [e for e in seen if isinstance(e, LinkUp)]
        assert not up.authenticated
        assert [e.values for e in seen if isinstance(e, DiceRolled)] == [(2, 3, 4)]
        [warning] = faults(seen)
        assert warning.code == "UNAUTHENTICATED_ALLOWED" and "NOT authenticated" in warning.message
    finally:
        old.close()


def test_a_version_2_device_allowed_by_the_config_is_shown_on_every_rounds_screen(tmp_path: Path) -> None:
    from journal import JournalReader
    from kiosk.config import config_from_data
    from kiosk.runtime import KioskRuntime

    old = SplicedDevice(serial="SK-000002", version=2)
    config = config_from_data({"devices": {"shaker": old.port, "panel": "none", "allow_version_2": True},
                               "camera": {"reader": "placement"}})
    runtime = KioskRuntime(config, tmp_path / "data")
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not runtime.devices.unauthenticated_in_use:
            runtime.tick()
            time.sleep(0.02)
        assert runtime.status_text().startswith("devices NOT authenticated (protocol 2 allowed)")
        assert runtime.health().shaker.value == "warn"
    finally:
        runtime.close()
        old.close()
    with JournalReader.open(tmp_path / "data" / "journal.sqlite3", tmp_path / "data" / "kiosk.key") as reader:
        assert [e.payload["serial"] for e in reader.entries() if e.kind == "devices_unauthenticated"] == ["SK-000002"]


# --- pairing -------------------------------------------------------------------------------------------------


def test_pairing_needs_a_person_at_the_device_and_a_supervisors_pin_and_the_key_is_in_no_log_or_journal(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    from kiosk.config import config_from_data, write_config
    from kiosk.supervisors import hash_pin

    data = tmp_path / "data"
    data.mkdir()
    config_file = data / "kiosk.yaml"
    write_config(config_from_data({"supervisors": {"S1": hash_pin("4826")}}), config_file)
    sim = subprocess.Popen(
        [*dealer_assist, "device-sim", "--unpaired", "--only", "shaker", "--dir", str(tmp_path / "sim"),
         "--shake-seconds", "0.05"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cli_env,
    )
    assert sim.stdout is not None and sim.stdin is not None
    port = sim.stdout.readline().split(": ", 1)[1].strip()
    pair = [*dealer_assist, "devices", "pair", "--port", port, "--data", str(data), "--by", "S1"]

    def run(*command: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, input=stdin, capture_output=True, text=True, env=cli_env, timeout=30)

    try:
        outputs = []
        unpaired = run(*dealer_assist, "shake", "--port", port, "--timeout", "2", "--keys", str(data / "devices.keys"))
        assert unpaired.returncode == 1 and "it is not paired with this kiosk" in unpaired.stderr
        outputs.append(unpaired)
        nobody_there = run(*pair, stdin="4826\n")
        assert nobody_there.returncode == 2
        assert "not in pairing mode: a person at the device must fit its pairing jumper" in nobody_there.stderr
        sim.stdin.write("pairing\n")
        sim.stdin.flush()
        while "pairing mode" not in sim.stdout.readline():
            pass
        wrong_pin = run(*pair, stdin="1111\n")
        assert wrong_pin.returncode == 2 and "wrong supervisor ID or PIN" in wrong_pin.stderr
        paired = run(*pair, stdin="4826\n")
        assert paired.returncode == 0, paired.stderr
        assert re.fullmatch(r"shaker SIM-SH-0001 on \S+ paired with this kiosk by S1; its key is kept in \S+\n",
                            paired.stdout)
        shaken = run(*dealer_assist, "shake", "--port", port, "--keys", str(data / "devices.keys"))
        assert shaken.returncode == 0 and re.fullmatch(r"[1-6] [1-6] [1-6]  \(total \d+\)\n", shaken.stdout)
        outputs += [nobody_there, wrong_pin, paired, shaken]
    finally:
        sim.stdin.write("quit\n")
        sim.stdin.flush()
        sim.wait(timeout=10)
    keys_file = data / "devices.keys"
    assert keys_file.stat().st_mode & 0o777 == 0o600
    [key] = load_keys(keys_file).values()
    from journal import JournalReader

    with JournalReader.open(data / "journal.sqlite3", data / "kiosk.key") as reader:
        [paired_event] = [e for e in reader.entries() if e.kind == "device_paired"]
    assert paired_event.payload == {"device": "shaker", "serial": "SIM-SH-0001", "by": "S1", "port": port,
                                    "again": False}
    secret = key.hex()
    journal_bytes = b"".join(p.read_bytes() for p in data.rglob("journal.sqlite3*"))
    for text in [*(o.stdout + o.stderr for o in outputs), journal_bytes.decode("latin-1")]:
        assert secret not in text.lower() and secret.upper() not in text


def test_paired_keys_others_may_read_are_refused_by_the_config_check_and_not_used(tmp_path: Path) -> None:
    from kiosk.adapters import Devices
    from kiosk.config import config_from_data
    from kiosk.journal_place import device_keys_path, placement_problems

    config = config_from_data({"devices": {"shaker": "none", "panel": "none"}})
    keys = device_keys_path(config, tmp_path)
    save_key(keys, "SK-000123", PAIRED_KEY)
    assert placement_problems(config, tmp_path)[0] == []
    keys.chmod(0o644)
    [refusal] = placement_problems(config, tmp_path)[0]
    assert "may be read or written by others" in refusal and f"chmod 600 {keys}" in refusal
    devices = Devices(config, keys)
    try:
        assert devices.key_problem is not None and "chmod 600" in devices.key_problem
    finally:
        devices.close()
