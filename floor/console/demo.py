"""``dealer-assist floor demo``: a whole floor on one machine.

A PostgreSQL in a temporary folder (or the one given), the console, and a few kiosks that play by themselves:
journal-level simulations (``journal.simulate``: the same events the kiosk writes, rounds of the three games, now
and then a misread, a correction, a void, a CALL) each shipped by its own ``floor.shipper.Shipper``. No Kivy window:
a window per kiosk would only slow the demo; the floor sees exactly what real kiosks send.
"""

from __future__ import annotations

import random
import secrets
import shutil
import signal
import tempfile
import threading
import time
from datetime import UTC, tzinfo
from pathlib import Path
from typing import Any

from floor.console.demo_frames import FramingJournal
from journal import Journal, SystemClock
from journal.events import (
    DealerSignedIn,
    DealerSignedOut,
    DeviceDown,
    DeviceUp,
    Note,
    SupervisorSignedIn,
    SupervisorSignedOut,
)
from journal.simulate import GAMES, play_round

CALL_TEXT = "the dealer called the supervisor"
CALL_RATE, CAMERA_GLITCH_RATE, VOID_RATE = 0.02, 0.01, 0.01
"""How often, per round, a demo table's dealer calls the supervisor, its camera drops out a moment, a round is
voided: rare, as on a casino's floor, so that the pit shows what needs a supervisor rather than a wall of alerts."""
DEALERS = tuple(f"D-{n}" for n in range(101, 113))  # the demo floor's dealers, relieved at the tables in turn
RELIEF_ROUNDS = 40  # about how many rounds a dealer deals at one table before the next relieves them
DEMO_ACCOUNT = "demo"


class PacedJournal:
    """A journal whose writes wait ``pace`` seconds first, so a round unfolds on the pit view step by step."""

    _WRITES = frozenset({"append", "begin_round", "record_action", "show_results", "close_round", "void_round"})

    def __init__(self, journal: Journal, pace: float, stop: threading.Event) -> None:
        self._journal, self._pace, self._stop = journal, pace, stop

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._journal, name)
        if name in self._WRITES:
            def paced(*args: Any, **kwargs: Any) -> Any:
                if self._stop.wait(self._pace):
                    raise _Stopped
                return attribute(*args, **kwargs)
            return paced
        return attribute


class _Stopped(Exception):
    pass


class AutoKiosk(threading.Thread):
    """One table playing round after round into its own journal."""

    def __init__(self, folder: Path, kiosk_id: str, table_id: str, seed: int, pace: float) -> None:
        super().__init__(name=f"kiosk-{kiosk_id}", daemon=True)
        self.folder, self.kiosk_id, self.table_id, self.pace = folder, kiosk_id, table_id, pace
        self.rng = random.Random(seed)
        self.stop_event = threading.Event()
        folder.mkdir(parents=True, exist_ok=True)
        self.journal = Journal.open(folder / "journal.sqlite3", folder / "journal.key", kiosk_id=kiosk_id,
                                    table_id=table_id, clock=SystemClock())
        self.journal.recover()
        for device in ("camera", "shaker", "panel"):
            self.journal.append(DeviceUp(device, f"/dev/demo-{device}"))

    @property
    def key(self) -> bytes:
        from journal.chain import load_key

        return load_key(self.folder / "journal.key", create=False)

    def run(self) -> None:
        paced = PacedJournal(FramingJournal(self.journal), self.pace, self.stop_event)
        game = self.rng.choice(GAMES)
        dealer = self.rng.choice(DEALERS)
        self.journal.append(DealerSignedIn(dealer))
        try:
            while not self.stop_event.is_set():
                if self.rng.random() < 1 / RELIEF_ROUNDS:
                    relief = self.rng.choice([d for d in DEALERS if d != dealer])
                    paced.append(DealerSignedOut(dealer, f"relieved by {relief}"))
                    paced.append(DealerSignedIn(relief))
                    dealer = relief
                roll = self.rng.random()
                if roll < CALL_RATE:
                    paced.append(Note(text=CALL_TEXT, by="dealer"))
                    paced.append(SupervisorSignedIn("S-1")) if self.rng.random() < 0.5 else None
                    paced.append(SupervisorSignedOut("S-1")) if self.rng.random() < 0.5 else None
                elif roll < CALL_RATE + CAMERA_GLITCH_RATE:
                    paced.append(DeviceDown("camera", "no frame for 5 s"))
                    paced.append(DeviceUp("camera", "/dev/demo-camera"))
                play_round(paced, game, self.rng, void=self.rng.random() < VOID_RATE)  # type: ignore[arg-type]
                if self.rng.random() < 0.2:
                    game = self.rng.choice(GAMES)
        except _Stopped:
            pass

    def stop(self) -> None:
        self.stop_event.set()
        if self.ident is not None:
            self.join(10)
        self.journal.close()


