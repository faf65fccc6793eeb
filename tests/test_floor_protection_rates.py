"""Game protection's dealer rates (issue 54 item 2) on a real PostgreSQL: a dealer whose mis-sets or corrections per
round this shift run far above the floor's norm of the last week is found, each rate on its own; one at the norm is
not. (The void rate's alert is shown end to end in tests/test_floor_console_web.py.)"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import psycopg

from floor.console.protection import dealer_rates


def _deal(conn: psycopg.Connection, dealer: str, start: datetime, rounds: int, first_id: int,
          mis_sets: int, corrections: int) -> None:
    """``rounds`` settled rounds dealt by ``dealer`` a minute apart from ``start``, the first ``mis_sets`` of them
    with a seat mis-set and the first ``corrections`` with a card corrected."""
    conn.execute("UPDATE kiosks SET dealer = %s WHERE kiosk_id = 'K-1'", (dealer,))  # rounds take the kiosk's dealer
    for n in range(rounds):
        conn.execute("INSERT INTO rounds (kiosk_id, round_id, table_id, game, began_at, status, begun_seq, mis_sets, "
                     "corrections) VALUES ('K-1', %s, 'T1', 'baibuu', %s, 'settled', %s, %s, %s)",
                     (first_id + n, start + timedelta(minutes=n), first_id + n, int(n < mis_sets),
                      int(n < corrections)))


def test_a_dealers_mis_set_and_correction_rates_far_above_the_floors_norm_are_each_found(floor_dsn: str) -> None:
    now = datetime(2026, 12, 7, 12, tzinfo=UTC)
    shift = now - timedelta(hours=2)
    with psycopg.connect(floor_dsn) as conn:
        conn.execute("INSERT INTO tables (table_id) VALUES ('T1')")
        conn.execute("INSERT INTO kiosks (kiosk_id, table_id, role_name) VALUES ('K-1', 'T1', 'kiosk_k1')")
        _deal(conn, "D-1", now - timedelta(days=3), 300, 1, mis_sets=6, corrections=9)  # the week's floor: 2 %, 3 %
        _deal(conn, "D-2", shift, 25, 1000, mis_sets=5, corrections=6)  # this shift: 20 % and 24 %
        _deal(conn, "D-3", shift + timedelta(minutes=30), 25, 2000, mis_sets=1, corrections=1)  # at the norm
        found = dealer_rates(conn, shift, now, factor=3.0)
    assert {(dealer, what) for dealer, _, what, _, _ in found} == {("D-2", "mis_sets"), ("D-2", "corrections")}
    rates = {what: (rate, norm) for _, table, what, rate, norm in found if table == "T1"}
    assert rates["mis_sets"][0] == 0.2 and rates["corrections"][0] == 0.24
    assert rates["mis_sets"][1] < 0.04 and rates["corrections"][1] < 0.05  # the norm: every round of the last week
