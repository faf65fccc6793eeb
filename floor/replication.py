"""The floor's store on two servers: a primary and a hot standby kept by PostgreSQL's streaming replication.

Every client names both hosts in one libpq DSN (``host=db1,db2 port=5432,5432 …``) and libpq finds the primary by
itself: writers connect with ``target_session_attrs=read-write``, heavy reads may go to the standby with
``prefer-standby``. After the primary is lost and the standby promoted (``pg_ctl promote``), a client that
reconnects lands on the new primary with no change to its DSN.
"""

from __future__ import annotations

from pathlib import Path

from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.errors import ProgrammingError

from floor.errors import FloorError

WRITES = "read-write"
READS = "prefer-standby"


def host_count(dsn: str) -> int:
    """How many servers the DSN names (``host`` or ``hostaddr``, comma-separated)."""
    values = _parts(dsn)
    hosts = str(values.get("host") or values.get("hostaddr") or "")
    return len(hosts.split(",")) if hosts else 1


def for_writes(dsn: str) -> str:
    """The DSN a writer uses: one naming several servers connects only to the one that takes writes (unless it
    says otherwise itself). A single-server DSN is returned as given."""
    return _with_target(dsn, WRITES)


def for_reads(dsn: str) -> str:
    """The DSN for heavy reads (reports, exports): a standby when one is up, else the primary."""
    return _with_target(dsn, READS)


def _with_target(dsn: str, target: str) -> str:
    if host_count(dsn) < 2 or "target_session_attrs" in _parts(dsn):
        return dsn
    return make_conninfo(dsn, target_session_attrs=target)


def _parts(dsn: str) -> dict[str, object]:
    try:
        return conninfo_to_dict(dsn)
    except ProgrammingError as error:
        raise FloorError(f"the floor DSN is not readable ({str(error).strip()}): write it as 'host=db1,db2 "
                         "port=5432,5432 dbname=… user=… password=…'") from None


def check_standby_folder(data: Path) -> None:
    if data.exists() and (not data.is_dir() or any(data.iterdir())):
        raise FloorError(f"{data} is not empty: a standby is copied into a new or empty folder (pg_basebackup "
                         "writes the whole cluster there)")


def make_standby(primary_dsn: str, data: Path, *, slot: str | None, run_as: str | None) -> None:
    """Copy the running primary into ``data`` (a new or empty folder) as its hot standby, ready to start."""
    from floor.pg import base_backup

    check_standby_folder(data)
    if host_count(primary_dsn) != 1:
        raise FloorError("--primary names several servers: name only the running primary to copy from")
    base_backup(primary_dsn, data, run_as, slot)
