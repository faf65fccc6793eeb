"""``dealer-assist logs``: what a supervisor types and sees."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from journal import Journal, JournalReader, ManualClock
from journal.review import summarize
from journal.simulate import fill
from kiosk.cli import main

ROUNDS = 14


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("data")
    journal = Journal.open(folder / "journal.sqlite3", folder / "kiosk.key", kiosk_id="K-7", table_id="T3",
                           clock=ManualClock())
    assert journal.recover().sound
    fill(journal, ROUNDS, seed=21, void_every=5)
    journal.close()
    return folder


@pytest.fixture
def data(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the journal in the kiosk's data folder, named by DEALER_ASSIST_DATA."""
    for name in ("journal.sqlite3", "kiosk.key"):
        shutil.copy2(template / name, tmp_path / name)
    monkeypatch.setenv("DEALER_ASSIST_DATA", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")
    return tmp_path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["logs", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_rounds_lists_every_round_with_totals(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "rounds")
    assert code == 0
    with JournalReader.open(data / "journal.sqlite3", data / "kiosk.key") as reader:
        rounds = summarize(reader)
    voided = sum(r.outcome == "voided" for r in rounds)
    assert f"{ROUNDS} rounds" in out and f"{ROUNDS - voided} settled, {voided} voided, 0 open" in out
    assert str(sum(r.paid for r in rounds)) in out
    for game in ("baibuu", "samloc", "schmier"):
        assert game in out


def test_rounds_filters_by_game_outcome_table_and_day(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "rounds", "--game", "samloc", "--outcome", "settled")
    assert code == 0 and "baibuu" not in out and "schmier" not in out and "samloc" in out
    _, out, _ = _run(capsys, "rounds", "--outcome", "voided")
    assert "voided by supervisor S-1" in out and "0 settled" in out
    _, out, _ = _run(capsys, "rounds", "--table", "T9")
    assert "0 rounds" in out
    _, out, _ = _run(capsys, "rounds", "--since", "2026-01-02")
    assert "0 rounds" in out
    _, out, _ = _run(capsys, "rounds", "--since", "2026-01-01", "--until", "2026-01-01")
    assert f"{ROUNDS} rounds" in out


def test_show_puts_the_replayed_result_beside_the_shown_one(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "show", "1")
    assert code == 0
    assert "Round 1 · baibuu · table T3" in out
    assert "round_begun" in out and "action_recorded" in out and "round_settled" in out
    assert "Shown" in out and "Paid" in out and "Replayed" in out
    assert "agrees with what was shown and paid" in out
    assert "house way" in out  # the rule that decided the house split


def test_show_of_an_unknown_round_says_which_exist(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "show", "999")
    assert code == 2 and f"no round 999 in this journal (rounds 1–{ROUNDS})" in err


def test_recall_shows_the_last_ten_rounds_marked_as_recall(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "recall")
    assert code == 0
    assert out.count("RECALL") >= 10
    for number in range(1, 11):
        assert f"RECALL {number}/10: round {ROUNDS + 1 - number}, not live play" in out
    assert f"round {ROUNDS - 10}," not in out


def test_export_csv_and_jsonl_carry_every_event(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with JournalReader.open(data / "journal.sqlite3", data / "kiosk.key") as reader:
        entries = list(reader.entries())
    code, out, err = _run(capsys, "export", "--format", "csv")
    assert code == 0 and f"exported {len(entries)} events" in err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(entries)
    assert [int(r["seq"]) for r in rows] == [e.seq for e in entries]
    for row, entry in zip(rows, entries, strict=True):
        assert json.loads(row["payload"]) == entry.payload and row["hash"] == entry.hash
    target = data / "out.jsonl"
    code, _, _ = _run(capsys, "export", "--format", "jsonl", "--round", "2", "-o", str(target))
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    assert code == 0 and lines and {line["round_id"] for line in lines} <= {2, None}
    assert lines[0]["kind"] == "round_begun" and lines[-1]["kind"] == "round_settled"


def test_stats_counts_per_table_and_day(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "stats")
    assert code == 0
    with JournalReader.open(data / "journal.sqlite3", data / "kiosk.key") as reader:
        kinds = [e.kind for e in reader.entries()]
    row = next(line for line in out.splitlines() if "T3" in line)
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    assert cells[:2] == ["T3", "2026-01-01"]
    assert cells[2:] == [str(kinds.count(k)) for k in ("round_begun", "round_settled", "round_voided",
                                                        "dice_reshaken", "cards_misread", "cards_corrected",
                                                        "cards_read")]


def test_a_missing_journal_or_key_is_one_clear_line(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "rounds", "--db", str(data / "nope.sqlite3"))
    assert code == 2 and "there is no journal at" in err
    (data / "kiosk.key").unlink()
    code, _, err = _run(capsys, "verify")
    assert code == 2 and err.startswith(f"dealer-assist: the journal's key is not at {data / 'kiosk.key'}: ")
    assert err.count("\n") == 1


def test_the_real_command(data: Path, dealer_assist: list[str], cli_env: dict[str, str]) -> None:
    cli_env["DEALER_ASSIST_DATA"] = str(data)
    done = subprocess.run([*dealer_assist, "logs", "rounds", "--game", "baibuu"], capture_output=True, text=True,
                          env=cli_env, timeout=60)
    assert done.returncode == 0 and "baibuu" in done.stdout
    bad = subprocess.run([*dealer_assist, "logs", "rounds", "--since", "yesterday"], capture_output=True, text=True,
                         env=cli_env, timeout=60)
    assert bad.returncode == 2 and "YYYY-MM-DD" in bad.stderr


def test_show_flags_a_result_the_rules_do_not_give(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    journal = Journal.open(tmp_path / "j.sqlite3", tmp_path / "k.key", kiosk_id="K-7", table_id="T3",
                           clock=ManualClock())
    assert journal.recover().sound
    round_id = journal.begin_round("baibuu", {"seats": [3]}, None)
    for action in ({"action": "roll", "dice": [1, 1, 1]},
                   {"action": "reveal_house", "cards": ["2C", "3C", "4D", "5S"]},
                   {"action": "set_house", "high": ["4D", "5S"], "low": ["2C", "3C"]},
                   {"action": "set_seat", "seat": 3, "bet": 100, "high": ["KS", "KH"], "low": ["9C", "9D"]}):
        journal.record_action(round_id, action)
    paid = {"payments": [{"from": 3, "to": "house", "amount": 100, "reason": "seat 3 loses"}],
            "nets": {"3": -100, "house": 100}}  # the pair of kings wins by the rules; this says it lost
    journal.show_results(round_id, paid)
    journal.close_round(round_id, paid)
    journal.close()
    code, out, _ = _run(capsys, "show", str(round_id), "--db", str(tmp_path / "j.sqlite3"),
                        "--key", str(tmp_path / "k.key"))
    assert code == 1
    assert "DIFFERS" in out
    seat = next(line for line in out.splitlines() if line.startswith("│ seat 3"))
    cells = [c.strip() for c in seat.strip("│ ").split("│")]
    assert cells[:3] == ["seat 3", "-100", "-100"] and cells[3].startswith("+")
