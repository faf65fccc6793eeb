"""Golden hands for the money of Sâm Lốc. The bet is 100 coins in every hand; each docstring works the payments
out from the rules before the engine is asked."""

from __future__ import annotations

import pytest
from test_samloc_helpers import paid, play_out, start

from engine.cards import parse_cards
from engine.common import IllegalAction
from engine.samloc import Settings

SEAT0 = "3H 4S 6H 7D 9S JS JH QD KC 2C"
SEAT1 = "3S 4H 5D 6C 7S 8H 9D 10C AS AH"


def test_each_loser_pays_one_bet_per_card_left() -> None:
    """3 seats, seat 0 leads. Seat 2 takes the first round with 2H, the second with 5S 5H, the third with KS, and
    goes out on JD in the fourth. Seat 0 played 3H KC 4S 7D QD 9S and keeps 6H JS JH 2C: 4 cards (400) and a 2
    (thối, 300). Seat 1 played 10C AS 5D 8H and keeps 6 cards (600). Seat 2 collects 1300."""
    seat2 = "3C 5S 5H 6S 8S 10S JD QC KS 2H"
    moves = [
        "0 play 3H", "1 play 10C", "2 play QC", "0 play KC", "1 play AS", "2 play 2H", "0 pass", "1 pass",
        "2 play 5S 5H", "0 pass", "1 pass",
        "2 play 3C", "0 play 4S", "1 play 5D", "2 play 6S", "0 play 7D", "1 play 8H", "2 play 10S", "0 play QD",
        "1 pass", "2 play KS", "0 pass",
        "2 play 8S", "0 play 9S", "1 pass", "2 play JD",
    ]  # fmt: skip
    hand = play_out([SEAT0, SEAT1, seat2], moves)
    assert hand.outcome is not None and hand.outcome.result == "win" and hand.outcome.winners == (2,)
    assert paid(hand) == [
        (0, 2, 400, "cards left (4)"),
        (0, 2, 300, "thối: left holding 2C"),
        (1, 2, 600, "cards left (6)"),
    ]
    assert hand.settle().nets == {0: -700, 1: -600, 2: 1300}


def test_a_loser_who_never_played_pays_for_15_cards_and_thoi_for_his_2s() -> None:
    """Seat 0 sheds 3-4-5-6-7, the 9s, the jacks, then KS alone (báo 1); seat 1 passes every time.
    Seat 1 never played: 15 cards × 100 = 1500; he still holds 2S and 2H: thối 2 × 3 × 100 = 600."""
    hands = ["3S 4H 5D 6C 7S 9S 9H JD JC KS", "3H 4D 8S 8H 10S 10H QD 2S 2H AC"]
    moves = ["0 play 3S 4H 5D 6C 7S", "1 pass", "0 play 9S 9H", "1 pass", "0 play JD JC", "1 pass", "0 play KS"]
    hand = play_out(hands, moves)
    assert paid(hand) == [
        (1, 0, 1500, "never played a card (counts as 15 cards)"),
        (1, 0, 600, "thối: left holding 2S, 2H"),
    ]


def test_thoi_counts_each_2_and_each_quad_held() -> None:
    """Seat 0 sheds his hand unanswered. Seat 1 never played: 15 cards, 1500. Seat 2 never played (1500) and holds
    2S, 2H and the quad of 8s: thối 3 × 3 × 100 = 900."""
    hands = ["3S 4H 5D 6C 7S 9S 9H JD JC KS", "3H 4D 5H 10S 10H QD QS AC 6D 7C", "8S 8H 8D 8C 2S 2H 3C 4C 9C KH"]
    moves = ["0 play 3S 4H 5D 6C 7S", "1 pass", "2 pass", "0 play 9S 9H", "1 pass", "2 pass",
             "0 play JD JC", "1 pass", "2 pass", "0 play KS"]  # fmt: skip
    hand = play_out(hands, moves)
    assert paid(hand) == [
        (1, 0, 1500, "never played a card (counts as 15 cards)"),
        (2, 0, 1500, "never played a card (counts as 15 cards)"),
        (2, 0, 900, "thối: left holding 2S, 2H, a quad of 8s"),
    ]


