"""A casino's posted house way as data: read from JSON, checked on every hand, named wherever it is used.

The form (every key but ``name`` may be left out: it then keeps the standard house way's value)::

    {"name": "Golden Pit, posted 2026-03",
     "pair_splits": {"2": ["3+7", "4+7", "5+7", "6+7", "5+6"], "9": ["A+Z"]},
     "min_low_points": 4}

``pair_splits`` maps a pair's rank (A, 2-10, J, Q, K) to the other two cards it is split with (Z: any 10, J, Q
or K); a pair left out of a given table is never split. ``min_low_points`` is the low hand the "otherwise" rule
tries to leave. The rules themselves stay the rulebook's; a posted variant changes their data.

>>> from engine.cards import parse_cards
>>> way = house_way_from_json({"name": "no splits", "pair_splits": {}})
>>> way.name, way.split(parse_cards("2S 2H 5D 6C")).rule
('no splits', 'pair of 2s: never split, pair high')
>>> house_way_from_json({"name": "x", "pair_splits": {"2": ["3+X"]}})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.common.SettingsError: house way 'x': pair_splits of 2: pair-split pattern '3+X': write two of A 2-10 J Q K ...
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from itertools import combinations_with_replacement

from engine.baibuu.hands import is_mis_set
from engine.baibuu.house_way import STANDARD_HOUSE_WAY, STANDARD_RULES, HouseWay, PairPattern, Split
from engine.baibuu.naturals import natural_of
from engine.cards import Card, Rank, Suit
from engine.common import JSON, SettingsError

KEYS = ("name", "pair_splits", "min_low_points")
RANKS = tuple(rank for rank in Rank if rank is not Rank.JOKER)
RANK_PATTERNS = 1820
"""Four cards of 13 ranks, suits aside: C(16, 4) hands of ranks, each needing its one house-way split."""


def house_way_from_json(data: Mapping[str, JSON]) -> HouseWay:
    """A posted house way from its JSON form, checked on all 1,820 hands of ranks (``check_house_way``); a
    problem raises ``SettingsError`` naming it."""
    if not isinstance(data, Mapping):
        raise SettingsError(f'a house way is an object with {", ".join(KEYS)}, not {data!r}')
    return _load(json.dumps(data, sort_keys=True))


@lru_cache(maxsize=16)
def _load(text: str) -> HouseWay:  # a journal replays many rounds with the same way: check it once
    data = json.loads(text)
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise SettingsError(f"unknown house-way key {', '.join(map(repr, unknown))}: the keys are {', '.join(KEYS)}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or name.strip() == STANDARD_HOUSE_WAY.name:
        raise SettingsError(
            f"house way name {name!r}: give the posted way a name of its own (it is written in the journal)"
        )
    where = f"house way {name!r}"
    pair_splits: dict[Rank, tuple[PairPattern, ...]] = dict(STANDARD_HOUSE_WAY.pair_splits)
    if "pair_splits" in data:
        table = data["pair_splits"]
        if not isinstance(table, dict):
            raise SettingsError(f'{where}: pair_splits maps a pair\'s rank to its splits, e.g. {{"9": ["A+Z"]}}')
        pair_splits = {}
        for rank_text, patterns in table.items():
            rank = next((rank for rank in RANKS if rank.text == rank_text.upper()), None)
            if rank is None:
                raise SettingsError(f"{where}: pair_splits: {rank_text!r} is not a rank (A, 2-10, J, Q, K)")
            if not isinstance(patterns, list) or not all(isinstance(pattern, str) for pattern in patterns):
                raise SettingsError(f'{where}: the splits of pair {rank_text} are a list such as ["A+Z"]')
            pair_splits[rank] = tuple(patterns)
    minimum = data.get("min_low_points", STANDARD_HOUSE_WAY.min_low_points)
    if isinstance(minimum, bool) or not isinstance(minimum, int) or not 0 <= minimum <= 9:
        raise SettingsError(f"{where}: min_low_points {minimum!r} is a whole number of points 0 to 9")
    try:
        way = HouseWay(STANDARD_RULES, pair_splits=pair_splits, min_low_points=minimum, name=name.strip())
    except ValueError as error:
        wrong = next(rank.text for rank, patterns in pair_splits.items() if not _patterns_ok(patterns))
        raise SettingsError(f"{where}: pair_splits of {wrong}: {error}") from None
    check_house_way(way)
    return way


def _patterns_ok(patterns: tuple[PairPattern, ...]) -> bool:
    try:
        HouseWay(STANDARD_RULES, pair_splits={Rank.TWO: patterns})
    except ValueError:
        return False
    return True


def rank_patterns() -> list[tuple[Card, Card, Card, Card]]:
    """One hand for each of the 1,820 hands of ranks (suits given in the order S, H, D, C within a rank)."""
    hands = []
    for ranks in combinations_with_replacement(RANKS, 4):
        seen: dict[Rank, int] = {}
        cards = []
        for rank in ranks:
            cards.append(Card(rank, list(Suit)[seen.get(rank, 0)]))
            seen[rank] = seen.get(rank, 0) + 1
        hands.append((cards[0], cards[1], cards[2], cards[3]))
    return hands


def check_house_way(way: HouseWay) -> None:
    """Every hand of ranks gets exactly one split, whatever its suits, using its own four cards and never
    mis-set (a natural aside); otherwise ``SettingsError`` names the first hand that does not."""
    patterns = rank_patterns()
    assert len(patterns) == RANK_PATTERNS
    for cards in patterns:
        text = " ".join(map(str, cards))
        try:
            split = way.split_uncached(cards)
            again = way.split_uncached([_other_suit(card) for card in cards])
        except AssertionError as error:  # the rules' own guard: a split that is mis-set, or no rule deciding
            problem = "mis-sets" if "mis-set" in str(error) else "gives no split for"
            raise SettingsError(f"house way {way.name!r} {problem} {text}: {error}") from None
        except ValueError as error:
            raise SettingsError(f"house way {way.name!r} gives no split for {text}: {error}") from None
        if sorted(map(str, split.cards)) != sorted(map(str, cards)):
            raise SettingsError(f"house way {way.name!r} sets {text} with other cards: {_shown(split)}")
        if _ranks(split) != _ranks(again):
            raise SettingsError(f"house way {way.name!r} sets {text} two ways depending on the suits")
        if is_mis_set(split.high, split.low) and natural_of(cards) is None:
            raise SettingsError(f"house way {way.name!r} mis-sets {text}: {_shown(split)}")


def _other_suit(card: Card) -> Card:
    suits = list(Suit)
    assert card.suit is not None
    return Card(card.rank, suits[(suits.index(card.suit) + 2) % 4])


def _ranks(split: Split) -> tuple[tuple[Rank, ...], tuple[Rank, ...]]:
    return tuple(sorted(card.rank for card in split.high.cards)), tuple(sorted(card.rank for card in split.low.cards))


def _shown(split: Split) -> str:
    return f"high {split.high.cards_text}, low {split.low.cards_text}"


def house_way_to_json(way: HouseWay) -> dict[str, JSON]:
    """The JSON form ``house_way_from_json`` reads back to an equal house way."""
    return {
        "name": way.name,
        "pair_splits": {rank.text: list(patterns) for rank, patterns in way.pair_splits.items()},
        "min_low_points": way.min_low_points,
    }


__all__ = ["RANK_PATTERNS", "check_house_way", "house_way_from_json", "house_way_to_json", "rank_patterns"]
