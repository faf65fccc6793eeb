"""The kiosk's card reader is warmed at start on a frame of real card faces: the shipped model reads every card of
that frame (so the warm-up runs the whole reading path, not an empty felt), and the kiosk's camera runs it once,
on its first frame, before any card of the table is read."""

from __future__ import annotations

import vision
from vision.warm_up import FACES, warm_up, warm_up_frame


def test_the_warm_up_frame_is_read_card_by_card_by_the_shipped_model() -> None:
    read = sorted(str(detection.card) for detection in vision.read(warm_up_frame()))
    named = {"S": "S", "H": "H", "D": "D", "C": "C"}
    ranks = {"14": "A", "13": "K", "12": "Q", "11": "J"}
    expected = sorted(ranks.get(face[1:], face[1:]) + named[face[0]] for face in FACES)
    assert read == expected


def test_the_kiosk_camera_warms_the_model_on_its_first_frame_only() -> None:
    from journal.clock import SystemClock
    from kiosk.adapters import Camera
    from kiosk.config import load_config

    camera = Camera(load_config(None), SystemClock())
    try:
        assert camera.warm_up_s is None
        frame = warm_up_frame()
        camera._read_with_model(frame)
        first = camera.warm_up_s
        camera._read_with_model(frame)
        assert first is not None and first > 0 and camera.warm_up_s == first
    finally:
        camera.close()
    assert warm_up(lambda frame: []) >= 0.0
