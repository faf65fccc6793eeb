"""The payout board of the Bài Bửu results: each seat's amount big on a tile coloured by its outcome, the word beside
it; the house's totals (what it pays, what it takes) in a panel of their own."""

from __future__ import annotations

from typing import Any

from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.controller.baibuu_view import SeatView
from kiosk.i18n import Catalogue
from kiosk.ui import theme
from kiosk.ui.widgets import TextLabel, paint_background

AMOUNT_FONT = 60  # at 800 px high: the biggest type on the results screen
NOTE_FONT = 20  # a seat's problem (a card unsure, cards missing) before it has a result
TOTAL_FONT = 44


class PayoutTile(ButtonBehavior, BoxLayout):
    """A seat's result: the amount on a tile coloured by the outcome, the word (and pay / take) beside it. Before
    the seat is settled it shows the seat's problem instead. A tap says why (the owner binds ``on_release``)."""

    def __init__(self, scale: theme.Scale, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", padding=(scale.px(6), 0), spacing=scale.px(6), **kwargs)
        paint_background(self, theme.PANEL, radius=scale.px(8))
        # digits only: a plain label as wide as its text, so the word beside it gets the rest of the tile
        self.money = Label(font_size=scale.font(AMOUNT_FONT), bold=True, size_hint_x=None, color=theme.CARD_BLACK)
        self.money.bind(texture_size=lambda label, size: setattr(label, "width", size[0]))
        self.words = BoxLayout(orientation="vertical")
        self.outcome = TextLabel(font_size=scale.font(22), bold=True, color=theme.CARD_BLACK)
        self.action = TextLabel(font_size=scale.font(16), bold=True, color=theme.CARD_BLACK)
        self.words.add_widget(self.outcome)
        self.words.add_widget(self.action)
        self.note = TextLabel(font_size=scale.font(NOTE_FONT), bold=True, color=theme.WARN, halign="center")
        self.settled: bool | None = None

    def _arrange(self, settled: bool) -> None:
        if settled == self.settled:
            return
        self.settled = settled
        self.clear_widgets()
        for widget in (self.money, self.words) if settled else (self.note,):
            self.add_widget(widget)

    def show(self, view: SeatView, catalogue: Catalogue, problem: str) -> None:
        t = catalogue.text
        if view.outcome is None:
            self._arrange(False)
            self._bg_colour.rgba = theme.PANEL
            self.note.text = problem
            self.money.text = self.outcome.text = self.action.text = ""
            return
        self._arrange(True)
        self._bg_colour.rgba = theme.OUTCOME_COLOURS.get(view.outcome, theme.PANEL_LIGHT)
        self.note.text = ""
        net = view.net or 0
        self.money.text = str(abs(net))
        self.outcome.text = t("bb.outcome." + view.outcome)
        if net > 0:
            action = t("bb.to_pay")
            if view.commission:
                action += "\n" + t("bb.commission", amount=view.commission)
        elif net < 0:
            action = t("bb.to_take")
        else:
            action = t("bb.back")
        self.action.text = action


class HouseTotals(BoxLayout):
    """What the house pays out and takes in this round, once the seats are settled."""

    def __init__(self, scale: theme.Scale, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", padding=scale.px(8), spacing=scale.px(2), **kwargs)
        paint_background(self, theme.PANEL, radius=scale.px(10))
        self.pays_title = TextLabel(font_size=scale.font(18), bold=True, color=theme.TEXT_DIM, halign="center")
        self.pays = TextLabel(font_size=scale.font(TOTAL_FONT), bold=True, color=theme.GOOD, halign="center")
        self.takes_title = TextLabel(font_size=scale.font(18), bold=True, color=theme.TEXT_DIM, halign="center")
        self.takes = TextLabel(font_size=scale.font(TOTAL_FONT), bold=True, color=theme.ALERT, halign="center")
        for label, share in ((self.pays_title, 0.35), (self.pays, 0.65), (self.takes_title, 0.35), (self.takes, 0.65)):
            label.size_hint_y = share
            self.add_widget(label)

    def show(self, seats: tuple[SeatView, ...], catalogue: Catalogue) -> None:
        nets = [seat.net or 0 for seat in seats if seat.outcome is not None]
        self.pays_title.text = catalogue.text("bb.house_pays")
        self.pays.text = str(sum(net for net in nets if net > 0))
        self.takes_title.text = catalogue.text("bb.house_takes")
        self.takes.text = str(sum(-net for net in nets if net < 0))
