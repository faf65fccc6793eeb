"""The shipper against a real PostgreSQL: it catches up by itself after the floor was down, and a shipper killed
with SIGKILL anywhere leaves nothing lost and nothing doubled; the floor as the journal's anchor sink."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from floor.anchors import FloorAnchors
from floor.kiosk_link import floor_anchors
from floor.pg import LocalServer, free_port
from floor.shipper import Shipper, ShipperThread
from floor.store import add_kiosk
from journal import AnchorFile, Journal, ManualClock
from journal.chain import load_key
from journal.events import Note
from journal.simulate import fill
from kiosk.config import ConfigError, config_from_data
from kiosk.journal_place import anchor_sink
from kiosk.runtime import KioskRuntime
from tests.floor_helpers import central, enroll, local_events

REPO = Path(__file__).resolve().parent.parent


def wait_for(condition: Callable[[], bool], what: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.05)


def central_copy(dsn: str, kiosk_id: str) -> list[tuple[object, ...]]:
    return central(dsn, "SELECT seq, hash, payload_text FROM events WHERE kiosk_id = %s ORDER BY seq", kiosk_id)


def local_copy(path: Path) -> list[tuple[object, ...]]:
    return [(r["seq"], r["hash"], r["payload"]) for r in local_events(path)]


def test_the_shipper_catches_up_by_itself_after_the_floor_was_down(floor_server: LocalServer, floor_dsn: str,
                                                                   tmp_path: Path) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    shipper = Shipper(kiosk.journal_path, kiosk.dsn, poll_s=0.05, retry_s=0.2, batch=50)
    thread = ShipperThread(shipper)
    thread.start()
    try:
        wait_for(lambda: central_copy(floor_dsn, "K-1") == local_copy(kiosk.journal_path), "first shipping")
        floor_server.stop()
        journal = Journal.open(kiosk.journal_path, tmp_path / "k1" / "kiosk.key", kiosk_id="K-1", table_id="T1",
                               clock=ManualClock())
        journal.recover()  # the table plays on while the floor is down
        for number in range(30):
            journal.append(Note(text=f"played on while the floor was down ({number})", by="dealer"))
        wait_for(lambda: shipper.status().state == "unreachable", "the shipper noticing the floor is gone")
        assert shipper.status().shipped_seq < len(local_events(kiosk.journal_path))
        floor_server.start()
        journal.append(Note(text="the floor is back", by="dealer"))
        journal.close()
        wait_for(lambda: central_copy(floor_dsn, "K-1") == local_copy(kiosk.journal_path), "catching up")
        wait_for(lambda: shipper.status().state == "caught up", "the shipper saying it caught up")
    finally:
        thread.stop()
        floor_server.start() if not _up(floor_server) else None


def _up(server: LocalServer) -> bool:
    result = subprocess.run(["pg_isready", "-h", "127.0.0.1", "-p", str(server.port)], capture_output=True)
    return result.returncode == 0


def test_a_shipper_killed_mid_batch_loses_and_doubles_nothing(floor_server: LocalServer, floor_dsn: str,
                                                              tmp_path: Path) -> None:
    """Each kill lands while a batch is in flight: the floor's events table is held locked, so the shipper's
    insert waits inside ingest_events; the lock is let go a random number of times (a batch or two passes each
    time) before the SIGKILL. No timer decides where the kill falls."""
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    command = [sys.executable, "-m", "floor.cli", "ship", "--once", "--batch", "2", "--db", str(kiosk.journal_path),
               "--dsn", kiosk.dsn]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    rng = random.Random(5)
    total = len(local_events(kiosk.journal_path))
    shipped_before_kill = []
    with psycopg.connect(floor_dsn, autocommit=True) as blocker:
        def hold() -> None:
            blocker.execute("BEGIN")
            blocker.execute("LOCK TABLE events IN EXCLUSIVE MODE")

        def waiting_on_the_lock(process: subprocess.Popen[bytes]) -> bool:
            blocker.execute("SELECT pg_stat_clear_snapshot()")  # else the activity seen stays the transaction's first
            row = blocker.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                  "AND pid <> pg_backend_pid()").fetchone()
            assert process.poll() is None, "the shipper stopped although the floor was locked"
            return row is not None and row[0] > 0

        for _ in range(5):
            hold()
            process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            wait_for(lambda process=process: waiting_on_the_lock(process), "the shipper's batch waiting")
            for _ in range(rng.randint(0, 6)):  # let a batch or a few through, then hold the next one
                blocker.execute("COMMIT")
                hold()
                wait_for(lambda process=process: waiting_on_the_lock(process), "the shipper's next batch waiting")
            process.send_signal(signal.SIGKILL)
            process.wait()
            blocker.execute("COMMIT")
            shipped_before_kill.append(central(floor_dsn, "SELECT count(*) FROM events")[0][0])
    assert 0 < shipped_before_kill[-1] < total, shipped_before_kill
    assert shipped_before_kill == sorted(shipped_before_kill)
    finished = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert central_copy(floor_dsn, "K-1") == local_copy(kiosk.journal_path)
    assert central(floor_dsn, "SELECT count(*) FROM alerts WHERE kind IN ('gap', 'fork')") == [(0,)]


def test_each_rounds_end_anchors_the_chain_head_on_the_floor(floor_server: LocalServer, floor_dsn: str,
                                                             tmp_path: Path) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    folder = tmp_path / "live"
    folder.mkdir(mode=0o700)
    key_path = folder / "kiosk.key"
    key_path.write_text(kiosk.key.hex() + "\n")
    key_path.chmod(0o600)
    sink = FloorAnchors(kiosk.dsn)
    journal = Journal.open(folder / "journal.sqlite3", key_path, anchors=sink, kiosk_id="K-1", table_id="T1",
                           clock=ManualClock())
    journal.recover()
    fill(journal, 3, void_every=3)
    journal.close()
    sink.close()
    events = local_events(folder / "journal.sqlite3")
    last_end = max(r["seq"] for r in events if r["kind"] in ("round_settled", "round_voided"))
    anchors = central(floor_dsn, "SELECT seq, hash FROM anchors ORDER BY seq")
    assert len(anchors) >= 2 and anchors[-1][0] >= last_end
    assert set(anchors) <= {(r["seq"], r["hash"]) for r in events}
    assert load_key(key_path, create=False) == kiosk.key


def test_an_unreachable_floor_never_stops_play(tmp_path: Path) -> None:
    folder = tmp_path / "live"
    folder.mkdir(mode=0o700)
    sink = FloorAnchors(f"host=127.0.0.1 port={free_port()} dbname=floor user=nobody password=x", retry_s=60)
    journal = Journal.open(folder / "journal.sqlite3", folder / "kiosk.key", anchors=sink, kiosk_id="K-1",
                           table_id="T1", clock=ManualClock())
    journal.recover()
    fill(journal, 3, void_every=3)
    assert journal.anchor_problem is not None and "floor" in journal.anchor_problem
    assert journal.count() > 50
    journal.close()


def test_the_kiosks_anchor_file_is_kept_when_the_floor_is_unreachable(tmp_path: Path) -> None:
    folder = tmp_path / "live"
    folder.mkdir(mode=0o700)
    anchor_file = AnchorFile(tmp_path / "K-1.anchors")
    sink = floor_anchors(f"host=127.0.0.1 port={free_port()} dbname=floor user=nobody password=x", anchor_file)
    journal = Journal.open(folder / "journal.sqlite3", folder / "kiosk.key", anchors=sink, kiosk_id="K-1",
                           table_id="T1", clock=ManualClock())
    journal.recover()
    fill(journal, 2, void_every=0)
    assert journal.anchor_problem is not None and "floor" in journal.anchor_problem
    assert len((tmp_path / "K-1.anchors").read_text().splitlines()) == 2
    journal.close()


def test_the_kiosk_config_names_the_floor_and_its_anchors_go_there_beside_the_file(tmp_path: Path) -> None:
    dsn = "host=floor.casino dbname=floor user=kiosk_k_1 password=secret"
    config = config_from_data({"journal": {"anchors": str(tmp_path / "K-1.anchors"), "floor": dsn}})
    assert config.journal.floor == dsn
    sink = anchor_sink(config)
    assert sink is not None and "anchor file" in sink.where and "floor" in sink.where
    with pytest.raises(ConfigError, match=r"journal\.floor .*the floor's DSN"):
        config_from_data({"journal": {"floor": "floor.casino"}})


def test_the_kiosk_ships_its_journal_in_the_background(floor_server: LocalServer, floor_dsn: str,
                                                       tmp_path: Path) -> None:
    with psycopg.connect(floor_dsn) as conn:
        login = add_kiosk(conn, "K-1", "T1")
    dbname = psycopg.conninfo.conninfo_to_dict(floor_dsn)["dbname"]
    config = config_from_data({"kiosk_id": "K-1", "table_id": "T1",
                               "journal": {"floor": floor_server.dsn(str(dbname), login.role, login.password)}})
    runtime = KioskRuntime(config, tmp_path / "data", demo_seed=1)
    try:
        runtime.call_supervisor()
        wait_for(lambda: central_copy(floor_dsn, "K-1") == local_copy(tmp_path / "data" / "journal.sqlite3"),
                 "the kiosk's events on the floor")
        assert central(floor_dsn, "SELECT kind FROM alerts WHERE cleared_at IS NULL") == [("supervisor_called",)]
    finally:
        runtime.close()


@pytest.mark.parametrize(("arguments", "says"), [
    (["migrate", "--dsn", "nonsense"], "the floor DSN is not readable"),
    (["ship", "--once", "--dsn", "host=127.0.0.1 port=1 dbname=x user=y password=z", "--db", "/no/journal"],
     "the floor is unreachable"),
    (["add-kiosk", "K 7", "--table", "T1", "--dsn", "host=127.0.0.1 port=1 dbname=x"], "needs its journal key"),
])
def test_bad_floor_commands_say_what_to_do_in_one_line(arguments: list[str], says: str) -> None:
    result = subprocess.run([sys.executable, "-m", "floor.cli", *arguments], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    assert result.returncode in (1, 2)
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_two_shippers_of_one_kiosk_at_once_store_each_event_once(floor_server: LocalServer, floor_dsn: str,
                                                                 tmp_path: Path) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    shippers = [Shipper(kiosk.journal_path, kiosk.dsn, batch=batch) for batch in (7, 11)]
    errors: list[BaseException] = []

    def ship(shipper: Shipper) -> None:
        try:
            shipper.ship_pending()
        except BaseException as error:
            errors.append(error)
        finally:
            shipper.close()

    threads = [threading.Thread(target=ship, args=(s,)) for s in shippers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert central_copy(floor_dsn, "K-1") == local_copy(kiosk.journal_path)
