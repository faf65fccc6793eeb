"""The Sâm Lốc table screen, played from what is seen: players with cards left and balances (a seat under the bet
sits out), whose turn with the countdown, the play on the table, the centre as read (tap a card to correct it, the
empty slot to add one), at the end each loser's cards as read in his place, the settlement, and what a rebuilt
hand broke (held for a supervisor). No hand is ever shown: the kiosk holds none.

The engine's own words (the play on the table, the log, refusals, payment reasons, violations) are phrases, worded
here in the dealer's language."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from kiosk.controller.samloc import Phase, SamLocView
from kiosk.i18n import Catalogue
from kiosk.ui import theme
from kiosk.ui.dialogs import CARD_VOID_REASONS, CardPicker, ChoiceDialog, guesses_of, void_dialog
from kiosk.ui.screen_baibuu import _cards_markup
from kiosk.ui.widgets import CARD_FONT, LabeledPlace, PlaceWidget, TextLabel, button_row, paint_background

COMMANDS = ("start", "play", "pass", "declare_sam", "claim_instant", "confirm", "void")
SHOW_ROW_PX = 74


class SamLocScreen(Screen):
    def __init__(self, controller: Any, catalogue: Catalogue, scale: theme.Scale, name: str = "table-samloc",
                 runtime: Any = None) -> None:
        super().__init__(name=name)
        self.controller = controller
        self.catalogue = catalogue
        self.scale = scale
        self.runtime = runtime
        """For a held settlement: the supervisor who releases it signs in here."""
        self.dialog: Any = None
        self.last_view: SamLocView | None = None
        px = scale.px
        root = BoxLayout(orientation="vertical", padding=px(6), spacing=px(5))
        paint_background(root, theme.BACKGROUND)
        self.prompt = TextLabel(
            font_size=scale.font(26), bold=True, color=theme.PROMPT, size_hint_y=None, height=px(40),
            font_name=CARD_FONT, grow=True,
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
        self.table_info = TextLabel(
            font_size=scale.font(18), color=theme.TEXT_DIM, size_hint_y=None, height=px(26), grow=True
        )
        self.top_title = TextLabel(
            font_size=scale.font(20), bold=True, color=theme.TEXT_DIM, size_hint_y=None, height=px(26), grow=True
        )
        self.top_cards = Label(
            font_name=CARD_FONT, font_size=scale.font(44), bold=True, markup=True, size_hint_y=None, height=px(56)
        )
        self.top_text = TextLabel(
            font_size=scale.font(18), color=theme.PROMPT, size_hint_y=None, height=px(26), grow=True
        )
        self.centre = PlaceWidget(scale, self.pick_card, card_size=(50, 64), title_font=16)
        self.log = TextLabel(font_size=scale.font(15), valign="top", color=theme.TEXT, font_name=CARD_FONT)
        for widget in (self.table_info, self.top_title, self.top_cards, self.top_text, self.centre, self.log):
            right.add_widget(widget)
        middle.add_widget(right)
        root.add_widget(middle)
        self.shows_box = BoxLayout(orientation="vertical", spacing=px(4), size_hint_y=None, height=0)
        self.show_rows: list[LabeledPlace] = []
        root.add_widget(self.shows_box)
        buttons, self.buttons = button_row(scale, COMMANDS, self.press, height=80)
        for name in ("start", "declare_sam", "claim_instant"):
            self.buttons[name].set_colour(theme.BUTTON_COLOURS["shake" if name == "start" else "manual_dice"])
        self.buttons["play"].set_colour(theme.BUTTON_COLOURS["confirm"])
        root.add_widget(buttons)
        self.add_widget(root)

    # ---- input -------------------------------------------------------------------------------------------
    def press(self, name: str) -> None:
        view = self.last_view
        if name == "void":
            self.dialog = void_dialog(
                self.scale,
                self.catalogue,
                CARD_VOID_REASONS,
                lambda reason: self.controller.command("void", reason=reason),
            )
            self.dialog.open()
        elif name in ("declare_sam", "claim_instant") and view is not None:
            seats = view.seats or tuple(p.seat for p in view.players)
            choices = [(str(seat), self.catalogue.text("sl.player", player=seat)) for seat in seats]
            self.dialog = ChoiceDialog(self.scale, self.catalogue, self.catalogue.text("sl.choose_seat"), choices,
                                       lambda seat: self.controller.command(name, seat=int(seat)))
            self.dialog.open()
        elif name == "confirm" and view is not None and view.held:
            self.release()
        else:
            self.controller.command(name)

    def release(self) -> None:
        release_held(self)

    def pick_card(self, zone: str, index: int) -> None:
        view = self.last_view
        current = read = None
        if view is not None:
            places = [view.centre, *view.shows] if view.centre is not None else list(view.shows)
            place = next((p for p in places if p.zone == zone), None)
            if place is not None and index < len(place.cards):
                read = place.cards[index]
                current = read.card
        title = (self.catalogue.text("picker.read", card=current.pretty) if current is not None
                 else self.catalogue.text("picker.title"))
        self.dialog = CardPicker(
            self.scale, self.catalogue, title,
            lambda card: self.controller.command("correct", zone=zone, index=index, card=card), current=current,
            guesses=guesses_of(read),
        )
        self.dialog.open()

    # ---- output ------------------------------------------------------------------------------------------
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
        self.centre.disabled = view.phase is not Phase.PLAYING
        lines: list[str] = []
        if view.violations:
            lines.append(t("sl.violations"))
            lines += ["• " + self.catalogue.phrase(line) for line in view.violations]
        if view.phase in (Phase.RESULTS, Phase.CLOSED):
            if view.payments:
                lines.append(t("common.settlement") + ":")
            lines += [t(payment) for payment in view.payments]
        else:
            lines += [self.catalogue.phrase(line) for line in view.log]
        self.log.text = "\n".join(lines)
        self.log.color = theme.ALERT if view.held else theme.TEXT
        self._shows(view, t)
        enabled = {c.name: c.enabled for c in view.commands}
        labels = {c.name: c.label for c in view.commands}
        for name, button in self.buttons.items():
            button.disabled = not enabled.get(name, False)
            button.text = t(labels[name]) if name in labels else name
            button.font_size = self.scale.font(22)

    def _players(self, view: SamLocView, t: Any) -> None:
        while len(self.player_rows) > len(view.players):
            self.players_box.remove_widget(self.player_rows.pop())
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
            if player.claimed:
                marks.append(t("sl.claim_instant"))
            if player.bao1:
                marks.append("[color=ff9f1a]BÁO 1[/color]")
            if player.passed:
                marks.append(t("sl.passed"))
            if player.net is not None:
                colour = "3ddc84" if player.net > 0 else "ff5252" if player.net < 0 else "ffffff"
                marks.append(f"[color={colour}]{player.net:+d}[/color]")
            middle = t("sl.sitting_out") if player.sitting_out else t("sl.cards_left", count=player.cards_left)
            row.text = f"  {t('sl.player', player=player.seat)} · {middle} · {player.balance}  {' '.join(marks)}"
            row._bg_colour.rgba = theme.PANEL_LIGHT if player.to_act else theme.PANEL
            row.color = theme.TEXT_DIM if player.sitting_out else theme.PROMPT if player.to_act else theme.TEXT

    def _shows(self, view: SamLocView, t: Any) -> None:
        """Each loser's cards as read in his place, one row each (tap a card to correct it, the last slot to add)."""
        shows = view.shows
        while len(self.show_rows) > len(shows):
            self.shows_box.remove_widget(self.show_rows.pop())
        while len(self.show_rows) < len(shows):
            row = LabeledPlace(self.scale, self.pick_card, card_size=(48, 56), label_width=170, note=False)
            self.show_rows.append(row)
            self.shows_box.add_widget(row)
        for row, place in zip(self.show_rows, shows, strict=False):
            widened = type(place)(place.zone, place.label, place.cards, max(place.expected, len(place.cards) + 1),
                                  place.problem)  # one empty slot: a card the camera missed is added there
            title = t(place.label) + (f"\n{t(place.problem)}" if place.problem else "")
            row.show(widened, self.catalogue, title)
            row.name.color = theme.WARN if place.problem else theme.TEXT_DIM
        self.shows_box.height = self.scale.px(SHOW_ROW_PX) * len(shows)


def release_held(screen: Any) -> None:
    """A held settlement (Sâm Lốc or Schmier): the supervisor signs in on ``screen``'s runtime, and CONFIRM closes
    the hand in his name (journaled with the violations he looked at)."""
    runtime, controller = screen.runtime, screen.controller
    if runtime is None:
        controller.command("confirm")
        return
    if runtime.desk.current() is not None:
        controller.command("confirm", supervisor=runtime.supervisor)
        return
    from kiosk.ui.screen_supervisor import Locked

    def signed_in(message: str) -> None:
        if runtime.desk.current() is not None:
            controller.command("confirm", supervisor=runtime.supervisor)

    screen.dialog = Locked(runtime).ask(screen.scale, signed_in)


def _mode(mode: str, t: Any) -> str:
    """The table's Sâm Lốc variant in the screen's language (its setting's own word when the catalogue has none)."""
    from kiosk.i18n import TEXTS

    return t(f"sl.mode.{mode}") if f"sl.mode.{mode}" in TEXTS else mode
