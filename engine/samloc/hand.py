"""The state of one Sâm Lốc hand, driven by actions: declare sâm, play, pass, timeout.

The state is a value: ``copy()`` it, compare it with ``==``, save it with ``to_json()`` (which is a hand file:
table, deal and actions) and rebuild it with ``State.from_json`` or ``replay``.

>>> from engine.cards import parse_cards
>>> deal = Deal((parse_cards("3S 4S 5S 7H 9D JC QH KS 2D 6C"), parse_cards("3H 4H 5H 6H 8H 9H 10H JD KD AC")), 0)
>>> state = State(Settings(bet=100), deal)
>>> state.can(Pass(0)), state.can(PlayCards(0, parse_cards("3S 4S 5S")))
(False, True)
>>> state.apply(PlayCards(0, parse_cards("3S 4S 5S"))).to_json()
{'kind': 'play', 'seat': 0, 'cards': ['3S', '4S', '5S']}
>>> replay(Settings(bet=100), deal, [{"kind": "play", "seat": 0, "cards": ["3S", "4S", "5S"]}]) == state
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import InitVar, dataclass, field
from typing import Self, TypeVar

from engine.cards import Card, CardsText, Rank
from engine.common import JSON, IllegalAction, Payment, answers_yes, record_actions, replay_actions
from engine.errors import InputError
from engine.phrases import Phrase, PhraseTemplate
from engine.samloc.actions import (
    Action,
    ClaimInstant,
    DeclareSam,
    Pass,
    Passed,
    PlayCards,
    Played,
    Record,
    SamDeclared,
    Show,
    Timeout,
    action_from_json,
)
from engine.samloc.combos import Combo, Kind, classify, combos_beating, power, sort_cards, why_not_beaten
from engine.samloc.deal import Deal, deal_from_json
from engine.samloc.instant import InstantWin, instant_winners
from engine.samloc.outcome import Breach, Outcome
from engine.samloc.settlement import Settlement, settle
from engine.samloc.table import GAME, Settings, settings_from_json

R = TypeVar("R", Played, Passed)

# Why an action is refused, and what a play caused, as phrases (a screen words them in its language).
HAND_OVER = PhraseTemplate("samloc.illegal.hand_over", "the hand is over; no more actions")
HAND_NOT_OVER = PhraseTemplate("samloc.illegal.hand_not_over", "the hand is not over yet")
NO_SUCH_SEAT = PhraseTemplate("samloc.illegal.no_seat", "there is no seat {seat!r}: seats are 0 to {last}")
PASSED_THIS_ROUND = PhraseTemplate(
    "samloc.illegal.passed", "seat {seat} passed this round; he may play again when a new round is led"
)
NOT_YOUR_TURN = PhraseTemplate("samloc.illegal.not_turn", "it is seat {turn}'s turn, not seat {seat}'s")
SAM_ALREADY_DECLARED = PhraseTemplate(
    "samloc.illegal.sam_declared", "seat {seat} already declared sâm; only one player may declare"
)
SAM_TOO_LATE = PhraseTemplate(
    "samloc.illegal.sam_too_late", "sâm can only be declared after the deal, before the first card is played"
)
SAME_CARD_TWICE = PhraseTemplate("samloc.illegal.same_card_twice", "the same card is listed twice in one play")
NO_CARDS = PhraseTemplate("samloc.illegal.no_cards", "a play needs at least one card; to play nothing, pass")
NOT_HOLDING = PhraseTemplate("samloc.illegal.not_holding", "seat {seat} does not hold {cards}")
NOT_A_COMBINATION = PhraseTemplate(
    "samloc.illegal.not_a_combination",
    "{cards} is not a combination: play a single, a pair, a triple, a quad or a straight of 3 to 10 cards in a row",
)
MUST_LEAD = PhraseTemplate("samloc.illegal.must_lead", "seat {seat} leads this round and cannot pass: he must play")
BELOW_BET = PhraseTemplate(
    "samloc.illegal.below_bet", "seat {seat} holds {coins} coins, less than the bet {bet}: he sits out this hand"
)
BAO1_BROKEN = PhraseTemplate(
    "samloc.effect.bao1_broken",
    "báo 1 broken: seat {seat} did not play his highest single ({highest}) while seat {announced} has one card; "
    "if seat {announced} goes out this round, seat {seat} pays for everyone",
)
BAO1 = PhraseTemplate(
    "samloc.effect.bao1", "báo 1: seat {seat} has one card left; seat {duty} must play his highest single"
)
SAM_BLOCKED = PhraseTemplate(
    "samloc.effect.sam_blocked", "seat {seat} beats the declarer: sâm fails, seat {declarer} pays everyone"
)
SAM_OUT_ON_TWO = PhraseTemplate(
    "samloc.effect.sam_out_on_two", "seat {seat} would go out on a 2: sâm fails, he pays everyone"
)
SAM_SUCCEEDS = PhraseTemplate(
    "samloc.effect.sam_succeeds", "seat {seat} goes out unbeaten: sâm succeeds, everyone pays him"
)
OUT_ON_TWO = PhraseTemplate("samloc.effect.out_on_two", "seat {seat} goes out on a 2: thối, he pays every other player")
GOES_OUT = PhraseTemplate("samloc.effect.goes_out", "seat {seat} goes out and wins the hand")
CHOPS = PhraseTemplate(
    "samloc.effect.chop",
    "seat {seat} chops seat {victim}'s {cards}: {value}×bet ({amount}), paid when the round closes",
)
OVERKILLS = PhraseTemplate(
    "samloc.effect.overkill",
    "seat {seat} overkills seat {victim}'s chop: the chain is worth {value}×bet ({amount}), "
    "now owed by seat {victim} to seat {seat}",
)
NEW_ROUND = PhraseTemplate("samloc.effect.new_round", "everyone else passed: seat {seat} leads a new round")
CHOP = PhraseTemplate("samloc.reason.chop", "chop")
OVERKILL = PhraseTemplate("samloc.reason.overkill", "overkill ({count} on the chop)")
TIMER_LAYS = PhraseTemplate(
    "samloc.illegal.timer_lays",
    "seat {seat}'s time ran out while he led: the timer lays his {which} single, {card}, not {cards}",
)
TIMER_PASSES = PhraseTemplate(
    "samloc.illegal.timer_passes", "seat {seat}'s time ran out while he could pass: he passes, no card is laid"
)
LOWEST = PhraseTemplate("samloc.word.lowest", "lowest")
HIGHEST = PhraseTemplate("samloc.word.highest", "highest")
TABLE_ONLY = PhraseTemplate(
    "samloc.illegal.table_only",
    "{kind} belongs to a table record (the hands unknown until the end); this hand was dealt by the kiosk, "
    "which checks instant wins itself and knows every card",
)
CHOP_SETTLED = PhraseTemplate(
    "samloc.effect.chop_settled", "the {reason} is settled: seat {victim} owes seat {chopper} {amount}"
)


@dataclass(frozen=True, slots=True)
class ChopChain:
    """A chop (a quad on a 2) and the overkills on it, open until its round closes."""

    victim: int
    chopper: int
    value_bets: int
    overkills: int = 0


@dataclass(frozen=True, slots=True)
class Bao1Duty:
    """``seat`` must play his highest single whenever he plays a single, because ``announced`` has one card."""

    seat: int
    announced: int


@dataclass(eq=True)
class State:
    """One hand from the deal to the settlement. Build it with ``State(settings, deal)``; act on it with
    ``declare_sam``, ``play``, ``pass_`` (``pass`` is a Python word) and ``timeout``, each checked first by its
    ``verify_…``/``can_…`` (or ``verify``/``can``/``apply`` with an ``Action`` value); read ``turn``, ``top``,
    ``legal_actions()``, ``bao1_duties()``, ``chain``, ``is_over``."""

    settings: Settings
    deal: Deal
    hands: tuple[tuple[Card, ...], ...] = ()
    has_played: tuple[bool, ...] = ()
    declarer: int | None = None
    started: bool = False
    turn: int | None = None
    top: Combo | None = None
    top_seat: int | None = None
    passed: frozenset[int] = frozenset()
    round_no: int = 0
    chain: ChopChain | None = None
    chops: tuple[Payment, ...] = ()
    breaches: tuple[Breach, ...] = ()
    instant: tuple[InstantWin, ...] = ()
    outcome: Outcome | None = None
    history: tuple[Record, ...] = field(default=())
    check_instant_wins: InitVar[bool] = True
    """Off: an instant win on the deal is not taken at once (a hand rebuilt from a table record, where an instant
    win counts only when it was claimed)."""

    def __post_init__(self, check_instant_wins: bool) -> None:
        if self.history or self.hands:
            return  # a state given in full (dataclass copy, tests)
        settings, deal = self.settings, self.deal
        self._seat_the_table()
        winners = instant_winners(deal.hands, sam_ngheo_giau=settings.sam_ngheo_giau) if check_instant_wins else ()
        if winners:
            self.instant = winners
            self.turn = None
            self.outcome = Outcome("instant_win", tuple(win.seat for win in winners))

    def _seat_the_table(self) -> None:
        """Check that the deal fits the table (its seat count, every balance at least the bet) and seat the
        players: the hands as dealt, nobody has played, the leader to act."""
        settings, deal = self.settings, self.deal
        seats = settings.seat_count
        if seats is not None and seats != deal.players:
            raise InputError(f"the table seats {seats} players but {deal.players} were dealt in")
        if settings.balances is not None:
            for seat, coins in enumerate(settings.balances):
                if coins < settings.bet:
                    raise InputError(BELOW_BET(seat=seat, coins=coins, bet=settings.bet))
        self.hands = deal.hands
        self.has_played = (False,) * deal.players
        self.turn = deal.leader

    @classmethod
    def start(cls, settings: Settings, deal: Deal) -> State:
        """A new hand (same as ``State(settings, deal)``): instant wins are checked at once; otherwise the leader
        is to play, and anyone may declare sâm before the first card is played."""
        return cls(settings, deal)

    # ----- questions -----

    @property
    def players(self) -> int:
        return self.deal.players

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def turn_timer_s(self) -> int:
        """How long the player whose turn it is has before the timer acts for him."""
        return self.settings.turn_timer_s

    @property
    def leading(self) -> bool:
        """Whether the player to act leads a round (plays any combination, may not pass)."""
        return not self.is_over and self.top is None

    def cards_left(self, seat: int) -> int:
        """How many cards ``seat`` holds now."""
        return len(self.hands[seat])

    def next_seat(self, seat: int) -> int:
        """Clockwise: the seat after ``seat`` in play order."""
        return (seat + 1) % self.players

    def seat_before(self, seat: int) -> int:
        return (seat - 1) % self.players

    def bao1_duties(self) -> tuple[Bao1Duty, ...]:
        """Who must play his highest single now, because the next player has one card (báo 1)."""
        if self.is_over:
            return ()
        return tuple(
            Bao1Duty(self.seat_before(seat), seat) for seat in range(self.players) if self.cards_left(seat) == 1
        )

    def highest_single(self, seat: int) -> Card:
        return max(self.hands[seat], key=lambda card: power(card.rank))

    def can_declare_sam_now(self) -> bool:
        return not self.is_over and not self.started and self.declarer is None

    def legal_plays(self, seat: int) -> tuple[Combo, ...]:
        """Every distinct set of cards ``seat`` may play now (none when it is not his turn)."""
        if self.is_over or seat != self.turn:
            return ()
        return tuple(
            combos_beating(self.hands[seat], self.top, quad_beats_pair_of_twos=self.settings.quad_beats_pair_of_twos)
        )

    def legal_actions(self) -> tuple[Action, ...]:
        """Exactly the actions the rules allow now."""
        if self.is_over or self.turn is None:
            return ()
        actions: list[Action] = []
        if self.can_declare_sam_now():
            order = [(self.deal.leader + step) % self.players for step in range(self.players)]
            actions.extend(DeclareSam(seat) for seat in order)
        actions.extend(PlayCards(self.turn, combo.cards) for combo in self.legal_plays(self.turn))
        if not self.leading:
            actions.append(Pass(self.turn))
        actions.append(Timeout(self.turn))
        return tuple(actions)

    # ----- checks -----

    def _verify_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(NO_SUCH_SEAT(seat=seat, last=self.players - 1))

    def _verify_seat_to_act(self, seat: int) -> None:
        if self.is_over:
            raise IllegalAction(HAND_OVER())
        self._verify_seat(seat)
        if seat != self.turn:
            if seat in self.passed:
                raise IllegalAction(PASSED_THIS_ROUND(seat=seat))
            raise IllegalAction(NOT_YOUR_TURN(turn=self.turn, seat=seat))

    def verify_declare_sam(self, seat: int) -> None:
        if self.is_over:
            raise IllegalAction(HAND_OVER())
        self._verify_seat(seat)
        if self.declarer is not None:
            raise IllegalAction(SAM_ALREADY_DECLARED(seat=self.declarer))
        if self.started:
            raise IllegalAction(SAM_TOO_LATE())

    def verify_play(self, seat: int, cards: Sequence[Card]) -> Combo:
        """Check a play and return the combination it makes."""
        self._verify_seat_to_act(seat)
        if len(set(cards)) != len(cards):
            raise IllegalAction(SAME_CARD_TWICE())
        if not cards:
            raise IllegalAction(NO_CARDS())
        self._verify_holding(seat, cards)
        combo = classify(cards)
        if combo is None:
            raise IllegalAction(NOT_A_COMBINATION(cards=CardsText(sort_cards(cards))))
        if self.top is not None:
            reason = why_not_beaten(self.top, combo, quad_beats_pair_of_twos=self.settings.quad_beats_pair_of_twos)
            if reason is not None:
                raise IllegalAction(reason)
        return combo

    def _verify_holding(self, seat: int, cards: Sequence[Card]) -> None:
        missing = [card for card in cards if card not in self.hands[seat]]
        if missing:
            raise IllegalAction(NOT_HOLDING(seat=seat, cards=CardsText(missing)))

    def verify_pass(self, seat: int) -> None:
        self._verify_seat_to_act(seat)
        if self.top is None:
            raise IllegalAction(MUST_LEAD(seat=seat))

    def verify_timeout(self, seat: int, cards: Sequence[Card] = ()) -> None:
        """``cards``: the card the record says the timer laid (checked against the rule when given)."""
        self._timer_card(seat, tuple(cards))

    def _timer_card(self, seat: int, named: tuple[Card, ...]) -> Card | None:
        """The card the timer lays for ``seat`` (None: he passes), checked against the card a record names."""
        self._verify_seat_to_act(seat)
        if self.top is not None:
            if named:
                raise IllegalAction(TIMER_PASSES(seat=seat))
            return None
        card, which = self.timer_single(seat)
        if named and named != (card,):
            raise IllegalAction(TIMER_LAYS(seat=seat, which=which, card=card, cards=CardsText(named)))
        return card

    def timer_single(self, seat: int) -> tuple[Card, Phrase]:
        """The single the timer lays for ``seat`` when he must lead, and which it is in words: his lowest, or his
        highest while he is under the báo-1 duty (when ``timeout_keeps_bao1_duty`` is on)."""
        if self.settings.timeout_keeps_bao1_duty and self._under_duty(seat):
            return self.highest_single(seat), HIGHEST()
        return min(self.hands[seat], key=lambda c: power(c.rank)), LOWEST()

    def verify(self, action: Action) -> None:
        """Raise ``IllegalAction`` with the reason when ``action`` may not be applied now."""
        if isinstance(action, DeclareSam):
            self.verify_declare_sam(action.seat)
        elif isinstance(action, PlayCards):
            self.verify_play(action.seat, action.cards)
        elif isinstance(action, Pass):
            self.verify_pass(action.seat)
        elif isinstance(action, Timeout):
            self.verify_timeout(action.seat, action.cards)
        elif isinstance(action, (ClaimInstant, Show)):
            self._verify_table_action(action)
        else:
            raise IllegalAction(f"{action!r} is not a Sâm Lốc action")

    def _verify_table_action(self, action: ClaimInstant | Show) -> None:
        raise IllegalAction(TABLE_ONLY(kind=action.kind))

    def can(self, action: Action) -> bool:
        return answers_yes(self.verify, action)

    def can_declare_sam(self, seat: int) -> bool:
        return answers_yes(self.verify_declare_sam, seat)

    def can_play(self, seat: int, cards: Sequence[Card]) -> bool:
        return answers_yes(self.verify_play, seat, cards)

    def can_pass(self, seat: int) -> bool:
        return answers_yes(self.verify_pass, seat)

    def can_timeout(self, seat: int, cards: Sequence[Card] = ()) -> bool:
        return answers_yes(self.verify_timeout, seat, cards)

    # ----- actions -----

    def declare_sam(self, seat: int) -> SamDeclared:
        self.verify_declare_sam(seat)
        self.declarer = seat
        self.turn = seat
        record = SamDeclared(seat)
        self.history = (*self.history, record)
        return record

    def play(self, seat: int, cards: Sequence[Card]) -> Played:
        combo = self.verify_play(seat, cards)
        return self._record(self._apply_play(seat, combo, timed_out=False))

    def pass_(self, seat: int) -> Passed:
        self.verify_pass(seat)
        return self._record(self._apply_pass(seat, timed_out=False))

    def timeout(self, seat: int, cards: Sequence[Card] = ()) -> Played | Passed:
        """The turn timer ran out: a player who may pass passes; one who must lead plays his lowest single
        (his highest while he is under the báo-1 duty, when ``timeout_keeps_bao1_duty`` is on). ``cards``: the
        card a record says was laid, checked."""
        named = tuple(cards)
        card = self._timer_card(seat, named)
        if card is None:
            return self._record(self._apply_pass(seat, timed_out=True))
        combo = classify((card,))
        assert combo is not None
        return self._record(self._apply_play(seat, combo, timed_out=True, card_named=bool(named)))

    def apply(self, action: Action) -> Record:
        if isinstance(action, DeclareSam):
            return self.declare_sam(action.seat)
        if isinstance(action, PlayCards):
            return self.play(action.seat, action.cards)
        if isinstance(action, Pass):
            return self.pass_(action.seat)
        if isinstance(action, Timeout):
            return self.timeout(action.seat, action.cards)
        if isinstance(action, (ClaimInstant, Show)):
            return self._apply_table_action(action)
        raise IllegalAction(f"{action!r} is not a Sâm Lốc action")

    def _apply_table_action(self, action: ClaimInstant | Show) -> Record:
        raise IllegalAction(TABLE_ONLY(kind=action.kind))

    def _record(self, record: R) -> R:
        self.history = (*self.history, record)
        return record

    def _under_duty(self, seat: int) -> bool:
        return self.cards_left(self.next_seat(seat)) == 1

    def _check_duty(self, seat: int, combo: Combo, effects: list[str]) -> None:
        """Record a báo-1 breach: a single that is not his highest while the next player has one card."""
        if combo.kind is not Kind.SINGLE or not self._under_duty(seat):
            return
        highest = self.highest_single(seat)
        if power(combo.cards[0].rank) < power(highest.rank):
            announced = self.next_seat(seat)
            self.breaches = (*self.breaches, Breach(seat, announced, self.round_no))
            effects.append(BAO1_BROKEN(seat=seat, highest=highest, announced=announced))

    def _take(self, seat: int, combo: Combo) -> None:
        """The cards of a play leave the player's hand."""
        self.hands = _replace(self.hands, seat, tuple(c for c in self.hands[seat] if c not in combo.cards))

    def _apply_play(self, seat: int, combo: Combo, *, timed_out: bool, card_named: bool = False) -> Played:
        effects: list[str] = []
        self._check_duty(seat, combo, effects)
        blocked_sam = False
        if self.top is not None and self.top_seat is not None:
            effects.extend(self._chop_effects(seat, combo, self.top, self.top_seat))
            blocked_sam = self.declarer is not None and self.top_seat == self.declarer
        self._take(seat, combo)
        self.has_played = _replace(self.has_played, seat, True)
        self.started = True
        self.top, self.top_seat = combo, seat
        left = self.cards_left(seat)
        if left == 1:
            effects.append(BAO1(seat=seat, duty=self.seat_before(seat)))
        if blocked_sam:
            assert self.declarer is not None
            effects.extend(self._close_round())
            self._end(Outcome("sam_fail", self._others(self.declarer), blocker=seat, final_round=self.round_no))
            effects.append(SAM_BLOCKED(seat=seat, declarer=self.declarer))
        elif left == 0:
            final_round = self.round_no
            effects.extend(self._close_round())
            if seat == self.declarer:
                if combo.has_two:
                    self._end(Outcome("sam_fail", self._others(seat), finisher=seat, final_round=final_round))
                    effects.append(SAM_OUT_ON_TWO(seat=seat))
                else:
                    self._end(Outcome("sam_success", (seat,), finisher=seat, final_round=final_round))
                    effects.append(SAM_SUCCEEDS(seat=seat))
            elif combo.has_two:
                self._end(Outcome("thoi_finish", self._others(seat), finisher=seat, final_round=final_round))
                effects.append(OUT_ON_TWO(seat=seat))
            else:
                self._end(Outcome("win", (seat,), finisher=seat, final_round=final_round))
                effects.append(GOES_OUT(seat=seat))
        else:
            self._advance(seat, effects)
        return Played(seat, combo, tuple(effects), timed_out, card_named)

    def _chop_effects(self, seat: int, combo: Combo, top: Combo, top_seat: int) -> list[str]:
        if combo.kind is not Kind.QUAD:
            return []
        settings = self.settings
        if top.kind is not Kind.QUAD:  # a quad on a 2 (or on a pair of 2s): a chop
            twos = sum(1 for card in top.cards if card.rank is Rank.TWO)
            value = min(settings.chop_cap_bets, settings.chop_bets * twos)
            self.chain = ChopChain(top_seat, seat, value)
            chopped = CardsText(top.cards)
            return [CHOPS(seat=seat, victim=top_seat, cards=chopped, value=value, amount=settings.times_bet(value))]
        if self.chain is not None and self.chain.chopper == top_seat:
            value = min(settings.chop_cap_bets, self.chain.value_bets + settings.overkill_step_bets)
            self.chain = ChopChain(top_seat, seat, value, self.chain.overkills + 1)
            return [OVERKILLS(seat=seat, victim=top_seat, value=value, amount=settings.times_bet(value))]
        return []

    def _apply_pass(self, seat: int, *, timed_out: bool) -> Passed:
        self.passed = self.passed | {seat}
        effects: list[str] = []
        self._advance(seat, effects)
        return Passed(seat, tuple(effects), timed_out)

    def _advance(self, seat: int, effects: list[str]) -> None:
        following = self.next_seat(seat)
        while following in self.passed:
            following = self.next_seat(following)
        if following == self.top_seat:
            leader = following
            effects.extend(self._close_round())
            self.round_no += 1
            self.passed = frozenset()
            self.top = self.top_seat = None
            effects.append(NEW_ROUND(seat=leader))
        self.turn = following

    def _close_round(self) -> list[str]:
        chain = self.chain
        if chain is None:
            return []
        self.chain = None
        reason = CHOP() if chain.overkills == 0 else OVERKILL(count=chain.overkills)
        amount = self.settings.times_bet(chain.value_bets)
        self.chops = (*self.chops, Payment(chain.victim, chain.chopper, amount, reason))
        return [CHOP_SETTLED(reason=reason, victim=chain.victim, chopper=chain.chopper, amount=amount)]

    def _end(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.turn = None
        self.passed = frozenset()

    def _others(self, seat: int) -> tuple[int, ...]:
        return tuple(other for other in range(self.players) if other != seat)

    # ----- after the hand -----

    def next_leader(self) -> int:
        """Who leads the next hand: the winner; after a failed sâm the player who blocked it; (decision) after an
        instant win shared by several, the first of them from this hand's leader; when nobody won (a thối
        finish, or a declarer going out on a 2) this hand's leader again."""
        outcome = self.outcome
        if outcome is None:
            raise IllegalAction(HAND_NOT_OVER())
        if outcome.result == "sam_fail":
            return outcome.blocker if outcome.blocker is not None else self.deal.leader
        if outcome.result == "thoi_finish":
            return self.deal.leader
        order = [(self.deal.leader + step) % self.players for step in range(self.players)]
        return next(seat for seat in order if seat in outcome.winners)

    def copy(self) -> Self:
        return copy.copy(self)  # every field is an immutable value

    def actions_json(self) -> list[dict[str, JSON]]:
        return [record.to_json() for record in self.history]

    def to_json(self) -> dict[str, JSON]:
        """A hand file: table, deal and actions (all that is needed to rebuild this state), plus a read-only
        snapshot under "now" that ``from_json`` checks against the replay."""
        return {
            "game": GAME,
            "table": self.settings.to_json(),
            **self.deal.to_json(),
            "actions": self.actions_json(),
            "now": self.snapshot(),
        }

    def snapshot(self) -> dict[str, JSON]:
        return {"hands": [[str(card) for card in cards] for cards in self.hands], **self._play_snapshot()}

    def _play_snapshot(self) -> dict[str, JSON]:
        """Where the play stands (turn, the combination on top, who passed, the declarer, the result)."""
        return {
            "turn": self.turn,
            "top": None if self.top is None else [str(card) for card in self.top.cards],
            "passed": sorted(self.passed),
            "declarer": self.declarer,
            "result": None if self.outcome is None else self.outcome.result,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> State:
        actions = record_actions(data, game=GAME, what="a Sâm Lốc hand file", keys=HAND_FILE_KEYS,
                                 example=ACTION_EXAMPLE)
        deal = {"hands": data.get("hands"), "leader": data.get("leader")}
        hand = replay(settings_from_json(data.get("table", {})), deal, actions)
        if "now" in data and data["now"] != hand.snapshot():
            raise InputError("the saved state does not match what its actions give: the file was altered")
        return hand

    def deal_to_json(self) -> dict[str, JSON]:
        return self.deal.to_json()

    def settle(self) -> Settlement:
        return settle(self)


T = TypeVar("T")

HAND_FILE_KEYS = ("game", "table", "hands", "leader", "actions", "now")
ACTION_EXAMPLE = '{"kind": "play", "seat": 0, "cards": ["3S"]}'


def _replace(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def replay(
    settings: Settings,
    deal: Mapping[str, JSON] | Deal,
    actions: Sequence[Mapping[str, JSON]],
    *,
    check_instant_wins: bool = True,
) -> State:
    """Rebuild a hand from its deal and recorded actions (today's envelope or the older form); an illegal one
    raises ``IllegalAction`` starting with ``action <index>: ``. ``check_instant_wins`` off: an instant win on the
    deal is not taken (a hand rebuilt from a table record, where only a claimed one counts)."""
    state = State(settings, deal if isinstance(deal, Deal) else deal_from_json(deal),
                  check_instant_wins=check_instant_wins)
    return replay_actions(state, actions, action_from_json)


def leader_of_next_hand(settings: Settings, previous: State | None) -> int:
    """Who leads a hand when nobody declares sâm: the room owner for the table's first hand, then as
    ``State.next_leader`` says (the previous winner, or the player who blocked a failed sâm)."""
    return settings.room_owner if previous is None else previous.next_leader()
