"""A Sâm Lốc hand at a real table: the kiosk follows what is laid on the felt and never knows the hands.

While the hand is played, ``TableState`` checks what can be checked at once (a play out of turn, a combination that
does not beat the one on the table, a card already played, more cards than a seat has left) with the same rules as
``State``, whose turn, round, chop and sâm logic it shares. Whether a player held the cards he could have played is
unknown until the end: then the losers lay their remaining cards face up (``Show``), every card of every hand is
known (what each seat played plus what it showed), the deal is rebuilt and replayed through ``State`` itself, and
what the rules needed the hands for is checked: each hand exactly 10 cards, no card twice in the deal, báo 1's
highest-single duty ("pays for everyone"), the card the timer laid, the 2s and quads left (thối), going out on a 2,
and instant wins (claimed by showing the 10 cards; one found but not claimed is shown to the supervisor, not paid).
A rule broken is a ``Violation`` that holds the settlement for a supervisor.

The table record (one JSON file per hand; the journal keeps the same: the deal ``{"players", "leader"}`` and the
actions, the cards shown as ``show`` actions):

    {"game": "samloc", "table": {...}, "players": 3, "leader": 0,
     "actions": [{"kind": "play", "seat": 0, "cards": ["3S"]}, {"kind": "pass", "seat": 1}, ...],
     "revealed": [null, ["4H", "9D"], ["KC", "2S", "2D"]]}

An instant win is claimed by ``{"seat": 2, "instant": true}`` (or ``{"kind": "instant", "seat": 2}``) before any
play, with that seat's 10 cards in ``revealed``; a timeout that laid a card for a leader names it
(``{"kind": "timeout", "seat": 1, "cards": ["3S"]}``).

>>> from engine.cards import parse_cards
>>> hand = TableState(Settings(bet=10), TableDeal.of(2, 0))
>>> for cards in ("3S 4H 5D 6C 7S 8H 9D 10C", "JS", "KH"):
...     _ = hand.play(0, parse_cards(cards))
...     _ = hand.pass_(1) if not hand.is_over else None
>>> hand.can_play(0, parse_cards("QH"))
False
>>> _ = hand.show(1, parse_cards("3H 4S 6H 7D 9S JC QC KD AD 2H"))
>>> hand.settle().deltas, hand.settle().held
([180, -180], False)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from engine.cards import Card, CardsText
from engine.common import JSON, IllegalAction, record_actions, replay_actions
from engine.errors import InputError
from engine.phrases import Phrase, PhraseTemplate, join
from engine.samloc.actions import (
    Action,
    ClaimInstant,
    DeclareSam,
    InstantClaimed,
    Pass,
    PlayCards,
    Played,
    Record,
    Show,
    Shown,
    Timeout,
    action_from_json,
)
from engine.samloc.combos import Combo, classify
from engine.samloc.deal import Deal, DealError
from engine.samloc.hand import ACTION_EXAMPLE, BAO1_BROKEN, HAND_OVER, State
from engine.samloc.instant import instant_winners, instant_wins_of
from engine.samloc.outcome import Outcome
from engine.samloc.settlement import Settlement, settle
from engine.samloc.table import CARDS_PER_HAND, GAME, MAX_PLAYERS, MIN_PLAYERS, Settings, settings_from_json
from engine.violations import Violation

# Why a table action is refused at once, as phrases (seats counted from 1 in the words).
ALREADY_PLAYED = PhraseTemplate("samloc.table.already_played", "{card} was already played by seat {seat}")
TOO_MANY = PhraseTemplate("samloc.table.too_many", "seat {seat} has {count} cards left, not {cards}")
NAME_THE_CARD = PhraseTemplate(
    "samloc.table.name_the_card",
    "seat {seat}'s time ran out while he led: name the one card the dealer laid for him",
)
CLAIM_TOO_LATE = PhraseTemplate(
    "samloc.table.claim_too_late", "an instant win is claimed on the deal, before sâm is declared or a card is played"
)
CLAIMED_TWICE = PhraseTemplate("samloc.table.claimed_twice", "seat {seat} already claimed an instant win")
SHOW_TOO_EARLY = PhraseTemplate(
    "samloc.table.show_too_early", "cards are shown when the hand is over; seat {turn} is to play"
)
SHOWN_TWICE = PhraseTemplate("samloc.table.shown_twice", "seat {seat} already showed his cards")

# What the hand rebuilt at its end found broken (one line each: the seat, the card, the rule).
V_HAND_SIZE = PhraseTemplate(
    "samloc.violation.hand_size",
    "seat {seat}'s hand comes to {count} cards ({played} played, {shown} shown): every hand is dealt 10",
)
V_CARD_TWICE = PhraseTemplate(
    "samloc.violation.card_twice", "{card} is in the deal twice ({where}): one deck holds each card once"
)
V_PLAYED_BY = PhraseTemplate("samloc.violation.played_by", "played by seat {seat}")
V_SHOWN_BY = PhraseTemplate("samloc.violation.shown_by", "shown by seat {seat}")
V_BAO1_PAYS = PhraseTemplate(
    "samloc.violation.bao1_pays",
    "seat {seat} played {card} while holding {highest} and seat {announced} had one card (báo 1: he must play his "
    "highest single); seat {announced} went out that round: seat {seat} pays for everyone",
)
V_BAO1 = PhraseTemplate(
    "samloc.violation.bao1",
    "seat {seat} played {card} while holding {highest} and seat {announced} had one card (báo 1: he must play his "
    "highest single); seat {announced} did not go out that round: no payment follows from it",
)
V_TIMER_CARD = PhraseTemplate(
    "samloc.violation.timer_card",
    "seat {seat}'s time ran out while he led: {laid} was laid, the timer lays his {which} single, {card}",
)
V_INSTANT_UNCLAIMED = PhraseTemplate(
    "samloc.violation.instant_unclaimed",
    "seat {seat} was dealt an instant win ({name}: {cards}) and did not claim it: not paid",
)
V_INSTANT_FALSE = PhraseTemplate(
    "samloc.violation.instant_false",
    "seat {seat} claimed an instant win, but the cards he showed ({cards}) make none",
)
V_NOT_REBUILT = PhraseTemplate(
    "samloc.violation.not_rebuilt", "the rebuilt hand refuses action {index} of seat {seat}: {error}"
)

RECORD_KEYS = ("game", "note", "table", "players", "leader", "actions", "revealed")


@dataclass(frozen=True, slots=True)
class TableDeal(Deal):
    """A deal as the table sees it: how many are dealt in and who would lead; the cards stay unknown (each hand
    empty here) until the hand's end rebuilds them from what was played and shown."""

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.hands) <= MAX_PLAYERS:
            raise DealError(f"Sâm Lốc deals to {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {len(self.hands)}")
        if any(self.hands):
            raise DealError("a table deal knows no cards: the hands are rebuilt at the end")
        if isinstance(self.leader, bool) or not isinstance(self.leader, int) or not 0 <= self.leader < len(self.hands):
            raise DealError(f"the leader must be a seat from 0 to {len(self.hands) - 1}, not {self.leader!r}")

    @classmethod
    def of(cls, players: int, leader: int) -> TableDeal:
        if isinstance(players, bool) or not isinstance(players, int):
            raise DealError(f'"players" is how many are dealt in, 2 to 4, not {players!r}')
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise DealError(f"Sâm Lốc deals to {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {players}")
        return cls(((),) * players, leader)

    def undealt(self) -> tuple[Card, ...]:
        raise DealError("the cards of a hand followed at the table are known only at its end")

    def to_json(self) -> dict[str, JSON]:
        return {"players": self.players, "leader": self.leader}


