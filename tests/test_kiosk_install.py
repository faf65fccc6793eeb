"""`dealer-assist kiosk install --root DIR`: every file a kiosk PC needs, checked by systemd's own tools (the unit by
`systemd-analyze verify`, the user by `systemd-sysusers`, the folders' owner and modes by `systemd-tmpfiles`), and
the watchdog the kiosk feeds from its screen's main loop, heard on a real AF_UNIX datagram socket."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from kiosk import service_notify

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_kiosk_ui import display  # noqa: F401 - the Xvfb display fixture

REPO = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve()
SYSTEM_UNITS = Path("/lib/systemd/system")
UNIT = "etc/systemd/system/dealer-assist-kiosk.service"


def install(dealer_assist: list[str], env: dict[str, str], root: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*dealer_assist, "kiosk", "install", "--root", str(root), "--data", "/var/lib/dealer-assist",
         "--keys", "/mnt/keys/dealer-assist", "--anchors", "/mnt/anchors/dealer-assist", *extra],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=60,
    )


def test_install_root_writes_a_kiosk_that_systemd_accepts(tmp_path: Path, dealer_assist: list[str],
                                                          cli_env: dict[str, str]) -> None:
    root = tmp_path / "root"
    done = install(dealer_assist, cli_env, root, "--shaker-serial", "A10B2C3", "--panel-serial", "PN-000045")
    assert done.returncode == 0, done.stderr
    unit = (root / UNIT).read_text()
    for line in ("Type=notify", "Restart=always", "WatchdogSec=30", "Environment=SDL_VIDEODRIVER=kmsdrm",
                 "User=dealer-assist", "ExecStart=/opt/dealer-assist/current/bin/dealer-assist kiosk --fullscreen "
                 "--data /var/lib/dealer-assist --config /var/lib/dealer-assist/kiosk.yaml"):
        assert line in unit.splitlines()
    assert os.readlink(root / "etc/systemd/system/multi-user.target.wants/dealer-assist-kiosk.service") == "/" + UNIT
    assert os.access(root / "opt/dealer-assist/current/bin/dealer-assist", os.X_OK)

    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    # the unit's dependencies (sysinit.target, getty@.service, …) are looked up under the root too
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    verified = subprocess.run(["systemd-analyze", "verify", f"--root={root}", "dealer-assist-kiosk.service"],
                              capture_output=True, text=True, timeout=60)
    assert verified.returncode == 0 and not verified.stderr.strip(), verified.stderr
    # …and it does fail on a unit whose program is missing
    (root / "opt/dealer-assist/current").unlink()
    broken = subprocess.run(["systemd-analyze", "verify", f"--root={root}", "dealer-assist-kiosk.service"],
                            capture_output=True, text=True, timeout=60)
    assert broken.returncode != 0 and "is not executable" in broken.stderr

    rules = (root / "etc/udev/rules.d/70-dealer-assist.rules").read_text()
    assert ('SUBSYSTEM=="tty", ATTRS{serial}=="A10B2C3", SYMLINK+="dealer-assist/shaker", OWNER="dealer-assist", '
            'GROUP="dialout", MODE="0660", TAG+="systemd"') in rules.splitlines()
    assert 'ATTRS{serial}=="PN-000045", SYMLINK+="dealer-assist/panel"' in rules
    assert "consoleblank=0" in (root / "etc/default/grub.d/dealer-assist-kiosk.cfg").read_text()

    config = yaml.safe_load((root / "var/lib/dealer-assist/kiosk.yaml").read_text())
    assert config["journal"]["key"] == "/mnt/keys/dealer-assist/kiosk.key"
    assert config["journal"]["anchors"] == "/mnt/anchors/dealer-assist/anchors.log"
    assert (config["devices"]["shaker"], config["devices"]["panel"]) == ("/dev/dealer-assist/shaker",
                                                                         "/dev/dealer-assist/panel")

    # the service user and the folders' owner and modes, as the kiosk PC's first boot makes them
    if os.geteuid() != 0 or shutil.which("systemd-sysusers") is None:
        pytest.skip("systemd-sysusers and systemd-tmpfiles set owners as root only")
    subprocess.run(["systemd-sysusers", f"--root={root}"], check=True, capture_output=True, timeout=60)
    passwd = {line.split(":")[0]: line.split(":") for line in (root / "etc/passwd").read_text().splitlines()}
    uid = int(passwd["dealer-assist"][2])
    groups = {line.split(":")[0]: line.split(":")[3].split(",") for line in (root / "etc/group").read_text().split()}
    assert all("dealer-assist" in groups[g] for g in ("video", "render", "input", "dialout"))
    os.chmod(root / "mnt/keys/dealer-assist", 0o777)  # a mode gone wrong is put right at boot
    subprocess.run(["systemd-tmpfiles", f"--root={root}", "--create"], check=True, capture_output=True, timeout=60)
    for folder, mode in (("var/lib/dealer-assist", 0o750), ("mnt/keys/dealer-assist", 0o700),
                         ("mnt/anchors/dealer-assist", 0o700)):
        stat = (root / folder).stat()
        assert (stat.st_mode & 0o777, stat.st_uid) == (mode, uid), folder


def test_dry_run_prints_every_file_and_writes_nothing_and_bad_input_is_named(
        tmp_path: Path, dealer_assist: list[str], cli_env: dict[str, str]) -> None:
    root = tmp_path / "root"
    done = install(dealer_assist, cli_env, root, "--dry-run", "--shaker-serial", "A10B2C3")
    assert done.returncode == 0, done.stderr
    for path in ("/etc/systemd/system/dealer-assist-kiosk.service", "/etc/udev/rules.d/70-dealer-assist.rules",
                 "/etc/sysusers.d/dealer-assist.conf", "/etc/tmpfiles.d/dealer-assist.conf",
                 "/var/lib/dealer-assist/kiosk.yaml", "/etc/default/grub.d/dealer-assist-kiosk.cfg"):
        assert f"file {path} (mode" in done.stdout
    assert "WatchdogSec=30" in done.stdout and "Type=notify" in done.stdout
    assert "panel: no rule written: no --panel-serial given and it was never paired here" in done.stdout
    assert not root.exists()

    # without --root or --dry-run it changes nothing unless told --yes (the bad user name stops it in any case)
    live = subprocess.run([*dealer_assist, "kiosk", "install", "--user", "Not A User"], capture_output=True,
                          text=True, env=cli_env, cwd=REPO, timeout=60)
    assert live.returncode == 2 and "add --yes on the kiosk PC itself" in live.stderr

    bad = install(dealer_assist, cli_env, root, "--shaker-serial", 'x" RUN+="/bin/sh')
    assert bad.returncode == 2 and "--shaker-serial" in bad.stderr and "ID_SERIAL_SHORT" in bad.stderr
    assert not root.exists()


# ---- the watchdog protocol on a real socket ------------------------------------------------------------------------
class NotifyListener:
    """The service manager's side: an AF_UNIX datagram socket collecting what the kiosk sends."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.2)
        self.messages: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.messages.append(self.sock.recv(4096).decode())
            except TimeoutError:
                continue

    def close(self) -> list[str]:
        self._stop.set()
        self._thread.join(2)
        self.sock.setblocking(False)
        while True:  # what arrived after the last read
            try:
                self.messages.append(self.sock.recv(4096).decode())
            except BlockingIOError:
                break
        self.sock.close()
        return self.messages


