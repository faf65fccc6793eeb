"""The Bài Bửu table screen: the prompt, the table picture with the dice, the house way, the felt, the seats."""

from __future__ import annotations

from typing import Any, Protocol

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from engine.cards import Card
from kiosk.controller.baibuu_view import BaiBuuView, Phase, SeatView, bet_choices
from kiosk.controller.view import CardRead
from kiosk.i18n import Catalogue, Msg
from kiosk.ui import theme
from kiosk.ui.dialogs import (
    TABLE_VOID_REASONS,
    CardPicker,
    ChoiceDialog,
    DicePad,
    InfoDialog,
    guesses_of,
    void_dialog,
)
from kiosk.ui.payout import NOTE_FONT, HouseTotals, PayoutTile
from kiosk.ui.table_picture import TablePicture
from kiosk.ui.widgets import CARD_FONT, BigButton, LabeledPlace, TextLabel, button_row, paint_background

ROUND_COMMANDS = ("shake", "manual_dice", "confirm", "void", "next")
SETTLED = (Phase.RESULTS, Phase.CLOSED)
MIDDLE_HEIGHT = 220
WAY_ROW = 56  # a house-way row before the round is settled: its cards at WAY_CARD_FONT
MIDDLE_HEIGHT_SETTLED = 214  # the felt panel's own height: the rest goes to the seats' payout tiles
WAY_CARD_FONT = 46
WAY_CARD_FONT_SETTLED = 30



class RoundController(Protocol):
    def view(self) -> BaiBuuView: ...

    def command(self, name: str, **params: Any) -> None: ...


