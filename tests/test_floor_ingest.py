"""The central store's ingest against a real PostgreSQL: exactly once by (kiosk, seq), gaps and forks refused,
kept aside and alerted, the central copy never overwritten, and each kiosk confined to its own events."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from psycopg.types.json import Jsonb

from floor.pg import LocalServer
from journal.chain import header_json
from tests.floor_helpers import alter_local_event, central, enroll, local_events, make_journal


def ingest(dsn: str, rows: list[dict[str, object]]) -> dict[str, object]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute("SELECT ingest_events(%s)", (Jsonb(rows),)).fetchone()
    assert row is not None
    return dict(row[0])


def test_a_resent_or_duplicated_batch_changes_nothing(floor_server: LocalServer, floor_dsn: str,
                                                      tmp_path: Path) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    rows = local_events(kiosk.journal_path)
    first = ingest(kiosk.dsn, rows[:100])
    again = ingest(kiosk.dsn, rows[:100])           # the answer was lost: the whole batch comes again
    overlap = ingest(kiosk.dsn, rows[50:])          # a batch that overlaps what is stored
    assert (first["stored"], again["stored"], again["duplicates"]) == (100, 0, 100)
    assert (overlap["stored"], overlap["duplicates"]) == (len(rows) - 100, 50)
    stored = central(floor_dsn, "SELECT seq, hash, payload_text FROM events WHERE kiosk_id = 'K-1' ORDER BY seq")
    assert stored == [(r["seq"], r["hash"], r["payload"]) for r in rows]
    assert central(floor_dsn, "SELECT count(*) FROM alerts WHERE kind IN ('fork', 'gap')") == [(0,)]


def test_a_gap_is_refused_kept_aside_and_alerted(floor_server: LocalServer, floor_dsn: str, tmp_path: Path) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    rows = local_events(kiosk.journal_path)
    ingest(kiosk.dsn, rows[:10])
    answer = ingest(kiosk.dsn, rows[15:30])          # events 11 to 15 never sent
    assert answer["stored"] == 0 and answer["refused_seq"] == 16 and "never arrived" in str(answer["refused"])
    assert central(floor_dsn, "SELECT max(seq) FROM events") == [(10,)]
    assert central(floor_dsn, "SELECT kind, seq FROM alerts WHERE kind IN ('gap', 'fork')") == [("gap", 16)]
    assert central(floor_dsn, "SELECT min(seq), count(*) FROM rejected_events") == [(16, 15)]
    ingest(kiosk.dsn, rows[15:30])                   # sent again: still one alert, kept aside once
    assert central(floor_dsn, "SELECT count(*) FROM alerts WHERE kind = 'gap'") == [(1,)]
    assert central(floor_dsn, "SELECT count(*) FROM rejected_events") == [(15,)]


def test_a_journal_altered_after_shipping_is_refused_and_the_central_copy_stands(
        floor_server: LocalServer, floor_dsn: str, tmp_path: Path) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    rows = local_events(kiosk.journal_path)
    ingest(kiosk.dsn, rows)
    original = rows[9]["payload"]
    alter_local_event(kiosk.journal_path, 10, payload=original.replace("100", "900"))
    altered = local_events(kiosk.journal_path)
    assert altered[9]["payload"] != original
    answer = ingest(kiosk.dsn, altered[5:20])
    assert answer["refused_seq"] == 10 and "differs from the copy" in str(answer["refused"])
    assert central(floor_dsn, "SELECT payload_text FROM events WHERE seq = 10") == [(original,)]
    assert central(floor_dsn, "SELECT kind, seq FROM alerts WHERE kind = 'fork'") == [("fork", 10)]
    assert central(floor_dsn, "SELECT event->>'payload' FROM rejected_events WHERE seq = 10") == \
        [(altered[9]["payload"],)]


def test_an_event_that_does_not_continue_the_chain_is_a_fork(floor_server: LocalServer, floor_dsn: str,
                                                             tmp_path: Path) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    rows = local_events(kiosk.journal_path)
    ingest(kiosk.dsn, rows[:20])
    other, _ = make_journal(tmp_path / "k1b", "K-1", "T1", rounds=6, seed=7)  # the same kiosk, another journal
    answer = ingest(kiosk.dsn, local_events(other)[20:30])
    assert answer["refused_seq"] == 21 and "does not continue" in str(answer["refused"])
    assert central(floor_dsn, "SELECT kind FROM alerts WHERE kind IN ('gap', 'fork')") == [("fork",)]


def test_content_that_does_not_match_its_hash_under_the_kiosks_key_is_refused(
        floor_server: LocalServer, floor_dsn: str, tmp_path: Path) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    rows = local_events(kiosk.journal_path)
    ingest(kiosk.dsn, rows[:9])
    forged = dict(rows[9], payload=rows[9]["payload"].replace("100", "900"))  # never shipped, hash left as it was
    answer = ingest(kiosk.dsn, [forged, *rows[10:12]])
    assert answer["refused_seq"] == 10 and "does not match its hash" in str(answer["refused"])
    assert central(floor_dsn, "SELECT max(seq) FROM events") == [(9,)]


def test_a_kiosk_can_ship_only_its_own_tables_events(floor_server: LocalServer, floor_dsn: str,
                                                     tmp_path: Path) -> None:
    mine = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    theirs = enroll(floor_server, floor_dsn, tmp_path / "k2", "K-2", "T2", seed=3)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only its own events"):
        ingest(mine.dsn, local_events(theirs.journal_path)[:5])
    relabelled = [dict(r, kiosk_id="K-1") for r in local_events(theirs.journal_path)[:5]]  # its table is still T2
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only its own events"):
        ingest(mine.dsn, relabelled)
    assert central(floor_dsn, "SELECT count(*) FROM events") == [(0,)]


@pytest.mark.parametrize("statement", [
    "INSERT INTO events (kiosk_id, seq, table_id, time, time_text, mono_ns, boot_id, kind, payload_text, payload, "
    "prev_hash, hash) VALUES ('K-1', 999, 'T1', now(), '', 0, '', 'note', '{}', '{}', '', '')",
    "UPDATE events SET payload_text = '{}' WHERE kiosk_id = 'K-1'",
    "DELETE FROM events WHERE kiosk_id = 'K-1'",
    "UPDATE kiosks SET last_seq = 0",
    "DELETE FROM alerts",
    "SELECT chain_key FROM kiosk_keys",
])
def test_a_kiosk_login_cannot_touch_the_tables(floor_server: LocalServer, floor_dsn: str, tmp_path: Path,
                                               statement: str) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    ingest(kiosk.dsn, local_events(kiosk.journal_path)[:10])
    with psycopg.connect(kiosk.dsn, autocommit=True) as conn, \
            pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
        conn.execute(statement.encode())
    assert central(floor_dsn, "SELECT count(*) FROM events") == [(10,)]


def test_the_rounds_summary_and_alerts_follow_the_events(floor_server: LocalServer, floor_dsn: str,
                                                         tmp_path: Path) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1", rounds=10)
    rows = local_events(kiosk.journal_path)
    ingest(kiosk.dsn, rows)
    begun = [r["round_id"] for r in rows if r["kind"] == "round_begun"]
    voided = {r["round_id"] for r in rows if r["kind"] == "round_voided"}
    summary = central(floor_dsn, "SELECT round_id, status FROM rounds ORDER BY round_id")
    assert [r for r, _ in summary] == begun
    assert {r for r, s in summary if s == "voided"} == voided and voided
    assert central(floor_dsn, "SELECT count(*) FROM alerts WHERE kind = 'void'") == [(len(voided),)]
    assert central(floor_dsn, "SELECT cleared_by FROM alerts WHERE kind = 'supervisor_called'") == [("sup-1",)]
    house = [json.loads(r["payload"])["nets"].get("house") for r in rows if r["kind"] == "round_settled"]
    assert central(floor_dsn, "SELECT house_net FROM rounds WHERE status = 'settled' ORDER BY round_id") == \
        [(h,) for h in house]


@settings(max_examples=60, deadline=None)
@given(time=st.text(max_size=12), boot=st.text(max_size=12), kiosk=st.text(max_size=8),
       table=st.text(max_size=8), kind=st.text(max_size=8), seq=st.integers(1, 2**53),
       mono=st.integers(0, 2**62), round_id=st.none() | st.integers(0, 2**53))
def test_the_floor_renders_the_hashed_header_exactly_as_the_journal_does(
        floor_server: LocalServer, time: str, boot: str, kiosk: str, table: str, kind: str, seq: int, mono: int,
        round_id: int | None) -> None:
    texts = (time, boot, kiosk, table, kind)
    if any("\x00" in t for t in texts):  # PostgreSQL text holds no NUL; the kiosk writes none
        return
    with psycopg.connect(floor_server.dsn("postgres"), autocommit=True) as conn:
        conn.execute("CREATE OR REPLACE FUNCTION pg_temp.h(a bigint, b text, c bigint, d text, e text, f text, "
                     "g bigint, i text) RETURNS text LANGUAGE sql AS $$ "
                     + _HEADER_BODY + " $$")
        row = conn.execute("SELECT pg_temp.h(%s, %s, %s, %s, %s, %s, %s, %s)",
                           (seq, time, mono, boot, kiosk, table, round_id, kind)).fetchone()
    assert row is not None and row[0] == header_json(seq, time, mono, boot, kiosk, table, round_id, kind)


def _migration_header_body() -> str:
    text = (Path(__file__).resolve().parent.parent / "floor/migrations/0001_central_store.sql").read_text()
    start = text.index("CREATE FUNCTION chain_header")
    body = text[text.index("$$", start) + 2:text.index("$$", text.index("$$", start) + 2)]
    names = ["seq", "time_text", "mono_ns", "boot_id", "kiosk_id", "table_id", "round_id", "kind"]
    for position, name in sorted(enumerate(names, 1), key=lambda p: -len(p[1])):
        body = body.replace(name, f"${position}")
    return body


_HEADER_BODY = _migration_header_body()


def test_a_silent_kiosk_is_alerted_until_it_is_heard_again(floor_server: LocalServer, floor_dsn: str,
                                                           tmp_path: Path) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1")
    ingest(kiosk.dsn, local_events(kiosk.journal_path)[:5])
    assert central(floor_dsn, "SELECT raise_silent_alerts('1 hour')") == [(0,)]
    assert central(floor_dsn, "SELECT raise_silent_alerts('0 seconds')") == [(1,)]
    assert central(floor_dsn, "SELECT raise_silent_alerts('0 seconds')") == [(0,)]  # still the one alert
    ingest(kiosk.dsn, [])  # the shipper's heartbeat
    assert central(floor_dsn, "SELECT count(*) FROM alerts WHERE kind = 'silent' AND cleared_at IS NULL") == [(0,)]
