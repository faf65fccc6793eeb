"""Actions of a Sâm Lốc hand: what a player asks for, and the frozen record of what it did.

JSON form (the "actions" list of a hand file), ``{"kind": …, …}`` as in every game:
``{"kind": "declare_sam", "seat": 1}``, ``{"kind": "play", "seat": 1, "cards": ["5S", "6D", "7C"]}``,
``{"kind": "pass", "seat": 2}``, ``{"kind": "timeout", "seat": 3}``. Journals and hand files written before the
envelope hold ``{"seat": 1, "play": [...]}``; ``action_from_json`` reads both.

A table record (a hand followed from the felt, the hands unknown until the end: ``engine.samloc.table_hand``) adds
``{"kind": "instant", "seat": 2}`` (an instant win claimed; also written ``{"seat": 2, "instant": true}``),
``{"kind": "show", "seat": 2, "cards": [...]}`` (the cards a seat showed at the end) and names the card the timer
laid for a player who had to lead: ``{"kind": "timeout", "seat": 3, "cards": ["3S"]}``.

>>> action_from_json({"kind": "play", "seat": 1, "cards": ["7C", "5S", "6D"]})
PlayCards(seat=1, cards=(Card(5S), Card(6D), Card(7C)))
>>> action_from_json({"seat": 2, "pass": True}).to_json()
{'kind': 'pass', 'seat': 2}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import Card, CardsText, parse_cards
from engine.common import JSON, IllegalAction, check_keys, kind_of
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
CLAIMS_INSTANT = PhraseTemplate(
    "samloc.log.claims_instant", "seat {seat} claims an instant win: he shows his 10 cards"
)
SHOWS = PhraseTemplate("samloc.log.shows", "seat {seat} shows {cards}")
SHOWS_NONE = PhraseTemplate("samloc.log.shows_none", "seat {seat} shows no cards")


@dataclass(frozen=True, slots=True)
class DeclareSam:
    seat: int
    kind: ClassVar[str] = "declare_sam"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class PlayCards:
    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "play"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sort_cards(self.cards))

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat, "cards": [str(card) for card in self.cards]}


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int
    kind: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Timeout:
    """The turn timer ran out. ``cards``: the card laid for a player who had to lead, where the record names it
    (a table record must: the kiosk does not know his hand; a hand with its deal finds it itself)."""

    seat: int
    cards: tuple[Card, ...] = ()
    kind: ClassVar[str] = "timeout"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sort_cards(self.cards))

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"kind": self.kind, "seat": self.seat}
        if self.cards:
            data["cards"] = [str(card) for card in self.cards]
        return data


@dataclass(frozen=True, slots=True)
class ClaimInstant:
    """A player claims an instant win on the deal (a table record; he shows his 10 cards at the end)."""

    seat: int
    kind: ClassVar[str] = "instant"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Show:
    """The cards a seat showed face up at the end of the hand (a table record)."""

    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "show"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", sort_cards(self.cards))

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat, "cards": [str(card) for card in self.cards]}


Action = DeclareSam | PlayCards | Pass | Timeout | ClaimInstant | Show


@dataclass(frozen=True, slots=True)
class SamDeclared:
    """Record: a player declared sâm."""

    seat: int

    @property
    def action(self) -> DeclareSam:
        return DeclareSam(self.seat)

    def to_json(self) -> dict[str, JSON]:
        return self.action.to_json()

    def describe(self) -> str:
        return DECLARES_SAM(seat=self.seat)


@dataclass(frozen=True, slots=True)
class Played:
    """Record: a player played a combination (by choice, or by the timer when he had to lead)."""

    seat: int
    combo: Combo
    effects: tuple[str, ...] = ()
    timed_out: bool = False
    card_named: bool = False
    """A timeout whose action named the card laid (a table record's): its JSON names it again."""

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.combo.cards

    @property
    def action(self) -> PlayCards | Timeout:
        if self.timed_out:
            return Timeout(self.seat, self.combo.cards if self.card_named else ())
        return PlayCards(self.seat, self.combo.cards)

    def to_json(self) -> dict[str, JSON]:
        return self.action.to_json()

    def describe(self) -> str:
        template = PLAYS_ON_TIMEOUT if self.timed_out else PLAYS
        text = template(seat=self.seat, cards=CardsText(self.combo.cards), combo=self.combo.describe())
        return join("; ", (text, *self.effects))


@dataclass(frozen=True, slots=True)
class Passed:
    """Record: a player passed for the rest of the round (by choice, or by the timer)."""

    seat: int
    effects: tuple[str, ...] = ()
    timed_out: bool = False

    @property
    def action(self) -> Pass | Timeout:
        return Timeout(self.seat) if self.timed_out else Pass(self.seat)

    def to_json(self) -> dict[str, JSON]:
        return self.action.to_json()

    def describe(self) -> str:
        text = (PASSES_ON_TIMEOUT if self.timed_out else PASSES)(seat=self.seat)
        return join("; ", (text, *self.effects))


@dataclass(frozen=True, slots=True)
class InstantClaimed:
    """Record: a player claimed an instant win (a table record)."""

    seat: int

    @property
    def action(self) -> ClaimInstant:
        return ClaimInstant(self.seat)

    def to_json(self) -> dict[str, JSON]:
        return self.action.to_json()

    def describe(self) -> str:
        return CLAIMS_INSTANT(seat=self.seat)


@dataclass(frozen=True, slots=True)
class Shown:
    """Record: the cards a seat showed at the end (a table record)."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def action(self) -> Show:
        return Show(self.seat, self.cards)

    def to_json(self) -> dict[str, JSON]:
        return self.action.to_json()

    def describe(self) -> str:
        if not self.cards:
            return SHOWS_NONE(seat=self.seat)
        return SHOWS(seat=self.seat, cards=CardsText(self.cards))


Record = SamDeclared | Played | Passed | InstantClaimed | Shown

_KINDS = ("declare_sam", "play", "pass", "timeout", "instant", "show")


def upgrade(data: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """An action as written before the one envelope (``{"seat": 1, "play": [...]}``), in today's form; anything
    else is returned as it is (``action_from_json`` says what is wrong with it)."""
    if not isinstance(data, Mapping) or "kind" in data:
        return data
    kinds = [kind for kind in _KINDS if kind in data]
    unknown = sorted(set(data) - {"seat", *_KINDS})
    if unknown:
        raise IllegalAction(f"unknown key {', '.join(unknown)} in an action; use one of {', '.join(_KINDS)}")
    if len(kinds) != 1:
        raise IllegalAction(f"an action needs exactly one of {', '.join(_KINDS)}, got {', '.join(kinds) or 'none'}")
    kind = kinds[0]
    value = data[kind]
    if kind in ("play", "show"):
        return {"kind": kind, "seat": data.get("seat"), "cards": value}
    if value is not True:
        raise IllegalAction(f'write "{kind}": true, not {value!r}')
    return {"kind": kind, "seat": data.get("seat")}


def action_from_json(data: Mapping[str, JSON]) -> Action:
    """One action of a hand file or journal, in today's envelope or the older form; a malformed one raises
    ``IllegalAction`` saying what is wrong."""
    if not isinstance(data, Mapping):
        raise IllegalAction(f'an action must be a JSON object such as {{"kind": "pass", "seat": 1}}, not {data!r}')
    data = upgrade(data)
    kind = kind_of(data, _KINDS)
    if kind in ("play", "show"):
        check_keys(data, ["seat", "cards"])
    else:
        check_keys(data, ["seat"], ["cards"] if kind == "timeout" else [])
    seat = data["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IllegalAction(f"an action needs a seat number, got {seat!r}")
    if kind in ("play", "show", "timeout"):
        cards = _cards(data.get("cards", []), allow_duplicates=kind == "show")
        if kind == "play":
            if not cards:
                raise IllegalAction("a play needs at least one card; to play nothing, pass")
            return PlayCards(seat, cards)
        if kind == "show":
            return Show(seat, cards)
        return Timeout(seat, cards)
    if kind == "declare_sam":
        return DeclareSam(seat)
    if kind == "instant":
        return ClaimInstant(seat)
    if kind == "pass":
        return Pass(seat)
    raise AssertionError(kind)  # every kind is handled above


def _cards(value: JSON, *, allow_duplicates: bool) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(token, str) for token in value):
        raise IllegalAction(f'give the cards as a list such as ["5S", "6D", "7C"], not {value!r}')
    try:
        return parse_cards(value, allow_duplicates=allow_duplicates)
    except InputError as error:
        raise IllegalAction(str(error)) from None
