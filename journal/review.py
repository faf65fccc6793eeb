"""Supervisor review: rounds with their outcome, a round's events beside its replayed result, stats and exports.

Everything here is rebuilt from the events alone; a round's result is re-computed by the game's engine from the
recorded settings, deal and actions, and compared with what the dealer was shown and what was paid.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TextIO

from engine.errors import InputError
from engine.phrases import renumber_seats
from journal import words
from journal.events import PaymentLine, ResultsShown, RoundBegun, RoundSettled, RoundVoided
from journal.store import Entry, JournalReader, settlement_json

JSON = Any
OUTCOMES = ("settled", "voided", "open")

_COUNTED = {"dice_reshaken": "reshakes", "cards_misread": "misreads", "cards_corrected": "corrections"}


@dataclass(slots=True)
class RoundSummary:
    round_id: int
    table_id: str
    kiosk_id: str
    game: str
    begun_at: str
    ended_at: str | None = None
    outcome: str = "open"
    actions: int = 0
    reshakes: int = 0
    misreads: int = 0
    corrections: int = 0
    paid: int = 0
    """Chips moved by the settlement (sum of its payments)."""
    house_net: int | None = None
    voided_by: str = ""
    void_reason: str = ""
    first_seq: int = 0
    """The first event of the round, counting the dice and cards read just before it began."""
    last_seq: int = 0

    def to_json(self) -> dict[str, JSON]:
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class RoundFilter:
    since: date | None = None
    until: date | None = None
    table: str | None = None
    game: str | None = None
    outcome: str | None = None

    def accepts(self, summary: RoundSummary) -> bool:
        day = date.fromisoformat(summary.begun_at[:10])
        return (
            (self.since is None or day >= self.since)
            and (self.until is None or day <= self.until)
            and (self.table is None or summary.table_id == self.table)
            and (self.game is None or summary.game == self.game)
            and (self.outcome is None or summary.outcome == self.outcome)
        )


@dataclass(frozen=True, slots=True)
class Totals:
    rounds: int
    settled: int
    voided: int
    open: int
    paid: int
    house_net: int


def summarize(reader: JournalReader) -> list[RoundSummary]:
    """Every round in the order begun. Dice, misreads and corrections made before a round began count for it."""
    rounds: dict[int, RoundSummary] = {}
    current: RoundSummary | None = None
    pending: Counter[str] = Counter()
    pending_first: int | None = None
    for entry in reader.entries():
        if entry.kind == RoundBegun.KIND and entry.round_id is not None:
            current = RoundSummary(entry.round_id, entry.table_id, entry.kiosk_id, str(entry.payload["game"]),
                                   entry.time, first_seq=pending_first or entry.seq, last_seq=entry.seq)
            for attribute, count in pending.items():
                setattr(current, attribute, count)
            pending, pending_first = Counter(), None
            rounds[entry.round_id] = current
            continue
        target = rounds.get(entry.round_id) if entry.round_id is not None else None
        if target is None and entry.kind in _COUNTED and current is None:
            pending[_COUNTED[entry.kind]] += 1
            pending_first = pending_first or entry.seq
        if target is None and entry.kind in ("dice_rolled", "cards_read") and current is None:
            pending_first = pending_first or entry.seq
        if target is None:
            continue
        target.last_seq = entry.seq
        if entry.kind in _COUNTED:
            setattr(target, _COUNTED[entry.kind], getattr(target, _COUNTED[entry.kind]) + 1)
        elif entry.kind == "action_recorded":
            target.actions += 1
        elif entry.kind == RoundSettled.KIND:
            settled = entry.event
            assert isinstance(settled, RoundSettled)
            target.outcome, target.ended_at = "settled", entry.time
            target.paid = sum(p.amount for p in settled.payments)
            target.house_net = settled.nets.get("house")
            current = None
        elif entry.kind == RoundVoided.KIND:
            voided = entry.event
            assert isinstance(voided, RoundVoided)
            target.outcome, target.ended_at = "voided", entry.time
            target.voided_by, target.void_reason = voided.by, voided.reason
            current = None
    return list(rounds.values())


def select(reader: JournalReader, where: RoundFilter = RoundFilter()) -> list[RoundSummary]:
    return [r for r in summarize(reader) if where.accepts(r)]


def totals(rounds: Iterable[RoundSummary]) -> Totals:
    rounds = list(rounds)
    outcomes = Counter(r.outcome for r in rounds)
    return Totals(len(rounds), outcomes["settled"], outcomes["voided"], outcomes["open"],
                  sum(r.paid for r in rounds), sum(r.house_net or 0 for r in rounds))


# ---- one round, replayed ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replayed:
    """The engine's result for a round rebuilt from its events, and whether it agrees with the record."""

    error: str | None
    finished: bool = False
    payments: tuple[PaymentLine, ...] = ()
    nets: dict[str, int] = field(default_factory=dict)
    descriptions: tuple[str, ...] = ()
    agrees_with_shown: bool | None = None
    agrees_with_settled: bool | None = None
    violations: tuple[str, ...] = ()
    """What a table record's hand, rebuilt at its end, broke (one line each, as a phrase): its settlement is held
    for a supervisor."""

    @property
    def agrees(self) -> bool:
        """No disagreement with anything recorded (a round never shown or settled agrees vacuously)."""
        return self.error is None and self.agrees_with_shown is not False and self.agrees_with_settled is not False

    @property
    def disagreement(self) -> str | None:
        """Why the replay does not agree, in words (a phrase); None when it agrees."""
        if self.error is not None:
            return self.error
        if self.agrees_with_shown is False or self.agrees_with_settled is False:
            if not self.finished:
                return words.REPLAY_UNFINISHED()
            return words.REPLAY_DIFFERS_SHOWN() if self.agrees_with_shown is False else words.REPLAY_DIFFERS_PAID()
        return None


