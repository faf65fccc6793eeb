"""Full-screen touch dialogs: the card picker, dice entry, a list of choices, the supervisor PIN pad.

None needs a keyboard. Each calls back with the answer, or with ``None`` when the dealer cancels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from engine.cards import JOKER, Card, Rank, Suit
from kiosk.controller.view import CardRead
from kiosk.i18n import Catalogue
from kiosk.ui import theme
from kiosk.ui.widgets import CARD_FONT, BigButton, TextLabel, paint_background


class Dialog(ModalView):
    """A modal view over the whole screen with a title line and a body."""

    def __init__(self, scale: theme.Scale, title: str, **kwargs: Any) -> None:
        super().__init__(size_hint=(0.96, 0.94), auto_dismiss=False, background_color=(0, 0, 0, 0.85), **kwargs)
        self.scale = scale
        self.box = BoxLayout(orientation="vertical", padding=scale.px(14), spacing=scale.px(10))
        paint_background(self.box, theme.PANEL, radius=scale.px(12))
        self.title_label = Label(
            text=title, font_size=scale.font(30), bold=True, color=theme.PROMPT, size_hint_y=None, height=scale.px(50),
            font_name=CARD_FONT,  # titles name cards ("the camera read K♥"): Roboto has no suit symbols
        )
        self.box.add_widget(self.title_label)
        self.add_widget(self.box)

    def open(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("animation", False)  # a dealer's tap answers at once
        super().open(*args, **kwargs)


def guesses_of(read: CardRead | None) -> tuple[Card, ...]:
    """What a picker offers first for a card the camera doubts: the card read, then the reader's next guesses."""
    return (read.card, *read.alternatives) if read is not None and read.doubtful else ()


class CardPicker(Dialog):
    """Pick a card by touch: the reader's best guesses first (what it read, then its next guesses, a tap each), one
    row per suit below with one big key per rank; 'no card here' and cancel at the foot."""

    def __init__(
        self,
        scale: theme.Scale,
        catalogue: Catalogue,
        title: str,
        on_pick: Callable[[Card | None], None],
        allow_joker: bool = False,
        allow_remove: bool = True,
        current: Card | None = None,
        guesses: Sequence[Card] = (),
    ) -> None:
        super().__init__(scale, title)
        self.on_pick = on_pick
        self.keys: dict[str, Button] = {}
        self.guess_keys: list[Button] = []
        if guesses:  # the reader's guesses, likeliest first, where a finger lands first
            row = BoxLayout(orientation="horizontal", spacing=scale.px(10), size_hint_y=None, height=scale.px(96))
            row.add_widget(TextLabel(text=catalogue.text("picker.guesses"), font_size=scale.font(24), bold=True,
                                     color=theme.PROMPT, size_hint_x=0.3, halign="right"))
            for card in guesses:
                key = self._key(card, register=False)
                key.font_size = scale.font(40)
                self.guess_keys.append(key)
                row.add_widget(key)
            self.box.add_widget(row)
        grid = GridLayout(cols=13, spacing=scale.px(6))
        ranks = [Rank.ACE, *[Rank(v) for v in range(2, 11)], Rank.JACK, Rank.QUEEN, Rank.KING]
        for suit in Suit:
            for rank in ranks:
                card = Card(rank, suit)
                grid.add_widget(self._key(card))
        self.box.add_widget(grid)
        if current is not None and str(current) in self.keys:
            self.keys[str(current)].background_color = (1.0, 0.85, 0.55, 1)  # what the camera read, to compare
        bottom = BoxLayout(orientation="horizontal", spacing=scale.px(10), size_hint_y=None, height=scale.px(90))
        if allow_joker:
            bottom.add_widget(self._key(JOKER))
        if allow_remove:
            remove = BigButton("neutral", scale, text=catalogue.text("button.remove_card"))
            remove.bind(on_release=lambda *_: self._answer(None))
            bottom.add_widget(remove)
        cancel = BigButton("void", scale, text=catalogue.text("button.cancel"))
        cancel.bind(on_release=lambda *_: self.dismiss(animation=False))
        bottom.add_widget(cancel)
        self.cancel_button = cancel
        self.box.add_widget(bottom)

    def _key(self, card: Card, register: bool = True) -> Button:
        red = card.suit is not None and card.suit.is_red
        key = Button(
            text=card.pretty,
            font_name=CARD_FONT,
            font_size=self.scale.font(30),
            bold=True,
            background_normal="",
            background_color=theme.CARD_FACE,
            color=theme.CARD_RED if red else theme.CARD_BLACK,
        )
        key.bind(on_release=lambda *_: self._answer(card))
        if register:
            self.keys[str(card)] = key
        return key

    def _answer(self, card: Card | None) -> None:
        self.dismiss(animation=False)
        self.on_pick(card)


