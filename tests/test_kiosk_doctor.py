"""`dealer-assist kiosk doctor`: passes on a kiosk laid out as `kiosk install` lays it (simulated devices, the key and
anchors on another volume), and names each thing wrong it is shown, one line a check."""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from kiosk.clock_sync import clock_synchronised

REPO = Path(__file__).resolve().parent.parent
OTHER_VOLUME = Path("/dev/shm")


@pytest.fixture
def other_volume(tmp_path: Path) -> Iterator[Path]:
    """A folder on another file system than tmp_path (the key's and anchors' volume)."""
    if not OTHER_VOLUME.is_dir() or os.stat(OTHER_VOLUME).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("no second volume (/dev/shm) beside the temporary folder")
    folder = OTHER_VOLUME / f"dealer-assist-doctor-{os.getpid()}-{tmp_path.name}"
    for name in ("keys", "anchors"):
        (folder / name).mkdir(parents=True, mode=0o700)
    yield folder
    subprocess.run(["rm", "-rf", str(folder)], check=False)


def write_config(path: Path, **sections: object) -> Path:
    path.write_text(yaml.safe_dump(sections))
    return path


def doctor(dealer_assist: list[str], env: dict[str, str], data: Path, config: Path, *extra: str
           ) -> tuple[int, dict[str, str]]:
    done = subprocess.run([*dealer_assist, "kiosk", "doctor", "--data", str(data), "--config", str(config), *extra],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert not done.stderr.strip() or done.returncode != 2, done.stderr
    lines = {}
    for line in done.stdout.splitlines():
        mark, _, rest = line.partition(" ")
        check, _, says = rest.strip().partition(": ")
        if mark in ("OK", "FAIL", "SKIP"):
            lines[check] = f"{mark} {says}"
    return done.returncode, lines


def test_doctor_passes_on_a_kiosk_laid_out_as_installed(tmp_path: Path, other_volume: Path,
                                                        dealer_assist: list[str], cli_env: dict[str, str]) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o750)
    config = write_config(tmp_path / "kiosk.yaml",
                          journal={"key": str(other_volume / "keys/kiosk.key"),
                                   "anchors": str(other_volume / "anchors/anchors.log")})
    synchronised = clock_synchronised()
    # this machine's clock may not be synchronised (a container): then it is left out here and fails in the next test
    code, lines = doctor(dealer_assist, cli_env, data, config, *([] if synchronised else ["--skip", "clock"]))
    assert code == 0, lines
    assert lines["shaker"].startswith("OK simulated shaker") and lines["shaker"].endswith("authenticated")
    assert lines["panel"].startswith("OK simulated panel")
    assert lines["camera"].startswith("OK synthetic table (demo): a 1920x1080 frame, calibrated from 4 markers")
    assert lines["fonts"].startswith("OK Khmer ")
    assert lines["words"].startswith("OK vi ") and " km " in lines["words"]
    assert lines["key"].startswith(f"OK {other_volume}/keys/kiosk.key on another volume")
    assert lines["floor"].startswith("OK not configured")
    assert lines["models"].startswith("OK shipped ")
    assert set(lines) == {"config", "camera", "shaker", "panel", "fonts", "words", "clock", "disk", "key", "anchors",
                          "floor", "models"}
    # a new release's self-check beside the running kiosk: models loaded, the camera and the ports left to it
    code, lines = doctor(dealer_assist, cli_env, data, config, "--self-check")
    assert code == 0, lines
    assert lines["clock"].startswith("SKIP the machine's, not the release's")
    assert lines["camera"] == "OK layout baibuu_7, calibrated from its markers at start (camera held by the kiosk)"
    assert lines["shaker"] == "OK devices.shaker: simulated" and lines["models"].startswith("OK shipped ")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_doctor_names_each_failure_it_is_shown(tmp_path: Path, other_volume: Path, dealer_assist: list[str],
                                               cli_env: dict[str, str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    key = other_volume / "keys/kiosk.key"
    key.write_bytes(os.urandom(32))
    key.chmod(0o644)  # readable by everyone
    master, slave = os.openpty()  # a serial port where nothing answers
    try:
        config = write_config(
            tmp_path / "kiosk.yaml",
            devices={"shaker": str(tmp_path / "dev/dealer-assist/shaker"), "panel": os.ttyname(slave)},
            evidence={"max_mb": 10**7},  # 10 TB: a cap no disk here holds
            journal={"key": str(key), "anchors": str(data.parent / "anchors.log"),  # beside the journal's volume
                     "floor": f"host=127.0.0.1 port={free_port()} dbname=floor user=kiosk_t1 connect_timeout=3"},
        )
        no_catalogues = {**cli_env, "DEALER_ASSIST_LOCALE_DIR": str(tmp_path / "locale")}  # a translator's typo
        code, lines = doctor(dealer_assist, no_catalogues, data, config, "--skip", "models")
    finally:
        os.close(master)
        os.close(slave)
    assert code == 1
    assert lines["shaker"] == (f"FAIL {tmp_path}/dev/dealer-assist/shaker does not exist: is the shaker plugged in "
                               "(and its udev rule installed: `dealer-assist kiosk install --shaker-serial …`)?")
    assert lines["panel"].startswith("FAIL nothing answers on /dev/pts/")
    assert lines["key"] == f"FAIL {key} has mode 0644, wants 0600 or less: chmod 600 {key}"
    assert lines["config"].startswith("FAIL journal.key") and "chmod 600" in lines["config"]
    assert lines["anchors"].startswith(f"FAIL {data.parent}/anchors.log is on the same volume as the journal")
    assert lines["disk"].startswith("FAIL ") and "evidence.max_mb 10,000,000" in lines["disk"]
    assert lines["floor"].startswith("FAIL the floor cannot be reached")
    assert lines["camera"].startswith("OK") and lines["fonts"].startswith("OK")
    assert lines["words"].startswith(f"FAIL no translation catalogue at {tmp_path}/locale/vi/LC_MESSAGES/")
    assert lines["models"] == "SKIP left out (--skip)"
    synchronised = clock_synchronised()
    assert lines["clock"] == ("OK synchronised" if synchronised else
                              "FAIL the clock is not synchronised: every journal time may be off; enable "
                              "systemd-timesyncd or chrony with the casino's time server (timedatectl set-ntp true)")
