"""``dealer-assist samloc replay``, run as a supervisor runs it, in a subprocess, on hand files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data" / "samloc"


def run(dealer_assist: list[str], cli_env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*dealer_assist, "samloc", "replay", *args], capture_output=True, text=True, env=cli_env, timeout=60
    )


def test_replay_json_of_an_overkill_hand(dealer_assist: list[str], cli_env: dict[str, str]) -> None:
    """Worked out in test_samloc_money: seat 3 wins; 900 + 600 + 600 for cards, and seat 2 owes the capped
    overkill chain of 10 × 100 to seat 3."""
    result = run(dealer_assist, cli_env, str(DATA / "overkill.json"), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "result": "win",
        "winners": [3],
        "deltas": [-900, -600, -1600, 3100],
        "payments": [
            {"from": 0, "to": 3, "amount": 900, "reason": "cards left (9)"},
            {"from": 1, "to": 3, "amount": 600, "reason": "cards left (6)"},
            {"from": 2, "to": 3, "amount": 600, "reason": "cards left (6)"},
            {"from": 2, "to": 3, "amount": 1000, "reason": "overkill (2 on the chop)"},
        ],
    }


def test_replay_json_of_a_failed_sam_with_a_chop(dealer_assist: list[str], cli_env: dict[str, str]) -> None:
    """Bet 500. Seat 1 declares, leads 2H, seat 2 chops it: seat 1 pays 10 × 500 to each of seats 0 and 2, and
    the chop 5 × 500 = 2500 to seat 2."""
    result = run(dealer_assist, cli_env, str(DATA / "sam_fail_with_chop.json"), "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert (out["result"], out["winners"], out["deltas"]) == ("sam_fail", [0, 2], [5000, -12500, 7500])


def test_replay_narrates_move_by_move_and_prints_the_settlement(
    dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    result = run(dealer_assist, cli_env, str(DATA / "bao1_pays_for_everyone.json"))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  5. seat 1 plays K♥ (the king of hearts); báo 1 broken" in "\n".join(lines)
    assert "seat 1 pays seat 2 1500: báo 1, pays for everyone: seat 3's never played a card" in result.stdout
    assert lines[-2] == "nets: seat 1 -3000, seat 2 +3000, seat 3 +0"
    assert lines[-1] == "next hand: seat 2 leads"


def test_an_illegal_action_stops_the_replay_with_its_index_and_reason(
    dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    result = run(dealer_assist, cli_env, str(DATA / "illegal_answer.json"))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "dealer-assist: action 5: the queen of hearts can only be beaten by a higher single"
    )
    assert "  4. seat 3 passes" in result.stdout  # the moves before it were narrated


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["actions"].append({"seat": 2, "pass": True}), "action 7: the hand is over"),
        (lambda d: d["actions"].__setitem__(1, {"seat": 2, "fold": True}), "action 1: unknown key fold"),
        (lambda d: d["actions"].__setitem__(1, {"seat": 2, "play": ["QX"]}), "action 1: unknown card 'QX'"),
        (lambda d: d["table"].__setitem__("bet", 150), "setting bet is 150, not one of the bet levels"),
        (lambda d: d["hands"][0].pop(), "seat 1 was dealt 9 cards"),
        (lambda d: d["actions"].pop(), "the hand is not over after 6 actions: seat 2 is to play"),
        (lambda d: d.__setitem__("game", "schmier"), "is a 'schmier' hand"),
    ],
)
def test_bad_hand_files_get_one_clear_line_and_exit_status_2(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path, change: object, message: str
) -> None:
    data = json.loads((DATA / "bao1_pays_for_everyone.json").read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run(dealer_assist, cli_env, str(path), "--json")
    assert result.returncode == 2
    assert result.stderr.startswith("dealer-assist: ") and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_file_that_is_not_json(dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text("{not json", encoding="utf-8")
    result = run(dealer_assist, cli_env, str(path))
    assert result.returncode == 2 and "not valid JSON" in result.stderr


def test_a_saved_state_is_a_hand_file_and_an_altered_one_is_caught(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    from engine.samloc import State

    data = json.loads((DATA / "overkill.json").read_text(encoding="utf-8"))
    saved = State.from_json(data).to_json()
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    assert json.loads(run(dealer_assist, cli_env, str(path), "--json").stdout)["deltas"] == [-900, -600, -1600, 3100]
    saved["now"]["hands"][0] = []  # someone edits the snapshot
    path.write_text(json.dumps(saved), encoding="utf-8")
    result = run(dealer_assist, cli_env, str(path))
    assert result.returncode == 2 and "does not match what its actions give" in result.stderr
