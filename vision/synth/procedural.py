"""Procedural deck designs: a seed draws a whole French-suited deck no printer made, for training and measuring the
reader on designs it never saw.

A design (``deck_style``) picks a font for the rank glyphs, suit pips (drawn shapes of varied proportions, or a
font's suit glyphs), ink colours (reds and blacks of many hues, sometimes four colours), the index's size (standard,
large, jumbo) and place (two or four corners), the pip layout's spread, the card stock's tint, a border, and how the
courts look (the court art of a built-in deck recoloured or simplified, or a big letter in a frame). Training decks
also print the courts' letters of other languages (B D K, V D R) and may ink each suit freely (red spades, green
hearts; step 42). ``procedural_deck`` draws its 52 faces at ``FACE_SIZE``, white-backed BGR like every other deck.
Same seed, same deck (on a machine with the Makefile's font packages: only their folders, ``FONT_DIRS``, are listed).

Training decks and test decks never share a seed or a font: seeds from ``TEST_DECK_SEEDS`` on draw only from every
fourth font (``test_fonts``), the others never do. This is training-side code: the reading path does not import it.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image as PILImage
from PIL import ImageDraw, ImageFont

from engine.cards import Card, Rank, Suit, standard_deck
from engine.errors import InputError
from vision.synth.faces import FACE_SIZE, FIVE_CARD_DRAW, face_mask, load_deck

Image = npt.NDArray[np.uint8]
Colour = tuple[int, int, int]  # BGR
# The font packages the Makefile installs (SYSTEM_PACKAGES), folder by folder: fonts installed for anything else
# (the kiosk's Khmer fonts) must not change which deck a seed draws.
FONT_DIRS = tuple(Path("/usr/share/fonts") / d for d in (
    "truetype/dejavu", "truetype/liberation2", "truetype/freefont", "truetype/roboto", "truetype/fonts-oldstandard",
    "opentype/urw-base35", "opentype/linux-libertine", "opentype/cantarell", "opentype/ebgaramond"))
# Fonts that cannot draw a rank the way a card prints it (symbols, maths, hairlines).
_FONT_SKIP = ("math", "symbol", "extralight", "thin", "hairline", "dingbat", "emoji", "d050000l", "z003")
TEST_DECK_SEEDS = 900_000  # seeds from here on are test decks: measured on, never trained on
INDEX_SIZES = ("standard", "large", "jumbo")
# The rank glyph's height (share of the card's height) per index size; the suit pip under it is about 0.7 of that.
_RANK_HEIGHT = {"standard": (0.075, 0.10), "large": (0.105, 0.135), "jumbo": (0.14, 0.175)}
# Courts drawn from these decks' court art (recoloured or simplified); every one ships with the project's tests.
COURT_ART_DECKS = (FIVE_CARD_DRAW, "standard")
_RANK_TEXT = {Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", **{Rank(v): str(v) for v in range(2, 11)}}
_SUIT_GLYPH = {Suit.SPADES: "\u2660", Suit.HEARTS: "\u2665", Suit.DIAMONDS: "\u2666", Suit.CLUBS: "\u2663"}
_SCALE = 2  # faces are drawn at twice FACE_SIZE and shrunk, for smooth edges
_REDS: tuple[Colour, ...] = ((30, 30, 200), (40, 20, 170), (60, 40, 225), (20, 70, 230), (90, 30, 190), (30, 25, 140),
                             (50, 50, 210))
_BLACKS: tuple[Colour, ...] = ((20, 20, 20), (55, 55, 55), (70, 35, 20), (35, 45, 25), (10, 10, 40), (0, 0, 0))
# Inks of the training decks that colour each suit freely (four-colour decks print any suit in any of these).
_ANY_INKS: tuple[Colour, ...] = ((20, 20, 20), (30, 30, 200), (40, 140, 30), (170, 80, 20), (150, 140, 20),
                                 (140, 40, 120), (20, 120, 230), (30, 70, 120), (110, 110, 110))
_STOCKS: tuple[Colour, ...] = ((252, 252, 252), (236, 246, 252), (228, 240, 248), (244, 244, 240), (250, 244, 238),
                               (235, 235, 235), (222, 236, 244))


def deck_name(seed: int) -> str:
    return f"procedural-{seed}"


@functools.cache
def all_fonts() -> tuple[Path, ...]:
    """Every usable font file installed, in a fixed order."""
    files = [p for d in FONT_DIRS if d.is_dir() for p in d.rglob("*") if p.suffix.lower() in (".ttf", ".otf")]
    usable = [p for p in files if not any(s in p.name.lower() for s in _FONT_SKIP)]
    return tuple(sorted(usable, key=lambda p: p.name))


def test_fonts() -> tuple[Path, ...]:
    return all_fonts()[3::4]


def training_fonts() -> tuple[Path, ...]:
    return tuple(f for i, f in enumerate(all_fonts()) if i % 4 != 3)


@functools.cache
def _suit_glyph_fonts() -> tuple[Path, ...]:
    """Fonts that draw all four suit symbols."""
    found = []
    for path in all_fonts():
        try:
            inks = [_text_mask(path, glyph, 40) for glyph in _SUIT_GLYPH.values()]
        except (OSError, InputError):
            continue
        # A font without them draws the same box for each (or nothing): four different shapes are its own.
        if all(ink.shape[1] > 10 for ink in inks) and len({(ink.shape, ink.tobytes()) for ink in inks}) == 4:
            found.append(path)
    return tuple(found)


@dataclass(frozen=True)
class DeckStyle:
    seed: int
    font: Path
    index_size: str  # one of INDEX_SIZES
    rank_height: float  # the rank glyph's height, share of the card's height
    suit_height: float  # the index pip's height, share of the card's height
    index_margin: tuple[float, float]  # the index's left and top margin, shares of the card's width and height
    four_corners: bool
    suit_beside: bool  # the index pip to the right of the rank instead of under it
    pip_font: Path | None  # suit pips from this font's suit glyphs; None: drawn shapes
    pip_shape: tuple[float, float, float]  # shape parameters of drawn pips (width, lobe, stem), 0..1
    colours: dict[Suit, Colour]
    stock: Colour
    border: str  # none, line, double, frame
    border_colour: Colour
    pip_scale: float  # the number cards' pip height, share of the card's height
    pip_spread: float  # the pip columns' distance from the middle, share of the card's width
    flip_lower: bool  # pips below the middle printed upside down, as most decks do
    courts: str  # art (a built-in deck's court art, recoloured), simple (flattened to few colours), letter
    court_hue: int  # hue turn of the court art (0..179, OpenCV's hue)
    rank_squeeze: float  # "10" drawn this much narrower
    court_letters: str = "JQK"  # the index letters of jack, queen, king: JQK, BDK (German), VDR (French)

    @property
    def index_box(self) -> tuple[float, float, float, float]:
        """Where the top-left index lies, shares of the card's width and height (x1, y1, x2, y2), roughly."""
        mx, my = self.index_margin
        width = self.rank_height * 1.4 * FACE_SIZE[1] / FACE_SIZE[0]
        height = self.rank_height + self.suit_height * 1.15 if not self.suit_beside else self.rank_height
        if self.suit_beside:
            width += self.suit_height * 1.2 * FACE_SIZE[1] / FACE_SIZE[0]
        return (mx, my, mx + width, my + height)


