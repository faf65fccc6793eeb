"""Floor figures: ingest rate from 200 simulated kiosks, pit-view latency with 10^6 events stored, and faults.

    .venv/bin/python bench/floor.py [--kiosks 200] [--backlog-rounds 10] [--realtime-s 60] [--fault-kiosks 20]
                                    [--compress 10] [--kills 50] [--pit-events 1000000] [--workers 4]

Everything runs for real on this machine: a PostgreSQL started with initdb in a temporary folder, every kiosk its
own SQLite journal file and its own login role (its events' hashes checked under its key on arrival), shippers in
worker processes (each ``floor.shipper.Shipper`` with its own connection), ingest through ``ingest_events``.

Kiosks write "as the kiosk writes them": the kinds, payloads and chain of a journal the simulated games wrote
(``journal.simulate``), re-chained under each kiosk's own id and key, one transaction per event with
``synchronous=FULL``; the backlog before a phase is written in one transaction (only how it is written differs).

- load: 200 kiosks each with a backlog of rounds, all shipped at once: events/s sustained until every one is stored;
  then a round every 30 s per kiosk in real time: lag from write to stored.
- pit view: 10^6 events loaded with COPY (plus their rounds), then the console's pit-view queries timed.
- faults (time-compressed by --compress: a round every 30/compress s): the network cut for 10 simulated minutes
  mid-round (a TCP relay between shippers and PostgreSQL drops every connection and refuses new ones); the
  shipper SIGKILLed at random points (x50); PostgreSQL restarted (``pg_ctl restart -m immediate``: a crash) mid-
  ingest; a journal altered after shipping; the primary killed mid-shipping and its hot standby promoted (the
  kiosks and the console naming both servers). After each: the central copy is compared event by event with every
  journal (nothing lost, nothing doubled).
"""

from __future__ import annotations

import argparse
import heapq
import inspect
import io
import multiprocessing as mp
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

import psycopg

from floor.migrate import migrate
from floor.pg import LocalServer
from floor.shipper import Shipper
from floor.store import add_kiosk
from journal import Journal, ManualClock
from journal.chain import event_hash, head_mac, header_json, load_key
from journal.simulate import fill

REPO = Path(__file__).resolve().parent.parent
ROUND_S = 30.0

# ---- what the kiosks write ---------------------------------------------------------------------------------

Template = list[list[tuple[float, bool, str, str]]]
"""Rounds of (seconds after the round began, belongs to the round, kind, payload text)."""