def test_a_quad_on_a_single_2_is_a_chop_worth_5_bets() -> None:
    """Seat 0 leads 2S, seat 1 chops with 7S 7H 7D 7C, seat 0 cannot answer a quad and passes: the round closes
    and seat 0 owes the chop, 5 × 100 = 500. Seat 1 leads 10S 10D, JD QH KS (seat 0 passes each time),
    then 3C alone and is out. Seat 0 played only 2S: 9 cards × 100 = 900. Seat 0 pays 1400 in all."""
    hands = ["2S 5H 6D 8C 9S JH QD KC AS 4D", "7S 7H 7D 7C 10S 10D JD QH KS 3C"]
    moves = ["0 play 2S", "1 play 7S 7H 7D 7C", "0 pass", "1 play 10S 10D", "0 pass", "1 play JD QH KS", "0 pass",
             "1 play 3C"]  # fmt: skip
    hand = play_out(hands, moves)
    assert "seat 2 chops seat 1's 2S: 5×bet (500)" in hand.history[1].describe()
    assert paid(hand) == [(0, 1, 900, "cards left (9)"), (0, 1, 500, "chop")]
    assert hand.settle().nets == {0: -1400, 1: 1400}


OVERKILL_HANDS = [
    "2H 3S 4D 6H 8S 10S 10H QS AS AH",
    "5S 5H 5D 5C 3D 4C 7S 8H 10D QD",
    "9S 9H 9D 9C 3H 4H 6C 7C QH KC",
    "JS JH JD JC 6S 7H 8D KS KH 3C",
]


def test_overkill_grows_the_chain_by_5_bets_capped_at_10_and_only_the_last_beaten_pays_the_last_chopper() -> None:
    """Seat 0 leads 2H; seat 1 chops with the 5s (chain 5×bet); seat 2 overkills with the 9s (10×bet); seat 3
    overkills with the jacks (15 capped to 10×bet). All pass: seat 2, the last beaten, pays seat 3 10 × 100 =
    1000; seats 0 and 1 owe nothing for the chain. Seat 3 then sheds 6S 7H 8D, KS KH, 3C unanswered and wins:
    seat 0 left 9 cards (900), seat 1 and seat 2 six each (600 + 600)."""
    moves = ["0 play 2H", "1 play 5S 5H 5D 5C", "2 play 9S 9H 9D 9C", "3 play JS JH JD JC", "0 pass", "1 pass",
             "2 pass", "3 play 6S 7H 8D", "0 pass", "1 pass", "2 pass", "3 play KS KH", "0 pass", "1 pass", "2 pass",
             "3 play 3C"]  # fmt: skip
    hand = play_out(OVERKILL_HANDS, moves)
    assert paid(hand) == [
        (0, 3, 900, "cards left (9)"),
        (1, 3, 600, "cards left (6)"),
        (2, 3, 600, "cards left (6)"),
        (2, 3, 1000, "overkill (2 on the chop)"),
    ]
    assert hand.settle().nets == {0: -900, 1: -600, 2: -1600, 3: 3100}


def test_a_chop_chain_is_settled_when_its_round_closes() -> None:
    """After seat 2's overkill the chain (10×bet, seat 1 owes seat 2) is open; it is paid only at the round's end."""
    moves = ["0 play 2H", "1 play 5S 5H 5D 5C", "2 play 9S 9H 9D 9C"]
    hand = play_out(OVERKILL_HANDS, moves)
    assert hand.chain is not None and (hand.chain.victim, hand.chain.chopper, hand.chain.value_bets) == (1, 2, 10)
    assert hand.chops == ()
    for seat in (3, 0, 1):
        hand.pass_(seat)
    assert [(p.payer, p.payee, p.amount) for p in hand.chops] == [(1, 2, 1000)]