def deck_style(seed: int, index_size: str | None = None) -> DeckStyle:
    """The design of deck ``seed``; ``index_size`` forces one of ``INDEX_SIZES``."""
    if index_size is not None and index_size not in INDEX_SIZES:
        raise InputError(f"unknown index size {index_size!r}; give one of {', '.join(INDEX_SIZES)}")
    rng = np.random.default_rng([seed, 1848])
    fonts = test_fonts() if seed >= TEST_DECK_SEEDS else training_fonts()
    if not fonts:
        raise InputError(f"no fonts found in {', '.join(map(str, FONT_DIRS))}; install fonts-dejavu-core")
    size = index_size or str(rng.choice(INDEX_SIZES, p=[0.5, 0.3, 0.2]))
    low, high = _RANK_HEIGHT[size]
    rank_height = float(rng.uniform(low, high))
    suit_height = rank_height * float(rng.uniform(0.55, 0.8))
    reds, blacks = _REDS[int(rng.integers(len(_REDS)))], _BLACKS[int(rng.integers(len(_BLACKS)))]
    colours = {Suit.HEARTS: reds, Suit.DIAMONDS: reds, Suit.SPADES: blacks, Suit.CLUBS: blacks}
    if rng.random() < 0.12:  # a four-colour deck
        colours[Suit.DIAMONDS] = ((180, 90, 20), (20, 130, 230), (150, 60, 30))[int(rng.integers(3))]
        colours[Suit.CLUBS] = ((40, 130, 30), (20, 100, 20), (120, 120, 10))[int(rng.integers(3))]
    colours = {s: _jitter(rng, c, 14) for s, c in colours.items()}
    glyph_fonts = _suit_glyph_fonts()
    pip_font = glyph_fonts[int(rng.integers(len(glyph_fonts)))] if glyph_fonts and rng.random() < 0.35 else None
    border = str(rng.choice(["none", "none", "line", "double", "frame"]))
    style = DeckStyle(
        seed=seed, font=fonts[int(rng.integers(len(fonts)))], index_size=size, rank_height=rank_height,
        suit_height=suit_height,
        index_margin=(float(rng.uniform(0.03, 0.075)), float(rng.uniform(0.022, 0.05))),
        four_corners=bool(rng.random() < 0.3), suit_beside=bool(size == "standard" and rng.random() < 0.1),
        pip_font=pip_font, pip_shape=(float(rng.random()), float(rng.random()), float(rng.random())),
        colours=colours, stock=_jitter(rng, _STOCKS[int(rng.integers(len(_STOCKS)))], 4),
        border=border, border_colour=_jitter(rng, (reds, blacks, (140, 100, 40))[int(rng.integers(3))], 20),
        pip_scale=float(rng.uniform(0.09, 0.14)) * (0.85 if size == "jumbo" else 1.0),
        pip_spread=float(rng.uniform(0.17, 0.22)), flip_lower=bool(rng.random() < 0.85),
        courts=str(rng.choice(["art", "art", "simple", "letter"])), court_hue=int(rng.integers(0, 180)),
        rank_squeeze=float(rng.uniform(0.7, 1.0)),
    )
    if seed >= TEST_DECK_SEEDS:
        return style  # the test decks stay the designs measured since step 41
    # Drawn after the rest, so that every other part of a training deck is what it was before these existed.
    letters = rng.random()
    court_letters = "BDK" if letters < 0.2 else "VDR" if letters < 0.3 else "JQK"
    if rng.random() < 0.25:  # any ink for any suit: red spades, green hearts, blue clubs...
        inks = rng.permutation(len(_ANY_INKS))[:4]
        colours = {suit: _jitter(rng, _ANY_INKS[int(i)], 14) for suit, i in zip(Suit, inks, strict=True)}
    return dataclasses.replace(style, court_letters=court_letters, colours=colours)


