"""Every event kind round-trips through its JSON payload and through the store; bad values are refused."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from journal import Journal, JournalError, JournalReader, ManualClock
from journal.events import (
    ActionRecorded,
    CardsCorrected,
    CardsMisread,
    CardsRead,
    ClockChanged,
    DealerSignedIn,
    DealerSignedOut,
    DealerSignInFailed,
    DeviceDown,
    DevicePaired,
    DeviceRefused,
    DevicesUnauthenticated,
    DeviceUp,
    DiceReshaken,
    DiceRolled,
    Event,
    EventError,
    EvidenceHeld,
    EvidencePruned,
    HouseSplitShown,
    JournalChecked,
    KioskStarted,
    KioskStopped,
    Note,
    PaymentLine,
    ReaderModelChanged,
    ResultsShown,
    RoundBegun,
    RoundResumed,
    RoundSettled,
    RoundVoided,
    SettingsChanged,
    SupervisorAdded,
    SupervisorLocked,
    SupervisorSignedIn,
    SupervisorSignedOut,
    SupervisorSignInFailed,
    decode,
    kinds,
)

PAYMENTS = (PaymentLine(2, "house", 50, "seat 2 loses"), PaymentLine("house", 3, 95, "seat 3 wins, 5 commission"))
NETS = {"2": -50, "3": 95, "house": -45}

SAMPLES: list[Event] = [
    KioskStarted("0.1.0", open_round=4),
    KioskStopped("power button"),
    DeviceUp("shaker", "/dev/ttyUSB0"),
    DeviceDown("camera", "no frame for 5 s"),
    DeviceRefused("shaker", "SK-000999", "shaker not authenticated: SK-000999 on /dev/ttyUSB0: not paired"),
    DevicePaired("panel", "PN-000045", by="sup-1", port="/dev/ttyUSB1", again=True),
    DevicesUnauthenticated("shaker", "SK-000123"),
    SupervisorSignedIn("S-12"),
    SupervisorSignedOut("S-12"),
    SupervisorSignInFailed("S-12", failures=5, locked_for_s=30, reason="wrong PIN"),
    SupervisorLocked("S-12", "no touch for 120 s"),
    SupervisorAdded("S-12", by="S-12"),
    DealerSignedIn("4711"),
    DealerSignedOut("4711", reason="relieved by 5120"),
    DealerSignInFailed("5120", failures=1, locked_for_s=0, reason="wrong PIN"),
    JournalChecked("S-12", sound=False, events=12, problem="event 7 altered"),
    SettingsChanged("commission", 0.05, 0.04, by="S-12"),
    ClockChanged("2026-01-01T12:00:00+00:00", "2026-01-01T12:05:00+00:00", 300000),
    DiceRolled((1, 6, 3), shake=2),
    DiceReshaken("value 7 from the shaker", raw="D 7 2 3"),
    CardsRead("seat 2", ("AS", "10H", "JK"), (0.99, 0.5, 0.875), frame="ab" * 32),
    CardsMisread("house", "duplicate card 9H", ("9H", "9H"), (0.7, 0.6)),
    CardsCorrected("seat 4", ("6C", "9D"), ("6C", "9H"), by="dealer", reason="red suit misread"),
    RoundBegun("baibuu", {"commission": 0.05, "seats": [2, 3]}, {"stacks": None}),
    ActionRecorded(0, {"action": "roll", "dice": [1, 6, 3]}, "dice 1 6 3 = 10"),
    HouseSplitShown(("KD", "QS"), ("4C", "2H"), "two pictures stay high"),
    ResultsShown(PAYMENTS, NETS, ("seat 2 loses", "seat 3 wins")),
    RoundSettled(PAYMENTS, NETS, confirmed_by="dealer D-3"),
    RoundVoided("S-12", "a card fell face up"),
    RoundResumed("playing", 3),
    Note("player disputes seat 3", by="S-12"),
    CardsRead("house.high", ("KD", "QS"), (0.99, 0.97), frame="cd" * 32, boxes=((10, 20, 70, 110), ())),
    EvidencePruned(("ab" * 32, "cd" * 32), (3, 4), "older than 30 days", freed_bytes=391_204),
    EvidenceHeld(4, by="S-12", reason="player dispute"),
    ReaderModelChanged(
        "4fc6fae2c6b605ac", "copag-blue-2026-v1", profile="copag-blue-2026@v1", previous="0a1b2c3d4e5f6071",
        cards_checked=52, right_before=21, right_after=46, by="S-12", reason="reads the enrolled deck better",
    ),
]


def test_every_kind_has_a_sample() -> None:
    assert {type(e).KIND for e in SAMPLES} == set(kinds())


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).KIND)
def test_payload_round_trips(event: Event) -> None:
    assert decode(type(event).KIND, event.to_payload()) == event


def _journal(tmp_path: Path) -> Journal:
    journal = Journal.open(tmp_path / "j.sqlite3", tmp_path / "k.key", kiosk_id="K-7", table_id="T3",
                           clock=ManualClock())
    assert journal.recover().sound
    return journal


def test_every_kind_round_trips_through_the_store(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    written: list[Event] = []
    for event in SAMPLES:
        if isinstance(event, RoundBegun):
            round_id = journal.begin_round(event.game, event.settings, event.deal)
        elif isinstance(event, ActionRecorded):
            journal.record_action(round_id, event.action)
            event = ActionRecorded(0, event.action, "")  # an action given as JSON has no description
        elif isinstance(event, ResultsShown):
            journal.show_results(round_id, {"payments": [p.to_json() for p in event.payments], "nets": event.nets},
                                 event.lines)
        elif isinstance(event, RoundSettled):
            journal.close_round(round_id, {"payments": [p.to_json() for p in event.payments], "nets": event.nets},
                                event.confirmed_by)
        elif isinstance(event, RoundVoided):
            round_id = journal.begin_round("samloc", {"bet": 10}, None)
            written.append(RoundBegun("samloc", {"bet": 10}, None))
            journal.void_round(round_id, event.by, event.reason)
        elif isinstance(event, RoundResumed):
            round_id = journal.begin_round("schmier", {}, None)
            written.append(RoundBegun("schmier", {}, None))
            for index in range(3):
                journal.record_action(round_id, {"seat": index, "pass": True})
                written.append(ActionRecorded(index, {"seat": index, "pass": True}))
            journal.resume_round(round_id)
        else:
            if isinstance(event, CardsRead):
                event = dataclasses.replace(event, frame=journal.store_frame(b"\xff\xd8 a jpeg frame"))
            journal.append(event)
        written.append(event)
    journal.close(None)
    with JournalReader.open(tmp_path / "j.sqlite3", tmp_path / "k.key") as reader:
        stored = [entry.event for entry in reader.entries()][1:]  # after kiosk_started
        assert reader.verify().ok
    assert stored == written


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.integers(1, 5))
def test_any_dice_result_round_trips(dice: list[int], shake: int) -> None:
    event = DiceRolled(tuple(dice), shake)
    assert decode("dice_rolled", event.to_payload()) == event


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-3, 12), min_size=1, max_size=3).filter(lambda d: any(v < 1 or v > 6 for v in d)))
def test_a_dice_value_outside_1_to_6_is_refused(dice: list[int]) -> None:
    with pytest.raises(EventError, match="1 to 6"):
        DiceRolled(tuple(dice))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["AS", "10H", "JK", "2C"]), st.floats(0, 1)), max_size=6))
def test_cards_read_round_trips(read: list[tuple[str, float]]) -> None:
    event = CardsRead("seat 5", tuple(c for c, _ in read), tuple(p for _, p in read))
    assert decode("cards_read", event.to_payload()) == event


@pytest.mark.parametrize("amount", [1.5, -1, True, "10"])
def test_money_is_whole_chips(amount: object) -> None:
    with pytest.raises(EventError, match="whole"):
        PaymentLine(1, "house", amount, "loses")  # type: ignore[arg-type]
    with pytest.raises(EventError):
        decode("round_settled", {"payments": [{"from": 1, "to": "house", "amount": amount, "reason": "x"}],
                                 "nets": {"1": -10}})


def test_a_float_net_is_refused() -> None:
    with pytest.raises(EventError, match="whole number of chips"):
        RoundSettled((), {"1": 2.5})  # type: ignore[dict-item]


def test_malformed_payloads_are_named() -> None:
    with pytest.raises(EventError, match="newer dealer-assist"):
        decode("laser_fired", {})
    with pytest.raises(EventError, match="lacks its field 'dice'"):
        decode("dice_rolled", {})
    with pytest.raises(EventError, match="unknown fields"):
        decode("dice_rolled", {"dice": [1, 2, 3], "colour": "red"})
    with pytest.raises(EventError, match=r"dice_rolled.dice\[1\]: expected int"):
        decode("dice_rolled", {"dice": [1, "two", 3]})
    with pytest.raises(EventError, match="confidences"):
        CardsRead("seat 2", ("AS", "KH"), (0.9,))
    with pytest.raises(EventError, match="who voids it and why"):
        RoundVoided("S-1", "  ")


def test_a_frame_must_be_stored_before_it_is_cited(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    with pytest.raises(JournalError, match="store_frame"):
        journal.append(CardsRead("seat 2", ("AS",), (0.9,), frame="cd" * 32))
    digest = journal.store_frame(b"frame bytes", ".png")
    entry = journal.append(CardsRead("seat 2", ("AS",), (0.9,), frame=digest))
    assert journal.evidence.path(digest) is not None
    assert journal.evidence.path(digest).read_bytes() == b"frame bytes"  # type: ignore[union-attr]
    assert entry.payload["frame"] == digest
