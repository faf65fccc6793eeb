"""The demo's croupier at a Sâm Lốc or Schmier table (``--autoplay`` with ``game: samloc`` or ``schmier``).

The kiosk never holds a hand, so the croupier keeps the hands in his own head: after START he deals a shuffled deck
(the engine plays the hand out with its deal known, plays and passes as players would, a plan he follows), then
lays each play face up in the centre of the rendered felt for the camera to read, and presses PLAY once the screen
shows what he laid (a card the screen marks unsure, or reads wrong, he fixes on the card picker first, as a dealer
would: journaled as a correction). Passes, bids, trump and discard counts he taps on the screen. At a Sâm Lốc hand's
end the losers lay their cards in their own places where the felt has them (the ``samloc_4`` layout; read by
the camera) or he enters them on the picker (``baibuu_7`` has none), CONFIRMs, pays, and starts the
next hand. A hand the kiosk took up after a restart is not his plan: he voids it as a misdeal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.cards import Card
from kiosk.demo import LOOKS_BEFORE_FIX, _fix_for

STEP_DELAY_S = 0.8
"""How long the croupier waits between two actions (and after a screen change) before the next."""
FIX_DELAY_S = 1.5
"""How long a card the camera is unsure of (or misread) shows before the croupier fixes it."""
RESULTS_DELAY_S = 3.0


class CardCroupier:
    """One card table's simulated croupier. ``controller``: the table (behind the journal gate); ``table``: the
    synthetic felt (``vision.sources.SyntheticTableSource``); ``now``: monotonic seconds."""

    def __init__(self, game: str, controller: Any, table: Any, now: Callable[[], float],
                 seed: int | None = None) -> None:
        self.game = game
        self.controller = controller
        self.table = table
        self.now = now
        self.rng = random.Random(seed)
        self.plan: list[dict[str, Any]] = []
        self.shown: dict[int, tuple[Card, ...]] = {}
        """Sâm Lốc: each hand seat's cards left at the end (the cards he shows)."""
        self.round: int | None = None
        self.since = now()
        self.mark: tuple[Any, ...] = ()
        self.doubt_since: float | None = None
        self.trick: list[Card] = []
        self.hands_played = 0

    # ---- the loop ----------------------------------------------------------------------------------------
    def tick(self) -> None:
        controller = self.controller
        phase = controller.phase.value
        mark = (controller.round_id, phase, self._progress())
        now = self.now()
        if mark != self.mark:
            self.mark, self.since = mark, now
        waited = now - self.since
        if phase in ("ready", "closed", "voided"):
            if waited >= STEP_DELAY_S * 2:
                if phase == "closed":
                    self.hands_played += 1
                self.table.clear_all()  # the cards gathered, shuffled and dealt
                controller.on_table({})
                controller.command("start")
        elif phase == "playing":
            if controller.round_id != self.round:
                if self._progress():  # taken up after a restart: not the hand he dealt
                    controller.command("void", reason="misdeal")
                    return
                self._deal()
            if waited >= STEP_DELAY_S:
                self._step(now)
        elif phase == "showing" and waited >= STEP_DELAY_S:
            self._show()
        elif phase == "results" and waited >= RESULTS_DELAY_S:
            controller.command("confirm", supervisor="DEMO") if controller.view().held else \
                controller.command("confirm")

    def _progress(self) -> int:
        hand = getattr(self.controller, "hand", None)
        return len(hand.history) if hand is not None else 0

    # ---- the plan ----------------------------------------------------------------------------------------
    def _deal(self) -> None:
        self.round = self.controller.round_id
        self.trick = []
        self.plan = self._samloc_plan() if self.game == "samloc" else self._schmier_plan()

    def _samloc_plan(self) -> list[dict[str, Any]]:
        from engine.samloc import Pass, PlayCards, Settings, State, random_deal

        table = self.controller.hand
        settings = Settings(bet=table.settings.bet, mode=table.settings.mode,
                            quad_beats_pair_of_twos=table.settings.quad_beats_pair_of_twos)
        for _ in range(200):
            hand = State.start(settings, random_deal(table.players, table.deal.leader, self.rng))
            while not hand.is_over:
                actions = [a for a in hand.legal_actions() if isinstance(a, (PlayCards, Pass))]
                hand.apply(actions[self.rng.randrange(len(actions))])
            if hand.outcome is not None and hand.outcome.result != "instant_win" and not hand.breaches:
                break
        self.shown = {seat: cards for seat, cards in enumerate(hand.hands) if cards}
        return [record.to_json() for record in hand.history]

    def _schmier_plan(self) -> list[dict[str, Any]]:
        from engine.schmier import State, random_deal, table_record
        from engine.schmier.randomplay import random_action

        table = self.controller.hand
        hand = State(self.controller.settings, random_deal(self.rng, table.dealer, table.scores))
        while not hand.is_over:
            hand.apply(random_action(hand, self.rng, pass_chance=0.5))
        return list(table_record(hand)["actions"])

    # ---- one action ----------------------------------------------------------------------------------------
    def _step(self, now: float) -> None:
        from engine.cards import parse_card

        controller = self.controller
        done = self._progress()
        if done >= len(self.plan) or not self._on_plan(done):
            controller.command("void", reason="misdeal")  # the hand went otherwise than he dealt it (a timer ran out)
            return
        action = self.plan[done]
        kind = action.get("kind")
        if kind == "play":
            cards = [parse_card(c) for c in (action["cards"] if "cards" in action else [action["card"]])]
            if self.game == "schmier":
                if len(self.trick) == 6:
                    self.trick = []
                laid = [*self.trick, *cards]
            else:
                laid = cards  # the earlier plays are gathered; the last lies on top
            placed = self.table.placed.get("centre", ())
            if list(placed) != laid:
                self.table.place("centre", laid)
                return
            if self._fix(now, cards):
                return
            controller.command("play")
            if self._progress() > done and self.game == "schmier":
                self.trick = laid
        elif kind == "pass":
            controller.command("pass")
        elif kind == "bid":
            controller.command(f"bid:{action['amount']}")
        elif kind == "trump":
            controller.command(f"trump:{action['suit']}")
        elif kind == "discard":
            hand = controller.hand
            controller.command("discard" if action["seat"] == hand.dealer else f"discard:{action['count']}")
        self.since = now

    def _on_plan(self, done: int) -> bool:
        """Whether the hand so far is the one he dealt: each action recorded of the kind and seat planned."""
        history = self.controller.hand.history
        for record, planned in zip(history[:done], self.plan, strict=False):
            data = record.to_json()
            if (data.get("kind"), data.get("seat")) != (planned.get("kind"), planned.get("seat")):
                return False
        return True

    def _fix(self, now: float, cards: list[Card]) -> bool:
        """Whether the centre as the screen shows it is not yet the play laid: then, after a look, one fix on the
        card picker (the slot marked unsure or read wrong, or a card the camera missed)."""

        view = self.controller.view()
        reads = view.centre.cards if view.centre is not None else ()
        fix = _fix_for(reads, cards)
        if fix is None:
            self.doubt_since = None
            return False
        if self.table.frames_since_change < LOOKS_BEFORE_FIX:
            self.doubt_since = None  # the camera has not yet had its look at the cards just laid
        elif self.doubt_since is None:
            self.doubt_since = now
        elif now - self.doubt_since >= FIX_DELAY_S:
            index, card = fix
            self.controller.command("correct", zone="centre", index=index, card=card)
            self.doubt_since = None
        return True

    def _show(self) -> None:
        """Sâm Lốc's end: each loser lays his cards face up in his own place, where the felt has one (the camera
        reads them); a card it misreads or misses, and every card where the felt has no such place, he fixes on the
        picker (one a look); then CONFIRM."""
        controller = self.controller
        view = controller.view()
        for place in view.shows:
            seat = controller.seats.index(int(place.zone.removeprefix("seat")) - 1)
            wanted = self.shown.get(seat, ())
            on_felt = place.zone in self.table.layout.zone_names
            if on_felt and self.table.placed.get(place.zone, ()) != wanted:
                self.table.place(place.zone, wanted)
                self.since, self.doubt_since = self.now(), None
                return
            have = [read.card for read in place.cards]
            unread = on_felt and sorted(have, key=str) != sorted(wanted, key=str)
            if unread and self.table.frames_since_change < LOOKS_BEFORE_FIX:
                self.doubt_since = None  # the camera has not yet had its look at the cards just laid
                return
            if unread and (self.doubt_since is None or self.now() - self.doubt_since < FIX_DELAY_S):
                self.doubt_since = self.doubt_since or self.now()  # the camera gets a look before any fix
                return
            self.doubt_since = None
            wrong = next((i for i, card in enumerate(have) if card not in wanted), None)
            if wrong is not None:
                controller.command("correct", zone=place.zone, index=wrong, card=None)
                self.since = self.now()
                return
            missing = [card for card in wanted if card not in have]
            if missing:
                controller.command("correct", zone=place.zone, index=len(have), card=missing[0])
                self.since = self.now()
                return
        controller.command("confirm")
