"""Learning from play (issue 53 goal 3): the labelled examples the journal holds.

Every round a dealer confirms is a labelled example from the casino's own camera and deck: the evidence frame a
reading cites (``cards_read.frame``), the box each card was read at (``cards_read.boxes``) and the card as finally
confirmed, the dealer's corrections (``cards_corrected``) included. This module gathers them; it reads the journal
only and knows nothing of the reader (the learning itself is ``vision.enroll.from_play``, started by
``dealer-assist vision learn-from-play``).

What counts, per round:

- only **settled** rounds (``round_settled``): a voided round's cards were never confirmed, an open one's not yet;
- per zone, the zone's **last** reading in the round (a later reading of a zone replaces an earlier one), with every
  correction after it applied slot by slot (``before`` → ``after``: a card replaced keeps its box; a card taken away
  gives nothing; a card added is set by hand). A correction made before the reading that records it (the kiosk
  corrects on the live places and journals the confirmed cards at CONFIRM) names what the reader had said instead;
- a card **set by hand** (an empty box) gives no example: there is no picture of where it lies;
- a frame no longer on disk gives no example: frames pruned by the kiosk's evidence retention
  (``journal.retention``) are gone, so the kiosk keeps its examples exactly as long as its evidence; a frame whose
  bytes no longer match its hash (altered) is not learnt from either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from journal.events import CardsCorrected, CardsRead, RoundSettled, RoundVoided
from journal.store import Entry, JournalReader

Box = tuple[int, int, int, int]
_KINDS = (CardsRead.KIND, CardsCorrected.KIND, RoundSettled.KIND, RoundVoided.KIND)


@dataclass(frozen=True, slots=True)
class PlayExample:
    """One card of a settled round: where it lies in which evidence frame, and what it is."""

    round_id: int
    zone: str
    frame: str
    """The evidence frame's hash."""
    path: Path
    """Its file in the evidence folder."""
    box: Box
    """Where the card lies in the frame, ``(x1, y1, x2, y2)`` pixels (the reader's box)."""
    card: str
    """The card as the dealer finally confirmed it (``"10H"``)."""
    read_as: str
    """What the reader had said at that box (the same card unless the dealer corrected it)."""

    @property
    def corrected(self) -> bool:
        return self.card != self.read_as


@dataclass
class PlayExamples:
    """The examples of the rounds asked for, and what was left out and why (counts)."""

    examples: list[PlayExample] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    """The settled rounds that gave examples, oldest first."""
    voided: int = 0
    open: int = 0
    by_hand: int = 0
    """Cards set by hand (no box)."""
    pruned: int = 0
    """Cards whose frame is no longer on disk (pruned by the evidence retention, or missing)."""
    altered: int = 0
    """Cards whose frame's bytes no longer match its hash."""

    def summary(self) -> str:
        corrected = sum(e.corrected for e in self.examples)
        return (f"{len(self.examples)} examples ({corrected} corrected by the dealer) from {len(self.rounds)} settled "
                f"rounds; left out: {self.by_hand} cards set by hand, {self.pruned} whose frame is pruned or gone, "
                f"{self.altered} whose frame was altered, {self.voided} voided and {self.open} open rounds")


@dataclass
class _Slot:
    card: str
    read_as: str
    box: Box | None
    frame: str | None


