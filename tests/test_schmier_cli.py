"""``dealer-assist schmier replay`` run the way a supervisor runs it: a subprocess on a hand file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data" / "schmier"


def run(dealer_assist: list[str], env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*dealer_assist, "schmier", "replay", *args], env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "made",
            {
                "points": {"high": 1, "low": 2, "right_bauer": 1, "left_bauer": 1, "joker": 1, "game": 2},
                "hand_points": [0, 4, 2],
                "scores": [0, 4, 2],
                "bidder": 1,
                "bid": 3,
                "made": True,
                "winner": None,
            },
        ),
        (
            "set",
            {
                "points": {"high": 1, "low": 2, "right_bauer": 1, "left_bauer": 1, "joker": 1, "game": 2},
                "hand_points": [0, -5, 2],
                "scores": [0, -5, 2],
                "bidder": 1,
                "bid": 5,
                "made": False,
                "winner": None,
            },
        ),
        (
            "tie_bidder_wins",
            {
                "points": {"high": 1, "low": 2, "right_bauer": 1, "left_bauer": 1, "joker": 1, "game": 2},
                "hand_points": [0, 4, 2],
                "scores": [5, 23, 23],
                "bidder": 1,
                "bid": 3,
                "made": True,
                "winner": 1,
            },
        ),
    ],
)
def test_replay_json_prints_the_result(
    dealer_assist: list[str], cli_env: dict[str, str], name: str, expected: dict[str, object]
) -> None:
    done = run(dealer_assist, cli_env, str(DATA / f"{name}.json"), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected


def test_replay_narrates_the_hand_and_gives_a_reason_for_each_point(
    dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    done = run(dealer_assist, cli_env, str(DATA / "made.json"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Schmier hand: seat 1 deals; scores going in: team 1 0, team 2 0, team 3 0"
    assert "  [6] seat 2 names hearts ♥ trump; seat 2 to discard" in lines
    assert "Low: team 3: seat 3 (team 3) played the 2 of hearts in trick 1, trick won by seat 2" in lines
    assert "Game: team 3: team 3 took the most card points (team 1 0, team 2 32, team 3 40)" in lines
    assert lines[-3:] == [
        "bid: seat 2 (team 2) bid 3 and took 4: made it",
        "hand: team 1 +0, team 2 +4, team 3 +2",
        "scores: team 1 0, team 2 4, team 3 2",
    ]


def test_a_thrown_in_hand_has_no_bidder(dealer_assist: list[str], cli_env: dict[str, str]) -> None:
    done = run(dealer_assist, cli_env, str(DATA / "thrown_in.json"), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["bidder"] is None and result["bid"] is None and result["made"] is None
    assert result["hand_points"] == [0, 0, 0] and set(result["points"].values()) == {None}


def test_an_illegal_action_stops_the_replay_with_exit_status_2(
    dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    done = run(dealer_assist, cli_env, str(DATA / "revoke.json"))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "dealer-assist: action 15: must follow trump: seat 4 holds the queen of hearts, "
        "the left bauer (jack of diamonds)"
    )
    assert done.stdout.splitlines()[-1] == "  [14] seat 3 plays 2♥"  # narrated up to the bad action
    assert run(dealer_assist, cli_env, str(DATA / "revoke.json"), "--json").stdout == ""


def test_an_unfinished_hand_says_what_it_waits_for(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    data = json.loads((DATA / "made.json").read_text())
    data["actions"] = data["actions"][:20]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(data))
    done = run(dealer_assist, cli_env, str(path), "--json")
    assert done.returncode == 2
    assert "the hand is not finished after 20 actions: waiting for seat 3 to play" in done.stderr


def test_option_trump_anytime_from_the_flag(dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path) -> None:
    data = json.loads((DATA / "made.json").read_text())
    # seat 1 leads a spade; seat 2 holds 9S 10S and trumps it with the joker
    data["actions"] = [*data["actions"][:13], {"seat": 1, "play": "5S"}, {"seat": 2, "play": "JK"}]
    path = tmp_path / "trump_anytime.json"
    path.write_text(json.dumps(data))
    strict = run(dealer_assist, cli_env, str(path), "--json")
    assert strict.returncode == 2
    assert "action 14: must follow spades: seat 3 holds the 9 of spades, the 10 of spades" in strict.stderr
    loose = run(dealer_assist, cli_env, str(path), "--json", "--trump-anytime")
    assert loose.returncode == 2 and "not finished after 15 actions: waiting for seat 4 to play" in loose.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "broken.json: not valid JSON"),
        ('{"game": "schmier", "dealer": 0}', "broken.json: the deal has no 'scores'"),
        ("[1, 2]", "broken.json: a Schmier hand file is a JSON object"),
    ],
)
def test_a_broken_hand_file_gets_one_clear_line(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content)
    done = run(dealer_assist, cli_env, str(path))
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.splitlines()) == 1


def test_a_missing_hand_file_is_named(dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path) -> None:
    done = run(dealer_assist, cli_env, str(tmp_path / "nowhere.json"))
    assert done.returncode == 2 and "nowhere.json" in done.stderr


def test_a_saved_hand_whose_snapshot_was_altered_is_refused(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    from engine.schmier import State

    saved = State.from_json(json.loads((DATA / "made.json").read_text())).to_json()
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(saved))
    assert run(dealer_assist, cli_env, str(path), "--json").returncode == 0
    saved["now"]["trick_winners"][0] = 2  # type: ignore[index]
    path.write_text(json.dumps(saved))
    done = run(dealer_assist, cli_env, str(path), "--json")
    assert done.returncode == 2 and 'the saved snapshot ("now") does not match' in done.stderr


def test_a_misspelt_key_is_named(dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path) -> None:
    data = json.loads((DATA / "made.json").read_text())
    data["action"] = data.pop("actions")
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(data))
    done = run(dealer_assist, cli_env, str(path))
    assert done.returncode == 2 and "unknown key 'action' in a Schmier hand file" in done.stderr
