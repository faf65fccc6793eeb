"""A round's evidence frames for a supervisor: which readings cite which frame, whether each is still there and
unaltered, and copies of them (as kept, and with the read boxes drawn) in a folder of their choice."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from journal.retention import EvidenceIndex, evidence_index, frame_status
from journal.store import Entry, JournalReader

BOX_COLOUR = (80, 220, 80)  # BGR green, as the live view draws a sure reading


@dataclass(slots=True)
class RoundFrame:
    """One frame cited by a round's readings."""

    digest: str
    status: str
    """``kept``, ``pruned …``, ``MISSING …`` or ``ALTERED``."""
    path: Path | None
    readings: list[Entry] = field(default_factory=list)

    @property
    def zones(self) -> str:
        return ", ".join(str(e.payload["zone"]) for e in self.readings)


def round_frames(reader: JournalReader, entries: Iterable[Entry],
                 index: EvidenceIndex | None = None) -> list[RoundFrame]:
    """The frames the readings among ``entries`` cite, in the order first cited."""
    index = index if index is not None else evidence_index(reader)
    frames: dict[str, RoundFrame] = {}
    for entry in entries:
        digest = entry.payload.get("frame") if entry.kind in ("cards_read", "cards_misread") else None
        if not digest:
            continue
        if digest not in frames:
            status = frame_status(reader, index, digest, entry.seq)
            frames[digest] = RoundFrame(digest, status, reader.evidence.path(digest))
        frames[digest].readings.append(entry)
    return list(frames.values())


def export(frames: Iterable[RoundFrame], folder: Path, round_id: int) -> list[Path]:
    """Copy each kept frame into ``folder`` as it was stored (its bytes still match its hash) and beside it the
    same picture with every reading's boxes and cards drawn. Frames pruned, missing or altered are not copied."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for frame in frames:
        if frame.status != "kept" or frame.path is None:
            continue
        data = frame.path.read_bytes()
        if hashlib.sha256(data).hexdigest() != frame.digest:
            continue  # altered since the status was taken
        stem = f"round{round_id}-{frame.digest[:12]}"
        original = folder / (stem + frame.path.suffix)
        original.write_bytes(data)
        written.append(original)
        drawn = folder / (stem + "-read.png")
        if _draw(data, frame.readings, drawn):
            written.append(drawn)
    return written


def _draw(data: bytes, readings: list[Entry], target: Path) -> bool:
    import cv2

    image = decode(data)
    if image is None:
        return False  # stored bytes that are no picture: the copy as kept is all there is
    return bool(cv2.imwrite(str(target), draw_readings(image, readings)))


def decode(data: bytes) -> Any:
    """A stored frame as a BGR image, or None when its bytes are no picture."""
    import cv2
    import numpy as np

    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def draw_readings(image: Any, readings: Iterable[Entry]) -> Any:
    """``image`` (changed in place, and returned) with each reading's boxes, cards and place drawn on it."""
    import cv2

    scale = max(image.shape[:2]) / 1280.0
    thickness = max(1, round(2 * scale))
    for entry in readings:
        boxes = [b for b in entry.payload.get("boxes") or [] if len(b) == 4]  # a card set by hand has no box
        for card, box in zip(entry.payload["cards"], entry.payload.get("boxes") or [], strict=False):
            if len(box) != 4:
                continue
            x1, y1, x2, y2 = (int(v) for v in box)
            cv2.rectangle(image, (x1, y1), (x2, y2), BOX_COLOUR, thickness, cv2.LINE_AA)
            _caption(image, str(card), (x1, y1 - 3), scale)  # the card over its box
        if boxes:
            x1, _, _, y2 = (int(v) for v in boxes[0])
            _caption(image, str(entry.payload["zone"]), (x1, y2 + round(16 * scale)), scale)  # the place under it
    return image


def _caption(image: Any, text: str, origin: tuple[int, int], scale: float) -> None:
    import cv2

    font, size, weight = cv2.FONT_HERSHEY_SIMPLEX, 0.45 * scale, max(1, round(scale))
    (width, height), base = cv2.getTextSize(text, font, size, weight)
    x, y = max(origin[0], 0), max(origin[1], height + 2)
    cv2.rectangle(image, (x - 1, y - height - 2), (x + width + 1, y + base), (20, 20, 20), -1)
    cv2.putText(image, text, (x, y), font, size, BOX_COLOUR, weight, cv2.LINE_AA)
