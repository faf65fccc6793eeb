"""The Sâm Lốc and Schmier table controllers without Kivy: real engines, a real journal, a manual clock."""

from __future__ import annotations

import random
from pathlib import Path

from engine.cards import Suit
from journal import Journal, JournalReader
from kiosk.clock import ManualClock
from kiosk.controller.samloc import SamLocController
from kiosk.controller.schmier import SchmierController
from kiosk.controller.view import CardRead
from kiosk.i18n import Catalogue


def open_journal(folder: Path, clock: ManualClock) -> Journal:
    journal = Journal.open(folder / "j.sqlite3", folder / "k.key", kiosk_id="K1", table_id="T1", clock=clock)
    assert journal.recover().sound
    return journal


def kinds(folder: Path) -> list[str]:
    with JournalReader.open(folder / "j.sqlite3", folder / "k.key") as reader:
        return [entry.kind for entry in reader.entries()]


def play_samloc_hand(c: SamLocController, clock: ManualClock, rng: random.Random) -> None:
    for _ in range(400):
        if c.phase.value != "playing":
            return
        hand = c.hand
        plays = hand.legal_plays(hand.turn)
        if plays and rng.random() < 0.7:
            c.command("play", cards=list(plays[0].cards))
        elif not hand.leading:
            c.command("pass")
        else:
            clock.advance(hand.turn_timer_s)
            c.tick()
        assert c.alert is None, Catalogue().text(c.alert)


def test_samloc_hands_settle_and_balances_carry_over(tmp_path: Path) -> None:
    clock = ManualClock()
    journal = open_journal(tmp_path, clock)
    c = SamLocController({"bet": 10}, journal, clock, players=4, seed=3)
    rng = random.Random(5)
    for _ in range(3):
        c.command("start")
        play_samloc_hand(c, clock, rng)
        view = c.view()
        assert view.phase.value == "results" and view.payments
        c.command("confirm")
        c.command("next")
    assert sum(c.balances) == 4000 and c.balances != [1000] * 4
    assert kinds(tmp_path).count("round_settled") == 3


def test_samloc_play_from_the_centre_illegal_play_and_timer(tmp_path: Path) -> None:
    clock = ManualClock()
    c = SamLocController({"bet": 10, "turn_timer_s": 20}, open_journal(tmp_path, clock), clock, players=3, seed=1)
    c.command("start")
    hand = c.hand
    leader = hand.turn
    cards = list(hand.hands[leader])
    c.command("play", cards=[cards[0], cards[-1]])
    assert c.alert is not None and "not a combination" in Catalogue().text(c.alert)
    assert c.view().seconds_left == 20
    single = hand.legal_plays(leader)[0]
    c.on_table({"centre": tuple(CardRead(card) for card in single.cards)})
    assert [r.card for r in c.view().centre.cards] == list(single.cards)
    c.command("play")
    assert hand.top is not None and hand.top.cards == single.cards and hand.turn != leader
    assert c.view().centre.cards == ()  # what lay there is the play already made
    clock.advance(5)
    assert c.view().seconds_left == 15
    clock.advance(15)
    c.tick()  # the timer ran out: the engine's timeout for the seat to act
    assert "time ran out" in c.view().log[-1]


def test_samloc_resumes_an_open_hand_from_the_journal(tmp_path: Path) -> None:
    clock = ManualClock()
    journal = open_journal(tmp_path, clock)
    c = SamLocController({"bet": 10}, journal, clock, players=4, seed=2)
    c.command("start")
    first = c.hand.legal_plays(c.hand.turn)[0]
    c.command("play", cards=list(first.cards))
    journal.close(None)
    again = open_journal(tmp_path, clock)
    resumed = SamLocController({"bet": 10}, again, clock, players=4)
    resumed.resume(again.recover().open_round)
    assert resumed.phase.value == "playing" and resumed.hand.top.cards == first.cards
    assert resumed.hand.hands == c.hand.hands


def play_schmier_hand(c: SchmierController) -> None:
    for _ in range(300):
        if c.step.value != "playing":
            return
        hand = c.hand
        phase = hand.phase.value
        if phase == "bidding":
            c.command("bid:4" if hand.high_bid is None else "pass")
        elif phase == "trump":
            c.command("trump:S")
        elif phase == "discard":
            c.command("discard")
        elif phase == "dealer discard":
            holding = c.view().hand_of_turn
            chosen = next(hand.discard_options().combinations(hand.trump))
            for card in holding:
                if card not in chosen:
                    c.command("pick", card=card)
            c.command("discard")
        else:
            c.command("play", card=hand.legal_plays()[0])
        assert c.alert is None, Catalogue().text(c.alert)


def test_schmier_hands_score_the_six_points_toward_21(tmp_path: Path) -> None:
    clock = ManualClock()
    c = SchmierController({}, open_journal(tmp_path, clock), clock, seed=4)
    c.command("deal")
    assert [cmd.name for cmd in c.view().commands if cmd.name.startswith("bid:")] == [
        "bid:3",
        "bid:4",
        "bid:5",
        "bid:6",
    ]
    play_schmier_hand(c)
    view = c.view()
    assert view.step.value == "results" and view.trump is Suit.SPADES and view.points
    scores = view.scores
    c.command("confirm")
    c.command("next")
    c.command("deal")
    assert c.view().scores == scores  # the running score carries into the next hand
    assert kinds(tmp_path).count("round_settled") == 1


def test_schmier_refuses_a_card_that_does_not_follow_suit(tmp_path: Path) -> None:
    clock = ManualClock()
    c = SchmierController({}, open_journal(tmp_path, clock), clock, seed=9)
    c.command("deal")
    for _ in range(200):
        hand = c.hand
        if hand.phase.value == "play" and hand.current:
            illegal = [card for card in hand.hands[hand.turn] if card not in hand.legal_plays()]
            if illegal:
                c.command("play", card=illegal[0])
                assert c.alert is not None
                return
        if hand.phase.value == "play":
            c.command("play", card=hand.legal_plays()[0])
        elif hand.phase.value == "bidding":
            c.command("bid:3" if hand.high_bid is None else "pass")
        elif hand.phase.value == "trump":
            c.command("trump:H")
        elif hand.phase.value == "discard":
            c.command("discard")
        else:
            holding = c.view().hand_of_turn
            chosen = next(hand.discard_options().combinations(hand.trump))
            for card in holding:
                if card not in chosen:
                    c.command("pick", card=card)
            c.command("discard")
        if c.step.value != "playing":
            c.command("confirm")
            c.command("next")
            c.command("deal")
    raise AssertionError("no chance to play off suit came up")