def table_deal_from_json(data: Mapping[str, JSON]) -> TableDeal:
    """``{"players": N, "leader": seat}``."""
    if not isinstance(data, Mapping) or "players" not in data:
        raise DealError('a table deal is {"players": 2 to 4, "leader": seat}')
    return TableDeal.of(data["players"], data.get("leader"))  # type: ignore[arg-type]  # checked there


@dataclass(eq=True)
class TableState(State):
    """One hand followed at the table. Build it with ``TableState(settings, TableDeal.of(players, leader))``; act
    on it as on ``State`` (``play``, ``pass_``, ``timeout(seat, cards)`` naming the card laid for a leader,
    ``declare_sam``), plus ``claim_instant(seat)`` on the deal and ``show(seat, cards)`` once the hand is over;
    ``settle()`` rebuilds the hands and checks them. ``legal_actions()`` cannot list plays (the hands are hidden):
    ``verify``/``can`` answer for any one."""

    played: tuple[tuple[Card, ...], ...] = ()
    """Each seat's cards on the felt, in the order played."""
    claims: tuple[int, ...] = ()
    shown: tuple[tuple[Card, ...] | None, ...] = ()
    """Each seat's cards shown at the end (None: showed none)."""
    _cache: tuple[Settlement, State | None] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self, check_instant_wins: bool) -> None:
        if self.history or self.played:
            return  # a state given in full (copy)
        deal = self.deal
        if not isinstance(deal, TableDeal):
            raise InputError("a hand followed at the table starts from a TableDeal (how many play, who leads)")
        self._seat_the_table()
        self.played = ((),) * deal.players
        self.shown = (None,) * deal.players

    # ----- what the table knows

    def cards_left(self, seat: int) -> int:
        return CARDS_PER_HAND - len(self.played[seat])

    def played_by(self, card: Card) -> int | None:
        """The seat that played ``card`` this hand, if any."""
        return next((seat for seat, cards in enumerate(self.played) if card in cards), None)

    def legal_plays(self, seat: int) -> tuple[Combo, ...]:
        return ()  # the hands are hidden: any combination of unplayed cards that beats the top may come

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions that need no card (claims, sâm, pass, a timeout that passes); plays, a leader's timeout
        and the cards shown at the end name cards the kiosk cannot list."""
        actions: list[Action] = []
        if self._claims_open():
            actions.extend(ClaimInstant(seat) for seat in self._order() if seat not in self.claims)
        if self.is_over or self.turn is None:
            return tuple(actions)
        if self.can_declare_sam_now():
            actions.extend(DeclareSam(seat) for seat in self._order())
        if not self.leading:
            actions.extend((Pass(self.turn), Timeout(self.turn)))
        return tuple(actions)

    def _order(self) -> list[int]:
        return [(self.deal.leader + step) % self.players for step in range(self.players)]

    def _claims_open(self) -> bool:
        return not self.started and self.declarer is None and (self.outcome is None or bool(self.claims))

    # ----- checks the table makes at once

    def _verify_holding(self, seat: int, cards: Sequence[Card]) -> None:
        for card in cards:
            who = self.played_by(card)
            if who is not None:
                raise IllegalAction(ALREADY_PLAYED(card=card, seat=who))
        left = self.cards_left(seat)
        if len(cards) > left:
            raise IllegalAction(TOO_MANY(seat=seat, count=left, cards=len(cards)))

    def _check_duty(self, seat: int, combo: Combo, effects: list[str]) -> None:
        return  # his highest single is known only when his hand is rebuilt at the end

    def _take(self, seat: int, combo: Combo) -> None:
        self.played = (*self.played[:seat], self.played[seat] + combo.cards, *self.played[seat + 1 :])
        self._cache = None

    def _timer_card(self, seat: int, named: tuple[Card, ...]) -> Card | None:
        self._verify_seat_to_act(seat)
        if self.top is not None:
            return super()._timer_card(seat, named)  # he passes: no card may be named
        if len(named) != 1:
            raise IllegalAction(NAME_THE_CARD(seat=seat))
        self._verify_holding(seat, named)
        return named[0]

    def _verify_table_action(self, action: ClaimInstant | Show) -> None:
        seat = action.seat
        self._verify_seat(seat)
        if isinstance(action, ClaimInstant):
            if seat in self.claims:
                raise IllegalAction(CLAIMED_TWICE(seat=seat))
            if not self._claims_open():
                raise IllegalAction(CLAIM_TOO_LATE() if self.outcome is None else HAND_OVER())
            return
        if self.outcome is None:
            raise IllegalAction(SHOW_TOO_EARLY(turn=self.turn))
        if self.shown[seat] is not None:
            raise IllegalAction(SHOWN_TWICE(seat=seat))

    def _apply_table_action(self, action: ClaimInstant | Show) -> Record:
        self._verify_table_action(action)
        self._cache = None
        record: Record
        if isinstance(action, ClaimInstant):
            self.claims = (*self.claims, action.seat)
            self.outcome = Outcome("instant_win", tuple(sorted(self.claims)))
            self.turn = None
            record = InstantClaimed(action.seat)
        else:
            self.shown = (*self.shown[: action.seat], action.cards, *self.shown[action.seat + 1 :])
            record = Shown(action.seat, action.cards)
        self.history = (*self.history, record)
        return record

    def claim_instant(self, seat: int) -> Record:
        return self._apply_table_action(ClaimInstant(seat))

    def show(self, seat: int, cards: Sequence[Card]) -> Record:
        return self._apply_table_action(Show(seat, tuple(cards)))

    def can_claim_instant(self, seat: int) -> bool:
        return self.can(ClaimInstant(seat))

    def can_show(self, seat: int, cards: Sequence[Card]) -> bool:
        return self.can(Show(seat, tuple(cards)))

    # ----- the hand rebuilt at its end

    def rebuilt_hands(self) -> tuple[tuple[Card, ...] | None, ...]:
        """Each seat's hand as dealt: what it played plus what it showed (None: nothing known of it)."""
        return tuple(
            None if not played and shown is None else played + (shown or ())
            for played, shown in zip(self.played, self.shown, strict=True)
        )

    def check_cards(self) -> list[Violation]:
        """Every hand exactly 10 cards, and no card twice in the deal (a seat known by nothing is not counted: an
        instant win's other seats need not show)."""
        found: list[Violation] = []
        where: dict[Card, list[str]] = {}
        for seat in range(self.players):
            for card in self.played[seat]:
                where.setdefault(card, []).append(V_PLAYED_BY(seat=seat))
            for card in self.shown[seat] or ():
                where.setdefault(card, []).append(V_SHOWN_BY(seat=seat))
        for card, places in where.items():
            if len(places) > 1:
                seat = next(s for s in range(self.players) if card in self.played[s] or card in (self.shown[s] or ()))
                found.append(Violation(seat, "card_twice", V_CARD_TWICE(card=card, where=join(", ", places))))
        for seat, hand in enumerate(self.rebuilt_hands()):
            if hand is None and self.claims and seat not in self.claims:
                continue
            count = len(hand or ())
            if count != CARDS_PER_HAND:
                found.append(Violation(seat, "hand_size", V_HAND_SIZE(
                    seat=seat, count=count, played=len(self.played[seat]), shown=len(self.shown[seat] or ()))))
        return found

    def rebuilt(self) -> State | None:
        """The hand replayed through ``State`` from the rebuilt deal (None when the cards do not make a deal, or a
        claimed instant win ended it on the deal)."""
        return self._reckon()[1]

    def settle(self) -> Settlement:
        """The hand's money, from the rebuilt hand when the cards make a deal, with every rule found broken; a
        settlement with violations is held for a supervisor."""
        return self._reckon()[0]

    def _reckon(self) -> tuple[Settlement, State | None]:
        if self._cache is None:
            if self.outcome is None:
                super().settle()  # raises: the hand is not over
            self._cache = self._settle_claims() if self.claims else self._settle_played()
        return self._cache

    def _settle_claims(self) -> tuple[Settlement, State | None]:
        violations = self.check_cards()
        mode = self.settings.sam_ngheo_giau
        valid = []
        for seat in sorted(self.claims):
            cards = self.shown[seat] or ()
            if len(cards) == CARDS_PER_HAND and instant_wins_of(seat, cards, sam_ngheo_giau=mode):
                valid.append(seat)
            else:
                violations.append(Violation(seat, "instant_false",
                                            V_INSTANT_FALSE(seat=seat, cards=CardsText(cards) or "-")))
        hands = [self.shown[s] if s in valid else None for s in range(self.players)]
        wins = instant_winners(hands, sam_ngheo_giau=mode)
        view = copy.copy(self)
        view.instant = wins
        view.outcome = Outcome("instant_win", tuple(win.seat for win in wins))
        return self._checked(settle(view), violations), None

    def _settle_played(self) -> tuple[Settlement, State | None]:
        violations = self.check_cards()
        if not violations:
            hands = self.rebuilt_hands()
            deal = Deal(tuple(hand or () for hand in hands), self.deal.leader)
            for seat, hand in enumerate(deal.hands):
                wins = instant_wins_of(seat, hand, sam_ngheo_giau=self.settings.sam_ngheo_giau)
                if wins:
                    best = max(wins, key=lambda win: win.top_power)
                    violations.append(Violation(seat, "instant_unclaimed", V_INSTANT_UNCLAIMED(
                        seat=seat, name=best.name, cards=CardsText(best.cards))))
            full = State(self.settings, deal, check_instant_wins=False)
            refused = self._replay_rebuilt(full, violations)
            if not refused and full.is_over:
                violations.extend(_breaches(full))
                return self._checked(full.settle(), violations), full
        view = copy.copy(self)  # settled from what was seen: the cards shown are the cards left
        view.hands = tuple(shown or () for shown in self.shown)
        return self._checked(settle(view), violations), None

    def _replay_rebuilt(self, full: State, violations: list[Violation]) -> bool:
        """Apply this hand's actions to ``full``; a timer's card other than the rule's is a violation (and laid as
        it was). True when an action is refused (a violation too)."""
        actions = [record.action for record in self.history if not isinstance(record, (InstantClaimed, Shown))]
        for index, action in enumerate(actions):
            try:
                if isinstance(action, Timeout) and action.cards and full.top is None:
                    full._verify_seat_to_act(action.seat)
                    expected, which = full.timer_single(action.seat)
                    if (expected,) != action.cards:
                        violations.append(Violation(action.seat, "timer_card", V_TIMER_CARD(
                            seat=action.seat, laid=action.cards[0], which=which, card=expected)))
                        combo = classify(action.cards)
                        assert combo is not None
                        full._record(full._apply_play(action.seat, combo, timed_out=True, card_named=True))
                        continue
                full.apply(action)
            except IllegalAction as error:
                violations.append(Violation(action.seat, "not_rebuilt", V_NOT_REBUILT(
                    index=index, seat=action.seat, error=error.args[0] if error.args else str(error))))
                return True
        return False

    def _checked(self, settlement: Settlement, violations: list[Violation]) -> Settlement:
        return replace(settlement, violations=tuple(violations), checked=True)

    def next_leader(self) -> int:
        if self.claims and self.outcome is not None:
            winners = self.settle().winners
            return next((seat for seat in self._order() if seat in winners), self.deal.leader)
        return super().next_leader()

    # ----- the table record

    def snapshot(self) -> dict[str, JSON]:
        return {"played": [[str(card) for card in cards] for cards in self.played], **self._play_snapshot(),
                "claims": list(self.claims)}

    def to_json(self) -> dict[str, JSON]:
        """The table record: table, players, leader, actions and the cards each seat showed (null: none)."""
        return {
            "game": GAME,
            "table": self.settings.to_json(),
            **self.deal.to_json(),
            "actions": [record.to_json() for record in self.history if not isinstance(record, Shown)],
            "revealed": [None if cards is None else [str(card) for card in cards] for cards in self.shown],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> TableState:
        """A table record (``to_json()``'s form); a malformed one raises ``InputError`` saying what to fix, an
        illegal action ``IllegalAction`` starting ``action <index>: ``."""
        settings, deal, actions = read_record(data)
        return replay_table(settings, deal, actions)


def _breaches(full: State) -> list[Violation]:
    """Each báo-1 breach of the rebuilt hand, saying whether it made the breaker pay for everyone."""
    outcome = full.outcome
    broken = [(record, effect) for record in full.history if isinstance(record, Played)
              for effect in record.effects if isinstance(effect, Phrase) and effect.key == BAO1_BROKEN.key]
    found = []
    for (record, effect), breach in zip(broken, full.breaches, strict=True):
        paid = (outcome is not None and outcome.result == "win" and outcome.finisher == breach.announced
                and breach.round_no == outcome.final_round)
        template = V_BAO1_PAYS if paid else V_BAO1
        found.append(Violation(record.seat, "bao1_duty", template(
            seat=record.seat, card=record.cards[0], highest=effect.params["highest"], announced=breach.announced)))
    return found


def read_record(data: Mapping[str, JSON]) -> tuple[Settings, TableDeal, list[Mapping[str, JSON]]]:
    """The parts of a table record: the settings, the deal (players, leader) and the actions, the cards shown
    appended as ``show`` actions."""
    actions = record_actions(data, game=GAME, what="a Sâm Lốc table record", keys=RECORD_KEYS, example=ACTION_EXAMPLE)
    deal = table_deal_from_json({"players": data.get("players"), "leader": data.get("leader")})
    revealed = data.get("revealed", [None] * deal.players)
    if not isinstance(revealed, list) or len(revealed) != deal.players:
        raise InputError(f'"revealed" is one entry per seat ({deal.players}): the cards it showed, or null')
    shows: list[Mapping[str, JSON]] = []
    for seat, cards in enumerate(revealed):
        if cards is not None:
            if not isinstance(cards, list):
                raise InputError(f'"revealed" for seat {seat + 1}: a list of cards such as ["3S", "10H"], or null')
            shows.append({"kind": "show", "seat": seat, "cards": cards})
    return settings_from_json(data.get("table", {})), deal, [*actions, *shows]


def replay_table(settings: Settings, deal: TableDeal | Mapping[str, JSON],
                 actions: Sequence[Mapping[str, JSON]]) -> TableState:
    """Rebuild a hand followed at the table from its deal (players, leader) and actions (the cards shown as
    ``show`` actions); an illegal one raises ``IllegalAction`` starting with ``action <index>: ``."""
    state = TableState(settings, deal if isinstance(deal, TableDeal) else table_deal_from_json(deal))
    return replay_actions(state, actions, action_from_json)


def table_record(hand: State) -> dict[str, JSON]:
    """The table record of a hand played with its deal known: what the table saw of it (the plays, passes, sâm,
    the card each timeout laid, the instant wins claimed) and what each seat would show at the end (a loser his
    cards left, an instant winner his 10 cards; the winner nothing)."""
    if not hand.is_over:
        raise IllegalAction(HAND_OVER())
    actions: list[dict[str, JSON]] = []
    revealed: list[JSON] = [None] * hand.players
    if hand.outcome is not None and hand.outcome.result == "instant_win":
        for win in hand.instant:
            actions.append({"seat": win.seat, "instant": True})
            revealed[win.seat] = [str(card) for card in hand.deal.hands[win.seat]]
    for record in hand.history:
        if isinstance(record, Played) and record.timed_out:
            actions.append(Timeout(record.seat, record.cards).to_json())
        elif isinstance(record, Played):
            actions.append(PlayCards(record.seat, record.cards).to_json())
        else:
            actions.append(record.to_json())
    if hand.outcome is not None and hand.outcome.result != "instant_win":
        for seat, cards in enumerate(hand.hands):
            if cards:
                revealed[seat] = [str(card) for card in cards]
    return {"game": GAME, "table": hand.settings.to_json(), "players": hand.players, "leader": hand.deal.leader,
            "actions": actions, "revealed": revealed}


def is_table_record(data: Mapping[str, JSON]) -> bool:
    """Whether a hand file is a table record (no ``hands``: the cards are known from what was played and shown)."""
    return isinstance(data, Mapping) and "hands" not in data


__all__ = [
    "RECORD_KEYS",
    "TableDeal",
    "TableState",
    "is_table_record",
    "read_record",
    "replay_table",
    "table_deal_from_json",
    "table_record",
]
