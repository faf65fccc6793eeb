"""Game protection: the console watches the shift's figures and raises an alert, once per subject and shift, when

- a table's or a dealer's win strays from the theoretical win by more standard deviations than the floor allows
  (``drift_sd``; the analysis gives the spread of one bet: ``floor.console.money``), high priority;
- a seat wins more Bài Bửu rounds in a row than the floor allows (``winning_run``), medium priority;
- a dealer's mis-sets, corrections or voids per round this shift exceed the floor's norm (the whole floor's rate
  over the last 7 days) by more than ``dealer_rate_factor`` times, with at least ``RATE_MIN_ROUNDS`` rounds dealt
  and ``RATE_MIN_COUNT`` such events, low priority.

Alerts live in ``protection_alerts`` (migration 0011); a supervisor acknowledges one with a note, and the history
stays (``/alerts``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from psycopg.types.json import Jsonb

from floor.console.money import Money

RATE_MIN_ROUNDS = 20
RATE_MIN_COUNT = 3
NORM_DAYS = 7
RATES = ("mis_sets", "corrections", "voids")


def check(conn: Any, shift_start: datetime, now: datetime, limits: dict[str, Decimal],
          tables: dict[str, Money]) -> None:
    """Raise what the shift's figures call for (an alert already raised this shift is not raised again)."""
    drift = float(limits["drift_sd"])
    for table_id, money in tables.items():
        _drift(conn, "hold_drift", table_id, table_id, shift_start, money, drift)
    for dealer, table_id, money in dealer_money(conn, shift_start):
        _drift(conn, "dealer_drift", dealer, table_id, shift_start, money, drift, dealer=dealer)
    for table_id, seat, count in winning_runs(conn, shift_start, int(limits["winning_run"])):
        _raise(conn, "winning_run", "medium", f"{table_id} seat {seat}", table_id, shift_start,
               {"seat": seat, "count": count})
    for dealer, table_id, what, rate, norm in dealer_rates(conn, shift_start, now, float(limits["dealer_rate_factor"])):
        _raise(conn, "dealer_rates", "low", f"{dealer} {what}", table_id, shift_start,
               {"dealer": dealer, "what": what, "rate": rate, "norm": norm})


def _drift(conn: Any, kind: str, subject: str, table_id: str, shift_start: datetime, money: Money, limit: float,
           **more: Any) -> None:
    deviations = money.deviations
    if deviations is not None and abs(deviations) >= limit:
        _raise(conn, kind, "high", subject, table_id, shift_start,
               {"sd": round(deviations, 1), "hold": money.hold, "theory": money.theoretical_hold, **more})


def _raise(conn: Any, kind: str, priority: str, subject: str, table_id: str, shift_start: datetime,
           params: dict[str, Any]) -> None:
    conn.execute("INSERT INTO protection_alerts (table_id, kind, priority, subject, shift_start, params) VALUES "
                 "(%s, %s, %s, %s, %s, %s) ON CONFLICT (kind, subject, shift_start) DO NOTHING",
                 (table_id, kind, priority, subject, shift_start, Jsonb(params)))


def dealer_money(conn: Any, since: datetime) -> list[tuple[str, str, Money]]:
    """Each named dealer's money since ``since``, with the table of the dealer's latest round."""
    found: dict[str, tuple[str, Money]] = {}
    for dealer, table_id, copy_rule, commission, drop, win, squares in conn.execute(
            "SELECT dealer, (array_agg(table_id ORDER BY began_at DESC))[1], copy_rule, commission, sum(total_bet), "
            "coalesce(sum(house_net), 0), sum(total_bet::float8 * total_bet) FROM rounds WHERE began_at >= %s AND "
            "status = 'settled' AND total_bet > 0 AND coalesce(dealer, '') <> '' GROUP BY dealer, 3, 4", (since,)):
        _table, money = found.setdefault(dealer, (table_id, Money()))
        money.add(int(drop), int(win), copy_rule, commission, float(squares))
    return [(dealer, table, money) for dealer, (table, money) in sorted(found.items())]


def winning_runs(conn: Any, since: datetime, at_least: int) -> list[tuple[str, int, int]]:
    """(table, seat, the longest run) of every seat that won ``at_least`` Bài Bửu rounds in a row since ``since``
    (a round the seat sat out does not break its run; a push or a loss does)."""
    runs: dict[tuple[str, int], int] = {}
    longest: dict[tuple[str, int], int] = {}
    for table_id, nets in conn.execute(
            "SELECT table_id, nets FROM rounds WHERE began_at >= %s AND status = 'settled' AND game = 'baibuu' "
            "AND total_bet > 0 ORDER BY table_id, began_at, round_id", (since,)):
        for party, amount in (nets or {}).items():
            if not str(party).isdigit():
                continue
            key = (table_id, int(party))
            runs[key] = runs.get(key, 0) + 1 if amount > 0 else 0
            longest[key] = max(longest.get(key, 0), runs[key])
    return [(table, seat, count) for (table, seat), count in sorted(longest.items()) if count >= at_least]


def dealer_rates(conn: Any, since: datetime, now: datetime, factor: float) -> list[tuple[str, str, str, float, float]]:
    """(dealer, table, what, the dealer's rate this shift, the floor's norm) for every rate above ``factor`` times
    the norm; rates per round dealt."""
    norm_row = conn.execute(
        "SELECT count(*), coalesce(sum(mis_sets), 0), coalesce(sum(corrections), 0), "
        "count(*) FILTER (WHERE status = 'voided') FROM rounds WHERE began_at >= %s AND began_at < %s",
        (now - timedelta(days=NORM_DAYS), now)).fetchone()
    rounds = int(norm_row[0])
    if rounds == 0:
        return []
    norms = {what: int(count) / rounds for what, count in zip(RATES, norm_row[1:], strict=True)}
    found = []
    for dealer, table_id, dealt, *counts in conn.execute(
            "SELECT dealer, (array_agg(table_id ORDER BY began_at DESC))[1], count(*), coalesce(sum(mis_sets), 0), "
            "coalesce(sum(corrections), 0), count(*) FILTER (WHERE status = 'voided') FROM rounds "
            "WHERE began_at >= %s AND coalesce(dealer, '') <> '' GROUP BY dealer", (since,)):
        if dealt < RATE_MIN_ROUNDS:
            continue
        for what, count in zip(RATES, counts, strict=True):
            rate = int(count) / dealt
            if int(count) >= RATE_MIN_COUNT and rate > factor * norms[what]:
                found.append((dealer, table_id, what, round(rate, 3), round(norms[what], 3)))
    return found


PRIORITIES = ("high", "medium", "low")
FLOOR_PRIORITY = {"fork": "high", "gap": "high", "anchor_mismatch": "high", "journal_failed": "high",
                  "supervisor_called": "high", "device_refused": "high", "void": "medium", "silent": "medium",
                  "device_unauthenticated": "medium"}
"""The priority of each alert the ingest raises: the journal's integrity and a dealer's call first."""
