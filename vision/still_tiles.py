"""Readings kept for the parts of the table that have not changed, so that a still table is not read again.

Most of a round the felt lies still: the dealer changes one seat's cards and the other places look the same frame
after frame. Reading every tile of every frame keeps the CPU busy for nothing and makes the tile that did change wait
for the ones that did not. A tile (or the whole frame, in the frame view) whose small grey copy differs nowhere by
more than ``change_levels`` from the one it was last read at is *still*, and is given its last readings again, but
only once two fresh readings of the still tile agreed (a frame read while a hand was leaving, slightly blurred,
must not be repeated until the stabiliser places it), and no longer than ``reread_every`` frames without a fresh
reading. Any change over the threshold, a lighting change included, is read afresh.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import InputError
from vision.detection import Detection

Frame = npt.NDArray[np.uint8]
SHRINK = 8  # a card (~60 px in the table view) is still ~7x10 cells of the small copy; sensor noise averages out
SAME_PLACE_PX = 4.0  # two readings of one card this close (box corners, tile pixels) are the same reading


@dataclass(frozen=True, slots=True)
class StillSettings:
    enabled: bool = True
    change_levels: float = 12.0  # grey levels (0-255) on the small copy: more anywhere is a change
    agreeing_reads: int = 2  # fresh readings of a still tile that must agree before it is given them again
    reread_every: int = 50  # frames: a still tile is read afresh at least this often

    def __post_init__(self) -> None:
        if not (1.0 <= self.change_levels <= 128.0):
            raise InputError(f"still tiles: change_levels must be within 1..128 grey levels, got {self.change_levels}")
        if self.agreeing_reads < 1:
            raise InputError(f"still tiles: agreeing_reads must be at least 1, got {self.agreeing_reads}")
        if self.reread_every < 1:
            raise InputError(f"still tiles: reread_every must be at least 1 frame, got {self.reread_every}")


def small_grey(image: Frame) -> npt.NDArray[np.int16]:
    """The image in grey, shrunk by ``SHRINK`` with area averaging (at least 1x1)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    height, width = grey.shape[:2]
    size = (max(1, width // SHRINK), max(1, height // SHRINK))
    return cv2.resize(grey, size, interpolation=cv2.INTER_AREA).astype(np.int16)


def same_readings(a: Sequence[Detection], b: Sequence[Detection]) -> bool:
    """The same cards with the same flags, each in the same place."""
    if len(a) != len(b):
        return False
    left = sorted(a, key=lambda d: (str(d.card), d.box))
    right = sorted(b, key=lambda d: (str(d.card), d.box))
    return all(
        x.card == y.card and x.flags == y.flags
        and max(abs(p - q) for p, q in zip(x.box, y.box, strict=True)) <= SAME_PLACE_PX
        for x, y in zip(left, right, strict=True)
    )


@dataclass(slots=True)
class _Kept:
    small: npt.NDArray[np.int16]  # the small copy the still period began with: slow drift adds up to a change
    readings: list[Detection]
    agreeing: int  # fresh readings of this still tile in a row that agreed
    given_again: int  # frames given the kept readings since the last fresh one


class StillTiles:
    """The last readings of each tile, given again while the tile stays still (see the module's docstring)."""

    def __init__(self, settings: StillSettings | None = None) -> None:
        self.settings = settings or StillSettings()
        self._kept: dict[Hashable, _Kept] = {}
        self._lock = threading.Lock()  # forget() comes from the kiosk's thread while the reader's thread reads
        self._generation = 0
        self.fresh_reads = 0
        self.kept_reads = 0

    def forget(self) -> None:
        """Drop every kept reading (the camera moved, another model was activated); a reading under way when this
        is called is not kept either."""
        with self._lock:
            self._kept.clear()
            self._generation += 1

    def read(self, key: Hashable, image: Frame, read: Callable[[Frame], Sequence[Detection]]) -> list[Detection]:
        """``read(image)``, or the readings kept for ``key`` when its image is still and they may be given again."""
        settings = self.settings
        if not settings.enabled:
            self.fresh_reads += 1
            return list(read(image))
        small = small_grey(image)
        with self._lock:
            kept = self._kept.get(key)
            generation = self._generation
            still = kept is not None and kept.small.shape == small.shape and self._still(kept.small, small)
            if (
                still and kept is not None
                and kept.agreeing >= settings.agreeing_reads
                and kept.given_again < settings.reread_every
            ):
                kept.given_again += 1
                self.kept_reads += 1
                return list(kept.readings)
        readings = list(read(image))
        with self._lock:
            self.fresh_reads += 1
            if generation != self._generation:
                return readings
            if still and kept is not None:
                agreeing = kept.agreeing + 1 if same_readings(kept.readings, readings) else 1
                self._kept[key] = _Kept(kept.small, readings, agreeing, 0)
            else:
                self._kept[key] = _Kept(small, readings, 1, 0)
        return readings

    def _still(self, before: npt.NDArray[np.int16], now: npt.NDArray[np.int16]) -> bool:
        return bool(np.abs(now - before).max() <= self.settings.change_levels)
