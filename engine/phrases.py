"""Texts the engines compose (a house-way line, a settlement reason) that a screen can word in another language.

A ``Phrase`` is the English text itself (a ``str``, so logs, JSON and tests read it as before) that also carries the
key of its template and the values put in it. A screen looks the key up in its own catalogue and fills the
translated template, translating values that are phrases too. Every template is registered in ``TEMPLATES``, so a
catalogue can be checked for a missing translation.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

TEMPLATES: dict[str, str] = {}


class Phrase(str):
    """English text with the template key and the values it was made from."""

    key: str
    params: Mapping[str, object]

    def __new__(cls, key: str, text: str, params: Mapping[str, object]) -> Phrase:
        phrase = super().__new__(cls, text)
        phrase.key = key
        phrase.params = dict(params)
        return phrase

    def __reduce__(self) -> tuple[Any, ...]:  # copy and pickle keep the key and values
        return (Phrase, (self.key, str(self), self.params))


class PhraseTemplate:
    """One registered template: ``TEMPLATE(name=value, …)`` makes the phrase."""

    def __init__(self, key: str, text: str) -> None:
        if key in TEMPLATES and TEMPLATES[key] != text:
            raise ValueError(f"phrase key {key!r} registered twice with different texts")
        self.key = key
        self.text = text
        self.fields = placeholders(text)
        TEMPLATES[key] = text

    def __call__(self, **params: object) -> Phrase:
        return Phrase(self.key, self.text.format(**people_numbers(self.key, params)), params)


# Sâm Lốc and Schmier count seats and teams from 0 inside (actions, JSON, a phrase's values); people count them
# from 1, as the table and its screen do. A phrase's words say them from 1; its values keep them from 0.
COUNTED_FROM_ZERO = ("samloc.", "schmier.")
SEAT_VALUES = frozenset(
    {"seat", "player", "payer", "payee", "turn", "victim", "chopper", "declarer", "announced", "duty", "team", "last",
     "taker", "team_a", "team_b", "team_c", "dealer", "bidder", "winner"}
)


def people_numbers(key: str, params: Mapping[str, object], prefixes: Sequence[str] = COUNTED_FROM_ZERO
                   ) -> Mapping[str, object]:
    """The values of a text whose key starts with one of ``prefixes``, with its seats and teams (the values named
    in ``SEAT_VALUES``) counted from 1 as people count them; any other text's values as they are.

    >>> people_numbers("samloc.log.passes", {"seat": 0, "count": 3})
    {'seat': 1, 'count': 3}
    """
    if not key.startswith(tuple(prefixes)):
        return params
    return {
        name: value + 1 if name in SEAT_VALUES and isinstance(value, int) and not isinstance(value, bool) else value
        for name, value in params.items()
    }


SEAT_NAMES = frozenset({"seat", "player", "payer", "payee", "turn", "victim", "chopper", "declarer", "announced",
                        "duty"})
"""The values of a Sâm Lốc phrase that name a seat (not a team, a count or the last seat of a range)."""


def renumber_seats(text: str, seats: Sequence[int]) -> str:
    """A phrase of a hand dealt to some of a table's seats (a seat under the bet sat out), with its seats as the
    table numbers them: the hand's seat ``i`` is the table's ``seats[i]``. Values that are phrases are renumbered
    too; a plain string, or a hand dealt to every seat in order, is returned as it is.

    >>> phrase = PhraseTemplate("samloc.effect.goes_out", "seat {seat} goes out and wins the hand")(seat=1)
    >>> str(renumber_seats(phrase, (0, 2, 3)))
    'seat 3 goes out and wins the hand'
    """
    if not isinstance(text, Phrase) or list(seats) == list(range(len(seats))):
        return text
    params = {
        name: seats[value] if name in SEAT_NAMES and isinstance(value, int) and not isinstance(value, bool)
        and 0 <= value < len(seats) else renumber_seats(value, seats) if isinstance(value, Phrase) else value
        for name, value in text.params.items()
    }
    template = TEMPLATES.get(text.key)
    if template is None:
        return text
    return Phrase(text.key, template.format(**people_numbers(text.key, params)), params)


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# Lists of phrases: each separator joins the first item to the rest, so every item keeps its own translation.
_JOINS = {
    ", ": PhraseTemplate("list.comma", "{first}, {rest}"),
    "; ": PhraseTemplate("list.semicolon", "{first}; {rest}"),
}


def join(separator: str, items: Sequence[str]) -> str:
    """``separator.join(items)`` (the same text) that a screen can still word item by item: a phrase when there
    are two items or more, the item itself when there is one."""
    template = _JOINS[separator]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return template(first=items[0], rest=join(separator, items[1:]))
