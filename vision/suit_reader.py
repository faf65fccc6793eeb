"""The suit of an index corner, read by a small network that learnt corners of hundreds of real deck designs
(``card-suit.onnx``; trained by ``vision.train_suits``).

Its input is the corner box exactly as the corner detector draws it, turned upright and stretched to ``SUIT_CROP``:
the same crop for training and reading, whatever the deck's proportions (an index patch placed by a card's
geometry misses a large index).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Box = tuple[float, float, float, float]
SUIT_MODEL = "card-suit.onnx"
SUITS = "CDHS"
SUIT_CROP = (32, 64)  # width, height: an upright corner is about twice as high as it is wide


def suit_crop(view: Image, box: Box) -> Image:
    """The corner ``box`` of ``view`` (an upright view), stretched to ``SUIT_CROP``; the frame's edge replicated."""
    x1, y1, x2, y2 = box
    width, height = SUIT_CROP
    source = np.float32([[x1, y1], [x2, y1], [x2, y2]])
    target = np.float32([[0, 0], [width, 0], [width, height]])
    matrix = cv2.getAffineTransform(source, target)
    return cv2.warpAffine(view, matrix, (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def to_suit_tensor(crops: list[Image] | npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """BGR crops (N×H×W×3) as the network's input: RGB, 0-1, N×3×H×W."""
    batch = np.asarray(crops, np.uint8)[..., ::-1]
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), np.float32) / 255.0


class SuitReader:
    """``read(crops)`` gives each crop's probabilities of the four suits (``SUITS`` order)."""

    def __init__(self, folder: Path, threads: int = 2) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self._session = ort.InferenceSession(str(folder / SUIT_MODEL), options, providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name

    @staticmethod
    def available(folder: Path) -> bool:
        return (folder / SUIT_MODEL).exists()

    def read(self, crops: list[Image]) -> npt.NDArray[np.float64]:
        if not crops:
            return np.zeros((0, len(SUITS)))
        logits = np.asarray(self._session.run(None, {self._input: to_suit_tensor(crops)})[0], np.float64)
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        return np.asarray(shifted / shifted.sum(axis=1, keepdims=True), np.float64)