@dataclass(frozen=True, slots=True)
class RoundDetail:
    summary: RoundSummary
    entries: tuple[Entry, ...]
    begun: RoundBegun
    shown: ResultsShown | None
    settled: RoundSettled | None
    replayed: Replayed
    flags: tuple[str, ...] = ()
    """What a supervisor should look at, in words: a hand the same as the last round's (cards left on the felt),
    dice journaled twice, a round paid without its results recorded as shown."""


def round_detail(reader: JournalReader, round_id: int, rounds: list[RoundSummary] | None = None) -> RoundDetail:
    rounds = rounds if rounds is not None else summarize(reader)
    summary = next((r for r in rounds if r.round_id == round_id), None)
    if summary is None:
        known = f"rounds {rounds[0].round_id}–{rounds[-1].round_id}" if rounds else "no rounds yet"
        raise InputError(f"there is no round {round_id} in this journal ({known}); `dealer-assist logs rounds` "
                         "lists them")
    entries = tuple(e for e in reader.entries(after_seq=summary.first_seq - 1, until_seq=summary.last_seq)
                    if e.round_id in (None, round_id))
    begun = next(e.event for e in entries if e.kind == RoundBegun.KIND)
    assert isinstance(begun, RoundBegun)
    shown = settled = None
    actions: list[dict[str, JSON]] = []
    for entry in entries:
        if entry.round_id != round_id:
            continue
        event = entry.event
        if isinstance(event, ResultsShown):
            shown = event
        elif isinstance(event, RoundSettled):
            settled = event
        elif entry.kind == "action_recorded":
            actions.append(entry.payload["action"])
    flags = round_flags(reader, summary, rounds, entries, actions)
    return RoundDetail(summary, entries, begun, shown, settled, replay(begun, actions, shown, settled), flags)


