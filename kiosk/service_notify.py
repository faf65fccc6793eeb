"""Telling systemd how the kiosk is (``sd_notify``): READY=1 once the screen is up, WATCHDOG=1 from the screen's own
main loop, so that a screen that hangs stops the pings and systemd restarts the kiosk (``WatchdogSec=`` in the unit
that ``dealer-assist kiosk install`` writes).

The protocol is one datagram on the AF_UNIX socket named by ``$NOTIFY_SOCKET`` (a path, or ``@name`` in the abstract
namespace). PyPI's ``sdnotify`` has not been released since 2017 and hides every error, and ``systemd-python`` needs
libsystemd's headers and a compiler on the kiosk: these few lines are ours instead. Outside systemd (no
``$NOTIFY_SOCKET``) every call does nothing.
"""

from __future__ import annotations

import os
import socket

NOTIFY_SOCKET = "NOTIFY_SOCKET"
WATCHDOG_USEC = "WATCHDOG_USEC"
WATCHDOG_PID = "WATCHDOG_PID"


def notify(message: str) -> bool:
    """Send ``message`` (``KEY=value`` lines) to the service manager; False when there is none to tell or it cannot
    be reached (the kiosk plays on: a service manager that cannot hear it restarts it, which shows in the journal)."""
    address = os.environ.get(NOTIFY_SOCKET)
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError:
        return False
    return True


def watchdog_interval_s() -> float | None:
    """How often to send WATCHDOG=1: half the unit's ``WatchdogSec=``, as sd_watchdog_enabled(3) advises; None when
    the service manager wants no pings from this process."""
    usec = os.environ.get(WATCHDOG_USEC, "")
    pid = os.environ.get(WATCHDOG_PID, "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and pid != str(os.getpid()):  # meant for another process (we were started by a wrapper)
        return None
    return int(usec) / 2_000_000


def ready(status: str = "") -> bool:
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""))


def watchdog_ping() -> bool:
    return notify("WATCHDOG=1")


def stopping(status: str = "") -> bool:
    return notify("STOPPING=1" + (f"\nSTATUS={status}" if status else ""))
