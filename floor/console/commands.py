"""``dealer-assist floor serve``, ``floor account add`` and ``floor demo``: the console's subcommands.

``floor/cli.py`` calls ``register(floor_subparsers)``; the web stack is imported inside the handlers.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any

from engine.errors import InputError

DSN_ENV = "DEALER_ASSIST_FLOOR_DSN"
ZONE_ENV = "DEALER_ASSIST_TIME_ZONE"
DATA_ENV = "DEALER_ASSIST_DATA"


def register(subparsers: Any) -> None:
    serve = subparsers.add_parser("serve", help="the supervisors' web console (pit view, round review, reports)")
    _database_option(serve)
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8040, help="port (default 8040)")
    serve.add_argument("--silent-after", type=int, default=60, metavar="S",
                       help="seconds without word from a kiosk before the pit calls it silent (default 60)")
    _zone_options(serve)
    serve.add_argument("--secure-cookies", action="store_true",
                       help="mark cookies Secure (when a TLS proxy serves the console over https)")
    serve.set_defaults(func=_serve)

    account = subparsers.add_parser("account", help="console accounts")
    actions = account.add_subparsers(dest="account_command", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="add an account (the password is asked, or read from stdin)")
    _database_option(add)
    add.add_argument("name")
    add.add_argument("--role", required=True, choices=("supervisor", "auditor", "admin"))
    add.add_argument("--by", default=os.environ.get("USER", "shell"), help="who adds it (kept on record)")
    add.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    add.set_defaults(func=_account_add)

    demo = subparsers.add_parser("demo", help="a local floor: PostgreSQL, the console and autoplaying kiosks")
    demo.add_argument("--dsn", default=os.environ.get(DSN_ENV),
                      help=f"use this PostgreSQL (owner's DSN) instead of starting one (also ${DSN_ENV})")
    demo.add_argument("--kiosks", type=int, default=4, help="autoplaying kiosks (default 4)")
    demo.add_argument("--port", type=int, default=8040, help="the console's port (default 8040)")
    demo.add_argument("--pace", type=float, default=0.4, metavar="S",
                      help="seconds between a kiosk's journal writes (default 0.4)")
    demo.add_argument("--folder", help="where the kiosks' journals and the server live (default: a new folder under "
                                       f"${DATA_ENV} when set, else a new temporary folder; removed at the end)")
    _zone_options(demo)
    demo.set_defaults(func=_demo)


def _zone_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--time-zone", default=os.environ.get(ZONE_ENV, "UTC"), metavar="ZONE",
                        help=f"the casino's time zone (IANA, e.g. Asia/Ho_Chi_Minh): every time the console shows "
                             f"is in it, and shifts begin at its local hours (default ${ZONE_ENV} or UTC)")
    parser.add_argument("--shifts", default="6,14,22", metavar="H,H,…",
                        help="the local hours shifts begin at, for the reports (default 6,14,22)")


def _database_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dsn", default=os.environ.get(DSN_ENV),
                        help=f"the floor's PostgreSQL as a libpq DSN or URL (default ${DSN_ENV})")


def _dsn(args: argparse.Namespace) -> str:
    if not args.dsn:
        raise InputError(f"no floor database given: pass --dsn 'host=… dbname=… user=…' or set {DSN_ENV}")
    return str(args.dsn)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from floor.console.app import Console, create_app
    from floor.console.db import Database, connect
    from floor.console.formats import time_zone

    dsn = _dsn(args)
    shifts = _shifts(args.shifts)
    zone = time_zone(args.time_zone)
    with connect(dsn) as conn:
        _migrated(conn)
    app = create_app(Console(Database(dsn), silent_after_s=args.silent_after, secure_cookies=args.secure_cookies,
                             shifts=shifts, zone=zone))
    print(f"floor console on http://{args.host}:{args.port}/", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def _migrated(conn: Any) -> None:
    """Bring the schema up to date when this login may (the owner's); a console login only checks it is."""
    import psycopg

    from floor.migrate import applied, available, migrate

    missing = sorted(set(m.version for m in available()) - set(applied(conn)))
    if not missing:
        return
    try:
        migrate(conn)
    except psycopg.errors.InsufficientPrivilege:
        raise InputError(f"the floor's schema lacks migrations {missing} and this login may not apply them: run "
                         "`dealer-assist floor migrate --dsn OWNER_DSN` as the database's owner, then start again"
                         ) from None


def _shifts(text: str) -> tuple[int, ...]:
    try:
        hours = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        hours = ()
    if not hours or any(not 0 <= hour <= 23 for hour in hours):
        raise InputError(f"--shifts {text!r}: give the hours shifts begin at, 0 to 23, e.g. 6,14,22")
    return hours


def _account_add(args: argparse.Namespace) -> int:
    from floor.console import auth
    from floor.console.db import connect

    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass(f"password for {args.name}: ")
        if getpass.getpass("again: ") != password:
            raise InputError("the two passwords differ; nothing was changed")
    auth.check_account(args.name, password, args.role)
    with connect(_dsn(args)) as conn:
        _migrated(conn)
        with conn.transaction():
            auth.add_account(conn, args.name, password, args.role, args.by)
    print(f"console account {args.name} ({args.role}) added")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from floor.console.demo import run_demo
    from floor.console.formats import time_zone

    if not 1 <= args.kiosks <= 50:
        raise InputError(f"--kiosks {args.kiosks}: a demo runs 1 to 50 kiosks")
    zone, shifts = time_zone(args.time_zone), _shifts(args.shifts)
    return run_demo(args.dsn, args.kiosks, args.port, args.pace, args.folder, zone=zone, shifts=shifts,
                    data=os.environ.get(DATA_ENV) or None)
