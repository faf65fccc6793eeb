"""The one shape of a clock, for every package that needs the time (journal, vision, hardware, kiosk, floor).

The engine never reads the time; it only names what a clock answers, here, because every package may import the
engine and none may import another's clock. The clocks themselves live where time is read: ``journal.clock``
(``SystemClock``, and ``ManualClock`` for tests; the kiosk and the floor's console run on it), ``vision.clock``
(the reading path's ``SystemClock``), ``hardware.client`` (the device link's ``SystemClock``) and ``kiosk.clock``
(a ``ManualClock`` for the kiosk's tests).

>>> from datetime import UTC, datetime
>>> class Stopped:
...     def now(self) -> datetime: return datetime(2026, 1, 1, tzinfo=UTC)
...     def monotonic(self) -> float: return 5.0
...     def monotonic_ns(self) -> int: return 5_000_000_000
>>> isinstance(Stopped(), Clock)
True
"""

from __future__ import annotations

from datetime import datetime
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
