"""The demo table: a simulated croupier who deals real-looking rounds onto the synthetic felt.

With the synthetic camera there are no hands to put cards down, so this plays the table's physical side: after
the dice it deals seven stacks from a shuffled deck, lays the house stack in the house places set the house way
(a wrong set now and then, fixed a moment later, so the check can be seen), then each seat's stack set as a
player might (now and then mis-set). The card reader reads those cards like any others. With ``autoplay`` it also
presses the panel buttons (through the simulated panel on its pty) and, as a dealer would, fixes on the card picker
what the screen marks unsure, so the table runs by itself (each fix journaled like a dealer's).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.baibuu import house_way
from engine.baibuu.house_way import all_splits
from engine.cards import Card, shuffled, standard_deck
from kiosk.controller.baibuu import BaiBuuController, zone
from kiosk.controller.baibuu_view import Phase
from kiosk.controller.view import CardRead

DEAL_DELAY_S = 1.0
CHECK_DELAY_S = 2.0  # autoplay: how long a card marked unsure (or a gap in a place) shows before the croupier fixes it
LOOKS_BEFORE_FIX = 4
"""Frames the camera must have taken of the felt as it lies now before the croupier judges the screen's reading: the
stabiliser places a card after 3 frames in a row, and the first may have been rendered just before the cards were
laid. Judged on the clock alone, a slow reader (about 1.8 s a frame on a busy 2-core PC) had not yet read the first
place the croupier looked at (seat 2's high hand) when its 2 s ran out, and the croupier 'fixed' a card in most
rounds that the camera would have read."""
AUTOPLAY_DELAYS_S = {
    Phase.READY: 2.0,
    Phase.HOUSE: 2.5,
    Phase.SEATS: 2.5,
    Phase.RESULTS: 5.0,
    Phase.CLOSED: 3.0,
    Phase.VOIDED: 3.0,
}
PANEL_BUTTON = {
    Phase.READY: "SHAKE",
    Phase.HOUSE: "CONFIRM",
    Phase.SEATS: "CONFIRM",
    Phase.RESULTS: "CONFIRM",
    Phase.CLOSED: "NEXT",
    Phase.VOIDED: "NEXT",
}


class DemoCroupier:
    def __init__(
        self,
        controller: BaiBuuController,
        table: Any,
        now: Callable[[], float],
        press: Callable[[str], None] | None = None,
        seed: int | None = None,
        wrong_set_rate: float = 0.15,
        mis_set_rate: float = 0.1,
        pace: float = 1.0,
    ) -> None:
        if not pace > 0:
            raise ValueError(f"demo pace {pace}: give a positive speed (1 = a dealer's pace, 4 = four times faster)")
        self.controller = controller
        self.table = table  # a vision.sources.SyntheticTableSource
        self.now = now
        self.press = press
        self.rng = random.Random(seed)
        self.wrong_set_rate = wrong_set_rate
        self.mis_set_rate = mis_set_rate
        self.pace = pace
        """How many times a dealer's pace the croupier plays (the soak bench's faster clock): every wait on the clock is
        divided by it; the waits counted in camera frames are not, so the croupier never outruns the reader."""
        self._round: int | None = None
        self._phase: Phase | None = None
        self._since = 0.0
        self._stacks: list[tuple[Card, ...]] = []
        self._done: set[str] = set()
        self._pressed_in: tuple[int | None, Phase] | None = None
        self._doubt_since: float | None = None

    def tick(self) -> None:
        controller = self.controller
        phase = controller.phase
        now = self.now()
        if phase is not self._phase or controller.round_id != self._round:
            self._phase = phase
            self._since = now
            if controller.round_id != self._round:
                self._round = controller.round_id
                self._done = set()
        waited = (now - self._since) * self.pace
        if phase is Phase.READY and "cleared" not in self._done:
            self.table.clear_all()
            self._done.add("cleared")
        if phase is Phase.HOUSE and waited >= DEAL_DELAY_S:
            self._deal_house(now)
        if phase is Phase.SEATS and waited >= DEAL_DELAY_S and "seats" not in self._done:
            self._deal_seats()
            self._done.add("seats")
        if self.press is not None:
            if phase in (Phase.HOUSE, Phase.SEATS):
                self._check_reads(now)
            self._autoplay(phase, waited)

    def _deal_house(self, now: float) -> None:
        state = self.controller.state
        if state is None or state.assignment is None:
            return
        if "house" not in self._done:
            deck = shuffled(standard_deck(), self.rng.randrange(2**31))
            self._stacks = [tuple(deck[4 * i : 4 * i + 4]) for i in range(7)]
            cards = self._stacks[state.assignment.house_stack - 1]
            split = house_way(cards)
            high, low = list(split.high.cards), list(split.low.cards)
            if self.rng.random() < self.wrong_set_rate:
                wrong = [(h, lo) for h, lo in all_splits(cards) if not split.same_set(h, lo)]
                if wrong:
                    bad_high, bad_low = self.rng.choice(wrong)
                    high, low = list(bad_high.cards), list(bad_low.cards)
                    self._done.add("house-wrong")
            self.table.place(zone(1, "high"), high)
            self.table.place(zone(1, "low"), low)
            self._done.add("house")
            self._house_at = now
        elif "house-wrong" in self._done and (now - self._house_at) * self.pace > 4.0:
            split = house_way(self._stacks[state.assignment.house_stack - 1])
            self.table.clear(zone(1, "high"))  # the croupier picks the cards up and sets them again
            self.table.clear(zone(1, "low"))
            self.table.place(zone(1, "high"), list(split.high.cards))
            self.table.place(zone(1, "low"), list(split.low.cards))
            self._done.discard("house-wrong")

    def _deal_seats(self) -> None:
        state = self.controller.state
        if state is None or state.assignment is None:
            return
        if not self._stacks:  # taken up after a restart: the house is known, deal the rest from a fresh deck
            house = set(state.house_cards or ())
            rest = [card for card in shuffled(standard_deck(), self.rng.randrange(2**31)) if card not in house]
            self._stacks = [tuple(rest[4 * i : 4 * i + 4]) for i in range(7)]
            self._stacks[state.assignment.house_stack - 1] = tuple(state.house_cards or ())
        for seat in state.settings.seats:
            cards = self._stacks[state.assignment.stack_for(seat) - 1]
            splits = all_splits(cards)
            high, low = self.rng.choice(splits)
            if (high.strength < low.strength) != (self.rng.random() < self.mis_set_rate):
                high, low = low, high
            self.table.place(zone(seat, "high"), list(high.cards))
            self.table.place(zone(seat, "low"), list(low.cards))

    def _check_reads(self, now: float) -> None:
        """As a dealer does on the screen: a card marked unsure, a card read that is not there or a card not read is
        fixed on the card picker with the card that lies there (one tap per look, after the screen showed it)."""
        view = self.controller.view()
        seats = [place for seat in view.seats if seat.in_play for place in (seat.high, seat.low)]
        places = [view.house_high, view.house_low, *seats]
        laid = self.table.placed
        if self.table.frames_since_change < LOOKS_BEFORE_FIX:
            self._doubt_since = None  # the camera has not had its look at the cards just laid
            return
        for place in places:
            if place is None or place.zone not in laid:
                continue
            fix = _fix_for(place.cards, laid[place.zone])
            if fix is None:
                continue
            if self._doubt_since is None:
                self._doubt_since = now
            if (now - self._doubt_since) * self.pace >= CHECK_DELAY_S:
                index, card = fix
                self.controller.command("correct", zone=place.zone, index=index, card=card)
                self._doubt_since = None
            return
        self._doubt_since = None

    def _autoplay(self, phase: Phase, waited: float) -> None:
        if phase is Phase.SHAKING or waited < AUTOPLAY_DELAYS_S.get(phase, 3.0):
            return
        key = (self.controller.round_id, phase)
        if self._pressed_in == key and waited < 15.0:
            return  # one press per step; press again only if nothing happened for a long while
        view = self.controller.view()
        wanted = {"SHAKE": "shake", "CONFIRM": "confirm", "NEXT": "next"}[PANEL_BUTTON[phase]]
        if not any(c.name == wanted and c.enabled for c in view.commands):
            return
        assert self.press is not None
        self.press(PANEL_BUTTON[phase])
        self._pressed_in = key
        self._since = self.now()


def _fix_for(reads: Sequence[CardRead], laid: Sequence[Card]) -> tuple[int, Card | None] | None:
    """The next correction that brings a place's readings to the cards laid there, as (slot, card to pick; None to
    take the reading away), or None when the place shows them already. A reading is good when it names a laid card
    not shown before it and is not marked unsure; each fix makes one more reading good, takes a surplus one away or
    adds a card the camera missed, so the place comes right in a few taps."""
    good: list[Card] = []
    bad: list[int] = []
    for index, read in enumerate(reads):
        if read.card in laid and read.card not in good and not read.doubtful:
            good.append(read.card)
        else:
            bad.append(index)
    missing = [card for card in laid if card not in good]
    if bad:
        index = bad[0]
        own = reads[index].card
        return index, (own if own in missing else missing[0] if missing else None)
    if missing:
        return len(reads), missing[0]
    return None


DEMO_SUPERVISOR = "DEMO"


def demo_supervisor(config: Any, pin: str | None = None) -> tuple[Any, str]:
    """The embedded default's supervisor for one run: ID ``DEMO`` with a fresh PIN (``dealer-assist kiosk`` prints
    both). A kiosk with a config file has no such thing: it asks for its first supervisor on the screen."""
    import secrets
    from dataclasses import replace

    from kiosk.supervisors import hash_pin, pin_problem

    while pin is None or pin_problem(pin):
        pin = "".join(secrets.choice("0123456789") for _ in range(6))
    return replace(config, supervisors={DEMO_SUPERVISOR: hash_pin(pin)}), pin
