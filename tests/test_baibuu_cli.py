"""``dealer-assist baibuu …`` run the way a user runs it: in a subprocess."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest

ISSUE_ROUND = {
    "dice": [3, 5, 6],
    "commission": 0.05,
    "copy_rule": "house",
    "house": ["QH", "8S", "AD", "3C"],
    "seats": {"2": {"bet": 100, "high": ["KH", "QS"], "low": ["5D", "4C"]}},
}


@pytest.fixture
def run(dealer_assist: list[str], cli_env: dict[str, str]):  # type: ignore[no-untyped-def]
    def go(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*dealer_assist, "baibuu", *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=cli_env,
            timeout=60,
        )

    return go


def test_house_way_prints_the_split_and_the_rule(run) -> None:  # type: ignore[no-untyped-def]
    done = run("house-way", "8S", "QH", "AD", "3C")
    assert done.returncode == 0, done.stderr
    assert "high QH 8S (8 points)" in done.stdout
    assert "low AD 3C (4 points)" in done.stdout
    assert "low would be 3 < 4: take the 8 high" in done.stdout


def test_house_way_json_is_one_object_a_hand(run) -> None:  # type: ignore[no-untyped-def]
    done = run("house-way", "--json", "8S", "QH", "AD", "3C")
    assert json.loads(done.stdout) == {
        "cards": ["8S", "QH", "AD", "3C"],
        "high": ["QH", "8S"],
        "low": ["AD", "3C"],
        "rule": "low would be 3 < 4: take the 8 high",
    }


def test_house_way_filters_one_hand_a_line_from_stdin(run) -> None:  # type: ignore[no-untyped-def]
    done = run("house-way", "--json", stdin="2s 2h 5d 6c\n\n# a comment\nQH KS 6D 4C\nT♥ 9♠ A♦ 8♣\n")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["rule"] for line in lines] == [
        "pair of 2s with 5+6: split",
        "two pictures K+Q: never broken, high",
        "Kong A+9: never broken, high",
    ]
    assert lines[2]["cards"] == ["10H", "9S", "AD", "8C"]


def test_house_way_stops_at_a_bad_line_naming_it(run) -> None:  # type: ignore[no-untyped-def]
    done = run("house-way", stdin="2S 2H 5D 6C\n2S 2H 5D 6Z\n")
    assert done.returncode == 2
    assert "high" in done.stdout  # the good line before it was answered
    assert done.stderr.strip().startswith("dealer-assist: line 2: unknown card '6Z'")


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (["8S", "QH", "AD"], "expected 4 cards, got 3"),
        (["8S", "QH", "AD", "AD"], "card AD appears twice"),
        (["8S", "QH", "AD", "XX"], "unknown card 'XX'"),
        (["8S", "QH", "AD", "JK"], "without the joker"),
    ],
)
def test_house_way_bad_input_is_one_clear_line_and_exit_2(run, cards: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    done = run("house-way", *cards)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr


def test_settle_answers_the_issue_example(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "round.json"
    path.write_text(json.dumps(ISSUE_ROUND))
    done = run("settle", "--json", str(path))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["house"]["high"] == ["QH", "8S"] and result["house"]["low"] == ["AD", "3C"]
    assert result["house"]["rule"] == "low would be 3 < 4: take the 8 high"
    assert result["first_position"] == 7
    assert result["seats"]["2"]["outcome"] == "win" and result["seats"]["2"]["net"] == 95
    assert len(result["seats"]["2"]["reasons"]) == 2
    text = run("settle", str(path))
    assert "first stack to position 7" in text.stdout
    assert "seat 2 wins: +95" in text.stdout
    assert "house net: -95" in text.stdout


def test_settle_reads_stdin_and_a_house_as_set_on_the_felt(run) -> None:  # type: ignore[no-untyped-def]
    data = dict(ISSUE_ROUND, house={"high": ["8S", "AD"], "low": ["QH", "3C"]}, copy_rule="highest_card")
    done = run("settle", "--json", "-", stdin=json.dumps(data))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["house"]["house_way"] is False
    assert result["house"]["high"] == ["8S", "AD"]
    assert "not by the house way" in run("settle", "-", stdin=json.dumps(data)).stdout


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dice": [3, 5, 7]}, "dice 3 5 7: a die shows 1 to 6, not 7; shake again"),
        ({"dice": [3, 5]}, "need 3 dice"),
        ({"house": ["QH", "8S", "AD"]}, "the house hand is 4 cards"),
        ({"house": ["QH", "8S", "AD", "AD"]}, "a card appears twice"),
        ({"house": ["QH", "8S", "AD", "3X"]}, "unknown card '3X'"),
        ({"seats": {"2": {"bet": 100, "high": ["QH", "QS"], "low": ["5D", "4C"]}}}, "QH already seen"),
        ({"seats": {"1": {"bet": 100, "high": ["KH", "QS"], "low": ["5D", "4C"]}}}, "'1' is not a seat"),
        ({"seats": {"2": {"bet": 100, "high": ["KH"], "low": ["5D", "4C"]}}}, "set 2 cards high and 2 low"),
        ({"commission": 5}, "commission 5: allowed from 0 to 0.10"),
        ({"copy_rule": "nobody"}, "copy_rule 'nobody'"),
        ({"shoe": 1}, "unknown key 'shoe'"),
    ],
)
def test_settle_bad_round_exits_2_with_one_line_naming_the_problem(
    run, change: dict[str, object], message: str
) -> None:  # type: ignore[no-untyped-def]
    done = run("settle", "-", stdin=json.dumps({**ISSUE_ROUND, **change}))
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stderr.startswith("dealer-assist: standard input: ")
    assert message in done.stderr


def test_settle_missing_file_and_bad_json_are_clear(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    missing = run("settle", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "No such file" in missing.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    done = run("settle", str(bad))
    assert done.returncode == 2 and "not valid JSON" in done.stderr


def test_table_csv_has_every_hand_of_ranks_once(run) -> None:  # type: ignore[no-untyped-def]
    done = run("table", "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert len(rows) == 1820
    assert len({row["hand"] for row in rows}) == 1820
    by_hand = {row["hand"]: row for row in rows}
    q8a3 = by_hand["A Q 8 3"]
    assert (q8a3["high"], q8a3["low"], q8a3["rule"]) == ("Q 8", "A 3", "low would be 3 < 4: take the 8 high")


def test_table_html_is_a_printable_chart(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "chart.html"
    done = run("table", "--format", "html", "--output", str(out))
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    assert "@page" in html and "Bài Bửu" in html
    assert html.count('class="hand"') == 1820
    assert "split with 3+7, 4+7, 5+7, 6+7, 5+6" in html


def test_demo_is_repeatable_by_seed_and_settles_every_seat(run) -> None:  # type: ignore[no-untyped-def]
    first = run("demo", "--seed", "7", "--seats", "4")
    assert first.returncode == 0, first.stderr
    assert first.stdout == run("demo", "--seed", "7", "--seats", "4").stdout
    for seat in (2, 3, 4, 5):
        assert f"seat {seat}: bet" in first.stdout
    assert "seat 6: bet" not in first.stdout
    assert "house way: high" in first.stdout and "rule: " in first.stdout


def test_demo_json_round_replays_to_its_settlement(run) -> None:  # type: ignore[no-untyped-def]
    from engine.baibuu import State

    done = run("demo", "--seed", "3", "--seats", "2,5,7", "--json")
    data = json.loads(done.stdout)
    state = State.from_json(data["round"])
    assert state.settings.seats == (2, 5, 7)
    assert state.settle().to_json() == data["settlement"]


@pytest.mark.parametrize("seats", ["0", "7", "1,2", "2,2", "two"])
def test_demo_refuses_bad_seats(run, seats: str) -> None:  # type: ignore[no-untyped-def]
    done = run("demo", "--seats", seats)
    assert done.returncode == 2 and "--seats" in done.stderr


@pytest.mark.parametrize(
    ("language", "words"),
    [("km", ["របៀបរៀបរបស់ផ្ទះ", "បំបែកជាមួយ 3+7", "មិនបំបែកទេ", "គូពីរ"]),
     ("vi", ["cách xếp bài của nhà cái", "tách với 3+7", "không bao giờ tách", "Hai đôi"])],
)
def test_table_html_chart_in_khmer_and_vietnamese(  # type: ignore[no-untyped-def]
    run, tmp_path: Path, language: str, words: list[str]
) -> None:
    out = tmp_path / f"chart-{language}.html"
    done = run("table", "--format", "html", "--language", language, "--output", str(out))
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert f'<html lang="{language}">' in html and html.count('class="hand"') == 1820
    assert all(word in html for word in words), [word for word in words if word not in html]
    for english in ("split with", "never split", "Naturals", "Everything else", "The house sets", "Two pairs:"):
        assert english not in html, english
