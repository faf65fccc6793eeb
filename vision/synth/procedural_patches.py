"""Index patches of many deck designs, cut without asking any model: for the index reader to read indices it never saw.

Each scene draws one deck (a procedural deck, ``vision.synth.procedural``, a new one every ``scenes_per_deck``
scenes; or the built-in decks), and every face-up card is cut the way the reader cuts it: from its box a little
jittered (``vision.reader_index.index_patches``) and from its true outline a little jittered, at the index look's 5
places (``vision.reader_outline.outline_places``). The outline model and the detector are not run: a scene costs its
rendering alone, so that thousands of designs fit in a CPU hour. Labels as ``vision.synth.index_patches``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.reader_index import NO_INDEX
from vision.synth.faces import register_deck
from vision.synth.index_patches import scene_patches
from vision.synth.procedural import TEST_DECK_SEEDS, procedural_deck
from vision.synth.scene import Scene, render_scene

CORNER_JITTER = 0.03  # of the card's width: how far off an outline is taken to be
OUTLINE_SHIFT = 0.10  # the reader's ``outline_shift``
PROCEDURAL_SCENES = 5_000_000  # scene seeds of the procedural decks' scenes
_CURRENT = "procedural-patches"  # one registered name, redrawn for each deck: hundreds of decks never sit in memory


def write_patches(out: Path, scene, prefix: str, keep_none: int, keep_card: float,  # type: ignore[no-untyped-def]
                  rng: np.random.Generator, cuts: int = 1) -> int:
    """Cut one scene's labelled patches into ``out/<class>/``, ``cuts`` times (each with its own jitter: a scene
    costs far more to render than to cut); one ``none`` patch in ``keep_none`` and a share ``keep_card`` of the card
    patches are kept."""
    patches = []
    for _ in range(cuts):
        outlines = []
        for card in scene.cards:
            corners = card.corners.astype(np.float64)
            width = float(np.linalg.norm(corners[1] - corners[0]))
            outlines.append(corners + rng.normal(0, CORNER_JITTER * width, corners.shape))
        patches += scene_patches(scene, np.zeros((0, 4), np.float32), rng, outlines=outlines,
                                 outline_shift=OUTLINE_SHIFT)
    count = 0
    for i, (label, patch) in enumerate(patches):
        if (label == NO_INDEX and i % keep_none) or (label != NO_INDEX and rng.random() > keep_card):
            continue
        folder = out / label
        folder.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(folder / f"{prefix}_{scene.seed:07d}_{i}.jpg"), patch, [cv2.IMWRITE_JPEG_QUALITY, 92])
        count += 1
    return count


def _done(log: Path) -> set[int]:
    return {int(v) for v in log.read_text().split()} if log.exists() else set()


def procedural_deck_scenes(deck_seeds: Iterable[int], done_log: Path, scenes_per_deck: int = 2,
                           surfaces: Sequence[str] = ()) -> Iterator[tuple[int, Scene]]:
    """``scenes_per_deck`` table scenes of each procedural training deck of ``deck_seeds`` that ``done_log`` does not
    list yet, as (deck seed, scene); a deck is listed there once the caller asks for the next deck's first scene (or
    finishes), so a run stopped half-way redoes only the deck it was on. With ``surfaces``, the scenes are drawn on
    those table tops in turn (``render_scene``'s ``surface``)."""
    done_log.parent.mkdir(parents=True, exist_ok=True)
    done = _done(done_log)
    with done_log.open("a") as record:
        for seed in deck_seeds:
            if seed >= TEST_DECK_SEEDS:
                raise ValueError(f"deck seed {seed} is a test deck's; training decks are under {TEST_DECK_SEEDS}")
            if seed in done:
                continue
            register_deck(_CURRENT, procedural_deck(seed))
            for k in range(scenes_per_deck):
                scene_seed = PROCEDURAL_SCENES + seed * scenes_per_deck + k
                surface = surfaces[scene_seed % len(surfaces)] if surfaces else None
                yield seed, render_scene(scene_seed, decks=[_CURRENT], surface=surface)
            record.write(f"{seed}\n")
            record.flush()


def procedural_index_patches(out: Path, deck_seeds: Iterable[int], done_log: Path, scenes_per_deck: int = 2,
                             keep_none: int = 4, keep_card: float = 0.5, cuts: int = 1) -> int:
    """Patches of ``scenes_per_deck`` scenes of each procedural deck of ``deck_seeds`` (training decks only).
    Resumable: a deck whose scenes were cut is listed in ``done_log``."""
    return sum(write_patches(out, scene, f"proc{seed}", keep_none, keep_card, np.random.default_rng(scene.seed), cuts)
               for seed, scene in procedural_deck_scenes(deck_seeds, done_log, scenes_per_deck))


def deck_index_patches(out: Path, scene_seeds: Iterable[int], done_log: Path, decks: list[str] | None = None,
                       prefix: str = "deck", keep_none: int = 4, keep_card: float = 0.5, cuts: int = 1) -> int:
    """The same cut from scenes of named (or, without ``decks``, the built-in) decks. Resumable by scene."""
    from vision.synth.dataset import scenes_not_done

    count = 0
    for scene in scenes_not_done(scene_seeds, done_log, decks=decks):
        count += write_patches(out, scene, prefix, keep_none, keep_card, np.random.default_rng(scene.seed), cuts)
    return count
