"""``dealer-assist floor …``: the central store: migrate it, enroll kiosks, ship a kiosk's journal to it.

The DSN names the floor's PostgreSQL (``host=… port=… dbname=… user=… password=…`` or a ``postgresql://`` URL):
``--dsn`` or ``$DEALER_ASSIST_FLOOR_DSN``. The console adds its subcommands from ``floor.console.commands``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from floor.errors import FloorError
from journal.paths import default_journal_path

DSN_ENV = "DEALER_ASSIST_FLOOR_DSN"
CONSOLE_COMMANDS = "floor.console.commands"


def register(subparsers: Any) -> Any:
    floor = subparsers.add_parser(
        "floor", help="the casino floor: ship journals to the central PostgreSQL, enroll kiosks",
        description=f"The central store every kiosk ships its journal to. DSN: --dsn or ${DSN_ENV}.")
    floor.set_defaults(func=lambda _args: floor.print_help() or 2)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--dsn", default=None, help=f"the floor's PostgreSQL (default: ${DSN_ENV})")
    sub = floor.add_subparsers(dest="floor_command", metavar="SUBCOMMAND")

    migrate = sub.add_parser("migrate", parents=[common], help="create or migrate the central store's schema "
                             "(as the database's owner)")
    migrate.set_defaults(func=_migrate)

    add = sub.add_parser("add-kiosk", parents=[common], help="enroll a kiosk: a login that can ship only its own "
                         "table's events; prints its password once")
    add.add_argument("kiosk", help="the kiosk's id, as in its config")
    add.add_argument("--table", required=True, help="the table it serves, as in its config")
    add.add_argument("--key", type=Path, help="the kiosk's journal key file (required): the floor checks every "
                     "event's hash under it on arrival, so a kiosk's login alone cannot make up events")
    add.set_defaults(func=_add_kiosk)

    ship = sub.add_parser("ship", parents=[common], help="send this kiosk's journal to the floor, in order, "
                          "exactly once; keeps going (catching up after outages) unless --once")
    ship.add_argument("--db", type=Path, default=None, help="the journal file (default: DATA/journal.sqlite3)")
    ship.add_argument("--once", action="store_true", help="send what is pending, then stop (exit 1 if the floor "
                      "is unreachable or refuses)")
    ship.add_argument("--batch", type=int, default=500, help="events per batch (default 500)")
    ship.add_argument("--poll", type=float, default=0.5, help="seconds between looks at the journal (default 0.5)")
    ship.set_defaults(func=_ship)

    standby = sub.add_parser(
        "standby", help="copy a running primary into an empty folder as its hot standby (pg_basebackup -R)",
        description="Makes a hot standby of the floor's PostgreSQL: the primary copied with pg_basebackup -R, which "
        "then follows it by streaming replication once started. Run it on the standby's machine, as root or as the "
        "user PostgreSQL runs as. When the primary is lost: pg_ctl promote -D DATA on the standby.")
    standby.add_argument("--primary", required=True, metavar="DSN",
                         help="the running primary, as a login with the REPLICATION right: 'host=db1 port=5432 "
                              "user=replicator password=…'")
    standby.add_argument("--data", required=True, type=Path,
                         help="the standby's data folder, new or empty (Debian: /var/lib/postgresql/15/main)")
    standby.add_argument("--slot", default=None, help="create a replication slot of this name on the primary, so "
                         "it keeps the WAL the standby has not received (watch its disk if the standby is down long)")
    standby.set_defaults(func=_standby)

    try:
        console = importlib.import_module(CONSOLE_COMMANDS)
    except ModuleNotFoundError as error:
        if not (error.name and CONSOLE_COMMANDS.startswith(error.name)):
            raise
    else:
        console.register(sub)
    return floor


def _dsn(args: argparse.Namespace) -> str:
    dsn = args.dsn or os.environ.get(DSN_ENV)
    if not dsn:
        raise FloorError(f"no floor database given: pass --dsn 'host=… dbname=… user=…' or set ${DSN_ENV}")
    from psycopg.conninfo import conninfo_to_dict
    from psycopg.errors import ProgrammingError

    try:
        conninfo_to_dict(dsn)
    except ProgrammingError as error:
        raise FloorError(f"the floor DSN is not readable ({str(error).strip()}): write it as 'host=… port=… "
                         "dbname=… user=… password=…' or postgresql://user:password@host/dbname") from None
    return str(dsn)


def _connect(dsn: str) -> Any:
    import psycopg

    from floor.replication import for_writes

    try:
        return psycopg.connect(for_writes(dsn), connect_timeout=5)
    except psycopg.OperationalError as error:
        first = (str(error).strip() or "no answer").splitlines()[0]
        raise FloorError(f"cannot reach the floor's database ({first}): check the DSN and that PostgreSQL "
                         "is running") from None


def _migrate(args: argparse.Namespace) -> int:
    from floor.migrate import migrate

    with _connect(_dsn(args)) as conn:
        done = migrate(conn)
    print("the schema is up to date" if not done else
          "applied: " + ", ".join(f"{m.version:04d}_{m.name}" for m in done))
    return 0


def _add_kiosk(args: argparse.Namespace) -> int:
    from floor.store import add_kiosk
    from journal.chain import load_key

    if args.key is None:
        raise FloorError(f"enrolling kiosk {args.kiosk} needs its journal key: pass --key with the kiosk's key file "
                         "(the journal's key, e.g. DATA/journal.key, copied over a safe channel). Without it the "
                         "floor could check only that the chain continues, and anyone holding the kiosk's database "
                         "login could make up events for its table")
    key = load_key(args.key, create=False)
    with _connect(_dsn(args)) as conn:
        login = add_kiosk(conn, args.kiosk, args.table, chain_key=key)
        conn.commit()
    print(f"kiosk {login.kiosk_id} at table {login.table_id}: user={login.role} password={login.password}")
    print("give the kiosk this user and password in its floor DSN; the password is not shown again")
    return 0


def _ship(args: argparse.Namespace) -> int:
    from floor.shipper import Shipper

    if args.batch < 1:
        raise FloorError(f"--batch is a number of events, at least 1, not {args.batch}")
    shipper = Shipper(args.db or default_journal_path(), _dsn(args), batch=args.batch, poll_s=args.poll)
    if args.once:
        import psycopg

        try:
            stored = shipper.ship_pending(frames=None)  # every evidence frame still lacking, too
        except psycopg.Error as error:
            print(f"dealer-assist: the floor is unreachable ({str(error).strip().splitlines()[0]}); "
                  "nothing is lost: ship again later", file=sys.stderr)
            return 1
        except FloorError as error:
            print(f"dealer-assist: {error}", file=sys.stderr)
            return 1
        finally:
            shipper.close()
        status = shipper.status()
        print(f"shipped {stored} events; the floor holds events 1 to {status.shipped_seq}")
        return 0
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    watcher = threading.Thread(target=_report, args=(shipper, stop), daemon=True)
    watcher.start()
    try:
        shipper.run(stop)
    except KeyboardInterrupt:
        stop.set()
    return 0


def _standby(args: argparse.Namespace) -> int:
    from floor.pg import service_user
    from floor.replication import check_standby_folder, make_standby

    user = service_user()  # as root: the copy belongs to (and runs as) the postgres user
    data: Path = args.data.resolve()
    check_standby_folder(data)
    if not data.exists():
        data.mkdir(parents=True)
        if user is not None:
            import shutil

            shutil.chown(data, user, user)
        data.chmod(0o700)
    make_standby(args.primary, data, slot=args.slot, run_as=user)
    print(f"the standby's copy is in {data}; start it (e.g. pg_ctl -D {data} start, or the Debian cluster's "
          "service) and it follows the primary. Clients name both servers: host=PRIMARY,STANDBY. If the primary is "
          f"lost: pg_ctl promote -D {data}")
    return 0


def _report(shipper: Any, stop: threading.Event) -> None:
    last = None
    while not stop.wait(1.0):
        status = shipper.status()
        line = f"{status.state}: floor holds 1..{status.shipped_seq}, journal 1..{status.local_seq}"
        if status.problem:
            line += f" ({status.problem})"
        if line != last:
            print(line, flush=True)
            last = line


def main(argv: list[str] | None = None) -> int:
    """``python -m floor.cli ship …``: the floor's commands without loading the kiosk's."""
    parser = argparse.ArgumentParser(prog="dealer-assist")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["floor", *(sys.argv[1:] if argv is None else argv)])
    try:
        return int(args.func(args) or 0)
    except FloorError as error:
        print(f"dealer-assist: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
