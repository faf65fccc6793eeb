"""Two-card hands and naturals: points, classes, the ranking and the copy, each test named after its rule."""

from __future__ import annotations

from itertools import pairwise

import pytest

from engine.baibuu import HandClass, NaturalKind, TwoCardHand, card_points, compare, is_mis_set, natural_of
from engine.baibuu.naturals import compare_naturals
from engine.cards import CardError, parse_card, parse_cards


def hand(text: str) -> TwoCardHand:
    first, second = parse_cards(text, count=2)
    return TwoCardHand.of(first, second)


@pytest.mark.parametrize(
    ("token", "points"),
    [("AS", 1), ("2H", 2), ("5D", 5), ("9C", 9), ("10S", 0), ("JH", 0), ("QD", 0), ("KC", 0)],
)
def test_card_points_ace_one_faces_and_tens_zero(token: str, points: int) -> None:
    assert card_points(parse_card(token)) == points


@pytest.mark.parametrize(("cards", "points"), [("9S 6H", 5), ("4D 9C", 3), ("KS 7H", 7), ("AS 8H", 9), ("5S 5H", 0)])
def test_points_are_the_sum_mod_10_spec_examples(cards: str, points: int) -> None:
    assert hand(cards).points == points


def test_pair_is_two_cards_of_the_same_rank() -> None:
    assert hand("7S 7H").hand_class is HandClass.PAIR
    assert hand("10S 10D").hand_class is HandClass.PAIR


def test_pairs_rank_ace_high_down_to_2s() -> None:
    order = ["AS AH", "KS KH", "QS QH", "JS JH", "10S 10H", "9S 9H", "8S 8H", "5S 5H", "3S 3H", "2S 2H"]
    for higher, lower in pairwise(order):
        assert compare(hand(higher), hand(lower)) == 1, (higher, lower)


def test_two_pictures_are_two_different_pictures_all_equal() -> None:
    for cards in ("KS QH", "KS JH", "QS JH"):
        assert hand(cards).hand_class is HandClass.TWO_PICTURES
    assert compare(hand("KS QH"), hand("QD JC")) == 0
    assert compare(hand("KS JH"), hand("KD QC")) == 0


def test_a_ten_is_not_a_picture() -> None:
    assert hand("10S KH").hand_class is HandClass.POINTS
    assert hand("10S KH").points == 0


def test_kong_is_ace_and_nine_and_beats_any_nine() -> None:
    kong = hand("AS 9H")
    assert kong.hand_class is HandClass.KONG
    assert compare(kong, hand("4S 5H")) == 1
    assert compare(kong, hand("KS 9H")) == 1


def test_two_eight_and_three_seven_are_zero_not_kong() -> None:
    for cards in ("2S 8H", "3S 7H"):
        assert hand(cards).hand_class is HandClass.POINTS
        assert hand(cards).points == 0


def test_classes_rank_pair_over_pictures_over_kong_over_points() -> None:
    assert compare(hand("2S 2H"), hand("KS QH")) == 1
    assert compare(hand("KS QH"), hand("AS 9H")) == 1
    assert compare(hand("AS 9H"), hand("9S KH")) == 1
    assert hand("2S 2H").hand_class > hand("KS QH").hand_class > hand("AS 9H").hand_class > hand("4S 5H").hand_class


def test_points_within_the_class_higher_wins_else_copy() -> None:
    assert compare(hand("4S 4H"), hand("3S 4D")) == 1  # pair over 7 points
    assert compare(hand("3S 5H"), hand("2S 5D")) == 1
    assert compare(hand("3S 5H"), hand("KS 8D")) == 0  # 8 and 8: a copy
    assert compare(hand("10S KH"), hand("2S 8D")) == 0  # 0 and 0: a copy


def test_hand_refuses_the_same_card_twice_and_the_joker() -> None:
    with pytest.raises(CardError, match="twice"):
        TwoCardHand.of(parse_card("AS"), parse_card("AS"))
    with pytest.raises(CardError, match="joker"):
        TwoCardHand.of(parse_card("JK"), parse_card("AS"))


def test_mis_set_is_low_above_high_and_equal_is_allowed() -> None:
    assert is_mis_set(hand("2S 3H"), hand("4S 5H"))
    assert not is_mis_set(hand("4S 5H"), hand("2S 3H"))
    assert not is_mis_set(hand("3S 5H"), hand("KS 8D"))  # equal is allowed


def test_describe_says_class_value_and_cards() -> None:
    assert hand("QH 8S").describe() == "8 points (QH+8S)"
    assert hand("2S 2H").describe() == "pair of 2s (2S+2H)"
    assert hand("AS 9H").describe() == "Kong (AS+9H)"
    assert hand("AS KH").value_text == "1 point"


def test_naturals_four_and_three_of_a_kind() -> None:
    four = natural_of(parse_cards("7S 7H 7D 7C"))
    three = natural_of(parse_cards("5S 5H 5D KC"))
    assert four is not None and four.kind is NaturalKind.FOUR_OF_A_KIND
    assert three is not None and three.kind is NaturalKind.THREE_OF_A_KIND
    assert natural_of(parse_cards("5S 5H KD KC")) is None


def test_naturals_four_above_three_then_by_rank_ace_high() -> None:
    four_twos = natural_of(parse_cards("2S 2H 2D 2C"))
    three_aces = natural_of(parse_cards("AS AH AD KC"))
    three_kings = natural_of(parse_cards("KS KH KD AC"))
    assert four_twos and three_aces and three_kings
    assert compare_naturals(four_twos, three_aces) == 1
    assert compare_naturals(three_aces, three_kings) == 1
    assert compare_naturals(three_kings, three_aces) == -1
