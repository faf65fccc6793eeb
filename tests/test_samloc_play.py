"""Golden hands for the play rules of Sâm Lốc: turns, rounds, passing, the timer, báo 1, sâm, who leads."""

from __future__ import annotations

import pytest
from test_samloc_helpers import play_out, start

from engine.cards import parse_cards
from engine.common import IllegalAction
from engine.samloc import DeclareSam, Kind, PlayCards, Settings, State, leader_of_next_hand

# Two seats, used by several tests. Seat 0 holds no pair above J; seat 1 a long straight and a pair of aces.
SEAT0 = "3H 4S 6H 7D 9S JS JH QD KC 2C"
SEAT1 = "3S 4H 5D 6C 7S 8H 9D 10C AS AH"


def test_the_leader_plays_any_combination_and_cannot_pass() -> None:
    hand = start([SEAT0, SEAT1], leader=0)
    assert hand.turn == 0 and hand.leading
    with pytest.raises(IllegalAction, match="seat 1 leads this round and cannot pass"):
        hand.pass_(0)
    kinds = {combo.kind for combo in hand.legal_plays(0)}
    assert kinds == {Kind.SINGLE, Kind.PAIR, Kind.STRAIGHT}  # J-Q-K is there: JS/JH, QD, KC


def test_answers_must_be_the_same_kind_and_length_and_higher() -> None:
    hand = play_out([SEAT0, SEAT1, "5S 5H 6S 8S 10S JD QC KS 2H 2D"], ["0 play JS JH", "1 pass"])
    with pytest.raises(IllegalAction, match="a pair of 5s does not beat a pair of jacks"):
        hand.play(2, parse_cards("5S 5H"))
    with pytest.raises(IllegalAction, match="a pair of jacks can only be beaten by a higher pair"):
        hand.play(2, parse_cards("KS"))
    assert [combo.cards for combo in hand.legal_plays(2)] == [parse_cards("2H 2D")]


def test_a_pass_is_for_the_rest_of_the_round() -> None:
    """3 seats: seat 0 leads 3H, seat 1 passes, seat 2 plays 5S; seat 0 plays 9S; seat 1 may not come back."""
    hand = play_out(
        ["3H 4S 6H 7D 9S JS JH QD KC 2C", "3S 4H 5D 6C 7S 8H 9D 10C AS AH", "5S 5H 6S 8S 10S JD QC KS 2H 2D"],
        ["0 play 3H", "1 pass", "2 play 5S", "0 play 9S"],
    )
    assert hand.turn == 2  # seat 1 is skipped
    assert not hand.can_play(1, parse_cards("AS"))
    with pytest.raises(IllegalAction, match="seat 2 passed this round"):
        hand.play(1, parse_cards("AS"))


def test_when_everyone_else_has_passed_the_last_player_leads_a_new_round() -> None:
    hand = play_out(
        ["3H 4S 6H 7D 9S JS JH QD KC 2C", "3S 4H 5D 6C 7S 8H 9D 10C AS AH", "5S 5H 6S 8S 10S JD QC KS 2H 2D"],
        ["0 play 3H", "1 pass", "2 play 5S", "0 pass"],
    )
    assert hand.turn == 2 and hand.leading and hand.top is None
    assert hand.passed == frozenset()
    assert "everyone else passed: seat 3 leads a new round" in hand.history[-1].describe()


def test_turns_go_clockwise_and_only_the_player_to_act_may_act() -> None:
    hand = start([SEAT0, SEAT1, "5S 5H 6S 8S 10S JD QC KS 2H 2D"], leader=2)
    assert hand.turn == 2
    with pytest.raises(IllegalAction, match="it is seat 3's turn, not seat 1's"):
        hand.play(0, parse_cards("3H"))
    hand.play(2, parse_cards("5S"))
    assert hand.turn == 0


