"""The journal's clocks are the project's one clock module's (``engine.clock``); this name is kept for the code
that imports them from here."""

from engine.clock import ManualClock, SystemClock

__all__ = ["ManualClock", "SystemClock"]
