"""The enrolled deck's index corners, for the index reader to learn alongside the faces (``vision.enroll.learn``).

The index reader the kiosk ships reads corners of hundreds of generated designs; a casino's own deck prints its
glyphs its own way, and where the index reader is surely wrong about them (a spade's pip read as a club's) it
outvotes a right face. Enrollment therefore teaches it the deck too, from the same material the face learns from:

- the learning job's table scenes (``scenes.jsonl``: every card's corners and how much of each index shows), each
  cut ``scene_cuts`` times the way the reader cuts (``vision.synth.procedural_patches.write_patches``);
- the dealer's own photos of the deck (the capture frames, every confirmed card's corners), cut more often: the one
  real look at the deck's print; one clean cut of each is the validation split;
- a few scenes of other generated decks, so that the reader does not forget every other design.

A class the deck lacks (a joker) is filled from the generator's ``five-card-draw`` deck, so that the reader keeps its
classes.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from engine.cards import JOKER, parse_card
from vision.enroll.profile import DeckProfile, ProfileError
from vision.reader_classes import CLASS_NAMES
from vision.reader_index import NO_INDEX
from vision.synth.dataset import SCENES_FILE
from vision.synth.scene import PlacedCard, Scene

INDEX_CLASSES = (*CLASS_NAMES, NO_INDEX)
OTHER_DECK_SEEDS = 0  # generated training decks (vision.synth.procedural); test decks are never used


def written_scenes(scenes_dir: Path) -> Iterator[Scene]:
    """The scenes ``write_scenes`` wrote into ``scenes_dir``, read back with every card's corners."""
    for line in (scenes_dir / SCENES_FILE).read_text().splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        image = cv2.imread(str(scenes_dir / record["image"]))
        if image is None:
            raise ProfileError(f"cannot read the learning job's scene {record['image']}; delete {scenes_dir} to "
                               "render the scenes again")
        cards = tuple(PlacedCard(parse_card(c["card"]), np.asarray(c["corners"], np.float32), float(c["visible"]),
                                 tuple(c["index_shares"]))  # type: ignore[arg-type]
                      for c in record["cards"])
        yield Scene(int(record["seed"]), str(record["deck"]), image, cards)


def captured_scenes(profile: DeckProfile) -> list[Scene]:
    """The dealer's capture frames, each with the confirmed cards lying on it."""
    by_frame: dict[str, list[PlacedCard]] = defaultdict(list)
    for view in profile.views:  # every confirmed view of every card; a partial view's corners are not the card's
        if view.partial:
            continue
        corners = np.asarray(view.corners, np.float32)
        by_frame[view.frame].append(PlacedCard(view.card, corners, 1.0))
    scenes = []
    for i, (frame_name, cards) in enumerate(sorted(by_frame.items())):
        frame = cv2.imread(str(profile.folder / frame_name))
        if frame is None:
            raise ProfileError(f"cannot read the capture frame {frame_name} of {profile.ref}")
        scenes.append(Scene(i, profile.ref, frame, tuple(cards)))
    return scenes


def build_index_patches(out: Path, scenes_dir: Path, profile: DeckProfile, *, seed: int, scene_cuts: int = 2,
                        captured_cuts: int = 12, other_decks: int = 60,
                        report: Callable[[float], None] = lambda share: None) -> Path:
    """The index set under ``out`` (``train/<class>``, ``val/<class>``); kept when already built (a restart)."""
    from vision.synth.procedural_patches import procedural_index_patches, write_patches

    marker = out / "done"
    if marker.exists():
        return out
    rng = np.random.default_rng(seed)
    for split in ("train", "val"):
        for name in INDEX_CLASSES:
            (out / split / name).mkdir(parents=True, exist_ok=True)
    for scene in written_scenes(scenes_dir):
        write_patches(out / "train", scene, "scene", keep_none=4, keep_card=1.0, rng=rng, cuts=scene_cuts)
    report(0.5)
    for scene in captured_scenes(profile):
        write_patches(out / "train", scene, f"captured{scene.seed}", keep_none=4, keep_card=1.0, rng=rng,
                      cuts=captured_cuts)
        write_patches(out / "val", scene, f"captured{scene.seed}", keep_none=4, keep_card=1.0, rng=rng, cuts=1)
    report(0.7)
    if other_decks:
        procedural_index_patches(out / "train", range(OTHER_DECK_SEEDS, OTHER_DECK_SEEDS + other_decks),
                                 out.parent / "index-other-decks.txt", scenes_per_deck=1)
    report(0.9)
    _fill_empty_classes(out, seed)
    marker.write_text("built\n")
    report(1.0)
    return out


def _fill_empty_classes(out: Path, seed: int) -> None:
    """A class without an example in a split (a card the deck lacks) gets the index corners of the generator's
    ``five-card-draw`` card, so that the index reader keeps every class."""
    from vision.enroll.spread import render_spread
    from vision.reader_classes import card_of_class_name
    from vision.synth.faces import FIVE_CARD_DRAW, load_deck
    from vision.synth.procedural_patches import write_patches

    other = load_deck(FIVE_CARD_DRAW)
    for split in ("train", "val"):
        for name in INDEX_CLASSES:
            if name == NO_INDEX or any((out / split / name).iterdir()):
                continue
            card = card_of_class_name(name)
            if card not in other:
                raise ProfileError(f"no example of {name} to keep the index reader's classes")
            for k in range(3 if split == "train" else 1):
                spread = render_spread(other, [card], seed=seed + k, size=(400, 300),
                                       tilt_degrees=180 if card is JOKER else 30)
                scene = Scene(seed + k, FIVE_CARD_DRAW, spread.image,
                              (PlacedCard(card, np.asarray(spread.corners[0], np.float32), 1.0),))
                write_patches(out / split, scene, f"other{k}", keep_none=1000, keep_card=1.0,
                              rng=np.random.default_rng(seed + k), cuts=2)
