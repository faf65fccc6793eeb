"""A still table is not read again: unchanged tiles keep their readings, changed ones are read afresh.

With the shipped model on the rendered table (sensor noise on every frame), and ``StillTiles`` on its own with
plain images for the rules around it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

import vision
from engine.cards import parse_card
from engine.errors import InputError
from vision.detection import Detection
from vision.layout import load_layout
from vision.reader import default_reader
from vision.reader_models import DEFAULT_MODEL_DIR, MANIFEST
from vision.sources import SyntheticTableSource
from vision.stability import StabilitySettings
from vision.still_tiles import StillSettings, StillTiles
from vision.table_reader import TableReader

ROUND = {"house.high": "KH QS", "seat2.high": "AS 9S", "seat5.high": "JD 10C"}


class CountingRead:
    """The shipped reader, counting the images it is given."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, image: np.ndarray) -> Sequence[Detection]:
        self.calls += 1
        return vision.read(image)


def _table_reader(still: StillSettings | None = None) -> tuple[SyntheticTableSource, TableReader, CountingRead]:
    source = SyntheticTableSource(load_layout(), size=(1920, 1080), deck="five-card-draw", seed=3)
    for zone, cards in ROUND.items():
        source.place(zone, cards)
    # A reader that has been reading this table's deck: a fresh one reads index first until the deck's face and
    # index readings agree (vision.reader_familiar), and the flags of its first frames may change once it trusts
    # the face.
    reader = default_reader()
    reader.forget_deck()
    while not reader.familiarity.familiar():
        frame = source.read()
        assert frame is not None
        reader.read(frame)
    read = CountingRead()
    return source, TableReader(source, read=read, settings=StabilitySettings(3, 3), still=still), read


@pytest.mark.slow
@pytest.mark.skipif(not (DEFAULT_MODEL_DIR / MANIFEST).exists(), reason="no card-reader model in models/ yet")
def test_a_still_table_is_read_twice_then_kept_and_a_new_card_is_read_where_it_lies() -> None:
    source, table, read = _table_reader()
    for _ in range(2):
        table.step()
    tiles = read.calls // 2
    assert tiles >= 2 and read.calls == 2 * tiles  # every tile read in each of the first two frames
    for _ in range(3):
        snapshot = table.step()
    assert read.calls == 2 * tiles  # the two readings agreed: nothing read again on a still table
    placed = {zone: snapshot.cards_in(zone) for zone in ROUND}
    assert all(len(cards) == 2 for cards in placed.values()), placed  # placed after 3 frames, as without keeping

    source.place("seat3.low", "2H 3H")
    before = read.calls
    table.step()
    changed = read.calls - before
    assert 1 <= changed < tiles  # only the tiles the new cards lie in are read
    for _ in range(3):
        snapshot = table.step()
    assert len(snapshot.cards_in("seat3.low")) == 2
    assert {zone: snapshot.cards_in(zone) for zone in ROUND} == placed  # the still places kept their cards
    assert table.still.kept_reads > 0


@pytest.mark.slow
@pytest.mark.skipif(not (DEFAULT_MODEL_DIR / MANIFEST).exists(), reason="no card-reader model in models/ yet")
def test_keeping_still_tiles_can_be_turned_off() -> None:
    _source, table, read = _table_reader(StillSettings(enabled=False))
    table.step()
    tiles = read.calls
    for _ in range(3):
        table.step()
    assert read.calls == 4 * tiles


def _image(level: int = 90, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = np.full((200, 320, 3), level, np.uint8)
    image[40:140, 60:130] = 230  # a card
    noise = rng.normal(0, 2.0, image.shape)  # sensor noise, new every frame
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def _reading(card: str = "AS", x: float = 60.0) -> Detection:
    return Detection(parse_card(card), 0.97, (x, 40.0, x + 70.0, 140.0))


def test_readings_are_kept_only_after_two_fresh_ones_agree() -> None:
    still = StillTiles()
    answers = iter([[_reading("AS")], [_reading("AH")], [_reading("AS")], [_reading("AS")]])
    calls: list[int] = []

    def read(_image: np.ndarray) -> list[Detection]:
        calls.append(1)
        return next(answers)

    got = [still.read("t", _image(seed=k), read) for k in range(6)]
    # AS, then AH (disagrees: counting starts again), then AS twice (agree), then kept twice
    assert len(calls) == 4
    assert [str(d[0].card) for d in got] == ["AS", "AH", "AS", "AS", "AS", "AS"]


def test_a_changed_tile_is_read_afresh_and_so_is_a_lighting_change() -> None:
    still = StillTiles()
    calls: list[np.ndarray] = []

    def read(image: np.ndarray) -> list[Detection]:
        calls.append(image)
        return [_reading()]

    for k in range(3):
        still.read("t", _image(seed=k), read)
    assert len(calls) == 2
    moved = _image(seed=5)
    moved[40:140, 60:130] = 90
    moved[40:140, 80:150] = 230  # the card slid 20 pixels
    still.read("t", moved, read)
    assert len(calls) == 3
    still.read("t", _image(level=90 + 20, seed=6), read)  # the room's lights came up
    assert len(calls) == 4
    still.read("other", _image(seed=7), read)  # another tile keeps its own readings
    assert len(calls) == 5


def test_a_still_tile_is_read_afresh_every_so_many_frames_and_after_forget() -> None:
    still = StillTiles(StillSettings(reread_every=3))
    count = [0]

    def read(_image: np.ndarray) -> list[Detection]:
        count[0] += 1
        return [_reading()]

    for k in range(2 + 3 + 1):
        still.read("t", _image(seed=k), read)
    assert count[0] == 3  # two to agree, three kept, then one fresh
    still.forget()
    still.read("t", _image(seed=9), read)
    assert count[0] == 4


def test_a_wrong_setting_names_itself() -> None:
    with pytest.raises(InputError, match="change_levels"):
        StillSettings(change_levels=0)
    with pytest.raises(InputError, match="reread_every"):
        StillSettings(reread_every=0)


def test_a_reading_under_way_when_the_model_changes_is_not_kept() -> None:
    still = StillTiles()
    count = [0]

    def read(_image: np.ndarray) -> list[Detection]:
        count[0] += 1
        if count[0] == 2:
            still.forget()  # another model was activated while this frame was being read
        return [_reading()]

    for k in range(4):
        still.read("t", _image(seed=k), read)
    # 1: first, 2: agreeing but forgotten meanwhile, so not kept; 3, 4: read afresh until two agree again
    assert count[0] == 4
    still.read("t", _image(seed=5), read)
    assert count[0] == 4