class BaiBuuScreen(Screen):
    def __init__(self, controller: RoundController, catalogue: Catalogue, scale: theme.Scale, **kwargs: Any) -> None:
        super().__init__(name="table-baibuu", **kwargs)
        self.controller = controller
        self.catalogue = catalogue
        self.scale = scale
        self.dialog: Any = None
        self.last_view: BaiBuuView | None = None
        self.history: list[tuple[int, int]] | None = None  # (round, the house's net), newest first
        px = scale.px
        root = BoxLayout(orientation="vertical", padding=px(6), spacing=px(4))
        paint_background(root, theme.BACKGROUND)

        # what to do now, and what went wrong
        # rows that grow for a taller script (Khmer) rather than shrink its text
        self.prompt = TextLabel(
            font_size=scale.font(30), bold=True, color=theme.PROMPT, size_hint_y=None, height=px(40), grow=True
        )
        self.alert = TextLabel(
            font_size=scale.font(22), bold=True, color=theme.TEXT, size_hint_y=None, height=px(34), grow=True
        )
        paint_background(self.alert, theme.BACKGROUND)
        root.add_widget(self.prompt)
        root.add_widget(self.alert)

        # table picture | house way | house hand on the felt
        middle = BoxLayout(orientation="horizontal", spacing=px(10), size_hint_y=None, height=px(MIDDLE_HEIGHT))
        self.middle = middle
        left = BoxLayout(orientation="vertical", size_hint_x=0.3)
        self.dice_text = TextLabel(
            font_size=scale.font(24), bold=True, size_hint_y=None, height=px(34), halign="center", grow=True
        )
        self.table = TablePicture(scale)
        self.first_text = TextLabel(
            font_size=scale.font(17),
            color=theme.PROMPT,
            size_hint_y=None,
            height=px(26),
            halign="center",
            font_name=CARD_FONT,
            grow=True,
        )
        left.add_widget(self.dice_text)
        left.add_widget(self.table)
        left.add_widget(self.first_text)
        middle.add_widget(left)

        way = BoxLayout(orientation="vertical", size_hint_x=0.38, padding=px(8), spacing=px(2))
        self.way = way
        paint_background(way, theme.PANEL, radius=px(10))
        self.way_title = TextLabel(
            font_size=scale.font(22), bold=True, color=theme.TEXT_DIM, size_hint_y=None, height=px(30), grow=True
        )
        way.add_widget(self.way_title)
        self.way_high = self._way_row(way)
        self.way_low = self._way_row(way)
        self.way_rule = TextLabel(
            font_size=scale.font(19), color=theme.PROMPT, size_hint_y=None, height=px(46), grow=True
        )
        way.add_widget(self.way_rule)
        middle.add_widget(way)
        self.totals = HouseTotals(scale, size_hint_x=0.16)  # in the middle row once the round is settled

        felt = BoxLayout(orientation="vertical", size_hint_x=0.32, padding=px(8), spacing=px(4))
        paint_background(felt, theme.PANEL, radius=px(10))
        self.felt_title = TextLabel(
            font_size=scale.font(22), bold=True, color=theme.TEXT_DIM, size_hint_y=None, height=px(30), grow=True
        )
        felt.add_widget(self.felt_title)
        # a place's problem shows on the panel's last line, under both hands, clear of the cards' frames
        self.house_high = LabeledPlace(scale, self.pick_card, card_size=(58, 56), label_width=110, note=False)
        self.house_low = LabeledPlace(scale, self.pick_card, card_size=(58, 56), label_width=110, note=False)
        felt.add_widget(self.house_high)
        felt.add_widget(self.house_low)
        self.set_check = TextLabel(
            font_size=scale.font(NOTE_FONT), bold=True, size_hint_y=None, height=px(32), font_name=CARD_FONT,
            grow=True,
        )
        felt.add_widget(self.set_check)
        middle.add_widget(felt)
        root.add_widget(middle)
        self.middle_height = px(MIDDLE_HEIGHT)  # as designed; taller where a panel's rows grew for their text
        self.felt = felt
        way.bind(minimum_height=self._fit_middle)
        felt.bind(minimum_height=self._fit_middle)

        # the seats
        self.seats_row = BoxLayout(orientation="horizontal", spacing=px(6))
        self.seat_tiles: dict[int, SeatTile] = {}
        root.add_widget(self.seats_row)

        # the dealer's buttons: the same commands as the button panel
        buttons, self.buttons = button_row(scale, ROUND_COMMANDS, self.press, height=theme.MIN_TOUCH_PX + 4)
        root.add_widget(buttons)
        self.add_widget(root)

    def _way_row(self, parent: BoxLayout) -> tuple[Label, Label, Label]:
        px = self.scale.px
        row = BoxLayout(orientation="horizontal", spacing=px(8), size_hint_y=None, height=px(WAY_ROW))
        self.way_rows = [*getattr(self, "way_rows", []), row]
        name = TextLabel(font_size=self.scale.font(20), bold=True, size_hint_x=0.3)
        cards = Label(
            font_name=CARD_FONT, font_size=self.scale.font(WAY_CARD_FONT), bold=True, markup=True, size_hint_x=0.45
        )
        value = TextLabel(font_size=self.scale.font(19), color=theme.TEXT_DIM, size_hint_x=0.25)
        row.add_widget(name)
        row.add_widget(cards)
        row.add_widget(value)
        parent.add_widget(row)
        return name, cards, value

    # ---- input -------------------------------------------------------------------------------------------
    def press(self, name: str) -> None:
        view = self.last_view
        if name == "manual_dice":
            self.dialog = DicePad(
                self.scale, self.catalogue, lambda dice: self.controller.command("manual_dice", dice=dice)
            )
            self.dialog.open()
        elif name == "void":
            self.dialog = void_dialog(
                self.scale,
                self.catalogue,
                TABLE_VOID_REASONS,
                lambda reason: self.controller.command("void", reason=reason),
            )
            self.dialog.open()
        elif name == "shake" and view is not None and view.phase is Phase.SHAKING:
            self.controller.command("reshake")
        else:
            self.controller.command(name)

    def pick_card(self, zone: str, index: int) -> None:
        read = self._read_at(zone, index)
        current = read.card if read is not None else None
        title = (
            self.catalogue.text("picker.read", card=current.pretty)
            if current is not None
            else self.catalogue.text("picker.title")
        )
        self.dialog = CardPicker(
            self.scale,
            self.catalogue,
            title,
            lambda card: self.controller.command("correct", zone=zone, index=index, card=card),
            current=current,
            guesses=guesses_of(read),
        )
        self.dialog.open()

    def _read_at(self, zone: str, index: int) -> CardRead | None:
        view = self.last_view
        if view is None:
            return None
        places = [view.house_high, view.house_low, *(p for s in view.seats for p in (s.high, s.low))]
        for place in places:
            if place is not None and place.zone == zone and index < len(place.cards):
                return place.cards[index]
        return None

    def pick_bet(self, seat: int) -> None:
        view = self.last_view
        if view is None:
            return
        current = next((s for s in view.seats if s.seat == seat), None)
        amounts = bet_choices(self._round_controller.table_settings, current.bet if current else 0)
        choices = [(str(a), self.catalogue.text("bb.bet", bet=a)) for a in amounts]
        choices.append(("0", self.catalogue.text("bb.sitting_out")))
        self.dialog = ChoiceDialog(
            self.scale,
            self.catalogue,
            self.catalogue.text("bb.seat", seat=seat),
            choices,
            lambda value: self.controller.command("bet", seat=seat, amount=int(value)),
        )
        self.dialog.open()

    # ---- output ------------------------------------------------------------------------------------------
    @property
    def _round_controller(self) -> Any:
        """The round controller itself (behind the gate that stops commands on a refused journal): read only."""
        return getattr(self.controller, "controller", self.controller)

    def _remember(self, view: BaiBuuView) -> None:
        """The house's result of the last rounds: read from the journal once, then each round as it closes."""
        if self.history is None:
            self.history = last_results(self._round_controller.journal, LAST_ROUNDS)
        closed = view.phase is Phase.CLOSED and view.round_id is not None and view.house_net is not None
        if closed and (not self.history or self.history[0][0] != view.round_id):
            self.history = [(view.round_id, view.house_net), *self.history][:LAST_ROUNDS]

    def _table_line(self, view: BaiBuuView) -> str:
        t = self.catalogue.text
        settings = self._round_controller.table_settings
        playing = [seat for seat in view.seats if seat.in_play]
        nets = [seat.net or 0 for seat in playing]
        parts = [
            t("bb.limits", low=settings.min_bet, high=settings.max_bet),
            t(
                "bb.round_total",
                bets=sum(seat.bet for seat in playing),
                paid=sum(net for net in nets if net > 0),
                taken=sum(-net for net in nets if net < 0),
                commission=sum(seat.commission for seat in playing),
            ),
        ]
        if self.history:
            results = "  ".join(f"#{round_id} {net:+d}" for round_id, net in self.history)
            parts.append(t("bb.last_rounds", results=results))
        return "   ·   ".join(parts)

    def refresh(self) -> None:
        view = self.controller.view()
        self.last_view = view
        t = self.catalogue.text
        self.prompt.text = t(view.prompt)
        self._remember(view)
        # the alert line; with no alert, the table's own display: limits, this round's totals, the last rounds
        self.alert.text = t(view.alert) if view.alert else self._table_line(view)
        self.alert.color = theme.TEXT if view.alert else theme.TEXT_DIM
        self.alert._bg_colour.rgba = theme.alert_background(view.alert.key if view.alert else None)
        if view.alert is not None and view.alert.key == "bb.set_wrong":  # the banner nobody can miss
            self.alert._bg_colour.rgba = theme.ALERT
        self._arrange_middle(view.phase in SETTLED)

        dice = view.dice
        if dice:
            self.dice_text.text = t("bb.dice", a=dice.values[0], b=dice.values[1], c=dice.values[2], total=dice.total)
            if dice.manual:
                self.dice_text.text += f" ({t('bb.dice.manual')})"
            self.first_text.text = (
                t("bb.first", first=dice.first_position) + " · " + t("bb.house_stack", stack=dice.house_stack)
            )
        else:
            self.dice_text.text = ""
            self.first_text.text = ""
        self.table.show(dice, {s.seat for s in view.seats if s.in_play}, self.catalogue)

        self.way_title.text = t("bb.house_way")
        way = view.house_way
        for (name, cards, value), hand, hand_value, key in (
            (self.way_high, way.high if way else None, way.high_value if way else None, "bb.high"),
            (self.way_low, way.low if way else None, way.low_value if way else None, "bb.low"),
        ):
            name.text = t(key)
            cards.text = _cards_markup(hand) if hand else "—"
            value.text = t(hand_value) if hand_value else ""
        if way is None:
            self.way_rule.text = ""
        else:
            rule_key = "rule." + way.rule_name
            rule_name = t(rule_key) if way.rule_name and _known(rule_key) else way.rule_name
            self.way_rule.text = t("rule.line", name=rule_name, line=way.rule)

        self.felt_title.text = t("bb.house_hand") + " · " + t("bb.on_felt")
        problems = []
        if view.house_high and view.house_low:
            self.house_high.show(view.house_high, self.catalogue, t("bb.high"), marked=view.house_misplaced)
            self.house_low.show(view.house_low, self.catalogue, t("bb.low"), marked=view.house_misplaced)
            problems = [
                f"{t(key)}: {t(place.problem)}"
                for key, place in (("bb.high", view.house_high), ("bb.low", view.house_low))
                if place.problem is not None
            ]
        if view.house_set_ok is False:  # the banner says where each card goes; the felt marks the misplaced ones
            self.set_check.text = t("bb.outcome.mis-set")
            self.set_check.color = theme.ALERT
        elif view.house_set_ok:
            self.set_check.text = t(view.house_set_msg) if view.house_set_msg else ""
            self.set_check.color = theme.GOOD
        else:
            self.set_check.text = problems[0] if problems else ""
            self.set_check.color = theme.WARN

        self._show_seats(view.seats)
        self.totals.show(view.seats, self.catalogue)
        enabled = {c.name: c.enabled for c in view.commands}
        for name, button in self.buttons.items():
            button.disabled = not enabled.get(name, False)
            label = "button.reshake" if name == "shake" and view.phase is Phase.SHAKING else "button." + name
            button.text = t(label)

    def _arrange_middle(self, settled: bool) -> None:
        """Once settled the house's panels shrink and the house's totals join them: the seats' amounts lead."""
        px, font = self.scale.px, self.scale.font
        self.middle_height = px(MIDDLE_HEIGHT_SETTLED if settled else MIDDLE_HEIGHT)
        self._fit_middle()
        self.way.size_hint_x = 0.24 if settled else 0.38
        for row in self.way_rows:
            row.height = px(44 if settled else WAY_ROW)
        for _, cards, _ in (self.way_high, self.way_low):
            cards.font_size = font(WAY_CARD_FONT_SETTLED if settled else WAY_CARD_FONT)
        if settled and self.totals.parent is None:
            self.middle.add_widget(self.totals, index=1)  # between the house way and the felt
        elif not settled and self.totals.parent is not None:
            self.middle.remove_widget(self.totals)

    def _fit_middle(self, *_: Any) -> None:
        self.middle.height = max(self.middle_height, self.way.minimum_height, self.felt.minimum_height)

    def _show_seats(self, seats: tuple[SeatView, ...]) -> None:
        wanted = [s.seat for s in seats]
        if list(self.seat_tiles) != wanted:
            self.seats_row.clear_widgets()
            self.seat_tiles = {}
            for seat in wanted:
                tile = SeatTile(self.scale, seat, self.pick_card, self.pick_bet)
                self.seat_tiles[seat] = tile
                self.seats_row.add_widget(tile)
        for seat_view in seats:
            self.seat_tiles[seat_view.seat].show(seat_view, self.catalogue)


