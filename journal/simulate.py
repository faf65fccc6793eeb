"""Simulated rounds of all three games written through the journal the way the kiosk writes them.

For the tests, the benchmark and a demo journal a supervisor can try ``dealer-assist logs`` on. Every choice
comes from the ``random.Random`` given; the engines decide what is legal and what it pays.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from journal.events import (
    CardsCorrected,
    CardsMisread,
    CardsRead,
    DiceReshaken,
    DiceRolled,
    HouseSplitShown,
)
from journal.store import Journal

GAMES = ("baibuu", "samloc", "schmier")


def play_round(journal: Journal, game: str, rng: random.Random, *, void: bool = False,
               incidents: bool = True, table: Mapping[str, Any] | None = None) -> tuple[int, Any]:
    """Play one round of ``game`` to its end (or void it half way); returns the round id and the final state.
    ``table``: Bài Bửu settings beyond the seats (``commission``, ``copy_rule`` …), for a table that runs others."""
    if game == "baibuu":
        return _baibuu(journal, rng, void, incidents, table or {})
    player = {"samloc": _samloc, "schmier": _schmier}[game]
    return player(journal, rng, void, incidents)


def fill(journal: Journal, rounds: int, seed: int = 0, *, void_every: int = 9) -> list[int]:
    """Play ``rounds`` rounds, cycling through the games; every ``void_every``-th round is voided half way."""
    rng = random.Random(seed)
    ids = []
    for number in range(rounds):
        game = GAMES[number % len(GAMES)]
        advance = getattr(journal.clock, "advance", None)
        if advance is not None:  # a ManualClock: let simulated time pass between rounds
            advance(rng.uniform(30, 120))
        round_id, _ = play_round(journal, game, rng, void=void_every > 0 and number % void_every == void_every - 1)
        ids.append(round_id)
    return ids


def _confidences(rng: random.Random, count: int) -> tuple[float, ...]:
    return tuple(round(rng.uniform(0.80, 0.999), 3) for _ in range(count))


def _read(journal: Journal, rng: random.Random, zone: str, cards: tuple[str, ...], incidents: bool) -> None:
    """Cards as the reader reports them, now and then after a misread and a dealer's correction."""
    if incidents and rng.random() < 0.1:
        journal.append(CardsMisread(zone, "a card is covered: confidence below the threshold", cards[:-1],
                                    _confidences(rng, len(cards) - 1)))
    if incidents and rng.random() < 0.08 and len(cards) >= 2:
        wrong = (cards[1], cards[0], *cards[2:]) if cards[0] != cards[1] else cards
        journal.append(CardsRead(zone, wrong, _confidences(rng, len(cards))))
        journal.append(CardsCorrected(zone, wrong, cards, by="dealer", reason="corrected on the card picker"))
        return
    journal.append(CardsRead(zone, cards, _confidences(rng, len(cards))))


def _finish(journal: Journal, round_id: int, state: Any, void: bool) -> tuple[int, Any]:
    if void:
        journal.void_round(round_id, by="supervisor S-1", reason="a card was exposed before the deal")
        return round_id, state
    settlement = state.settle()
    journal.show_results(round_id, settlement, lines=[f"{p.payer} pays {p.payee} {p.amount}"
                                                      for p in settlement.payments][:10])
    journal.close_round(round_id, settlement)
    return round_id, state