def test_notify_reaches_a_socket_by_path_and_in_the_abstract_namespace(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    listener = NotifyListener(tmp_path / "notify")
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    assert service_notify.ready("table T1")
    assert service_notify.watchdog_ping()
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"dealer-assist-test-{os.getpid()}"
    abstract.bind("\0" + name)
    monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
    assert service_notify.watchdog_ping()
    assert abstract.recv(100) == b"WATCHDOG=1"
    abstract.close()
    messages = listener.close()
    assert messages == ["READY=1\nSTATUS=table T1", "WATCHDOG=1"]

    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "nobody-listens"))
    assert service_notify.watchdog_ping() is False  # the kiosk plays on
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert service_notify.ready() is False
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert service_notify.watchdog_interval_s() == 15
    monkeypatch.setenv("WATCHDOG_PID", "1")  # for another process
    assert service_notify.watchdog_interval_s() is None


def freeze_the_screen(app: Any) -> Iterator[float]:
    """Runs inside the kiosk: let it ping, then block its main loop as a hung screen would, then stop."""
    yield 1.5
    service_notify.notify("X-TEST=frozen")
    import time

    time.sleep(2)  # the main loop is stuck here: nothing else on it runs
    service_notify.notify("X-TEST=thawed")
    yield 0.3
    app.stop()


@pytest.mark.ui
@pytest.mark.slow
def test_the_screen_main_loop_feeds_the_watchdog_and_a_hung_loop_stops_it(tmp_path: Path,
                                                                          display: str) -> None:  # noqa: F811
    listener = NotifyListener(tmp_path / "notify")
    try:
        env = dict(os.environ, DISPLAY=display, KIVY_NO_ARGS="1", KIVY_HOME=str(tmp_path / "kivy"),
                   PYTHONPATH=str(REPO), NOTIFY_SOCKET=str(tmp_path / "notify"), WATCHDOG_USEC="600000")
        env.pop("WATCHDOG_PID", None)
        done = subprocess.run(
            [sys.executable, "-m", "kiosk.testing", "--data", str(tmp_path / "data"), "--reader", "placed",
             "--driver", f"{THIS}:freeze_the_screen"],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
        )
    finally:
        messages = listener.close()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert messages[0].startswith("READY=1")
    frozen, thawed = messages.index("X-TEST=frozen"), messages.index("X-TEST=thawed")
    assert messages[1:frozen].count("WATCHDOG=1") >= 3  # every 0.3 s while the screen runs
    assert thawed == frozen + 1  # nothing reached the watchdog while the loop was stuck
    assert messages[-1].startswith("STOPPING=1")
