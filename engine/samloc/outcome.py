"""How a Sâm Lốc hand ended, and the báo-1 breaches that decide who pays: what the settlement reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Result = Literal["win", "instant_win", "sam_success", "sam_fail", "thoi_finish"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the hand ended. ``finisher``: who shed his last card; ``blocker``: who beat a sâm declarer."""

    result: Result
    winners: tuple[int, ...]
    finisher: int | None = None
    blocker: int | None = None
    final_round: int = 0


@dataclass(frozen=True, slots=True)
class Breach:
    """A player under the báo-1 duty who played a single that was not his highest."""

    seat: int
    announced: int
    round_no: int
