"""The one clock of enrollment (wall time for file stamps, monotonic for progress); tests pass their own.

The journal's ``SystemClock`` and ``ManualClock`` fit, so the kiosk passes the clock it already has."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...

    def monotonic_ns(self) -> int: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic_ns(self) -> int:
        return time.monotonic_ns()