def round_flags(reader: JournalReader, summary: RoundSummary, rounds: list[RoundSummary], entries: Iterable[Entry],
                actions: list[dict[str, JSON]]) -> tuple[str, ...]:
    """The round's flags for review (see ``RoundDetail.flags``), from the events alone."""
    flags = []
    index = next(i for i, r in enumerate(rounds) if r.round_id == summary.round_id)
    previous = rounds[index - 1] if index > 0 else None
    if summary.game == "baibuu" and previous is not None and previous.game == "baibuu":
        earlier = [e.payload["action"] for e in reader.entries(round_id=previous.round_id, kinds=["action_recorded"])]
        last = {cards: name for name, cards in baibuu_hands(earlier).items()}
        for name, cards in baibuu_hands(actions).items():
            if cards in last:
                flags.append(words.FLAG_SAME_HAND(hand=_hand_name(name), cards=" ".join(sorted(cards)),
                                                  earlier=_hand_name(last[cards]), round=previous.round_id))
    own = [entry for entry in entries if entry.round_id == summary.round_id]
    dice = [" ".join(map(str, entry.payload["dice"])) for entry in own if entry.kind == "dice_rolled"]
    if len(dice) > 1:
        flags.append(words.FLAG_DICE_TWICE(count=len(dice), dice=", ".join(dice)))
    kinds = [entry.kind for entry in own]
    if RoundSettled.KIND in kinds and ResultsShown.KIND not in kinds:
        flags.append(words.FLAG_PAID_UNSHOWN())
    return tuple(flags)


def _hand_name(name: str) -> str:
    """``house`` or ``seat N`` (a hand's name in ``baibuu_hands``) as a phrase."""
    if name == "house":
        return words.HAND_HOUSE()
    return words.HAND_SEAT(seat=int(name.split()[1]))


def baibuu_hands(actions: Iterable[dict[str, JSON]]) -> dict[str, frozenset[str]]:
    """A Bài Bửu round's hands as recorded: "house" and "seat N" → the hand's four cards."""
    from engine.baibuu.actions import upgrade

    hands: dict[str, frozenset[str]] = {}
    for action in map(upgrade, actions):  # journals of old wrote {"action": …}, today's {"kind": …}
        if action.get("kind") == "reveal_house":
            hands["house"] = frozenset(action["cards"])
        elif action.get("kind") == "set_seat":
            hands[f"seat {action['seat']}"] = frozenset([*action["high"], *action["low"]])
    return hands


def replay(begun: RoundBegun, actions: list[dict[str, JSON]], shown: ResultsShown | None,
           settled: RoundSettled | None) -> Replayed:
    """Rebuild the round with its engine and settle it; compare with what was shown and what was paid."""
    from engine.games import load

    try:
        game = load(begun.game)
        settings = game.settings_from_json(begun.settings)
        state = game.replay(settings, begun.deal, actions)
    except ModuleNotFoundError as error:
        return Replayed(words.REPLAY_NOT_INSTALLED(game=begun.game, module=error.name))
    except InputError as error:
        return Replayed(words.REPLAY_REFUSED(error=words.phrase_of(error)))
    except Exception as error:  # an engine bug must not hide the rest of the review
        return Replayed(words.REPLAY_FAILED(error=f"{type(error).__name__}: {error}"))
    descriptions = tuple(record.describe() for record in getattr(state, "history", ()))
    if not state.is_over:
        return Replayed(None, False, descriptions=descriptions,
                        agrees_with_shown=None if shown is None else False,
                        agrees_with_settled=None if settled is None else False)
    try:
        settlement = state.settle()
        payments, nets = settlement_json(settlement)
    except Exception as error:
        return Replayed(words.REPLAY_UNSETTLED(error=f"{type(error).__name__}: {error}"),
                        descriptions=descriptions)
    violations = tuple(violation.message for violation in getattr(settlement, "violations", ()))
    seats = table_seats(begun)
    if seats is not None:  # a Sâm Lốc hand some seats sat out of: named as the table names them, as journaled
        descriptions = tuple(renumber_seats(text, seats) for text in descriptions)
        violations = tuple(renumber_seats(text, seats) for text in violations)
        payments = tuple(PaymentLine(seats[int(p.payer)], seats[int(p.payee)], p.amount,
                                     renumber_seats(p.reason, seats)) for p in payments)
        nets = {str(seats[int(party)]): net for party, net in nets.items()}
    return Replayed(
        None, True, payments, nets, descriptions,
        None if shown is None else same_result(payments, nets, shown.payments, shown.nets),
        None if settled is None else same_result(payments, nets, settled.payments, settled.nets),
        violations,
    )