def _baibuu(journal: Journal, rng: random.Random, void: bool, incidents: bool, table: Mapping[str, Any]
            ) -> tuple[int, Any]:
    from engine import baibuu
    from engine.cards import shuffled, standard_deck

    seats = tuple(sorted(rng.sample(range(2, 8), rng.randint(1, 6))))
    settings = baibuu.Settings(seats=seats, **table)
    deal = baibuu.Deal.from_deck(shuffled(standard_deck(), rng.randrange(1 << 30)))
    state = baibuu.State(settings, deal)
    round_id = journal.begin_round("baibuu", settings, deal.to_json())
    shake = 1
    if incidents and rng.random() < 0.15:
        journal.append(DiceReshaken("MISSING_DIE"))
        shake = 2
    dice = tuple(rng.randint(1, 6) for _ in range(3))
    journal.append(DiceRolled(dice, shake))
    journal.record_action(round_id, state.roll(list(dice)))
    house = state.stack_of(1)
    assert house is not None
    _read(journal, rng, "house", tuple(map(str, house)), incidents)
    journal.record_action(round_id, state.reveal_house(house))
    split = baibuu.house_way(house)
    journal.append(HouseSplitShown(tuple(map(str, split.high.cards)), tuple(map(str, split.low.cards)), split.rule))
    journal.record_action(round_id, state.set_house(split.high.cards, split.low.cards))
    for number, seat in enumerate(seats):
        if void and number == len(seats) // 2:
            return _finish(journal, round_id, state, True)
        cards = list(state.stack_of(seat) or ())
        rng.shuffle(cards)
        _read(journal, rng, f"seat {seat}", tuple(map(str, cards)), incidents)
        high, low = _players_way(cards, random.Random(f"{round_id}-{seat}"))
        journal.record_action(round_id, state.set_seat(seat, rng.randint(1, 20) * 5, high, low))
    return _finish(journal, round_id, state, False)


MIS_SET_RATE = 0.02
"""How often a simulated player sets his low hand above his high one (a casino sees about 1 seat in 50)."""


def _players_way(cards: list[Any], rng: random.Random) -> tuple[list[Any], list[Any]]:
    """How a player sets four cards: as the house way would (good players mostly do), and now and then the wrong
    way round, a mis-set (``rng``: the seat's own, so that the round's other draws stay as they were)."""
    from engine import baibuu

    split = baibuu.house_way(cards)
    high, low = list(split.high.cards), list(split.low.cards)
    return (low, high) if rng.random() < MIS_SET_RATE else (high, low)


def _samloc(journal: Journal, rng: random.Random, void: bool, incidents: bool) -> tuple[int, Any]:
    from engine import samloc

    players = rng.randint(2, 4)
    settings = samloc.Settings(bet=rng.choice(samloc.BET_LEVELS[:4]))
    deal = samloc.random_deal(players, rng.randrange(players), rng)
    state = samloc.State.start(settings, deal)
    round_id = journal.begin_round("samloc", settings, state.deal_to_json())
    steps = 0
    while not state.is_over:
        if void and steps == 6:
            return _finish(journal, round_id, state, True)
        actions = state.legal_actions()
        plays = [a for a in actions if isinstance(a, samloc.PlayCards)]
        passes = [a for a in actions if isinstance(a, samloc.Pass)]
        declares = [a for a in actions if isinstance(a, samloc.DeclareSam)]
        action: samloc.Action
        if declares and rng.random() < 0.03:
            action = rng.choice(declares)
        elif plays and (not passes or rng.random() < 0.75):
            action = rng.choice(plays)
        elif passes:
            action = passes[0]
        else:
            action = rng.choice(actions)
        if isinstance(action, samloc.PlayCards):
            _read(journal, rng, "pile", tuple(map(str, action.cards)), incidents and len(action.cards) > 1)
        journal.record_action(round_id, state.apply(action))
        steps += 1
    return _finish(journal, round_id, state, False)


def _schmier(journal: Journal, rng: random.Random, void: bool, incidents: bool) -> tuple[int, Any]:
    from engine import schmier
    from engine.schmier.randomplay import random_action

    settings = schmier.Settings()
    deal = schmier.random_deal(rng, rng.randrange(6))
    state = schmier.State(settings, deal)
    round_id = journal.begin_round("schmier", settings, deal.to_json())
    steps = 0
    while not state.is_over:
        if void and steps == 10:
            return _finish(journal, round_id, state, True)
        action = random_action(state, rng)
        if isinstance(action, schmier.Play):
            _read(journal, rng, "trick", (str(action.card),), False)
        journal.record_action(round_id, state.apply(action))
        steps += 1
    return _finish(journal, round_id, state, False)
