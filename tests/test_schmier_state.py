"""The engine contract for Schmier: settings, records, JSON forms, replay errors, settlement, a match."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.common import IllegalAction, SettingsError
from engine.errors import InputError
from engine.games import load
from engine.schmier import Match, Phase, Settings, State, deal_from_json, random_deal, replay, settings_from_json
from engine.schmier.actions import upgrade
from engine.schmier.randomplay import random_action

DATA = Path(__file__).parent / "data" / "schmier"


def hand_file(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads((DATA / f"{name}.json").read_text())


def test_the_game_loads_by_name_with_the_contract() -> None:
    module = load("schmier")
    assert module.GAME == "schmier"
    data = hand_file("made")
    hand = module.replay(module.settings_from_json({}), data, data["actions"])
    assert hand.is_over and hand.settle().scores_after == (0, 4, 2)


def test_settings_are_validated_and_round_trip() -> None:
    options = Settings(trump_anytime=True)
    assert settings_from_json(options.to_json()) == options
    with pytest.raises(SettingsError, match="setting trump_anytime = 'yes': allowed values are true and false"):
        Settings(trump_anytime="yes")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="unknown Schmier setting 'trump_any_time'"):
        settings_from_json({"trump_any_time": True})
    with pytest.raises(SettingsError, match="allowed values are true and false"):
        settings_from_json({"show_dealer_trump_discards": 1})


def test_records_give_back_the_hand_file_actions_and_say_what_they_caused() -> None:
    data = hand_file("made")
    hand = replay(Settings(), data, data["actions"])
    # the file is in the form written before the one envelope; the records give it back in today's
    assert [record.to_json() for record in hand.history] == [upgrade(action) for action in data["actions"]]
    assert upgrade(data["actions"][0]) == {"kind": "bid", "seat": 1, "amount": 3}
    lines = [record.describe() for record in hand.history]
    assert lines[5] == "seat 1 passes; seat 2 (team 2) wins the bidding at 3"
    assert lines[7] == "seat 2 discards 2: 3♠ 4♠; gets 2♦ 3♦"
    assert lines[13] == "seat 2 plays A♥; leads trick 1"
    assert lines[18] == "seat 1 plays 10♥; seat 2 (team 2) wins trick 1"
    assert lines[-1].endswith("hand scored: team 1 +0, team 2 +4, team 3 +2")


def test_an_illegal_action_in_a_replay_names_its_index_and_reason() -> None:
    data = hand_file("revoke")
    with pytest.raises(IllegalAction) as error:
        replay(Settings(), data, data["actions"])
    assert str(error.value).startswith("action 15: must follow trump: seat 4 holds the queen of hearts")


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"seat": 9, "bid": 3}, "action 0: seat 9 is not a seat"),
        ({"seat": 1}, 'action 0: an action gives "seat" and exactly one of'),
        ({"seat": 1, "bid": 3, "pass": True}, "exactly one of"),
        ({"seat": 1, "bid": True}, "action 0: bid True: a bid is a whole number 3 to 6"),
        ({"seat": 1, "bid": "3"}, "a bid is a whole number"),
        ({"seat": 1, "pass": False}, 'write "pass": true'),
        ({"seat": 1, "play": "ZZ"}, "action 0: unknown card 'ZZ'"),
        ({"seat": 1, "play": "AS"}, "action 0: not now: the hand is in bidding, waiting for seat 2 to bid or pass"),
        ("bid 3", "an action is an object"),
    ],
)
def test_malformed_actions_are_refused_with_a_message(action: object, message: str) -> None:
    deal = random_deal(random.Random(1), 0).to_json()
    with pytest.raises(IllegalAction) as error:
        replay(Settings(), deal, [action])  # type: ignore[list-item]
    assert message in str(error.value)


def test_a_trump_must_be_a_suit() -> None:
    deal = random_deal(random.Random(1), 0).to_json()
    actions = [{"seat": 1, "bid": 6}, {"seat": 1, "trump": "X"}]
    with pytest.raises(IllegalAction, match="action 1: trump 'X': name a suit S, H, D or C"):
        replay(Settings(), deal, actions)
    assert replay(Settings(), deal, [actions[0], {"seat": 1, "trump": "♠"}]).trump is not None


def test_settle_before_the_end_says_what_the_hand_waits_for() -> None:
    hand = State(Settings(), random_deal(random.Random(1), 2))
    with pytest.raises(IllegalAction, match="not over yet: waiting for seat 4 to bid or pass"):
        hand.settle()


def test_the_settlement_moves_no_chips_and_gives_each_seat_its_teams_points() -> None:
    data = hand_file("set")
    result = replay(Settings(), data, data["actions"]).settle()
    assert result.payments == ()
    assert result.nets == {0: 0, 1: -5, 2: 2, 3: 0, 4: -5, 5: 2}
    as_json = result.to_json()
    assert as_json["hand_points"] == [0, -5, 2] and len(as_json["reasons"]) == 6  # type: ignore[arg-type]
    json.dumps(as_json)


def test_a_hand_file_of_another_game_is_refused() -> None:
    with pytest.raises(InputError, match="this is a 'samloc' file, not a Schmier hand"):
        State.from_json({**hand_file("made"), "game": "samloc"})


def test_a_match_round_trips_through_json_and_checks_each_new_deal() -> None:
    rng = random.Random(5)
    match = Match(Settings(trump_anytime=True), first_dealer=2)
    for _ in range(4):
        hand = match.deal_random(rng)
        while not hand.is_over:
            hand.apply(random_action(hand, rng))
    rebuilt = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert rebuilt == match and rebuilt.scores == match.scores
    with pytest.raises(IllegalAction, match="the deal carries scores"):
        match.new_hand(random_deal(rng, match.next_dealer, (99, 0, 0)))
    assert match.phase == "deal"
    hand = match.deal_random(rng)
    assert match.phase == "bidding"
    with pytest.raises(IllegalAction, match="finish this hand first: waiting for seat"):
        match.deal_random(rng)
    assert hand.phase is Phase.BIDDING


def test_a_match_file_with_a_wrong_dealer_names_the_hand() -> None:
    rng = random.Random(5)
    match = Match(Settings(), first_dealer=0)
    hand = match.deal_random(rng)
    while not hand.is_over:
        hand.apply(random_action(hand, rng))
    data = match.to_json()
    data["hands"].append({**random_deal(rng, 4, match.scores).to_json(), "actions": []})  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match=r"hand 2: seat \d deals this hand, not seat 5"):
        Match.from_json(data)


def test_deal_from_json_names_missing_parts() -> None:
    with pytest.raises(InputError, match="the deal has no 'kept'"):
        deal_from_json({"dealer": 0, "scores": [0, 0, 0], "hands": []})


def test_a_saved_hand_carries_a_snapshot_that_must_match_its_actions() -> None:
    data = hand_file("made")
    saved = State.from_json(data).to_json()
    assert saved["now"]["phase"] == "hand over" and saved["now"]["scores"] == [0, 4, 2]  # type: ignore[index]
    assert State.from_json(json.loads(json.dumps(saved))).settle().scores_after == (0, 4, 2)
    saved["now"]["scores"] = [0, 9, 2]  # type: ignore[index]
    with pytest.raises(InputError, match=r'the saved snapshot \("now"\) does not match what the actions give'):
        State.from_json(saved)


def test_a_hand_file_with_an_unknown_key_is_refused() -> None:
    with pytest.raises(InputError, match="unknown key 'action' in a Schmier hand file"):
        State.from_json({**hand_file("made"), "action": []})