def rank_text(style: DeckStyle, rank: Rank) -> str:
    """The rank as the deck prints it in its index."""
    courts = (Rank.JACK, Rank.QUEEN, Rank.KING)
    return style.court_letters[courts.index(rank)] if rank in courts else _RANK_TEXT[rank]


def _jitter(rng: np.random.Generator, colour: Colour, amount: int) -> Colour:
    return tuple(int(np.clip(v + rng.integers(-amount, amount + 1), 0, 255)) for v in colour)  # type: ignore[return-value]


def procedural_deck(seed: int, index_size: str | None = None) -> dict[Card, Image]:
    """The 52 faces of deck ``seed`` (no joker), BGR, ``FACE_SIZE``."""
    style = deck_style(seed, index_size)
    return {card: draw_face(style, card) for card in standard_deck()}


def draw_face(style: DeckStyle, card: Card) -> Image:
    """One face of a deck of ``style``."""
    assert card.suit is not None
    w, h = FACE_SIZE[0] * _SCALE, FACE_SIZE[1] * _SCALE
    face = np.empty((h, w, 3), np.uint8)
    face[:] = style.stock
    colour = style.colours[card.suit]
    _draw_border(face, style)
    x2 = style.index_box[2]
    inner = (max(x2 + 0.02, 0.16) * w, 0.09 * h, w - max(x2 + 0.02, 0.16) * w, 0.91 * h)
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        _draw_court(face, style, card, inner)
    else:
        _draw_pips(face, style, card, inner)
    index = index_ink(style, card)
    mx, my = style.index_margin
    for corner in (0, 2, 1, 3) if style.four_corners else (0, 2):
        _stamp_index(face, index, colour, (mx * w, my * h), corner)
    small = cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA)
    small[face_mask() == 0] = 255
    return small


