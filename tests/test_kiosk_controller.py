"""The Bài Bửu round controller without Kivy: real engine, real SQLite journal, a manual clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.baibuu import Settings, house_way
from engine.baibuu.house_way import all_splits
from engine.cards import parse_cards, standard_deck
from journal import Journal, JournalReader
from kiosk.clock import ManualClock
from kiosk.controller.baibuu import BaiBuuController
from kiosk.controller.baibuu_view import Phase
from kiosk.controller.view import CardRead
from kiosk.i18n import LANGUAGES, TEXTS, Catalogue, placeholders


class Shaker:
    def __init__(self, online: bool = True) -> None:
        self.online = online
        self.shakes = 0

    def __call__(self) -> int | None:
        if not self.online:
            return None
        self.shakes += 1
        return self.shakes


def reads(text: str, flags: frozenset[str] = frozenset()) -> tuple[CardRead, ...]:
    return tuple(CardRead(card, 0.5 if flags else 0.99, flags) for card in parse_cards(text))


def open_journal(folder: Path, clock: ManualClock) -> Journal:
    journal = Journal.open(folder / "j.sqlite3", folder / "k.key", kiosk_id="K1", table_id="T1", clock=clock)
    assert journal.recover().sound
    return journal


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def journal(tmp_path: Path, clock: ManualClock) -> Journal:
    return open_journal(tmp_path, clock)


def controller(journal: Journal, clock: ManualClock, shaker: Shaker | None = None, seats: tuple[int, ...] = (2, 3)):
    return BaiBuuController(Settings(seats=seats, min_bet=10), journal, clock, shaker or Shaker(), default_bet=100,
        confirm_repeat_s=0,  # a manual clock that never moves: CONFIRMs in a row are meant
    )


def kinds(tmp_path: Path) -> list[str]:
    with JournalReader.open(tmp_path / "j.sqlite3", tmp_path / "k.key") as reader:
        return [entry.kind for entry in reader.entries()]


def enabled(c: BaiBuuController) -> set[str]:
    return {command.name for command in c.view().commands if command.enabled}


def to_house_set(c: BaiBuuController) -> None:
    c.command("shake")
    c.on_dice(1, (3, 5, 6))
    c.on_table({"house.high": reads("AD 8S"), "house.low": reads("QH 4C")})


def test_a_round_from_the_shake_to_the_close_writes_the_journal_before_showing(tmp_path: Path, journal, clock):
    c = controller(journal, clock)
    assert c.view().phase is Phase.READY and enabled(c) == {"shake", "manual_dice"}
    c.command("shake")
    assert c.view().phase is Phase.SHAKING
    c.on_dice(1, (3, 5, 6))
    view = c.view()
    assert view.dice is not None and view.dice.total == 14 and view.dice.first_position == 7
    assert view.dice.house_stack == view.dice.stack_of_position[1]
    # the dealer set the house hand not the house way: the split is shown, the set flagged, CONFIRM refused
    c.on_table({"house.high": reads("QH 8S"), "house.low": reads("AD 4C")})
    view = c.view()
    assert view.house_way is not None and set(view.house_way.high) == set(parse_cards("AD 8S"))
    assert view.house_set_ok is False and "confirm" not in enabled(c)
    c.command("confirm")
    assert c.view().phase is Phase.HOUSE and c.view().alert is not None
    assert kinds(tmp_path).count("note") == 1  # the wrong set is on record for the supervisor
    c.on_table({"house.high": reads("AD 8S"), "house.low": reads("QH 4C")})
    assert c.view().house_set_ok is True
    c.command("confirm")
    assert c.view().phase is Phase.SEATS
    c.on_table(
        {
            "house.high": reads("AD 8S"),
            "house.low": reads("QH 4C"),
            "seat2.high": reads("KH KS"),
            "seat2.low": reads("5D 4H"),
            "seat3.high": reads("2C 3D"),
            "seat3.low": reads("9C 9D"),
        }
    )
    assert "results_shown" not in kinds(tmp_path)
    c.command("confirm")
    view = c.view()
    assert view.phase is Phase.RESULTS
    assert "results_shown" in kinds(tmp_path)  # written before the view had results to show
    seats = {s.seat: s for s in view.seats}
    assert (seats[2].outcome, seats[2].net, seats[2].commission) == ("win", 95, 5)
    assert (seats[3].outcome, seats[3].net) == ("mis-set", -100)
    assert view.house_net == 5
    c.command("confirm")
    assert c.view().phase is Phase.CLOSED and kinds(tmp_path)[-1] == "round_settled"
    c.command("next")
    assert c.view().phase is Phase.READY and c.view().round_id is None


def test_a_doubtful_card_blocks_confirm_until_corrected_and_the_correction_is_journaled(tmp_path, journal, clock):
    c = controller(journal, clock)
    c.command("shake")
    c.on_dice(1, (3, 5, 6))
    c.on_table({"house.high": reads("AD 8S"), "house.low": reads("QH") + reads("4C", frozenset({"low_confidence"}))})
    view = c.view()
    assert view.house_low is not None and view.house_low.cards[1].doubtful
    assert view.alert is not None and view.alert.key == "alert.read_problem"
    assert view.house_way is None and "confirm" not in enabled(c)
    c.command("correct", zone="house.low", index=1, card=parse_cards("4C")[0])
    view = c.view()
    assert view.house_low is not None and view.house_low.cards[1].corrected and view.house_set_ok is True
    assert "cards_corrected" in kinds(tmp_path)
    # the camera reads the same cards again, less sure of the 4C this frame: the dealer's fix stands
    unsure = (CardRead(parse_cards("4C")[0], 0.31, frozenset({"low_confidence"})),)
    c.on_table({"house.high": reads("AD 8S"), "house.low": reads("QH") + unsure})
    assert c.view().house_low.cards[1].corrected and c.view().house_set_ok is True
    # the dealer moves the cards: the new read replaces the correction
    c.on_table({"house.high": reads("AD 8S"), "house.low": reads("QH 5C")})
    assert [str(r.card) for r in c.view().house_low.cards] == ["QH", "5C"]


def test_a_card_seen_in_two_places_is_flagged_on_both(journal, clock):
    c = controller(journal, clock)
    to_house_set(c)
    c.command("confirm")
    c.on_table(
        {
            "house.high": reads("AD 8S"),
            "house.low": reads("QH 4C"),
            "seat2.high": reads("KH KS"),
            "seat2.low": reads("5D 4H"),
            "seat3.high": reads("KH 3D"),
            "seat3.low": reads("9C 9D"),
        }
    )
    seats = {s.seat: s for s in c.view().seats}
    assert seats[2].high.problem is not None and seats[3].high.problem is not None
    c.command("confirm")
    assert c.view().phase is Phase.SEATS and c.view().alert is not None


def test_shaker_problems_offer_a_reshake_or_manual_dice(tmp_path, journal, clock):
    shaker = Shaker(online=False)
    c = controller(journal, clock, shaker)
    c.command("shake")
    assert c.view().alert.key == "alert.shaker_offline"
    assert {"shake", "manual_dice", "void"} <= enabled(c)
    shaker.online = True
    c.command("reshake")
    c.on_dice_fault(1, "INVALID_VALUE", "a die read 7")
    assert c.view().alert.key == "alert.dice_fault" and c.view().phase is Phase.SHAKING
    assert c.view().prompt.key == "bb.prompt.shake_stopped"  # not "Shaking the dice…" after a fault
    c.command("reshake")
    assert c.view().prompt.key == "bb.prompt.shaking"
    clock.advance(9)
    c.tick()
    assert c.view().alert.key == "alert.shaker_timeout"
    assert c.view().prompt.key == "bb.prompt.shake_stopped" and "shake" in enabled(c)
    c.on_dice(2, (1, 1, 1))  # a late answer to a shake given up on is ignored
    assert c.view().phase is Phase.SHAKING
    c.command("manual_dice", dice=(7, 1, 1))
    assert c.view().phase is Phase.SHAKING and "7" in Catalogue().text(c.view().alert)
    c.command("manual_dice", dice=(6, 1, 1))
    view = c.view()
    assert view.phase is Phase.HOUSE and view.dice is not None and view.dice.manual
    assert kinds(tmp_path).count("dice_reshaken") >= 3


def test_void_needs_an_open_round_and_records_the_reason(tmp_path, journal, clock):
    c = controller(journal, clock)
    c.command("void", reason="misdeal")
    assert c.view().alert is not None and c.view().phase is Phase.READY
    to_house_set(c)
    c.command("void", reason="Card exposed")
    assert c.view().phase is Phase.VOIDED and "Card exposed" in Catalogue().text(c.view().prompt)
    with JournalReader.open(tmp_path / "j.sqlite3", tmp_path / "k.key") as reader:
        voided = [e.payload for e in reader.entries() if e.kind == "round_voided"]
    assert voided == [{"by": "dealer", "reason": "Card exposed"}]


def test_a_new_controller_resumes_the_open_round_from_the_journal(tmp_path, journal, clock):
    c = controller(journal, clock)
    to_house_set(c)
    c.command("confirm")
    round_id = c.round_id
    journal.close(None)  # the process dies here

    again = open_journal(tmp_path, clock)
    open_round = again.recover().open_round
    assert open_round is not None and open_round.round_id == round_id
    resumed = controller(again, clock)
    resumed.resume(open_round)
    view = resumed.view()
    assert view.phase is Phase.SEATS and view.round_id == round_id
    assert view.house_way is not None and view.dice is not None and view.dice.total == 14
    assert view.alert is not None and view.alert.key == "alert.resumed"


def test_when_the_journal_refuses_the_result_is_not_shown(journal, clock):
    c = controller(journal, clock)
    to_house_set(c)
    c.command("confirm")
    c.on_table(
        {
            "house.high": reads("AD 8S"),
            "house.low": reads("QH 4C"),
            "seat2.high": reads("KH KS"),
            "seat2.low": reads("5D 4H"),
            "seat3.high": reads("2C 3D"),
            "seat3.low": reads("9C 9D"),
        }
    )
    journal.close(None)
    c.command("confirm")
    view = c.view()
    assert view.phase is Phase.SEATS and view.alert is not None
    assert all(seat.outcome is None for seat in view.seats)


def test_bets_follow_the_table_limits_and_sitting_out_only_before_the_shake(journal, clock):
    c = controller(journal, clock)
    c.command("bet", seat=2, amount=5)
    assert c.view().alert is not None and c.bets[2] == 100
    c.command("bet", seat=3, amount=0)
    assert not {s.seat: s for s in c.view().seats}[3].in_play
    c.command("shake")
    c.on_dice(1, (3, 5, 6))
    assert c.state is not None and c.state.settings.seats == (2,)
    c.command("bet", seat=3, amount=50)
    assert c.view().alert is not None


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(standard_deck()), min_size=4, max_size=4, unique=True), st.integers(0, 2))
def test_the_house_check_agrees_with_the_engine_house_way(tmp_path_factory, cards, choice) -> None:
    folder = tmp_path_factory.mktemp("j")
    clock = ManualClock()
    c = controller(open_journal(folder, clock), clock)
    c.command("shake")
    c.on_dice(1, (1, 2, 3))
    high, low = all_splits(cards)[choice]
    c.on_table(
        {"house.high": tuple(CardRead(x) for x in high.cards), "house.low": tuple(CardRead(x) for x in low.cards)}
    )
    view = c.view()
    split = house_way(cards)
    assert view.house_way is not None and view.house_way.rule == split.rule
    assert view.house_set_ok == split.same_set(high, low)
    assert ("confirm" in enabled(c)) == split.same_set(high, low)


def test_every_text_is_in_every_language_and_formats_with_the_same_values() -> None:
    for key, versions in TEXTS.items():
        assert all(versions), key
        names = set().union(*(placeholders(text) for text in versions))
        for language in LANGUAGES:
            assert Catalogue(language).text(key, **dict.fromkeys(names, "x")), key


@given(min_chips=st.integers(1, 20), chip=st.sampled_from([1, 5, 10, 25]), spread=st.integers(0, 200),
       bet=st.integers(0, 10_000))
def test_the_bet_dialog_offers_only_bets_the_table_takes(min_chips: int, chip: int, spread: int, bet: int) -> None:
    from kiosk.controller.baibuu_view import bet_choices

    table = Settings(smallest_chip=chip, min_bet=min_chips * chip, max_bet=(min_chips + spread) * chip)
    offered = bet_choices(table, bet)
    assert offered and table.min_bet in offered  # the minimum is always a choice
    assert all(table.check_bet(amount) is None for amount in offered), offered


def test_a_table_with_a_minimum_of_10_offers_no_bet_of_5() -> None:
    from kiosk.controller.baibuu_view import bet_choices

    assert bet_choices(Settings(smallest_chip=5, min_bet=10, max_bet=1000), 10) == [10, 20, 50, 100]
