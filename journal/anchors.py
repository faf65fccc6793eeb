"""Anchors: the chain's head kept outside the journal, where the kiosk cannot rewrite it.

The chain alone proves order and content to someone without the key. It cannot show that the whole file was swapped
for an older copy, that events were cut off the end together with the seal, that a ``-wal`` file was lost, or that
someone holding the key rewrote events and every hash after them. An anchor can: the sequence number and hash of
the chain's head at a moment (a round's end), kept elsewhere. A journal that is shorter than an anchor was rolled
back; one whose hash at the anchor's sequence number differs was forked (rewritten).

Where anchors go is an ``AnchorSink``: today an append-only ``AnchorFile`` meant for another volume, and the
checkpoint line a supervisor prints or writes down (``dealer-assist logs checkpoint``); the floor's store can be
another sink later. An anchor file proves only what it holds: one cut short on its own volume shows only against a
later checkpoint, and someone who can rewrite the anchor file *and* holds the key can forge both.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from journal.chain import GENESIS, canonical_json
from journal.errors import JournalError
from journal.words import ANCHORS, anchor_why

Signer = Callable[[str], str]
"""Keyed MAC of a text with the journal's key (the sink never sees the key itself)."""

ANCHOR_FORMAT = 1
_TAIL_BYTES = 64 * 1024
_HEX = re.compile(r"[0-9a-f]{64}")


class AnchorError(JournalError):
    """An anchor could not be kept (its place is unreachable or not writable); the journal itself is unharmed."""


@dataclass(frozen=True, slots=True)
class Anchor:
    """The chain's head at one moment: which kiosk and journal, the event's number and hash, when, and why."""

    kiosk: str
    table: str
    journal: str
    """The hash of the journal's first event: tells one journal of a kiosk from the next."""
    seq: int
    hash: str
    time: str
    why: str


class AnchorSink(Protocol):
    """Somewhere anchors are kept that the kiosk cannot rewrite (an anchor file on another volume, the floor)."""

    @property
    def where(self) -> str:
        """Where the anchors go, in words for a message."""
        ...

    def send(self, anchor: Anchor, sign: Signer) -> None:
        """Keep the anchor durably before returning; raise ``AnchorError`` when it could not be kept."""
        ...


class AnchorFile:
    """An append-only file of anchors, one JSON line each, every line chained to the one before and MACed.

    Opened ``O_APPEND`` for each anchor and fsynced. Put it on another volume than the journal, where the kiosk's
    user may append but not rewrite (``chattr +a``, a log host's mount): that is what makes it an outside witness.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._prev: str | None = None

    @property
    def where(self) -> str:
        return f"the anchor file {self.path}"

    def send(self, anchor: Anchor, sign: Signer) -> None:
        try:
            if not self.path.parent.is_dir():
                raise AnchorError(ANCHORS["folder_gone"](folder=self.path.parent))
            if self._prev is None:
                self._prev = _last_mac(self.path)
            fields = {"v": ANCHOR_FORMAT, **asdict(anchor), "prev": self._prev}
            mac = sign(canonical_json(fields))
            line = canonical_json({**fields, "mac": mac}) + "\n"
            existed = self.path.exists()
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                data = line.encode("utf-8")
                if existed and not _ends_with_newline(self.path):
                    data = b"\n" + data  # a line torn by a power cut stays on its own line
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            if not existed:
                _fsync_folder(self.path.parent)
            self._prev = mac
        except OSError as error:
            raise AnchorError(ANCHORS["cannot_write"](path=self.path, error=error.strerror or error)) from None


def _write_all(fd: int, data: bytes) -> None:
    while data:
        written = os.write(fd, data)
        data = data[written:]


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(0, os.SEEK_END)
        if handle.tell() == 0:
            return True
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


def _last_mac(path: Path) -> str:
    """The MAC of the file's last complete anchor line: the next line chains to it."""
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - _TAIL_BYTES))
            tail = handle.read()
    except FileNotFoundError:
        return GENESIS
    for raw in reversed(tail.splitlines()):
        try:
            mac = json.loads(raw).get("mac")
        except (ValueError, AttributeError, RecursionError):  # RecursionError: a line nested thousands deep
            continue
        if isinstance(mac, str) and _HEX.fullmatch(mac):
            return mac
    return GENESIS


# ---- reading anchors back --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Given:
    """One anchor handed to the check, and how to name it in a report."""

    label: str
    seq: int
    hash: str
    """The full hash, or at least its first 16 hex digits (a checkpoint)."""
    journal: str | None = None
    time: str = ""
    why: str = ""


@dataclass(frozen=True, slots=True)
class AnchorFileRead:
    anchors: tuple[Given, ...]
    problem: str | None = None
    """The first line that was altered, removed or written with another key: the file is not to be trusted."""
    torn: tuple[int, ...] = ()
    """Lines that are not complete anchors but broke no chain (a write cut by a power cut)."""


def read_anchor_file(path: str | Path, sign: Signer) -> AnchorFileRead:
    """Every anchor of the file, each line's MAC and link to the line before checked."""
    path = Path(path)
    try:
        lines = path.read_bytes().splitlines()
    except FileNotFoundError:
        raise JournalError(ANCHORS["no_file"](path=path)) from None
    except OSError as error:
        raise JournalError(ANCHORS["unreadable"](path=path, error=error.strerror or error)) from None
    anchors: list[Given] = []
    torn: list[int] = []
    prev, prev_line = GENESIS, 0
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        record = _parse(raw)
        if record is None:
            torn.append(number)
            continue
        mac = record.pop("mac")
        if sign(canonical_json(record)) != mac:
            return AnchorFileRead(tuple(anchors), ANCHORS["line_altered"](line=number, path=path), tuple(torn))
        if record["prev"] != prev:
            after = ANCHORS["after_line"](line=prev_line) if prev_line else ANCHORS["after_start"]()
            problem = ANCHORS["line_out_of_place"](line=number, path=path, after=after)
            return AnchorFileRead(tuple(anchors), problem, tuple(torn))
        anchors.append(Given(ANCHORS["line"](line=number), record["seq"], record["hash"], record["journal"],
                             record["time"], record["why"]))
        prev, prev_line = mac, number
    return AnchorFileRead(tuple(anchors), None, tuple(torn))