def _draw_border(face: Image, style: DeckStyle) -> None:
    h, w = face.shape[:2]
    if style.border == "none":
        return
    inset = int(0.03 * w)
    thick = max(2, int(0.006 * w))
    cv2.rectangle(face, (inset, inset), (w - inset, h - inset), style.border_colour, thick, cv2.LINE_AA)
    if style.border == "double":
        cv2.rectangle(face, (inset + 3 * thick, inset + 3 * thick), (w - inset - 3 * thick, h - inset - 3 * thick),
                      style.border_colour, max(1, thick // 2), cv2.LINE_AA)


def index_ink(style: DeckStyle, card: Card) -> Image:
    """The index (rank, with its suit under or beside it) as an ink mask (0..255), upright, at drawing scale."""
    assert card.suit is not None
    h = FACE_SIZE[1] * _SCALE
    rank = _text_mask(style.font, rank_text(style, card.rank), int(style.rank_height * h))
    if card.rank is Rank.TEN:
        rank = cv2.resize(rank, (max(2, int(rank.shape[1] * style.rank_squeeze)), rank.shape[0]),
                          interpolation=cv2.INTER_AREA)
    pip = suit_mask(style, card.suit, int(style.suit_height * h))
    gap = max(2, int(0.012 * h))
    if style.suit_beside:
        height = max(rank.shape[0], pip.shape[0])
        out = np.zeros((height, rank.shape[1] + gap + pip.shape[1]), np.uint8)
        out[: rank.shape[0], : rank.shape[1]] = rank
        out[: pip.shape[0], rank.shape[1] + gap :] = pip
        return out
    width = max(rank.shape[1], pip.shape[1])
    out = np.zeros((rank.shape[0] + gap + pip.shape[0], width), np.uint8)
    left = (width - rank.shape[1]) // 2
    out[: rank.shape[0], left : left + rank.shape[1]] = rank
    left = (width - pip.shape[1]) // 2
    out[rank.shape[0] + gap :, left : left + pip.shape[1]] = pip
    return out


def _stamp_index(face: Image, ink: Image, colour: Colour, margin: tuple[float, float], corner: int) -> None:
    """Print ``ink`` at a corner: 0 top-left, 2 bottom-right (turned half a turn), 1 top-right and 3 bottom-left
    (four-corner decks: the index placed as the mirror image of corners 0 and 2, glyphs not mirrored)."""
    h, w = face.shape[:2]
    ih, iw = ink.shape[:2]
    mx, my = int(margin[0]), int(margin[1])
    turned = corner in (2, 3)
    glyphs = ink[::-1, ::-1] if turned else ink
    x = mx if corner in (0, 3) else w - mx - iw
    y = my if corner in (0, 1) else h - my - ih
    _blend(face, glyphs, colour, x, y)


def _blend(face: Image, mask: Image, colour: Colour, x: int, y: int) -> None:
    h, w = face.shape[:2]
    mh, mw = mask.shape[:2]
    x1, y1, x2, y2 = max(x, 0), max(y, 0), min(x + mw, w), min(y + mh, h)
    if x2 <= x1 or y2 <= y1:
        return
    a = mask[y1 - y : y2 - y, x1 - x : x2 - x, None].astype(np.float32) / 255.0
    region = face[y1:y2, x1:x2].astype(np.float32)
    face[y1:y2, x1:x2] = (region * (1 - a) + np.float32(colour) * a).astype(np.uint8)


@functools.cache
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size)


def _text_mask(font_path: Path, text: str, height: int) -> Image:
    """``text`` in the font, its ink cropped and scaled to ``height`` pixels."""
    font = _font(font_path, 96)
    box = font.getbbox(text)
    canvas = PILImage.new("L", (box[2] - box[0] + 8, box[3] - box[1] + 8), 0)
    ImageDraw.Draw(canvas).text((4 - box[0], 4 - box[1]), text, fill=255, font=font)
    ink = np.array(canvas)
    ys, xs = np.nonzero(ink > 20)
    if not len(xs):
        raise InputError(f"the font {font_path} draws no ink for {text!r}")
    ink = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    height = max(height, 4)
    width = max(2, round(ink.shape[1] * height / ink.shape[0]))
    return cv2.resize(ink, (width, height), interpolation=cv2.INTER_AREA)


def suit_mask(style: DeckStyle, suit: Suit, height: int) -> Image:
    """A suit pip of ``height`` pixels as a mask (0..255): the style's font glyph or its drawn shape."""
    if style.pip_font is not None:
        return _text_mask(style.pip_font, _SUIT_GLYPH[suit], height)
    return _drawn_pip(suit, style.pip_shape, max(height, 6))


def _drawn_pip(suit: Suit, shape: tuple[float, float, float], height: int) -> Image:
    """A suit shape drawn from circles and polygons at 4x and shrunk; ``shape`` varies its width, its lobes and its
    stem."""
    wide, lobe, stem = shape
    big = height * 4
    width = int(big * (0.8 + 0.3 * wide))
    canvas = np.zeros((big, width), np.uint8)
    cx = width / 2
    if suit is Suit.DIAMONDS:
        half = width * (0.36 + 0.1 * wide)
        t = np.linspace(0, 2 * np.pi, 120)
        power = 0.75 + 0.35 * lobe  # a superellipse: 1 is a rhombus, under 1 its sides curve in
        xs = np.sign(np.cos(t)) * np.abs(np.cos(t)) ** (2 / power) * half
        ys = np.sign(np.sin(t)) * np.abs(np.sin(t)) ** (2 / power) * big / 2
        pts = np.stack([xs + cx, ys + big / 2], axis=1)
        cv2.fillPoly(canvas, [np.round(pts).astype(np.int32)], 255, cv2.LINE_AA)
    elif suit is Suit.HEARTS or suit is Suit.SPADES:
        t = np.linspace(0, 2 * np.pi, 200)
        xs = 16 * np.sin(t) ** 3
        ys = -(13 * np.cos(t) - (5 - 2 * lobe) * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
        body = big * (0.78 if suit is Suit.SPADES else 1.0)
        ys = (ys - ys.min()) / (ys.max() - ys.min()) * body
        xs = xs / 32 * width
        if suit is Suit.SPADES:
            ys = body - ys  # point up
        pts = np.stack([xs + cx, ys], axis=1)
        cv2.fillPoly(canvas, [np.round(pts).astype(np.int32)], 255, cv2.LINE_AA)
        if suit is Suit.SPADES:
            _stem(canvas, cx, body * 0.7, big, width * (0.12 + 0.12 * stem))
    else:  # clubs: three balls and a stem
        r = width * (0.21 + 0.05 * lobe)
        centres = [(cx, r), (cx - r * 1.15, big * 0.5), (cx + r * 1.15, big * 0.5)]
        for x, y in centres:
            cv2.circle(canvas, (int(x), int(y + r * 0.1)), int(r), 255, -1, cv2.LINE_AA)
        cv2.circle(canvas, (int(cx), int(big * 0.45)), int(r * 0.6), 255, -1, cv2.LINE_AA)
        _stem(canvas, cx, big * 0.5, big, width * (0.12 + 0.12 * stem))
    ys, xs = np.nonzero(canvas)
    canvas = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return cv2.resize(canvas, (max(2, round(canvas.shape[1] * height / canvas.shape[0])), height),
                      interpolation=cv2.INTER_AREA)


def _stem(canvas: Image, cx: float, top: float, bottom: float, foot: float) -> None:
    pts = np.array([[cx - foot * 0.15, top], [cx + foot * 0.15, top], [cx + foot, bottom - 1], [cx - foot, bottom - 1]])
    cv2.fillPoly(canvas, [np.round(pts).astype(np.int32)], 255, cv2.LINE_AA)


# Pip places of the number cards: (column -1/0/1, row 0..1 from top to bottom of the pip area).
_PIP_PLACES: dict[int, list[tuple[int, float]]] = {
    2: [(0, 0), (0, 1)],
    3: [(0, 0), (0, 0.5), (0, 1)],
    4: [(-1, 0), (1, 0), (-1, 1), (1, 1)],
    5: [(-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)],
    6: [(-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    7: [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    8: [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)],
    9: [(-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)],
    10: [(-1, 0), (1, 0), (0, 1 / 6), (-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 5 / 6), (-1, 1),
         (1, 1)],
}


def _draw_pips(face: Image, style: DeckStyle, card: Card, inner: tuple[float, float, float, float]) -> None:
    assert card.suit is not None
    h, w = face.shape[:2]
    colour = style.colours[card.suit]
    x1, y1, x2, y2 = inner
    if card.rank is Rank.ACE:
        pip = suit_mask(style, card.suit, int(min(0.3 * h, (x2 - x1) * 1.1)))
        _blend(face, pip, colour, int(w / 2 - pip.shape[1] / 2), int(h / 2 - pip.shape[0] / 2))
        return
    size = int(min(style.pip_scale * h, (x2 - x1) * 0.3, (y2 - y1) * 0.2))
    pip = suit_mask(style, card.suit, size)
    spread = min(style.pip_spread * w, (x2 - x1) / 2 - pip.shape[1] / 2)
    top, bottom = y1 + pip.shape[0] / 2, y2 - pip.shape[0] / 2
    for column, row in _PIP_PLACES[int(card.rank)]:
        cx, cy = w / 2 + column * spread, top + row * (bottom - top)
        turned = style.flip_lower and row > 0.5
        mask = pip[::-1, ::-1] if turned else pip
        _blend(face, mask, colour, int(cx - mask.shape[1] / 2), int(cy - mask.shape[0] / 2))


def _draw_court(face: Image, style: DeckStyle, card: Card, inner: tuple[float, float, float, float]) -> None:
    assert card.suit is not None
    w = face.shape[1]
    x1, y1, x2, y2 = (int(v) for v in inner)
    colour = style.colours[card.suit]
    cv2.rectangle(face, (x1, y1), (x2, y2), colour, max(2, w // 150), cv2.LINE_AA)
    if style.courts == "letter":
        letter = _text_mask(style.font, rank_text(style, card.rank), int((y2 - y1) * 0.3))
        _blend(face, letter, colour, (x1 + x2) // 2 - letter.shape[1] // 2, int(y1 + (y2 - y1) * 0.18))
        pip = suit_mask(style, card.suit, int((y2 - y1) * 0.18))
        _blend(face, pip, colour, (x1 + x2) // 2 - pip.shape[1] // 2, int(y1 + (y2 - y1) * 0.6))
        return
    source = COURT_ART_DECKS[style.seed % len(COURT_ART_DECKS)]
    art = load_deck(source)[card]
    ah, aw = art.shape[:2]
    art = art[int(0.16 * ah) : int(0.84 * ah), int(0.2 * aw) : int(0.8 * aw)]  # the picture, not its index
    art = cv2.resize(art, (x2 - x1 - 4, y2 - y1 - 4), interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(art, cv2.COLOR_BGR2HSV)
    hsv[:, :, 0] = ((hsv[:, :, 0].astype(np.int32) + style.court_hue) % 180).astype(np.uint8)
    art = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if style.courts == "simple":  # flattened: few colours, smoothed
        art = cv2.medianBlur(art, 5)
        art = ((art.astype(np.int32) // 64) * 64 + 32).astype(np.uint8)
    face[y1 + 2 : y2 - 2, x1 + 2 : x2 - 2] = art
