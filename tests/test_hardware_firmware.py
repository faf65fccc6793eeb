"""The reference Arduino sketch, compiled for this PC against a tiny stand-in for the Arduino core, speaks the
same protocol as the Python device: the real driver talks to it over a pty. Skipped where no C++ compiler is."""

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

from hardware.client import DeviceClient, open_port
from hardware.events import Button, ButtonPressed, ButtonReleased, DeviceKind, DiceRolled
from hardware.link import LinkTiming
from hardware.protocol import Frame, FrameParser, Ident, Identify, Nak, Shake, ShakeAccepted, encode, from_frame

FIRMWARE = Path(__file__).resolve().parent.parent / "hardware" / "firmware"
COMPILER = shutil.which("g++")
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

    def __init__(self, binary: Path, pins_file: Path, **pins: int) -> None:
        self.pins_file = pins_file
        self.set_pins(**pins)
        master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        env = dict(os.environ, PINS=str(pins_file), EEPROM=str(pins_file.with_name("eeprom")))
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
    with DeviceClient(shaker.port, name="shaker", expect_kind=DeviceKind.SHAKER, timing=timing) as client:
        assert client.wait_until_up(3)
        assert client.identity is not None and client.identity.firmware == "2.0.0"
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
        damaged = encode(6, Shake(6)).replace(b"06", b"07", 1)  # CRC no longer matches: must be ignored
        retry_under_a_new_number = encode(9, Shake(5))
        frames = exchange(
            port, [encode(1, Identify(True)), encode(5, Shake(5)), encode(5, Shake(5)), retry_under_a_new_number,
                   damaged], 0.5,
        )
    finally:
        port.close()
    replies = [(f.seq, f.type) for f in frames if f.type in ("IDENT", "ACK", "NAK")]
    assert replies == [(1, "IDENT"), (5, "ACK"), (5, "ACK"), (9, "ACK")]
    dice = [from_frame(f) for f in frames if f.type == "DICE"]
    assert dice and {d.command for d in dice} == {5}  # type: ignore[union-attr]
    assert len({f.seq for f in frames if f.type == "DICE"}) == 1  # repeats of one event, never a second roll


def test_the_firmware_refuses_to_shake_with_the_dome_open(shaker_binary: Path, tmp_path: Path) -> None:
    board = Board(shaker_binary, tmp_path / "pins", pin6=1)
    port = open_port(board.port)
    try:
        frames = exchange(port, [encode(1, Identify(True)), encode(2, Shake(1))], 0.4)
    finally:
        port.close()
        board.stop()
    [ident] = [from_frame(f) for f in frames if f.type == "IDENT"]
    [refusal] = [(f.seq, from_frame(f)) for f in frames if f.type == "NAK"]
    assert refusal == (2, Nak("DOME_OPEN", ident.session, 1))  # type: ignore[union-attr]


def test_a_panel_button_press_reaches_the_driver(tmp_path: Path) -> None:
    board = Board(build(tmp_path, "DEVICE_KIND=KIND_PANEL"), tmp_path / "pins")
    try:
        with DeviceClient(board.port, name="panel", expect_kind=DeviceKind.PANEL) as client:
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
        frames = exchange(
            port, [encode(1, Identify(True)), encode(2, Shake(5)), encode(3, Shake(3)), encode(4, Identify(True))],
            0.4,
        )
    finally:
        port.close()
    first, second = [from_frame(f) for f in frames if f.type == "IDENT"]
    assert isinstance(first, Ident) and isinstance(second, Ident) and first.version == 2
    assert first.session != second.session and first.session >> 16 == second.session >> 16
    answers = [(f.seq, from_frame(f)) for f in frames if f.type in ("ACK", "NAK")]
    assert answers == [(2, ShakeAccepted(first.session, 5)), (3, Nak("STALE", first.session, 3))]