def test_a_quad_beating_a_led_quad_is_no_chop() -> None:
    """Seat 1 leads the quad of 5s (no 2 beaten), seat 2 beats it with the 9s: nothing is owed for it."""
    hands = [OVERKILL_HANDS[1], OVERKILL_HANDS[2], OVERKILL_HANDS[0]]
    hand = play_out(hands, ["0 play 5S 5H 5D 5C", "1 play 9S 9H 9D 9C", "2 pass", "0 pass"])
    assert hand.chain is None and hand.chops == ()


def test_option_quad_beats_pair_of_twos_chops_both_2s() -> None:
    """With quad_beats_pair_of_twos on, the 5s may beat a pair of 2s; (decision) each 2 counts 5×bet, capped at
    10×bet: 1000. Off (the default) the quad may not answer a pair."""
    hands = ["2H 2D 3S 4D 6H 8S 10S 10H QS AS", "5S 5H 5D 5C 3D 4C 7S 8H 10D QD"]
    off = play_out(hands, ["0 play 2H 2D"])
    with pytest.raises(IllegalAction, match="can only be beaten by a higher pair"):
        off.play(1, parse_cards("5S 5H 5D 5C"))
    on = play_out(hands, ["0 play 2H 2D", "1 play 5S 5H 5D 5C", "0 pass"], quad_beats_pair_of_twos=True)
    assert [(p.payer, p.payee, p.amount) for p in on.chops] == [(0, 1, 1000)]


BAO1_HANDS = ["3H 4S 6H 7D 9S JS JC KD KH 2C", "3S 4H 5D 6C 7S 8H 9D 10C QH AD", "2H 4D 5S 6S 8S 10S JH QC KC AC"]


def test_bao1_breach_pays_for_everyone_when_the_announced_player_goes_out_that_round() -> None:
    """Seat 1 leads 3…10 (8 cards), all pass; seat 1 leads QH, keeping AD (báo 1: seat 0 is before him).
    Seat 2 passes; seat 0 plays KH — not his highest single (2C): a breach; seat 1 goes out with AD that round.
    Seat 0 pays for everyone: his own 9 cards (900) and thối for 2C (300), and seat 2's 15 cards (1500) and
    thối for 2H (300): 3000 in all. Seat 2 pays nothing."""
    moves = ["1 play 3S 4H 5D 6C 7S 8H 9D 10C", "2 pass", "0 pass", "1 play QH", "2 pass", "0 play KH", "1 play AD"]
    hand = play_out(BAO1_HANDS, moves, leader=1)
    assert paid(hand) == [
        (0, 1, 900, "báo 1, pays for everyone: seat 1's cards left (9)"),
        (0, 1, 300, "báo 1, pays for everyone: seat 1's thối: left holding 2C"),
        (0, 1, 1500, "báo 1, pays for everyone: seat 3's never played a card (counts as 15 cards)"),
        (0, 1, 300, "báo 1, pays for everyone: seat 3's thối: left holding 2H"),
    ]
    assert hand.settle().nets == {0: -3000, 1: 3000, 2: 0}


def test_a_bao1_breach_in_an_earlier_round_costs_nothing_extra() -> None:
    """As above, but seat 1 passes on KH: the round closes; seat 0 leads 2C (his highest), then JS JC, then KD
    (his highest by then), and seat 1 goes out with AD in that later round. Each loser pays his own: seat 0 keeps
    3H 4S 6H 7D 9S (500); seat 2 never played (1500) and holds 2H (thối 300)."""
    moves = ["1 play 3S 4H 5D 6C 7S 8H 9D 10C", "2 pass", "0 pass", "1 play QH", "2 pass", "0 play KH", "1 pass",
             "0 play 2C", "1 pass", "2 pass", "0 play JS JC", "1 pass", "2 pass", "0 play KD", "1 play AD"]  # fmt: skip
    hand = play_out(BAO1_HANDS, moves, leader=1)
    assert [b.round_no for b in hand.breaches] == [1]
    assert paid(hand) == [
        (0, 1, 500, "cards left (5)"),
        (2, 1, 1500, "never played a card (counts as 15 cards)"),
        (2, 1, 300, "thối: left holding 2H"),
    ]


