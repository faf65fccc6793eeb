"""The Schmier table screen, played from what is seen: seats and teams with the cards each holds, bids, trump, the
trick in play, the centre as read (tap a card to correct it, the empty slot to add one), the six points, what a
rebuilt hand broke (held for a supervisor) and the running score to 21. The buttons follow the hand: bids and PASS,
the four suits, how many each player discarded, the dealer's take-up, PLAY. No hand is ever shown."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from kiosk.controller.schmier import TARGET, SchmierView, Step
from kiosk.i18n import Catalogue
from kiosk.ui import theme
from kiosk.ui.dialogs import CARD_VOID_REASONS, CardPicker, guesses_of, void_dialog
from kiosk.ui.widgets import CARD_FONT, BigButton, PlaceWidget, TextLabel, paint_background

COLOURS = {
    "start": "shake",
    "pass": "neutral",
    "discard": "manual_dice",
    "play": "confirm",
    "confirm": "confirm",
    "void": "void",
    "next": "next",
}


class SchmierScreen(Screen):
    def __init__(self, controller: Any, catalogue: Catalogue, scale: theme.Scale, name: str = "table-schmier",
                 runtime: Any = None) -> None:
        super().__init__(name=name)
        self.runtime = runtime
        self.controller = controller
        self.catalogue = catalogue
        self.scale = scale
        self.dialog: Any = None
        self.last_view: SchmierView | None = None
        px = scale.px
        root = BoxLayout(orientation="vertical", padding=px(6), spacing=px(5))
        paint_background(root, theme.BACKGROUND)
        self.prompt = TextLabel(
            font_size=scale.font(28), bold=True, color=theme.PROMPT, size_hint_y=None, height=px(40), grow=True
        )
        self.alert = TextLabel(
            font_size=scale.font(19), bold=True, size_hint_y=None, height=px(30), font_name=CARD_FONT
        )
        paint_background(self.alert, theme.BACKGROUND)
        root.add_widget(self.prompt)
        root.add_widget(self.alert)
        middle = BoxLayout(orientation="horizontal", spacing=px(10))
        self.seats_box = BoxLayout(orientation="vertical", spacing=px(4), size_hint_x=0.4)
        self.seat_rows: list[Label] = []
        middle.add_widget(self.seats_box)
        right = BoxLayout(orientation="vertical", spacing=px(3), padding=px(8))
        paint_background(right, theme.PANEL, radius=px(10))
        self.scores = TextLabel(font_size=scale.font(24), bold=True, size_hint_y=None, height=px(34), grow=True)
        self.trump = TextLabel(
            font_size=scale.font(24),
            bold=True,
            color=theme.PROMPT,
            size_hint_y=None,
            height=px(34),
            font_name=CARD_FONT,
        )
        self.trick = Label(
            font_name=CARD_FONT, font_size=scale.font(34), bold=True, markup=True, size_hint_y=None, height=px(52)
        )
        self.last_trick = TextLabel(
            font_size=scale.font(17), color=theme.TEXT_DIM, size_hint_y=None, height=px(24), font_name=CARD_FONT
        )
        self.centre = PlaceWidget(scale, self.pick_card, card_size=(48, 56), title_font=15)
        self.log = TextLabel(font_size=scale.font(15), valign="top", font_name=CARD_FONT)
        for widget in (self.scores, self.trump, self.trick, self.last_trick, self.centre, self.log):
            right.add_widget(widget)
        middle.add_widget(right)
        root.add_widget(middle)
        self.button_row = BoxLayout(orientation="horizontal", spacing=px(8), size_hint_y=None, height=px(80))
        self.buttons: dict[str, BigButton] = {}
        root.add_widget(self.button_row)
        self.add_widget(root)

    def press(self, name: str) -> None:
        if name == "void":
            self.dialog = void_dialog(
                self.scale,
                self.catalogue,
                CARD_VOID_REASONS,
                lambda reason: self.controller.command("void", reason=reason),
            )
            self.dialog.open()
        elif name == "confirm" and self.last_view is not None and self.last_view.held:
            from kiosk.ui.screen_samloc import release_held

            release_held(self)  # the supervisor signs in, then CONFIRM in his name
        else:
            self.controller.command(name)

    def pick_card(self, zone: str, index: int) -> None:
        view = self.last_view
        current = read = None
        if view is not None and view.centre is not None and index < len(view.centre.cards):
            read = view.centre.cards[index]
            current = read.card
        title = (self.catalogue.text("picker.read", card=current.pretty) if current is not None
                 else self.catalogue.text("picker.title"))
        self.dialog = CardPicker(
            self.scale, self.catalogue, title,
            lambda card: self.controller.command("correct", zone=zone, index=index, card=card),
            allow_joker=True, current=current, guesses=guesses_of(read),
        )
        self.dialog.open()

    def refresh(self) -> None:
        view: SchmierView = self.controller.view()
        self.last_view = view
        t = self.catalogue.text
        self.prompt.text = t(view.prompt)
        self.alert.text = t(view.alert) if view.alert else ""
        self.alert._bg_colour.rgba = theme.alert_background(view.alert.key if view.alert else None)
        self._seats(view, t)
        self.scores.text = (
            "  ·  ".join(t("sm.score", team=team, score=score) for team, score in enumerate(view.scores))
            + f"  ({t('sm.to', target=TARGET)})"
        )
        trump = t("sm.trump", suit=view.trump.symbol) if view.trump else ""
        bid = t("sm.high_bid", amount=view.high_bid, seat=view.bidder) if view.high_bid is not None else ""
        self.trump.text = "   ".join(part for part in (trump, bid) if part)
        self.trick.text = (
            (
                f"{t('sm.trick', n=view.trick_number)}: "
                + "  ".join(t("sm.trick_play", seat=seat, card=f"[color={_colour(card)}]{card.pretty}[/color]")
                            for seat, card in view.trick)
            )
            if view.step is Step.PLAYING and view.phase == "play"
            else ""
        )
        self.last_trick.text = t(view.last_trick) if view.last_trick else ""
        if view.centre is not None:
            self.centre.show(view.centre, self.catalogue, t("common.centre"))
        self.centre.disabled = not (view.step is Step.PLAYING and view.phase == "play")
        lines: list[str] = []
        if view.violations:
            lines.append(t("sl.violations"))
            lines += ["• " + self.catalogue.phrase(line) for line in view.violations]
        if view.result_lines:
            lines += [t(line) for line in view.result_lines]
            if view.winner is not None:
                lines.append(t("sm.winner", team=view.winner))
        else:
            lines += [self.catalogue.phrase(line) for line in view.log]
        self.log.text = "\n".join(lines)
        self.log.color = theme.ALERT if view.held else theme.TEXT
        self._buttons(view, t)

    def _seats(self, view: SchmierView, t: Any) -> None:
        while len(self.seat_rows) < len(view.seats):
            row = TextLabel(font_size=self.scale.font(18), bold=True, font_name=CARD_FONT)
            paint_background(row, theme.PANEL, radius=self.scale.px(8))
            self.seat_rows.append(row)
            self.seats_box.add_widget(row)
        for row, seat in zip(self.seat_rows, view.seats, strict=False):
            parts = [t("sm.seat", seat=seat.seat, team=seat.team), t("sl.cards_left", count=seat.cards)]
            if seat.bid:
                parts.append(t("sm.pass") if seat.bid == "pass" else t("sm.bid", amount=seat.bid))
            if seat.dealer:
                parts.append(t("sm.dealer"))
            row.text = "  " + " · ".join(parts) + ("  ▶" if seat.to_act else "")
            row._bg_colour.rgba = theme.PANEL_LIGHT if seat.to_act else theme.PANEL
            row.color = theme.PROMPT if seat.to_act else theme.TEXT

    def _buttons(self, view: SchmierView, t: Any) -> None:
        names = [c.name for c in view.commands]
        if list(self.buttons) != names:
            self.button_row.clear_widgets()
            self.buttons = {}
            for name in names:
                colour = COLOURS.get(name.split(":")[0], "nav")
                button = BigButton(colour, self.scale, font_size=self.scale.font(24), font_name=CARD_FONT)
                button.bind(on_release=lambda _w, n=name: self.press(n))
                self.buttons[name] = button
                self.button_row.add_widget(button)
        for command in view.commands:
            button = self.buttons[command.name]
            button.text = t(command.label)
            button.disabled = not command.enabled


def _colour(card: Any) -> str:
    return "ff5a5a" if card.suit is not None and card.suit.is_red else "ffffff"