@dataclass
class _Round:
    zones: dict[str, list[_Slot]] = field(default_factory=dict)
    said: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per zone, corrections made before the reading that records them: confirmed card → what the reader said."""
    outcome: str = ""


def play_examples(reader: JournalReader, rounds: int | None = None, check: bool = True) -> PlayExamples:
    """The labelled examples of the journal's settled rounds (the newest ``rounds`` settled rounds that give any,
    all of them when None), oldest first. ``check``: leave out frames whose bytes no longer match their hash."""
    by_round: dict[int, _Round] = {}
    for entry in reader.entries(kinds=_KINDS):
        if entry.round_id is None:
            continue  # a reading outside any round (a test read) confirms nothing
        _apply(by_round.setdefault(entry.round_id, _Round()), entry)
    result = PlayExamples()
    found: list[tuple[int, list[PlayExample]]] = []
    frames: dict[str, tuple[Path | None, bool]] = {}
    for round_id in sorted(by_round):
        state = by_round[round_id]
        if state.outcome != RoundSettled.KIND:
            if state.outcome == RoundVoided.KIND:
                result.voided += 1
            else:
                result.open += 1
            continue
        examples = []
        for zone, slots in state.zones.items():
            for slot in slots:
                if slot.box is None or slot.frame is None:
                    result.by_hand += 1
                    continue
                if slot.frame not in frames:
                    path = reader.evidence.path(slot.frame)
                    frames[slot.frame] = (path, path is not None and check and reader.evidence.check(slot.frame)
                                          is not None)
                path, altered = frames[slot.frame]
                if path is None:
                    result.pruned += 1
                elif altered:
                    result.altered += 1
                else:
                    examples.append(PlayExample(round_id, zone, slot.frame, path, slot.box, slot.card, slot.read_as))
        if examples:
            found.append((round_id, examples))
    if rounds is not None:
        found = found[-rounds:] if rounds > 0 else []
    for round_id, examples in found:
        result.rounds.append(round_id)
        result.examples.extend(examples)
    return result


def _apply(state: _Round, entry: Entry) -> None:
    event = entry.event
    if isinstance(event, RoundSettled | RoundVoided):
        state.outcome = event.KIND
    elif isinstance(event, CardsRead):
        said = state.said.pop(event.zone, {})
        slots = []
        for i, card in enumerate(event.cards):
            box = _valid_box(event.boxes[i]) if i < len(event.boxes) else None
            slots.append(_Slot(card, said.get(card, card), box, event.frame if box else None))
        state.zones[event.zone] = slots
    elif isinstance(event, CardsCorrected):
        current = state.zones.get(event.zone)
        if current is None or [s.card for s in current] != list(event.before):
            # corrected on the live places before the reading that records the confirmed cards
            _remember(state.said.setdefault(event.zone, {}), event.before, event.after)
            return
        state.zones[event.zone] = _corrected(current, event.before, event.after)


def _corrected(slots: Sequence[_Slot], before: Sequence[str], after: Sequence[str]) -> list[_Slot]:
    """The zone's slots after one correction: a card replaced keeps its box and what the reader said, a card taken
    away is dropped, a card added is set by hand."""
    if len(after) == len(before):
        return [_Slot(card, slot.read_as, slot.box, slot.frame) for slot, card in zip(slots, after, strict=True)]
    if len(after) == len(before) - 1:  # one taken away: the first slot where the two differ
        gone = next((i for i, (b, a) in enumerate(zip(before, after, strict=False)) if b != a), len(after))
        return [slot for i, slot in enumerate(slots) if i != gone]
    if len(after) == len(before) + 1:  # one added (set by hand)
        added = next((i for i, (b, a) in enumerate(zip(before, after, strict=False)) if b != a), len(before))
        kept = list(slots)
        kept.insert(added, _Slot(after[added], after[added], None, None))
        return [_Slot(card, slot.read_as, slot.box, slot.frame) for slot, card in zip(kept, after, strict=True)]
    # Anything else (several cards at once): a card still there keeps its slot, the others are set by hand.
    left = list(slots)
    result = []
    for card in after:
        match = next((s for s in left if s.card == card), None)
        if match is not None:
            left.remove(match)
            result.append(match)
        else:
            result.append(_Slot(card, card, None, None))
    return result


def _remember(said: dict[str, str], before: Sequence[str], after: Sequence[str]) -> None:
    if len(before) != len(after):
        return  # a card added or taken away on the live places: the reading that follows says where each lies
    for old, new in zip(before, after, strict=True):
        if old != new:
            said[new] = said.pop(old, old)


def _valid_box(box: tuple[int, ...]) -> Box | None:
    if len(box) != 4:
        return None
    x1, y1, x2, y2 = box
    return (x1, y1, x2, y2) if x2 > x1 and y2 > y1 else None

