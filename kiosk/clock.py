"""The kiosk's test clock. The kiosk runs on the journal's ``SystemClock`` (one clock for the journal, the screen and
the camera); every part takes any ``engine.clock.Clock``, so tests pass this ``ManualClock`` instead."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class ManualClock:
    """A clock that moves only when told to: for tests. Its monotonic counter starts at 0."""

    def __init__(self, start: datetime | None = None) -> None:
        self._seconds = 0.0
        self._start = start or datetime(2026, 1, 1, tzinfo=UTC)

    def monotonic(self) -> float:
        return self._seconds

    def monotonic_ns(self) -> int:
        return int(self._seconds * 1e9)

    def now(self) -> datetime:
        return self._start + timedelta(seconds=self._seconds)

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self._seconds += seconds
