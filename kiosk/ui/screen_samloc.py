"""The Sâm Lốc table screen: players with cards left and balances, whose turn with the countdown, the play on the
table, the centre as read, the turn player's cards to pick a play by touch, the log and the settlement.

The engine's own words (the play on the table, the log, refusals, payment reasons) are phrases, worded here in the
dealer's language."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from kiosk.controller.samloc import Phase, SamLocView
from kiosk.controller.view import CardRead
from kiosk.i18n import Catalogue
from kiosk.ui import theme
from kiosk.ui.dialogs import TABLE_VOID_REASONS, void_dialog
from kiosk.ui.screen_baibuu import _cards_markup
from kiosk.ui.widgets import CARD_FONT, CardView, PlaceWidget, TextLabel, button_row, paint_background

COMMANDS = ("start", "play", "pass", "declare_sam", "confirm", "void", "next")


class SamLocScreen(Screen):
    def __init__(self, controller: Any, catalogue: Catalogue, scale: theme.Scale, name: str = "table-samloc") -> None:
        super().__init__(name=name)
        self.controller = controller
        self.catalogue = catalogue
        self.scale = scale
        self.dialog: Any = None
        self.last_view: SamLocView | None = None
        px = scale.px
        root = BoxLayout(orientation="vertical", padding=px(6), spacing=px(5))
        paint_background(root, theme.BACKGROUND)
        self.prompt = TextLabel(
            font_size=scale.font(28),
            bold=True,
            color=theme.PROMPT,
            size_hint_y=None,
            height=px(40),
            font_name=CARD_FONT,
        )
        self.alert = TextLabel(
            font_size=scale.font(19), bold=True, size_hint_y=None, height=px(30), font_name=CARD_FONT
        )
        paint_background(self.alert, theme.BACKGROUND)
        root.add_widget(self.prompt)
        root.add_widget(self.alert)
        middle = BoxLayout(orientation="horizontal", spacing=px(10))
        self.players_box = BoxLayout(orientation="vertical", spacing=px(4), size_hint_x=0.42)
        self.player_rows: list[Label] = []
        middle.add_widget(self.players_box)
        right = BoxLayout(orientation="vertical", spacing=px(4), padding=px(8))
        paint_background(right, theme.PANEL, radius=px(10))
        self.table_info = TextLabel(font_size=scale.font(18), color=theme.TEXT_DIM, size_hint_y=None, height=px(26))
        self.top_title = TextLabel(
            font_size=scale.font(20), bold=True, color=theme.TEXT_DIM, size_hint_y=None, height=px(26)
        )
        self.top_cards = Label(
            font_name=CARD_FONT, font_size=scale.font(48), bold=True, markup=True, size_hint_y=None, height=px(64)
        )
        self.top_text = TextLabel(font_size=scale.font(18), color=theme.PROMPT, size_hint_y=None, height=px(26))
        self.centre = PlaceWidget(scale, None, card_size=(50, 60), title_font=16)
        self.log = TextLabel(font_size=scale.font(15), valign="top", color=theme.TEXT, font_name=CARD_FONT)
        for widget in (self.table_info, self.top_title, self.top_cards, self.top_text, self.centre, self.log):
            right.add_widget(widget)
        middle.add_widget(right)
        root.add_widget(middle)
        self.hand_title = TextLabel(font_size=scale.font(17), color=theme.TEXT_DIM, size_hint_y=None, height=px(24))
        root.add_widget(self.hand_title)
        self.hand_row = BoxLayout(orientation="horizontal", spacing=px(5), size_hint_y=None, height=px(78))
        self.hand_cards: list[CardView] = []
        root.add_widget(self.hand_row)
        buttons, self.buttons = button_row(scale, COMMANDS, self.press, height=80)
        for name in ("start", "declare_sam"):
            self.buttons[name].set_colour(theme.BUTTON_COLOURS["shake" if name == "start" else "manual_dice"])
        self.buttons["play"].set_colour(theme.BUTTON_COLOURS["confirm"])
        root.add_widget(buttons)
        self.add_widget(root)

    def press(self, name: str) -> None:
        if name == "void":
            self.dialog = void_dialog(
                self.scale,
                self.catalogue,
                TABLE_VOID_REASONS,
                lambda reason: self.controller.command("void", reason=reason),
            )
            self.dialog.open()
        else:
            self.controller.command(name)

    def refresh(self) -> None:
        view: SamLocView = self.controller.view()
        self.last_view = view
        t = self.catalogue.text
        self.prompt.text = t(view.prompt) + (
            f"  ·  {t('sl.timer', seconds=view.seconds_left)}" if view.seconds_left is not None else ""
        )
        self.alert.text = t(view.alert) if view.alert else ""
        self.alert._bg_colour.rgba = theme.alert_background(view.alert.key if view.alert else None)
        self._players(view, t)
        self.table_info.text = (
            t("game.samloc") + " · " + t("sl.table", bet=view.bet, timer=view.timer_s, mode=_mode(view.mode, t))
        )
        self.top_title.text = t("sl.on_table") + (
            f" · {t('sl.player', player=view.top_seat)}" if view.top_seat is not None and view.top else ""
        )
        self.top_cards.text = _cards_markup(view.top) if view.top else "—"
        self.top_text.text = self.catalogue.phrase(view.top_text)
        if view.centre is not None:
            self.centre.show(view.centre, self.catalogue, t("common.centre"))
        if view.phase in (Phase.RESULTS, Phase.CLOSED):
            lines = [t(payment) for payment in view.payments]
        else:
            lines = [self.catalogue.phrase(line) for line in view.log]
        title = t("common.settlement") + ":\n" if view.payments and view.phase in (Phase.RESULTS, Phase.CLOSED) else ""
        self.log.text = title + "\n".join(lines)
        self._hand(view, t)
        enabled = {c.name: c.enabled for c in view.commands}
        labels = {c.name: c.label for c in view.commands}
        for name, button in self.buttons.items():
            button.disabled = not enabled.get(name, False)
            button.text = t(labels[name]) if name in labels else name
            button.font_size = self.scale.font(24)

    def _players(self, view: SamLocView, t: Any) -> None:
        while len(self.player_rows) < len(view.players):
            row = TextLabel(font_size=self.scale.font(21), bold=True, markup=True, font_name=CARD_FONT)
            paint_background(row, theme.PANEL, radius=self.scale.px(8))
            self.player_rows.append(row)
            self.players_box.add_widget(row)
        for row, player in zip(self.player_rows, view.players, strict=False):
            marks = []
            if player.to_act:
                marks.append("▶")
            if player.declared_sam:
                marks.append("SÂM")
            if player.bao1:
                marks.append("[color=ff9f1a]BÁO 1[/color]")
            if player.passed:
                marks.append(t("sl.passed"))
            if player.net is not None:
                colour = "3ddc84" if player.net > 0 else "ff5252" if player.net < 0 else "ffffff"
                marks.append(f"[color={colour}]{player.net:+d}[/color]")
            row.text = (
                f"  {t('sl.player', player=player.seat)} · {t('sl.cards_left', count=player.cards_left)} · "
                f"{player.balance}  {' '.join(marks)}"
            )
            row._bg_colour.rgba = theme.PANEL_LIGHT if player.to_act else theme.PANEL
            row.color = theme.PROMPT if player.to_act else theme.TEXT

    def _hand(self, view: SamLocView, t: Any) -> None:
        cards = view.hand_of_turn if view.phase is Phase.PLAYING else ()
        self.hand_title.text = t("sl.hand_of", player=view.turn) if cards else ""
        while len(self.hand_cards) < len(cards):
            card_view = CardView(self.scale, size_hint_x=None, width=self.scale.px(theme.MIN_TOUCH_PX))
            index = len(self.hand_cards)
            card_view.bind(on_release=lambda _w, i=index: self._pick(i))
            self.hand_cards.append(card_view)
            self.hand_row.add_widget(card_view)
        while len(self.hand_cards) > len(cards):
            self.hand_row.remove_widget(self.hand_cards.pop())
        for card_view, card in zip(self.hand_cards, cards, strict=False):
            card_view.show(CardRead(card, corrected=card in view.selected))
            card_view.font_size = self.scale.font(24)

    def _pick(self, index: int) -> None:
        view = self.last_view
        if view is not None and index < len(view.hand_of_turn):
            self.controller.command("pick", card=view.hand_of_turn[index])


def _mode(mode: str, t: Any) -> str:
    """The table's Sâm Lốc variant in the screen's language (its setting's own word when the catalogue has none)."""
    from kiosk.i18n import TEXTS

    return t(f"sl.mode.{mode}") if f"sl.mode.{mode}" in TEXTS else mode
