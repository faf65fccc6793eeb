"""The dealer's name in the journal: a dealer signing in is journaled, every round begun from then on carries
their ID, a dealer change is journaled with it, the dealer survives a restart, and journals written before dealers
signed in still read and replay (their rounds name no dealer)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from journal import Journal, JournalReader, ManualClock
from journal.events import DealerSignedIn, DealerSignedOut, RoundBegun, decode


def _open(folder: Path) -> Journal:
    journal = Journal.open(folder / "journal.sqlite3", folder / "kiosk.key", kiosk_id="K-1", table_id="T1",
                           clock=ManualClock())
    journal.recover()
    return journal


def _rounds(folder: Path) -> list[tuple[int, dict[str, object]]]:
    with JournalReader.open(folder / "journal.sqlite3", folder / "kiosk.key") as reader:
        return [(e.round_id, e.payload) for e in reader.entries(kinds=["round_begun"])]


def test_each_round_carries_the_dealer_signed_in_when_it_began(tmp_path: Path) -> None:
    journal = _open(tmp_path)
    first = journal.begin_round("samloc", {"bet": 10}, None)  # nobody signed in yet
    journal.void_round(first, "S-1", "test")
    journal.append(DealerSignedIn("4711"))
    second = journal.begin_round("samloc", {"bet": 10}, None)
    journal.append(DealerSignedOut("4711", "relieved by 5120"))  # a dealer change mid-round: the round stays 4711's
    journal.append(DealerSignedIn("5120"))
    journal.void_round(second, "S-1", "test")
    assert journal.dealer == "5120"
    journal.close()

    journal = _open(tmp_path)  # a restart: the table's dealer is still the one the journal last signed in
    assert journal.dealer == "5120"
    third = journal.begin_round("samloc", {"bet": 10}, None)
    journal.void_round(third, "S-1", "test")
    journal.append(DealerSignedOut("5120", "signed out"))
    fourth = journal.begin_round("samloc", {"bet": 10}, None)
    journal.close()

    dealers = {round_id: payload.get("dealer") for round_id, payload in _rounds(tmp_path)}
    assert dealers == {first: None, second: "4711", third: "5120", fourth: None}
    with JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key") as reader:
        changes = [(e.kind, e.round_id, e.payload) for e in reader.entries(kinds=["dealer_signed_in",
                                                                                "dealer_signed_out"])]
        assert reader.verify().ok
    assert changes == [("dealer_signed_in", None, {"dealer": "4711"}),
                       ("dealer_signed_out", None, {"dealer": "4711", "reason": "relieved by 5120"}),
                       ("dealer_signed_in", None, {"dealer": "5120"}),
                       ("dealer_signed_out", None, {"dealer": "5120", "reason": "signed out"})]


def test_a_round_without_a_dealer_is_written_as_before_and_old_rounds_read(tmp_path: Path) -> None:
    old_payload = {"game": "samloc", "settings": {"bet": 10}, "deal": None}  # as journals wrote it before dealers
    assert decode("round_begun", old_payload) == RoundBegun("samloc", {"bet": 10}, None, dealer="")
    assert RoundBegun("samloc", {"bet": 10}, None).to_payload() == old_payload
    journal = _open(tmp_path)
    journal.begin_round("samloc", {"bet": 10}, None)
    journal.close()
    conn = sqlite3.connect(tmp_path / "journal.sqlite3")
    stored = conn.execute("SELECT payload FROM events WHERE kind = 'round_begun'").fetchone()[0]
    conn.close()
    assert json.loads(stored) == old_payload
