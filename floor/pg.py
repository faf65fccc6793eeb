"""A throwaway PostgreSQL server in a folder (initdb, pg_ctl), listening on localhost only.

For the tests, the bench and ``floor demo``: Debian's ``postgresql`` package provides the binaries. initdb refuses
to run as root, so as root the server is run as the ``postgres`` user (created when missing) and the folder is
handed to it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

from floor.errors import FloorError

_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
SUPERUSER = "floor_admin"


def pg_binary(name: str) -> str:
    """The path of one of PostgreSQL's programs (the newest version installed), or a FloorError naming the
    package to install."""
    for folder in _BIN_DIRS:
        if (folder / name).exists():
            return str(folder / name)
    found = shutil.which(name)
    if found is None:
        raise FloorError(f"PostgreSQL's {name} is not installed: install Debian's `postgresql` package "
                         "(`make system-packages` does, as root)")
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run_as(user: str | None) -> list[str]:
    return [] if user is None else ["runuser", "-u", user, "--"]


def service_user() -> str | None:
    """Who PostgreSQL runs as: ``postgres`` when this runs as root (created when missing), else nobody else."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"],
                       check=True, capture_output=True)
    return "postgres"


def _let_through(folder: Path) -> None:
    """Let the ``postgres`` user reach ``folder``: a temporary folder made by root (mode 0700) gets o+x (search
    only, nothing listed or readable) on the folders above it up to the system's temporary folder."""
    top = Path(tempfile.gettempdir()).resolve()
    for parent in folder.resolve().parents:
        if parent == top or top not in parent.parents:
            break
        mode = parent.stat().st_mode
        if not mode & 0o001:
            parent.chmod((mode & 0o7777) | 0o001)


@dataclass
class LocalServer:
    """One PostgreSQL cluster in ``folder``; ``dsn()`` connects as its superuser over TCP on localhost."""

    folder: Path
    port: int
    user: str | None
    password: str = "floor-admin"

    @classmethod
    def create(cls, folder: Path | None = None, port: int | None = None) -> LocalServer:
        """A new cluster in ``folder`` (default: a new folder in the system's temporary folder, which the
        ``postgres`` user can reach when this runs as root)."""
        user = service_user()
        if folder is None:
            folder = Path(tempfile.mkdtemp(prefix="dealer-assist-pg-"))
        folder.mkdir(parents=True, exist_ok=True)
        if user is not None:
            _let_through(folder)
        data = folder / "data"
        pwfile = folder / "pwfile"
        server = cls(folder, port or free_port(), user)
        pwfile.write_text(server.password + "\n")
        if user is not None:
            shutil.chown(folder, user)
            shutil.chown(pwfile, user)
            os.chmod(folder, 0o700)
        if not (data / "PG_VERSION").exists():
            result = subprocess.run([*run_as(user), pg_binary("initdb"), "-D", str(data), "-U", SUPERUSER,
                                     "--pwfile", str(pwfile), "-A", "scram-sha-256", "-E", "UTF8",
                                     "--locale", "C.UTF-8"], capture_output=True, text=True)
            if result.returncode != 0:
                raise FloorError(f"initdb could not create a PostgreSQL cluster in {data}: "
                                 f"{result.stderr.strip()[-500:]}")
        return server

    @classmethod
    def standby_of(cls, primary: LocalServer, folder: Path | None = None, port: int | None = None) -> LocalServer:
        """A hot standby of ``primary`` (running): its base backup taken with ``pg_basebackup -R``, so that once
        started it follows the primary by streaming replication until promoted. Same superuser and password."""
        user = service_user()
        if folder is None:
            folder = Path(tempfile.mkdtemp(prefix="dealer-assist-pg-standby-"))
        folder.mkdir(parents=True, exist_ok=True)
        if user is not None:
            _let_through(folder)
            shutil.chown(folder, user)
            os.chmod(folder, 0o700)
        server = cls(folder, port or free_port(), user, primary.password)
        base_backup(primary.dsn(), server.data, user)
        return server

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=on "
                   "-c max_connections=300 -c shared_buffers=256MB -c hot_standby_feedback=on")
        result = subprocess.run([*run_as(self.user), pg_binary("pg_ctl"), "-D", str(self.data), "-l",
                                 str(self.folder / "server.log"), "-o", options, "-w", "-t", "60", "start"],
                                capture_output=True, text=True)
        if result.returncode != 0:
            log = (self.folder / "server.log").read_text(errors="replace")[-2000:]
            raise FloorError(f"PostgreSQL did not start in {self.data}: {result.stderr.strip()} {log}")

    def stop(self, mode: str = "fast") -> None:
        subprocess.run([*run_as(self.user), pg_binary("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"],
                       capture_output=True)

    def promote(self) -> None:
        """Make this standby the primary (``pg_ctl promote``), waiting until it takes writes."""
        result = subprocess.run([*run_as(self.user), pg_binary("pg_ctl"), "-D", str(self.data), "-w", "-t", "60",
                                 "promote"], capture_output=True, text=True)
        if result.returncode != 0:
            raise FloorError(f"pg_ctl promote failed for {self.data}: {result.stderr.strip()}")

    def remove(self) -> None:
        """Stop the server and delete its folder."""
        self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    def dsn(self, dbname: str = "postgres", user: str = SUPERUSER, password: str | None = None) -> str:
        secret = self.password if password is None else password
        return f"host=127.0.0.1 port={self.port} dbname={dbname} user={user} password={secret} connect_timeout=5"

    def create_database(self, name: str, template: str | None = None) -> str:
        copy = sql.SQL(" TEMPLATE {}").format(sql.Identifier(template)) if template else sql.SQL("")
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}{}").format(sql.Identifier(name), copy))
        return self.dsn(name)

    def wait_ready(self, timeout_s: float = 30) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                psycopg.connect(self.dsn(), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)


def base_backup(primary_conninfo: str, data: Path, user: str | None = None, slot: str | None = None) -> None:
    """Copy a running primary into the empty folder ``data`` as a hot standby of it: ``pg_basebackup -R`` (writes
    ``standby.signal`` and ``primary_conninfo``) with the WAL streamed alongside; with ``slot``, a replication slot of
    that name is created on the primary so it keeps the WAL the standby has not received yet."""
    command = [*run_as(user), pg_binary("pg_basebackup"), "-d", primary_conninfo, "-D", str(data), "-R",
               "-X", "stream", "-c", "fast", "--no-password"]
    if slot is not None:
        command += ["-C", "-S", slot]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise FloorError(f"pg_basebackup could not copy the primary into {data}: {result.stderr.strip()[-600:]}")