def make_template(rounds: int = 30) -> Template:
    folder = Path(tempfile.mkdtemp(prefix="floor-template-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    folder.chmod(0o700)
    journal = Journal.open(folder / "t.sqlite3", folder / "t.key", kiosk_id="T", table_id="T", clock=ManualClock())
    journal.recover()
    fill(journal, rounds, seed=11, void_every=9)
    journal.close()
    conn = sqlite3.connect(folder / "t.sqlite3")
    rows = conn.execute("SELECT time, round_id, kind, payload FROM events ORDER BY seq").fetchall()
    conn.close()
    template: Template = []
    current: list[tuple[datetime, bool, str, str]] = []
    for time_text, round_id, kind, payload in rows:
        if kind in ("kiosk_started", "kiosk_stopped"):
            continue
        current.append((datetime.fromisoformat(time_text), round_id is not None, kind, payload))
        if kind in ("round_settled", "round_voided"):
            start = current[0][0]
            template.append([((t - start).total_seconds(), r, k, p) for t, r, k, p in current])
            current = []
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()
    return template


class SimKiosk:
    """A kiosk's journal file, written the way the journal writes it, with the template's rounds."""

    def __init__(self, folder: Path, kiosk_id: str, table_id: str, template: Template, seed: int) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o700)
        self.path = folder / "journal.sqlite3"
        self.key_path = folder / "kiosk.key"
        self.kiosk_id, self.table_id, self.template = kiosk_id, table_id, template
        self.rng = random.Random(seed)
        if not self.path.exists():
            journal = Journal.open(self.path, self.key_path, kiosk_id=kiosk_id, table_id=table_id,
                                   clock=ManualClock(datetime(2026, 12, 1, tzinfo=UTC)))
            journal.recover()
            journal.close()
        self.key = load_key(self.key_path, create=False)
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute("PRAGMA busy_timeout=5000")
        self.seq, self.hash = self.conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        self.round = 1 + (self.conn.execute("SELECT max(round_id) FROM events").fetchone()[0] or 0)
        self.boot = f"boot-{kiosk_id}"
        self.mono = 10**9

    def round_rows(self, start: datetime) -> list[tuple[Any, ...]]:
        rows = []
        for offset, in_round, kind, payload in self.rng.choice(self.template):
            self.seq += 1
            moment = (start + timedelta(seconds=offset)).isoformat(timespec="microseconds")
            mono = self.mono + int(offset * 1e9)
            round_id = self.round if in_round else None
            header = header_json(self.seq, moment, mono, self.boot, self.kiosk_id, self.table_id, round_id, kind)
            digest = event_hash(self.key, self.hash, header, payload.encode("utf-8"))
            rows.append((self.seq, moment, mono, self.boot, self.kiosk_id, self.table_id, round_id, kind, payload,
                         self.hash, digest))
            self.hash = digest
        self.round += 1
        self.mono += int(ROUND_S * 1e9)
        return rows

    def write(self, rows: list[tuple[Any, ...]], *, durable_each: bool) -> None:
        """One transaction per event (as the kiosk) or one for them all (a backlog)."""
        if not durable_each:
            self.conn.execute("BEGIN IMMEDIATE")
        for row in rows:
            if durable_each:
                self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute("INSERT INTO events (seq, time, mono_ns, boot_id, kiosk_id, table_id, round_id, kind, "
                              "payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
            self.conn.execute("UPDATE head SET seq = ?, hash = ?, mac = ? WHERE id = 1",
                              (row[0], row[10], head_mac(self.key, row[0], row[10])))
            if durable_each:
                self.conn.execute("COMMIT")
        if not durable_each:
            self.conn.execute("COMMIT")


# ---- the floor ---------------------------------------------------------------------------------------------


@dataclass
class Floor:
    server: LocalServer
    dsn: str
    dbname: str

    def kiosk_dsn(self, role: str, password: str, port: int | None = None) -> str:
        dsn = self.server.dsn(self.dbname, role, password)
        return dsn if port is None else dsn.replace(f"port={self.server.port}", f"port={port}")

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.dsn) as conn:
            return conn.execute(sql.encode(), params).fetchall()


def new_floor(server: LocalServer, name: str) -> Floor:
    dsn = server.create_database(name)
    with psycopg.connect(dsn) as conn:
        migrate(conn)
    return Floor(server, dsn, name)


def enroll(floor: Floor, kiosks: list[SimKiosk]) -> dict[str, tuple[str, str]]:
    logins = {}
    with psycopg.connect(floor.dsn) as conn:
        for kiosk in kiosks:
            login = add_kiosk(conn, kiosk.kiosk_id, kiosk.table_id, password=f"pw-{kiosk.kiosk_id}",
                              chain_key=kiosk.key)
            logins[kiosk.kiosk_id] = (login.role, login.password)
    return logins


def compare(floor: Floor, kiosks: list[SimKiosk]) -> tuple[int, int, int]:
    """(events in the journals, missing or different centrally, extra centrally)."""
    local_total = missing = extra = 0
    with psycopg.connect(floor.dsn) as conn:
        for kiosk in kiosks:
            local = kiosk.conn.execute("SELECT seq, hash FROM events ORDER BY seq").fetchall()
            central = conn.execute("SELECT seq, hash FROM events WHERE kiosk_id = %s ORDER BY seq",
                                   (kiosk.kiosk_id,)).fetchall()
            local_total += len(local)
            local_set, central_set = set(local), {(int(s), h) for s, h in central}
            missing += len(local_set - central_set)
            extra += len(central_set - local_set)
    return local_total, missing, extra


def central_count(floor: Floor) -> int:
    return int(floor.query("SELECT count(*) FROM events")[0][0])


# ---- shippers in worker processes ------------------------------------------------------------------------------


def ship_worker(jobs: list[tuple[str, str]], stop: Any, batch: int) -> None:
    """Ship each (journal, dsn) in turn until ``stop`` is set, the way ShipperThread.run does for one."""
    shippers = [Shipper(path, dsn, batch=batch, recheck=0, heartbeat_s=5.0) for path, dsn in jobs]
    retry_at = [0.0] * len(shippers)
    while not stop.is_set():
        busy = False
        for index, shipper in enumerate(shippers):
            if time.monotonic() < retry_at[index]:
                continue
            try:
                busy = shipper.ship_pending() > 0 or busy
            except Exception:  # unreachable or restarting: this shipper retries by itself a little later
                shipper._drop_connection()
                retry_at[index] = time.monotonic() + 0.5
        if not busy:
            stop.wait(0.2)
    for shipper in shippers:
        shipper.close()


class Shippers:
    def __init__(self, jobs: list[tuple[str, str]], workers: int, batch: int = 500) -> None:
        context = mp.get_context("fork")
        self.stop = context.Event()
        self.processes = [context.Process(target=ship_worker, args=(jobs[n::workers], self.stop, batch), daemon=True)
                          for n in range(workers)]

    def __enter__(self) -> Shippers:
        for process in self.processes:
            process.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for process in self.processes:
            process.join(10)
            if process.is_alive():
                process.kill()


def wait_until(condition: Callable[[], bool], timeout_s: float, what: str) -> float:
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout_s:
            raise SystemExit(f"FAILED: {what} did not happen within {timeout_s:.0f} s")
        time.sleep(0.2)
    return time.monotonic() - start


def make_kiosks(base: Path, prefix: str, count: int, template: Template) -> list[SimKiosk]:
    return [SimKiosk(base / f"{prefix}{n:03d}", f"{prefix}{n:03d}", f"T{n:03d}", template, n) for n in range(count)]


# ---- load -------------------------------------------------------------------------------------------------------


def load(server: LocalServer, base: Path, template: Template, args: argparse.Namespace) -> None:
    print(f"\n== load: {args.kiosks} kiosks, a round every {ROUND_S:.0f} s each")
    floor = new_floor(server, "floor_load")
    kiosks = make_kiosks(base / "load", "K", args.kiosks, template)
    logins = enroll(floor, kiosks)
    start = datetime.now(UTC) - timedelta(seconds=ROUND_S * args.backlog_rounds)
    for kiosk in kiosks:
        rows = []
        for number in range(args.backlog_rounds):
            rows += kiosk.round_rows(start + timedelta(seconds=ROUND_S * number + kiosk.rng.uniform(0, ROUND_S)))
        kiosk.write(rows, durable_each=False)
    total, _, _ = compare(floor, kiosks)
    print(f"backlog: {args.backlog_rounds} rounds per kiosk = {total} events in {len(kiosks)} journals")
    jobs = [(str(k.path), floor.kiosk_dsn(*logins[k.kiosk_id])) for k in kiosks]
    with Shippers(jobs, args.workers):
        elapsed = wait_until(lambda: central_count(floor) >= total, 600, "shipping the backlog")
        rate = total / elapsed
        print(f"ingest, all {len(kiosks)} shipping at once: {total} events in {elapsed:.1f} s = "
              f"{rate:,.0f} events/s sustained (goal >= 2,000)")
        # Real time: each kiosk begins a round every 30 s (staggered), its events written as they happen; one
        # kiosk plays probe rounds, each timed from its last event written to that event stored centrally.
        before = central_count(floor)
        written = [0]
        writers_stop = threading.Event()

        def write_in_real_time() -> None:
            written[0] += play(kiosks[1:], args.realtime_s, 1.0, writers_stop)

        writer = threading.Thread(target=write_in_real_time)
        writer.start()
        probe_kiosk = kiosks[0]
        lags: list[float] = []
        t_end = time.monotonic() + args.realtime_s
        while time.monotonic() < t_end:
            rows = probe_kiosk.round_rows(datetime.now(UTC))
            probe_kiosk.write(rows, durable_each=True)
            wrote = time.monotonic()
            written[0] += len(rows)
            seq = rows[-1][0]
            wait_until(lambda seq=seq: floor.query("SELECT 1 FROM events WHERE kiosk_id = %s AND seq = %s",
                                                   probe_kiosk.kiosk_id, seq) != [], 60, "a probe round arriving")
            lags.append(time.monotonic() - wrote)
            time.sleep(2.0)
        writer.join()
        total_now, _, _ = compare(floor, kiosks)
        wait_until(lambda: central_count(floor) >= total_now, 120, "the real-time phase arriving")
        real_rate = (central_count(floor) - before) / args.realtime_s
        print(f"real time, {args.realtime_s} s: {written[0]} events written ({real_rate:,.0f} events/s offered); "
              f"write-to-stored lag p50 {statistics.median(lags):.2f} s, max {max(lags):.2f} s "
              f"({len(lags)} probes)")
    local_total, missing, extra = compare(floor, kiosks)
    print(f"nothing lost: {local_total} events in the journals, {missing} missing or different centrally, "
          f"{extra} extra")
    for kiosk in kiosks:
        kiosk.conn.close()


# ---- pit view with 10^6 events -------------------------------------------------------------------------------


def pit_view(server: LocalServer, base: Path, template: Template, args: argparse.Namespace) -> None:
    print(f"\n== pit view with {args.pit_events:,} events stored")
    floor = new_floor(server, "floor_pit")
    tables = 200
    per_kiosk = args.pit_events // tables
    kiosks = make_kiosks(base / "pit", "P", tables, template)
    enroll(floor, kiosks)
    span = timedelta(seconds=ROUND_S * 1.1 * per_kiosk / 47)  # about an hour of the floor
    load_floor(floor, kiosks, per_kiosk, span)
    time_queries(floor, pit_queries(floor))


def load_floor(floor: Floor, kiosks: list[SimKiosk], per_kiosk: int, span: timedelta) -> float:
    """``per_kiosk`` events of each kiosk loaded with COPY (plus their rounds, kiosks' heads and void alerts), its
    rounds spread evenly over ``span`` up to now; returns the seconds it took."""
    began = time.monotonic()
    per_round = sum(map(len, kiosks[0].template)) / len(kiosks[0].template)
    rounds_each = max(1, round(per_kiosk / per_round))
    spacing = max(timedelta(seconds=ROUND_S), span / rounds_each)
    end = datetime.now(UTC)
    start = end - spacing * rounds_each  # rounds every ``spacing`` up to now (none in the future)
    with psycopg.connect(floor.dsn) as conn:
        for number, kiosk in enumerate(kiosks):
            buffer = io.StringIO()
            moment = start + timedelta(seconds=kiosk.rng.uniform(0, ROUND_S))
            while moment < end:
                for row in kiosk.round_rows(moment):
                    seq, time_text, mono, boot, kid, tid, round_id, kind, payload, prev, digest = row
                    buffer.write("\t".join([kid, str(seq), tid, time_text, time_text, str(mono), boot,
                                            "\\N" if round_id is None else str(round_id), kind,
                                            _copy_text(payload), _copy_text(payload), prev, digest]) + "\n")
                moment += spacing
            with conn.cursor().copy("COPY events (kiosk_id, seq, table_id, time, time_text, mono_ns, boot_id, "
                                    "round_id, kind, payload_text, payload, prev_hash, hash) FROM STDIN") as copy:
                copy.write(buffer.getvalue())
            conn.commit()
            if (number + 1) % 50 == 0:
                print(f"  COPY: {number + 1} of {len(kiosks)} kiosks, {time.monotonic() - began:.0f} s", flush=True)
        conn.execute(ROUNDS_FROM_EVENTS)
        conn.execute("UPDATE kiosks k SET last_seq = e.seq, last_hash = e.hash, last_event_at = e.time, "
                     "last_seen_at = now(), game = r.game, open_round = NULL FROM (SELECT DISTINCT ON (kiosk_id) "
                     "kiosk_id, seq, hash, time FROM events ORDER BY kiosk_id, seq DESC) e, (SELECT DISTINCT ON "
                     "(kiosk_id) kiosk_id, game FROM rounds ORDER BY kiosk_id, round_id DESC) r "
                     "WHERE k.kiosk_id = e.kiosk_id AND k.kiosk_id = r.kiosk_id")
        # A void raises an alert; those older than 10 minutes a supervisor has acknowledged.
        conn.execute("INSERT INTO alerts (kiosk_id, table_id, kind, seq, message, raised_at, cleared_at, cleared_by) "
                     "SELECT kiosk_id, table_id, 'void', ended_seq, 'voided', ended_at, CASE WHEN ended_at < now() "
                     "- interval '10 minutes' THEN ended_at + interval '2 minutes' END, CASE WHEN ended_at < now() - "
                     "interval '10 minutes' THEN 'sup-1' END FROM rounds WHERE status = 'voided'")
        conn.commit()
        conn.autocommit = True
        conn.execute("VACUUM ANALYZE")
        stored = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        rounds = conn.execute("SELECT count(*) FROM rounds").fetchone()[0]
        open_alerts = conn.execute("SELECT count(*) FROM alerts WHERE cleared_at IS NULL").fetchone()[0]
        size = conn.execute("SELECT pg_size_pretty(pg_database_size(current_database()))").fetchone()[0]
    took = time.monotonic() - began
    print(f"loaded with COPY: {stored:,} events, {rounds:,} rounds, {len(kiosks)} tables, {open_alerts} open alerts "
          f"(voids of the last 10 minutes) in {took:.0f} s (rows made in Python, COPY, rounds summed, VACUUM "
          f"ANALYZE); the database is {size}")
    return took


def time_queries(floor: Floor, queries: list[tuple[str, Callable[[Any], Any]]], goal_ms: float = 300) -> None:
    with psycopg.connect(floor.dsn, autocommit=True) as conn:
        for name, run in queries:
            t0 = time.perf_counter()
            try:
                run(conn)  # warm
            except psycopg.Error as error:  # one query that fails costs its figure, not the load before it
                print(f"{name}: FAILED: {str(error).strip().splitlines()[0]}")
                continue
            times = []
            for _ in range(30 if time.perf_counter() - t0 < 2 else 3):  # a slow one: a few times only
                t0 = time.perf_counter()
                run(conn)
                times.append((time.perf_counter() - t0) * 1000)
            times.sort()
            goal = goal_ms if "report" not in name else 1000
            print(f"{name}: p50 {statistics.median(times):.1f} ms, p95 {times[int(len(times) * 0.95) - 1]:.1f} ms, "
                  f"max {times[-1]:.1f} ms (goal < {goal:.0f} ms)")


def month(server: LocalServer, base: Path, template: Template, args: argparse.Namespace) -> None:
    """A month of a 200-table floor: the console's own pit view and shift report timed with that many rows."""
    tables = 200
    per_kiosk = args.month_events // tables
    print(f"\n== a month of a {tables}-table floor: {per_kiosk * tables:,} events stored")
    floor = new_floor(server, "floor_month")
    kiosks = make_kiosks(base / "month", "M", tables, template)
    enroll(floor, kiosks)
    load_floor(floor, kiosks, per_kiosk, timedelta(days=30))
    with psycopg.connect(floor.dsn, autocommit=True) as conn:  # dealers by table and shift (for the dealers page)
        conn.execute("UPDATE rounds SET dealer = ((hashtext(table_id) & 1023) * 3 + extract(hour FROM began_at)::int "
                     "/ 8) % 600 + 1000")
        conn.execute("VACUUM ANALYZE rounds")
    from floor.console import data as console_data
    from floor.console.dealers import by_dealer

    now = datetime.now(UTC)
    today = now.date()
    yesterday = today - timedelta(days=1)
    shifts = (6, 14, 22)
    queries: list[tuple[str, Callable[[Any], Any]]] = [
        ("console pit view (floor.console.data.pit, all 200 tables)", lambda conn: console_data.pit(conn, now, 30)),
        ("console shift report (floor.console.data.report, today: every table and shift)",
         lambda conn: console_data.report(conn, console_data.RoundQuery(since=today, until=today), shifts, now)),
        ("console shift report (floor.console.data.report, yesterday: a whole day's three shifts, every table)",
         lambda conn: console_data.report(conn, console_data.RoundQuery(since=yesterday, until=yesterday), shifts,
                                          now)),
        ("console report over the whole month (every table and shift)",
         lambda conn: console_data.report(conn, console_data.RoundQuery(since=today - timedelta(days=30),
                                                                         until=today), shifts, now)),
        ("console dealers page over the whole month (floor.console.dealers.by_dealer)",
         lambda conn: by_dealer(conn, console_data.RoundQuery(since=today - timedelta(days=30), until=today))),
    ]
    time_queries(floor, queries)


def _copy_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


ROUNDS_FROM_EVENTS = """
INSERT INTO rounds (kiosk_id, round_id, table_id, game, began_at, ended_at, status, begun_seq, ended_seq, actions,
                    total_bet, house_net, nets, corrections, misreads, mis_sets, reshakes)
SELECT kiosk_id, round_id, min(table_id), min(payload->>'game') FILTER (WHERE kind = 'round_begun'),
       min(time), max(time) FILTER (WHERE kind IN ('round_settled', 'round_voided')),
       CASE WHEN bool_or(kind = 'round_voided') THEN 'voided' WHEN bool_or(kind = 'round_settled') THEN 'settled'
            ELSE 'open' END,
       min(seq), max(seq) FILTER (WHERE kind IN ('round_settled', 'round_voided')),
       count(*) FILTER (WHERE kind = 'action_recorded'),
       coalesce(sum((payload->'action'->>'bet')::bigint) FILTER (WHERE kind = 'action_recorded'
                AND jsonb_typeof(payload->'action'->'bet') = 'number'), 0),
       max((payload->'nets'->>'house')::bigint) FILTER (WHERE kind = 'round_settled'
                AND jsonb_typeof(payload->'nets'->'house') = 'number'),
       (array_agg(payload->'nets') FILTER (WHERE kind = 'round_settled'))[1],
       count(*) FILTER (WHERE kind = 'cards_corrected'), count(*) FILTER (WHERE kind = 'cards_misread'),
       count(*) FILTER (WHERE kind = 'action_recorded' AND payload->>'description' LIKE '%mis-set%'),
       count(*) FILTER (WHERE kind = 'dice_reshaken')
FROM events WHERE round_id IS NOT NULL GROUP BY kiosk_id, round_id
"""


def pit_queries(floor: Floor) -> list[tuple[str, Callable[[Any], Any]]]:
    now = datetime.now(UTC)
    queries: list[tuple[str, Callable[[Any], Any]]] = []
    try:
        from floor.console import data as console_data

        queries.append(("console pit view (floor.console.data.pit, all 200 tables)",
                        lambda conn: console_data.pit(conn, now, 30)))
    except Exception as error:  # the console is built elsewhere: fall back to its queries' shape
        print(f"(the console's pit() is not importable here: {error}; timing the same queries by hand)")
    queries.append(("pit-style query by hand (every table: kiosk state, last round, open alerts, rounds today)",
                    lambda conn: conn.execute(PIT_SQL).fetchall()))
    queries.append(("round review (one round's events)", lambda conn: conn.execute(
        "SELECT seq, kind, payload_text FROM events WHERE kiosk_id = 'P100' AND round_id = 500 ORDER BY seq"
    ).fetchall()))
    queries.append(("round search (one table, voided or corrected, newest 50)", lambda conn: conn.execute(
        "SELECT * FROM rounds WHERE table_id = 'T100' AND (status = 'voided' OR corrections > 0 OR mis_sets > 0 "
        "OR misreads > 0) ORDER BY began_at DESC LIMIT 50").fetchall()))
    queries.append(("report (one table, last 7 days: rounds, hold, voids, corrections)", lambda conn: conn.execute(
        "SELECT count(*), sum(house_net)::float / nullif(sum(total_bet), 0), count(*) FILTER (WHERE status = "
        "'voided'), sum(corrections), sum(mis_sets) FROM rounds WHERE table_id = 'T100' AND began_at > "
        "now() - interval '7 days'").fetchall()))
    return queries


PIT_SQL = """
SELECT k.table_id, k.kiosk_id, k.game, k.open_round, k.round_step, k.devices, k.last_seen_at, r.round_id, r.status,
       r.house_net, (SELECT count(*) FROM alerts a WHERE a.table_id = k.table_id AND a.cleared_at IS NULL),
       (SELECT count(*) FROM rounds t WHERE t.table_id = k.table_id AND t.began_at > now() - interval '1 day')
FROM kiosks k LEFT JOIN LATERAL (SELECT round_id, status, house_net FROM rounds WHERE rounds.kiosk_id = k.kiosk_id
                                 ORDER BY round_id DESC LIMIT 1) r ON true
ORDER BY k.table_id
"""


# ---- faults ----------------------------------------------------------------------------------------------------


class Relay:
    """A TCP relay between the shippers and PostgreSQL; ``cut()`` drops every connection and refuses new ones
    (the server unreachable), ``restore()`` takes connections again."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.listener.listen(512)
        self.open = True
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            client, _ = self.listener.accept()
            if not self.open:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.sockets += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.open = False
        with self.lock:
            for sock in self.sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)  # wakes the relay's threads blocked on it
                    sock.close()
                except OSError:
                    pass
            self.sockets = []

    def restore(self) -> None:
        self.open = True


def play(kiosks: list[SimKiosk], seconds: float, compress: float, stop_early: threading.Event | None = None) -> int:
    """Every kiosk plays a round every ROUND_S / compress seconds (events spread through it); returns events."""
    written = 0
    step = ROUND_S / compress
    due = {k.kiosk_id: time.monotonic() + k.rng.uniform(0, step) for k in kiosks}
    queue: list[tuple[float, int, SimKiosk, tuple[Any, ...]]] = []  # a heap: (when, order, kiosk, event)
    order = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end and not (stop_early and stop_early.is_set()):
        now = time.monotonic()
        for kiosk in kiosks:
            if due[kiosk.kiosk_id] <= now:
                due[kiosk.kiosk_id] += step
                rows = kiosk.round_rows(datetime.now(UTC))
                for index, row in enumerate(rows):
                    order += 1
                    heapq.heappush(queue, (now + step * 0.8 * index / len(rows), order, kiosk, row))
        while queue and queue[0][0] <= time.monotonic():
            _, _, kiosk, row = heapq.heappop(queue)
            kiosk.write([row], durable_each=True)
            written += 1
        time.sleep(0.005)
    for _, _, kiosk, row in sorted(queue, key=lambda q: q[:2]):  # the rounds under way finish
        kiosk.write([row], durable_each=True)
        written += 1
    return written


def verdict(floor: Floor, kiosks: list[SimKiosk], what: str) -> None:
    local_total, missing, extra = compare(floor, kiosks)
    ok = "OK" if missing == 0 and extra == 0 else "FAILED"
    print(f"{what}: {local_total} events in the journals, {missing} missing or different centrally, {extra} "
          f"doubled or extra: {ok}")


def fault_network_cut(server: LocalServer, base: Path, template: Template, args: argparse.Namespace) -> None:
    compress = args.compress
    print(f"\n== fault: network cut for 10 simulated minutes mid-round ({args.fault_kiosks} kiosks, time "
          f"compressed {compress:.0f}x: {600 / compress:.0f} s real)")
    floor = new_floor(server, "floor_cut")
    kiosks = make_kiosks(base / "cut", "C", args.fault_kiosks, template)
    logins = enroll(floor, kiosks)
    relay = Relay(server.port)
    jobs = [(str(k.path), floor.kiosk_dsn(*logins[k.kiosk_id], port=relay.port)) for k in kiosks]
    with Shippers(jobs, 2):
        play(kiosks, 60 / compress, compress)  # a simulated minute of play, shipped
        relay.cut()
        cut_at = time.monotonic()
        during = play(kiosks, 600 / compress, compress)
        stored_during_cut = central_count(floor)
        relay.restore()
        local_total, _, _ = compare(floor, kiosks)
        caught = wait_until(lambda: central_count(floor) >= local_total, 300, "catching up after the cut")
        print(f"written during the cut: {during} events (the tables played on); stored centrally when the network "
              f"came back: {stored_during_cut}; caught up {caught:.1f} s after it came back "
              f"({time.monotonic() - cut_at:.0f} s after the cut)")
    verdict(floor, kiosks, "after the cut")


def fault_kills(server: LocalServer, base: Path, template: Template, args: argparse.Namespace) -> None:
    print(f"\n== fault: the shipper killed with SIGKILL at random points, x{args.kills}")
    floor = new_floor(server, "floor_kill")
    kiosk = make_kiosks(base / "kill", "S", 1, template)[0]
    logins = enroll(floor, [kiosk])
    rows: list[tuple[Any, ...]] = []
    while len(rows) < 3000:
        rows += kiosk.round_rows(datetime.now(UTC))
    kiosk.write(rows, durable_each=False)
    command = [sys.executable, "-m", "floor.cli", "ship", "--once", "--batch", "20", "--db", str(kiosk.path),
               "--dsn", floor.kiosk_dsn(*logins[kiosk.kiosk_id])]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    rng = random.Random(50)
    mid = 0
    for _ in range(args.kills):
        played = [row for _ in range(4) for row in kiosk.round_rows(datetime.now(UTC))]
        kiosk.write(played, durable_each=False)  # the kiosk played on meanwhile: a few rounds more to ship
        before = central_count(floor)
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while central_count(floor) == before and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)  # until it is shipping: then a kill at a random point of its batches
        time.sleep(rng.uniform(0, 0.25))
        finished = process.poll() is not None
        process.send_signal(signal.SIGKILL)
        process.wait()
        if not finished and central_count(floor) < compare(floor, [kiosk])[0]:
            mid += 1
    print(f"{args.kills} kills, {mid} of them while it was shipping (events stored, more still to send)")
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    print(f"a last run: {result.stdout.strip() or result.stderr.strip()}")
    verdict(floor, [kiosk], f"after {args.kills} kills")
    alerts = floor.query("SELECT count(*) FROM alerts WHERE kind IN ('fork', 'gap')")[0][0]
    print(f"fork or gap alerts raised: {alerts}")


def fault_restart(server: LocalServer, base: Path, template: Template, args: argparse.Namespace) -> None:
    print(f"\n== fault: PostgreSQL restarted mid-ingest (pg_ctl restart -m immediate: a crash; {args.fault_kiosks} "
          "kiosks)")
    floor = new_floor(server, "floor_restart")
    kiosks = make_kiosks(base / "restart", "R", args.fault_kiosks, template)
    logins = enroll(floor, kiosks)
    backlog = []
    for kiosk in kiosks:
        rows: list[tuple[Any, ...]] = []
        for _ in range(20):
            rows += kiosk.round_rows(datetime.now(UTC))
        kiosk.write(rows, durable_each=False)
        backlog.append(len(rows))
    jobs = [(str(k.path), floor.kiosk_dsn(*logins[k.kiosk_id])) for k in kiosks]
    total = sum(backlog)
    with Shippers(jobs, 2, batch=100):
        wait_until(lambda: central_count(floor) > total // 4, 120, "ingest under way")
        at_restart = central_count(floor)
        began = time.monotonic()
        server.stop("immediate")
        server.start()
        down = time.monotonic() - began
        caught = wait_until(lambda: central_count(floor) >= sum(backlog), 300, "catching up after the restart")
        print(f"crashed with {at_restart} of {sum(backlog)} events stored; down and back up (crash recovery) in "
              f"{down:.1f} s; the rest stored {caught:.1f} s after it was back")
        written = play(kiosks, 10, args.compress)
        local_total, _, _ = compare(floor, kiosks)
        wait_until(lambda: central_count(floor) >= local_total, 300, "shipping the play after the restart")
        print(f"then {written} events more played and shipped")
    verdict(floor, kiosks, "after the restart")


def fault_altered(server: LocalServer, base: Path, template: Template, args: argparse.Namespace) -> None:
    print("\n== fault: a kiosk's journal altered after shipping")
    floor = new_floor(server, "floor_altered")
    kiosk = make_kiosks(base / "altered", "A", 1, template)[0]
    logins = enroll(floor, [kiosk])
    rows: list[tuple[Any, ...]] = []
    for _ in range(5):
        rows += kiosk.round_rows(datetime.now(UTC))
    kiosk.write(rows, durable_each=False)
    dsn = floor.kiosk_dsn(*logins[kiosk.kiosk_id])
    shipper = Shipper(kiosk.path, dsn)
    shipper.ship_pending()
    shipper.close()
    target = next(r for r in reversed(rows) if r[7] == "round_settled")
    original = target[8]
    kiosk.conn.execute("DROP TRIGGER events_no_update")
    altered = original.replace('"nets":{', '"nets":{"9":1000,', 1)
    kiosk.conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (altered, target[0]))
    print(f"altered event {target[0]} ({target[7]}) in the kiosk's SQLite file after it was shipped")
    shipper = Shipper(kiosk.path, dsn)
    try:
        shipper.ship_pending()
        print("FAILED: the floor took the altered journal")
    except Exception as error:
        print(f"the shipper, restarted: {error}")
    finally:
        shipper.close()
    alerts = floor.query("SELECT kind, seq, message FROM alerts WHERE kind IN ('fork', 'gap', 'anchor_mismatch')")
    print(f"alerts on the console: {[(kind, seq) for kind, seq, _ in alerts]}")
    central_payload = floor.query("SELECT payload_text FROM events WHERE kiosk_id = %s AND seq = %s",
                                  kiosk.kiosk_id, target[0])[0][0]
    stands = "OK" if central_payload == original else "FAILED"
    print(f"the central copy of event {target[0]} stands as shipped: {stands}")


def fault_failover(_server: LocalServer, base: Path, template: Template, args: argparse.Namespace) -> None:
    """A primary and its hot standby of their own; the primary killed mid-shipping, the standby promoted."""
    print(f"\n== fault: the primary PostgreSQL lost mid-shipping (pg_ctl stop -m immediate), its hot standby "
          f"promoted (pg_ctl promote); {args.fault_kiosks} kiosks and the console naming both servers")
    from floor.console import auth
    from floor.console.app import Console, create_app
    from floor.console.db import Database
    from floor.console.server import BackgroundServer
    from floor.replication import for_writes

    primary = LocalServer.create()
    primary.start()
    began = time.monotonic()
    standby = LocalServer.standby_of(primary)
    standby.start()
    print(f"standby made with pg_basebackup -R and started in {time.monotonic() - began:.1f} s")
    both = f"host=127.0.0.1,127.0.0.1 port={primary.port},{standby.port}"

    def two_hosts(dsn: str) -> str:
        return dsn.replace("host=127.0.0.1", both.split(" ")[0]).replace(f"port={primary.port}", both.split(" ")[1])

    one = new_floor(primary, "floor_failover")
    floor = Floor(primary, for_writes(two_hosts(one.dsn)), one.dbname)
    kiosks = make_kiosks(base / "failover", "F", args.fault_kiosks, template)
    logins = enroll(floor, kiosks)
    with psycopg.connect(floor.dsn) as conn:
        auth.add_account(conn, "bench", "bench password 1", "supervisor", "bench")
    for kiosk in kiosks:
        rows: list[tuple[Any, ...]] = []
        for _ in range(20):
            rows += kiosk.round_rows(datetime.now(UTC))
        kiosk.write(rows, durable_each=False)
    total = compare(floor, kiosks)[0]
    db = Database(floor.dsn)
    console = BackgroundServer(create_app(Console(db)))
    console.start()
    answers: list[tuple[float, int]] = []  # (monotonic time, status; 0: no answer)
    polling = threading.Event()
    polling.set()

    def poll_console() -> None:
        import httpx

        web = httpx.Client(base_url=console.url, timeout=10)
        page = web.get("/login").text
        token = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        web.post("/login", data={"csrf": token, "name": "bench", "password": "bench password 1"})
        while polling.is_set():
            try:
                status = web.get("/").status_code
            except httpx.HTTPError:
                status = 0
            answers.append((time.monotonic(), status))
            time.sleep(0.05)

    poller = threading.Thread(target=poll_console, daemon=True)
    poller.start()
    jobs = [(str(k.path), two_hosts(floor.kiosk_dsn(*logins[k.kiosk_id]))) for k in kiosks]
    try:
        with Shippers(jobs, 2, batch=100):
            wait_until(lambda: central_count(floor) > total // 3, 120, "ingest under way")
            players_stop = threading.Event()
            written = [0]
            player = threading.Thread(target=lambda: written.__setitem__(0, play(kiosks, 3600, args.compress,
                                                                                  players_stop)))
            player.start()
            time.sleep(1.0)
            at_kill = central_count(floor)
            killed = time.monotonic()
            primary.stop("immediate")
            standby.promote()
            promoted = time.monotonic()
            with psycopg.connect(for_writes(floor.dsn)) as conn:
                on_standby = conn.execute("SELECT count(*) FROM events").fetchone()[0]
            resumed = wait_until(lambda: central_count(floor) > on_standby, 60, "shipping resuming")
            time.sleep(3.0)
            players_stop.set()
            player.join()
            local_total = compare(floor, kiosks)[0]
            caught = wait_until(lambda: central_count(floor) >= local_total, 300, "catching up on the new primary")
        print(f"killed with {at_kill} of {total} backlog events stored (the kiosks playing on); the standby "
              f"held {on_standby} when promoted (asynchronous replication: the shippers resend what it lacked); "
              f"promoted in {promoted - killed:.2f} s")
        kiosk_retry = inspect.signature(Shipper).parameters["retry_s"].default
        print(f"shipping resumed by itself {resumed:.1f} s after the promotion (bench shippers retry every 0.5 s; "
              f"a kiosk's every {kiosk_retry:.0f} s); every journal caught up "
              f"{time.monotonic() - promoted:.1f} s after it ({caught:.1f} s after play stopped); {written[0]} "
              "events played meanwhile")
        time.sleep(0.5)
        polling.clear()
        poller.join(10)
        down = [t for t, status in answers if t >= killed and status != 200]
        back = next((t for t, status in answers if t >= promoted and status == 200), None)
        if back is None:
            print("FAILED: the console did not answer on the new primary")
        else:
            print(f"console: pit view answered again {back - promoted:.2f} s after the promotion "
                  f"({back - killed:.2f} s after the primary died; {len(down)} of its polls every 50 ms failed)")
        verdict(floor, kiosks, "after the failover")
    finally:
        polling.clear()
        console.stop()
        db.close()
        for kiosk in kiosks:
            kiosk.conn.close()
        primary.remove()
        standby.remove()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kiosks", type=int, default=200)
    parser.add_argument("--backlog-rounds", type=int, default=10)
    parser.add_argument("--realtime-s", type=int, default=60)
    parser.add_argument("--fault-kiosks", type=int, default=20)
    parser.add_argument("--compress", type=float, default=10.0)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--pit-events", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--month-events", type=int, default=10_000_000)
    parser.add_argument("--only", choices=("load", "pit", "cut", "kill", "restart", "altered", "failover", "month"),
                        action="append")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="floor-bench-"))
    base.chmod(0o700)
    print(f"floor bench on {os.cpu_count()} CPUs; journals in {base}")
    began = time.monotonic()
    template = make_template()
    print(f"template: {len(template)} simulated rounds, {sum(map(len, template)) / len(template):.0f} events per round")
    server = LocalServer.create()
    server.start()
    print(f"PostgreSQL started in {server.folder} on port {server.port}")
    stages = {"load": load, "pit": pit_view, "cut": fault_network_cut, "kill": fault_kills,
              "restart": fault_restart, "altered": fault_altered, "failover": fault_failover,
              "month": month}
    try:
        for name, stage in stages.items():
            if args.only is None or name in args.only:
                stage(server, base, template, args)
    finally:
        server.remove()
        subprocess.run(["rm", "-rf", str(base)])
    print(f"\nbench done in {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
