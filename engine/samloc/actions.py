"""Actions of a Sâm Lốc hand: what a player asks for, and the frozen record of what it did.

JSON form (the "actions" list of a hand file): ``{"seat": 1, "declare_sam": true}``,
``{"seat": 1, "play": ["5S", "6D", "7C"]}``, ``{"seat": 2, "pass": true}``, ``{"seat": 3, "timeout": true}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.cards import Card, parse_cards
from engine.common import JSON, IllegalAction
from engine.errors import InputError
from engine.phrases import PhraseTemplate, join
from engine.samloc.combos import Combo, sort_cards

# What a record says on the table screen's log, as phrases (a screen words them in its language).
DECLARES_SAM = PhraseTemplate(
    "samloc.log.declares_sam", "seat {seat} declares sâm (báo sâm): he leads and must go out without being beaten"
)
PLAYS = PhraseTemplate("samloc.log.plays", "seat {seat} plays {cards} ({combo})")
PLAYS_ON_TIMEOUT = PhraseTemplate(
    "samloc.log.plays_on_timeout", "seat {seat}'s time ran out: he plays {cards} ({combo})"
)
PASSES = PhraseTemplate("samloc.log.passes", "seat {seat} passes")
PASSES_ON_TIMEOUT = PhraseTemplate("samloc.log.passes_on_timeout", "seat {seat}'s time ran out: he passes")


@dataclass(frozen=True, slots=True)
class DeclareSam:
    seat: int

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "declare_sam": True}


@dataclass(frozen=True, slots=True)
class PlayCards:
    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sort_cards(self.cards))

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "play": [str(card) for card in self.cards]}


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "pass": True}


@dataclass(frozen=True, slots=True)
class Timeout:
    seat: int

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "timeout": True}


Action = DeclareSam | PlayCards | Pass | Timeout


@dataclass(frozen=True, slots=True)
class SamDeclared:
    """Record: a player declared sâm."""

    seat: int

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "declare_sam": True}

    def describe(self) -> str:
        return DECLARES_SAM(seat=self.seat)


@dataclass(frozen=True, slots=True)
class Played:
    """Record: a player played a combination (by choice, or by the timer when he had to lead)."""

    seat: int
    combo: Combo
    effects: tuple[str, ...] = ()
    timed_out: bool = False

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.combo.cards

    def to_json(self) -> dict[str, JSON]:
        if self.timed_out:
            return {"seat": self.seat, "timeout": True}
        return {"seat": self.seat, "play": [str(card) for card in sort_cards(self.combo.cards)]}

    def describe(self) -> str:
        template = PLAYS_ON_TIMEOUT if self.timed_out else PLAYS
        text = template(seat=self.seat, cards=" ".join(map(str, self.combo.cards)), combo=self.combo.describe())
        return join("; ", (text, *self.effects))


@dataclass(frozen=True, slots=True)
class Passed:
    """Record: a player passed for the rest of the round (by choice, or by the timer)."""

    seat: int
    effects: tuple[str, ...] = ()
    timed_out: bool = False

    def to_json(self) -> dict[str, JSON]:
        if self.timed_out:
            return {"seat": self.seat, "timeout": True}
        return {"seat": self.seat, "pass": True}

    def describe(self) -> str:
        text = (PASSES_ON_TIMEOUT if self.timed_out else PASSES)(seat=self.seat)
        return join("; ", (text, *self.effects))


Record = SamDeclared | Played | Passed

_KINDS = ("declare_sam", "play", "pass", "timeout")


def action_from_json(data: Mapping[str, JSON]) -> Action:
    """One action of a hand file; a malformed one raises ``IllegalAction`` saying what is wrong."""
    if not isinstance(data, Mapping):
        raise IllegalAction(f'an action must be a JSON object such as {{"seat": 1, "pass": true}}, not {data!r}')
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IllegalAction(f"an action needs a seat number, got {seat!r}")
    unknown = sorted(set(data) - {"seat", *_KINDS})
    if unknown:
        raise IllegalAction(f"unknown key {', '.join(unknown)} in an action; use one of {', '.join(_KINDS)}")
    kinds = [kind for kind in _KINDS if kind in data]
    if len(kinds) != 1:
        raise IllegalAction(f"an action needs exactly one of {', '.join(_KINDS)}, got {', '.join(kinds) or 'none'}")
    kind = kinds[0]
    value = data[kind]
    if kind == "play":
        if not isinstance(value, list) or not all(isinstance(token, str) for token in value):
            raise IllegalAction(f'a play is a list of cards such as ["5S", "6D", "7C"], not {value!r}')
        try:
            cards = parse_cards(value)
        except InputError as error:
            raise IllegalAction(str(error)) from None
        if not cards:
            raise IllegalAction("a play needs at least one card; to play nothing, pass")
        return PlayCards(seat, cards)
    if value is not True:
        raise IllegalAction(f'write "{kind}": true, not {value!r}')
    if kind == "declare_sam":
        return DeclareSam(seat)
    if kind == "pass":
        return Pass(seat)
    return Timeout(seat)
