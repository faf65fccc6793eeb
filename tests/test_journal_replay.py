"""A round is rebuilt from its events alone: replaying rounds of all three games gives what was recorded."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games import load
from journal import Journal, JournalReader, ManualClock
from journal.review import round_detail, summarize
from journal.simulate import play_round


def _journal(folder: Path) -> Journal:
    journal = Journal.open(folder / "j.sqlite3", folder / "k.key", kiosk_id="K-7", table_id="T3",
                           clock=ManualClock())
    assert journal.recover().sound
    return journal


@pytest.mark.parametrize("game", ["baibuu", "samloc", "schmier"])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_replayed_round_equals_the_recorded_one(game: str, seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        journal = _journal(Path(folder))
        round_id, final = play_round(journal, game, random.Random(seed))
        journal.close()
        with JournalReader.open(Path(folder) / "j.sqlite3", Path(folder) / "k.key") as reader:
            detail = round_detail(reader, round_id)
    replayed = detail.replayed
    assert replayed.error is None and replayed.finished
    assert replayed.agrees_with_shown is True and replayed.agrees_with_settled is True
    module = load(game)
    begun = detail.begun
    actions = [e.payload["action"] for e in detail.entries if e.kind == "action_recorded"]
    state = module.replay(module.settings_from_json(begun.settings), begun.deal, actions)
    assert state == final  # the whole state, not only the money
    assert detail.summary.outcome == "settled"


def test_a_result_that_differs_from_the_rules_is_shown_as_such(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    rng = random.Random(5)
    round_id, final = play_round(journal, "samloc", rng)
    wrong_round = journal.begin_round("samloc", final.settings, final.deal_to_json())
    for record in final.history:
        journal.record_action(wrong_round, record.to_json())
    settlement = final.settle()
    payments = [p.to_json() for p in settlement.payments]
    payments[0]["amount"] += 10  # the screen said 10 chips more than the rules give
    nets = {str(k): v for k, v in settlement.nets.items()}
    journal.show_results(wrong_round, {"payments": payments, "nets": nets})
    journal.close_round(wrong_round, settlement)
    rounds = summarize(journal)
    right = round_detail(journal, round_id, rounds).replayed
    wrong = round_detail(journal, wrong_round, rounds).replayed
    assert right.agrees
    assert wrong.agrees_with_shown is False and wrong.agrees_with_settled is True and not wrong.agrees


def test_a_voided_round_replays_unfinished(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    round_id, _ = play_round(journal, "baibuu", random.Random(8), void=True)
    detail = round_detail(journal, round_id)
    assert detail.summary.outcome == "voided" and detail.summary.voided_by
    assert detail.replayed.error is None and not detail.replayed.finished and detail.replayed.agrees


def test_an_action_the_rules_refuse_is_reported_not_raised(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    round_id = journal.begin_round("baibuu", {}, None)
    journal.record_action(round_id, {"action": "roll", "dice": [1, 2, 9]})
    detail = round_detail(journal, round_id)
    assert detail.replayed.error is not None and "action 0" in detail.replayed.error
