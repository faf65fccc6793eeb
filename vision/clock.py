"""Vision's clock is the project's one ``SystemClock`` (``engine.clock``); this name is kept for the code that
imports it from here. The kiosk passes its own clock instead, so vision and the journal read one clock."""

from engine.clock import SystemClock

__all__ = ["SystemClock"]
