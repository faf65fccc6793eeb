"""Whole-card classifier crops of many procedural deck designs: for a face reader that reads decks it never saw.

The card classifier learnt the faces of a handful of decks; on another design it reads the art it knows, not the
pips. Crops of hundreds of procedural designs (``vision.synth.procedural``: other fonts, pips, court letters and
inks every deck) teach what every French-suited deck shares: the index, the pips' count and layout, the suit's
shape and colour. Each deck draws ``scenes_per_deck`` table scenes (the index patches' scene seeds,
``vision.synth.procedural_patches``), and every labelled card is cut the way the classifier's crops are cut
(``vision.synth.dataset.write_crops``: a jittered whole-card box, squared).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from vision.synth.dataset import write_crops
from vision.synth.procedural_patches import procedural_deck_scenes


def procedural_face_crops(out: Path, deck_seeds: Iterable[int], done_log: Path, scenes_per_deck: int = 2,
                          jitter: float = 0.06) -> int:
    """Crops (``out/<card>/face<deck>_<scene>_<i>_0.jpg``) of every labelled card of ``scenes_per_deck`` scenes of
    each procedural training deck of ``deck_seeds``. Resumable: a deck whose scenes were cut is listed in
    ``done_log``."""
    count = 0
    for seed, scene in procedural_deck_scenes(deck_seeds, done_log, scenes_per_deck):
        h, w = scene.image.shape[:2]
        boxes = [(str(p.card), p.box_in_frame((w, h))) for p in scene.labelled_cards]
        count += write_crops(scene.image, boxes, out, f"face{seed}_{scene.seed:07d}", np.random.default_rng(scene.seed),
                             1, jitter)
    return count
