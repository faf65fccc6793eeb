"""The kiosk's building blocks: big buttons, cards drawn as cards, places of cards, the status bar."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from kivy.graphics import Color, Line, Rectangle, RoundedRectangle
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from engine.cards import Card
from kiosk.controller.view import CardRead, DeviceHealth, Health, PlaceView
from kiosk.i18n import Catalogue
from kiosk.ui import theme

CARD_FONT = "DejaVuSans"


def register_fonts() -> None:
    """Fonts by name, and every label drawn through the shaped text path (Khmer, Vietnamese, card symbols)."""
    from kivy.core.text import LabelBase

    from kiosk.ui import shaped_text

    LabelBase.register(CARD_FONT, theme.kivy_font("DejaVuSans.ttf"))
    shaped_text.install()


def paint_background(widget: Widget, colour: theme.RGBA, radius: float = 0) -> None:
    """Fill a widget's area with a colour that follows it when it moves or grows."""
    with widget.canvas.before:
        colour_instruction = Color(*colour)
        shape = RoundedRectangle(radius=[radius]) if radius else Rectangle()
    widget._bg_colour = colour_instruction

    def follow(*_: Any) -> None:
        shape.pos = widget.pos
        shape.size = widget.size

    widget.bind(pos=follow, size=follow)
    follow()


