"""Evidence frames kept on disk by content hash (SHA-256), written durably before the event that cites them."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from journal.errors import JournalError
from journal.words import VERIFY

_HASH = re.compile(r"^[0-9a-f]{64}$")
_SUFFIX = re.compile(r"^\.[a-z0-9]{1,5}$")


class EvidenceStore:
    """A folder of frames: ``<folder>/<first two hex digits>/<sha256><suffix>``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def put(self, data: bytes, suffix: str = ".jpg") -> str:
        if not _SUFFIX.match(suffix):
            raise JournalError(f"evidence suffix {suffix!r} is not a short file extension such as '.jpg'")
        digest = hashlib.sha256(data).hexdigest()
        target = self.folder / digest[:2] / (digest + suffix)
        if target.exists():
            return digest
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
        _sync_folder(target.parent)
        return digest

    def path(self, digest: str) -> Path | None:
        """The file of a frame, or None when it is not on disk."""
        if not _HASH.match(digest):
            return None
        folder = self.folder / digest[:2]
        if not folder.is_dir():
            return None
        for candidate in folder.glob(digest + ".*"):
            if not candidate.name.endswith(".tmp"):
                return candidate
        return None

    def remove(self, digest: str) -> int:
        """Delete a frame's file (retention); returns the bytes freed, 0 when it was not there."""
        found = self.path(digest)
        if found is None:
            return 0
        size = found.stat().st_size
        found.unlink()
        _sync_folder(found.parent)
        return size

    def total_bytes(self) -> int:
        """What every frame in the folder takes on disk (frames of other journals sharing the folder included)."""
        total = 0
        if not self.folder.is_dir():
            return 0
        with os.scandir(self.folder) as folders:
            for folder in folders:
                if not folder.is_dir() or len(folder.name) != 2:
                    continue
                with os.scandir(folder.path) as files:
                    total += sum(f.stat().st_size for f in files if f.is_file() and not f.name.endswith(".tmp"))
        return total

    def check(self, digest: str) -> str | None:
        """None when the frame is on disk and unaltered, else what is wrong."""
        found = self.path(digest)
        if found is None:
            return VERIFY["frame_missing"](frame=digest[:12], folder=self.folder)
        if hashlib.sha256(found.read_bytes()).hexdigest() != digest:
            return VERIFY["frame_altered"](path=found)
        return None


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
