"""Giving freed memory back to the system between rounds.

The C allocator (glibc's malloc) keeps the pages of freed objects for reuse: after a round's frames, readings and
screen updates are gone, the kiosk's heap stays at its high-water mark. Measured on the soak bench (autoplay, a real
window): the heap held 224 MB with no trimming and 140 MB trimmed once a minute, resident memory 896 → 813 MB, with
the rounds and the reading latency unchanged. A C library other than glibc has no ``malloc_trim``: nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache
from typing import Any

TRIM_EVERY_S = 60.0


@cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


def return_freed_memory() -> bool:
    """Hand the allocator's free pages back to the system; False where the C library cannot."""
    libc = _libc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True
