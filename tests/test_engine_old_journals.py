"""Journals written before the games shared one action envelope still replay, round by round, to the same money.

The fixture (``tests/data/journals/before-kind-envelope.*``) was written by the kiosk's own simulator with the code
as it stood before the change; ``.expected.json`` holds, per round, the round file and the settlement it gave then.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.games import load
from journal import JournalReader
from journal.review import round_detail, summarize

DATA = Path(__file__).parent / "data" / "journals"
NAME = "before-kind-envelope"
EXPECTED: dict[str, Any] = json.loads((DATA / f"{NAME}.expected.json").read_text())


@pytest.fixture(scope="module")
def rounds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("old-journal")
    for suffix in (".sqlite3", ".key"):
        shutil.copy(DATA / f"{NAME}{suffix}", folder / f"{NAME}{suffix}")
    (folder / f"{NAME}.key").chmod(0o600)  # a key must be the kiosk user's alone; git keeps no such mode
    found: dict[str, Any] = {}
    with JournalReader.open(folder / f"{NAME}.sqlite3", folder / f"{NAME}.key") as reader:
        for summary in summarize(reader):
            found[str(summary.round_id)] = (summary, round_detail(reader, summary.round_id))
    return found


def test_every_round_of_the_old_journal_is_found(rounds: dict[str, Any]) -> None:
    assert sorted(rounds) == sorted(EXPECTED)
    assert {EXPECTED[key]["game"] for key in rounds} == {"baibuu", "samloc", "schmier"}


def from_one(value: Any) -> Any:
    """The reasons of a settlement written when the words counted Sâm Lốc and Schmier seats and teams from 0, as
    they read now (from 1); every number and index of the JSON itself unchanged."""
    if isinstance(value, dict):
        return {key: (re.sub(r"\b(seat|team) (\d+)", lambda m: f"{m[1]} {int(m[2]) + 1}", item)
                      if key == "reason" else from_one(item)) for key, item in value.items()}
    if isinstance(value, list):
        return [from_one(item) for item in value]
    return value


@pytest.mark.parametrize("round_id", sorted(EXPECTED, key=int))
def test_an_old_round_replays_to_the_money_it_gave(rounds: dict[str, Any], round_id: str) -> None:
    summary, detail = rounds[round_id]
    expected = EXPECTED[round_id]
    assert summary.outcome == expected["outcome"]
    assert detail.replayed.error is None and detail.replayed.agrees
    module = load(expected["game"])
    actions = [entry.payload["action"] for entry in detail.entries if entry.kind == "action_recorded"]
    state = module.replay(module.settings_from_json(detail.begun.settings), detail.begun.deal, actions)
    assert len(state.history) == expected["actions"]
    if expected["settlement"] is not None:
        settled = expected["settlement"]
        if expected["game"] in ("samloc", "schmier"):  # the words count seats and teams from 1 since issue 60
            settled = from_one(settled)
        assert state.settle().to_json() == settled
    # the old round file (old action forms inside) reads back to the same state, and today's file round-trips
    assert module.State.from_json(expected["file"]) == state
    assert module.State.from_json(state.to_json()) == state
