"""Card faces of several deck designs as images, and drawing a face onto a canvas at any quadrilateral.

Decks: ``five-card-draw`` (PyPI package, MIT; always available) and Debian's ``kdegames-card-data-kf5`` SVG decks in
``/usr/share/carddecks/`` rendered once with ``rsvg-convert`` and cached as PNG under ``.cache/card-faces/``. Every
face comes out at the same size (``FACE_SIZE``), white-backed BGR, with the rounded-corner mask in ``face_mask``.
"""

from __future__ import annotations

import functools
import importlib.resources
import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import JOKER, Card, Rank, Suit, standard_deck
from engine.errors import InputError
from vision.card_shape import CARD_ASPECT as CARD_ASPECT  # the shape lives with the reader
from vision.card_shape import FACE_SIZE as FACE_SIZE

Image = npt.NDArray[np.uint8]
CORNER_RADIUS = 0.06  # of the face width
CACHE_DIR = Path(__file__).resolve().parents[2] / ".cache" / "card-faces"
DEBIAN_DECKS_DIR = Path("/usr/share/carddecks")
FIVE_CARD_DRAW = "five-card-draw"
# Debian decks whose faces are standard French-suited cards rendered whole by their element ids. Left out: German
# suits (xskat-german), decks whose ids are not whole cards (future, oxygen*, penguins, jolly-royal) and decks
# rsvg-convert cannot size (konqi-modern, xskat-french).
DEBIAN_DECKS = ("standard", "dondorf", "gm-paris", "nicu-ornamental", "nicu-white", "tigullio-international",
                "ancient-egyptians")
_SVG_RANKS = {Rank.ACE: "1", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king",
              **{Rank(v): str(v) for v in range(2, 11)}}
_FCD_SUITS = {Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", Suit.SPADES: "S"}


class DeckNotAvailable(InputError):
    """A deck that is not installed on this machine."""


def available_decks() -> list[str]:
    """The decks this machine can draw: ``five-card-draw`` first, then the installed Debian decks."""
    decks = [FIVE_CARD_DRAW]
    if shutil.which("rsvg-convert"):
        decks += [name for name in DEBIAN_DECKS if _debian_svg(name) is not None]
    return decks


def require_built_in_decks() -> None:
    """Raise ``DeckNotAvailable`` unless this machine can draw every built-in deck. A seed draws its scene's deck
    from the decks available, so with fewer decks the same seeds draw other scenes: training and evaluation sets
    would differ from the ones the shipped models and their figures (models/README.md) come from, silently."""
    missing = [name for name in DEBIAN_DECKS if name not in available_decks()]
    if not missing:
        return
    needs = "rsvg-convert (Debian package librsvg2-bin)" if not shutil.which("rsvg-convert") else \
        f"the KDE SVG card decks in {DEBIAN_DECKS_DIR} (Debian package kdegames-card-data-kf5)"
    raise DeckNotAvailable(
        f"the synthetic scenes draw on {len(DEBIAN_DECKS) + 1} deck designs, but {', '.join(missing)} cannot be "
        f"drawn here: they need {needs}. Install them (sudo apt-get install librsvg2-bin kdegames-card-data-kf5, "
        f"or `make system-packages`), or pass the decks to draw explicitly; with fewer decks the same seeds draw "
        f"other scenes than the ones the shipped models were trained and measured on")


def load_deck(name: str) -> dict[Card, Image]:
    """All faces of one deck (52 cards, plus the joker where the deck has one), BGR, ``FACE_SIZE``."""
    return dict(_load_deck_cached(name))


_REGISTERED: dict[str, dict[Card, Image]] = {}


def register_deck(name: str, faces: Mapping[Card, Image]) -> None:
    """Make a deck of one's own drawable by ``name`` in this process (``load_deck``, ``render_scene(decks=[name])``),
    e.g. the faces of a deck enrolled at the table. It is not among ``available_decks()``: only asked-for scenes
    use it."""
    if name == FIVE_CARD_DRAW or name in DEBIAN_DECKS:
        raise InputError(f"{name!r} is the name of an installed deck; give yours another name")
    _REGISTERED[name] = {card: _normalise(face) for card, face in faces.items()}
    _load_deck_cached.cache_clear()


@functools.cache
def _load_deck_cached(name: str) -> tuple[tuple[Card, Image], ...]:
    if name in _REGISTERED:
        faces = dict(_REGISTERED[name])
    elif name == FIVE_CARD_DRAW:
        faces = _five_card_draw_faces()
    elif name in DEBIAN_DECKS:
        faces = _debian_faces(name)
    else:
        raise DeckNotAvailable(f"unknown deck {name!r}; known decks: {', '.join(available_decks())}")
    for face in faces.values():
        face.setflags(write=False)
    return tuple(faces.items())


@functools.cache
def face_mask(size: tuple[int, int] = FACE_SIZE) -> Image:
    """255 inside the card's rounded rectangle, 0 outside, for a face of ``size`` (width, height)."""
    w, h = size
    r = max(1, round(CORNER_RADIUS * w))
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, lineType=cv2.LINE_AA)
    mask.setflags(write=False)
    return mask


