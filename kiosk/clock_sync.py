"""Is the system clock synchronised (NTP, chrony, systemd-timesyncd)? The kiosk's status bar says so when it is not,
and ``dealer-assist kiosk doctor`` fails on it: every journal time is only as good as this clock. (A clock that
jumps is noted in the journal itself: ``journal.events.ClockChanged``.)"""

from __future__ import annotations

import ctypes
import shutil
import subprocess

TIME_ERROR = 5
"""adjtimex(2)'s answer while the kernel's clock is not synchronised (STA_UNSYNC)."""


def clock_synchronised() -> bool | None:
    """systemd's answer (``timedatectl``) where systemd runs, else the kernel's; None when neither can tell."""
    if shutil.which("timedatectl"):
        try:
            said = subprocess.run(["timedatectl", "show", "--property=NTPSynchronized", "--value"],
                                  capture_output=True, text=True, timeout=5, check=False)
        except (OSError, subprocess.TimeoutExpired):
            said = None
        if said is not None and said.returncode == 0 and said.stdout.strip() in ("yes", "no"):
            return said.stdout.strip() == "yes"
    return adjtimex_synchronised()


def adjtimex_synchronised() -> bool | None:
    """The kernel's own word: adjtimex(2) with nothing to change answers TIME_ERROR while unsynchronised."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        adjtimex = libc.adjtimex
    except (OSError, AttributeError):
        return None
    timex = ctypes.create_string_buffer(512)  # struct timex, all zero: modes 0 reads and changes nothing
    state = int(adjtimex(timex))
    if state < 0:
        return None
    return state != TIME_ERROR
