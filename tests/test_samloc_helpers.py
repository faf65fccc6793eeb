"""Helpers for the Sâm Lốc tests: a deal from card text, and moves in a short form ("1 play 5S 6D 7C")."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import parse_cards
from engine.common import JSON
from engine.samloc import Deal, Record, Settings, State, replay


def deal(*hands: str, leader: int = 0) -> Deal:
    return Deal(tuple(parse_cards(hand, count=10) for hand in hands), leader)


def move(text: str) -> dict[str, JSON]:
    """``"1 play 5S 6D"``, ``"2 pass"``, ``"0 timeout"``, ``"1 sam"`` → the hand-file action."""
    seat, verb, *cards = text.split()
    if verb == "play":
        return {"seat": int(seat), "play": cards}
    key = {"pass": "pass", "timeout": "timeout", "sam": "declare_sam"}[verb]
    return {"seat": int(seat), key: True}


def play_out(hands: Sequence[str], moves: Sequence[str], leader: int = 0, **table: object) -> State:
    """Replay the moves from the deal, as the journal and the replay CLI do."""
    settings = Settings(**{"bet": 100, **table})  # type: ignore[arg-type]
    return replay(settings, deal(*hands, leader=leader).to_json(), [move(m) for m in moves])


def start(hands: Sequence[str], leader: int = 0, **table: object) -> State:
    return play_out(hands, [], leader, **table)


def paid(hand: State) -> list[tuple[object, object, int, str]]:
    return [(p.payer, p.payee, p.amount, p.reason) for p in hand.settle().payments]


def described(records: Sequence[Record]) -> str:
    return "\n".join(record.describe() for record in records)
