"""How long evidence frames are kept: a retention in days and a size cap, never touching an open or held round.

A frame is pruned only when every round whose readings cite it is closed (settled or voided) and not held for a
dispute (``evidence_held``). Frames go oldest closed round first. Each pruning is journaled (``evidence_pruned``,
naming every frame) *before* the files are deleted, so that ``verify`` tells a pruned frame from a missing one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from journal import words
from journal.events import EvidenceHeld, EvidencePruned
from journal.store import Entry, Journal, JournalReader

MB = 1_000_000

_KINDS = ("cards_read", "cards_misread", "round_settled", "round_voided", "evidence_pruned", "evidence_held")


@dataclass(frozen=True, slots=True)
class Retention:
    """``days``: frames of rounds closed longer ago are deleted (None: kept for ever); ``max_mb``: the evidence
    folder is kept under this many megabytes (None: no cap)."""

    days: int | None = 30
    max_mb: float | None = 2000.0


@dataclass(slots=True)
class FrameUse:
    """One stored frame and the readings citing it."""

    digest: str
    rounds: set[int | None] = field(default_factory=set)
    citations: list[int] = field(default_factory=list)
    """The seq of each event citing it."""
    last_cited: datetime | None = None


@dataclass(slots=True)
class EvidenceIndex:
    """What the journal says about its evidence: who cites each frame, when rounds closed, holds and prunings."""

    frames: dict[str, FrameUse] = field(default_factory=dict)
    closed: dict[int, datetime] = field(default_factory=dict)
    held: dict[int, Entry] = field(default_factory=dict)
    pruned: dict[str, Entry] = field(default_factory=dict)
    """The last ``evidence_pruned`` event naming each frame."""

    def pruned_after(self, digest: str, seq: int) -> Entry | None:
        """The pruning that deleted the frame an event ``seq`` cited, if one came after it."""
        entry = self.pruned.get(digest)
        return entry if entry is not None and entry.seq > seq else None


def evidence_index(reader: JournalReader) -> EvidenceIndex:
    index = EvidenceIndex()
    for entry in reader.entries(kinds=_KINDS):
        payload = entry.payload
        if entry.kind in ("cards_read", "cards_misread"):
            digest = payload.get("frame")
            if digest:
                use = index.frames.setdefault(digest, FrameUse(digest))
                use.rounds.add(entry.round_id)
                use.citations.append(entry.seq)
                use.last_cited = entry.when
        elif entry.kind in ("round_settled", "round_voided") and entry.round_id is not None:
            index.closed[entry.round_id] = entry.when
        elif entry.kind == EvidenceHeld.KIND:
            index.held[int(payload["round"])] = entry
        elif entry.kind == EvidencePruned.KIND:
            for digest in payload["frames"]:
                index.pruned[digest] = entry
    return index


def frame_status(reader: JournalReader, index: EvidenceIndex, digest: str, seq: int) -> str:
    """The frame an event ``seq`` cites, in words: ``kept``, ``pruned …``, ``MISSING`` or ``ALTERED``."""
    if reader.evidence.path(digest) is None:
        pruning = index.pruned_after(digest, seq)
        if pruning is not None:
            return words.FRAME_PRUNED(day=pruning.time[:10], reason=words.prune_reason(pruning.payload["reason"]),
                                      seq=pruning.seq)
        return words.FRAME_MISSING()
    return words.FRAME_ALTERED() if reader.evidence.check(digest) else words.FRAME_KEPT()


@dataclass(frozen=True, slots=True)
class Pruning:
    """What one ``prune`` did, and what it could not do."""

    events: tuple[Entry, ...] = ()
    frames: int = 0
    freed_bytes: int = 0
    total_bytes: int = 0
    """The evidence folder's size afterwards."""
    over_cap: bool = False
    """Still over the cap: the rest belongs to open or held rounds (or to no reading of this journal)."""


def prune(journal: Journal, retention: Retention) -> Pruning:
    """Delete the frames the retention settings no longer keep; journal each pruning before its files go."""
    if retention.days is None and retention.max_mb is None:
        return Pruning(total_bytes=journal.evidence.total_bytes())
    index = evidence_index(journal)
    candidates = _prunable(journal, index)
    events: list[Entry] = []
    frames = freed = 0
    if retention.days is not None:
        cutoff = journal.clock.now() - timedelta(days=retention.days)
        old = [c for c in candidates if c[0] <= cutoff]
        candidates = [c for c in candidates if c[0] > cutoff]
        if old:
            entry, gone = _prune(journal, old, f"older than {retention.days} days")
            events.append(entry)
            frames, freed = frames + len(old), freed + gone
    total = journal.evidence.total_bytes()
    if retention.max_mb is not None:
        cap = int(retention.max_mb * MB)
        chosen = []
        over = total - cap
        for candidate in candidates:  # oldest closed round first
            if over <= 0:
                break
            chosen.append(candidate)
            over -= candidate[3]
        if chosen:
            entry, gone = _prune(journal, chosen, f"over the {retention.max_mb:g} MB cap")
            events.append(entry)
            frames, freed, total = frames + len(chosen), freed + gone, total - gone
    over_cap = retention.max_mb is not None and total > retention.max_mb * MB
    return Pruning(tuple(events), frames, freed, total, over_cap)


Candidate = tuple[datetime, str, tuple[int, ...], int]
"""When the last round citing the frame closed, the frame, those rounds, its size in bytes."""


def _prunable(journal: Journal, index: EvidenceIndex) -> list[Candidate]:
    candidates: list[Candidate] = []
    for digest, use in index.frames.items():
        path = journal.evidence.path(digest)
        if path is None:
            continue  # pruned before, or missing (verify says which)
        ends: list[datetime] = []
        for round_id in use.rounds:
            if round_id is None:
                assert use.last_cited is not None
                ends.append(use.last_cited)  # a reading outside any round ends with itself
            elif round_id in index.closed and round_id not in index.held:
                ends.append(index.closed[round_id])
            else:
                break  # an open round, or one held for a dispute: never pruned
        else:
            rounds = tuple(sorted(r for r in use.rounds if r is not None))
            candidates.append((max(ends), digest, rounds, path.stat().st_size))
    candidates.sort()
    return candidates


def _prune(journal: Journal, chosen: list[Candidate], reason: str) -> tuple[Entry, int]:
    size = sum(c[3] for c in chosen)
    rounds = tuple(sorted({r for c in chosen for r in c[2]}))
    entry = journal.append(EvidencePruned(tuple(c[1] for c in chosen), rounds, reason, size))  # first the record …
    freed = sum(journal.evidence.remove(c[1]) for c in chosen)  # … then the files
    return entry, freed


def hold(journal: Journal, round_id: int, by: str, reason: str) -> Entry:
    """Keep a round's frames whatever the retention settings say (a dispute); journaled."""
    return journal.append(EvidenceHeld(round_id, by, reason))
