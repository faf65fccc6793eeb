"""Table set-up (PIN), titled with the game the draft sets up: the game played and the table; for Bài Bửu the
seats in use, bet limits, commission, copy rule and dice counting direction; for Sâm Lốc the players (2-4), the bet
level, the turn timer (15/20/30 s), the mode and ``quad_beats_pair_of_twos``; for Schmier its options from the
rule book. Each change is journaled by the supervisor who made it and applies from the next round or hand."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from engine.errors import InputError
from kiosk.controller.view import Refused
from kiosk.i18n import Msg
from kiosk.ui import theme
from kiosk.ui.house_edge import edge_text
from kiosk.ui.screen_supervisor import Locked
from kiosk.ui.widgets import BigButton, TextLabel, paint_background

GAME_LINES: dict[str, tuple[tuple[str, ...], ...]] = {
    "baibuu": (("seats",), ("min_bet", "max_bet"), ("default_bet", "commission"), ("copy_rule", "direction")),
    "samloc": (("sl.players", "sl.bet"), ("sl.turn_timer_s", "sl.mode"), ("sl.quad_beats_pair_of_twos",)),
    "schmier": (("sm.trump_anytime",), ("sm.show_dealer_trump_discards",)),
}
"""Each game's settings on the screen, two a line (every row a full 72 px touch target)."""
SL_PLAYERS = (2, 3, 4)
SL_MODES = ("normal", "sam_ngheo_giau")
SL_TIMERS = (15, 20, 30)
BET_STEPS = (1, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
SAVED = Msg("setup.saved")


class SetupScreen(Screen):
    def __init__(self, runtime: Any, scale: theme.Scale, **kwargs: Any) -> None:
        super().__init__(name="setup", **kwargs)
        self.runtime = runtime
        self.scale = scale
        self.gate = Locked(runtime)
        self.dialog: Any = None
        self.message: str | Msg = ""
        self.detail = ""
        """An engine's English reason for a refused save: shown after the message in English only."""
        self.draft: dict[str, Any] = {}
        px = scale.px
        box = BoxLayout(orientation="vertical", padding=px(8), spacing=px(6))
        paint_background(box, theme.BACKGROUND)
        self.title = TextLabel(
            font_size=scale.font(26), bold=True, color=theme.PROMPT, size_hint_y=None, height=px(40), grow=True
        )
        box.add_widget(self.title)
        self.rows: dict[str, tuple[TextLabel, BoxLayout]] = {}
        self.seat_buttons: dict[int, BigButton] = {}
        self.value_buttons: dict[str, BigButton] = {}
        # Two settings a line (the seats alone on theirs), so every row is a full 72 px touch target.
        box.add_widget(self._line(("game", "table_id")))
        self.game_boxes: dict[str, BoxLayout] = {}
        for game, lines in GAME_LINES.items():
            panel = BoxLayout(orientation="vertical", spacing=px(6), size_hint_y=None)
            for keys in lines:
                panel.add_widget(self._line(keys))
            panel.height = len(lines) * px(theme.MIN_TOUCH_PX) + (len(lines) - 1) * px(6)
            self.game_boxes[game] = panel
        self.game_holder = BoxLayout(orientation="vertical", size_hint_y=None,
                                     height=max(p.height for p in self.game_boxes.values()))
        box.add_widget(self.game_holder)
        self.shown_game = ""
        self.edge_label = TextLabel(
            font_size=scale.font(20), color=theme.PROMPT, size_hint_y=None, height=px(34), grow=True
        )
        box.add_widget(self.edge_label)
        self.message_label = TextLabel(font_size=scale.font(22), bold=True, size_hint_y=None, height=px(36), grow=True)
        box.add_widget(self.message_label)
        bottom = BoxLayout(orientation="horizontal", spacing=px(8), size_hint_y=None, height=px(80))
        self.unlock_button = BigButton("confirm", scale)
        self.unlock_button.bind(on_release=lambda *_: self.ask_pin())
        self.save_button = BigButton("confirm", scale)
        self.save_button.bind(on_release=lambda *_: self.save())
        self.lock_button = BigButton("neutral", scale)
        self.lock_button.bind(on_release=lambda *_: self.lock())
        for button in (self.unlock_button, self.save_button, self.lock_button):
            bottom.add_widget(button)
        box.add_widget(bottom)
        self.add_widget(box)
        self.reset_draft()

    def _line(self, keys: tuple[str, ...]) -> BoxLayout:
        px = self.scale.px
        line = BoxLayout(orientation="horizontal", spacing=px(14), size_hint_y=None, height=px(theme.MIN_TOUCH_PX))
        for key in keys:
            line.add_widget(self._row(key))
        return line

    def _row(self, key: str) -> BoxLayout:
        scale, px = self.scale, self.scale.px
        row = BoxLayout(orientation="horizontal", spacing=px(8))
        label = TextLabel(font_size=scale.font(20), size_hint_x=0.17 if key == "seats" else 0.36)
        if key.startswith(("sl.quad", "sm.")):
            label.size_hint_x = 0.6
        row.add_widget(label)
        controls = BoxLayout(orientation="horizontal", spacing=px(6))
        if key == "seats":
            for seat in range(2, 8):
                button = BigButton("nav", scale, text=str(seat))
                button.bind(on_release=lambda _w, s=seat: self.toggle_seat(s))
                self.seat_buttons[seat] = button
                controls.add_widget(button)
        elif key in ("game", "copy_rule", "direction", "sl.mode", "sl.quad_beats_pair_of_twos", "sm.trump_anytime",
                     "sm.show_dealer_trump_discards"):
            button = BigButton("nav", scale, font_size=scale.font(24))
            button.bind(on_release=lambda _w, k=key: self.flip(k))
            self.value_buttons[key] = button
            controls.add_widget(button)
        else:
            minus = BigButton("neutral", scale, text="−")
            minus.bind(on_release=lambda _w, k=key: self.step(k, -1))
            value = BigButton("nav", scale, disabled=False)
            plus = BigButton("neutral", scale, text="+")
            plus.bind(on_release=lambda _w, k=key: self.step(k, +1))
            self.value_buttons[key] = value
            for widget in (minus, value, plus):
                controls.add_widget(widget)
        row.add_widget(controls)
        self.rows[key] = (label, controls)
        return row

    def reset_draft(self) -> None:
        self.draft = {
            **self.runtime.set_up_values(),
            "game": self.runtime.game,
            "table_id": self.runtime.config.table_id,
            "samloc": self.runtime.game_set_up_values("samloc"),
            "schmier": self.runtime.game_set_up_values("schmier"),
        }

    def _get(self, key: str) -> Any:
        """A setting of the draft: Bài Bửu's by its name, Sâm Lốc's as ``sl.name``, Schmier's as ``sm.name``."""
        game, _, name = key.partition(".")
        if game in ("sl", "sm") and name:
            return self.draft["samloc" if game == "sl" else "schmier"].get(name)
        return self.draft.get(key)

    def _set(self, key: str, value: Any) -> None:
        game, _, name = key.partition(".")
        if game in ("sl", "sm") and name:
            self.draft["samloc" if game == "sl" else "schmier"][name] = value
        else:
            self.draft[key] = value

    # ---- input -------------------------------------------------------------------------------------------
    def ask_pin(self) -> None:
        self.dialog = self.gate.ask(self.scale, self.signed_in)

    def signed_in(self, message: str) -> None:
        self.message, self.detail = message, ""
        self.message_label.color = theme.ALERT
        self.reset_draft()
        self.refresh(force=True)

    def on_leave(self, *args: Any) -> None:
        self.gate.left_screen(self.manager.current if self.manager else None)
        self.message, self.detail = "", ""
        self.reset_draft()

    def lock(self) -> None:
        self.gate.lock()
        self.message, self.detail = "", ""
        self.reset_draft()
        self.refresh(force=True)

    def toggle_seat(self, seat: int) -> None:
        seats = set(self.draft["seats"])
        seats.symmetric_difference_update({seat})
        self.draft["seats"] = sorted(seats)
        self.refresh(force=True)

    def flip(self, key: str) -> None:
        options: tuple[Any, ...] = {
            "game": tuple(self.runtime.controllers),
            "copy_rule": ("house", "highest_card"),
            "direction": ("counter_clockwise", "clockwise"),
            "sl.mode": SL_MODES,
        }.get(key, (False, True))
        current = self._get(key)
        current = current if current in options else options[0]
        self._set(key, options[(options.index(current) + 1) % len(options)])
        self.refresh(force=True)

    def step(self, key: str, direction: int) -> None:
        if key == "table_id":
            tables = table_names(self.draft["table_id"])
            index = tables.index(self.draft["table_id"])
            self.draft["table_id"] = tables[max(0, min(len(tables) - 1, index + direction))]
            self.refresh(force=True)
            return
        if key in ("sl.players", "sl.bet", "sl.turn_timer_s"):
            from engine.samloc import BET_LEVELS

            steps = {"sl.players": SL_PLAYERS, "sl.bet": BET_LEVELS, "sl.turn_timer_s": SL_TIMERS}[key]
            current = self._get(key)
            index = steps.index(current) if current in steps else 0
            self._set(key, steps[max(0, min(len(steps) - 1, index + direction))])
            self.refresh(force=True)
            return
        if key == "commission":
            percent = round(self.draft["commission"] * 100) + direction
            self.draft["commission"] = max(0, min(10, percent)) / 100
        else:
            current = self.draft.get(key) or BET_STEPS[-1]
            index = min(range(len(BET_STEPS)), key=lambda i: abs(BET_STEPS[i] - current))
            index = max(0, min(len(BET_STEPS) - 1, index + direction))
            self.draft[key] = BET_STEPS[index]
        self.refresh(force=True)

    def save(self) -> None:
        draft = dict(self.draft)
        default_bet = draft.pop("default_bet")
        game = draft.pop("game")
        table_id = draft.pop("table_id")
        games = {name: dict(draft.pop(name)) for name in ("samloc", "schmier")}
        try:
            by = self.runtime.supervisor
            self.runtime.apply_settings(draft, default_bet, by=by)
            for name, values in games.items():
                self.runtime.apply_game_settings(name, values, by=by)
            self.runtime.switch_game(game, by=by)
            self.runtime.set_table_id(table_id, by=by)
        except Refused as refused:
            self.message, self.detail = refused.msg, ""
            self.message_label.color = theme.ALERT
        except InputError as error:
            self.message, self.detail = Msg("setup.refused"), str(error)
            self.message_label.color = theme.ALERT
        else:
            self.message, self.detail = SAVED, ""
        self.refresh(force=True)

    # ---- output ------------------------------------------------------------------------------------------
    def refresh(self, force: bool = False) -> None:
        t = self.runtime.catalogue.text
        unlocked = self.gate.unlocked
        game = self.draft.get("game", "baibuu")
        table = t("status.table", table=self.runtime.config.table_id)
        self.title.text = " · ".join(
            part for part in (t("setup.title"), t("game." + game), table, self.gate.signed_in_as()) if part
        )
        if game != self.shown_game:  # the settings of the game the draft sets up
            self.game_holder.clear_widgets()
            panel = self.game_boxes.get(game, self.game_boxes["baibuu"])
            self.game_holder.add_widget(panel)
            self.game_holder.height = panel.height
            self.shown_game = game
        labels = {
            "game": "setup.game",
            "table_id": "setup.table_id",
            "seats": "setup.seats",
            "min_bet": "setup.min_bet",
            "max_bet": "setup.max_bet",
            "default_bet": "setup.default_bet",
            "commission": "setup.commission",
            "copy_rule": "setup.copy_rule",
            "direction": "setup.direction",
            "sl.players": "setup.sl.players",
            "sl.bet": "setup.sl.bet",
            "sl.turn_timer_s": "setup.sl.timer",
            "sl.mode": "setup.sl.mode",
            "sl.quad_beats_pair_of_twos": "setup.sl.quad_beats_pair_of_twos",
            "sm.trump_anytime": "setup.sm.trump_anytime",
            "sm.show_dealer_trump_discards": "setup.sm.show_dealer_trump_discards",
        }
        for key, (label, controls) in self.rows.items():
            label.text = t(labels[key])
            controls.disabled = not unlocked
        for seat, button in self.seat_buttons.items():
            button.set_colour(theme.BUTTON_COLOURS["confirm" if seat in self.draft["seats"] else "nav"])
        for key, button in self.value_buttons.items():
            value = self._get(key)
            if key == "sl.mode":
                button.text = t("sl.mode." + str(value))
            elif key == "sl.turn_timer_s":
                button.text = t("setup.sl.seconds", seconds=value)
            elif isinstance(value, bool):
                button.text = t("setup.yes" if value else "setup.no")
            elif key == "commission":
                button.text = f"{round(value * 100)} %"
            elif key == "table_id":
                button.text = str(value)
            elif key == "copy_rule":
                button.text = t("setup.copy." + value)
            elif key == "game":
                button.text = t("game." + value)
            elif key == "direction":
                button.text = t("setup.direction." + value)
            else:
                button.text = "—" if value is None else str(value)
        shown = t(self.message) if isinstance(self.message, Msg) else self.message
        if self.detail and self.runtime.catalogue.language == "en":
            shown += ": " + self.detail
        self.message_label.text = shown
        if game != "baibuu":
            self.edge_label.text = t("setup.sm.target", target=21) if game == "schmier" else ""
        elif "commission" in self.draft and "copy_rule" in self.draft:
            draft = self.draft
            bet, chip = draft.get("default_bet"), draft.get("smallest_chip", 1)
            self.edge_label.text = edge_text(t, draft["commission"], draft["copy_rule"], bet, chip)
        if self.message == SAVED:
            self.message_label.color = theme.GOOD
        self.unlock_button.text = t("setup.pin")
        self.unlock_button.disabled = unlocked
        self.save_button.text = t("setup.save")
        self.save_button.disabled = not unlocked
        self.lock_button.text = t("sup.lock")
        self.lock_button.disabled = not unlocked


def table_names(current: str, count: int = 30) -> list[str]:
    """The table names the set-up offers (T1 … T30), with the current one kept if it is named otherwise."""
    names = [f"T{n}" for n in range(1, count + 1)]
    return names if current in names else [current, *names]
