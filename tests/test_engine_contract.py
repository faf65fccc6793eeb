"""One contract, every game: random legal play to the end on each engine, checked at every step.

Every listed action applies; every action the rules refuse is refused by ``verify`` with a reason and leaves the
state as it was; ``can`` agrees with ``legal_actions()``; the state replays from its JSON to an equal state; the
money of the settlement sums to zero; no card is lost or doubled. (Compare OpenSpiel's one random-simulation test
run on every game.) Game-specific properties stay in each game's own tests.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import baibuu, samloc, schmier
from engine.cards import Card, shuffled, standard_deck
from engine.common import ActionRecord, GameState, IllegalAction, Settlement, nets_from_payments
from engine.games import GAMES, load

DECK = standard_deck()


# ---------------------------------------------------------------- each game: a fresh state and its cards


def _new_baibuu(rng: random.Random) -> baibuu.State:
    seats = tuple(sorted(rng.sample(range(2, 8), rng.randint(1, 6))))
    deck = shuffled([card for card in DECK if not card.is_joker], rng.randrange(2**32))
    chip = rng.choice([1, 5])
    least = chip * rng.choice([1, 5, 25])
    most = rng.choice([None, least, least * 40 + rng.randrange(chip)])  # no maximum, one bet only, or many
    settings = baibuu.Settings(seats=seats, smallest_chip=chip, min_bet=least, max_bet=most)
    return baibuu.State(settings, baibuu.Deal.from_deck(deck))


def _new_samloc(rng: random.Random) -> samloc.State:
    players = rng.randint(2, 4)
    return samloc.State(samloc.Settings(bet=rng.choice(samloc.BET_LEVELS[:4])),
                        samloc.random_deal(players, rng.randrange(players), rng))


def _new_schmier(rng: random.Random) -> schmier.State:
    scores = (rng.randint(0, 20), rng.randint(0, 20), rng.randint(0, 20))
    options = schmier.Settings(trump_anytime=rng.random() < 0.5, show_dealer_trump_discards=rng.random() < 0.5)
    return schmier.State(options, schmier.random_deal(rng, rng.randrange(6), scores))


def _baibuu_cards(state: baibuu.State) -> tuple[Counter[Card], Counter[Card]]:
    """Cards put on record by the round, against the cards of the stacks they came from."""
    on_record = Counter(state.house_cards or ())
    for record in state.seats.values():
        on_record.update(record.hand.cards)
    if state.house is not None:
        assert set(state.house.cards) == set(state.house_cards or ())
    positions = [1, *state.seats] if state.house_cards is not None else []
    from_stacks: Counter[Card] = Counter()
    for position in positions:
        from_stacks.update(state.stack_of(position) or ())
    return on_record, from_stacks


def _samloc_cards(state: samloc.State) -> tuple[Counter[Card], Counter[Card]]:
    now = Counter(card for hand in state.hands for card in hand)
    for record in state.history:
        if isinstance(record, samloc.Played):
            now.update(record.cards)
    return now, Counter(card for hand in state.deal.hands for card in hand)


def _schmier_cards(state: schmier.State) -> tuple[Counter[Card], Counter[Card]]:
    now = Counter(card for hand in state.hands for card in hand)
    now.update(state.kept)
    for cards in state.discarded.values():
        now.update(cards)
    for trick in state.tricks:
        now.update(trick.cards())
    now.update(card for _, card in state.current)
    dealt = Counter(card for hand in state.deal.hands for card in hand)
    dealt.update(state.deal.kept)
    return now, dealt


GAME_PARTS: dict[str, tuple[Callable[[random.Random], Any], Callable[[Any], tuple[Counter[Card], Counter[Card]]]]] = {
    "baibuu": (_new_baibuu, _baibuu_cards),
    "samloc": (_new_samloc, _samloc_cards),
    "schmier": (_new_schmier, _schmier_cards),
}


def test_every_game_is_covered() -> None:
    assert set(GAME_PARTS) == set(GAMES)


# ---------------------------------------------------------------- actions the rules should refuse


def _key(action: Any) -> Any:
    """An action up to the order of its cards (the order inside a set or a discard changes nothing)."""
    fields = []
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        if isinstance(value, tuple):
            value = frozenset(value) if field.name != "dice" else tuple(sorted(value))
        fields.append(value)
    return (type(action), *fields)


def _variants(action: Any, rng: random.Random) -> list[Any]:
    """Actions near a legal one: another seat, a card swapped for one from the deck, other dice, another bet (a chip
    more or less, none, beyond any table)."""
    out = []
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        if field.name == "seat":
            out.extend(dataclasses.replace(action, seat=seat) for seat in (value - 1, value + 1, 9))
        elif field.name == "bet":
            out.extend(dataclasses.replace(action, bet=bet) for bet in (value - 1, value + 1, 0, -value, 10**13))
        elif field.name == "dice":
            out.append(dataclasses.replace(action, dice=(value[0], value[1], 7)))
        elif isinstance(value, Card):
            out.append(dataclasses.replace(action, **{field.name: rng.choice(DECK)}))
        elif isinstance(value, tuple) and value and isinstance(value[0], Card):
            changed = list(value)
            changed[rng.randrange(len(changed))] = rng.choice(DECK)
            out.append(dataclasses.replace(action, **{field.name: tuple(changed)}))
            out.append(dataclasses.replace(action, **{field.name: value[:-1]}))
    return out


# ---------------------------------------------------------------- the contract


def _listed(legal: Sequence[Any], keys: set[Any] | None, action: Any) -> bool:
    """Whether ``action`` is on offer up to the order of its cards: by its key when the offer is short enough to
    read whole; else (Bài Bửu's seats at every bet the table takes) by asking the offer, each hand's cards in each
    order."""
    if keys is not None:
        return _key(action) in keys
    hands = [f.name for f in dataclasses.fields(action)
             if f.name != "dice" and isinstance(getattr(action, f.name), tuple)]
    orders = itertools.product(*(itertools.permutations(getattr(action, name)) for name in hands))
    return any(dataclasses.replace(action, **dict(zip(hands, order, strict=True))) in legal for order in orders)


def _check_step(state: Any, rng: random.Random) -> Any:
    """Check the state's offer and refusals now; return the action chosen to go on with."""
    legal = state.legal_actions()
    assert len(legal) > 0, "a game that is not over offers at least one action"
    keys = {_key(action) for action in legal} if len(legal) <= 100_000 else None
    before = state.to_json()
    for action in rng.sample(legal, min(4, len(legal))):
        assert state.can(action)
        trial = state.copy()
        record = trial.apply(action)
        assert isinstance(record, ActionRecord) and record.action == action
        assert record.to_json() == action.to_json() and record.to_json()["kind"] == action.kind
        assert record.describe()
    assert state.to_json() == before, "acting on a copy leaves the state alone"
    for nearby in (variant for action in rng.sample(legal, min(3, len(legal))) for variant in _variants(action, rng)):
        if _listed(legal, keys, nearby):
            continue
        assert not state.can(nearby), f"{nearby} is allowed but not offered"
        with pytest.raises(IllegalAction) as refused:
            state.verify(nearby)
        assert str(refused.value).strip(), "a refusal says why"
        with pytest.raises(IllegalAction):
            state.apply(nearby)
        assert state.to_json() == before, "a refused action changes nothing"
    return rng.choice(legal)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_the_contract_to_the_end(game: str, seed: int) -> None:
    module = load(game)
    new, cards = GAME_PARTS[game]
    rng = random.Random(seed)
    state = new(rng)
    assert isinstance(state, GameState) and isinstance(state, module.State)
    steps, check_replay_at = 0, rng.randrange(12)
    while not state.is_over:
        with pytest.raises(IllegalAction):
            state.settle()
        state.apply(_check_step(state, rng))
        now, dealt = cards(state)
        assert now == dealt, "no card lost or doubled"
        steps += 1
        assert steps < 500, "the game ends"
        if steps == check_replay_at:  # a game half played replays too
            actions = [record.to_json() for record in state.history]
            assert module.replay(state.settings, state.deal.to_json(), actions) == state
    assert list(state.legal_actions()) == []

    # replay from JSON, through text, gives an equal state, and so does the state's own file
    actions = json.loads(json.dumps([record.to_json() for record in state.history]))
    settings_json = json.loads(json.dumps(state.settings.to_json()))
    deal_json = json.loads(json.dumps(state.deal.to_json()))
    assert module.replay(module.settings_from_json(settings_json), deal_json, actions) == state
    assert module.State.from_json(json.loads(json.dumps(state.to_json()))) == state
    assert [module.action_from_json(action) for action in actions] == [r.action for r in state.history]

    # the money moves between the parties and sums to zero
    settlement = state.settle()
    assert isinstance(settlement, Settlement)
    parties = {party for payment in settlement.payments for party in (payment.payer, payment.payee)}
    assert sum(nets_from_payments(settlement.payments, sorted(parties, key=str)).values()) == 0
    assert all(p.amount > 0 and p.reason and p.payer != p.payee for p in settlement.payments)
    assert json.loads(json.dumps(settlement.to_json()))["payments"] == [p.to_json() for p in settlement.payments]
    if game == "schmier":  # played for points: the settlement carries them and the match score instead
        assert settlement.payments == ()
        assert [after - before for after, before in zip(settlement.scores_after, settlement.scores_before,
                                                        strict=True)] == list(settlement.hand_points)