def test_going_out_on_a_2_is_thoi_3_bets_to_every_other_player_and_nothing_else() -> None:
    """Seat 1 leads 2H, seat 0 chops it with the 9s (a 500 chop, settled when seat 1 passes), leads 3-4-5-6-7,
    and goes out on 2S: thối. He pays 3 × 100 to seat 1 and the chop he earned is void."""
    hands = ["9S 9H 9D 9C 3S 4H 5D 6C 7S 2S", "2H 3H 4D 8S 8H JD QS KS KH AC"]
    moves = ["1 play 2H", "0 play 9S 9H 9D 9C", "1 pass", "0 play 3S 4H 5D 6C 7S", "1 pass", "0 play 2S"]
    hand = play_out(hands, moves, leader=1)
    assert [(p.payer, p.payee, p.amount) for p in hand.chops] == [(1, 0, 500)]
    assert hand.outcome is not None and hand.outcome.result == "thoi_finish"
    assert paid(hand) == [(0, 1, 300, "going out on a 2 (thối)")]


def test_sam_success_collects_10_bets_from_each_and_counts_no_cards() -> None:
    """Seat 1 declares, sheds 3…10 and AS AH unbeaten: seats 0 and 2 pay 10 × 100 each; seat 0's 2C is not
    counted as thối."""
    moves = ["1 sam", "1 play 3S 4H 5D 6C 7S 8H 9D 10C", "2 pass", "0 pass", "1 play AS AH"]
    hand = play_out([SEAT0, SEAT1, "2H 5S 5H 6S 8S 10S JD QC KS AC"], moves)
    assert paid(hand) == [(0, 1, 1000, "sâm"), (2, 1, 1000, "sâm")]


def test_sam_failure_pays_10_bets_to_each_and_chops_still_stand() -> None:
    """Seat 1 declares and leads 2H; seat 2 chops it with the 9s: sâm fails at once. Seat 1 pays 1000 to seat 0
    and to seat 2, and the chop, 500, to seat 2: -2500 in all."""
    hands = ["3H 4S 6H 7D 10S JS JH QD KC 2C", "3S 4H 5D 6C 7S 8H 10D 10C AS 2H", "9S 9H 9D 9C 5S 5H 6S 8S QC KS"]
    hand = play_out(hands, ["1 sam", "1 play 2H", "2 play 9S 9H 9D 9C"])
    assert paid(hand) == [(1, 0, 1000, "sâm failed"), (1, 2, 1000, "sâm failed"), (1, 2, 500, "chop")]
    assert hand.settle().nets == {0: 1000, 1: -2500, 2: 1500}


def test_nets_sum_to_zero_and_balances_update() -> None:
    settings = Settings(bet=100, balances=(5000, 300, 100))
    hands = ["3S 4H 5D 6C 7S 9S 9H JD JC KS", "3H 4D 5H 10S 10H QD QS AC 6D 7C", "8S 8H 8D 8C 2S 2H 3C 4C 9C KH"]
    hand = start(hands, bet=100, balances=(5000, 300, 100))
    for move in ["0 play 3S 4H 5D 6C 7S", "1 pass", "2 pass", "0 play 9S 9H", "1 pass", "2 pass",
                 "0 play JD JC", "1 pass", "2 pass", "0 play KS"]:  # fmt: skip
        seat, verb, *cards = move.split()
        if verb == "pass":
            hand.pass_(int(seat))
        else:
            hand.play(int(seat), parse_cards(cards))
    settlement = hand.settle()
    assert sum(settlement.nets.values()) == 0
    # seat 1: 1500; seat 2: 1500 + thối 3 × 300 = 2400. Paid in full even below zero.
    assert settlement.balances_after(settings.balances or ()) == (5000 + 3900, 300 - 1500, 100 - 2400)


def test_settle_before_the_end_is_refused() -> None:
    with pytest.raises(IllegalAction, match="the hand is not over: seat 1 is to play"):
        start([SEAT0, SEAT1]).settle()
