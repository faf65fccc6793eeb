"""The one clock of the kiosk: everything that needs the time asks this object, so tests can replace it.

It also has what the journal's clock protocol asks for (``now``, ``monotonic_ns``), so one object serves both.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (timeouts, stability)."""
        ...

    def monotonic_ns(self) -> int: ...

    def now(self) -> datetime:
        """Wall-clock time in UTC (what the journal and the screen show)."""
        ...


class SystemClock:
    def monotonic(self) -> float:
        return time.monotonic()

    def monotonic_ns(self) -> int:
        return time.monotonic_ns()

    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told to: for tests."""

    def __init__(self, start: datetime | None = None) -> None:
        self._seconds = 0.0
        self._start = start or datetime(2026, 1, 1, tzinfo=UTC)

    def monotonic(self) -> float:
        return self._seconds

    def monotonic_ns(self) -> int:
        return int(self._seconds * 1e9)

    def now(self) -> datetime:
        from datetime import timedelta

        return self._start + timedelta(seconds=self._seconds)

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self._seconds += seconds