def _parse(raw: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: a line nested thousands deep
        return None
    if not isinstance(record, dict) or record.get("v") != ANCHOR_FORMAT:
        return None
    text_fields = ("kiosk", "table", "journal", "hash", "time", "why", "prev", "mac")
    if not all(isinstance(record.get(name), str) for name in text_fields):
        return None
    seq = record.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        return None
    return record


# ---- the checkpoint a supervisor keeps -------------------------------------------------------------------------

CHECKPOINT_HEX = 16
"""Hex digits of the head hash printed in a checkpoint: 64 bits, short enough to write down."""
_CHECKPOINT = re.compile(r"\bevent\s+(\d+)\b.*?\b([0-9a-fA-F]{16,64})\s*$")


def checkpoint_text(kiosk: str, table: str, seq: int, digest: str, time: str) -> str:
    """One line a supervisor can write down or print; ``logs verify --checkpoint`` takes it back."""
    return f"{kiosk} {table} event {seq} {time[:19]}Z {digest[:CHECKPOINT_HEX]}"


def parse_checkpoint(text: str, number: int = 1) -> Given:
    match = _CHECKPOINT.search(text.strip())
    if match is None:
        raise JournalError(
            f"--checkpoint {text!r} is not a checkpoint: give the line `dealer-assist logs checkpoint` printed, "
            "e.g. 'K1 T3 event 812 2026-12-04T18:03:11Z 3f2a9c0d1b7e44a2' (event number, then the hash)"
        )
    return Given(ANCHORS["checkpoint"](number=number, text=text.strip()), int(match.group(1)), match.group(2).lower())


# ---- the check -------------------------------------------------------------------------------------------------


class Chain(Protocol):
    """What the check needs of a journal (``JournalReader``)."""

    def hash_at(self, seq: int) -> str | None: ...

    def head(self) -> tuple[int, str]: ...


@dataclass(frozen=True, slots=True)
class AnchorCheck:
    """Whether the journal continues every anchor it was given; ``problem`` names the first it does not."""

    ok: bool
    checked: int
    problem: str | None = None
    verdict: str | None = None
    """``rolled back``, ``forked``, ``not in the anchors`` or ``anchor file altered``."""
    last_good: Given | None = None
    notes: tuple[str, ...] = field(default=())


def check_anchors(chain: Chain, journal_id: str | None, given: Iterable[Given],
                  file_problem: str | None = None) -> AnchorCheck:
    """Check the journal against every anchor of this journal (anchors of earlier journals are only counted)."""
    anchors = list(given)
    end_seq, _ = chain.head()
    ours = [a for a in anchors if a.journal is None or a.journal == journal_id]
    others = [a for a in anchors if a.journal is not None and a.journal != journal_id]
    notes: list[str] = []
    if others:
        notes.append(ANCHORS["others"](count=len(others), last=_name(others[-1])))
    if file_problem is not None:
        return AnchorCheck(False, 0, file_problem, "anchor file altered", None, tuple(notes))
    filed = [a for a in anchors if a.journal is not None]
    if filed and not any(a.journal is not None for a in ours):
        return AnchorCheck(False, 0, ANCHORS["not_ours"](count=len(filed), last=_name(filed[-1])),
                           "not in the anchors", None, tuple(notes))
    last_good: Given | None = None
    for number, anchor in enumerate(ours):
        later = len(ours) - number - 1
        more = ANCHORS["more"](count=later) if later else ""
        agreed = ANCHORS["agreed"](anchor=_name(last_good)) if last_good else ""
        if anchor.seq > end_seq:
            problem = ANCHORS["rolled_back"](anchor=_name(anchor), more=more, end=end_seq, agreed=agreed)
            return AnchorCheck(False, number, problem, "rolled back", last_good, tuple(notes))
        digest = chain.hash_at(anchor.seq) or ""
        if not digest.startswith(anchor.hash):
            problem = ANCHORS["forked"](seq=anchor.seq, digest=digest[:CHECKPOINT_HEX], anchor=_name(anchor),
                                        hash=anchor.hash[:CHECKPOINT_HEX], agreed=agreed)
            return AnchorCheck(False, number, problem, "forked", last_good, tuple(notes))
        last_good = anchor
    return AnchorCheck(True, len(ours), None, None, last_good, tuple(notes))


def _name(anchor: Given) -> str:
    key = "name" + ("_at" if anchor.time else "") + ("_why" if anchor.why else "")
    return ANCHORS[key](label=anchor.label, seq=anchor.seq, time=anchor.time[:19], why=anchor_why(anchor.why))


def gather(files: Sequence[Path], checkpoints: Sequence[str], sign: Signer) -> tuple[list[Given], str | None,
                                                                                       list[int]]:
    """The anchors of the given files and checkpoints, the first anchor-file problem, and torn lines."""
    anchors: list[Given] = []
    problem: str | None = None
    torn: list[int] = []
    for path in files:
        read = read_anchor_file(path, sign)
        anchors.extend(read.anchors)
        torn.extend(read.torn)
        problem = problem or read.problem
    anchors.extend(parse_checkpoint(text, number) for number, text in enumerate(checkpoints, 1))
    return anchors, problem, torn
