"""Instant wins on the deal (tới trắng): each kind, the tie-break by highest card, sharing, the sâm mode."""

from __future__ import annotations

import pytest
from test_samloc_helpers import paid, start

from engine.cards import parse_cards
from engine.samloc.instant import instant_wins_of


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("AS 2H 3D 4C 5S 6H 7D 8C 9S 10H", "10-card straight"),
        ("5S 6H 7D 8C 9S 10H JD QC KS AH", "10-card straight"),
        ("2S 2H 2D 2C 3S 5H 7D 9C JS KH", "four 2s"),
        ("6S 6H 6D 6C 9S 9H 9D 9C JS KH", "two quads"),
        ("3H 5H 7H 9H JH KD QD 10D 8D 2H", "ten cards of one colour"),
        ("3S 5C 7S 9C JS KC QS 10C 8S 4C", "ten cards of one colour"),
        ("3S 3H 5D 5C 7S 7H 9D 9C JS JH", "five pairs"),
        ("3S 3H 3D 3C 7S 7H 9D 9C JS JH", "five pairs"),  # the quad counts as two pairs
        ("3S 3H 3D 7S 7H 7D 9D 9C 9S JH", "three triples"),
        ("3S 3H 3D 3C 7S 7H 7D 9D 9C 9S", "three triples"),  # the quad counts as one triple
    ],
)
def test_each_instant_win(cards: str, name: str) -> None:
    names = [win.name for win in instant_wins_of(0, parse_cards(cards), sam_ngheo_giau=False)]
    assert name in names


@pytest.mark.parametrize(
    "cards",
    [
        "AS 2H 3D 4C 5S 6H 7D 8C 9S JH",  # nine in a row and a jack
        "KS AH 2D 3C 4S 5H 6D 7C 8S 9H",  # wraps K-A-2
        "2S 2H 2D 3C 4S 6H 7D 9C JS KH",  # three 2s
        "3S 3H 5D 5C 7S 7H 9D 9C JS QH",  # four pairs
        "3S 3H 3D 7S 7H 7D 9D 9C JS JH",  # two triples and pairs
    ],
)
def test_hands_that_are_no_instant_win(cards: str) -> None:
    assert instant_wins_of(0, parse_cards(cards), sam_ngheo_giau=False) == []


def test_sam_ngheo_and_sam_giau_count_only_in_their_mode() -> None:
    ngheo = parse_cards("3S 4H 5D 6C 7S 8H 9D AC 2S 3H")  # no 10, J, Q or K
    giau = parse_cards("10S JH QD KC AS 2H 10D JC QS KH")  # no 3 to 9
    assert instant_wins_of(0, ngheo, sam_ngheo_giau=False) == []
    assert [w.name for w in instant_wins_of(0, ngheo, sam_ngheo_giau=True)] == ["sâm nghèo (no 10, J, Q or K)"]
    assert [w.name for w in instant_wins_of(0, giau, sam_ngheo_giau=True)] == ["sâm giàu (no 3 to 9)"]


PLAIN = "3C 4D 6S 7H 8C 9D JC QH KD AC"  # no instant win


def test_an_instant_win_ends_the_hand_on_the_deal_10_bets_from_each() -> None:
    """Seat 1 has five pairs; seats 0 and 2 pay him 10 × 100 each. Nobody may play or declare."""
    hand = start([PLAIN, "3S 3H 5D 5C 7S 7D 9S 9C JS JH", "4S 5S 6H 8S 10S QS KS AS 2S 2H"])
    assert hand.is_over and hand.legal_actions() == ()
    assert not hand.can_declare_sam(0)
    assert paid(hand) == [(0, 1, 1000, "instant win: five pairs"), (2, 1, 1000, "instant win: five pairs")]
    assert hand.next_leader() == 1


def test_several_instant_wins_the_highest_qualifying_card_takes_it() -> None:
    """Seat 1 has five pairs up to jacks; seat 2 three triples with 2s (2S 2H 2D): the 2 is higher, seat 2 wins
    alone and seat 1 pays him like any other seat: 1000 each from seats 0 and 1."""
    hand = start([PLAIN, "3S 3H 5D 5C 7S 7D 9S 9C JS JH", "4S 4H 4C 8S 8H 8D 2S 2H 2D KS"])
    assert hand.outcome is not None and hand.outcome.winners == (2,)
    assert paid(hand) == [(0, 2, 1000, "instant win: three triples"), (1, 2, 1000, "instant win: three triples")]


def test_equal_highest_cards_share_each_collects_from_those_with_none_and_they_pay_each_other_nothing() -> None:
    """Seat 1: five pairs with 2S 2C; seat 2: ten red cards with 2H. Both highest cards are 2s: they share. Seat 0
    pays each 1000; seats 1 and 2 pay each other nothing."""
    hand = start([PLAIN.replace("4D", "4S").replace("AC", "AS"), "3S 3H 5S 5C 7S 7C 9S 9C 2S 2C",
                  "3D 4H 5H 5D 6H 6D 7D 8H 10H 2H"])  # fmt: skip
    assert hand.outcome is not None and hand.outcome.winners == (1, 2)
    assert paid(hand) == [(0, 1, 1000, "instant win: five pairs"), (0, 2, 1000, "instant win: ten cards of one colour")]
    assert hand.settle().nets == {0: -2000, 1: 1000, 2: 1000}
