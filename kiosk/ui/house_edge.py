"""The house edge of the settings on the SET-UP screen: counted exactly once per copy rule, away from the screen's
thread (about a second of work each), then read for any commission at once."""

from __future__ import annotations

import threading
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.baibuu.analysis import Counts


class EdgeFigures:
    """Exact odds per copy rule, worked out in a background thread the first time they are asked for."""

    def __init__(self) -> None:
        self._counts: dict[str, Counts] = {}
        self._asked: list[str] = []
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None

    def counts(self, copy_rule: str) -> Counts | None:
        """The counts of this copy rule, or None while they are being counted."""
        with self._lock:
            found = self._counts.get(copy_rule)
            if found is None and copy_rule not in self._asked:
                self._asked.append(copy_rule)
                if self._worker is None or not self._worker.is_alive():
                    self._worker = threading.Thread(target=self._count, name="house-edge", daemon=True)
                    self._worker.start()
        return found

    def _count(self) -> None:
        from engine.baibuu.analysis import GameCount
        from engine.baibuu.settings import CopyRule

        while True:
            with self._lock:
                waiting = [rule for rule in self._asked if rule not in self._counts]
                if not waiting:
                    self._worker = None
                    return
            counts = GameCount(CopyRule(waiting[0])).house_way()
            with self._lock:
                self._counts[waiting[0]] = counts


FIGURES = EdgeFigures()


def edge_text(
    text: Any,
    commission: float,
    copy_rule: str,
    bet: int | None = None,
    smallest_chip: int = 1,
    figures: EdgeFigures = FIGURES,
) -> str:
    """The line under the settings: the house edge and the player's odds, or that they are being counted; and
    where the commission on ``bet`` rounds down to the smallest chip, the edge at that bet too."""
    counts = figures.counts(copy_rule)
    if counts is None:
        return str(text("setup.edge_counting"))
    rate = Decimal(round(commission * 100)) / 100
    line = str(
        text(
            "setup.edge",
            edge=f"{float(counts.house_edge(rate)) * 100:.2f}",
            win=f"{float(counts.share(counts.win)) * 100:.1f}",
            push=f"{float(counts.share(counts.push)) * 100:.1f}",
            lose=f"{float(counts.share(counts.lose)) * 100:.1f}",
        )
    )
    if bet:
        from engine.baibuu.settings import Settings
        from engine.baibuu.settlement import commission_on

        paid = commission_on(bet, Settings(commission=rate, smallest_chip=smallest_chip))
        if paid != rate * bet:
            edge = counts.hold(bet, paid) / bet
            line += str(text("setup.edge_rounded", bet=bet, paid=paid, edge=f"{float(edge) * 100:.2f}"))
    return line
