"""Photos named on the command line, read with one set of messages for what is wrong with them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.errors import InputError


def read_image(path: Path) -> npt.NDArray[np.uint8]:
    """The BGR image at ``path``; an InputError saying what is wrong and what to give instead otherwise."""
    import cv2

    if path.is_dir():
        raise InputError(f"{path} is a folder, not an image: name the images in it (for example {path}/*.jpg)")
    if not path.exists():
        raise InputError(f"no such image: {path}")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise InputError(f"{path} is not an image OpenCV can read (use JPEG or PNG)")
    return np.asarray(image, dtype=np.uint8)
