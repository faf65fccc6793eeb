"""Losing the floor's primary PostgreSQL mid-shipping: its hot standby (streaming replication, `pg_basebackup -R`)
is promoted, and the kiosk's shipper and the console, both naming the two servers in one DSN, carry on by
themselves with nothing lost or doubled."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import psycopg

from floor.console import auth
from floor.console.app import Console, create_app
from floor.console.db import Database
from floor.console.server import BackgroundServer
from floor.pg import LocalServer, free_port
from floor.replication import for_writes
from floor.shipper import Shipper, ShipperThread
from journal import Journal, ManualClock
from journal.events import DeviceDown, Note
from tests.floor_fixtures import FloorPair, floor_pair  # noqa: F401  (the primary and its standby)
from tests.floor_helpers import enroll, local_events
from tests.test_floor_console_web import PASSWORD, sign_in

REPO = Path(__file__).resolve().parent.parent


def wait_for(condition: Callable[[], bool], what: str, timeout_s: float = 60) -> float:
    began = time.monotonic()
    while not condition():
        assert time.monotonic() - began < timeout_s, f"gave up waiting: {what}"
        time.sleep(0.05)
    return time.monotonic() - began


def rows(dsn: str, query: str, *params: object) -> list[tuple[object, ...]]:
    try:
        with psycopg.connect(for_writes(dsn), connect_timeout=2) as conn:
            return conn.execute(query.encode(), params).fetchall()
    except psycopg.OperationalError:
        return []  # no primary to answer yet


def test_the_standby_promoted_when_the_primary_dies_mid_shipping_loses_and_doubles_nothing(
        floor_pair: FloorPair, tmp_path: Path) -> None:  # noqa: F811
    pair = floor_pair
    owner = pair.dsn()
    kiosk = enroll(pair.primary, pair.primary.dsn(pair.dbname), tmp_path / "k1", "K-1", "T1", rounds=12)
    kiosk_dsn = pair.dsn(kiosk.login.role, kiosk.login.password)
    with psycopg.connect(pair.primary.dsn(pair.dbname)) as conn:
        auth.add_account(conn, "sup", PASSWORD, "supervisor", "test")
    shipper = Shipper(kiosk.journal_path, kiosk_dsn, poll_s=0.05, retry_s=0.2, batch=3)
    db = Database(owner)
    server = BackgroundServer(create_app(Console(db, pit_poll_s=0.1)))
    server.start()
    web = httpx.Client(base_url=server.url, timeout=10)
    assert sign_in(web, "sup")[0] == 303  # type: ignore[arg-type]
    pit_events = PitStream(server.url, web.cookies)  # the live pit view, open through all of it
    with db.reading() as conn:  # the reports' reads go to the standby while it is one
        assert conn.execute("SELECT pg_is_in_recovery()").fetchone() == (True,)

    playing = threading.Event()
    playing.set()

    def play() -> None:  # the table plays on through all of it
        journal = Journal.open(kiosk.journal_path, tmp_path / "k1" / "kiosk.key", kiosk_id="K-1", table_id="T1",
                               clock=ManualClock())
        journal.recover()
        number = 0
        while playing.is_set():
            journal.append(Note(text=f"played on ({number})", by="dealer"))
            number += 1
            time.sleep(0.02)
        journal.close()

    player = threading.Thread(target=play)
    thread = ShipperThread(shipper)
    player.start()
    thread.start()
    try:
        total_before = len(local_events(kiosk.journal_path))
        wait_for(lambda: shipper.status().shipped_seq > 30, "shipping under way")
        shipped_at_kill = shipper.status().shipped_seq
        pair.primary.stop("immediate")  # the primary's server lost, no clean shutdown
        assert shipped_at_kill < len(local_events(kiosk.journal_path)), "the kill came after shipping was done"
        wait_for(lambda: shipper.status().state == "unreachable", "the shipper noticing the primary is gone")
        outage = web.get("/")
        assert outage.status_code == 503 and "does not answer" in outage.text  # a page of its own, not a crash
        pair.standby.promote()
        promoted = time.monotonic()

        answers: list[str] = []
        try:
            console_back = wait_for(lambda: _pit_answers(web, answers), "the console answering on the new primary", 30)
        except AssertionError:
            raise AssertionError(f"the console did not come back; its last answer: {answers[-1:]}") from None
        assert "T1" in web.get("/").text
        assert web.get("/reports").status_code == 200

        playing.clear()
        player.join()
        assert pit_events.events and not any('class="down"' in event for event in pit_events.events)
        _camera_down(kiosk.journal_path, tmp_path / "k1" / "kiosk.key")  # a change the pit view must show live
        local = [(e["seq"], e["hash"]) for e in local_events(kiosk.journal_path)]
        assert len(local) > total_before
        wait_for(lambda: rows(owner, "SELECT count(*) FROM events") == [(len(local),)],
                 "shipping to resume on the new primary")
        resumed = time.monotonic() - promoted
        central = rows(owner, "SELECT seq, hash FROM events WHERE kiosk_id = 'K-1' ORDER BY seq")
        assert central == local  # every event once, in order, the same
        assert rows(owner, "SELECT count(*) FROM alerts WHERE kind IN ('gap', 'fork')") == [(0,)]
        assert rows(owner, "SELECT pg_is_in_recovery()") == [(False,)]
        wait_for(lambda: shipper.status().state == "caught up", "the shipper saying it caught up")
        wait_for(lambda: any('class="down"' in event for event in pit_events.events), "the open pit view "
                 f"showing the camera down (the stream said: {pit_events.comments[-2:]})", 30)
        _rebuild_the_lost_server_as_a_standby(pair, len(local))
        print(f"\nfailover: console back {console_back:.1f} s and shipping caught up {resumed:.1f} s after the "
              f"promotion; {len(local)} events, 0 lost, 0 doubled")
    finally:
        playing.clear()
        thread.stop()
        pit_events.close()
        server.stop()
        db.close()


class PitStream:
    """The pit view's server-sent events, read in a thread: each pit event's data, and the comments."""

    def __init__(self, url: str, cookies: httpx.Cookies) -> None:
        self.events: list[str] = []
        self.comments: list[str] = []
        self.client = httpx.Client(base_url=url, cookies=cookies, timeout=httpx.Timeout(10, read=None))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        data: list[str] = []
        try:
            with self.client.stream("GET", "/pit/stream") as stream:
                for line in stream.iter_lines():
                    if line.startswith(":"):
                        self.comments.append(line)
                    elif line.startswith("data: "):
                        data.append(line[6:])
                    elif not line and data:
                        self.events.append("\n".join(data))
                        data = []
        except httpx.HTTPError as error:
            self.comments.append(f"the stream ended: {error!r}")

    def close(self) -> None:
        self.client.close()


def _camera_down(journal_path: Path, key: Path) -> None:
    journal = Journal.open(journal_path, key, kiosk_id="K-1", table_id="T1", clock=ManualClock())
    journal.recover()
    journal.append(DeviceDown("camera", "no frame for 5 s"))
    journal.close()


def _rebuild_the_lost_server_as_a_standby(pair: FloorPair, events: int) -> None:
    """What the casino does next: `dealer-assist floor standby` copies the new primary onto the lost server's
    machine, which then follows it."""
    folder = Path(tempfile.mkdtemp(dir=pair.primary.folder.parent))
    folder.chmod(0o711)
    command = [sys.executable, "-m", "floor.cli", "standby", "--primary", pair.standby.dsn(), "--data"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    (folder / "taken").mkdir()
    (folder / "taken" / "a file").write_text("kept")
    refused = subprocess.run([*command, str(folder / "taken")], env=env, capture_output=True, text=True)
    assert refused.returncode == 2 and "is not empty" in refused.stderr, refused.stderr
    made = subprocess.run([*command, str(folder / "data")], env=env, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    assert "pg_ctl promote" in made.stdout
    rebuilt = LocalServer(folder, free_port(), pair.primary.user, pair.primary.password)
    if rebuilt.user is not None:
        shutil.chown(folder, rebuilt.user)
    try:
        rebuilt.start()
        one = rebuilt.dsn(pair.dbname)
        wait_for(lambda: rows(one, "SELECT pg_is_in_recovery(), count(*) FROM events") == [(True, events)],
                 "the rebuilt server following the new primary", 30)
    finally:
        rebuilt.remove()


def _pit_answers(web: httpx.Client, last_error: list[str]) -> bool:
    try:
        answer = web.get("/")
    except Exception as error:  # the console's own error page needs the database too: no primary yet
        last_error.append(repr(error))
        return False
    last_error.append(f"status {answer.status_code}")
    return answer.status_code == 200
