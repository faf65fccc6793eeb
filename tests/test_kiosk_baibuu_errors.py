"""The Bài Bửu controller's errors nobody can miss (issue 55 item 2), without Kivy: a CONFIRM pressed twice within a
second (screen then panel) acts once; an alert about the felt clears by itself once the felt no longer shows its
cause; a wrong set is the alert itself, with the misplaced cards named."""

from __future__ import annotations

from pathlib import Path

from test_kiosk_controller import Shaker, clock, journal, kinds, reads, to_house_set  # noqa: F401 - fixtures

from engine.baibuu import Settings
from engine.cards import parse_cards
from journal import Journal
from kiosk.clock import ManualClock
from kiosk.controller.baibuu import CONFIRM_REPEAT_S, BaiBuuController
from kiosk.controller.baibuu_view import Phase
from kiosk.i18n import Catalogue


def controller(journal: Journal, clock: ManualClock) -> BaiBuuController:  # noqa: F811
    """As the kiosk builds it: CONFIRM's repeat window left at its default."""
    return BaiBuuController(Settings(seats=(2, 3), min_bet=10), journal, clock, Shaker(), default_bet=100)

SEATS_READ = {
    "house.high": reads("AD 8S"),
    "house.low": reads("QH 4C"),
    "seat2.high": reads("KH KS"),
    "seat2.low": reads("5D 4H"),
    "seat3.high": reads("2C 3D"),
    "seat3.low": reads("9C 9D"),
}


def test_a_second_confirm_within_a_second_screen_then_panel_is_ignored(tmp_path: Path, journal, clock) -> None:  # noqa: F811
    c = controller(journal, clock)
    to_house_set(c)
    c.command("confirm")  # the screen's CONFIRM: the house is set
    assert c.view().phase is Phase.SEATS
    clock.advance(CONFIRM_REPEAT_S * 0.6)
    c.on_button("CONFIRM")  # the panel's, a moment later: the same press, not a CONFIRM of the seats
    view = c.view()
    assert view.phase is Phase.SEATS and view.alert is None
    clock.advance(CONFIRM_REPEAT_S * 0.6)  # past the second: a CONFIRM counts again
    c.on_button("CONFIRM")
    assert c.view().alert is not None and c.view().alert.key == "alert.seats_incomplete"


def test_a_double_confirm_on_the_results_does_not_close_the_round_twice_nor_start_anything(
    tmp_path: Path, journal, clock  # noqa: F811
) -> None:
    c = controller(journal, clock)
    to_house_set(c)
    c.command("confirm")
    clock.advance(2)
    c.on_table(SEATS_READ)
    c.command("confirm")
    assert c.view().phase is Phase.RESULTS
    c.command("confirm")  # at once: ignored, the results stay up to be paid
    assert c.view().phase is Phase.RESULTS and "round_settled" not in kinds(tmp_path)
    clock.advance(CONFIRM_REPEAT_S)
    c.command("confirm")
    assert c.view().phase is Phase.CLOSED and kinds(tmp_path).count("round_settled") == 1


def test_a_refused_confirm_does_not_hold_off_the_next(tmp_path: Path, journal, clock) -> None:  # noqa: F811
    """Only a CONFIRM that moved the round on starts the second's wait: after a refusal the dealer fixes the felt
    and confirms at once."""
    c = controller(journal, clock)
    to_house_set(c)
    c.command("confirm")
    clock.advance(2)
    c.command("confirm")  # seats not read: refused
    assert c.view().alert is not None
    c.on_table(SEATS_READ)
    c.command("confirm")
    assert c.view().phase is Phase.RESULTS


def test_seat_alert_clears_itself_once_every_seat_is_read(tmp_path: Path, journal, clock) -> None:  # noqa: F811
    c = controller(journal, clock)
    to_house_set(c)
    c.command("confirm")
    clock.advance(2)
    c.on_button("CONFIRM")
    alert = c.view().alert
    assert alert is not None and alert.key == "alert.seats_incomplete"
    assert Catalogue("en").text(alert) == "Seat 2: 0 of 2 cards"
    c.on_table({**SEATS_READ, "seat3.low": reads("9C")})  # seat 2 read, seat 3 still short: the cause is still there
    assert c.view().alert is not None and c.view().alert.key == "alert.seats_incomplete"
    c.on_table(SEATS_READ)
    view = c.view()
    assert view.alert is None and any(command.name == "confirm" and command.enabled for command in view.commands)


def test_an_alert_not_about_the_felt_stays_until_the_next_command(tmp_path: Path, journal, clock) -> None:  # noqa: F811
    c = controller(journal, clock)
    c.command("bet", seat=2, amount=5)  # under the minimum: refused
    assert c.view().alert is not None
    c.command("shake")
    c.on_dice(1, (3, 5, 6))
    c.on_table({"house.high": reads("AD 8S"), "house.low": reads("QH 4C")})
    assert c.view().alert is None  # the shake, a command, cleared it; nothing on the felt brings it back


def test_a_wrong_set_is_the_alert_and_names_the_misplaced_cards(tmp_path: Path, journal, clock) -> None:  # noqa: F811
    c = controller(journal, clock)
    c.command("shake")
    c.on_dice(1, (3, 5, 6))
    c.on_table({"house.high": reads("QH 8S"), "house.low": reads("AD 4C")})  # the house way: AD 8S high
    view = c.view()
    assert view.house_set_ok is False
    assert view.alert is not None and view.alert.key == "bb.set_wrong"
    assert view.house_misplaced == frozenset(parse_cards("QH AD"))
    c.on_table({"house.high": reads("AD 8S"), "house.low": reads("QH 4C")})
    view = c.view()
    assert view.house_set_ok is True and view.alert is None and view.house_misplaced == frozenset()