def run_demo(dsn: str | None, kiosks: int, port: int, pace: float, folder: str | None, *,
             zone: tzinfo = UTC, shifts: tuple[int, ...] = (6, 14, 22), data: str | None = None) -> int:
    """Run the demo until Ctrl-C (or SIGTERM); everything it started is stopped, its own folder removed. Killed
    without a chance to clean up (SIGKILL), a watchdog stops its PostgreSQL and removes its folders all the same.

    ``folder``: where the journals (and PostgreSQL) live, kept afterwards; else a new folder under ``data`` (the
    kiosk's data folder, ``DEALER_ASSIST_DATA``) or the system's temporary folder, removed at the end."""
    if folder:
        base = Path(folder)
    else:
        if data:
            Path(data).mkdir(parents=True, exist_ok=True)
        base = Path(tempfile.mkdtemp(prefix="floor-demo-", dir=data))
    signal.signal(signal.SIGTERM, _interrupt)  # a `kill` stops the demo as Ctrl-C does: PostgreSQL is not left up
    server = watchdog = None
    ours = [] if folder else [base]
    try:
        if dsn is None:
            from floor import watchdog as watchdogs
            from floor.pg import LocalServer

            print("starting PostgreSQL …", flush=True)
            # the server's own folder: under a given folder, else in the system's temporary folder, which its
            # service user can reach when the demo runs as root
            server = LocalServer.create(base / "postgres" if folder else None)
            if not folder:
                ours.append(server.folder)
            watchdog = watchdogs.start(server, ours)
            server.start()
            server.wait_ready()
            print(f"PostgreSQL {server.data} on port {server.port}", flush=True)
            _play(server.create_database("floor_demo"), kiosks, port, pace, base, "", zone, shifts)
        else:  # a floor that may have seen demo kiosks before: these journals are new, so are their kiosks
            _play(dsn, kiosks, port, pace, base, "-" + secrets.token_hex(2), zone, shifts)
    except KeyboardInterrupt:
        print("stopping …", flush=True)
    finally:
        if server is not None:
            server.stop()
        for each in ours:
            shutil.rmtree(each, ignore_errors=True)
        if watchdog is not None:
            from floor import watchdog as watchdogs

            watchdogs.release(watchdog)
    return 0


CONSOLE_ROLE = "floor_demo_console"
"""The demo console's database login: a member of ``floor_console`` only, as a casino's console would run."""


def _play(owner_dsn: str, kiosks: int, port: int, pace: float, base: Path, suffix: str, zone: tzinfo,
          shifts: tuple[int, ...]) -> None:
    import psycopg
    from psycopg import sql

    from floor.console import auth
    from floor.console.app import Console, create_app
    from floor.console.db import Database
    from floor.console.server import BackgroundServer
    from floor.migrate import migrate
    from floor.shipper import Shipper, ShipperThread
    from floor.store import add_kiosk

    password = secrets.token_urlsafe(9)
    console_password = secrets.token_urlsafe(18)
    tables: list[AutoKiosk] = []
    shippers: list[ShipperThread] = []
    db = None
    web = None
    try:
        with psycopg.connect(owner_dsn, autocommit=True) as conn:
            migrate(conn)
            with conn.transaction():
                if conn.execute("SELECT 1 FROM console_accounts WHERE name = %s", (DEMO_ACCOUNT,)).fetchone():
                    conn.execute("UPDATE console_accounts SET password_hash = %s WHERE name = %s",
                                 (auth.hash_password(password), DEMO_ACCOUNT))
                    conn.execute("DELETE FROM console_sign_in_failures WHERE name = %s", (DEMO_ACCOUNT,))
                else:
                    auth.add_account(conn, DEMO_ACCOUNT, password, "admin", "floor demo")
                exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (CONSOLE_ROLE,)).fetchone()
                statement = "ALTER ROLE {} LOGIN PASSWORD {}" if exists else "CREATE ROLE {} LOGIN PASSWORD {}"
                conn.execute(sql.SQL(statement).format(sql.Identifier(CONSOLE_ROLE), sql.Literal(console_password)))
                conn.execute(sql.SQL("GRANT floor_console TO {}").format(sql.Identifier(CONSOLE_ROLE)))
            for number in range(1, kiosks + 1):
                kiosk = AutoKiosk(base / f"kiosk-{number}", f"K-{number:02d}{suffix}", f"T{number}", number, pace)
                tables.append(kiosk)
                login = add_kiosk(conn, kiosk.kiosk_id, kiosk.table_id, chain_key=kiosk.key)
                shippers.append(ShipperThread(Shipper(kiosk.folder / "journal.sqlite3",
                                                      _with_login(owner_dsn, login.role, login.password),
                                                      poll_s=0.3)))
        db = Database(_with_login(owner_dsn, CONSOLE_ROLE, console_password))
        web = BackgroundServer(create_app(Console(db, silent_after_s=30, zone=zone, shifts=shifts)), port=port)
        web.start()
        for kiosk, shipper in zip(tables, shippers, strict=True):
            kiosk.start()
            shipper.start()
        print(f"\nthe floor console: {web.url}\n  sign in as {DEMO_ACCOUNT!r} with password {password!r} (an "
              f"admin)\n  {kiosks} kiosks play by themselves (journals in {base}); Ctrl-C stops everything\n",
              flush=True)
        while True:
            time.sleep(3600)
    finally:
        for kiosk in tables:
            kiosk.stop()
        for shipper in shippers:
            shipper.stop()
        if web is not None:
            web.stop()
        if db is not None:
            db.close()


def _interrupt(_signal: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def _with_login(dsn: str, user: str, password: str) -> str:
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    params = conninfo_to_dict(dsn)
    params.update(user=user, password=password)
    return make_conninfo("", **params)
