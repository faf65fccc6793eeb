"""What a table record breaks: a rule the kiosk could check only once the hands were known (at a hand's end).

A hand followed at a real table (the kiosk sees what is laid on the felt, never the hands) is rebuilt at its end
from what each seat played and showed; what the rules needed the hands for is checked then. Each rule broken is a
``Violation``: the seat (0-based, as in JSON; None where no seat can be named), a short ``kind`` a program reads,
and one line for people (a phrase naming the seat counted from 1, the card and the rule). A settlement with a
violation is **held** for a supervisor: nothing is paid silently.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.common import JSON


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule found broken when a table record's hand was rebuilt."""

    seat: int | None
    kind: str
    message: str

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "kind": self.kind, "message": str(self.message)}
