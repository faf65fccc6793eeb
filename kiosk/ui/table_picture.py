"""The table seen from above: seven positions around the felt, the house at the dealer's side (bottom).

After the shake each position shows the number of the stack it gets; the first position is gold, the house
ring shows the house stack, and the three dice sit in the middle.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.graphics import Color, Ellipse, Line
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.controller.baibuu_view import DiceView
from kiosk.i18n import Catalogue
from kiosk.ui import theme

POSITIONS = 7


class TablePicture(Widget):
    def __init__(self, scale: theme.Scale, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scale = scale
        self.dice: DiceView | None = None
        self.seats_in_play: set[int] = set()
        self.catalogue = Catalogue()
        self.labels = [
            Label(font_size=scale.font(20), bold=True, halign="center", font_name="DejaVuSans")
            for _ in range(POSITIONS)
        ]
        for label in self.labels:
            self.add_widget(label)
        self.centre = Label(font_size=scale.font(30), bold=True, color=theme.TEXT, halign="center")
        self.add_widget(self.centre)
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, dice: DiceView | None, seats_in_play: set[int], catalogue: Catalogue) -> None:
        self.dice = dice
        self.seats_in_play = seats_in_play
        self.catalogue = catalogue
        self.redraw()

    def position_centre(self, position: int) -> tuple[float, float]:
        """Where position 1 (the house, bottom) … 7 sit, counted the way the table counts."""
        clockwise = self.dice.clockwise if self.dice else False
        step = 2 * math.pi / POSITIONS
        angle = -math.pi / 2 + (position - 1) * step * (-1 if clockwise else 1)
        cx, cy = self.center
        rx, ry = self.width * 0.38, self.height * 0.36
        return cx + rx * math.cos(angle), cy + ry * math.sin(angle)

    def redraw(self, *_: Any) -> None:
        self.canvas.before.clear()
        radius = min(self.width, self.height) * 0.15
        with self.canvas.before:
            Color(0.06, 0.35, 0.22, 1)
            Ellipse(
                pos=(self.x + self.width * 0.08, self.y + self.height * 0.1),
                size=(self.width * 0.84, self.height * 0.8),
            )
            Color(0.8, 0.7, 0.3, 1)
            Line(
                ellipse=(self.x + self.width * 0.08, self.y + self.height * 0.1, self.width * 0.84, self.height * 0.8),
                width=2,
            )
            for position in range(1, POSITIONS + 1):
                x, y = self.position_centre(position)
                first = self.dice is not None and self.dice.first_position == position
                if first:
                    Color(*theme.FIRST)
                elif position == 1:
                    Color(0.75, 0.2, 0.2, 1)
                elif position in self.seats_in_play:
                    Color(0.12, 0.3, 0.55, 1)
                else:
                    Color(0.25, 0.3, 0.28, 1)
                Ellipse(pos=(x - radius, y - radius), size=(2 * radius, 2 * radius))
        for position, label in enumerate(self.labels, start=1):
            x, y = self.position_centre(position)
            label.center = (x, y)
            label.size = (radius * 2.6, radius * 2)
            label.text_size = label.size
            label.valign = "middle"
            # the position number, and after the shake the stack it gets (▣); the house ring is the red one
            stack = f"\n▣{self.dice.stack_of_position[position]}" if self.dice else ""
            label.text = str(position) + stack
            first = self.dice is not None and self.dice.first_position == position
            label.color = theme.CARD_BLACK if first else theme.TEXT
            label.font_size = self.scale.font(17)
        self.centre.center = self.center
        self.centre.size = (self.width * 0.5, self.height * 0.3)
        self.centre.text = " ".join(_DIE_FACES[v] for v in self.dice.values) if self.dice else ""
        self.centre.font_name = "DejaVuSans"
        self.centre.font_size = self.scale.font(46)


_DIE_FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}
