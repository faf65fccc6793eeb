"""Money on the floor: drop, win, actual and theoretical hold, and the thresholds a supervisor sets for them.

The theoretical win of a Bài Bửu round is its bets times the exact house edge of that table's settings (commission
and copy rule), from the game's analysis (``engine.baibuu.analysis``: every pair of hands counted, the player
setting by the house way), so it is right for any commission and copy rule a table runs. Games without bets (Sâm
Lốc, Schmier: players pay one another) have no drop and stay out of hold.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

EDGES: dict[tuple[str, str], tuple[float, float] | None] = {}
_edges_lock = threading.Lock()

SETTINGS = {  # a floor's money and protection settings: name → (default, lowest, highest)
    "hold_amber_points": (Decimal(5), Decimal(0), Decimal(100)),
    "hold_red_points": (Decimal(10), Decimal(0), Decimal(100)),
    "drift_sd": (Decimal(3), Decimal("0.5"), Decimal(10)),
    "winning_run": (Decimal(8), Decimal(3), Decimal(50)),
    "dealer_rate_factor": (Decimal(2), Decimal(1), Decimal(20)),
}
"""How far (percentage points) a table's actual hold this shift may stray from its theoretical hold before its
pit card turns amber, then red; how many standard deviations a table's or dealer's win may stray from the
theoretical before an alert; how many rounds in a row a seat may win before an alert; how many times the floor's
rate of mis-sets, corrections or voids a dealer may reach before an alert."""


def edge(copy_rule: str | None, commission: str | None) -> tuple[float, float] | None:
    """(house edge, standard deviation of one unit bet) of a Bài Bửu table's settings; None when the settings
    are not a Bài Bửu table's. Worked out once per rule and commission (about a second for a new copy rule)."""
    if copy_rule is None or commission is None:
        return None
    key = (copy_rule, commission)
    with _edges_lock:
        if key not in EDGES:
            EDGES[key] = _work_out(copy_rule, commission)
        return EDGES[key]


def _work_out(copy_rule: str, commission: str) -> tuple[float, float] | None:
    from engine.baibuu import Settings
    from engine.baibuu.analysis import game_count
    from engine.errors import InputError

    try:
        settings = Settings(commission=commission, copy_rule=copy_rule)  # type: ignore[arg-type]
    except (InputError, ValueError):
        return None
    counts = game_count(settings.copy_rule).house_way()
    return float(counts.house_edge(settings.commission)), counts.standard_deviation(settings.commission)


@dataclass
class Money:
    """One line's money: bets (drop), the house's win, and the win the edge predicts."""

    drop: int = 0
    win: int = 0
    theoretical: float = 0.0
    variance: float = 0.0
    """Of the house's win: each round counts as one bet of its total (its seats all play the one house hand, so
    they win and lose together more often than not: a cautious, wider spread)."""

    @property
    def hold(self) -> float | None:
        return self.win / self.drop if self.drop else None

    @property
    def theoretical_hold(self) -> float | None:
        return self.theoretical / self.drop if self.drop else None

    @property
    def deviations(self) -> float | None:
        """How many standard deviations the win lies above (+) or below (-) the theoretical win."""
        return (self.win - self.theoretical) / self.variance ** 0.5 if self.variance > 0 else None

    def add(self, drop: int, win: int, copy_rule: str | None, commission: str | None, squares: float = 0.0) -> None:
        """Rounds of one rule: their bets, the house's win, and the sum of each round's total bet squared."""
        self.drop += drop
        self.win += win
        found = edge(copy_rule, commission)
        if found is not None:
            self.theoretical += drop * found[0]
            self.variance += squares * found[1] ** 2

    def alarm(self, amber_points: float, red_points: float) -> str:
        """``red``, ``amber`` or ``ok``: how far actual hold strays from theoretical, in percentage points."""
        if self.hold is None or self.theoretical_hold is None:
            return "ok"
        off = abs(self.hold - self.theoretical_hold) * 100
        return "red" if off > red_points else "amber" if off > amber_points else "ok"


def settings(conn: Any) -> dict[str, Decimal]:
    """The floor's money settings, defaults for those never set."""
    found = {name: value for name, value in conn.execute("SELECT name, value FROM console_settings")}
    return {name: Decimal(found.get(name, default)) for name, (default, _, _) in SETTINGS.items()}


def change_setting(conn: Any, name: str, text: str, account: str) -> Decimal:
    """Set one money setting from a form's text, or refuse it in words; returns the value kept."""
    from decimal import InvalidOperation

    from engine.errors import InputError

    if name not in SETTINGS:
        raise InputError(f"there is no setting {name!r}: use one of {', '.join(SETTINGS)}")
    _, lowest, highest = SETTINGS[name]
    try:
        value = Decimal(text.strip().replace(",", "."))
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite() or not lowest <= value <= highest:
        raise InputError(f"{name} {text!r}: give a number from {lowest} to {highest}")
    conn.execute("INSERT INTO console_settings (name, value, changed_by) VALUES (%s, %s, %s) ON CONFLICT (name) "
                 "DO UPDATE SET value = EXCLUDED.value, changed_by = EXCLUDED.changed_by, changed_at = now()",
                 (name, value, account))
    return value