class DicePad(Dialog):
    """Enter three dice by touch: a row of 1–6 for each die; OK once all three are chosen."""

    def __init__(self, scale: theme.Scale, catalogue: Catalogue, on_dice: Callable[[tuple[int, int, int]], None]):
        super().__init__(scale, catalogue.text("dice.title"))
        self.on_dice = on_dice
        self.values: list[int | None] = [None, None, None]
        self.keys: list[list[Button]] = []
        for die in range(3):
            row = BoxLayout(orientation="horizontal", spacing=scale.px(8))
            row.add_widget(Label(text=catalogue.text("dice.die", n=die + 1), font_size=scale.font(26), size_hint_x=0.6))
            keys = []
            for value in range(1, 7):
                key = Button(
                    text=str(value),
                    font_size=scale.font(40),
                    bold=True,
                    background_normal="",
                    background_color=theme.BUTTON_COLOURS["neutral"],
                )
                key.bind(on_release=lambda _w, d=die, v=value: self.choose(d, v))
                keys.append(key)
                row.add_widget(key)
            self.keys.append(keys)
            self.box.add_widget(row)
        bottom = BoxLayout(orientation="horizontal", spacing=scale.px(10), size_hint_y=None, height=scale.px(90))
        self.ok = BigButton("confirm", scale, text=catalogue.text("button.ok"), disabled=True)
        self.ok.bind(on_release=lambda *_: self._done())
        cancel = BigButton("void", scale, text=catalogue.text("button.cancel"))
        cancel.bind(on_release=lambda *_: self.dismiss(animation=False))
        bottom.add_widget(self.ok)
        bottom.add_widget(cancel)
        self.box.add_widget(bottom)

    def choose(self, die: int, value: int) -> None:
        self.values[die] = value
        for index, key in enumerate(self.keys[die]):
            key.background_color = (
                theme.BUTTON_COLOURS["shake"] if index + 1 == value else theme.BUTTON_COLOURS["neutral"]
            )
        self.ok.disabled = any(v is None for v in self.values)

    def _done(self) -> None:
        a, b, c = self.values
        if a is None or b is None or c is None:
            return
        self.dismiss(animation=False)
        self.on_dice((a, b, c))


TABLE_VOID_REASONS = ("misdeal", "dice", "exposed", "dispute", "device")
"""Why a dealer voids a round at the table; the supervisor's screen has its own list (a crash among them)."""
CARD_VOID_REASONS = tuple(reason for reason in TABLE_VOID_REASONS if reason != "dice")
"""Why a dealer voids a hand of a card game (no dice on the table)."""


def void_dialog(
    scale: theme.Scale, catalogue: Catalogue, reasons: Sequence[str], on_reason: Callable[[str], None]
) -> ChoiceDialog:
    """The VOID dialog: one big button per reason, in the screen's language."""
    choices = [(reason, catalogue.text("void." + reason)) for reason in reasons]
    return ChoiceDialog(scale, catalogue, catalogue.text("void.title"), choices, on_reason, colour="void")


