"""One hand of Schmier as a value: bidding, trump, discards, the dealer's pick-up, 6 tricks and the score.

Built from the settings and a ``Deal``; every action is checked (``verify_…`` / ``can_…``) and applied
(``bid``, ``pass_bid``, ``name_trump``, ``discard``, ``play``), returning a ``Record``. The state is fully
determined by its settings, deal and actions, which is what ``to_json`` stores and ``replay`` rebuilds.

>>> import random
>>> from engine.schmier.deal import random_deal
>>> state = State(Settings(), random_deal(random.Random(1), dealer=0))
>>> state.waiting_for()
'seat 2 to bid or pass'
>>> state.legal_actions()[:2]
[Pass(seat=1), Bid(seat=1, amount=3)]
>>> state.can(Bid(seat=2, amount=3))
False
>>> state.apply(Bid(seat=1, amount=3)).describe()
'seat 2 bids 3'
>>> State.from_json(state.to_json()) == state
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Self

from engine.cards import Card, Suit
from engine.common import JSON, IllegalAction, answers_yes, record_actions, replay_actions
from engine.errors import InputError
from engine.phrases import PhraseTemplate, join
from engine.schmier import bidding, discards, tricks
from engine.schmier.actions import (
    Action,
    Bid,
    Discard,
    DiscardCount,
    NameTrump,
    Pass,
    Play,
    Record,
    action_from_json,
)
from engine.schmier.deal import Deal, deal_from_json
from engine.schmier.ranks import SEATS, is_trump, next_seat, team_of
from engine.schmier.scoring import LISTING, Settlement, score_hand, thrown_in
from engine.schmier.settings import MAX_BID, TRICKS, Settings, settings_from_json
from engine.schmier.tricks import Trick

GAME = "schmier"


# What an action caused, in words a screen can translate (the values count seats and teams from 0, as the JSON does;
# the words count them from 1, as people do).
THROWN_IN = PhraseTemplate("schmier.effect.thrown_in", "all passed: cards thrown in, seat {seat} deals again")
WINS_BIDDING = PhraseTemplate("schmier.effect.wins_bidding", "seat {seat} (team {team}) wins the bidding at {amount}")
TO_DISCARD = PhraseTemplate("schmier.effect.to_discard", "seat {seat} to discard")
GETS = PhraseTemplate("schmier.effect.gets", "gets {cards}")
TOOK_UP = PhraseTemplate("schmier.effect.took_up", "the dealer took up {count} kept cards")
FACE_UP = PhraseTemplate("schmier.effect.face_up", "trumps discarded face up: {cards}")
LEADS = PhraseTemplate("schmier.effect.leads", "seat {seat} leads")
LEADS_TRICK = PhraseTemplate("schmier.effect.leads_trick", "leads trick {trick}")
WINS_TRICK = PhraseTemplate("schmier.effect.wins_trick", "seat {seat} (team {team}) wins trick {trick}")
HAND_SCORED = PhraseTemplate("schmier.effect.hand_scored", "hand scored: {listing}")
COUNT_ONLY = PhraseTemplate(
    "schmier.illegal.count_only",
    "seat {seat}'s discard is only counted: that belongs to a table record; this hand's deal is known, name the cards",
)


class Phase(Enum):
    BIDDING = "bidding"
    TRUMP = "trump"
    DISCARD = "discard"
    DEALER_DISCARD = "dealer discard"
    PLAY = "play"
    HAND_OVER = "hand over"
    GAME_OVER = "game over"
    THROWN_IN = "thrown in"


# Why an action is refused, and who the hand waits for, as phrases (seats counted from 1 in the words).
PHASE_WORDS = {phase: PhraseTemplate(f"schmier.phase.{phase.name.lower()}", phase.value) for phase in Phase}
WAITING_FOR = {
    Phase.BIDDING: PhraseTemplate("schmier.waiting.bidding", "seat {seat} to bid or pass"),
    Phase.TRUMP: PhraseTemplate("schmier.waiting.trump", "seat {seat} to name trump"),
    Phase.DISCARD: PhraseTemplate("schmier.waiting.discard", "seat {seat} to discard"),
    Phase.DEALER_DISCARD: PhraseTemplate(
        "schmier.waiting.dealer_discard", "seat {seat} to take up the kept cards and discard to 6"
    ),
    Phase.PLAY: PhraseTemplate("schmier.waiting.play", "seat {seat} to play"),
}
WAITING_FOR_NOBODY = PhraseTemplate("schmier.waiting.nobody", "nobody: the hand is {phase}")
NOT_NOW = PhraseTemplate("schmier.illegal.not_now", "not now: the hand is in {phase}, waiting for {waiting}")
NOT_YOUR_TURN = PhraseTemplate("schmier.illegal.not_turn", "not seat {seat}'s turn: waiting for {waiting}")
NAMES_TRUMP = PhraseTemplate(
    "schmier.illegal.names_trump", "seat {bidder} won the bidding and names trump, not seat {seat}"
)
NOT_OVER = PhraseTemplate("schmier.illegal.not_over", "the hand is not over yet: waiting for {waiting}")


class State:
    """The state of one hand."""

    def __init__(self, settings: Settings, deal: Deal) -> None:
        self.settings = settings
        self.deal = deal
        self.phase = Phase.BIDDING
        self.hands: list[list[Card]] = [list(hand) for hand in deal.hands]
        self.turn: int | None = next_seat(deal.dealer)
        self.bids: list[tuple[int, int | None]] = []
        self.bidder: int | None = None
        self.high_bid: int | None = None
        self.trump: Suit | None = None
        self.kept: list[Card] = list(deal.kept)
        self.discarded: dict[int, tuple[Card, ...]] = {}
        self.received: dict[int, tuple[Card, ...]] = {}
        self.tricks: list[Trick] = []
        self.current: list[tuple[int, Card]] = []
        self.result: Settlement | None = None
        self._history: list[Record] = []

    # ----- what the kiosk reads

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def history(self) -> tuple[Record, ...]:
        return tuple(self._history)

    @property
    def is_over(self) -> bool:
        return self.phase in (Phase.HAND_OVER, Phase.GAME_OVER, Phase.THROWN_IN)

    @property
    def game_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def scores(self) -> tuple[int, int, int]:
        return self.deal.scores if self.result is None else self.result.scores_after

    @property
    def led(self) -> Card | None:
        """The card led to the trick in progress (None when the next card leads)."""
        return self.current[0][1] if self.current else None

    def waiting_for(self) -> str:
        """Who must act and how, in words (seats counted from 1): 'seat 3 to play'."""
        if self.turn is None:
            return WAITING_FOR_NOBODY(phase=PHASE_WORDS[self.phase]())
        return WAITING_FOR[self.phase](seat=self.turn)

    def face_up_discards(self) -> tuple[Card, ...]:
        """The dealer's discarded trumps, shown face up when the table's option says so (else none)."""
        if not self.settings.show_dealer_trump_discards or self.trump is None:
            return ()
        return tuple(card for card in self.discarded.get(self.dealer, ()) if is_trump(card, self.trump))

    def discard_options(self) -> discards.DiscardOptions:
        """What the seat to act may discard (in the two discard phases)."""
        self._expect(Phase.DISCARD, Phase.DEALER_DISCARD)
        assert self.turn is not None and self.trump is not None
        if self.phase is Phase.DISCARD:
            return discards.player_options(self.turn, self.hands[self.turn], self.trump)
        return discards.dealer_options(self.turn, self._dealer_holding(), self.trump)

    def legal_plays(self) -> tuple[Card, ...]:
        if self.phase is not Phase.PLAY:
            return ()
        assert self.turn is not None and self.trump is not None
        return tricks.legal_plays(self.hands[self.turn], self.led, self.trump, self.settings.trump_anytime)

    def legal_actions(self) -> list[Action]:
        """Exactly the actions the rules allow now. In the dealer's discard this lists every combination
        (thousands are possible); a screen should use ``discard_options()`` instead."""
        seat = self.turn
        if seat is None:
            return []
        if self.phase is Phase.BIDDING:
            return [Pass(seat), *(Bid(seat, amount) for amount in bidding.legal_bids(self.high_bid))]
        if self.phase is Phase.TRUMP:
            return [NameTrump(seat, suit) for suit in Suit]
        if self.phase in (Phase.DISCARD, Phase.DEALER_DISCARD):
            assert self.trump is not None
            return [Discard(seat, cards) for cards in self.discard_options().combinations(self.trump)]
        return [Play(seat, card) for card in self.legal_plays()]

    def settle(self) -> Settlement:
        if self.result is None:
            raise IllegalAction(NOT_OVER(waiting=self.waiting_for()))
        return self.result

    # ----- checks

    def _expect(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise IllegalAction(NOT_NOW(phase=PHASE_WORDS[self.phase](), waiting=self.waiting_for()))

    def _expect_turn(self, seat: int, *phases: Phase) -> None:
        self._expect(*phases)
        if seat != self.turn:
            raise IllegalAction(NOT_YOUR_TURN(seat=seat, waiting=self.waiting_for()))

    def verify_bid(self, seat: int, amount: int) -> None:
        self._expect_turn(seat, Phase.BIDDING)
        bidding.check_bid(amount, self.high_bid, self.bidder)

    def verify_pass_bid(self, seat: int) -> None:
        self._expect_turn(seat, Phase.BIDDING)

    def verify_name_trump(self, seat: int, suit: Suit) -> None:
        self._expect(Phase.TRUMP)
        if seat != self.bidder:
            assert self.bidder is not None
            raise IllegalAction(NAMES_TRUMP(bidder=self.bidder, seat=seat))

    def verify_discard(self, seat: int, cards: Sequence[Card]) -> None:
        self._expect_turn(seat, Phase.DISCARD, Phase.DEALER_DISCARD)
        assert self.trump is not None
        if self.phase is Phase.DISCARD:
            discards.check_player_discard(seat, self.hands[seat], cards, self.trump)
        else:
            discards.check_dealer_discard(seat, self._dealer_holding(), cards, self.trump)

    def verify_play(self, seat: int, card: Card) -> None:
        self._expect_turn(seat, Phase.PLAY)
        assert self.trump is not None
        tricks.check_play(seat, self.hands[seat], card, self.led, self.trump, self.settings.trump_anytime)

    def verify(self, action: Action) -> None:
        """Raise ``IllegalAction`` with the reason when ``action`` may not be applied now."""
        if isinstance(action, Bid):
            self.verify_bid(action.seat, action.amount)
        elif isinstance(action, Pass):
            self.verify_pass_bid(action.seat)
        elif isinstance(action, NameTrump):
            self.verify_name_trump(action.seat, action.suit)
        elif isinstance(action, Discard):
            self.verify_discard(action.seat, action.cards)
        elif isinstance(action, Play):
            self.verify_play(action.seat, action.card)
        elif isinstance(action, DiscardCount):
            self.verify_discard_count(action.seat, action.count)
        else:
            raise IllegalAction(f"{action!r} is not a Schmier action")

    def verify_discard_count(self, seat: int, count: int) -> None:
        """A discard counted, its cards unseen: only a hand followed at the table (``TableState``) takes it."""
        raise IllegalAction(COUNT_ONLY(seat=seat))

    def can(self, action: Action) -> bool:
        return answers_yes(self.verify, action)

    def can_bid(self, seat: int, amount: int) -> bool:
        return answers_yes(self.verify_bid, seat, amount)

    def can_pass_bid(self, seat: int) -> bool:
        return answers_yes(self.verify_pass_bid, seat)

    def can_name_trump(self, seat: int, suit: Suit) -> bool:
        return answers_yes(self.verify_name_trump, seat, suit)

    def can_discard(self, seat: int, cards: Sequence[Card]) -> bool:
        return answers_yes(self.verify_discard, seat, cards)

    def can_play(self, seat: int, card: Card) -> bool:
        return answers_yes(self.verify_play, seat, card)

    # ----- actions

    def bid(self, seat: int, amount: int) -> Record:
        self.verify_bid(seat, amount)
        self.bids.append((seat, amount))
        self.bidder, self.high_bid = seat, amount
        return self._after_bid(Bid(seat, amount))

    def pass_bid(self, seat: int) -> Record:
        self.verify_pass_bid(seat)
        self.bids.append((seat, None))
        return self._after_bid(Pass(seat))

    def _after_bid(self, action: Bid | Pass) -> Record:
        assert self.turn is not None
        done = self.turn == self.dealer or self.high_bid == MAX_BID
        effect = ""
        if not done:
            self.turn = next_seat(self.turn)
        elif self.bidder is None:
            self.phase, self.turn = Phase.THROWN_IN, None
            self.result = thrown_in(self.deal.scores)
            effect = THROWN_IN(seat=self.dealer)
        else:
            self.phase, self.turn = Phase.TRUMP, self.bidder
            effect = WINS_BIDDING(seat=self.bidder, team=team_of(self.bidder), amount=self.high_bid)
        return self._record(action, effect)

    def name_trump(self, seat: int, suit: Suit) -> Record:
        self.verify_name_trump(seat, suit)
        self.trump = suit
        self.phase, self.turn = Phase.DISCARD, next_seat(self.dealer)
        return self._record(NameTrump(seat, suit), TO_DISCARD(seat=self.turn))

    def discard(self, seat: int, cards: Sequence[Card]) -> Record:
        self.verify_discard(seat, cards)
        chosen = tuple(cards)
        if self.phase is Phase.DISCARD:
            return self._player_discard(seat, chosen)
        return self._dealer_discard(seat, chosen)

    def _player_discard(self, seat: int, cards: tuple[Card, ...]) -> Record:
        replacements = tuple(self.kept[: len(cards)])
        del self.kept[: len(cards)]
        self.hands[seat] = [card for card in self.hands[seat] if card not in cards] + list(replacements)
        self.discarded[seat], self.received[seat] = cards, replacements
        self._next_discarder(seat)
        effect = GETS(cards=" ".join(card.pretty for card in replacements)) if replacements else ""
        return self._record(Discard(seat, cards), effect)

    def _next_discarder(self, seat: int) -> None:
        """After ``seat`` discarded: the next player discards, the dealer last (he takes up what is kept)."""
        following = next_seat(seat)
        if following == self.dealer:
            self.phase = Phase.DEALER_DISCARD
        self.turn = following

    def _play_begins(self, taken_up: int, face_up: Sequence[Card] = ()) -> str:
        """After the dealer's discard: the bidder leads the first trick. What it caused, in words."""
        self.phase, self.turn = Phase.PLAY, self.bidder
        effects = [TOOK_UP(count=taken_up)]
        if face_up:
            effects.append(FACE_UP(cards=" ".join(card.pretty for card in face_up)))
        effects.append(LEADS(seat=self.bidder))
        return join("; ", effects)

    def _dealer_holding(self) -> list[Card]:
        return self.hands[self.dealer] + self.kept

    def _dealer_discard(self, seat: int, cards: tuple[Card, ...]) -> Record:
        assert self.trump is not None
        taken_up = len(self.kept)
        self.hands[seat] = [card for card in self._dealer_holding() if card not in cards]
        self.kept = []
        self.discarded[seat], self.received[seat] = cards, ()
        return self._record(Discard(seat, cards), self._play_begins(taken_up, self.face_up_discards()))

    def play(self, seat: int, card: Card) -> Record:
        self.verify_play(seat, card)
        assert self.trump is not None and self.bidder is not None and self.high_bid is not None
        self._take(seat, card)
        self.current.append((seat, card))
        if len(self.current) < SEATS:
            self.turn = next_seat(seat)
            leads = LEADS_TRICK(trick=len(self.tricks) + 1) if len(self.current) == 1 else ""
            return self._record(Play(seat, card), leads)
        winner = tricks.trick_winner(self.current, self.trump)
        trick = Trick(len(self.tricks) + 1, self.current[0][0], tuple(self.current), winner)
        self.tricks.append(trick)
        self.current = []
        effect = WINS_TRICK(seat=winner, team=team_of(winner), trick=trick.number)
        if len(self.tricks) < TRICKS:
            self.turn = winner
            return self._record(Play(seat, card), effect)
        self.turn = None
        self.result = score_hand(self.tricks, self.trump, self.bidder, self.high_bid, self.deal.scores)
        self.phase = Phase.GAME_OVER if self.result.game_over else Phase.HAND_OVER
        taken = self.result.hand_points
        scored = HAND_SCORED(listing=LISTING(team_a=0, a=f"{taken[0]:+d}", team_b=1, b=f"{taken[1]:+d}", team_c=2,
                                             c=f"{taken[2]:+d}"))
        return self._record(Play(seat, card), join("; ", [effect, scored]))

    def _take(self, seat: int, card: Card) -> None:
        """A card played leaves the player's hand."""
        self.hands[seat].remove(card)

    def apply(self, action: Action) -> Record:
        if isinstance(action, Bid):
            return self.bid(action.seat, action.amount)
        if isinstance(action, Pass):
            return self.pass_bid(action.seat)
        if isinstance(action, NameTrump):
            return self.name_trump(action.seat, action.suit)
        if isinstance(action, Discard):
            return self.discard(action.seat, action.cards)
        if isinstance(action, Play):
            return self.play(action.seat, action.card)
        if isinstance(action, DiscardCount):
            return self.discard_count(action.seat, action.count)
        raise IllegalAction(f"{action!r} is not a Schmier action")

    def discard_count(self, seat: int, count: int) -> Record:
        self.verify_discard_count(seat, count)
        raise AssertionError("unreachable: verify_discard_count refuses")

    def _record(self, action: Action, effect: str = "") -> Record:
        record = Record(action, effect)
        self._history.append(record)
        return record

    # ----- values

    def copy(self) -> Self:
        return copy.deepcopy(self)

    def _key(self) -> tuple[Any, ...]:
        return (
            self.settings,
            self.deal,
            self.phase,
            self.hands,
            self.turn,
            self.bids,
            self.bidder,
            self.high_bid,
            self.trump,
            self.kept,
            self.discarded,
            self.received,
            self.tricks,
            self.current,
            self.result,
            self._history,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"<Schmier hand: dealer {self.dealer}, {self.phase.value}, {len(self._history)} actions>"

    def deal_to_json(self) -> dict[str, JSON]:
        return self.deal.to_json()

    def to_json(self) -> dict[str, JSON]:
        """A hand file: settings, deal and actions (all that is needed to rebuild this state), plus a read-only
        snapshot under "now" that ``from_json`` checks against the replay."""
        return {
            "game": GAME,
            "settings": self.settings.to_json(),
            **self.deal.to_json(),
            "actions": [record.to_json() for record in self._history],
            "now": self.snapshot(),
        }

    def snapshot(self) -> dict[str, JSON]:
        """Where the hand stands, for people reading a saved hand; derived from the actions, never read back."""
        return {
            "phase": self.phase.value,
            "turn": self.turn,
            "bidder": self.bidder,
            "bid": self.high_bid,
            "trump": None if self.trump is None else self.trump.value,
            **self._cards_snapshot(),
            "trick": [{"seat": seat, "card": str(card)} for seat, card in self.current],
            "trick_winners": [trick.winner for trick in self.tricks],
            "scores": list(self.scores),
        }

    def _cards_snapshot(self) -> dict[str, JSON]:
        """The cards a snapshot names: each seat's hand (a hand followed at the table knows only what was played)."""
        return {"hands": [[str(card) for card in held] for held in self.hands]}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> State:
        """Rebuild a hand from ``to_json()`` (or a hand file) by replaying its actions."""
        settings, deal, actions, now = read_hand_file(data)
        hand = replay(settings, deal, actions)
        if now is not None and now != hand.snapshot():
            raise InputError(
                'the saved snapshot ("now") does not match what the actions give: the file was altered or is '
                'damaged; the actions are the record, remove "now" to replay them alone'
            )
        return hand


HAND_FILE_KEYS = ("game", "note", "settings", "dealer", "scores", "hands", "kept", "actions", "now")
ACTION_EXAMPLE = '{"kind": "bid", "seat": 1, "amount": 3}'


def read_hand_file(data: Mapping[str, JSON]) -> tuple[Settings, Deal, list[Mapping[str, JSON]], JSON]:
    """The parts of a hand file: settings (optional), the deal, the actions and the snapshot "now" (or None)."""
    actions = record_actions(data, game=GAME, what="a Schmier hand file", keys=HAND_FILE_KEYS, example=ACTION_EXAMPLE)
    settings = settings_from_json(data.get("settings", {}))
    return settings, deal_from_json(data), actions, data.get("now")


def replay(settings: Settings, deal: Deal | Mapping[str, JSON], actions: Sequence[Mapping[str, JSON]]) -> State:
    """Rebuild a hand by applying the actions (today's envelope or the older form) in order; an illegal one raises
    ``IllegalAction('action i: …')``."""
    state = State(settings, deal if isinstance(deal, Deal) else deal_from_json(deal))
    return replay_actions(state, actions, action_from_json)
