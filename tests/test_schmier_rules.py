"""One named test per rule of ../shared/spec/schmier.md, in the order the spec gives them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.cards import JOKER, Card, Rank, Suit, deck_with_joker, parse_card, parse_cards
from engine.common import IllegalAction
from engine.schmier import (
    Deal,
    DealError,
    Match,
    Phase,
    Settings,
    State,
    action_from_json,
    arrange_deal,
    deal_from_json,
    effective_suit,
    game_winner,
    random_deal,
    replay,
    strength,
    team_of,
    trick_winner,
)
from engine.schmier.bidding import bidding_order
from engine.schmier.randomplay import random_action
from engine.schmier.ranks import card_points, is_trump, team_seats
from engine.schmier.scoring import award_points
from engine.schmier.tricks import Trick, legal_plays

DATA = Path(__file__).parent / "data" / "schmier"
H, D, S, C = Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS


def card(text: str) -> Card:
    return parse_card(text)


def load(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((DATA / f"{name}.json").read_text())


def replay_file(name: str, upto: int | None = None, settings: Settings | None = None) -> State:
    data = load(name)
    return replay(settings or Settings(), deal_from_json(data), data["actions"][:upto])


def fresh(dealer: int = 0, seed: int = 7) -> State:
    return State(Settings(), random_deal(random.Random(seed), dealer))


def bid_round(hand: State, bids: dict[int, int]) -> None:
    """Everyone in turn: bid the given amount or pass, until bidding ends."""
    while hand.phase is Phase.BIDDING:
        seat = hand.turn
        assert seat is not None
        if seat in bids:
            hand.bid(seat, bids[seat])
        else:
            hand.pass_bid(seat)


def heavy_trump_dealer(settings: Settings) -> State:
    """Dealer 0 holds A K Q J 10 9 of hearts and every other trump is among the kept cards; the other seats hold
    plain cards and keep them all. After the pick-up the dealer holds 23 cards: 15 trumps and 8 plain."""
    trumps_kept = "8H 7H 6H 5H 4H 3H 2H JD JK"
    plain = [c for c in deck_with_joker() if not is_trump(c, H)]
    hands = ["AH KH QH JH 10H 9H", *(" ".join(map(str, plain[i * 6 : i * 6 + 6])) for i in range(5))]
    hand = State(settings, arrange_deal(0, hands, trumps_kept))
    bid_round(hand, {1: 3})
    hand.name_trump(1, H)
    for seat in range(1, 6):
        hand.discard(seat, [])
    return hand


def plain_held_by_dealer(hand: State) -> list[Card]:
    return [c for c in hand.hands[0] + hand.kept if not is_trump(c, H)]


UNPROTECTED = parse_cards("KH QH 10H 9H 8H 7H 6H 5H 4H 3H")


# ----- players and cards


def test_partners_sit_opposite_in_three_teams_of_two() -> None:
    assert [team_of(seat) for seat in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [team_seats(team) for team in range(3)] == [(0, 3), (1, 4), (2, 5)]


def test_deck_is_52_cards_and_one_joker() -> None:
    deck = deck_with_joker()
    assert len(set(deck)) == 53 and JOKER in deck


def test_each_player_gets_6_cards_and_the_dealer_keeps_17() -> None:
    deal = random_deal(random.Random(1), dealer=2)
    assert [len(hand) for hand in deal.hands] == [6] * 6 and len(deal.kept) == 17
    assert {c for hand in deal.hands for c in hand} | set(deal.kept) == set(deck_with_joker())


def test_a_deal_with_wrong_counts_or_a_card_twice_is_refused() -> None:
    good = random_deal(random.Random(1), dealer=0).to_json()
    short = {**good, "kept": good["kept"][:-1]}
    with pytest.raises(DealError, match="the dealer keeps 16 cards"):
        deal_from_json(short)
    twice = {**good, "kept": [*good["kept"][:-1], good["hands"][0][0]]}
    with pytest.raises(DealError, match="appears twice"):
        deal_from_json(twice)
    with pytest.raises(DealError, match="dealer 6 is not a seat"):
        deal_from_json({**good, "dealer": 6})
    with pytest.raises(DealError, match="unknown card 'ZZ'"):
        deal_from_json({**good, "hands": [["ZZ", *good["hands"][0][1:]], *good["hands"][1:]]})


def test_play_and_bidding_go_clockwise_from_the_dealers_left() -> None:
    assert bidding_order(4) == (5, 0, 1, 2, 3, 4)
    hand = fresh(dealer=4)
    seen = []
    while hand.phase is Phase.BIDDING:
        seen.append(hand.turn)
        hand.pass_bid(hand.turn)  # type: ignore[arg-type]
    assert seen == [5, 0, 1, 2, 3, 4]


def test_the_first_dealer_is_drawn_at_random() -> None:
    rng = random.Random(8)
    firsts = {Match.drawn(Settings(), rng).next_dealer for _ in range(200)}
    assert firsts == set(range(6))


def test_the_deal_passes_to_the_left_each_hand() -> None:
    match = Match(Settings(), first_dealer=5)
    assert match.next_dealer == 5
    hand = match.new_hand(random_deal(random.Random(3), 5))
    bid_round(hand, {0: 3})
    hand.name_trump(0, S)
    rng = random.Random(4)
    while not hand.is_over:
        hand.apply(random_action(hand, rng))
    assert match.next_dealer == 0
    with pytest.raises(IllegalAction, match="seat 1 deals this hand, not seat 6"):
        match.new_hand(random_deal(random.Random(5), 5, match.scores))


# ----- ranks


def test_trump_ranks_A_K_Q_right_bauer_left_bauer_10_to_2_then_joker() -> None:
    order = parse_cards("AH KH QH JH JD 10H 9H 8H 7H 6H 5H 4H 3H 2H JK")
    assert sorted(order, key=lambda c: strength(c, H), reverse=True) == list(order)
    # and in play: each card beats every card after it
    for i, high in enumerate(order[:-1]):
        for low in order[i + 1 :]:
            assert trick_winner([(0, low), (1, high)], H) == 1


def test_plain_suits_rank_A_K_Q_J_10_to_2() -> None:
    order = parse_cards("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S")
    for i, high in enumerate(order[:-1]):
        assert trick_winner([(0, order[i + 1]), (1, high)], H) == 1


def test_left_bauer_and_joker_belong_to_trump_and_no_other_suit() -> None:
    assert effective_suit(card("JD"), H) is H
    assert effective_suit(card("JH"), D) is D
    assert effective_suit(card("JC"), S) is S and effective_suit(card("JS"), C) is C
    assert effective_suit(JOKER, C) is C
    assert effective_suit(card("JD"), S) is D  # not the trump's colour: an ordinary jack


def test_leading_the_left_bauer_or_the_joker_leads_trump() -> None:
    held = parse_cards("QH 5D 9S")
    assert legal_plays(held, card("JD"), H, trump_anytime=False) == (card("QH"),)
    assert legal_plays(held, JOKER, H, trump_anytime=False) == (card("QH"),)


def test_left_bauer_does_not_follow_its_printed_suit() -> None:
    # diamonds led, hearts trump: the jack of diamonds is not a diamond, so this player is void in diamonds
    assert set(legal_plays(parse_cards("JD 9S"), card("5D"), H, trump_anytime=False)) == set(parse_cards("JD 9S"))
    assert legal_plays(parse_cards("JD 7D"), card("5D"), H, trump_anytime=False) == (card("7D"),)
    # and it wins a diamond lead as a trump
    assert trick_winner([(0, card("AD")), (1, card("JD"))], H) == 1


# ----- bidding


def test_each_player_bids_once_and_bidding_ends_with_the_dealer() -> None:
    hand = fresh(dealer=0)
    bid_round(hand, {1: 3, 3: 4, 0: 5})
    assert [seat for seat, _ in hand.bids] == [1, 2, 3, 4, 5, 0]
    assert hand.phase is Phase.TRUMP and hand.bidder == 0 and hand.high_bid == 5
    with pytest.raises(IllegalAction, match="not now: the hand is in trump"):
        hand.bid(1, 6)


def test_a_bid_must_be_strictly_higher() -> None:
    hand = fresh(dealer=0)
    hand.bid(1, 4)
    with pytest.raises(IllegalAction, match="higher than seat 2's 4: bid 5 or more, or pass"):
        hand.bid(2, 4)
    assert not hand.can_bid(2, 3) and hand.can_bid(2, 5)


def test_bids_are_3_to_6() -> None:
    hand = fresh(dealer=0)
    for amount in (2, 7, 0):
        with pytest.raises(IllegalAction, match=f"a bid of {amount} is out of range: bids are 3 to 6"):
            hand.bid(1, amount)
    assert [a.amount for a in hand.legal_actions() if hasattr(a, "amount")] == [3, 4, 5, 6]


def test_a_bid_of_6_ends_the_bidding_at_once() -> None:
    hand = fresh(dealer=0)
    hand.pass_bid(1)
    record = hand.bid(2, 6)
    assert hand.phase is Phase.TRUMP and hand.turn == 2 and len(hand.bids) == 2
    assert "wins the bidding at 6" in record.describe()


def test_when_all_pass_the_cards_are_thrown_in_and_the_same_dealer_deals_again() -> None:
    match = Match(Settings(), first_dealer=3)
    hand = match.new_hand(random_deal(random.Random(2), 3))
    bid_round(hand, {})
    assert hand.phase is Phase.THROWN_IN and hand.is_over and hand.settle().thrown_in
    assert match.next_dealer == 3 and match.scores == (0, 0, 0)
    assert match.new_hand(random_deal(random.Random(9), 3)).dealer == 3


def test_there_is_no_forced_dealer_bid() -> None:
    hand = fresh(dealer=2)
    for seat in (3, 4, 5, 0, 1):
        hand.pass_bid(seat)
    assert hand.can_pass_bid(2)
    hand.pass_bid(2)
    assert hand.phase is Phase.THROWN_IN


def test_only_the_bidder_names_trump() -> None:
    hand = fresh(dealer=0)
    bid_round(hand, {4: 3})
    with pytest.raises(IllegalAction, match="seat 5 won the bidding and names trump, not seat 2"):
        hand.name_trump(1, H)
    hand.name_trump(4, D)
    assert hand.trump is D


def test_a_player_acts_only_in_turn() -> None:
    hand = fresh(dealer=0)
    with pytest.raises(IllegalAction, match="not seat 4's turn: waiting for seat 2 to bid or pass"):
        hand.bid(3, 3)


# ----- discard and replace


def test_non_dealers_discard_in_turn_from_the_dealers_left() -> None:
    hand = replay_file("made", upto=7)
    assert hand.phase is Phase.DISCARD and hand.turn == 1
    with pytest.raises(IllegalAction, match="not seat 3's turn"):
        hand.discard(2, [])
    order = []
    for action in load("made")["actions"][7:12]:
        order.append(hand.turn)
        hand.apply(action_from_json(action))
    assert order == [1, 2, 3, 4, 5] and hand.phase is Phase.DEALER_DISCARD and hand.turn == 0


def test_a_non_dealer_discards_at_most_3_cards() -> None:
    hand = replay_file("made", upto=10)  # seat 4 holds 3H 4H KS QS JS 2S
    with pytest.raises(IllegalAction, match="at most 3 cards, not 4"):
        hand.discard(4, parse_cards("KS QS JS 2S"))
    assert hand.can_discard(4, parse_cards("QS JS 2S"))


def test_a_non_dealer_may_not_discard_trump_and_the_left_bauer_and_joker_are_trump() -> None:
    hand = replay_file("made", upto=8)  # seat 2 holds JK 2H 9S 10S AD KD
    with pytest.raises(IllegalAction, match="seat 3 may not discard trump: the joker"):
        hand.discard(2, [JOKER])
    hand.discard(2, [])
    with pytest.raises(IllegalAction, match=r"may not discard trump: the left bauer \(jack of diamonds\)"):
        hand.discard(3, [card("JD")])


def test_replacements_come_from_the_kept_cards_in_turn_order() -> None:
    hand = replay_file("made", upto=12)
    assert hand.received[1] == parse_cards("2D 3D")
    assert hand.received[3] == parse_cards("4D")
    assert hand.received[4] == parse_cards("5D 6D 7D")
    assert hand.received[5] == parse_cards("KC")
    assert set(hand.hands[1]) == set(parse_cards("AH KH JH 5S 2D 3D"))


def test_the_dealer_takes_all_remaining_kept_cards_and_discards_to_6() -> None:
    hand = replay_file("made", upto=12)
    options = hand.discard_options()
    assert options.fewest == options.most == 10  # 6 + 17 - 7 replacements - 6
    with pytest.raises(IllegalAction, match="holds 16 cards and must discard exactly 10 to keep 6, not 9"):
        hand.discard(0, parse_cards("8C 7C 6C 5C 8D 9D QD 2C 3C"))
    hand.apply(action_from_json(load("made")["actions"][12]))
    assert len(hand.hands[0]) == 6 and hand.kept == [] and hand.phase is Phase.PLAY


def test_the_dealer_may_not_discard_trump_holding_6_or_fewer() -> None:
    hand = replay_file("made", upto=12)  # the dealer holds one trump, the 10 of hearts
    with pytest.raises(IllegalAction, match="holds 1 trumps and may discard a trump only when holding more than 6"):
        hand.discard(0, parse_cards("10H 7C 6C 5C 8D 9D QD 2C 3C 4C"))


def test_the_dealer_holding_more_than_6_trumps_may_discard_only_the_excess() -> None:
    hand = heavy_trump_dealer(Settings())
    plain = plain_held_by_dealer(hand)
    assert len(plain) == 8 and hand.discard_options().most_trumps == 9
    with pytest.raises(IllegalAction, match="holds 15 trumps and may discard only 9 of them, keeping 6"):
        hand.discard(0, [*plain[:7], *UNPROTECTED])
    hand.discard(0, [*plain, *UNPROTECTED[:9]])
    assert set(hand.hands[0]) == set(parse_cards("AH JH JD 2H JK 3H"))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("AH", "the ace of trump"),
        ("JH", "the right bauer"),
        ("JD", "the left bauer"),
        ("2H", "the 2 of trump"),
        ("JK", "the joker"),
    ],
)
def test_the_dealer_never_discards_the_protected_trumps(text: str, words: str) -> None:
    hand = heavy_trump_dealer(Settings())
    with pytest.raises(IllegalAction, match=f"the dealer may not discard {words}"):
        hand.discard(0, [*plain_held_by_dealer(hand), card(text), *UNPROTECTED[:8]])


def test_discarded_cards_score_for_nobody() -> None:
    hand = replay_file("made")
    discarded = [c for cards in hand.discarded.values() for c in cards]
    assert sum(map(card_points, discarded)) == 9  # JS, QS, AC, QD
    assert sum(hand.settle().card_points) == 81 - 9


@pytest.mark.parametrize("shown", [False, True])
def test_option_dealers_discarded_trumps_face_up_default_hidden(shown: bool) -> None:
    assert Settings().show_dealer_trump_discards is False
    hand = heavy_trump_dealer(Settings(show_dealer_trump_discards=shown))
    record = hand.discard(0, [*plain_held_by_dealer(hand), *UNPROTECTED[:9]])
    assert set(hand.face_up_discards()) == (set(UNPROTECTED[:9]) if shown else set())
    assert ("face up" in record.describe()) is shown


# ----- play


def test_the_bidder_leads_the_first_trick() -> None:
    hand = fresh(dealer=0)
    bid_round(hand, {3: 4})
    hand.name_trump(3, C)
    rng = random.Random(1)
    while hand.phase is not Phase.PLAY:
        hand.apply(random_action(hand, rng))
    assert hand.turn == 3


def test_a_player_must_follow_the_effective_suit_led() -> None:
    hand = replay_file("revoke", upto=15)
    with pytest.raises(IllegalAction) as error:
        hand.play(3, card("7S"))
    assert str(error.value) == (
        "must follow trump: seat 4 holds the queen of hearts, the left bauer (jack of diamonds)"
    )


def test_a_player_who_cannot_follow_plays_any_card_trump_included() -> None:
    hand = replay_file("made", upto=35)  # spades led in trick 4; seat 5 holds 8H 9H KC and no spade
    assert set(hand.legal_plays()) == set(parse_cards("8H 9H KC"))


def test_option_trump_anytime_lets_a_player_who_can_follow_play_trump() -> None:
    assert Settings().trump_anytime is False
    held = parse_cards("9S 10S JK 2H AD KD")
    assert set(legal_plays(held, card("5S"), H, trump_anytime=False)) == set(parse_cards("9S 10S"))
    assert set(legal_plays(held, card("5S"), H, trump_anytime=True)) == set(parse_cards("9S 10S JK 2H"))


def test_the_highest_trump_wins_the_trick() -> None:
    plays = [(0, card("AS")), (1, card("2H")), (2, card("KS")), (3, card("JD")), (4, card("3H")), (5, card("QS"))]
    assert trick_winner(plays, H) == 3


def test_without_trump_the_highest_card_of_the_suit_led_wins() -> None:
    plays = [(2, card("9S")), (3, card("AD")), (4, card("KS")), (5, card("AC")), (0, card("10S")), (1, card("2S"))]
    assert trick_winner(plays, H) == 4


def test_the_trick_winner_leads_the_next_trick() -> None:
    hand = replay_file("made", upto=37)  # trick 4 won by seat 5's 8H
    assert hand.tricks[-1].winner == 5 and hand.turn == 5


def test_a_hand_is_6_tricks() -> None:
    hand = replay_file("made")
    assert len(hand.tricks) == 6 and all(len(t.plays) == 6 for t in hand.tricks)
    assert all(held == [] for held in hand.hands) and hand.is_over


# ----- points of a hand


def test_high_goes_to_the_team_that_plays_the_ace_of_trump() -> None:
    high = replay_file("made").settle().points[0]
    assert (high.point, high.team, high.seat) == ("high", 1, 1)


def test_low_goes_to_the_team_that_plays_the_2_of_trump_even_when_the_trick_is_lost() -> None:
    hand = replay_file("made")
    low = hand.settle().points[1]
    assert (low.point, low.team, low.seat) == ("low", 2, 2) and hand.tricks[0].winner == 1


def test_the_bauers_and_the_joker_go_to_the_team_that_wins_their_trick() -> None:
    points = {award.point: award for award in replay_file("made").settle().points}
    assert points["right_bauer"].team == 1
    assert points["left_bauer"].team == 1  # played by seat 3 of team 0, won by seat 1
    assert points["joker"].team == 1  # played by seat 2 of team 2, won by seat 1
    assert "played by seat 4" in points["left_bauer"].reason


def test_card_points_A4_K3_Q2_J1_10_is_10_joker_1_make_81() -> None:
    values = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1, Rank.TEN: 10, Rank.JOKER: 1}
    for c in deck_with_joker():
        assert card_points(c) == values.get(c.rank, 0)
    assert sum(map(card_points, deck_with_joker())) == 81


def test_game_goes_to_the_team_with_the_most_card_points() -> None:
    result = replay_file("made").settle()
    assert result.card_points == (0, 32, 40) and result.point_teams()["game"] == 2


def test_game_tied_for_most_goes_to_nobody() -> None:
    tricks = [
        Trick(1, 0, tuple(zip(range(6), parse_cards("AH 2H JH JD JK 3H"), strict=True)), 0),  # 7 to team 0
        Trick(2, 0, tuple(zip(range(6), parse_cards("KS QS JS JC 2S 3S"), strict=True)), 1),  # 7 to team 1
        Trick(3, 1, tuple(zip(range(6), parse_cards("4S 5S 6S 7S 8S 9S"), strict=True)), 2),  # 0 to team 2
    ]
    game = award_points(tricks, H)[-1]
    assert game.point == "game" and game.team is None
    assert game.reason.startswith("nobody: team 1 and team 2 tie at 7 card points")


# ----- scoring and end


def test_a_bidding_team_that_makes_its_bid_scores_all_it_took() -> None:
    result = replay_file("made").settle()
    assert (result.bid, result.taken[1], result.made, result.hand_points[1]) == (3, 4, True, 4)


def test_a_bidding_team_that_is_set_loses_its_bid_and_may_go_negative() -> None:
    result = replay_file("set").settle()
    assert (result.bid, result.taken[1], result.made) == (5, 4, False)
    assert result.hand_points == (0, -5, 2) and result.scores_after == (0, -5, 2)


def test_the_other_teams_always_score_what_they_took() -> None:
    for name in ("made", "set"):
        assert replay_file(name).settle().hand_points[2] == 2


def test_the_game_ends_at_21_and_the_highest_total_wins() -> None:
    assert game_winner((20, 20, 20), 0) is None
    assert game_winner((21, 3, -4), 1) == 0
    assert game_winner((25, 22, 3), 1) == 0


def test_a_tie_at_21_goes_to_the_bidding_team_if_it_is_tied() -> None:
    hand = replay_file("tie_bidder_wins")
    result = hand.settle()
    assert result.scores_after == (5, 23, 23) and result.winner == 1
    assert hand.phase is Phase.GAME_OVER and hand.game_over


def test_a_tie_at_21_without_the_bidding_team_plays_another_hand() -> None:
    hand = replay_file("tie_plays_on")
    result = hand.settle()
    assert result.scores_after == (23, 4, 23) and result.winner is None
    assert hand.phase is Phase.HAND_OVER and not hand.game_over
    assert any("another hand is played" in line for line in result.lines())


def test_a_game_of_several_hands_runs_to_21() -> None:
    rng = random.Random(11)
    match = Match.drawn(Settings(), rng)
    for _ in range(2000):
        if match.is_over:
            break
        hand = match.deal_random(rng)
        while not hand.is_over:
            hand.apply(random_action(hand, rng))
    assert match.winner is not None and max(match.scores) >= 21 and match.phase == "game over"
    assert match.scores[match.winner] == max(match.scores)
    with pytest.raises(IllegalAction, match="the game is over"):
        match.deal_random(rng)


def test_deal_type_is_frozen_value() -> None:
    deal = random_deal(random.Random(1), 0)
    assert deal == Deal(deal.dealer, deal.scores, deal.hands, deal.kept)
