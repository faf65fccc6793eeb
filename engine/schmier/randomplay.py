"""Random legal play, for property tests, benchmarks and demos: every choice comes from the ``Random`` given."""

from __future__ import annotations

import random

from engine.cards import Suit
from engine.schmier.actions import Action, Bid, Discard, NameTrump, Pass, Play
from engine.schmier.deal import random_deal
from engine.schmier.ranks import is_trump
from engine.schmier.settings import Settings
from engine.schmier.state import Phase, State


def random_action(hand: State, rng: random.Random, pass_chance: float = 0.8) -> Action:
    """A legal action for the seat to act, drawn without listing every dealer discard."""
    seat = hand.turn
    assert seat is not None, "the hand is over"
    if hand.phase is Phase.BIDDING:
        bids = list(range(3 if hand.high_bid is None else hand.high_bid + 1, 7))
        if not bids or rng.random() < pass_chance:
            return Pass(seat)
        # mostly the lowest bid: random play rarely makes a high one, and games should reach 21
        return Bid(seat, bids[0] if rng.random() < 0.8 else rng.choice(bids))
    if hand.phase is Phase.TRUMP:
        # the suit the bidder holds most of, ties broken at random
        counts = {suit: sum(card.suit is suit for card in hand.hands[seat]) + rng.random() for suit in Suit}
        return NameTrump(seat, max(counts, key=lambda suit: counts[suit]))
    if hand.phase in (Phase.DISCARD, Phase.DEALER_DISCARD):
        assert hand.trump is not None
        options = hand.discard_options()
        plain = [card for card in options.allowed if not is_trump(card, hand.trump)]
        trumps = [card for card in options.allowed if is_trump(card, hand.trump)]
        count = rng.randint(options.fewest, min(options.most, len(plain) + options.most_trumps))
        from_trumps = max(0, count - len(plain))
        chosen = rng.sample(plain, count - from_trumps) + rng.sample(trumps, from_trumps)
        return Discard(seat, tuple(chosen))
    return Play(seat, rng.choice(hand.legal_plays()))


def play_random_hand(
    rng: random.Random, settings: Settings | None = None, dealer: int = 0, scores: tuple[int, int, int] = (0, 0, 0)
) -> State:
    """Deal and play one hand to its end with random legal actions."""
    hand = State(settings or Settings(), random_deal(rng, dealer, scores))
    while not hand.is_over:
        hand.apply(random_action(hand, rng))
    return hand
