"""``dealer-assist device-sim``, ``devices`` and ``shake`` run as a user runs them: in subprocesses."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.client import DeviceClient
from hardware.events import Button, ButtonPressed, DeviceKind
from hardware.keystore import load_keys


class SimProcess:
    def __init__(self, command: list[str], env: dict[str, str], directory: Path, *options: str) -> None:
        self.process = subprocess.Popen(
            [*command, "device-sim", "--seed", "11", "--dir", str(directory), "--shake-seconds", "0.05", *options],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )
        assert self.process.stdout is not None
        self.ports: dict[str, str] = {}
        self.keys = ""
        """The file of the key the simulated devices were paired with for this run."""
        while not self.keys:
            line = self.process.stdout.readline()
            assert line, f"device-sim ended early: {self.process.stderr.read() if self.process.stderr else ''}"
            match = re.fullmatch(r"(shaker|panel|keys): (\S+).*\n", line)
            if match and match.group(1) == "keys":
                self.keys = match.group(2)
            elif match:
                self.ports[match.group(1)] = match.group(2)

    def type(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        while True:
            answer = self.process.stdout.readline()
            if answer.startswith(("shaker:", "panel:", "?")):
                return answer.strip()

    def quit(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        return self.process.wait(timeout=10)


@pytest.fixture
def sim(dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path) -> Iterator[SimProcess]:
    running = SimProcess(dealer_assist, cli_env, tmp_path)
    yield running
    if running.process.poll() is None:
        running.process.kill()
        running.process.wait()


def run(command: list[str], env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command, *args], capture_output=True, text=True, env=env, timeout=30)


def test_device_sim_prints_its_ports_and_shake_prints_three_dice(
    sim: SimProcess, dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    assert Path(sim.ports["shaker"]).exists() and Path(sim.ports["panel"]).exists()
    result = run(dealer_assist, cli_env, "shake", "--keys", sim.keys, "--port", sim.ports["shaker"], "--timeout", "5")
    assert result.returncode == 0, result.stderr
    match = re.fullmatch(r"([1-6]) ([1-6]) ([1-6])  \(total (\d+)\)\n", result.stdout)
    assert match is not None, result.stdout
    assert sum(int(match.group(i)) for i in (1, 2, 3)) == int(match.group(4))
    assert sim.quit() == 0
    assert not Path(sim.ports["shaker"]).exists()  # the ports go away with the simulator


def test_the_same_seed_gives_the_same_dice_from_the_command_line(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    outputs = []
    for attempt in range(2):
        running = SimProcess(dealer_assist, cli_env, tmp_path / str(attempt))
        try:
            shaken = run(dealer_assist, cli_env, "shake", "--keys", running.keys, "--port", running.ports["shaker"])
            outputs.append(shaken.stdout)
        finally:
            running.quit()
    assert outputs[0] == outputs[1] and outputs[0]


def test_a_button_typed_on_stdin_reaches_the_host_through_the_pty(sim: SimProcess) -> None:
    keys = load_keys(Path(sim.keys))
    with DeviceClient(sim.ports["panel"], name="panel", expect_kind=DeviceKind.PANEL, keys=keys) as panel:
        assert panel.wait_until_up(5)
        assert sim.type("confirm") == "panel: confirm pressed for 0.1 s"
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            event = panel.events.get(timeout=5)
            if isinstance(event, ButtonPressed):
                assert event.button == Button.CONFIRM
                break
        else:
            raise AssertionError("no button press arrived")
    assert sim.type("panic").startswith("? no button called 'panic'")


def test_a_jammed_shaker_gives_no_dice_but_says_why(
    sim: SimProcess, dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    assert sim.type("jam") == "shaker: jam"
    result = run(dealer_assist, cli_env, "shake", "--keys", sim.keys, "--port", sim.ports["shaker"], "--timeout", "5")
    assert result.returncode == 1
    assert "jammed" in result.stderr and result.stdout == ""
    sim.type("ready")
    assert run(dealer_assist, cli_env, "shake", "--keys", sim.keys, "--port", sim.ports["shaker"]).returncode == 0


@pytest.mark.parametrize(
    ("option", "told"),
    [
        ("--invalid-die", "a die read outside 1-6"),
        ("--missing-die", "fewer than three dice were read"),
        ("--jam", "the shaker is jammed"),
    ],
)
def test_a_shake_fault_rate_given_to_device_sim_really_gives_that_fault(
    option: str, told: str, dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    running = SimProcess(dealer_assist, cli_env, tmp_path, option, "1")
    try:
        result = run(
            dealer_assist, cli_env, "shake", "--keys", running.keys, "--port", running.ports["shaker"], "--timeout", "5"
        )
    finally:
        running.quit()
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("no result: shake again: ") and told in result.stderr
    if option == "--invalid-die":
        assert "7" in result.stderr


def test_devices_lists_who_answers_on_each_port(
    sim: SimProcess, dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    result = run(
        dealer_assist, cli_env, "devices", "--no-scan", "--port", sim.ports["shaker"], "--port", sim.ports["panel"],
        "--port", "/nonexistent/ttyUSB9", "--keys", sim.keys,
    )
    assert result.returncode == 0, result.stderr
    lines = {line.split()[0]: line for line in result.stdout.splitlines()}
    assert "shaker  firmware sim-3.0" in lines[sim.ports["shaker"]]
    assert "panel  firmware sim-3.0" in lines[sim.ports["panel"]]
    assert lines[sim.ports["shaker"]].endswith("baud  authenticated")
    assert "no answer" in lines["/nonexistent/ttyUSB9"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["shake", "--port", "/nonexistent/ttyUSB9"], "cannot reach a shaker on /nonexistent/ttyUSB9"),
        (["shake", "--port", "loop://", "--baud", "1234"], "baud rate 1234 is not one of"),
        (["device-sim", "--drop", "2"], "fault rate drop=2.0 must be between 0 and 1"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_2(
    dealer_assist: list[str], cli_env: dict[str, str], args: list[str], message: str
) -> None:
    result = run(dealer_assist, cli_env, *args)
    assert result.returncode == 2
    assert result.stderr.startswith("dealer-assist: ") and message in result.stderr
    assert result.stderr.count("\n") == 1
