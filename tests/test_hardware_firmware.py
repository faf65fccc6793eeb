"""The reference Arduino sketch, compiled for this PC against a tiny stand-in for the Arduino core, speaks the
same protocol as the Python device: the real driver talks to it over a pty. Skipped where no C++ compiler is.

Protocol 3: the sketch's own SHA-256 and HMAC make the tags the host checks with Python's ``hmac``; it keeps its
paired key in EEPROM (a file here), takes a new one only with its pairing jumper fitted at power-up, and acts on
no host frame whose tag is wrong."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from hardware import auth
from hardware.client import DeviceClient, PairingError, open_port, pair
from hardware.events import Button, ButtonPressed, ButtonReleased, DeviceFault, DeviceKind, DiceRolled
from hardware.link import LinkTiming
from hardware.protocol import (
    Frame,
    FrameParser,
    Ident,
    Identify,
    Message,
    Nak,
    Shake,
    ShakeAccepted,
    encode,
    encode_signed,
    from_frame,
)

FIRMWARE = Path(__file__).resolve().parent.parent / "hardware" / "firmware"
COMPILER = shutil.which("g++")
KEY = bytes(range(0x40, 0x60))
"""The key the boards of these tests were paired with (their EEPROM file holds it)."""
KEYS = {"SK-000001": KEY}
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(COMPILER is None, reason="no C++ compiler to build the reference firmware for the PC"),
]


def build(out: Path, *defines: str) -> Path:
    binary = out / "firmware"
    command = [
        str(COMPILER), "-std=c++17", "-O1", "-Wall", "-Werror", f"-I{FIRMWARE / 'pc'}", "-include", "Arduino.h",
        *(f"-D{d}" for d in defines), "-x", "c++", str(FIRMWARE / "dealer_assist.ino"), "-o", str(binary),
    ]
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    return binary


class Board:
    """The compiled sketch running with its serial port on the master side of a pty."""

    def __init__(self, binary: Path, pins_file: Path, key: bytes | None = KEY, **pins: int) -> None:
        self.pins_file = pins_file
        self.set_pins(**pins)
        eeprom = pins_file.with_name("eeprom")
        if key is not None and not eeprom.exists():  # paired before: the marker 0xA5 at 2, the key from 4
            eeprom.write_bytes(b"\x00\x00\xa5\x00" + key)
        master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        env = dict(os.environ, PINS=str(pins_file), EEPROM=str(eeprom))
        self.process = subprocess.Popen([str(binary)], stdin=master, stdout=master, env=env)
        os.close(master)
        self._slave = slave  # kept open so the board's reads never see a hang-up between host connections

    def set_pins(self, **pins: int) -> None:
        """Set input pins (``pin6=1``: the dome switch opens); the sketch sees it within 10 ms."""
        text = "".join(f"{name.removeprefix('pin')} {level}\n" for name, level in pins.items())
        self.pins_file.write_text(text)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self._slave)


@pytest.fixture(scope="module")
def shaker_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("shaker"), "SHAKE_MS=50UL")


@pytest.fixture
def shaker(shaker_binary: Path, tmp_path: Path) -> Iterator[Board]:
    board = Board(shaker_binary, tmp_path / "pins")
    yield board
    board.stop()


class Session:
    """A host session opened by hand (``ID NEW`` and a challenge), to send the board frames one by one."""

    def __init__(self, port: serial.Serial, key: bytes = KEY, seq: int = 1) -> None:
        challenge = auth.new_challenge()
        [ident] = [f for f in exchange(port, [encode(seq, Identify(True, challenge))], 0.2) if f.type == "IDENT"]
        message = from_frame(ident)
        assert isinstance(message, Ident)
        self.ident = message
        self.key = auth.session_key(key, challenge, message.session)
        assert auth.tag_matches(self.key, auth.DEVICE, ident.covered, ident.tag), "the board's tag is not ours"

    def signed(self, seq: int, message: Message) -> bytes:
        return encode_signed(seq, message, self.key, auth.HOST)


def exchange(port: serial.Serial, frames: list[bytes], seconds: float) -> list[Frame]:
    for frame in frames:
        port.write(frame)
    parser = FrameParser()
    received: list[Frame] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        received += [item for item in parser.feed(port.read(max(1, port.in_waiting))) if isinstance(item, Frame)]
    return received


def test_the_driver_shakes_the_reference_firmware(shaker: Board) -> None:
    timing = LinkTiming(ack_timeout=0.1, shake_timeout=3.0)
    with DeviceClient(shaker.port, name="shaker", expect_kind=DeviceKind.SHAKER, timing=timing, keys=KEYS) as client:
        assert client.wait_until_up(3)
        assert client.identity is not None and client.identity.firmware == "3.0.0"
        assert client.authenticated
        shake_id = client.shake()
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            event = client.events.get(timeout=3)
            if isinstance(event, DiceRolled):
                assert event.shake_id == shake_id and all(1 <= v <= 6 for v in event.values)
                break
        else:
            raise AssertionError("no dice from the firmware")


def test_the_firmware_answers_a_repeated_shake_without_rolling_again(shaker: Board) -> None:
    port = open_port(shaker.port)
    try:
        host = Session(port)
        damaged = host.signed(6, Shake(6)).replace(b"06", b"07", 1)  # CRC no longer matches: must be ignored
        retry_under_a_new_number = host.signed(9, Shake(5))
        frames = exchange(
            port, [host.signed(5, Shake(5)), host.signed(5, Shake(5)), retry_under_a_new_number, damaged], 0.5,
        )
    finally:
        port.close()
    replies = [(f.seq, f.type) for f in frames if f.type in ("IDENT", "ACK", "NAK")]
    assert replies == [(5, "ACK"), (5, "ACK"), (9, "ACK")]
    dice = [from_frame(f) for f in frames if f.type == "DICE"]
    assert dice and {d.command for d in dice} == {5}  # type: ignore[union-attr]
    assert len({f.seq for f in frames if f.type == "DICE"}) == 1  # repeats of one event, never a second roll
    assert all(auth.tag_matches(host.key, auth.DEVICE, f.covered, f.tag) for f in frames if f.type != "HB" or f.tag)


def test_the_firmware_refuses_to_shake_with_the_dome_open(shaker_binary: Path, tmp_path: Path) -> None:
    board = Board(shaker_binary, tmp_path / "pins", pin6=1)
    port = open_port(board.port)
    try:
        host = Session(port)
        frames = exchange(port, [host.signed(2, Shake(1))], 0.4)
    finally:
        port.close()
        board.stop()
    [refusal] = [(f.seq, from_frame(f)) for f in frames if f.type == "NAK"]
    assert refusal == (2, Nak("DOME_OPEN", host.ident.session, 1))


def test_a_panel_button_press_reaches_the_driver(tmp_path: Path) -> None:
    board = Board(build(tmp_path, "DEVICE_KIND=KIND_PANEL"), tmp_path / "pins")
    try:
        with DeviceClient(board.port, name="panel", expect_kind=DeviceKind.PANEL, keys=KEYS) as client:
            assert client.wait_until_up(3)
            board.set_pins(pin9=0)  # pin 9 is CONFIRM; pressed means pulled to ground
            time.sleep(0.1)
            board.set_pins(pin9=1)
            edges: list[tuple[type, Button]] = []
            deadline = time.monotonic() + 3
            while len(edges) < 2 and time.monotonic() < deadline:
                with contextlib.suppress(queue.Empty):
                    event = client.events.get(timeout=0.1)
                    if isinstance(event, ButtonPressed | ButtonReleased):
                        edges.append((type(event), event.button))
            assert edges == [(ButtonPressed, Button.CONFIRM), (ButtonReleased, Button.CONFIRM)]
    finally:
        board.stop()


def test_the_firmware_counts_power_ups_in_the_boot_field(shaker_binary: Path, tmp_path: Path) -> None:
    boots = []
    for _ in range(2):
        board = Board(shaker_binary, tmp_path / "pins")
        port = open_port(board.port)
        try:
            frames = exchange(port, [encode(1, Identify())], 0.2)
        finally:
            port.close()
            board.stop()
        [ident] = [from_frame(f) for f in frames if f.type == "IDENT"]
        boots.append(ident.session >> 16)  # type: ignore[union-attr]
    assert boots == [1, 2]  # the power-up count is the high half of the session number


def test_the_firmware_refuses_an_old_shake_number_and_starts_a_new_session_at_id_new(shaker: Board) -> None:
    port = open_port(shaker.port)
    try:
        first = Session(port)
        frames = exchange(port, [first.signed(2, Shake(5)), first.signed(3, Shake(3))], 0.3)
        second = Session(port, seq=4)
    finally:
        port.close()
    assert first.ident.version == 3
    assert first.ident.session != second.ident.session and first.ident.session >> 16 == second.ident.session >> 16
    answers = [(f.seq, from_frame(f)) for f in frames if f.type in ("ACK", "NAK")]
    assert answers == [(2, ShakeAccepted(first.ident.session, 5)), (3, Nak("STALE", first.ident.session, 3))]
    assert first.key != second.key  # a new challenge, a new session key


def test_forged_host_frames_are_not_acted_on_by_the_firmware(shaker: Board) -> None:
    """An untagged SHAKE, a SHAKE tagged with another key, and one with a byte changed and its CRC recomputed:
    no answer and no roll; the frame signed with the session key is answered."""
    port = open_port(shaker.port)
    try:
        host = Session(port)
        untagged = encode(2, Shake(1))
        wrong_key = encode_signed(3, Shake(1), bytes(32), auth.HOST)
        good = host.signed(4, Shake(7))
        spliced = Frame(4, "SHAKE", ("00000008",), Frame(4, "SHAKE", ("00000007",)).signed(host.key, auth.HOST).tag)
        frames = exchange(port, [untagged, wrong_key, spliced.encode()], 0.3)
        answered = exchange(port, [good], 0.3)
    finally:
        port.close()
    assert [f for f in frames if f.type in ("ACK", "NAK", "DICE")] == []
    assert [(f.seq, f.type) for f in answered if f.type in ("ACK", "NAK")] == [(4, "ACK")]


def test_an_unpaired_firmware_is_refused_by_the_driver_and_gives_no_dice(shaker_binary: Path, tmp_path: Path) -> None:
    board = Board(shaker_binary, tmp_path / "pins", key=None)
    timing = LinkTiming(ack_timeout=0.1, shake_timeout=1.0)
    try:
        with DeviceClient(board.port, name="shaker", expect_kind=DeviceKind.SHAKER, timing=timing, keys=KEYS) as client:
            fault = next_fault(client)
            assert fault.code == "NOT_AUTHENTICATED" and "SK-000001" in fault.message
            assert not client.connected and client.counters.unauthenticated >= 1
    finally:
        board.stop()


def test_the_firmware_with_a_wrong_key_is_refused(shaker_binary: Path, tmp_path: Path) -> None:
    board = Board(shaker_binary, tmp_path / "pins", key=bytes(32))
    try:
        with DeviceClient(board.port, name="shaker", expect_kind=DeviceKind.SHAKER, keys=KEYS) as client:
            fault = next_fault(client)
            assert fault.code == "NOT_AUTHENTICATED" and "did not prove it holds the key" in fault.message
            assert not client.connected
    finally:
        board.stop()


def test_pairing_the_firmware_needs_its_jumper_and_the_key_outlives_a_power_cycle(
    shaker_binary: Path, tmp_path: Path
) -> None:
    pins = tmp_path / "pins"
    new_key = auth.new_key()
    board = Board(shaker_binary, pins, key=None)
    try:
        with pytest.raises(PairingError, match=r"not in pairing mode.*jumper"):
            pair(board.port, new_key)
    finally:
        board.stop()
    board = Board(shaker_binary, pins, key=None, pin4=0)  # powered up with the pairing jumper fitted
    try:
        assert pair(board.port, new_key).serial_number == "SK-000001"
    finally:
        board.stop()
    board = Board(shaker_binary, pins, key=None)  # jumper off, power cycled: the key is in EEPROM
    try:
        keys = {"SK-000001": new_key}
        with DeviceClient(board.port, name="shaker", expect_kind=DeviceKind.SHAKER, keys=keys) as client:
            assert client.wait_until_up(3) and client.authenticated
        with pytest.raises(PairingError, match="not in pairing mode"):
            pair(board.port, auth.new_key())  # no new key without a person at the device
    finally:
        board.stop()


def next_fault(client: DeviceClient, seconds: float = 3.0) -> DeviceFault:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(queue.Empty):
            event = client.events.get(timeout=0.1)
            if isinstance(event, DeviceFault):
                return event
    raise AssertionError("no DeviceFault")


@pytest.mark.skipif(shutil.which("avr-g++") is None or shutil.which("avr-size") is None,
                    reason="no avr-gcc (Debian's gcc-avr, avr-libc) to build the firmware for an ATmega328P")
@pytest.mark.parametrize("kind", ["KIND_SHAKER", "KIND_PANEL"])
def test_the_firmware_fits_an_atmega328p_with_room_for_its_stack_and_the_arduino_core(
    kind: str, tmp_path: Path
) -> None:
    """README: static RAM under 900 bytes; with the deepest stack (about 725) and the core (about 180) under 2 KB."""
    elf = tmp_path / "firmware.elf"
    subprocess.run(
        ["avr-g++", "-mmcu=atmega328p", "-DF_CPU=16000000UL", "-Os", "-std=gnu++11", "-ffunction-sections",
         "-fdata-sections", "-Wl,--gc-sections", f"-I{FIRMWARE / 'avr'}", "-include", "Arduino.h",
         f"-DDEVICE_KIND={kind}",
         "-x", "c++", str(FIRMWARE / "dealer_assist.ino"), "-x", "c++", str(FIRMWARE / "avr" / "main.cpp"),
         "-o", str(elf)],
        check=True, capture_output=True, timeout=120,
    )
    sizes = subprocess.run(["avr-size", "-A", str(elf)], check=True, capture_output=True, text=True).stdout
    section = {line.split()[0]: int(line.split()[1]) for line in sizes.splitlines() if line.startswith(".")}
    assert section[".data"] + section[".bss"] <= 900
    assert section[".text"] + section[".data"] <= 32 * 1024 - 2 * 1024 - 1600  # the bootloader, the core


def test_a_panel_pairs_when_confirm_is_held_at_power_up_and_that_hold_is_no_press(tmp_path: Path) -> None:
    binary = build(tmp_path, "DEVICE_KIND=KIND_PANEL", 'SERIAL_NUMBER="PN-000045"')
    new_key = auth.new_key()
    board = Board(binary, tmp_path / "pins", key=None, pin9=0)  # CONFIRM held while it powers up
    try:
        assert pair(board.port, new_key).serial_number == "PN-000045"
        board.set_pins(pin9=1)  # let go
        keys = {"PN-000045": new_key}
        with DeviceClient(board.port, name="panel", expect_kind=DeviceKind.PANEL, keys=keys) as client:
            assert client.wait_until_up(3) and client.authenticated
            time.sleep(0.3)
            seen = []
            with contextlib.suppress(queue.Empty):
                while True:
                    seen.append(client.events.get(timeout=0.1))
            assert not [e for e in seen if isinstance(e, ButtonPressed)]  # holding it to pair pressed nothing
    finally:
        board.stop()
