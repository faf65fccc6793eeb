"""The project's one clock module: the shape of a clock, the machine's clock and the clock tests move by hand.

Every package that reads the time (journal, vision, hardware, kiosk, floor) takes a ``Clock`` and runs on this
``SystemClock``; tests pass a ``ManualClock``. They live in the engine only because every package may import the
engine and none may import another's: the engine's rules never read the time themselves.

>>> from datetime import UTC, datetime
>>> class Stopped:
...     def now(self) -> datetime: return datetime(2026, 1, 1, tzinfo=UTC)
...     def monotonic(self) -> float: return 5.0
...     def monotonic_ns(self) -> int: return 5_000_000_000
>>> isinstance(Stopped(), Clock)
True
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable


@runtime_checkable
class Clock(Protocol):
    """Wall-clock time and a monotonic counter that never goes back (timeouts, stability, the journal's order)."""

    def now(self) -> datetime:
        """Wall-clock time, timezone-aware (what the journal records and the screen shows)."""
        ...

    def monotonic(self) -> float:
        """Seconds on a counter that never goes back; only differences mean anything."""
        ...

    def monotonic_ns(self) -> int:
        """The same counter in whole nanoseconds (what the journal records)."""
        ...


class SystemClock:
    """The real clocks of the machine."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    def monotonic_ns(self) -> int:
        return time.monotonic_ns()


class ManualClock:
    """A clock that moves only when told: ``advance`` moves both clocks, ``set_wall`` jumps the wall clock only.

    >>> clock = ManualClock(monotonic_ns=0)
    >>> clock.advance(1.5)
    >>> clock.monotonic(), clock.now().isoformat()
    (1.5, '2026-01-01T12:00:01.500000+00:00')
    """

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
        if seconds < 0:
            raise ValueError("a clock does not go back: advance by 0 seconds or more")
        self._wall += timedelta(seconds=seconds)
        self._mono += int(seconds * 1e9)

    def set_wall(self, when: datetime) -> None:
        """Jump the wall clock (as an NTP correction or a person would) without moving the monotonic one."""
        self._wall = when
