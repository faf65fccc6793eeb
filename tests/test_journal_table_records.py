"""Sâm Lốc and Schmier hands followed at the table, journaled as table records (the deal without hands, the actions,
the cards shown as actions), re-checked by ``dealer-assist logs show``: replayed, rebuilt, violations shown, and
every seat and team in words counted from 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_samloc_table_record import bao1_broken_record, three_player_record
from test_schmier_table_record import made_record

from engine import samloc, schmier
from journal import Journal, JournalReader, ManualClock
from journal.review import round_detail
from kiosk.cli import main


def journal_table_hand(tmp_path: Path, game: str, hand: samloc.TableState | schmier.TableState) -> int:
    journal = Journal.open(tmp_path / "j.sqlite3", tmp_path / "k.key", kiosk_id="K-7", table_id="T3",
                           clock=ManualClock())
    assert journal.recover().sound
    round_id = journal.begin_round(game, hand.settings, hand.deal.to_json())
    for record in hand.history:
        journal.record_action(round_id, record)
    settlement = hand.settle()
    journal.show_results(round_id, settlement)
    journal.close_round(round_id, settlement, confirmed_by="S1")
    journal.close()
    return round_id


def show(capsys: pytest.CaptureFixture[str], tmp_path: Path, round_id: int, *more: str) -> tuple[int, str]:
    code = main(["logs", "show", str(round_id), "--db", str(tmp_path / "j.sqlite3"), "--key",
                 str(tmp_path / "k.key"), *more])
    return code, capsys.readouterr().out


def test_a_samloc_table_record_in_the_journal_replays_and_shows_its_violation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    hand = samloc.TableState.from_json(json.loads(json.dumps(bao1_broken_record())))
    round_id = journal_table_hand(tmp_path, "samloc", hand)
    with JournalReader.open(tmp_path / "j.sqlite3", tmp_path / "k.key") as reader:
        detail = round_detail(reader, round_id)
    assert detail.begun.deal == {"players": 3, "leader": 0}  # no hands: the journal keeps the table record
    assert detail.replayed.error is None and detail.replayed.agrees
    assert [str(v) for v in detail.replayed.violations] == [str(hand.settle().violations[0].message)]
    code, out = show(capsys, tmp_path, round_id)
    assert code == 0
    violation = next(line for line in out.splitlines() if "VIOLATION (held for a supervisor)" in line)
    assert "seat 3 played QS while holding AC" in violation
    assert "#12 seat 1 plays KH (the king of hearts); seat 1 goes out and wins the hand" in out
    assert "#13 seat 2 shows" in out  # the cards shown at the end are actions of the record
    assert "seat 3 pays seat 1 190" not in out and "seat 3 pays seat 1 90" in out
    assert "seat 0" not in out  # every seat in words counted from 1
    code, vi = show(capsys, tmp_path, round_id, "--language", "vi")
    assert code == 0 and "VI PHẠM" in vi and "ghế 3 đánh Q♠" in vi
    paid = next(line for line in vi.splitlines() if "round_settled" in line)
    assert "đã trả (S1 xác nhận)" in paid and "ghế 1 +" in paid and "seat" not in paid  # results in Vietnamese too


def test_a_sound_three_player_record_agrees(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    hand = samloc.TableState.from_json(json.loads(json.dumps(three_player_record())))
    round_id = journal_table_hand(tmp_path, "samloc", hand)
    code, out = show(capsys, tmp_path, round_id)
    assert code == 0 and "VIOLATION" not in out and "agrees with what was shown and paid" in out


def test_a_schmier_table_record_in_the_journal_says_teams_from_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    hand = schmier.TableState.from_json(made_record())
    round_id = journal_table_hand(tmp_path, "schmier", hand)
    code, out = show(capsys, tmp_path, round_id)
    assert code == 0 and "agrees with what was shown and paid" in out
    assert "hand scored: team 1 +0, team 2 +4, team 3 +2" in out
    assert "#7 seat 2 discards 2 face down" in out
    assert "team 0" not in out and "seat 0" not in out


def test_logs_export_text_counts_seats_from_one_and_is_the_text_the_chain_covers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``logs export``'s text (each event's descriptions, payment reasons and result lines, in its payload column)
    names seats and teams as the table numbers them, and is the journal's own hashed text, not re-worded."""
    import csv
    import io
    import re

    hands = {"samloc": samloc.TableState.from_json(json.loads(json.dumps(bao1_broken_record()))),
             "schmier": schmier.TableState.from_json(made_record())}
    for game, hand in hands.items():
        folder = tmp_path / game
        folder.mkdir()
        journal_table_hand(folder, game, hand)
        assert main(["logs", "export", "--db", str(folder / "j.sqlite3"), "--key", str(folder / "k.key")]) == 0
        rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
        with JournalReader.open(folder / "j.sqlite3", folder / "k.key") as reader:
            hashed = {entry.seq: entry.payload for entry in reader.entries()}
            assert reader.verify().ok
        texts: list[str] = []
        for row in rows:
            payload = json.loads(row["payload"])
            assert payload == hashed[int(row["seq"])]
            texts += strings_in(payload)
        numbers = [int(n) for text in texts for n in re.findall(r"\b(?:seat|team) (\d+)", text)]
        assert numbers and min(numbers) == 1, (game, sorted(set(numbers)))


def strings_in(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [text for item in items for text in strings_in(item)]
