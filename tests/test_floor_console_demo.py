"""`dealer-assist floor demo` as a newcomer runs it: PostgreSQL, the console and autoplaying kiosks come up, the
printed login works, rounds arrive with their evidence frames, and stopping it (even SIGTERM, then SIGKILL a
second later, as a service manager does) leaves nothing running behind."""

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


def running(data_dir: str) -> bool:
    return subprocess.run(["pgrep", "-f", f"postgres -D {data_dir}"], capture_output=True).returncode == 0


def test_floor_demo_prints_a_working_login_plays_with_frames_and_leaves_nothing_behind(
        dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path) -> None:
    port, data = free_port(), tmp_path / "data"
    demo = subprocess.Popen([*dealer_assist, "floor", "demo", "--kiosks", "2", "--port", str(port), "--pace", "0.02"],
                            env={**cli_env, "DEALER_ASSIST_DATA": str(data)}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    printed = ""
    try:
        assert demo.stdout is not None
        while "Ctrl-C" not in printed:
            line = demo.stdout.readline()
            assert line, f"the demo ended before it printed its login:\n{printed}"
            printed += line
        address = re.search(r"the floor console: (http://\S+)", printed)
        login = re.search(r"sign in as '(\w+)' with password '([^']+)'", printed)
        assert address is not None and login is not None, printed
        assert address[1] == f"http://127.0.0.1:{port}/"
        folder = Path(re.search(r"journals in (\S+)\)", printed)[1])  # type: ignore[index]
        assert folder.parent == data and (folder / "kiosk-1" / "journal.sqlite3").exists()  # $DEALER_ASSIST_DATA
        data_dir = re.search(r"PostgreSQL (\S+) on port", printed)[1]  # type: ignore[index]
        assert running(data_dir)

        web = httpx.Client(base_url=address[1], follow_redirects=True, timeout=10)
        token = re.search(r'name="csrf" value="([^"]+)"', web.get("/login").text)[1]  # type: ignore[index]
        pit = web.post("/login", data={"csrf": token, "name": login[1], "password": login[2]}).text
        assert 'id="table-K-01"' in pit and 'id="table-K-02"' in pit
        console = subprocess.run(["pgrep", "-f", "postgres: floor_demo_console floor_demo"], capture_output=True)
        assert console.returncode == 0, "the console is not connected as floor_demo_console (not the superuser)"
        boxed = ""
        for _ in range(150):  # the kiosks play and ship; each reading's rendered frame follows, boxes drawn on it
            links = re.findall(r'href="(/rounds/[^"]+)" class="round-link"', web.get("/rounds?outcome=settled").text)
            boxed = next((page for page in (web.get(link).text for link in links[:4]) if 'class="card-box"' in page),
                         "")
            if len(links) >= 2 and boxed:
                break
            time.sleep(0.2)
        assert boxed, "no settled round's review shows an evidence frame with its cards boxed"
        frame = re.search(r'href="(/frames/[0-9a-f]{64})"', boxed)[1]  # type: ignore[index]
        assert web.get(frame).headers["content-type"] == "image/jpeg"
        assert re.search(r">D-1\d\d<", web.get("/rounds").text), "the demo's rounds name no dealer"
        assert 'data-dealer="D-1' in web.get("/").text, "the pit's cards do not name the dealer at each table"
    finally:
        demo.send_signal(signal.SIGTERM)
        try:
            output = demo.communicate(timeout=1)[0]
            assert demo.returncode == 0, output  # it had the second it needed to stop everything itself
        except subprocess.TimeoutExpired:
            demo.kill()  # no second chance: its watchdog stops PostgreSQL and removes the folders
            demo.wait(10)
    for _ in range(100):
        if not running(data_dir) and not Path(data_dir).exists() and not folder.exists():
            break
        time.sleep(0.1)
    assert not running(data_dir), "PostgreSQL outlived the demo"
    assert not Path(data_dir).exists() and not folder.exists(), "the demo left its folders behind"