class ChoiceDialog(Dialog):
    """A list of big choices (void reasons, games, ...)."""

    def __init__(
        self,
        scale: theme.Scale,
        catalogue: Catalogue,
        title: str,
        choices: Sequence[tuple[str, str]],
        on_choice: Callable[[str], None],
        colour: str = "neutral",
    ) -> None:
        super().__init__(scale, title)
        self.on_choice = on_choice
        self.buttons: dict[str, BigButton] = {}
        grid = GridLayout(cols=2, spacing=scale.px(10))
        for value, text in choices:
            button = BigButton(colour, scale, text=text)
            button.bind(on_release=lambda _w, v=value: self._answer(v))
            self.buttons[value] = button
            grid.add_widget(button)
        self.box.add_widget(grid)
        cancel = BigButton(
            "neutral", scale, text=catalogue.text("button.cancel"), size_hint_y=None, height=scale.px(90)
        )
        cancel.bind(on_release=lambda *_: self.dismiss(animation=False))
        self.box.add_widget(cancel)

    def _answer(self, value: str) -> None:
        self.dismiss(animation=False)
        self.on_choice(value)


class PinPad(Dialog):
    """Sign in as oneself: touch one's supervisor ID, then the PIN on a number pad; the digits show as dots."""

    def __init__(
        self,
        scale: theme.Scale,
        catalogue: Catalogue,
        on_pin: Callable[[str, str], None],
        supervisors: Sequence[str] = (),
    ) -> None:
        super().__init__(scale, catalogue.text("setup.pin"))
        self.catalogue = catalogue
        self.on_pin = on_pin
        self.digits = ""
        self.chosen: str | None = supervisors[0] if len(supervisors) == 1 else None
        self.id_buttons: dict[str, BigButton] = {}
        if supervisors:
            ids = BoxLayout(
                orientation="horizontal", spacing=scale.px(8), size_hint_y=None, height=scale.px(theme.MIN_TOUCH_PX)
            )
            for supervisor in supervisors:
                button = BigButton("nav", scale, text=supervisor, font_size=scale.font(26))
                button.bind(on_release=lambda _w, s=supervisor: self.choose(s))
                self.id_buttons[supervisor] = button
                ids.add_widget(button)
            self.box.add_widget(ids)
        self.shown = Label(text="", font_size=scale.font(44), size_hint_y=None, height=scale.px(60),
                           font_name=CARD_FONT)  # Roboto has no ●
        self.box.add_widget(self.shown)
        self.keys = _number_keys(self.box, scale, self.press, catalogue.text("button.ok"))
        cancel = BigButton("void", scale, text=catalogue.text("button.cancel"), size_hint_y=None, height=scale.px(80))
        cancel.bind(on_release=lambda *_: self.dismiss(animation=False))
        self.box.add_widget(cancel)
        self._show()

    def choose(self, supervisor: str) -> None:
        self.chosen = supervisor
        self._show()

    def press(self, key: str) -> None:
        if key == "OK":
            if self.chosen is None:
                self.title_label.text = self.catalogue.text("signin.choose")
                return
            self.dismiss(animation=False)
            self.on_pin(self.chosen, self.digits)
            return
        if key == "⌫":
            self.digits = self.digits[:-1]
        elif len(self.digits) < 12:
            self.digits += key
        self._show()

    def _show(self) -> None:
        self.shown.text = "●" * len(self.digits)
        for supervisor, button in self.id_buttons.items():
            button.set_colour(theme.BUTTON_COLOURS["nav_active" if supervisor == self.chosen else "nav"])
        self.title_label.text = self.catalogue.text("setup.pin" if self.chosen or not self.id_buttons
                                                    else "signin.choose")


