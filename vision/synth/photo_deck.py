"""The real photographs' own deck, cut flat from the training photos, as faces the scene generator can draw.

The real photographs show one deck design that none of the rendered decks resembles (pip layout, index font, court
art), and each of its cards appears only a few dozen times in the training split. Every card of a training photo
that lies whole and apart (its outline one clean quadrilateral whose bounding box is the card's labelled box) is
warped flat to a face; a card seen that way in several photos gives several faces, with the light and the camera of
each photo. Registered as decks (``photo-deck-0`` …, face ``k`` of each card in deck ``k``), they are drawn into
synthetic scenes like any other deck: the classifier then sees this design in every pose, overlap and lighting the
generator makes. Only the training split is used; the validation and test photos stay unseen.

The export's mirror images give mirrored faces: they are kept, since the photographs read are mirrored as often.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engine.cards import Card
from engine.errors import InputError
from vision.detection import iou
from vision.enroll.extract import Quad, find_cards, order_corners, warp_face
from vision.reader import card_outline
from vision.synth.faces import register_deck
from vision.train_data import DEFAULT_REAL_PHOTOS, Labelled, labelled_real_photos

Image = npt.NDArray[np.uint8]
DECK_PREFIX = "photo-deck-"
# The outline's bounding box must match the labelled box this closely: the photos label an overlapped card by the
# part that shows, so a card whose whole outline fills its label is not covered.
WHOLE_CARD_IOU = 0.85
EDGE_MARGIN = 4  # pixels: a card this near the picture's edge is not taken
# A face whose border band is less plain than this was warped from a wrong outline (skewed, or taking in a
# neighbour's edge); chosen by eye on the training photos' faces (the 25 of 200 under it are nearly all bad; a
# rendered deck's faces, warped the same way, score 0.82 and up).
PLAIN_BORDER = 0.80


def whole_cards(image: Image, labelled: Labelled) -> list[tuple[Card, Image]]:
    """The faces of the labelled cards of one photo that lie whole, each warped flat (portrait): a card whose outline
    fills its labelled box, found either by the enrollment's spread finder or by the reader's own outline finder
    (the one for a light table, where the spread finder does not see the cards), away from the picture's edge, and
    whose warped face has a plain border."""
    if not labelled:
        return []
    try:
        outlines = [card.corners for card in find_cards(image).cards]
    except InputError:  # every card touches another and no size is known
        outlines = []
    for _card, box in labelled:
        outline = card_outline(image, box)
        if outline is not None:
            outlines.append(order_corners(np.float32(outline)))
    taken: list[tuple[Card, Quad, tuple[float, float, float, float]]] = []
    h, w = image.shape[:2]
    for quad in outlines:
        box = _box_of(quad)
        if box[0] < EDGE_MARGIN or box[1] < EDGE_MARGIN or box[2] > w - EDGE_MARGIN or box[3] > h - EDGE_MARGIN:
            continue  # cut by the picture's edge, or joined to the mirrored copy the export filled the edge with
        card, label = max(labelled, key=lambda item: iou(item[1], box))
        seen = any(iou(other, box) > 0.8 for _, _, other in taken)  # both finders found this card
        if iou(label, box) >= WHOLE_CARD_IOU and not seen:
            taken.append((card, quad, box))
    faces = [(card, warp_face(image, quad)) for card, quad, _ in taken]
    return [(card, face) for card, face in faces if plain_border_share(face) >= PLAIN_BORDER]


def plain_border_share(face: Image) -> float:
    """The share of the face's border band that is the card's plain white: the middle half of each side, just inside
    the edge (the indices and the corners left out). A face warped from a wrong outline shows the table or a
    neighbouring card there."""
    import cv2

    h, w = face.shape[:2]
    inner, outer = max(1, round(0.02 * w)), max(2, round(0.06 * w))
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    value, saturation = hsv[:, :, 2].astype(np.float32), hsv[:, :, 1]
    band = np.zeros((h, w), bool)
    band[inner:outer, w // 4 : 3 * w // 4] = band[h - outer : h - inner, w // 4 : 3 * w // 4] = True
    band[h // 4 : 3 * h // 4, inner:outer] = band[h // 4 : 3 * h // 4, w - outer : w - inner] = True
    plain = (value >= 0.75 * float(np.percentile(value, 90))) & (saturation < 70)
    return float(plain[band].mean())


def _box_of(quad: Quad) -> tuple[float, float, float, float]:
    x1, y1 = quad.min(axis=0)
    x2, y2 = quad.max(axis=0)
    return (float(x1), float(y1), float(x2), float(y2))


def photo_faces(source_dir: Path = DEFAULT_REAL_PHOTOS, split: str = "train") -> dict[Card, list[Image]]:
    """Every whole card of the split's photos, warped flat, per card."""
    faces: dict[Card, list[Image]] = defaultdict(list)
    for _path, image, labelled in labelled_real_photos(split, source_dir):
        for card, face in whole_cards(image, labelled):
            faces[card].append(face)
    return dict(faces)


def register_photo_decks(faces: dict[Card, list[Image]], decks: int) -> list[str]:
    """Register ``decks`` decks drawn from ``faces`` (deck ``k`` takes each card's face ``k``, cycling through the
    faces a card has) and return their names. A card with no whole photo is left out of these decks (a scene drawn
    from them lays only the cards they have); the real photos themselves still teach it."""
    if not faces:
        raise InputError("no card of the training photos lies whole and apart: the photographs' deck has no faces")
    names = []
    for k in range(decks):
        name = f"{DECK_PREFIX}{k}"
        register_deck(name, {card: options[k % len(options)] for card, options in faces.items() if options})
        names.append(name)
    return names
