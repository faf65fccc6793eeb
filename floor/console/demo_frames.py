"""The demo's camera: a picture of the felt with the cards a reading names, drawn where the reading says they lie.

``floor demo`` plays without a camera, yet a floor's review shows each reading beside its evidence frame with the
cards' boxes drawn over it. So each demo kiosk keeps a rendered frame (JPEG, 640×360) for every reading, as a
real kiosk keeps the camera's, and journals the boxes with the reading.
"""

from __future__ import annotations

import io
from dataclasses import replace
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.cards import CardError, parse_card
from journal.events import CardsMisread, CardsRead, Event

WIDTH, HEIGHT = 640, 360
CARD_W, CARD_H, GAP = 84, 122, 14
FELT = (22, 96, 58)
RED, BLACK = (196, 24, 36), (25, 25, 30)
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(FONT, size)
    except OSError:  # no DejaVu on this machine: Pillow's own font still draws every card
        return ImageFont.load_default(size)


def render(zone: str, cards: tuple[str, ...]) -> tuple[bytes, tuple[tuple[int, int, int, int], ...]]:
    """A JPEG of the felt with ``cards`` face up in a row under the zone's name, and each card's box."""
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((12, 12, WIDTH - 12, HEIGHT - 12), radius=40, outline=(200, 170, 80), width=4)
    draw.text((32, 26), zone, fill=(230, 230, 210), font=_font(22))
    width = min(CARD_W, (WIDTH - 60 - GAP * max(0, len(cards) - 1)) // max(1, len(cards)))
    height = width * CARD_H // CARD_W
    total = len(cards) * width + max(0, len(cards) - 1) * GAP
    x, y = (WIDTH - total) // 2, (HEIGHT - height) // 2 + 20
    boxes = []
    for code in cards:
        try:
            card = parse_card(code)
            label, red = card.pretty, card.suit is not None and card.suit.value in "HD"
        except CardError:
            label, red = code, False
        box = (x, y, x + width, y + height)
        ink = RED if red else BLACK
        draw.rounded_rectangle(box, radius=8, fill=(250, 250, 246), outline=(60, 60, 60), width=2)
        draw.text((x + 6, y + 6), label, fill=ink, font=_font(max(12, width * 24 // CARD_W)))
        draw.text((x + width // 2, y + height // 2 + 10), label[-1:], fill=ink, font=_font(width * 40 // CARD_W),
                  anchor="mm")
        boxes.append(box)
        x += width + GAP
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=80)
    return buffer.getvalue(), tuple(boxes)


class FramingJournal:
    """A journal whose readings keep a rendered evidence frame (and their boxes), as a camera kiosk's do."""

    def __init__(self, journal: Any) -> None:
        self._journal = journal

    def __getattr__(self, name: str) -> Any:
        return getattr(self._journal, name)

    def append(self, event: Event) -> Any:
        if isinstance(event, (CardsRead, CardsMisread)) and event.frame is None and event.cards:
            picture, boxes = render(event.zone, tuple(event.cards))
            digest = self._journal.store_frame(picture, ".jpg")
            event = replace(event, frame=digest, boxes=boxes) if isinstance(event, CardsRead) else \
                replace(event, frame=digest)
        return self._journal.append(event)
