"""Between rounds the kiosk hands the allocator's freed pages back: its resident memory falls after a round's
garbage is gone, instead of staying at the high-water mark (kiosk.memory)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.memory import _libc, return_freed_memory


def resident_heap_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no RssAnon in /proc/self/status")


@pytest.mark.skipif(_libc() is None, reason="a C library without malloc_trim (not glibc)")
def test_freed_memory_of_a_rounds_garbage_goes_back_to_the_system() -> None:
    # a round's worth of mid-size buffers, every 50th kept (as a journal entry or a texture would be): the kept
    # ones pin the heap's top, so the allocator does not give the pages back by itself
    garbage = [bytearray(2000) for _ in range(60_000)]
    kept = garbage[::50]
    del garbage
    before = resident_heap_mb()
    assert return_freed_memory()
    after = resident_heap_mb()
    assert before - after > 50, f"resident anonymous memory {before:.0f} → {after:.0f} MB"
    assert len(kept) == 1200
