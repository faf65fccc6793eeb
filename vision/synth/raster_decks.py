"""Two Debian decks the face loader leaves out, read from the pictures inside their SVG files: held-out designs.

``konqi-modern`` (a four-colour deck: green hearts, blue clubs, red spades, teal diamonds; dragons for courts) and
``xskat-french`` (indices in all four corners, German court letters: B, D, K) are in Debian's
``kdegames-card-data-kf5`` as SVG files whose cards are embedded PNG pictures (72 x 96 and 72 x 112 pixels) under
the usual element ids (``5_heart``, ``king_club``). ``rsvg-convert`` cannot size those elements, so the pictures are
decoded straight from the file. No model is trained on them: ``bench/vision_transfer.py`` measures on them.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card, Rank, standard_deck
from vision.synth.faces import DEBIAN_DECKS_DIR, FACE_SIZE, DeckNotAvailable

Image = npt.NDArray[np.uint8]
RASTER_DECKS = {"konqi-modern": "konqi.svgz", "xskat-french": "french.svgz"}
_SVG, _XLINK = "{http://www.w3.org/2000/svg}", "{http://www.w3.org/1999/xlink}"
_RANK_IDS = {Rank.ACE: "1", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king",
             **{Rank(v): str(v) for v in range(2, 11)}}


def raster_deck(name: str) -> dict[Card, Image]:
    """The 52 faces of a raster deck (no joker), BGR, ``FACE_SIZE`` (the small pictures enlarged)."""
    if name not in RASTER_DECKS:
        raise DeckNotAvailable(f"unknown raster deck {name!r}; known: {', '.join(RASTER_DECKS)}")
    path = DEBIAN_DECKS_DIR / f"svg-{name}" / RASTER_DECKS[name]
    pictures = _embedded_pictures(path)
    faces = {}
    for card in standard_deck():
        assert card.suit is not None
        element = f"{_RANK_IDS[card.rank]}_{card.suit.word[:-1]}"
        if element not in pictures:
            raise DeckNotAvailable(f"{path} has no picture for {card} (element {element!r})")
        faces[card] = _face(pictures[element])
    return faces


def _embedded_pictures(path: Path) -> dict[str, Image]:
    if not path.exists():
        raise DeckNotAvailable(f"no {path}: install kdegames-card-data-kf5 (apt-get install kdegames-card-data-kf5)")
    data = path.read_bytes()
    root = ET.fromstring(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
    found = {}
    for element in root.iter(f"{_SVG}image"):
        name, href = element.get("id"), element.get(f"{_XLINK}href") or element.get("href") or ""
        if not name or not href.startswith("data:image/png;base64,"):
            continue
        try:
            raw = base64.b64decode(re.sub(r"\s", "", href.split(",", 1)[1]))
        except binascii.Error:
            continue
        picture = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_UNCHANGED)
        if picture is not None:
            found[name] = picture
    return found


def _face(picture: Image) -> Image:
    if picture.ndim == 2:
        picture = cv2.cvtColor(picture, cv2.COLOR_GRAY2BGR)
    if picture.shape[2] == 4:
        alpha = picture[:, :, 3:4].astype(np.float32) / 255.0
        picture = (picture[:, :, :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
    return cv2.resize(picture, FACE_SIZE, interpolation=cv2.INTER_CUBIC)
