"""`dealer-assist floor demo` as a newcomer runs it: PostgreSQL, the console and autoplaying kiosks come up, the
printed login works, rounds arrive, and Ctrl-C leaves nothing running behind."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_floor_demo_prints_a_working_login_and_stops_everything(dealer_assist: list[str], cli_env: dict[str, str],
                                                                tmp_path: Path) -> None:
    port = free_port()
    demo = subprocess.Popen([*dealer_assist, "floor", "demo", "--kiosks", "2", "--port", str(port), "--pace", "0.02"],
                            env=cli_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert demo.stdout is not None
        printed = ""
        while "Ctrl-C" not in printed:
            line = demo.stdout.readline()
            assert line, f"the demo ended before it printed its login:\n{printed}"
            printed += line
        address = re.search(r"the floor console: (http://\S+)", printed)
        login = re.search(r"sign in as '(\w+)' with password '([^']+)'", printed)
        assert address is not None and login is not None, printed
        assert address[1] == f"http://127.0.0.1:{port}/"
        folder = Path(re.search(r"journals in (\S+)\)", printed)[1])  # type: ignore[index]

        web = httpx.Client(base_url=address[1], follow_redirects=True, timeout=10)
        token = re.search(r'name="csrf" value="([^"]+)"', web.get("/login").text)[1]  # type: ignore[index]
        pit = web.post("/login", data={"csrf": token, "name": login[1], "password": login[2]}).text
        assert 'id="table-K-01"' in pit and 'id="table-K-02"' in pit
        settled = 0
        for _ in range(200):  # the kiosks play and ship: settled rounds arrive on the floor
            settled = web.get("/rounds?outcome=settled").text.count('class="round-link"')
            if settled >= 2:
                break
            time.sleep(0.1)
        assert settled >= 2
        boxed = ""
        for _ in range(100):  # the demo's camera: each reading's rendered frame reaches the floor, boxes drawn on it
            links = re.findall(r'href="(/rounds/[^"]+)" class="round-link"', web.get("/rounds").text)
            boxed = next((page for page in (web.get(link).text for link in links[:6])
                          if 'class="card-box"' in page), "")
            if boxed:
                break
            time.sleep(0.2)
        assert boxed, "no round review shows an evidence frame with its cards boxed"
        frame = re.search(r'href="(/frames/[0-9a-f]{64})"', boxed)[1]  # type: ignore[index]
        assert web.get(frame).headers["content-type"] == "image/jpeg"
    finally:
        demo.send_signal(signal.SIGINT)
        output = demo.communicate(timeout=30)[0]
    assert demo.returncode == 0, output
    assert not folder.exists(), "the demo left its temporary folder (and PostgreSQL's data) behind"
    assert subprocess.run(["pgrep", "-f", str(folder)], capture_output=True).returncode == 1, \
        "PostgreSQL is still running"


def test_a_demo_killed_without_time_to_stop_leaves_no_postgresql_and_keeps_to_the_data_folder(
        dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path) -> None:
    """SIGTERM, then SIGKILL a second later (what a service manager does): its watchdog stops PostgreSQL. The
    journals were under DEALER_ASSIST_DATA; the console reached the database as floor_console's member, not as
    the superuser."""
    data = tmp_path / "data"
    demo = subprocess.Popen([*dealer_assist, "floor", "demo", "--kiosks", "1", "--port", str(free_port()),
                             "--pace", "0.05"], env={**cli_env, "DEALER_ASSIST_DATA": str(data)},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    printed = ""
    try:
        assert demo.stdout is not None
        while "Ctrl-C" not in printed:
            line = demo.stdout.readline()
            assert line, f"the demo ended before it printed its login:\n{printed}"
            printed += line
        folder = Path(re.search(r"journals in (\S+)\)", printed)[1])  # type: ignore[index]
        assert folder.parent == data and (folder / "kiosk-1" / "journal.sqlite3").exists()
        address = re.search(r"the floor console: (http://\S+)", printed)[1]  # type: ignore[index]
        login = re.search(r"sign in as '(\w+)' with password '([^']+)'", printed)
        web = httpx.Client(base_url=address, follow_redirects=True, timeout=10)
        token = re.search(r'name="csrf" value="([^"]+)"', web.get("/login").text)[1]  # type: ignore[index]
        assert 'id="table-K-01"' in web.post("/login", data={"csrf": token, "name": login[1],  # type: ignore[index]
                                                              "password": login[2]}).text  # type: ignore[index]
        console = subprocess.run(["pgrep", "-f", "postgres: floor_demo_console floor_demo"], capture_output=True)
        assert console.returncode == 0, "the console is not connected as floor_demo_console"
        data_dir = re.search(r"PostgreSQL (\S+) on port", printed)[1]  # type: ignore[index]
        assert subprocess.run(["pgrep", "-f", f"postgres -D {data_dir}"], capture_output=True).returncode == 0
    finally:
        demo.send_signal(signal.SIGTERM)
        time.sleep(1)
        demo.kill()
        demo.wait(10)
    for _ in range(100):
        if subprocess.run(["pgrep", "-f", f"postgres -D {data_dir}"], capture_output=True).returncode == 1:
            break
        time.sleep(0.1)
    assert subprocess.run(["pgrep", "-f", f"postgres -D {data_dir}"], capture_output=True).returncode == 1, \
        "PostgreSQL outlived the demo"
    for _ in range(50):
        if not Path(data_dir).exists() and not folder.exists():
            break
        time.sleep(0.1)
    assert not Path(data_dir).exists() and not folder.exists(), "the demo's folders were left behind"
