"""Camera sources: reconnecting after a loss, recorded video, and the synthetic table drawing cards where told."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import parse_card, parse_cards
from engine.errors import InputError
from vision.layout import load_layout
from vision.sources import (
    CaptureSource,
    FrameFolderSource,
    RecordedVideoSource,
    SourceStatus,
    SyntheticTableSource,
    open_source,
    parse_camera,
    record_frames,
)

LAYOUT = load_layout("baibuu_7")


class FakeClock:
    def __init__(self) -> None:
        self.ns = 5_000_000_000

    def monotonic_ns(self) -> int:
        return self.ns

    def advance(self, seconds: float) -> None:
        self.ns += int(seconds * 1e9)


def write_video(path: Path, frames: int, size: tuple[int, int] = (64, 48)) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, size)
    assert writer.isOpened()
    for i in range(frames):
        writer.write(np.full((size[1], size[0], 3), 20 * i, np.uint8))
    writer.release()


def test_camera_specs() -> None:
    assert parse_camera("0") == 0
    assert parse_camera(" 2 ") == 2
    assert parse_camera("rtsp://10.0.0.5/stream") == "rtsp://10.0.0.5/stream"
    with pytest.raises(InputError, match="no camera given"):
        parse_camera("  ")


def test_a_lost_capture_is_reported_and_reopened_with_backoff(tmp_path: Path) -> None:
    video = tmp_path / "table.avi"
    write_video(video, 3)
    clock = FakeClock()
    statuses: list[SourceStatus] = []
    source = CaptureSource(str(video), clock=clock, on_status=statuses.append, first_backoff_s=0.5, max_backoff_s=2)

    assert [source.read() is not None for _ in range(3)] == [True, True, True]
    assert source.status.state == "live"
    assert statuses[-1].message.endswith(": live")

    # The stream ends (a cable pulled): lost, reported once, reopened at once.
    hidden = tmp_path / "elsewhere.avi"
    video.rename(hidden)
    assert source.read() is None
    assert source.status.state == "lost" and source.status.lost_count == 1
    assert "retrying now" in source.status.message
    # The reopen fails: the wait doubles up to the limit, and read() never blocks meanwhile.
    waits = []
    for _ in range(4):
        assert source.read() is None
        waits.append(source.status.message.split("retrying in ")[-1])
        clock.advance(10)
    assert waits == ["0.5 s", "1 s", "2 s", "2 s"]
    assert source.read() is None  # not yet time to try again: nothing happens
    assert source.status.lost_count == 1  # one loss, however many retries

    hidden.rename(video)  # the camera is back
    clock.advance(2)
    assert source.read() is not None
    assert source.status.state == "live"
    assert source.status.message.endswith(": back")
    assert [s.state for s in statuses].count("lost") >= 1 and statuses[-1].state == "live"
    source.close()
    assert source.status.state == "closed" and source.read() is None


def test_a_camera_that_never_opens(tmp_path: Path) -> None:
    source = CaptureSource(str(tmp_path / "no-such-camera.avi"), clock=FakeClock())
    assert source.read() is None
    assert source.status.state == "lost"
    assert "cannot open; check the cable or stream" in source.status.message


def test_recorded_video_plays_once_or_loops(tmp_path: Path) -> None:
    video = tmp_path / "round.avi"
    write_video(video, 4)
    once = RecordedVideoSource(video)
    frames = [once.read() for _ in range(5)]
    assert [f is not None for f in frames] == [True, True, True, True, False]
    assert once.status.state == "finished" and "after 4 frames" in once.status.message
    assert once.fps == pytest.approx(10.0)
    looped = RecordedVideoSource(video, loop=True)
    assert all(looped.read() is not None for _ in range(9))
    with pytest.raises(InputError, match="no video file at"):
        RecordedVideoSource(tmp_path / "missing.avi")
    junk = tmp_path / "junk.avi"
    junk.write_bytes(b"not a video")
    with pytest.raises(InputError, match="OpenCV cannot read this video"):
        RecordedVideoSource(junk)


def _quad_mask(shape: tuple[int, ...], corners: np.ndarray, shrink: float = 0.8) -> np.ndarray:
    centre = corners.mean(axis=0)
    inner = centre + (corners - centre) * shrink
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 255)
    return mask > 0


def test_the_synthetic_table_draws_each_card_inside_its_zone() -> None:
    source = SyntheticTableSource(LAYOUT, noise=0)
    empty = source.read()
    assert empty is not None and empty.shape == (1080, 1920, 3)
    source.place("seat3.low", "AS 9H")
    source.place("house.high", [parse_card("KH"), parse_card("QS")])
    source.place("centre", "3S 4S 5S 6S 7S 8S")
    frame = source.read()
    assert frame is not None
    placed = source.placed_cards()
    assert len(placed) == 10
    for card in placed:
        assert LAYOUT.zone(card.zone).contains(*card.centre_mm)  # laid where the layout says
        inside = _quad_mask(frame.shape, source.to_pixels(card.corners_mm))
        changed = np.abs(frame.astype(int) - empty.astype(int)).sum(axis=2) > 30
        assert changed[inside].mean() > 0.5  # a face is drawn there (white card on green felt)
    # Where nothing was placed, the felt is untouched.
    untouched = _quad_mask(frame.shape, source.to_pixels(np.array(LAYOUT.zone("seat6.high").polygon)))
    assert np.array_equal(frame[untouched], empty[untouched])
    assert source.placed == {
        "seat3.low": parse_cards("AS 9H"),
        "house.high": parse_cards("KH QS"),
        "centre": parse_cards("3S 4S 5S 6S 7S 8S"),
    }
    source.clear("centre")
    source.clear_all()
    assert source.placed == {}
    assert np.array_equal(source.read(), empty)


def test_the_synthetic_table_is_reproducible_with_fresh_noise_per_frame() -> None:
    first, second = SyntheticTableSource(LAYOUT, seed=3), SyntheticTableSource(LAYOUT, seed=3)
    for source in (first, second):
        source.place("seat2.high", "JD 10C")
    a1, a2 = first.read(), first.read()
    b1 = second.read()
    assert np.array_equal(a1, b1)
    assert not np.array_equal(a1, a2)  # sensor noise differs frame to frame
    assert np.abs(a1.astype(int) - a2.astype(int)).mean() < 4  # the scene does not


def test_the_synthetic_table_refuses_what_a_dealer_could_not_do() -> None:
    source = SyntheticTableSource(LAYOUT)
    source.place("seat2.high", "AS 2S")
    with pytest.raises(InputError, match=r"AS already lies in seat2.high"):
        source.place("seat4.low", "AS 3D")
    with pytest.raises(InputError, match="unknown card"):
        source.place("seat4.low", "ZZ")
    with pytest.raises(InputError, match=r"no zone 'seat9.low'"):
        source.place("seat9.low", "4D")
    source.place("seat2.high", "AS 2S")  # placing the same cards again in the same zone is fine
    source.place("seat4.low", "AS", allow_duplicates=True)  # a test may lay a second deck's card on purpose
    assert source.placed["seat4.low"] == (parse_card("AS"),)


def test_open_source_by_name() -> None:
    assert isinstance(open_source("synthetic"), SyntheticTableSource)
    assert isinstance(open_source("3", clock=FakeClock()), CaptureSource)


def test_recorded_frames_play_back_as_they_were(tmp_path: Path) -> None:
    table = SyntheticTableSource(LAYOUT, seed=5)
    table.place("seat4.low", "QH 2D")
    written = record_frames(table, tmp_path / "round", 3)
    assert [p.name for p in written] == ["frame-00000.png", "frame-00001.png", "frame-00002.png"]
    again = SyntheticTableSource(LAYOUT, seed=5)
    again.place("seat4.low", "QH 2D")
    replay = open_source(str(tmp_path / "round"))
    assert isinstance(replay, FrameFolderSource)
    replay.loop = False
    for _ in range(3):
        assert np.array_equal(replay.read(), again.read())  # PNG is lossless: the same pixels
    assert replay.read() is None and replay.status.state == "finished"
    with pytest.raises(InputError, match="holds no frames"):
        FrameFolderSource(tmp_path)
    video = tmp_path / "clip.avi"
    write_video(video, 2)
    assert isinstance(open_source(str(video)), RecordedVideoSource)
