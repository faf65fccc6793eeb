"""Evidence: the camera frame each reading was made from, kept beside the journal by its hash, pruned by the
retention settings with a record of it, and shown to the supervisor (``logs show``, ``logs verify``).

The rounds here are played by the real kiosk runtime (simulated shaker over its pty, the rendered felt, a real
journal folder); pruning runs on real files under a manual clock."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from journal import Journal, JournalReader, ManualClock
from journal.events import CardsRead
from journal.retention import Retention, hold, prune
from kiosk.clock import ManualClock as KioskClock
from kiosk.config import ConfigError, EvidenceConfig, config_from_data, load_config, write_config
from kiosk.runtime import KioskRuntime
from vision.placed_reader import PlacedReader


def _start(data: Path, config: Any = None, clock: Any = None) -> KioskRuntime:
    holder: dict[str, PlacedReader] = {}
    runtime = KioskRuntime(config or load_config(None), data, clock=clock,
                           read=lambda frame: holder["r"](frame) if "r" in holder else [], demo_seed=2)
    holder["r"] = PlacedReader(runtime.camera.source)
    return runtime


def _pump(runtime: KioskRuntime, condition: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        runtime.tick()
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out; the controller is at {runtime.controller.phase}: {runtime.controller.alert}")


def _confirm_into(runtime: KioskRuntime, phase: str) -> Callable[[], bool]:
    """CONFIRM as a dealer would once the screen offers it (and again if it was refused), until ``phase``."""

    def step() -> bool:
        controller = runtime.controller
        offered = any(c.name == "confirm" and c.enabled for c in controller.view().commands)
        if controller.phase.value != phase and offered:
            controller.command("confirm")
        return controller.phase.value == phase

    return step


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Round 1 played to the close, round 2 left open after its house hand: as the kiosk does it."""
    data = tmp_path_factory.mktemp("kiosk") / "data"
    runtime = _start(data)
    controller = runtime.controller
    controller.confirm_repeat_s = 0  # CONFIRMs pressed by a script faster than a dealer could: each is meant
    try:
        _pump(runtime, lambda: runtime.devices.links["shaker"].health.value == "ok")
        for round_number in (1, 2):
            controller.command("shake")
            _pump(runtime, lambda: controller.phase.value == "house")
            _pump(runtime, _confirm_into(runtime, "seats"))
            if round_number == 2:
                break
            _pump(runtime, _confirm_into(runtime, "results"))
            controller.command("confirm")
            controller.command("next")
        frame_shape = runtime.camera.source.read().shape
    finally:
        runtime.close()
    return {"data": data, "shape": frame_shape}


