"""Detector tiles of many procedural deck designs: for a detector that boxes whole cards of decks it never saw.

The card detector learnt where a half-covered card ends from the handful of decks it trained on; on another design
it boxes only the part that shows (held-out procedural decks: IoU 0.38-0.48 with the whole card). Each procedural
deck (``vision.synth.procedural``) draws ``scenes_per_deck`` table scenes (the index patches' scene seeds,
``vision.synth.procedural_patches``), cut into square tiles labelled with every labelled card's whole-card box, as
``vision.synth.dataset.detector_tiles`` cuts the built-in decks' scenes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from vision.synth.dataset import tile_offsets, write_scene_tiles
from vision.synth.procedural_patches import procedural_deck_scenes


def procedural_detector_tiles(out: Path, deck_seeds: Iterable[int], done_log: Path, scenes_per_deck: int = 2,
                              per_scene: int = 2, tile: int = 640, surfaces: Sequence[str] = ()) -> int:
    """``per_scene`` tiles (``out/{images,labels}/tile<deck>_<scene>_x<ox>_y<oy>``) of ``scenes_per_deck`` scenes of
    each procedural training deck of ``deck_seeds``, drawn on ``surfaces`` in turn where given. Resumable: a deck
    whose scenes were cut is listed in ``done_log``."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    count = 0
    for seed, scene in procedural_deck_scenes(deck_seeds, done_log, scenes_per_deck, surfaces):
        h, w = scene.image.shape[:2]
        cards = scene.labelled_cards
        boxes = [p.box_in_frame((w, h)) for p in cards]
        outlines = [p.corners.astype(np.float64) for p in cards]
        offsets = tile_offsets(np.random.default_rng(scene.seed), tile, per_scene)
        count += write_scene_tiles(scene.image, boxes, outlines, out, f"tile{seed}_{scene.seed:07d}", offsets, tile)
    return count
