"""The clocks the journal reads (of the one shape ``engine.clock.Clock``); tests replace it with a ``ManualClock``.

The kiosk runs on this ``SystemClock`` too, so the journal and the screen read one clock."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta


class SystemClock:
    """The real clocks of the machine."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    def monotonic_ns(self) -> int:
        return time.monotonic_ns()


class ManualClock:
    """A clock that moves only when told: ``advance`` moves both clocks, ``set_wall`` jumps the wall clock only."""

    def __init__(self, start: datetime | None = None, monotonic_ns: int = 1_000_000_000) -> None:
        self._wall = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        if self._wall.tzinfo is None:
            raise ValueError("ManualClock needs a timezone-aware start time")
        self._mono = monotonic_ns

    def now(self) -> datetime:
        return self._wall

    def monotonic(self) -> float:
        return self._mono / 1e9

    def monotonic_ns(self) -> int:
        return self._mono

    def advance(self, seconds: float) -> None:
        self._wall += timedelta(seconds=seconds)
        self._mono += int(seconds * 1e9)

    def set_wall(self, when: datetime) -> None:
        """Jump the wall clock (as an NTP correction or a person would) without moving the monotonic one."""
        self._wall = when
