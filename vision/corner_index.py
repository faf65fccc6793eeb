"""The rank and the suit of an index corner, read by a small network that learnt corners of hundreds of real deck
designs (``card-corner-index.onnx``; trained by ``vision.train_corner_index``).

Its input is the corner box exactly as the corner detector draws it, turned upright and stretched to
``CORNER_CROP``: the same crop for training and reading, whatever the deck's proportions (an index patch placed by a
card's geometry misses a large index). It has two outputs: the rank (``RANK_TEXTS`` order, as the OCR's) and the
suit (``SUITS`` order).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.rank_ocr import RANK_TEXTS
from vision.reader_models import to_tensor

Image = npt.NDArray[np.uint8]
Box = tuple[float, float, float, float]
Floats = npt.NDArray[np.float64]
CORNER_INDEX_MODEL = "card-corner-index.onnx"
SUITS = "CDHS"
CORNER_CROP = (32, 64)  # width, height: an upright corner is about twice as high as it is wide


def corner_crop(view: Image, box: Box) -> Image:
    """The corner ``box`` of ``view`` (an upright view), stretched to ``CORNER_CROP``; the frame's edge replicated."""
    x1, y1, x2, y2 = box
    width, height = CORNER_CROP
    source = np.float32([[x1, y1], [x2, y1], [x2, y2]])
    target = np.float32([[0, 0], [width, 0], [width, height]])
    matrix = cv2.getAffineTransform(source, target)
    return cv2.warpAffine(view, matrix, (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def softmax(logits: npt.NDArray[np.float64]) -> Floats:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=1, keepdims=True), np.float64)


class CornerIndexReader:
    """``read(crops)`` gives each crop's probabilities of the 13 ranks and of the four suits."""

    def __init__(self, folder: Path, threads: int = 2) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self._session = ort.InferenceSession(str(folder / CORNER_INDEX_MODEL), options,
                                             providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name

    @staticmethod
    def available(folder: Path) -> bool:
        return (folder / CORNER_INDEX_MODEL).exists()

    def read(self, crops: list[Image]) -> tuple[Floats, Floats]:
        if not crops:
            return np.zeros((0, len(RANK_TEXTS))), np.zeros((0, len(SUITS)))
        ranks, suits = self._session.run(None, {self._input: to_tensor(crops)})
        return softmax(np.asarray(ranks, np.float64)), softmax(np.asarray(suits, np.float64))
