"""Evidence frames kept on disk by content hash (SHA-256), written durably before the event that cites them."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from journal.errors import JournalError

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
        fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
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

    def check(self, digest: str) -> str | None:
        """None when the frame is on disk and unaltered, else what is wrong."""
        found = self.path(digest)
        if found is None:
            return f"evidence frame {digest[:12]}… is missing from {self.folder}"
        if hashlib.sha256(found.read_bytes()).hexdigest() != digest:
            return f"evidence frame {found} was altered (its content no longer matches its hash)"
        return None