def _normalise(rgba_or_bgr: Image) -> Image:
    """Crop to the card's painted area, put it on white, resize to ``FACE_SIZE``."""
    image = rgba_or_bgr
    if image.ndim == 3 and image.shape[2] == 4:
        alpha = image[:, :, 3]
        ys, xs = np.nonzero(alpha > 16)
        if len(xs):
            image = image[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        a = image[:, :, 3:4].astype(np.float32) / 255.0
        image = (image[:, :, :3].astype(np.float32) * a + 255.0 * (1.0 - a)).astype(np.uint8)
    return cv2.resize(image, FACE_SIZE, interpolation=cv2.INTER_AREA)


def _five_card_draw_faces() -> dict[Card, Image]:
    try:
        data = importlib.resources.files("five_card_draw") / "data"
    except ModuleNotFoundError as error:
        raise DeckNotAvailable("the five-card-draw package is not installed; pip install five-card-draw") from error
    faces: dict[Card, Image] = {}
    for card in standard_deck():
        assert card.suit is not None
        number = 14 if card.rank is Rank.ACE else int(card.rank)
        faces[card] = _read_png(Path(str(data / f"{_FCD_SUITS[card.suit]}{number}.png")))
    faces[JOKER] = _read_png(Path(str(data / "black_joker.png")))
    return faces


def _read_png(path: Path) -> Image:
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise DeckNotAvailable(f"cannot read the card face {path}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return _normalise(image)


def _debian_svg(name: str) -> Path | None:
    folder = DEBIAN_DECKS_DIR / f"svg-{name}"
    files = sorted(folder.glob("*.svgz")) + sorted(folder.glob("*.svg")) if folder.is_dir() else []
    return files[0] if files else None


def _svg_ids(card: Card) -> list[str]:
    if card.is_joker:
        return ["black_joker", "joker", "red_joker"]
    assert card.suit is not None
    return [f"{_SVG_RANKS[card.rank]}_{card.suit.word[:-1]}"]


def _debian_faces(name: str) -> dict[Card, Image]:
    svg = _debian_svg(name)
    if svg is None or not shutil.which("rsvg-convert"):
        raise DeckNotAvailable(f"the Debian deck {name!r} is not installed (apt-get install kdegames-card-data-kf5 "
                               "librsvg2-bin)")
    folder = CACHE_DIR / name
    folder.mkdir(parents=True, exist_ok=True)
    faces: dict[Card, Image] = {}
    for card in (*standard_deck(), JOKER):
        png = folder / f"{card}.png"
        missing = folder / f"{card}.missing"
        if not png.exists() and not missing.exists():
            # Rendered under a name of this process's own and renamed when whole: processes building training sets
            # side by side share the cache, and one must never read a face another is still writing.
            part = folder / f"{card}.{os.getpid()}.part.png"
            for element in _svg_ids(card):
                result = subprocess.run(
                    ["rsvg-convert", f"--export-id={element}", "-h", str(FACE_SIZE[1] * 2), str(svg), "-o",
                     str(part)], capture_output=True, check=False)
                if result.returncode == 0 and part.exists() and part.stat().st_size > 0:
                    os.replace(part, png)
                    break
                part.unlink(missing_ok=True)
            else:
                missing.write_text("this deck has no such card\n")
        if png.exists():
            faces[card] = _read_png(png)
        elif not card.is_joker:
            raise DeckNotAvailable(f"the Debian deck {name!r} has no face for {card}")
    return faces


def paste_card(canvas: Image, face: Image, corners: npt.ArrayLike, *, shade: float = 1.0) -> Image:
    """Draw ``face`` onto ``canvas`` (in place) so that its corners land on ``corners``.

    ``corners`` are 4 (x, y) points in canvas pixels: the face's top-left, top-right, bottom-right, bottom-left.
    Edges are antialiased and the rounded corners are kept. ``shade`` multiplies the face's brightness. Returns the
    card's coverage mask on the canvas (0..255).
    """
    h, w = face.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.asarray(corners, np.float32).reshape(4, 2)
    full = np.zeros(canvas.shape[:2], np.uint8)
    x1, y1 = np.floor(dst.min(axis=0)).astype(int) - 1
    x2, y2 = np.ceil(dst.max(axis=0)).astype(int) + 2
    x1, y1 = max(int(x1), 0), max(int(y1), 0)
    x2, y2 = min(int(x2), canvas.shape[1]), min(int(y2), canvas.shape[0])
    if x2 <= x1 or y2 <= y1:
        return full
    # Warp only into the card's bounding box: a homography onto the region's own pixel grid.
    matrix = cv2.getPerspectiveTransform(src, dst - np.float32([x1, y1]))
    size = (x2 - x1, y2 - y1)
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    mask = cv2.warpPerspective(face_mask((w, h)), matrix, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    a = mask[:, :, None].astype(np.float32) / 255.0
    region = canvas[y1:y2, x1:x2].astype(np.float32)
    canvas[y1:y2, x1:x2] = np.clip(warped.astype(np.float32) * shade * a + region * (1.0 - a), 0, 255).astype(np.uint8)
    full[y1:y2, x1:x2] = mask
    return full
