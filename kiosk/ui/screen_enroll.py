"""Deck enrollment on the kiosk (supervisor, behind the PIN): capture the spread deck from the camera, check the faces
in a grid, fix one by touch on the card picker, save the deck profile, start learning in the background.

A thin view over ``vision.enroll.confirm.ConfirmController``: every touch becomes a controller call, and the grid is
redrawn from the controller's tiles. Every text comes from the kiosk's catalogue: the deck's problems are worded
from the controller's own findings, and an error the vision code raises (in English) is shown as what failed, with
its English detail on the English screen only.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.clock import Clock as KivyClock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from engine.cards import Card
from engine.errors import InputError
from kiosk.i18n import TEXTS, Msg
from kiosk.ui import theme
from kiosk.ui.dialogs import CardPicker, Dialog
from kiosk.ui.widgets import CARD_FONT, BigButton, TextLabel

STATE_COLOURS = {"ok": theme.GOOD, "look": theme.WARN, "duplicate": theme.ALERT, "unnamed": theme.ALERT}
TILE_WIDTH = 96


class EnrollDialog(Dialog):
    def __init__(self, runtime: Any, scale: theme.Scale, frame_source: Callable[[], Any] | None = None,
                 deck_name: str | None = None) -> None:
        self.runtime = runtime
        self.catalogue = runtime.catalogue
        super().__init__(scale, self.text("title"))
        self.root_dir: Path = Path(runtime.data_dir)
        self.frame_source = frame_source or self._camera_frame
        self.model_dir: Path | None = None  # the model that finds the cards and proposes identities (default: active)
        self._finder_of: Path | None = None
        self._card_finder: Any = None
        self.controller: Any = None
        self.profile: Any = None
        self.job: Any = None
        self.message = self.text("hint")
        self.tiles: dict[int, Button] = {}
        self.picker: CardPicker | None = None
        px = scale.px
        top = BoxLayout(orientation="horizontal", spacing=px(8), size_hint_y=None, height=px(80))
        deck_name = deck_name if deck_name is not None else self.text("default_name")  # a name in the screen's words
        self.name_input = TextInput(text=deck_name, multiline=False, font_size=scale.font(26), size_hint_x=1.6)
        self.capture_button = BigButton("confirm", scale, font_size=scale.font(24))
        self.capture_button.bind(on_release=lambda *_: self.capture())
        self.save_button = BigButton("next", scale, font_size=scale.font(24))
        self.save_button.bind(on_release=lambda *_: self.save())
        self.learn_button = BigButton("next", scale, font_size=scale.font(24))
        self.learn_button.bind(on_release=lambda *_: self.learn())
        self.activate_button = BigButton("confirm", scale, font_size=scale.font(24))
        self.activate_button.bind(on_release=lambda *_: self.activate())
        self.close_button = BigButton("void", scale, font_size=scale.font(24))
        self.close_button.bind(on_release=lambda *_: self.dismiss())
        top.add_widget(self.name_input)
        for button in (self.capture_button, self.save_button, self.learn_button, self.activate_button,
                       self.close_button):
            top.add_widget(button)
        self.box.add_widget(top)
        self.message_label = TextLabel(font_size=scale.font(18), bold=True, size_hint_y=None, height=px(96),
                                       valign="top")
        self.message_label.bind(width=lambda w, _: setattr(w, "text_size", (w.width, None)))
        self.box.add_widget(self.message_label)
        scroll = ScrollView()
        self.grid = GridLayout(cols=10, spacing=px(6), size_hint_y=None)
        self.grid.bind(minimum_height=self.grid.setter("height"))
        scroll.add_widget(self.grid)
        self.box.add_widget(scroll)
        self._poll = KivyClock.schedule_interval(lambda _dt: self.refresh_job(), 1.0)
        self.bind(on_dismiss=lambda *_: self._poll.cancel())
        self.redraw()

    def text(self, key: str, **values: Any) -> str:
        return self.catalogue.text("enroll." + key, **values)

    def failed(self, key: str, error: Exception) -> str:
        """What failed, in the screen's language; the vision code's English reason follows on the English screen."""
        detail = f": {error}" if self.catalogue.language == "en" and str(error) else ""
        return self.text(key) + detail

    def problems(self) -> list[str]:
        """What keeps the deck from being saved, worded from the controller's findings."""
        from vision.enroll.confirm import LOOK

        controller = self.controller
        if controller is None:
            return []
        check = controller.check
        found: list[Msg] = []
        if check.missing:
            found.append(Msg("enroll.missing", {"count": len(check.missing),
                                                "cards": " ".join(str(c) for c in check.missing)}))
        if check.unidentified:
            found.append(Msg("enroll.unnamed", {"count": check.unidentified}))
        look = [t for t in controller.tiles() if t.state == LOOK]
        if look:
            found.append(Msg("enroll.look", {"count": len(look),
                                             "faces": " ".join(f"#{t.index}={t.label}" for t in look[:12])}))
        return [self.catalogue.text(msg) for msg in found]

    def learning_status(self, status: dict[str, Any]) -> str:
        """The background learning's progress line (``vision.enroll.learn.format_status``'s, worded)."""
        progress = float(status.get("progress", 0.0))
        filled = round(progress * 30)
        parts = ["█" * filled + "░" * (30 - filled), f"{progress:4.0%}"]
        for kind in ("state", "stage"):
            key = f"{kind}.{status.get(kind)}"
            if "enroll." + key in TEXTS:
                parts.append(self.text(key))
        left = status.get("seconds_left")
        if isinstance(left, int | float):
            parts.append(self.text("eta", min=int(left) // 60, s=f"{int(left) % 60:02d}"))
        if status.get("epoch"):
            parts.append(self.text("epoch", epoch=status["epoch"], epochs=status.get("epochs")))
        if status.get("error") and self.catalogue.language == "en":
            parts.append(f"({status['error']})")
        return "  ".join(parts)

    def _camera_frame(self) -> Any:
        return self.runtime.camera.reader.last_frame

    def _draft(self) -> Any:
        from vision.enroll.confirm import ConfirmController
        from vision.enroll.profile import Draft

        name = self.name_input.text.strip() or self.text("default_name")
        if self.controller is None or self.controller.draft.name != name:
            self.controller = ConfirmController(Draft.open(name, self.root_dir))
            self.controller.subscribe(self.redraw)
        return self.controller

    # ---- touches ---------------------------------------------------------------------------------------------
    def _finder(self) -> Any:
        """The card finder of the model that proposes identities (default: the active one), opened once; None where
        no model can be opened (the cards are then found by their outline on a plain table)."""
        from vision.active_model import active_model_dir
        from vision.enroll.find import open_finder

        folder = self.model_dir or active_model_dir(self.root_dir)
        if self._finder_of != folder:
            self._finder_of, (self._card_finder, _why) = folder, open_finder(folder)
        return self._card_finder

    def capture(self) -> None:
        from vision.enroll.capture import Proposer, capture_frame
        from vision.enroll.profile import slug_of

        try:
            slug_of(self.name_input.text.strip() or self.text("default_name"))
        except InputError:
            self.message = self.text("bad_name")
            self.redraw()
            return
        frame = self.frame_source()
        if frame is None:
            self.message = self.text("no_frame")
            self.redraw()
            return
        finder = self._finder()
        proposer = Proposer(reader=finder.reader) if finder is not None else None
        try:
            result = capture_frame(self._draft().draft, frame, proposer, finder=finder)
        except InputError as error:
            self.message = self.failed("failed.capture", error)
        else:
            if not result.added:
                words = [self.text("no_cards")]
            else:  # the rest are cards cut by the picture's edge or too close to tell apart
                cut = len(result.problems)
                words = [self.text("found", n=len(result.added)), *([self.text("cut", count=cut)] if cut else [])]
            self.message = "  ".join(words)
        self.redraw()

    def open_picker(self, index: int) -> None:
        self.picker = CardPicker(self.scale, self.catalogue, self.text("pick", n=index),
                                 lambda card: self.fix(index, card), allow_joker=True, allow_remove=True)
        self.picker.open()

    def fix(self, index: int, card: Card | None) -> None:
        self._draft().fix(index, card)

    def save(self) -> None:
        try:
            self.profile = self._draft().save(self.runtime.clock)
        except InputError as error:
            self.message = self.failed("failed.save", error)
        else:
            self.message = self.text("saved", ref=self.profile.ref)
        self.redraw()

    def learn(self) -> None:
        from vision.enroll.learn import start_in_background

        if self.profile is None:
            return
        try:
            self.job = start_in_background(self.profile.ref, root=self.root_dir)
        except InputError as error:
            self.message = self.failed("failed.learn", error)
        else:
            self.message = self.text("learning")
        self.redraw()

    def learnt_model(self) -> Path | None:
        """The newest model learnt for the saved profile, once its job is done."""
        from vision.enroll.registry import list_models

        if self.profile is None:
            return None
        learnt = [folder for _n, folder, info in list_models(self.root_dir) if info.get("profile") == self.profile.ref]
        return learnt[-1] if learnt else None

    def activate(self) -> None:
        """Check the new model and the active one on the spread now under the camera (a second spread, not the one
        captured); switch only if the new one reads at least as many cards right; the journal records it first."""
        from kiosk.enroll_journal import record_switch
        from vision.enroll.registry import active_model
        from vision.enroll.verify import active_reader, decide_and_activate, model_reader, spread_truth, verify_reader
        from vision.reader import reload_default_reader

        if any(table.round_open for table in self.runtime.controllers.values()):
            self.message = self.text("between_rounds")  # a round is read by one model from its start to its end
            self.redraw()
            return
        candidate = self.learnt_model()
        frame = self.frame_source()
        if candidate is None or frame is None:
            self.message = self.text("no_frame") if frame is None else ""
            self.redraw()
            return
        try:
            truth = spread_truth([frame], self.profile, finder=self._finder())
            current = active_model(self.root_dir)
            old = verify_reader(active_reader(current.folder), [frame], truth, current.name)
            new = verify_reader(model_reader(candidate), [frame], truth, candidate.name)
            active, switch = decide_and_activate(
                candidate, self.profile, old, new, by=self.runtime.supervisor, root=self.root_dir,
                record=lambda s: record_switch(self.runtime.journal, s))
        except InputError as error:
            self.message = self.failed("failed.check", error)
        else:
            reload_default_reader()
            self.runtime.camera.reader.still.forget()  # readings kept for still places came from the old model
            self.message = self.text("activated", name=active.name, before=switch.right_before,
                                     after=switch.right_after, cards=switch.cards_checked)
        self.redraw()

    # ---- output ----------------------------------------------------------------------------------------------
    def refresh_job(self) -> None:
        if self.job is not None:
            self.message_label.text = self.text("learning") + "\n" + self.learning_status(self.job.status())

    def redraw(self) -> None:
        controller = self.controller
        self.capture_button.text = self.text("capture")
        self.save_button.text = self.text("save")
        self.learn_button.text = self.text("learn")
        self.close_button.text = self.text("close")
        self.save_button.disabled = controller is None or not controller.can_save
        self.learn_button.disabled = self.profile is None
        self.activate_button.text = self.text("activate")
        self.activate_button.disabled = self.learnt_model() is None
        problems = self.problems()
        self.message_label.text = "\n".join([self.message, *(p[:150] for p in problems[:2])])
        self.message_label.color = theme.ALERT if problems else theme.GOOD
        self.grid.clear_widgets()
        self.tiles = {}
        if controller is None:
            return
        px = self.scale.px
        for tile in controller.tiles():
            button = Button(text=f"#{tile.index} {tile.label}", font_size=self.scale.font(20), bold=True,
                            font_name=CARD_FONT,
                            background_normal=str(tile.face), background_down=str(tile.face),
                            color=STATE_COLOURS.get(tile.state, theme.TEXT), size_hint_y=None, height=px(140),
                            valign="bottom", halign="center")
            button.bind(size=lambda w, _: setattr(w, "text_size", (w.width, w.height - 6)))
            button.bind(on_release=lambda _w, i=tile.index: self.open_picker(i))
            self.tiles[tile.index] = button
            self.grid.add_widget(button)