class FirstSupervisorPad(Dialog):
    """The first supervisor of a kiosk that has none: an ID, a PIN, the PIN again, all on the number pad.

    ``on_done(id, pin)`` answers a problem to show (the pad stays open) or None (done)."""

    def __init__(
        self, scale: theme.Scale, catalogue: Catalogue, on_done: Callable[[str, str], str | None]
    ) -> None:
        super().__init__(scale, catalogue.text("signin.first_id"))
        self.catalogue = catalogue
        self.on_done = on_done
        self.step = "id"
        self.entered = {"id": "", "pin": "", "again": ""}
        self.shown = Label(text="", font_size=scale.font(44), size_hint_y=None, height=scale.px(60),
                           font_name=CARD_FONT)  # Roboto has no ●
        self.box.add_widget(self.shown)
        self.problem = Label(text="", font_size=scale.font(22), color=theme.ALERT, size_hint_y=None,
                             height=scale.px(34))
        self.box.add_widget(self.problem)
        self.keys = _number_keys(self.box, scale, self.press, catalogue.text("button.ok"))

    def press(self, key: str) -> None:
        digits = self.entered[self.step]
        if key == "OK":
            self._next()
            return
        if key == "⌫":
            digits = digits[:-1]
        elif len(digits) < 12:
            digits += key
        self.entered[self.step] = digits
        self._show()

    def _next(self) -> None:
        if not self.entered[self.step]:
            return
        self.problem.text = ""
        if self.step == "id":
            self.step = "pin"
        elif self.step == "pin":
            self.step = "again"
        elif self.entered["again"] != self.entered["pin"]:
            self.problem.text = self.catalogue.text("signin.first_differs")
            self.entered["pin"] = self.entered["again"] = ""
            self.step = "pin"
        else:
            problem = self.on_done(self.entered["id"], self.entered["pin"])
            if problem is None:
                self.dismiss(animation=False)
                return
            self.problem.text = problem
            self.entered["pin"] = self.entered["again"] = ""
            self.step = "pin"
        self._show()

    def _show(self) -> None:
        self.title_label.text = self.catalogue.text("signin.first_" + self.step)
        digits = self.entered[self.step]
        self.shown.text = digits if self.step == "id" else "●" * len(digits)


def _number_keys(box: BoxLayout, scale: theme.Scale, press: Callable[[str], None], ok_text: str) -> dict[str, Button]:
    """The 3×4 number pad (⌫ and OK, worded ``ok_text``, in the last row), added to ``box``."""
    grid = GridLayout(cols=3, spacing=scale.px(8))
    keys: dict[str, Button] = {}
    for key_text in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "OK"):
        colour = theme.BUTTON_COLOURS["confirm"] if key_text == "OK" else theme.BUTTON_COLOURS["neutral"]
        key = Button(
            text=ok_text if key_text == "OK" else key_text,
            font_size=scale.font(40),
            bold=True,
            background_normal="",
            background_color=colour,
            font_name=CARD_FONT,
        )
        key.bind(on_release=lambda _w, k=key_text: press(k))
        keys[key_text] = key
        grid.add_widget(key)
    box.add_widget(grid)
    return keys


class InfoDialog(Dialog):
    """Lines to read (why a seat won or lost), and OK."""

    def __init__(self, scale: theme.Scale, catalogue: Catalogue, title: str, lines: Sequence[str]) -> None:
        super().__init__(scale, title)
        self.body = Label(
            text="\n\n".join(lines),
            font_size=scale.font(24),
            font_name=CARD_FONT,
            halign="left",
            valign="top",
            color=theme.TEXT,
        )
        self.body.bind(size=lambda w, *_: setattr(w, "text_size", w.size))
        self.box.add_widget(self.body)
        ok = BigButton("confirm", scale, text=catalogue.text("button.ok"), size_hint_y=None, height=scale.px(90))
        ok.bind(on_release=lambda *_: self.dismiss(animation=False))
        self.ok = ok
        self.box.add_widget(ok)
