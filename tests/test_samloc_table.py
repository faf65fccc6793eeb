"""Table settings and deals of Sâm Lốc: validated on creation with messages that say what to fix."""

from __future__ import annotations

import pytest
from test_samloc_helpers import deal, start

from engine.cards import CardError
from engine.common import SettingsError
from engine.errors import InputError
from engine.samloc import BET_LEVELS, Deal, DealError, Settings, deal_from_json, dealt_in, settings_from_json
from engine.samloc.table import Settings as TableSettings

HANDS = ["3H 4S 6H 7D 9S JS JH QD KC 2C", "3S 4H 5D 6C 7S 8H 9D 10C AS AH"]


def test_bet_levels_from_the_spec() -> None:
    assert BET_LEVELS == (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
    for bet in BET_LEVELS:
        assert Settings(bet=bet).bet == bet
    with pytest.raises(SettingsError, match="setting bet is 150, not one of the bet levels: 10, 20, 50"):
        Settings(bet=150)


def test_turn_timer_is_15_20_or_30_seconds() -> None:
    for seconds in (15, 20, 30):
        assert Settings(bet=10, turn_timer_s=seconds).turn_timer_s == seconds
    with pytest.raises(SettingsError, match="turn_timer_s is 25; allowed: 15, 20, 30 seconds"):
        Settings(bet=10, turn_timer_s=25)


def test_mode_is_normal_or_sam_ngheo_giau() -> None:
    assert Settings(bet=10, mode="sam_ngheo_giau").sam_ngheo_giau
    with pytest.raises(SettingsError, match="mode is 'rich'"):
        Settings(bet=10, mode="rich")


def test_the_creator_must_hold_at_least_the_bet() -> None:
    assert Settings(bet=100, room_owner=1, balances=(0, 100)).room_owner == 1
    with pytest.raises(SettingsError, match="the room owner \\(seat 2\\) holds 99 coins, less than the bet 100"):
        Settings(bet=100, room_owner=1, balances=(500, 99))


def test_two_to_four_players() -> None:
    with pytest.raises(SettingsError, match="played by 2 to 4 players, not 5"):
        Settings(bet=10, players=5)
    with pytest.raises(SettingsError, match="played by 2 to 4 players, not 5"):
        Settings(bet=10, balances=(100,) * 5)
    with pytest.raises(DealError, match="deals to 2 to 4 seats, not 1"):
        Deal((HANDS[0],), 0)  # type: ignore[arg-type]


def test_every_player_must_hold_the_bet_to_be_dealt_in() -> None:
    """(decision) A seat below the bet sits out: the deal is refused, and ``dealt_in`` leaves him out."""
    with pytest.raises(InputError, match="seat 2 holds 40 coins, less than the bet 50: he sits out"):
        start(HANDS, bet=50, balances=(500, 40))
    assert dealt_in([500, 40, 50, -20], 50) == (0, 2)


def test_settings_json_round_trip_and_errors() -> None:
    settings = settings_from_json({"bet": 100, "turn_timer_s": 20, "mode": "normal", "room_owner": 0})
    assert settings == Settings(bet=100)
    assert settings_from_json(settings.to_json()) == settings
    with_balances = Settings(bet=100, balances=(300, 400))
    assert settings_from_json(with_balances.to_json()) == with_balances
    with pytest.raises(SettingsError, match="unknown table setting colour"):
        settings_from_json({"bet": 100, "colour": "green"})
    with pytest.raises(SettingsError, match="the table has no bet"):
        settings_from_json({})
    with pytest.raises(SettingsError, match="must be true or false"):
        settings_from_json({"bet": 100, "quad_beats_pair_of_twos": "yes"})
    with pytest.raises(SettingsError, match="whole number"):
        settings_from_json({"bet": 100, "chop_bets": 2.5})


def test_every_number_of_the_rulebook_is_a_setting_with_the_spec_default() -> None:
    settings = TableSettings(bet=10)
    defaults = {
        "card_bets": 1, "never_played_cards": 15, "thoi_bets": 3, "chop_bets": 5, "overkill_step_bets": 5,
        "chop_cap_bets": 10, "sam_bets": 10, "instant_win_bets": 10, "two_finish_bets": 3,
    }  # fmt: skip
    assert {name: getattr(settings, name) for name in defaults} == defaults
    assert settings.quad_beats_pair_of_twos is False


def test_deals_ten_cards_to_each_seat_from_one_deck() -> None:
    assert deal(*HANDS).players == 2
    with pytest.raises(DealError, match="seat 2 was dealt 9 cards; every seat gets 10"):
        deal_from_json({"hands": [HANDS[0].split(), HANDS[1].split()[:9]], "leader": 0})
    with pytest.raises(CardError, match="card 3H appears twice"):
        deal_from_json({"hands": [HANDS[0].split(), HANDS[0].split()], "leader": 0})
    with pytest.raises(DealError, match="the leader must be a seat from 0 to 1, not 2"):
        deal_from_json({"hands": [HANDS[0].split(), HANDS[1].split()], "leader": 2})
    with pytest.raises(CardError, match="unknown card 'ZZ'"):
        deal_from_json({"hands": [["ZZ", *HANDS[0].split()[1:]], HANDS[1].split()], "leader": 0})
    assert len(deal(*HANDS).undealt()) == 32


def test_the_table_and_the_deal_must_agree_on_the_number_of_players() -> None:
    with pytest.raises(InputError, match="the table seats 3 players but 2 were dealt in"):
        start(HANDS, players=3)
