"""The console's summary per dealer: each dealer's rounds, money and flags over the chosen days and tables.

A round's dealer is the dealer signed in at its kiosk when it began (``rounds.dealer``, kept by migration 0009);
rounds dealt while nobody was signed in are counted on a line of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from floor.console.data import RoundQuery


@dataclass(frozen=True, slots=True)
class DealerLine:
    dealer: str | None
    """None: the rounds no dealer was signed in for."""
    tables: tuple[str, ...]
    rounds: int
    total_bet: int
    """Drop and win count settled rounds with bets only (a bet-less game's round holds nothing)."""
    house_win: int
    voids: int
    corrections: int
    flagged: int
    mis_sets: int

    @property
    def hold(self) -> float | None:
        """House win over total bet; None where no bet was recorded."""
        return self.house_win / self.total_bet if self.total_bet else None


def by_dealer(conn: Any, where: RoundQuery) -> list[DealerLine]:
    """One line per dealer (by ID), the rounds without a dealer last."""
    clause, args = where.where()
    rows = conn.execute(
        "SELECT dealer, array_agg(DISTINCT table_id ORDER BY table_id), count(*), "
        "coalesce(sum(total_bet) FILTER (WHERE status = 'settled' AND total_bet > 0), 0), "
        "coalesce(sum(house_net) FILTER (WHERE status = 'settled' AND total_bet > 0), 0), "
        "count(*) FILTER (WHERE status = 'voided'), "
        f"sum(corrections), sum(misreads), sum(mis_sets) FROM rounds WHERE {clause} "
        "GROUP BY dealer ORDER BY dealer NULLS LAST", args).fetchall()
    return [DealerLine(dealer, tuple(tables), *(int(c) for c in counts)) for dealer, tables, *counts in rows]
