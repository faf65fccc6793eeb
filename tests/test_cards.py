"""The card type shared by all three games: text form, parser, decks, seeded shuffling."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    JOKER,
    Card,
    CardError,
    Rank,
    Suit,
    deck_with_joker,
    parse_card,
    parse_cards,
    shuffled,
    standard_deck,
)


def test_standard_deck_has_52_distinct_cards_and_no_joker() -> None:
    deck = standard_deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert JOKER not in deck


def test_deck_with_joker_has_53_distinct_cards() -> None:
    deck = deck_with_joker()
    assert len(set(deck)) == 53
    assert JOKER in deck


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("10H", Rank.TEN, Suit.HEARTS),
        ("AS", Rank.ACE, Suit.SPADES),
        ("as", Rank.ACE, Suit.SPADES),
        ("tc", Rank.TEN, Suit.CLUBS),
        ("T♣", Rank.TEN, Suit.CLUBS),
        ("Q♥", Rank.QUEEN, Suit.HEARTS),
        ("9♦\ufe0f", Rank.NINE, Suit.DIAMONDS),
        ("2♠", Rank.TWO, Suit.SPADES),
        (" kd ", Rank.KING, Suit.DIAMONDS),
    ],
)
def test_parser_accepts_the_written_forms(token: str, rank: Rank, suit: Suit) -> None:
    assert parse_card(token) == Card(rank, suit)


def test_joker_is_written_jk() -> None:
    assert parse_card("JK") == JOKER
    assert parse_card("jk") == JOKER
    assert str(JOKER) == "JK"
    assert JOKER.is_joker and JOKER.suit is None


@pytest.mark.parametrize("token", ["1H", "11S", "AX", "10", "H", "", "A♠♠", "ZZ", "1OH"])
def test_parser_rejects_anything_else_naming_the_token(token: str) -> None:
    with pytest.raises(CardError) as error:
        parse_card(token)
    assert repr(token) in str(error.value)


@given(st.sampled_from(deck_with_joker()))
def test_text_form_round_trips(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(str(card).lower()) == card
    assert parse_card(card.pretty) == card


def test_parse_cards_checks_count_and_duplicates() -> None:
    assert parse_cards("8S QH AD 3C", count=4) == parse_cards(["8S", "QH", "AD", "3C"])
    with pytest.raises(CardError, match="expected 4 cards, got 3"):
        parse_cards("8S QH AD", count=4)
    with pytest.raises(CardError, match="8S appears twice"):
        parse_cards("8S QH 8s 3C")
    assert len(parse_cards("8S 8S", allow_duplicates=True)) == 2


def test_joker_needs_no_suit_and_other_cards_need_one() -> None:
    with pytest.raises(CardError):
        Card(Rank.ACE, None)
    with pytest.raises(CardError):
        Card(Rank.JOKER, Suit.SPADES)


def test_card_names_for_screens_and_speech() -> None:
    assert parse_card("10H").pretty == "10♥"
    assert parse_card("QS").name == "queen of spades"


def test_same_seed_same_shuffle_and_no_card_lost() -> None:
    first = shuffled(standard_deck(), seed=42)
    assert first == shuffled(standard_deck(), seed=42)
    assert first != shuffled(standard_deck(), seed=43)
    assert sorted(first, key=Card.sort_key) == sorted(standard_deck(), key=Card.sort_key)
