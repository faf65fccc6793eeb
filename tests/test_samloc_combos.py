"""Cards and combinations of Sâm Lốc: rank order, sets, straights and what beats what."""

from __future__ import annotations

from itertools import combinations, pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import parse_cards, standard_deck
from engine.samloc import Kind, all_combos, beats, classify
from engine.samloc.combos import why_not_beaten


def combo(text: str):  # type: ignore[no-untyped-def]
    found = classify(parse_cards(text))
    assert found is not None, text
    return found


def test_rank_order_puts_the_2_on_top_and_the_3_at_the_bottom() -> None:
    order = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    for low, high in pairwise(order):
        assert beats(combo(low + "S"), combo(high + "H"), quad_beats_pair_of_twos=False)
        assert not beats(combo(high + "S"), combo(low + "H"), quad_beats_pair_of_twos=False)


def test_suits_never_matter_equal_ranks_never_beat_each_other() -> None:
    assert not beats(combo("9S"), combo("9H"), quad_beats_pair_of_twos=False)
    assert not beats(combo("9H"), combo("9S"), quad_beats_pair_of_twos=False)
    reason = why_not_beaten(combo("7S 7C"), combo("7H 7D"), quad_beats_pair_of_twos=False)
    assert reason is not None and "equal ranks" in reason


@pytest.mark.parametrize(
    ("cards", "kind"),
    [("5S", Kind.SINGLE), ("5S 5H", Kind.PAIR), ("5S 5H 5D", Kind.TRIPLE), ("5S 5H 5D 5C", Kind.QUAD)],
)
def test_sets_of_one_rank(cards: str, kind: Kind) -> None:
    assert combo(cards).kind is kind


@pytest.mark.parametrize("cards", ["AS 2H 3D", "2S 3H 4D", "QS KH AD", "AS 2H 3D 4C", "3S 4H 5D 6C 7S 8H 9D 10C JS QH"])
def test_straights_with_the_ace_low_or_high_and_the_2_at_the_low_end(cards: str) -> None:
    assert combo(cards).kind is Kind.STRAIGHT


@pytest.mark.parametrize("cards", ["KS AH 2D", "QS KH AD 2C", "AS 2H 3D KC", "3S 4H", "3S 4H 6D", "5S 5H 6D 7C"])
def test_not_combinations(cards: str) -> None:
    """K-A-2 wraps through the ace to the 2; two-card runs, gaps and repeated ranks make no straight."""
    assert classify(parse_cards(cards)) is None


def test_straights_of_equal_length_rank_by_their_place_in_the_sequence() -> None:
    ladder = ["AS 2H 3D", "2S 3H 4D", "3S 4H 5D", "10S JH QD", "JS QH KD", "QS KH AD"]
    for low, high in pairwise(ladder):
        assert beats(combo(low), combo(high), quad_beats_pair_of_twos=False), (low, high)
        assert not beats(combo(high), combo(low), quad_beats_pair_of_twos=False)


def test_only_the_same_kind_and_length_answers() -> None:
    assert not beats(combo("3S 4H 5D"), combo("4S 5H 6D 7C"), quad_beats_pair_of_twos=False)
    assert not beats(combo("5S"), combo("9S 9H"), quad_beats_pair_of_twos=False)
    assert not beats(combo("5S 5H"), combo("9S 9H 9D"), quad_beats_pair_of_twos=False)
    assert why_not_beaten(combo("7S 7H"), combo("9S"), quad_beats_pair_of_twos=False) == (
        "a pair of 7s can only be beaten by a higher pair"
    )


def test_a_quad_beats_a_single_2_and_lower_quads_and_nothing_else() -> None:
    quad = combo("6S 6H 6D 6C")
    assert beats(combo("2S"), quad, quad_beats_pair_of_twos=False)
    assert beats(combo("5S 5H 5D 5C"), quad, quad_beats_pair_of_twos=False)
    assert not beats(combo("7S 7H 7D 7C"), quad, quad_beats_pair_of_twos=False)
    for other in ["AS", "2S 2H", "2S 2H 2D", "3S 4H 5D 6C"]:
        assert not beats(combo(other), quad, quad_beats_pair_of_twos=False), other


def test_option_quad_beats_pair_of_twos() -> None:
    assert beats(combo("2S 2H"), combo("6S 6H 6D 6C"), quad_beats_pair_of_twos=True)
    assert not beats(combo("2S 2H 2D"), combo("6S 6H 6D 6C"), quad_beats_pair_of_twos=True)


def test_the_words_a_dealer_sees() -> None:
    assert why_not_beaten(combo("9S 9H"), combo("7S 7H"), quad_beats_pair_of_twos=False) == (
        "a pair of 7s does not beat a pair of 9s"
    )
    assert combo("AS 2H 3D").describe() == "a straight A-2-3"
    assert combo("QS KH AD").describe() == "a straight Q-K-A"


@given(st.lists(st.sampled_from(standard_deck()), min_size=1, max_size=10, unique=True))
def test_every_generated_combination_is_recognised_and_every_subset_that_is_one_is_generated(cards: list) -> None:  # type: ignore[type-arg]
    generated = {frozenset(found.cards) for found in all_combos(cards)}
    for found in all_combos(cards):
        assert classify(found.cards) == classify(tuple(reversed(found.cards)))
        assert classify(found.cards) is not None
    subsets = {
        frozenset(sub) for size in range(1, len(cards) + 1) for sub in combinations(cards, size) if classify(sub)
    }
    assert generated == subsets
    assert len(generated) == len(all_combos(cards))  # each distinct set once