def test_a_play_needs_cards_the_player_holds_that_make_a_combination() -> None:
    hand = start([SEAT0, SEAT1])
    with pytest.raises(IllegalAction, match="seat 1 does not hold AS"):
        hand.play(0, parse_cards("AS"))
    with pytest.raises(IllegalAction, match="is not a combination"):
        hand.play(0, parse_cards("3H 9S"))


def test_timer_a_player_who_may_pass_passes() -> None:
    hand = play_out([SEAT0, SEAT1], ["0 play 3H", "1 timeout"])
    record = hand.history[-1]
    assert record.to_json() == {"kind": "timeout", "seat": 1}
    assert "time ran out: he passes" in record.describe()
    assert hand.turn == 0 and hand.leading  # seat 1's pass closed the round


def test_timer_a_player_who_must_lead_plays_his_lowest_single() -> None:
    hand = play_out([SEAT0, SEAT1], ["0 timeout"])
    assert hand.top is not None and [str(c) for c in hand.top.cards] == ["3H"]
    assert hand.history[-1].to_json() == {"kind": "timeout", "seat": 0}


def test_timer_under_the_bao1_duty_leads_the_highest_single_by_default() -> None:
    """Seat 1 sheds 9 cards, leaving AH; seat 0 (just before him) then leads on the timer: 2C, not 3H.
    With ``timeout_keeps_bao1_duty`` off he leads 3H and breaks the duty."""
    moves = ["1 play 3S 4H 5D 6C 7S 8H 9D 10C", "0 pass", "1 play AS", "0 play 2C", "1 pass", "0 timeout"]
    hand = play_out([SEAT0, SEAT1], moves, leader=1)
    assert hand.top is not None and [str(c) for c in hand.top.cards] == ["KC"]
    assert hand.breaches == ()
    hand = play_out([SEAT0, SEAT1], moves, leader=1, timeout_keeps_bao1_duty=False)
    assert hand.top is not None and [str(c) for c in hand.top.cards] == ["3H"]
    assert len(hand.breaches) == 1 and "báo 1 broken" in hand.history[-1].describe()


def test_bao1_is_announced_and_the_seat_before_must_play_his_highest_single() -> None:
    hand = play_out([SEAT0, SEAT1], ["1 play 3S 4H 5D 6C 7S 8H 9D 10C", "0 pass", "1 play AS"], leader=1)
    assert "báo 1: seat 2 has one card left; seat 1 must play his highest single" in hand.history[-1].describe()
    assert [(duty.seat, duty.announced) for duty in hand.bao1_duties()] == [(0, 1)]
    assert hand.highest_single(0) == parse_cards("2C")[0]
    hand.play(0, parse_cards("2C"))  # his highest: no breach
    assert hand.breaches == ()


def test_the_bao1_duty_is_not_a_refusal_a_lower_single_is_allowed_but_recorded() -> None:
    """Seat 1 has AH left; seat 0 leads a new round. KC (his highest once 2C is gone) keeps the duty; 3H breaks it."""
    moves = ["1 play 3S 4H 5D 6C 7S 8H 9D 10C", "0 pass", "1 play AS", "0 play 2C", "1 pass"]
    hand = play_out([SEAT0, SEAT1], moves, leader=1)
    assert PlayCards(0, parse_cards("3H")) in hand.legal_actions()
    kept = hand.copy()
    assert "báo 1 broken" not in kept.play(0, parse_cards("KC")).describe()
    assert kept.breaches == ()
    record = hand.play(0, parse_cards("3H"))
    assert "báo 1 broken: seat 1 did not play his highest single (KC)" in record.describe()
    assert [(b.seat, b.announced, b.round_no) for b in hand.breaches] == [(0, 1, 2)]