class TextLabel(Label):
    """A label that wraps inside its width and keeps its text vertically centred; a text taller than the label
    (Khmer stacks its signs higher than Latin, Vietnamese runs longer than English) is drawn smaller, never cut.

    A label made with ``grow=True`` (a row of its own in a column that has room) grows as tall as its text instead,
    so a Khmer line keeps its size: the row is taller, the text is not shrunk.
    """

    SMALLEST = 0.6  # of the label's own font size

    def __init__(self, grow: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("color", theme.TEXT)
        kwargs.setdefault("halign", "left")
        kwargs.setdefault("valign", "middle")
        super().__init__(**kwargs)
        self.full_size = self.font_size
        self.grow = grow
        self.designed_height = self.height
        self._fitting = False
        self.bind(size=self._wrap, text=self._reset, texture_size=self._fit, font_size=self._sized)

    def _sized(self, *_: Any) -> None:
        if not self._fitting:  # set from outside: the new full size
            self.full_size = self.font_size

    def _set_font(self, size: float) -> None:
        self._fitting = True
        self.font_size = size
        self._fitting = False

    def _wrap(self, *_: Any) -> None:
        # a centred text is measured at its natural height (the label centres it), so a cut-off shows and shrinks
        self.text_size = (self.width, None if self.valign == "middle" else self.height)
        self._reset()

    def _reset(self, *_: Any) -> None:
        if self.font_size != self.full_size:
            self._set_font(self.full_size)

    def _fit(self, *_: Any) -> None:
        if self.grow and self.size_hint_y is None and self.designed_height > 1:
            self.height = max(self.designed_height, self.texture_size[1])
            return
        too_tall = self.height > 1 and self.texture_size[1] > self.height + 1
        if too_tall and self.font_size > self.full_size * self.SMALLEST:
            self._set_font(max(self.full_size * self.SMALLEST, self.font_size - max(1.0, self.full_size * 0.08)))


class BigButton(Button):
    """A button for wet fingers: large, bold, one strong colour; grey and inert when disabled."""

    def __init__(self, command: str, scale: theme.Scale, **kwargs: Any) -> None:
        self.command = command
        colour = theme.BUTTON_COLOURS.get(command, theme.BUTTON_COLOURS["neutral"])
        kwargs.setdefault("font_size", scale.font(30))
        kwargs.setdefault("bold", True)
        super().__init__(
            background_normal="",
            background_down="",
            background_disabled_normal="",
            background_color=colour,
            disabled_color=(0.55, 0.6, 0.58, 1),
            halign="center",
            valign="middle",
            **kwargs,
        )
        self._colour = colour
        self.bind(size=lambda *_: setattr(self, "text_size", (self.width - 12, None)))
        self.bind(disabled=self._shade, state=self._shade)
        self._shade()

    def _shade(self, *_: Any) -> None:
        if self.disabled:
            self.background_color = theme.BUTTON_COLOURS["disabled"]
        elif self.state == "down":
            red, green, blue = (min(1.0, c * 1.35) for c in self._colour[:3])
            self.background_color = (red, green, blue, 1.0)
        else:
            self.background_color = self._colour

    def set_colour(self, colour: theme.RGBA) -> None:
        self._colour = colour
        self._shade()


class CardView(ButtonBehavior, Label):
    """One card drawn as a card: rank and suit symbol, red or black. An empty slot shows a dashed outline.

    A card the camera is unsure of gets a thick orange frame and a '?'; tapping any card opens the picker.
    A card drawn smaller than the kiosk's touch size still takes taps over a touch-sized square around its centre
    (its hit area); where the squares of cards side by side overlap, a touch goes to the card whose centre is nearest.
    """

    _shown: ClassVar[weakref.WeakSet[CardView]] = weakref.WeakSet()  # every card made: a touch's rivals

    def __init__(self, scale: theme.Scale, **kwargs: Any) -> None:
        super().__init__(font_name=CARD_FONT, bold=True, halign="center", valign="middle", **kwargs)
        self.scale = scale
        self.tappable = True
        CardView._shown.add(self)
        self.read: CardRead | None = None
        self.misplaced = False  # lies in the wrong hand (a wrong set): a red frame
        self.font_size = scale.font(34)
        self.bind(pos=self._draw, size=self._draw)
        self._draw()

    def show(self, read: CardRead | None, misplaced: bool = False) -> None:
        self.read = read
        self.misplaced = misplaced
        self._draw()

    @property
    def hit_size(self) -> tuple[float, float]:
        """The size of the area that takes this card's taps: the card, grown to the kiosk's touch size."""
        least = self.scale.px(theme.MIN_TOUCH_PX)
        return max(self.width, least), max(self.height, least)

    def _hit_box_holds(self, window_x: float, window_y: float) -> bool:
        centre_x, centre_y = self.to_window(*self.center)
        width, height = self.hit_size
        return abs(window_x - centre_x) <= width / 2 and abs(window_y - centre_y) <= height / 2

    def collide_point(self, x: float, y: float) -> bool:
        if not self.tappable or self.get_root_window() is None:
            return bool(super().collide_point(x, y))
        window_x, window_y = self.to_window(x, y)
        if not self._hit_box_holds(window_x, window_y):
            return False
        nearest = min(
            (
                card
                for card in CardView._shown
                if card.tappable
                and not card.disabled
                and card.get_root_window() is not None
                and card._hit_box_holds(window_x, window_y)
            ),
            key=lambda card: _distance_squared(card.to_window(*card.center), (window_x, window_y)),
            default=None,
        )
        return nearest is self

    @property
    def doubtful(self) -> bool:
        return self.read is not None and self.read.doubtful

    def _draw(self, *_: Any) -> None:
        read = self.read
        self.canvas.before.clear()
        radius = self.scale.px(8)
        with self.canvas.before:
            if read is None:
                Color(*theme.CARD_EMPTY)
                RoundedRectangle(pos=self.pos, size=self.size, radius=[radius])
                Color(*theme.TEXT_DIM)
                Line(rounded_rectangle=(*self.pos, *self.size, radius), dash_length=6, dash_offset=4, width=1)
            else:
                Color(*theme.CARD_FACE)
                RoundedRectangle(pos=self.pos, size=self.size, radius=[radius])
                if self.misplaced:
                    Color(*theme.ALERT)
                    Line(rounded_rectangle=(*self.pos, *self.size, radius), width=self.scale.px(5))
                elif read.doubtful:
                    Color(*theme.WARN)
                    Line(rounded_rectangle=(*self.pos, *self.size, radius), width=self.scale.px(5))
                elif read.corrected:
                    Color(0.12, 0.45, 0.9, 1)
                    Line(rounded_rectangle=(*self.pos, *self.size, radius), width=self.scale.px(3))
        if read is None:
            self.text = "?"
            self.color = theme.TEXT_DIM
        else:
            self.text = card_text(read.card) + ("\n?" if read.doubtful else "")
            self.color = theme.CARD_RED if read.card.suit is not None and read.card.suit.is_red else theme.CARD_BLACK


def _distance_squared(a: tuple[float, float], b: tuple[float, float]) -> float:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def card_text(card: Card) -> str:
    return card.pretty


class PlaceWidget(BoxLayout):
    """A named place on the felt with its cards; taps on a card report (zone, index)."""

    def __init__(
        self,
        scale: theme.Scale,
        on_card: Callable[[str, int], None] | None = None,
        card_size: tuple[float, float] = (78, 110),
        title_font: float = 20,
        note: bool = True,
        **kw: Any,
    ) -> None:
        super().__init__(orientation="vertical", spacing=scale.px(2), size_hint_y=None, **kw)
        self.scale = scale
        self.on_card = on_card
        self.card_size = card_size
        self.zone = ""
        title_h = scale.px(title_font * 1.3) if title_font else 0
        self.title = TextLabel(
            font_size=scale.font(title_font or 1), size_hint_y=None, height=title_h, color=theme.TEXT_DIM, grow=True
        )
        self.row = BoxLayout(
            orientation="horizontal", spacing=scale.px(6), size_hint_y=None, height=scale.px(card_size[1])
        )
        self.note = TextLabel(font_size=scale.font(14), size_hint_y=None, height=scale.px(18), color=theme.WARN)
        if title_font:
            self.add_widget(self.title)
        self.add_widget(self.row)
        if note:  # without, the owner shows the place's problem itself
            self.add_widget(self.note)
        below = scale.px(card_size[1]) + (scale.px(18) + scale.px(4) if note else 0)
        self.height = title_h + below
        if title_font:  # a Khmer title's row grows rather than its text shrinks; the place grows with it
            self.title.bind(height=lambda _, height: setattr(self, "height", height + below))
        self.cards: list[CardView] = []

    def show(
        self, place: PlaceView, catalogue: Catalogue, title: str | None = None, marked: frozenset[Card] = frozenset()
    ) -> None:
        """``marked``: cards to frame red where they lie (in the wrong hand)."""
        self.zone = place.zone
        self.title.text = title if title is not None else catalogue.text(place.label)
        slots = max(place.expected, len(place.cards))
        while len(self.cards) < slots:
            view = CardView(self.scale, size_hint_x=None, width=self.scale.px(self.card_size[0]))
            view.tappable = self.on_card is not None  # a place that only shows (the centre as read) is no target
            view.font_size = self.scale.font(self.card_size[1] * 0.3)
            index = len(self.cards)
            view.bind(on_release=lambda _w, i=index: self._tapped(i))
            self.cards.append(view)
            self.row.add_widget(view)
        while len(self.cards) > slots:
            self.row.remove_widget(self.cards.pop())
        for index, view in enumerate(self.cards):
            read = place.cards[index] if index < len(place.cards) else None
            view.show(read, misplaced=read is not None and read.card in marked)
        self.note.text = catalogue.text(place.problem) if place.problem else ""

    def _tapped(self, index: int) -> None:
        if self.on_card is not None:
            self.on_card(self.zone, index)


class LabeledPlace(BoxLayout):
    """A place with its name on the left ("HIGH", "LOW") to save height."""

    def __init__(
        self,
        scale: theme.Scale,
        on_card: Callable[[str, int], None] | None,
        card_size: tuple[float, float],
        label_width: float = 60,
        note: bool = True,
        **kw: Any,
    ) -> None:
        super().__init__(orientation="horizontal", spacing=scale.px(4), size_hint_y=None, **kw)
        self.place = PlaceWidget(scale, on_card, card_size=card_size, title_font=0, note=note)
        self.name = TextLabel(  # its row grows for two Khmer lines rather than shrink them
            font_size=scale.font(15), bold=True, color=theme.TEXT_DIM, size_hint=(None, None),
            width=scale.px(label_width), height=self.place.height, grow=True,
        )
        self.height = self.place.height
        self.name.bind(height=lambda _, height: setattr(self, "height", max(self.place.height, height)))
        self.add_widget(self.name)
        self.add_widget(self.place)

    def show(self, place: PlaceView, catalogue: Catalogue, title: str, marked: frozenset[Card] = frozenset()) -> None:
        self.name.text = title
        self.place.show(place, catalogue, "", marked)


def _width_of_text(label: Label, texture_size: tuple[float, float]) -> None:
    label.width = texture_size[0] if label.text else 0


def _full_height(label: Label, height: float) -> None:
    label.text_size = (None, height)


class StatusBar(BoxLayout):
    """Always on top: camera, shaker, panel and journal health; the table and the round."""

    PARTS = ("camera", "shaker", "panel", "journal")

    def __init__(self, scale: theme.Scale, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", padding=(scale.px(10), 0), spacing=scale.px(14), **kwargs)
        paint_background(self, theme.PANEL)
        self.scale = scale
        self.lights: dict[str, Label] = {}
        for part in self.PARTS:
            light = Label(
                font_size=scale.font(19), bold=True, markup=True, halign="left", valign="middle", font_name=CARD_FONT,
                size_hint_x=None,
            )
            light.bind(texture_size=_width_of_text)  # as wide as its words: the rest is the table's line
            light.bind(height=_full_height)  # the bar's whole height: a capital's stacked marks (Ồ) are not cut
            self.lights[part] = light
            self.add_widget(light)
        # shown only while the clock is not synchronised (every journal time may then be off)
        self.clock = Label(font_size=scale.font(19), bold=True, markup=True, halign="left", valign="middle",
                           font_name=CARD_FONT, size_hint_x=None, width=0)
        self.clock.bind(texture_size=_width_of_text, height=_full_height)
        self.add_widget(self.clock)
        self.table = Label(
            font_size=scale.font(19), bold=True, color=theme.TEXT, halign="right", valign="middle", size_hint_x=1
        )
        self.table.bind(size=lambda w, *_: setattr(w, "text_size", w.size))
        self.add_widget(self.table)

    def show(self, health: DeviceHealth, catalogue: Catalogue, table_text: str, dice: bool = True,
             unsynced_time: str | None = None) -> None:
        """``dice``: the table plays a dice game; without, the shaker's light is left out. ``unsynced_time``: the
        time, shown on a light of its own, when the clock is not synchronised (every journal time may be off)."""
        for part in self.PARTS:
            if part == "shaker" and not dice:  # its room goes to the table's line
                self.lights[part].text = ""
                self.lights[part].width = 0
                continue
            state: Health = getattr(health, part)
            colour = theme.HEALTH_COLOURS[state.value]
            hex_colour = "".join(f"{int(c * 255):02x}" for c in colour[:3])
            self.lights[part].text = (
                f"[color={hex_colour}]●[/color] {catalogue.text('status.' + part)}: "
                f"[color={hex_colour}]{catalogue.text('health.' + state.value)}[/color]"
            )
        warn = "".join(f"{int(c * 255):02x}" for c in theme.HEALTH_COLOURS["warn"][:3])
        self.clock.text = (f"[color={warn}]● {unsynced_time} {catalogue.text('health.unsynced')}[/color]"
                           if unsynced_time else "")
        if not unsynced_time:
            self.clock.width = 0
        self.table.text = table_text


def button_row(
    scale: theme.Scale, names: Sequence[str], on_press: Callable[[str], None], height: float = 96
) -> tuple[BoxLayout, dict[str, BigButton]]:
    row = BoxLayout(orientation="horizontal", spacing=scale.px(10), size_hint_y=None, height=scale.px(height))
    buttons: dict[str, BigButton] = {}
    for name in names:
        button = BigButton(name, scale)
        button.bind(on_release=lambda _w, n=name: on_press(n))
        buttons[name] = button
        row.add_widget(button)
    return row, buttons
