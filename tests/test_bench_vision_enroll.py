"""bench/vision_enroll.py measures enrollment on a deck the shipped models never trained on: its arguments and its
counting (no training here; the bench itself runs the real fine-tune)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from engine.cards import parse_card
from vision.detection import Detection
from vision.enroll.learn import LearnSettings

BENCH = Path(__file__).resolve().parent.parent / "bench" / "vision_enroll.py"
HELD_OUT = ("konqi-modern", "xskat-french", "procedural-standard", "procedural-large", "procedural-jumbo")


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_vision_enroll", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_by_default_the_deck_is_a_held_out_standard_index_design_learnt_as_the_kiosk_learns(bench: ModuleType) -> None:
    args = bench.parse_args([])
    assert args.deck == "procedural-standard"
    assert args.deck not in bench.trained_decks()
    kiosk = LearnSettings()
    assert (args.scenes, args.epochs) == (kiosk.scenes, kiosk.epochs)


def test_every_held_out_design_of_the_transfer_bench_can_play_the_casinos_deck(bench: ModuleType) -> None:
    assert set(HELD_OUT) <= set(bench.DESIGNS)
    assert not set(bench.DESIGNS) & set(bench.trained_decks())
    for design in HELD_OUT:
        assert bench.parse_args(["--deck", design]).deck == design
    assert "nicu-white" in bench.trained_decks()  # accepted, but its figure is not a transfer figure
    assert bench.parse_args(["--deck", "nicu-white"]).deck == "nicu-white"


@pytest.mark.parametrize("argv, named", [(["--deck", "copag-blue"], "'copag-blue'"), (["--epochs", "0"], "--epochs"),
                                         (["--check-scenes", "0"], "--check-scenes")])
def test_bad_arguments_are_one_line_naming_the_problem(bench: ModuleType, capsys: pytest.CaptureFixture[str],
                                                      argv: list[str], named: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        bench.parse_args(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert named in err and "\n" not in err and "Traceback" not in err


def test_a_sure_reading_of_the_wrong_card_counts_as_unflagged_wrong_and_a_flagged_one_as_flagged(
        bench: ModuleType) -> None:
    box = (10.0, 10.0, 98.0, 133.0)
    other = (200.0, 10.0, 288.0, 133.0)
    truth = [(parse_card("10C"), box), (parse_card("AH"), other)]
    readings = [Detection(parse_card("10S"), 0.99, box),
                Detection(parse_card("AH"), 0.6, other, flags=frozenset({"low_confidence"}))]
    figures = bench.DesignFigures("t")
    bench.tally(figures, readings, truth, truth)
    assert (figures.cards, figures.right, figures.readings) == (2, 1, 2)
    assert (figures.unflagged, figures.unflagged_wrong, figures.flagged) == (1, 1, 1)