def _copy(played: dict[str, Any], tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(played["data"], target)
    return target


def _reader(data: Path) -> JournalReader:
    return JournalReader.open(data / "journal.sqlite3", data / "kiosk.key")


def test_every_reading_cites_the_frame_it_was_read_from_stored_by_its_hash(played: dict[str, Any]) -> None:
    with _reader(played["data"]) as reader:
        reads = list(reader.entries(kinds=["cards_read"]))
        assert [e.round_id for e in reads] == [1] * 14 + [2] * 2  # house + 6 seats × high/low; round 2's house
        frames = {e.payload["frame"] for e in reads}
        assert len(frames) == 3 and None not in frames  # one frame per CONFIRM: house, seats, round 2's house
        for entry in reads:
            digest = entry.payload["frame"]
            path = reader.evidence.path(digest)
            assert path is not None and path.parent.parent == played["data"] / "evidence"
            data = path.read_bytes()
            assert hashlib.sha256(data).hexdigest() == digest
            assert path.suffix == ".jpg" and data[:2] == b"\xff\xd8"
            image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            assert image.shape == played["shape"]  # the whole camera frame, not a thumbnail
            boxes = entry.payload["boxes"]
            assert len(boxes) == len(entry.payload["cards"]) == 2
            for x1, y1, x2, y2 in boxes:
                assert 0 <= x1 < x2 <= image.shape[1] and 0 <= y1 < y2 <= image.shape[0]
                white = (image[y1:y2, x1:x2].min(axis=2) > 170).mean()
                assert white > 0.3, "a card's box shows the card, not the green felt"
        report = reader.verify()
    assert report.ok and report.frames == 3 and report.frames_pruned == 0


def test_logs_show_lists_each_frame_and_exports_it_as_kept_and_with_the_boxes(
    played: dict[str, Any], tmp_path: Path, dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    data = played["data"]
    out = tmp_path / "frames"
    shown = subprocess.run([*dealer_assist, "logs", "show", "1", "--db", str(data / "journal.sqlite3"), "--key",
                            str(data / "kiosk.key"), "--frames", str(out)], capture_output=True, text=True,
                           env={**cli_env, "COLUMNS": "250"}, timeout=60)
    assert shown.returncode == 0, shown.stderr
    with _reader(data) as reader:
        reads = [e for e in reader.entries(round_id=1, kinds=["cards_read"])]
    digests = list(dict.fromkeys(e.payload["frame"] for e in reads))
    assert "Evidence frames" in shown.stdout
    for digest in digests:
        line = next(line for line in shown.stdout.splitlines() if digest in line)
        assert "kept" in line and f"{data / 'evidence' / digest[:2] / digest}.jpg" in shown.stdout
    assert "house.high, house.low" in shown.stdout and "4 files written" in shown.stdout
    for digest in digests:
        original = out / f"round1-{digest[:12]}.jpg"
        assert hashlib.sha256(original.read_bytes()).hexdigest() == digest
        drawn = cv2.imread(str(out / f"round1-{digest[:12]}-read.png"))
        box = next(e.payload["boxes"][0] for e in reads if e.payload["frame"] == digest)
        x1, y1, x2, _ = box
        edge = drawn[y1, x1 + 2 : x2 - 2].astype(int)  # the box's top edge, drawn in green
        assert (np.abs(edge - (80, 220, 80)).sum(axis=1) < 60).mean() > 0.8


def test_pruning_by_age_deletes_closed_rounds_frames_on_record_and_keeps_the_open_round(
    played: dict[str, Any], tmp_path: Path, dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    data = _copy(played, tmp_path)
    with _reader(data) as reader:
        by_round = {r: {e.payload["frame"] for e in reader.entries(round_id=r, kinds=["cards_read"])} for r in (1, 2)}
        closed_at = next(reader.entries(kinds=["round_settled"])).when
    config = replace(load_config(None), evidence=EvidenceConfig(retention_days=30, max_mb=None))
    for days, pruned in ((29.9, False), (30.1, True)):
        later = KioskClock(start=closed_at + timedelta(days=days))
        runtime = _start(data, config, later)  # the kiosk applies the retention at start
        try:
            runtime.tick()
        finally:
            runtime.close()
        with _reader(data) as reader:
            events = list(reader.entries(kinds=["evidence_pruned"]))
            report = reader.verify()
            on_disk = {d for frames in by_round.values() for d in frames if reader.evidence.path(d) is not None}
        if not pruned:
            assert events == [] and on_disk == by_round[1] | by_round[2]
            continue
        (event,) = events
        assert set(event.payload["frames"]) == by_round[1] and event.payload["rounds"] == [1]
        assert event.payload["reason"] == "older than 30 days" and event.round_id is None
        assert event.payload["freed_bytes"] > 100_000
        assert on_disk == by_round[2]  # round 2 is still open: its frame stays whatever its age
        assert report.ok and report.frames == 3 and report.frames_pruned == 2
    args = ["--db", str(data / "journal.sqlite3"), "--key", str(data / "kiosk.key")]
    env = {**cli_env, "COLUMNS": "250"}
    verify = subprocess.run([*dealer_assist, "logs", "verify", *args], capture_output=True, text=True, env=env)
    assert verify.returncode == 0 and "1 evidence frames unaltered, 2 pruned by the retention settings" in verify.stdout
    show = subprocess.run([*dealer_assist, "logs", "show", "1", *args], capture_output=True, text=True, env=env)
    assert show.stdout.count("pruned 20") == 2 and "older than 30 days" in show.stdout


def test_the_kiosk_keeps_its_evidence_under_the_cap_and_says_when_an_open_round_keeps_it_over(
    played: dict[str, Any], tmp_path: Path
) -> None:
    data = _copy(played, tmp_path)
    config = replace(load_config(None), evidence=EvidenceConfig(retention_days=None, max_mb=0.1))
    runtime = _start(data, config)
    try:
        runtime.tick()  # the retention settings are applied at start
        note = runtime.evidence_note
        words = runtime.evidence_words
    finally:
        runtime.close()
    with _reader(data) as reader:
        (event,) = reader.entries(kinds=["evidence_pruned"])
        open_frames = {e.payload["frame"] for e in reader.entries(round_id=2, kinds=["cards_read"])}
        assert all(reader.evidence.path(frame) is not None for frame in open_frames)
        assert reader.evidence.total_bytes() > 100_000
        assert reader.verify().ok
    assert event.payload["rounds"] == [1] and event.payload["reason"] == "over the 0.1 MB cap"
    assert note is not None and "over the 0.1 MB cap" in note and "open or disputed rounds" in note
    from test_kiosk_languages import english_words

    from kiosk.i18n import Catalogue

    assert words is not None and Catalogue("en").text(words) == note  # the supervisor's screen, in its language
    for language in ("vi", "km"):
        shown = Catalogue(language).text(words)
        assert "0.1 MB" in shown and english_words(shown) == [], shown


def test_verify_tells_a_missing_frame_and_an_altered_one_from_a_pruned_one(
    played: dict[str, Any], tmp_path: Path
) -> None:
    data = _copy(played, tmp_path)
    with _reader(data) as reader:
        frame = next(reader.entries(kinds=["cards_read"])).payload["frame"]
        path = reader.evidence.path(frame)
    assert path is not None
    kept = path.read_bytes()
    path.unlink()  # deleted by hand: nothing on record explains it
    with _reader(data) as reader:
        report = reader.verify()
    assert not report.ok and "is missing" in (report.problem or "") and "no evidence_pruned event" in report.problem
    path.write_bytes(kept[:-1] + bytes([kept[-1] ^ 1]))
    with _reader(data) as reader:
        report = reader.verify()
    assert not report.ok and "was altered" in (report.problem or "")


def _frame(seed: int, size: int = 100_000) -> bytes:
    return b"\xff\xd8" + np.random.default_rng(seed).bytes(size - 2)


def _round(journal: Journal, frames: list[bytes], close: bool = True) -> int:
    """A round whose readings cite ``frames`` (voided: a closed round needs no settlement for this)."""
    from engine import baibuu

    round_id = journal.begin_round("baibuu", baibuu.Settings(seats=(2,)), None)
    for number, data in enumerate(frames):
        digest = journal.store_frame(data)
        journal.append(CardsRead(f"seat2.high{number}", ("AS", "9H"), (0.99, 0.98), digest))
    if close:
        journal.void_round(round_id, by="S-1", reason="test round")
    return round_id


def test_pruning_by_size_cap_takes_the_oldest_closed_rounds_first_and_never_an_open_or_held_one(
    tmp_path: Path,
) -> None:
    clock = ManualClock(datetime(2026, 3, 1, tzinfo=UTC))
    journal = Journal.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key", kiosk_id="K1", table_id="T1",
                           clock=clock)
    assert journal.recover().sound
    shared = _frame(99)  # the same picture cited by round 1 and by the open round 5
    frames = {r: _frame(r) for r in range(1, 6)}
    for round_id in range(1, 5):
        clock.advance(3600)
        _round(journal, [frames[round_id], shared] if round_id == 1 else [frames[round_id]])
    hold(journal, 2, by="S-1", reason="player dispute")
    clock.advance(3600)
    _round(journal, [frames[5], shared], close=False)
    digest = {r: hashlib.sha256(data).hexdigest() for r, data in frames.items()}
    assert journal.evidence.total_bytes() == 600_000

    done = prune(journal, Retention(days=None, max_mb=0.35))
    assert not done.over_cap and done.total_bytes == 300_000 and done.frames == 3
    (event,) = done.events
    assert event.payload["frames"] == [digest[1], digest[3], digest[4]]  # oldest first; 2 held, 5 open
    assert event.payload["rounds"] == [1, 3, 4] and event.payload["reason"] == "over the 0.35 MB cap"
    assert event.round_id is None  # a table event, not part of the open round
    remaining = {r for r in digest if journal.evidence.path(digest[r]) is not None}
    assert remaining == {2, 5} and journal.evidence.path(hashlib.sha256(shared).hexdigest()) is not None

    again = prune(journal, Retention(days=None, max_mb=0.1))  # nothing left that may go
    assert again.events == () and again.over_cap and again.total_bytes == 300_000
    report = journal.verify()
    assert report.ok and report.frames == 6 and report.frames_pruned == 3
    journal.close()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rounds=st.lists(st.tuples(st.sampled_from(["closed", "closed", "open", "held"]), st.integers(1, 3),
                              st.integers(0, 60)), min_size=1, max_size=6),
    cap_kb=st.integers(1, 400),
    days=st.one_of(st.none(), st.integers(1, 40)),
)
def test_pruning_keeps_open_and_held_rounds_goes_oldest_first_and_verify_stays_sound(
    tmp_path_factory: pytest.TempPathFactory, rounds: list[tuple[str, int, int]], cap_kb: int, days: int | None
) -> None:
    folder = tmp_path_factory.mktemp("prune")
    clock = ManualClock(datetime(2026, 3, 1, tzinfo=UTC))
    journal = Journal.open(folder / "journal.sqlite3", folder / "kiosk.key", kiosk_id="K1", table_id="T1",
                           clock=clock)
    assert journal.recover().sound
    keep: set[str] = set()
    closed_at: dict[str, datetime] = {}
    open_frames: list[bytes] = []
    seed = 0
    for status, count, gap_days in rounds:
        clock.advance(gap_days * 86400)
        frames = [_frame(seed := seed + 1, 20_000) for _ in range(count)]
        digests = {hashlib.sha256(f).hexdigest() for f in frames}
        if status == "open":
            open_frames += frames  # one round is open at a time: the last one, citing these
            keep |= digests
            continue
        round_id = _round(journal, frames)
        if status == "held":
            hold(journal, round_id, by="S-1", reason="dispute")
            keep |= digests
        else:
            closed_at.update(dict.fromkeys(digests, clock.now()))
    if open_frames:
        _round(journal, open_frames, close=False)
    clock.advance(86400)
    done = prune(journal, Retention(days=days, max_mb=cap_kb / 1000))
    on_disk = {d for d in keep | set(closed_at) if journal.evidence.path(d) is not None}
    assert keep <= on_disk  # an open or held round's frames are never deleted
    assert done.total_bytes == journal.evidence.total_bytes() == 20_000 * len(on_disk)
    assert done.over_cap == (done.total_bytes > cap_kb * 1000)
    if done.over_cap:
        assert on_disk == keep  # over the cap only when nothing else is left to delete
    if days is not None:
        assert all(clock.now() - closed_at[d] < timedelta(days=days) for d in on_disk - keep)
    gone = set(closed_at) - on_disk
    for pruned in gone:  # oldest closed rounds first
        assert all(closed_at[left] >= closed_at[pruned] for left in on_disk - keep)
    report = journal.verify()
    assert report.ok and report.frames_pruned == done.frames == len(gone)
    journal.close()


@pytest.mark.parametrize(
    ("section", "words"),
    [
        ({"quality": 0}, "evidence.quality 0: a whole number from 1"),
        ({"quality": "high"}, "evidence.quality 'high'"),
        ({"format": "png"}, "evidence.format 'png': 'jpeg' or 'webp'"),
        ({"retention_days": 0}, "evidence.retention_days 0: whole days from 1, or null"),
        ({"retention_days": True}, "evidence.retention_days True"),
        ({"max_mb": -5}, "evidence.max_mb -5: megabytes from 1"),
        ({"max_gb": 5}, "unknown key evidence.max_gb"),
        ("lots", "evidence: a mapping with"),
    ],
)
def test_evidence_settings_are_validated_with_one_clear_line(section: Any, words: str) -> None:
    with pytest.raises(ConfigError, match=r"^kiosk\.yaml: ") as error:
        config_from_data({"evidence": section}, "kiosk.yaml")
    assert words in str(error.value) and "\n" not in str(error.value)


def test_evidence_settings_are_saved_and_read_back_and_webp_is_kept_as_webp(tmp_path: Path) -> None:
    config = config_from_data({"evidence": {"format": "webp", "quality": 60, "retention_days": None,
                                            "max_mb": 500}}, "kiosk.yaml")
    write_config(config, tmp_path / "kiosk.yaml")
    again = load_config(tmp_path / "kiosk.yaml")
    assert again.evidence == EvidenceConfig("webp", 60, None, 500.0)
    from kiosk.evidence import EvidenceFrame, FrameEncoding

    image = np.full((120, 160, 3), (40, 120, 40), np.uint8)
    journal = Journal.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key", kiosk_id="K1", table_id="T1",
                           clock=ManualClock())
    journal.recover()
    seen = type("Seen", (), {"number": 1, "image": image, "placed": ()})()
    digest = EvidenceFrame(seen, FrameEncoding("webp", 60)).store(journal)
    path = journal.evidence.path(digest)
    assert path is not None and path.suffix == ".webp" and path.read_bytes()[8:12] == b"WEBP"
    journal.close()