class SeatTile(BoxLayout):
    """One seat: its bet, its high and low hands as read, and its result."""

    def __init__(self, scale: theme.Scale, seat: int, on_card: Any, on_bet: Any) -> None:
        super().__init__(orientation="vertical", padding=scale.px(3), spacing=scale.px(4))  # notes clear of frames
        paint_background(self, theme.PANEL, radius=scale.px(10))
        self.scale = scale
        self.seat = seat
        touch = scale.px(theme.MIN_TOUCH_PX)
        self.header = BigButton("nav", scale, font_size=scale.font(19), size_hint_y=None, height=touch)
        self.header.bind(on_release=lambda *_: on_bet(seat))
        self.add_widget(self.header)
        # a place's problem (unsure, waiting for cards) shows in the result area until there is a result
        self.high = LabeledPlace(scale, on_card, card_size=(50, 50), label_width=84, note=False)
        self.low = LabeledPlace(scale, on_card, card_size=(50, 50), label_width=84, note=False)
        self.add_widget(self.high)
        self.add_widget(self.low)
        # The payout tile takes the rest of the seat: the amount, the biggest thing on the screen; a tap says why.
        self.result = PayoutTile(scale)
        self.money = self.result.money
        self.outcome = self.result.outcome
        self.note = self.result.note
        self.result.bind(on_release=lambda *_: self.explain())
        self.reasons: tuple[str, ...] = ()
        self.catalogue: Catalogue | None = None
        self.dialog: Any = None
        self.add_widget(self.result)

    def explain(self) -> None:
        """Tap a result: why, hand by hand against the house (what the dealer tells the player)."""
        if not self.reasons or self.catalogue is None:
            return
        self.dialog = InfoDialog(
            self.scale,
            self.catalogue,
            self.catalogue.text("bb.seat", seat=self.seat),
            [self.catalogue.phrase(reason) for reason in self.reasons],
        )
        self.dialog.open()

    def show(self, view: SeatView, catalogue: Catalogue) -> None:
        t = catalogue.text
        self.catalogue = catalogue
        self.reasons = view.reasons
        self.header.text = (
            t("bb.seat", seat=view.seat) + " · " + (t("bb.bet", bet=view.bet) if view.in_play else t("bb.sitting_out"))
        )
        # each hand named with its value once its two cards are read, as the house way shows the house's
        self.high.show(view.high, catalogue, _named(t("bb.high"), view.high, catalogue))
        self.low.show(view.low, catalogue, _named(t("bb.low"), view.low, catalogue))
        self.high.opacity = self.low.opacity = 1 if view.in_play else 0.3
        problems = [
            f"{t(name)}: {t(place.problem)}"
            for name, place in (("bb.high", view.high), ("bb.low", view.low))
            if place.problem is not None and view.in_play
        ]
        self.result.show(view, catalogue, problems[0] if problems else "")