def test_declare_sam_only_after_the_deal_before_any_play_and_only_once() -> None:
    hand = start([SEAT0, SEAT1], leader=0)
    assert hand.can_declare_sam(0) and hand.can_declare_sam(1)
    hand.declare_sam(1)
    assert hand.turn == 1  # the declarer leads
    with pytest.raises(IllegalAction, match="seat 2 already declared sâm"):
        hand.declare_sam(0)
    late = play_out([SEAT0, SEAT1], ["0 play 3H"])
    with pytest.raises(IllegalAction, match="before the first card is played"):
        late.declare_sam(1)


def test_the_sam_declarer_leads_and_wins_by_going_out_unbeaten() -> None:
    hand = play_out([SEAT0, SEAT1], ["1 sam", "1 play 3S 4H 5D 6C 7S 8H 9D 10C", "0 pass", "1 play AS AH"])
    assert hand.is_over and hand.outcome is not None and hand.outcome.result == "sam_success"
    assert hand.next_leader() == 1


def test_sam_fails_as_soon_as_a_play_of_the_declarer_is_beaten() -> None:
    hand = play_out([SEAT0, SEAT1], ["1 sam", "1 play 10C", "0 play 2C"])
    assert hand.is_over and hand.outcome is not None
    assert (hand.outcome.result, hand.outcome.blocker) == ("sam_fail", 0)
    assert hand.next_leader() == 0  # the blocker leads the next hand


def test_sam_fails_when_the_declarer_would_go_out_on_a_2() -> None:
    seat1 = "3S 4H 5D 6C 7S 8H 9D 10C KS 2H"
    moves = ["1 sam", "1 play 3S 4H 5D 6C 7S 8H 9D 10C", "0 pass", "1 play KS", "0 pass", "1 play 2H"]
    hand = play_out([SEAT0, seat1], moves)
    assert hand.outcome is not None and hand.outcome.result == "sam_fail" and hand.outcome.blocker is None
    assert "would go out on a 2: sâm fails" in hand.history[-1].describe()


def test_the_room_owner_leads_the_first_hand_and_the_winner_the_next() -> None:
    settings = Settings(bet=100, room_owner=1)
    assert leader_of_next_hand(settings, None) == 1
    hand = play_out([SEAT0, SEAT1], ["0 play 3H", "1 play 10C", "0 play 2C", "1 pass", "0 play JS JH", "1 pass",
                                     "0 play 4S", "1 play AS", "0 pass", "1 play 3S 4H 5D 6C 7S 8H 9D",
                                     "0 pass", "1 play AH"], leader=0)  # fmt: skip
    assert hand.outcome is not None and hand.outcome.result == "win" and hand.outcome.winners == (1,)
    assert leader_of_next_hand(settings, hand) == 1


def test_no_action_after_the_hand_is_over() -> None:
    hand = play_out([SEAT0, SEAT1], ["1 play 3S 4H 5D 6C 7S 8H 9D 10C", "0 pass", "1 play AS AH"], leader=1)
    assert hand.legal_actions() == ()
    with pytest.raises(IllegalAction, match="the hand is over"):
        hand.timeout(0)


def test_state_is_a_value_copy_and_json_round_trip() -> None:
    hand = play_out([SEAT0, SEAT1], ["0 play 3H", "1 play 5D"])
    twin = hand.copy()
    twin.pass_(0)
    assert twin != hand and hand.turn == 0
    assert State.from_json(hand.to_json()) == hand


def test_before_the_first_play_each_seat_from_the_would_be_leader_may_declare() -> None:
    hand = State(Settings(bet=100), start([SEAT0, SEAT1, "5S 5H 6S 8S 10S JD QC KS 2H 2D"], leader=2).deal)
    declares = [action.seat for action in hand.legal_actions() if isinstance(action, DeclareSam)]
    assert declares == [2, 0, 1]
    hand.timeout(2)  # the leader's timer: he leads his lowest single, and the chance to declare is gone
    assert hand.top is not None and [str(card) for card in hand.top.cards] == ["5S"]
    assert not any(isinstance(action, DeclareSam) for action in hand.legal_actions())
