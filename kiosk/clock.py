"""The kiosk's tests' clock: the project's one ``ManualClock`` (``engine.clock``), started at midnight with its
monotonic counter at 0, as the kiosk's tests count."""

from __future__ import annotations

from datetime import UTC, datetime

from engine.clock import ManualClock as ProjectManualClock


class ManualClock(ProjectManualClock):
    """``engine.clock.ManualClock`` started on 2026-01-01 at 00:00 UTC, its monotonic counter at 0."""

    def __init__(self, start: datetime | None = None) -> None:
        super().__init__(start or datetime(2026, 1, 1, tzinfo=UTC), monotonic_ns=0)
