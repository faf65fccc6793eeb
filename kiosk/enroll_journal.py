"""Enrollment's entries in the journal: the reader's model switch, and which model read a given round.

It lives in the kiosk, which wires the card reader to the journal (vision itself imports only the engine): the
kiosk calls it while it holds the journal, and so does ``dealer-assist vision enroll activate`` when it does not run.
"""

from __future__ import annotations

from typing import Any

from journal.events import ReaderModelChanged
from vision.enroll.registry import active_model
from vision.enroll.verify import Switch

KIND = "reader_model_changed"


def record_switch(journal: Any, switch: Switch) -> None:
    """Append the switch to an open ``journal.Journal`` (raises ``JournalError`` if it cannot be recorded)."""
    journal.append(ReaderModelChanged(
        model=switch.model, name=switch.name, profile=switch.profile, previous=switch.previous,
        cards_checked=switch.cards_checked, right_before=switch.right_before, right_after=switch.right_after,
        by=switch.by, reason=switch.reason))


def model_of_round(reader: Any, round_id: int) -> dict[str, Any] | None:
    """The model that read round ``round_id``: the last ``reader_model_changed`` before the round began (None: no
    switch was recorded before it, so the kiosk read with the model it was started with)."""
    begun = next(iter(reader.entries(round_id=round_id, kinds=["round_begun"])), None)
    if begun is None:
        return None
    last = None
    for entry in reader.entries(kinds=[KIND], until_seq=begun.seq):
        last = entry
    return None if last is None else dict(last.payload)


def record_model_in_use(journal: Any, root: Any = None) -> bool:
    """At the kiosk's start: record the active model when it is not the one the journal last recorded (a model
    copied in by hand, the shipped model updated), so that every round's model is known. True when recorded."""
    active = active_model(root)
    last = None
    for entry in journal.entries(kinds=[KIND]):
        last = entry
    if last is not None and last.payload.get("model") == active.hash:
        return False
    journal.append(ReaderModelChanged(
        model=active.hash, name=active.name, profile=active.profile,
        previous="" if last is None else str(last.payload.get("model", "")), by="kiosk",
        reason="the kiosk started with this model"))
    return True