def table_seats(begun: RoundBegun) -> tuple[int, ...] | None:
    """The table seats a Sâm Lốc hand was dealt to, in play order, when the kiosk journaled them (a seat under the
    bet sat out): the hand's seat ``i`` is the table's ``seats[i]``. None when the hand's seats are the table's."""
    deal = begun.deal
    seats = deal.get("seats") if begun.game == "samloc" and isinstance(deal, dict) else None
    if not isinstance(seats, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in seats):
        return None
    return tuple(seats)


def same_result(payments_a: Iterable[PaymentLine], nets_a: dict[str, int],
                payments_b: Iterable[PaymentLine], nets_b: dict[str, int]) -> bool:
    """Equal payments (in any order) and equal nets (a party with a net of 0 may be left out)."""
    def key(payments: Iterable[PaymentLine]) -> list[str]:
        return sorted(json.dumps({**p.to_json(), "reason": _unnumbered(p.reason)}, sort_keys=True) for p in payments)

    def nonzero(nets: dict[str, int]) -> dict[str, int]:
        return {party: amount for party, amount in nets.items() if amount}

    return key(payments_a) == key(payments_b) and nonzero(nets_a) == nonzero(nets_b)


def _unnumbered(reason: str) -> str:
    """A payment's reason without the seat and team numbers in its words: the payer and payee are compared as
    numbers, and the words of Sâm Lốc and Schmier rounds journaled before issue 60 counted seats from 0 (today's
    from 1, as the table does)."""
    return re.sub(r"\b(seat|team) \d+", r"\1 #", reason)


def recall(reader: JournalReader, count: int = 10) -> list[RoundDetail]:
    """The last ``count`` rounds, newest first, each replayed."""
    rounds = summarize(reader)
    return [round_detail(reader, r.round_id, rounds) for r in reversed(rounds[-count:])]


# ---- stats and export ------------------------------------------------------------------------------------------


@dataclass(slots=True)
class DayStats:
    table_id: str
    day: str
    rounds: int = 0
    settled: int = 0
    voided: int = 0
    reshakes: int = 0
    misreads: int = 0
    corrections: int = 0
    cards_read: int = 0


def stats(reader: JournalReader) -> list[DayStats]:
    """Per table and day (UTC): rounds, voids, re-shakes, misreads and corrections."""
    table: dict[tuple[str, str], DayStats] = {}
    for entry in reader.entries(kinds=["round_begun", "round_settled", "round_voided", "dice_reshaken",
                                       "cards_misread", "cards_corrected", "cards_read"]):
        key = (entry.table_id, entry.time[:10])
        row = table.setdefault(key, DayStats(*key))
        attribute = {"round_begun": "rounds", "round_settled": "settled", "round_voided": "voided",
                     "cards_read": "cards_read", **_COUNTED}[entry.kind]
        setattr(row, attribute, getattr(row, attribute) + 1)
    return [table[k] for k in sorted(table)]


EXPORT_COLUMNS = ("seq", "time", "mono_ns", "boot_id", "kiosk_id", "table_id", "round_id", "kind", "payload",
                  "prev_hash", "hash")


def export_entries(entries: Iterator[Entry], out: TextIO, fmt: str) -> int:
    """Write events as CSV (payload as JSON text) or JSON Lines; returns how many were written."""
    count = 0
    if fmt == "jsonl":
        for entry in entries:
            out.write(json.dumps(entry.to_json(), ensure_ascii=False, sort_keys=True) + "\n")
            count += 1
        return count
    if fmt != "csv":
        raise InputError(f"export format {fmt!r} is not known: use csv or jsonl")
    writer = csv.writer(out)
    writer.writerow(EXPORT_COLUMNS)
    for entry in entries:
        data = entry.to_json()
        data["payload"] = json.dumps(entry.payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        writer.writerow(["" if data[c] is None else data[c] for c in EXPORT_COLUMNS])
        count += 1
    return count


