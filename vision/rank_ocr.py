"""A card's rank read as text by a pretrained OCR model: PP-OCRv4's recogniser, trained on millions of real text
lines, which does not care which deck's font printed the rank.

The recogniser (shipped inside the ``rapidocr-onnxruntime`` wheel, Apache-2.0) reads a line of text as, for each
column of the picture, a probability over 6,623 characters and a blank (CTC). Only the blank and the characters a
rank is written with (``A K Q J 0-9``) are kept, renormalised, and each of the 13 ranks is scored by the probability
that the line spells exactly it (the CTC forward sum over its alignments): a picture of anything else spreads its
probability, so how sure the best rank is says whether a rank was read at all.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import InputError

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
RANK_TEXTS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_CHARACTERS = "AKQJ0123456789"
LINE_HEIGHT = 48  # the recogniser's input height
MAX_LINE_WIDTH = 96  # a rank is one or two characters: wider crops are squeezed (the cost grows with it)
RECOGNISER = "ch_PP-OCRv4_rec_infer.onnx"


def recogniser_path() -> Path:
    """The PP-OCRv4 recogniser inside the installed ``rapidocr-onnxruntime`` package (found, not imported)."""
    spec = importlib.util.find_spec("rapidocr_onnxruntime")
    if spec is None or not spec.submodule_search_locations:
        raise InputError("the rank reader needs the rapidocr-onnxruntime package: pip install rapidocr-onnxruntime")
    path = Path(next(iter(spec.submodule_search_locations))) / "models" / RECOGNISER
    if not path.exists():
        raise InputError(f"{path} is missing: reinstall rapidocr-onnxruntime")
    return path


class RankReader:
    """Reads the rank in upright crops of a card's index (rank on top; a crop may hold some of the suit under it)."""

    def __init__(self, path: Path | None = None, threads: int = 2) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self._session: Any = ort.InferenceSession(str(path or recogniser_path()), options,
                                                  providers=["CPUExecutionProvider"])
        characters = self._session.get_modelmeta().custom_metadata_map["character"].splitlines()
        columns = {c: characters.index(c) + 1 for c in RANK_CHARACTERS}  # column 0 is CTC's blank
        self._keep = np.array([0, *(columns[c] for c in RANK_CHARACTERS)])
        position = {c: i + 1 for i, c in enumerate(RANK_CHARACTERS)}  # in the kept columns
        self._spellings = [[position[c] for c in text] for text in RANK_TEXTS]

    def read(self, crops: list[Image]) -> Floats:
        """For each BGR crop, the probability of each of ``RANK_TEXTS`` (rows sum to 1; how sure the best is says
        whether the crop holds a rank)."""
        if not crops:
            return np.zeros((0, len(RANK_TEXTS)), np.float32)
        lines = [self._line(crop) for crop in crops]
        width = max(line.shape[2] for line in lines)
        batch = np.zeros((len(lines), 3, LINE_HEIGHT, width), np.float32)
        for k, line in enumerate(lines):
            batch[k, :, :, : line.shape[2]] = line
        probs = np.asarray(self._session.run(None, {self._session.get_inputs()[0].name: batch})[0], np.float32)
        kept = probs[:, :, self._keep]
        kept = kept / np.maximum(kept.sum(axis=2, keepdims=True), 1e-12)
        scores = spellings_log_probability(np.log(kept + 1e-12), self._spellings)
        scores = np.exp(scores - scores.max(axis=1, keepdims=True))
        return np.asarray(scores / scores.sum(axis=1, keepdims=True), np.float32)

    @staticmethod
    def _line(crop: Image) -> Floats:
        height, width = crop.shape[:2]
        if height < 2 or width < 2:
            crop, height, width = np.zeros((LINE_HEIGHT, LINE_HEIGHT, 3), np.uint8), LINE_HEIGHT, LINE_HEIGHT
        out_width = int(np.clip(round(width * LINE_HEIGHT / height), 16, MAX_LINE_WIDTH))
        line = cv2.resize(crop, (out_width, LINE_HEIGHT), interpolation=cv2.INTER_AREA).astype(np.float32)
        return np.asarray((line / 255.0 - 0.5) / 0.5, np.float32).transpose(2, 0, 1)


def spelling_log_probability(log_probs: Floats, spelling: list[int]) -> float:
    """log P(the columns' characters spell ``spelling``) under CTC (blank = 0; a repeated character needs a blank
    between its two copies), from ``log_probs`` (time × characters)."""
    return float(spellings_log_probability(log_probs[None], [spelling])[0, 0])


def spellings_log_probability(log_probs: Floats, spellings: list[list[int]]) -> npt.NDArray[np.float64]:
    """For each line (``log_probs``: lines × time × characters) and each spelling, log P(the line's columns spell
    it) under CTC: the forward sum over every alignment, all lines and spellings at once (lines × spellings)."""
    states = 2 * max(len(spelling) for spelling in spellings) + 1
    extended = np.zeros((len(spellings), states), np.int64)  # blank, c1, blank, c2, blank … (blank = 0)
    valid = np.zeros((len(spellings), states), bool)
    for s, spelling in enumerate(spellings):
        extended[s, 1:2 * len(spelling):2] = spelling
        valid[s, : 2 * len(spelling) + 1] = True
    before = np.concatenate([np.full((len(spellings), 2), -1), extended[:, :-2]], axis=1)
    may_skip = (extended != 0) & (extended != before) & (before >= 0)
    emissions = np.asarray(log_probs, np.float64)[:, :, extended]  # lines × time × spellings × states
    emissions = np.where(valid, emissions, -np.inf)
    alpha = np.full((log_probs.shape[0], len(spellings), states), -np.inf)
    alpha[:, :, :2] = emissions[:, 0, :, :2]
    with np.errstate(invalid="ignore"):  # -inf - -inf inside logaddexp where both are impossible
        for t in range(1, log_probs.shape[1]):
            step = np.concatenate([np.full((*alpha.shape[:2], 1), -np.inf), alpha[:, :, :-1]], axis=2)
            skip = np.concatenate([np.full((*alpha.shape[:2], 2), -np.inf), alpha[:, :, :-2]], axis=2)
            alpha = np.logaddexp(np.logaddexp(alpha, step), np.where(may_skip, skip, -np.inf)) + emissions[:, t]
    last = 2 * np.array([len(spelling) for spelling in spellings])  # the final blank; the last character before it
    ends = np.arange(len(spellings))
    return np.asarray(np.logaddexp(alpha[:, ends, last], alpha[:, ends, last - 1]), np.float64)
