"""Enrollment's entries in the journal: the reader's model switch, and which model read a given round.

The only module of ``vision/`` that touches the journal, and only when a caller hands it one (the kiosk, which holds
the journal while it runs, or the ``enroll activate`` command when the kiosk is not running).
"""

from __future__ import annotations

from typing import Any

from vision.enroll.verify import Switch

KIND = "reader_model_changed"


def record_switch(journal: Any, switch: Switch) -> None:
    """Append the switch to an open ``journal.Journal`` (raises ``JournalError`` if it cannot be recorded)."""
    from journal.events import ReaderModelChanged

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
