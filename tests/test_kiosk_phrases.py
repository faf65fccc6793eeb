"""The Bài Bửu engine's own words (house-way lines, settlement reasons) on a Vietnamese screen."""

from __future__ import annotations

import copy
import pickle
from itertools import combinations

import pytest

import engine.baibuu  # (registers the Bài Bửu phrase templates)
import engine.samloc  # noqa: F401  (registers the Sâm Lốc phrase templates)
import kiosk.journal_place  # (registers the kiosk's own phrase templates: where the journal lives,
import kiosk.supervisors  # noqa: F401  (its sign-in problems: every phrase worded in one catalogue)
from engine.baibuu.hands import TwoCardHand
from engine.baibuu.house_way import house_way
from engine.baibuu.settings import CopyRule, Settings
from engine.baibuu.settlement import SetHand, settle_seat
from engine.cards import Card, Rank, Suit, parse_card
from engine.phrases import TEMPLATES, Phrase, placeholders
from kiosk.i18n import PHRASES_VI, Catalogue

# Words that only the English lines use: none may be left on the Vietnamese screen.
ENGLISH_WORDS = ("pair of", "high", "low", "never", "split", "points", "wins", "house", "seat", "copy", "natural")


def cards(text: str) -> list[Card]:
    return [parse_card(token) for token in text.split()]


def test_every_engine_phrase_has_a_vietnamese_wording_with_the_same_values() -> None:
    assert TEMPLATES, "the engine registered no phrases"
    missing, unknown = sorted(set(TEMPLATES) - set(PHRASES_VI)), sorted(set(PHRASES_VI) - set(TEMPLATES))
    assert not missing and not unknown, f"missing: {missing}; unknown: {unknown}"
    for key, english in TEMPLATES.items():
        assert placeholders(PHRASES_VI[key]) == placeholders(english), key


def test_a_phrase_is_the_english_text_and_keeps_its_key_through_copy_and_pickle() -> None:
    split = house_way(cards("2S 2H 5D 6C"))
    assert split.rule == "pair of 2s with 5+6: split"
    assert isinstance(split.rule, Phrase) and split.rule.key == "way.pair_split"
    for clone in (copy.deepcopy(split.rule), pickle.loads(pickle.dumps(split.rule))):
        assert clone == split.rule and clone.key == split.rule.key and clone.params == split.rule.params


def test_the_house_way_line_is_vietnamese_for_every_set_of_ranks() -> None:
    vi, en = Catalogue("vi"), Catalogue("en")
    ranks = [r for r in Rank if r is not Rank.JOKER]
    suits = list(Suit)
    seen_keys = set()
    for four in combinations(range(len(ranks) * 4), 4):
        if four[0] % 4 or four[0] >= 4 * 4:  # a sample: hands starting with a spade of the four lowest ranks
            continue
        hand = [Card(ranks[i // 4], suits[i % 4]) for i in four]
        split = house_way(hand)
        seen_keys.add(split.rule.key)
        line = vi.phrase(split.rule)
        assert en.phrase(split.rule) == str(split.rule)
        assert not any(word in line for word in ENGLISH_WORDS), (hand, line)
    assert len(seen_keys) >= 10, seen_keys


@pytest.mark.parametrize("seat_cards, house_cards, expected", [
    ("9S 8H 2D 3C", "KS QH 5D 2C", "tay cao: 7 điểm (9♠+8♥) so với công lớn (K♠+Q♥) của nhà cái: nhà cái thắng"),
    ("7S 7H 7D 2C", "KS KH 5D 2C", "bài tự nhiên sám cô 7 thắng mọi bài không phải bài tự nhiên: ghế thắng"),
])
def test_a_seats_reasons_are_vietnamese(seat_cards: str, house_cards: str, expected: str) -> None:
    settings = Settings(copy_rule=CopyRule.HOUSE)
    seat = cards(seat_cards)
    house = cards(house_cards)
    seat_hand = SetHand(TwoCardHand.of(seat[0], seat[1]), TwoCardHand.of(seat[2], seat[3]))
    house_hand = SetHand(TwoCardHand.of(house[0], house[1]), TwoCardHand.of(house[2], house[3]))
    result = settle_seat(2, 100, seat_hand, house_hand, settings)
    words = [Catalogue("vi").phrase(reason) for reason in result.reasons]
    assert words[0] == expected, words
    for line in words:
        assert not any(word in line for word in ENGLISH_WORDS), line
