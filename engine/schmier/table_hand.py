"""A Schmier hand at a real table: the kiosk follows the bids, the trump, the discards (counted: they stay face
down) and the cards laid in each trick, and never knows the hands.

While the hand is played, ``TableState`` checks at once what the table can see (a bid that is not higher, a play
out of turn, a second card of a trick from the same seat, a card already played, a discard count out of range),
with the same bidding, trick and scoring rules as ``State``. Each player's 6 cards after the discards are the 6 he
plays, so at the end his hand at every trick is known (the cards he played in that trick and later): a revoke (not
following the suit led while holding it) is found then, and so is a protected trump that nobody played (it was
discarded, which nobody may do). A rule broken is a ``Violation`` that holds the score for a supervisor.

The table record (one JSON file per hand; the journal keeps the same: the deal ``{"dealer", "scores"}`` and the
actions): ``{"game": "schmier", "settings": {...}, "dealer": 0, "scores": [0, 0, 0], "actions": [...]}``, the
actions as in a hand file except the discards, which are counts: ``{"kind": "discard", "seat": 3, "count": 2}``
(also written ``{"seat": 3, "discard": 2}``); the dealer's is the number of kept cards he took up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import Card
from engine.common import JSON, IllegalAction, record_actions, replay_actions
from engine.errors import InputError
from engine.phrases import PhraseTemplate
from engine.schmier import tricks
from engine.schmier.actions import SUIT_WORDS, Action, Discard, DiscardCount, Record, action_from_json
from engine.schmier.deal import Deal, DealError
from engine.schmier.ranks import SEATS, TEAMS, effective_suit, protected_trumps
from engine.schmier.scoring import Settlement
from engine.schmier.settings import HAND_SIZE, KEPT_SIZE, MAX_DISCARD, Settings, settings_from_json
from engine.schmier.state import ACTION_EXAMPLE, GAME, Phase, State
from engine.violations import Violation

# Why a table action is refused at once, and what it caused (seats counted from 1 in the words).
ALREADY_PLAYED = PhraseTemplate("schmier.table.already_played", "{card} was already played by seat {seat}")
COUNT_THE_DISCARD = PhraseTemplate(
    "schmier.table.count_the_discard",
    "the table does not see discarded cards (face down): give how many seat {seat} discarded",
)
TOO_MANY_DISCARDED = PhraseTemplate(
    "schmier.table.too_many", "seat {seat} may discard 0 to {most} cards, not {count}"
)
DEALER_COUNT = PhraseTemplate(
    "schmier.table.dealer_count",
    "the dealer takes up the {kept} kept cards and discards {kept} to keep 6, not {count}",
)
GETS_COUNT = PhraseTemplate("schmier.table.gets", "gets {count} from the kept cards")

# What the hand rebuilt at its end found broken.
V_REVOKE = PhraseTemplate(
    "schmier.violation.revoke",
    "seat {seat} played {card} to trick {trick} while holding {held} (he played it in trick {later}): he had to "
    "follow {suit}",
)
V_TRUMP_DISCARDED = PhraseTemplate(
    "schmier.violation.trump_discarded",
    "nobody played {card}, a trump nobody may discard: it was discarded",
)
TRUMP_WORD = PhraseTemplate("schmier.word.trump", "trump")

RECORD_KEYS = ("game", "note", "settings", "dealer", "scores", "actions")


@dataclass(frozen=True, slots=True)
class TableDeal(Deal):
    """A deal as the table sees it: who deals and the scores going in; the cards stay unknown (no hands, no kept
    cards here)."""

    def __post_init__(self) -> None:
        if isinstance(self.dealer, bool) or not isinstance(self.dealer, int) or not 0 <= self.dealer < SEATS:
            raise DealError(f"dealer {self.dealer!r} is not a seat: the dealer is 0 to {SEATS - 1} (seats 1 to "
                            f"{SEATS})")
        if len(self.scores) != TEAMS or any(isinstance(s, bool) or not isinstance(s, int) for s in self.scores):
            raise DealError(f"scores {list(self.scores)!r}: give 3 whole numbers, one per team")
        if any(self.hands) or self.kept:
            raise DealError("a table deal knows no cards: the hands are known from the tricks")

    @classmethod
    def of(cls, dealer: int, scores: Sequence[int] = (0, 0, 0)) -> TableDeal:
        if not isinstance(scores, (list, tuple)) or len(scores) != TEAMS:
            raise DealError(f"scores {scores!r}: give a list of 3 whole numbers, one per team")
        return cls(dealer, (scores[0], scores[1], scores[2]), ((),) * SEATS, ())

    def to_json(self) -> dict[str, JSON]:
        return {"dealer": self.dealer, "scores": list(self.scores)}


def table_deal_from_json(data: Mapping[str, JSON]) -> TableDeal:
    """``{"dealer": seat, "scores": [3 numbers]}``."""
    if not isinstance(data, Mapping):
        raise DealError('a table deal is {"dealer": seat, "scores": [team 1, team 2, team 3]}')
    for key in ("dealer", "scores"):
        if data.get(key) is None:
            raise DealError(f"the deal has no {key!r}: a table record gives dealer, scores and actions (a hand file "
                            "also hands and kept)")
    return TableDeal.of(data["dealer"], data["scores"])  # checked there


class TableState(State):
    """One hand followed at the table. Act on it as on ``State`` (``bid``, ``pass_bid``, ``name_trump``,
    ``play``), discards with ``discard_count(seat, count)``; ``settle()`` gives the score with every rule found
    broken. ``legal_actions()`` cannot list plays (the hands are hidden): ``verify``/``can`` answer for one."""

    def __init__(self, settings: Settings, deal: Deal) -> None:
        if not isinstance(deal, TableDeal):
            raise InputError("a hand followed at the table starts from a TableDeal (who deals, the scores)")
        super().__init__(settings, deal)
        self.played: list[list[Card]] = [[] for _ in range(SEATS)]
        """Each seat's cards laid on the felt, in order: after the discards, his hand."""
        self.discard_counts: dict[int, int] = {}
        self.kept_left = KEPT_SIZE

    # ----- what the table knows

    def played_by(self, card: Card) -> int | None:
        return next((seat for seat, cards in enumerate(self.played) if card in cards), None)

    def legal_plays(self) -> tuple[Card, ...]:
        return ()  # the hands are hidden: any card not yet played may come, checked by verify_play

    def legal_actions(self) -> list[Action]:
        """Bids, passes, trump and discard counts; plays name cards the kiosk cannot list."""
        seat = self.turn
        if seat is None or self.phase is Phase.PLAY:
            return []
        if self.phase is Phase.DISCARD:
            return [DiscardCount(seat, count) for count in range(MAX_DISCARD + 1)]
        if self.phase is Phase.DEALER_DISCARD:
            return [DiscardCount(seat, self.kept_left)]
        return super().legal_actions()

    # ----- checks the table makes at once

    def verify_discard(self, seat: int, cards: Sequence[Card]) -> None:
        self._expect_turn(seat, Phase.DISCARD, Phase.DEALER_DISCARD)
        raise IllegalAction(COUNT_THE_DISCARD(seat=seat))

    def verify_discard_count(self, seat: int, count: int) -> None:
        self._expect_turn(seat, Phase.DISCARD, Phase.DEALER_DISCARD)
        if self.phase is Phase.DISCARD:
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_DISCARD:
                raise IllegalAction(TOO_MANY_DISCARDED(seat=seat, most=MAX_DISCARD, count=count))
        elif count != self.kept_left:
            raise IllegalAction(DEALER_COUNT(kept=self.kept_left, count=count))

    def verify_play(self, seat: int, card: Card) -> None:
        self._expect_turn(seat, Phase.PLAY)
        who = self.played_by(card)
        if who is not None:
            raise IllegalAction(ALREADY_PLAYED(card=card.pretty, seat=who))

    def _take(self, seat: int, card: Card) -> None:
        self.played[seat].append(card)

    def discard_count(self, seat: int, count: int) -> Record:
        self.verify_discard_count(seat, count)
        self.discard_counts[seat] = count
        if self.phase is Phase.DISCARD:
            self.kept_left -= count
            self._next_discarder(seat)
            return self._record(DiscardCount(seat, count), GETS_COUNT(count=count) if count else "")
        taken_up, self.kept_left = self.kept_left, 0
        return self._record(DiscardCount(seat, count), self._play_begins(taken_up))

    # ----- the hand rebuilt at its end

    def hand_at(self, seat: int, trick: int) -> tuple[Card, ...]:
        """What ``seat`` held when trick ``trick`` (1 to 6) began: the cards he played in it and after."""
        return tuple(self.played[seat][trick - 1 :])

    def violations(self) -> tuple[Violation, ...]:
        """Every rule the played hand broke that only the whole hands show: revokes, protected trumps unplayed."""
        if self.trump is None or self.result is None or self.result.thrown_in:
            return ()
        trump = self.trump
        found: list[Violation] = []
        for trick in self.tricks:
            led = trick.plays[0][1]
            suit = effective_suit(led, trump)
            for seat, card in trick.plays[1:]:
                held = self.hand_at(seat, trick.number)
                try:
                    tricks.check_play(seat, held, card, led, trump, self.settings.trump_anytime)
                except IllegalAction:
                    follower = next(c for c in held if effective_suit(c, trump) is suit)
                    later = trick.number + held.index(follower)
                    found.append(Violation(seat, "revoke", V_REVOKE(
                        seat=seat, card=card.pretty, trick=trick.number, held=follower.pretty, later=later,
                        suit=TRUMP_WORD() if suit is trump else SUIT_WORDS[suit]())))
        if len(self.tricks) == len(self.played[0]) == HAND_SIZE:
            for card in protected_trumps(trump):
                if self.played_by(card) is None:
                    found.append(Violation(None, "trump_discarded", V_TRUMP_DISCARDED(card=card.pretty)))
        return tuple(found)

    def settle(self) -> Settlement:
        """The hand's score with every rule found broken; a score with violations is held for a supervisor."""
        return replace(super().settle(), violations=self.violations(), checked=True)

    # ----- the table record

    def _key(self) -> tuple[Any, ...]:
        return (*super()._key(), self.played, self.discard_counts, self.kept_left)

    def _cards_snapshot(self) -> dict[str, JSON]:
        return {"played": [[str(card) for card in cards] for cards in self.played]}

    def to_json(self) -> dict[str, JSON]:
        """The table record: settings, dealer, scores going in and the actions (discards as counts)."""
        return {
            "game": GAME,
            "settings": self.settings.to_json(),
            **self.deal.to_json(),
            "actions": [record.to_json() for record in self.history],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> TableState:
        settings, deal, actions = read_record(data)
        return replay_table(settings, deal, actions)


def read_record(data: Mapping[str, JSON]) -> tuple[Settings, TableDeal, list[Mapping[str, JSON]]]:
    """The parts of a table record: the settings, the deal (dealer, scores) and the actions."""
    actions = record_actions(data, game=GAME, what="a Schmier table record", keys=RECORD_KEYS, example=ACTION_EXAMPLE)
    deal = table_deal_from_json({"dealer": data.get("dealer"), "scores": data.get("scores")})
    return settings_from_json(data.get("settings", {})), deal, actions


def replay_table(settings: Settings, deal: TableDeal | Mapping[str, JSON],
                 actions: Sequence[Mapping[str, JSON]]) -> TableState:
    """Rebuild a hand followed at the table from its deal (dealer, scores) and actions; an illegal one raises
    ``IllegalAction`` starting with ``action <index>: ``."""
    state = TableState(settings, deal if isinstance(deal, TableDeal) else table_deal_from_json(deal))
    return replay_actions(state, actions, action_from_json)


def table_record(hand: State) -> dict[str, JSON]:
    """The table record of a hand played with its deal known: its actions with each discard counted."""
    actions: list[dict[str, JSON]] = []
    for record in hand.history:
        action = record.action
        if isinstance(action, Discard):
            actions.append(DiscardCount(action.seat, len(action.cards)).to_json())
        else:
            actions.append(action.to_json())
    return {"game": GAME, "settings": hand.settings.to_json(), "dealer": hand.dealer,
            "scores": list(hand.deal.scores), "actions": actions}


def is_table_record(data: Mapping[str, JSON]) -> bool:
    """Whether a hand file is a table record (no ``hands``: the cards are known from the tricks)."""
    return isinstance(data, Mapping) and "hands" not in data
