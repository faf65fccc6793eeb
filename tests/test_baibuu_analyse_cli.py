"""``dealer-assist baibuu analyse`` run the way a user runs it: in a subprocess."""

from __future__ import annotations

import json
import subprocess
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from engine.baibuu import CopyRule, Settings
from engine.baibuu.analysis import house_edge


@pytest.fixture
def analyse(dealer_assist: list[str], cli_env: dict[str, str]):  # type: ignore[no-untyped-def]
    def go(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*dealer_assist, "baibuu", "analyse", *args], capture_output=True, text=True, env=cli_env, timeout=120
        )

    return go


def test_analyse_prints_the_exact_figures_of_the_setting_and_the_table_of_every_commission(analyse) -> None:  # type: ignore[no-untyped-def]
    done = analyse("--copy-rule", "highest_card", "--commission", "4%", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    exact = house_edge(Settings(commission=Decimal("0.04"), copy_rule=CopyRule.HIGHEST_CARD))
    assert Fraction(report["player_ev_exact"]) == -exact
    assert report["pairs"] == 52_677_670_500
    counts = report["counts"]
    assert counts["win"] + counts["push"] + counts["lose"] == counts["pairs"]
    rows = report["table"]["rows"]
    assert len(rows) == 22  # 0 … 10 % under both copy rules
    row = next(r for r in rows if r["copy_rule"] == "highest_card" and r["commission"] == 0.04)
    assert row["house_edge"] == pytest.approx(float(exact))
    # 30 rounds an hour of 100: the house keeps 30 × 100 × edge (4 % of 100 is 4 whole chips, nothing rounded).
    assert row["hold_per_hour"] == pytest.approx(3000 * float(exact))
    assert sum(rule["hands"] for rule in report["rules"]) == 270_725


def test_analyse_best_play_says_what_the_house_way_gives_up_and_writes_html_and_png(analyse, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    html, png = tmp_path / "edge.html", tmp_path / "edge.png"
    done = analyse("--player", "best", "--html", str(html), "--chart", str(png))
    assert done.returncode == 0, done.stderr
    assert "the house way gives up" in done.stdout
    assert "K Q 7 7" in done.stdout  # the hand the house way costs most on
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = html.read_text(encoding="utf-8")
    assert "house edge" in page and "data:image/png;base64," in page and "gives up" in page


def test_analyse_counts_a_posted_house_way_variant(analyse, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    variant = tmp_path / "way.json"
    # The standard table, but 7-7 is never split.
    variant.write_text(
        json.dumps(
            {
                "pair_splits": {
                    "2": ["3+7", "4+7", "5+7", "6+7", "5+6"],
                    "3": ["4+6", "5+6"],
                    "6": ["A+2", "A+3", "2+3", "2+Z", "3+Z"],
                    "8": ["A+Z"],
                    "9": ["A+Z"],
                }
            }
        )
    )
    changed = analyse("--json", "--house-way", str(variant))
    assert changed.returncode == 0, changed.stderr
    report = json.loads(changed.stdout)
    assert report["setting"]["house_way"] == str(variant)
    assert report["house_edge"] != pytest.approx(float(house_edge(Settings())))


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--commission", "12%"), "commission 0.12"),
        (("--commission", "five"), "commission 'five'"),
        (("--average-bet", "0"), "--average-bet"),
    ],
)
def test_analyse_refuses_bad_settings_in_one_line(analyse, args: tuple[str, ...], says: str) -> None:  # type: ignore[no-untyped-def]
    done = analyse(*args)
    assert done.returncode != 0
    assert says in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_analyse_names_what_is_wrong_in_a_house_way_file(analyse, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "way.json"
    bad.write_text('{"pair_splits": {"7": ["A+X"]}}')
    done = analyse("--house-way", str(bad))
    assert done.returncode != 0
    assert "A+X" in done.stderr and "Traceback" not in done.stderr