def _cards_markup(cards: tuple[Card, ...]) -> str:
    parts = []
    for card in cards:
        colour = "ff5a5a" if card.suit is not None and card.suit.is_red else "ffffff"
        parts.append(f"[color={colour}]{card.pretty}[/color]")
    return "  ".join(parts)


LAST_ROUNDS = 5


def _named(name: str, place: Any, catalogue: Catalogue) -> str:
    """A seat's hand name with the hand's value under it ("HIGH" / "8 points") once both its cards are read."""
    cards = [read.card for read in place.cards]
    if len(cards) != 2 or any(card.is_joker for card in cards) or cards[0] == cards[1]:
        return name
    from engine.baibuu.hands import TwoCardHand

    return f"{name}\n{catalogue.phrase(TwoCardHand.of(cards[0], cards[1]).value_text)}"


def last_results(journal: Any, count: int) -> list[tuple[int, int]]:
    """The house's net of the last ``count`` settled Bài Bửu rounds in the journal, newest first."""
    from journal.review import summarize

    try:
        rounds = summarize(journal)
    except Exception:  # a journal that cannot be read stops the kiosk elsewhere; the table line goes without
        return []
    settled = [r for r in rounds if r.game == "baibuu" and r.outcome == "settled" and r.house_net is not None]
    return [(r.round_id, int(r.house_net or 0)) for r in reversed(settled[-count:])]


def _known(key: str) -> bool:
    from kiosk.i18n import TEXTS

    return key in TEXTS


def msg(key: str, **params: Any) -> Msg:
    return Msg(key, params)
