"""Money at the end of a Sâm Lốc hand: every payment with its reason, and each seat's net."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from engine.cards import Card, CardsText, Rank
from engine.common import JSON, IllegalAction, Payment
from engine.phrases import PhraseTemplate, join
from engine.samloc.combos import RANK_PLURALS, SETS, Kind, sort_cards
from engine.samloc.instant import InstantWin
from engine.samloc.outcome import Breach, Outcome, Result
from engine.samloc.table import Settings
from engine.violations import Violation


class Finished(Protocol):
    """What the settlement reads of a hand (``State``), without importing it."""

    @property
    def settings(self) -> Settings: ...
    @property
    def players(self) -> int: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def outcome(self) -> Outcome | None: ...
    @property
    def declarer(self) -> int | None: ...
    @property
    def instant(self) -> tuple[InstantWin, ...]: ...
    @property
    def breaches(self) -> tuple[Breach, ...]: ...
    @property
    def chops(self) -> tuple[Payment, ...]: ...
    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def has_played(self) -> tuple[bool, ...]: ...


# Why money moves, as phrases (a screen words them in its language).
NOT_OVER = PhraseTemplate("samloc.illegal.not_over", "the hand is not over: seat {seat} is to play")
INSTANT_WIN = PhraseTemplate("samloc.reason.instant_win", "instant win: {name}")
SAM = PhraseTemplate("samloc.reason.sam", "sâm")
SAM_FAILED = PhraseTemplate("samloc.reason.sam_failed", "sâm failed")
OUT_ON_TWO = PhraseTemplate("samloc.reason.out_on_two", "going out on a 2 (thối)")
PAYS_FOR_EVERYONE = PhraseTemplate(
    "samloc.reason.pays_for_everyone", "báo 1, pays for everyone: seat {seat}'s {reason}"
)
CARDS_LEFT = PhraseTemplate("samloc.reason.cards_left", "cards left ({count})")
NEVER_PLAYED = PhraseTemplate("samloc.reason.never_played", "never played a card (counts as {count} cards)")
THOI = PhraseTemplate("samloc.reason.thoi", "thối: left holding {cards}")


@dataclass(frozen=True, slots=True)
class Settlement:
    """The money of a hand. ``checked``: settled from a table record (the hands rebuilt at the end), whose
    ``violations`` hold it for a supervisor; its JSON then also says ``held`` and lists them."""

    result: Result
    winners: tuple[int, ...]
    payments: tuple[Payment, ...]
    players: int
    violations: tuple[Violation, ...] = ()
    checked: bool = False

    @property
    def held(self) -> bool:
        """Whether a supervisor must look before anything is paid (a rule found broken at the hand's end)."""
        return bool(self.violations)

    @property
    def nets(self) -> dict[int, int]:
        """Each seat's net in coins (received minus paid); they sum to zero."""
        nets = dict.fromkeys(range(self.players), 0)
        for payment in self.payments:
            assert isinstance(payment.payer, int) and isinstance(payment.payee, int)
            nets[payment.payer] -= payment.amount
            nets[payment.payee] += payment.amount
        return nets

    @property
    def deltas(self) -> list[int]:
        nets = self.nets
        return [nets[seat] for seat in range(self.players)]

    def balances_after(self, balances: list[int] | tuple[int, ...]) -> tuple[int, ...]:
        """The seats' coin balances once this hand is paid (in full, even below zero)."""
        if len(balances) != self.players:
            raise ValueError(f"{len(balances)} balances for a hand of {self.players} seats")
        return tuple(coins + delta for coins, delta in zip(balances, self.deltas, strict=True))

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "result": self.result,
            "winners": list(self.winners),
            "deltas": self.deltas,
            "payments": [payment.to_json() for payment in self.payments],
        }
        if self.checked:
            data["held"] = self.held
            data["violations"] = [violation.to_json() for violation in self.violations]
        return data


def settle(hand: Finished) -> Settlement:
    outcome = hand.outcome
    if outcome is None:
        raise IllegalAction(NOT_OVER(seat=hand.turn))
    settings = hand.settings
    others = [seat for seat in range(hand.players)]
    payments: list[Payment] = []

    def pay(payer: int, payee: int, bets: int, reason: str) -> None:
        if bets > 0 and payer != payee:
            payments.append(Payment(payer, payee, settings.times_bet(bets), reason))

    if outcome.result == "instant_win":
        for win in hand.instant:
            for loser in others:
                if loser not in outcome.winners:
                    pay(loser, win.seat, settings.instant_win_bets, INSTANT_WIN(name=win.name))
    elif outcome.result == "sam_success":
        for loser in others:
            pay(loser, outcome.winners[0], settings.sam_bets, SAM())
    elif outcome.result == "sam_fail":
        declarer = hand.declarer
        assert declarer is not None
        for seat in outcome.winners:
            pay(declarer, seat, settings.sam_bets, SAM_FAILED())
    elif outcome.result == "thoi_finish":
        assert outcome.finisher is not None
        for seat in outcome.winners:
            pay(outcome.finisher, seat, settings.two_finish_bets, OUT_ON_TWO())
    else:
        assert outcome.finisher is not None
        winner = outcome.finisher
        breacher = next(
            (
                breach.seat
                for breach in hand.breaches
                if breach.announced == winner and breach.round_no == outcome.final_round
            ),
            None,
        )
        for loser in others:
            if loser == winner:
                continue
            for bets, reason in _loser_dues(hand, loser):
                if breacher is None:
                    pay(loser, winner, bets, reason)
                else:
                    pay(breacher, winner, bets, PAYS_FOR_EVERYONE(seat=loser, reason=reason))
    if outcome.result != "thoi_finish":
        payments.extend(hand.chops)
    return Settlement(outcome.result, outcome.winners, tuple(payments), hand.players)


def _loser_dues(hand: Finished, loser: int) -> list[tuple[int, str]]:
    """What one loser owes the winner, in ×bet, with reasons: cards left (or never played), thối."""
    settings = hand.settings
    cards = hand.hands[loser]
    dues: list[tuple[int, str]]
    if hand.has_played[loser]:
        dues = [(settings.card_bets * len(cards), CARDS_LEFT(count=len(cards)))]
    else:
        count = settings.never_played_cards
        dues = [(settings.card_bets * count, NEVER_PLAYED(count=count))]
    stinky = thoi_cards(cards)
    if stinky:
        dues.append((settings.thoi_bets * len(stinky), THOI(cards=join(", ", stinky))))
    return dues


def thoi_cards(cards: tuple[Card, ...]) -> list[str]:
    """The 2s and the quads a hand still holds, each counted once (four 2s count as four 2s and a quad)."""
    counts = Counter(card.rank for card in cards)
    twos: list[str] = [CardsText((card,)) for card in sort_cards(cards) if card.rank is Rank.TWO]
    quads = [SETS[Kind.QUAD](ranks=RANK_PLURALS[rank]()) for rank, n in counts.items() if n == 4]
    return twos + quads
