"""The crop the card classifier sees: the same function for training crops and for reading, so they match."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
CROP_SIZE = 160
CROP_MARGIN = 1.12  # the square's side, as a multiple of the box's longer side
SECOND_LOOK_MARGINS = (1.05, 1.2)  # a doubtful reading is looked at again a little tighter and a little wider


def square_crop(image: Image, box: tuple[float, float, float, float], size: int = CROP_SIZE,
                margin: float = CROP_MARGIN) -> Image:
    """A ``size`` x ``size`` crop of the square around ``box`` (padded with the edge's colour outside the image)."""
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2.0, (y1 + y2) / 2.0
    half = max(x2 - x1, y2 - y1, 2.0) * margin / 2.0
    scale = size / (2.0 * half)
    matrix = np.float32([[scale, 0, size / 2.0 - cx * scale], [0, scale, size / 2.0 - cy * scale]])
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, matrix, (size, size), flags=interpolation, borderMode=cv2.BORDER_REPLICATE)
