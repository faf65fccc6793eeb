"""The machine's clock for vision (camera sources, the table reader, enrollment), of the shape
``engine.clock.Clock``. The kiosk passes its own clock instead, so vision and the journal read one clock."""

from __future__ import annotations

import time
from datetime import UTC, datetime


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    def monotonic_ns(self) -> int:
        return time.monotonic_ns()