def test_a_hand_set_by_hand_in_the_next_round_cites_no_frame_of_the_last_round(tmp_path: Path) -> None:
    from engine.baibuu import Settings, house_way
    from engine.cards import parse_cards
    from kiosk.controller.baibuu import BaiBuuController
    from kiosk.controller.view import CardRead
    from kiosk.evidence import EvidenceFrame, FrameEncoding
    from vision.table_reader import SeenFrame

    clock = KioskClock()
    journal = Journal.open(tmp_path / "j.sqlite3", tmp_path / "k.key", kiosk_id="K1", table_id="T1", clock=clock)
    assert journal.recover().sound
    shakes = iter(range(1, 10))
    controller = BaiBuuController(Settings(seats=(2,), min_bet=10), journal, clock, lambda: next(shakes),
                                  default_bet=100, confirm_repeat_s=0)
    felt = EvidenceFrame(SeenFrame(7, np.full((90, 160, 3), (40, 120, 40), np.uint8), ()), FrameEncoding())
    controller.command("shake")
    controller.on_dice(1, (3, 5, 6))
    clock.advance(1)
    controller.on_table({"house.high": tuple(CardRead(c) for c in parse_cards("AD 8S")),
                         "house.low": tuple(CardRead(c) for c in parse_cards("QH 4C"))}, frame=felt)
    controller.command("confirm")
    assert controller.phase.value == "seats", controller.alert
    controller.command("void", reason="misdeal")
    controller.command("next")
    controller.command("shake")
    controller.on_dice(2, (2, 2, 3))
    split = house_way(parse_cards("KD 9S QC 3H"))  # the camera is down: the dealer sets the house hand by hand
    for zone, hand in (("house.high", split.high.cards), ("house.low", split.low.cards)):
        for index, card in enumerate(hand):
            controller.command("correct", zone=zone, index=index, card=card)
    controller.command("confirm")
    assert controller.phase.value == "seats", controller.alert
    cited = [(e.round_id, e.payload["frame"], e.payload["boxes"]) for e in journal.entries(kinds=["cards_read"])]
    first = felt.store(journal)
    assert cited == [(1, first, [[], []]), (1, first, [[], []]), (2, None, []), (2, None, [])]
    journal.close()
