"""A casino's posted house way: loaded from its file, checked on every hand, used by the round, named in the journal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.baibuu import STANDARD_HOUSE_WAY, HouseWay, HouseWayRule, Settings, Split, State, replay
from engine.baibuu.house_way import STANDARD_RULES, ordered_hand
from engine.baibuu.house_way_file import (
    RANK_PATTERNS,
    check_house_way,
    house_way_from_json,
    house_way_to_json,
    rank_patterns,
)
from engine.cards import Card, parse_cards
from engine.common import SettingsError
from journal import Journal, JournalReader, ManualClock
from kiosk.config import ConfigError, load_config

# The standard way splits 2-2 with 5+6; this pit never splits a pair of 2s and wants 5 points low.
POSTED = {"name": "Golden Pit, posted 2026-03", "pair_splits": {"9": ["A+Z"]}, "min_low_points": 5}
TWOS = parse_cards("2S 2H 5D 6C")


def test_every_hand_of_ranks_is_checked_once() -> None:
    patterns = rank_patterns()
    assert len(patterns) == RANK_PATTERNS == 1820
    assert len({tuple(card.rank for card in hand) for hand in patterns}) == 1820
    check_house_way(STANDARD_HOUSE_WAY)


def test_a_posted_way_loads_from_its_file_and_the_kiosk_config_names_it(tmp_path: Path) -> None:
    (tmp_path / "golden-pit.json").write_text(json.dumps(POSTED))
    (tmp_path / "kiosk.yaml").write_text("games:\n  baibuu:\n    min_bet: 10\n    house_way: golden-pit.json\n")
    settings = load_config(tmp_path / "kiosk.yaml").game_settings("baibuu")
    assert settings.house_way.name == "Golden Pit, posted 2026-03" and not settings.house_way.is_standard
    assert settings.house_way.split(TWOS).rule_name == "one pair"
    assert STANDARD_HOUSE_WAY.split(TWOS).rule == "pair of 2s with 5+6: split"
    assert settings.house_way.split(TWOS).rule == "pair of 2s: never split, pair high"
    assert house_way_from_json(house_way_to_json(settings.house_way)) == settings.house_way


def test_the_round_sets_the_house_by_the_posted_way_and_the_journal_names_it(tmp_path: Path) -> None:
    settings = Settings(seats=(2,), house_way=house_way_from_json(POSTED))
    state = State(settings)
    state.roll([3, 5, 6])
    revealed = state.reveal_house(TWOS)
    assert revealed.house_way.rule == "pair of 2s: never split, pair high"
    state.set_house(parse_cards("2S 2H"), parse_cards("5D 6C"))  # follows the posted way, not the standard one
    assert state.house_follows_house_way is True
    state.set_seat(2, 10, parse_cards("AS AH"), parse_cards("KS 9H"))

    journal = Journal.open(tmp_path / "j.sqlite3", tmp_path / "k.key", kiosk_id="K-1", table_id="T-1",
                           clock=ManualClock())
    assert journal.recover().sound
    round_id = journal.begin_round("baibuu", settings, None)
    for record in state.history:
        journal.record_action(round_id, record)
    journal.close_round(round_id, state.settle())
    journal.close()
    with JournalReader.open(tmp_path / "j.sqlite3", tmp_path / "k.key") as reader:
        begun = next(reader.entries(kinds=["round_begun"])).payload
        actions = [entry.payload["action"] for entry in reader.entries(kinds=["action_recorded"])]
    assert begun["settings"]["house_way"]["name"] == "Golden Pit, posted 2026-03"
    again = replay(begun["settings"], begun["deal"], actions)
    assert again == state and again.house_split == state.house_split
    # the standard way is the default, and is not written out: settings written before keep their form
    assert "house_way" not in Settings().to_json()
    assert replay(Settings(seats=(2,)).to_json(), None, actions[:2]).house_split.rule == "pair of 2s with 5+6: split"


def _mis_setting(cards: tuple[Card, ...], way: HouseWay) -> Split:
    high, low = STANDARD_HOUSE_WAY.split(cards).high, STANDARD_HOUSE_WAY.split(cards).low
    return Split(low, high, "low first", "backwards")


def _by_suit(cards: tuple[Card, ...], way: HouseWay) -> Split:
    a, b, c, d = cards
    if a.suit is not None and a.suit.value == "S":
        return Split(ordered_hand(a, b), ordered_hand(c, d), "first two", "suits")
    return Split(ordered_hand(a, c), ordered_hand(b, d), "first and third", "suits")


def _other_cards(cards: tuple[Card, ...], way: HouseWay) -> Split:
    stranger = next(card for card in parse_cards("KD QD") if card not in cards)
    return Split(ordered_hand(cards[0], cards[1]), ordered_hand(cards[2], stranger), "a card from elsewhere", "wrong")


@pytest.mark.parametrize(
    ("rule", "says"),
    [
        (_mis_setting, "mis-sets"),
        (_by_suit, "two ways depending on the suits"),
        (_other_cards, "with other cards"),
    ],
)
def test_a_way_that_mis_sets_or_wavers_is_refused_naming_the_hand(rule, says: str) -> None:  # type: ignore[no-untyped-def]
    way = HouseWay((HouseWayRule("bad", "a broken rule", rule), *STANDARD_RULES), name="broken")
    with pytest.raises(SettingsError, match=f"house way 'broken' .*{says}") as refused:
        check_house_way(way)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"pair_splits": {}}, "give the posted way a name of its own"),
        ({"name": "standard"}, "give the posted way a name of its own"),
        ({"name": "x", "pair_splits": {"2": ["3+X"]}}, "pair_splits of 2: pair-split pattern '3\\+X'"),
        ({"name": "x", "pair_splits": {"1": ["A+Z"]}}, "'1' is not a rank"),
        ({"name": "x", "pair_splits": {"2": "A+Z"}}, "a list such as"),
        ({"name": "x", "min_low_points": 10}, "min_low_points 10"),
        ({"name": "x", "split": {}}, "unknown house-way key 'split'"),
    ],
)
def test_a_bad_posted_way_gets_one_line_naming_the_problem(data: dict[str, object], says: str) -> None:
    with pytest.raises(SettingsError, match=says) as refused:
        house_way_from_json(data)
    assert "\n" not in str(refused.value)


def test_a_config_naming_a_missing_house_way_file_says_so(tmp_path: Path) -> None:
    (tmp_path / "kiosk.yaml").write_text("games:\n  baibuu:\n    house_way: nowhere.json\n")
    with pytest.raises(ConfigError, match=r"games\.baibuu\.house_way: cannot read .*nowhere\.json"):
        load_config(tmp_path / "kiosk.yaml")
