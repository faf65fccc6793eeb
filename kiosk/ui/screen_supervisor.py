"""The supervisor screen (PIN): recall of the last 10 rounds, verify the journal, void an open round, devices."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from journal.events import SupervisorSignedIn, SupervisorSignedOut
from kiosk.ui import theme
from kiosk.ui.dialogs import PinPad, void_dialog
from kiosk.ui.widgets import BigButton, TextLabel, paint_background

RECALL_COUNT = 10
VOID_REASONS = ("crash", "device", "misdeal", "dispute")


class Locked:
    """PIN gate shared by the set-up and supervisor screens; signing in and out is journaled."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime
        self.unlocked = False

    def try_pin(self, pin: str) -> bool:
        if self.runtime.config.check_pin(pin):
            self.unlocked = True
            self.runtime.journal.append(SupervisorSignedIn(supervisor="supervisor"))
            self.runtime.supervisor_arrived()
            return True
        return False

    def lock(self) -> None:
        if self.unlocked:
            self.runtime.journal.append(SupervisorSignedOut(supervisor="supervisor"))
        self.unlocked = False


class SupervisorScreen(Screen):
    def __init__(self, runtime: Any, scale: theme.Scale, **kwargs: Any) -> None:
        super().__init__(name="supervisor", **kwargs)
        self.runtime = runtime
        self.scale = scale
        self.gate = Locked(runtime)
        self.message = ""
        self.recall_lines: list[str] = []
        self.dialog: Any = None
        px = scale.px
        box = BoxLayout(orientation="vertical", padding=px(8), spacing=px(6))
        paint_background(box, theme.BACKGROUND)
        self.title = TextLabel(font_size=scale.font(26), bold=True, color=theme.PROMPT, size_hint_y=None, height=px(40))
        box.add_widget(self.title)
        row = BoxLayout(orientation="horizontal", spacing=px(8), size_hint_y=None, height=px(84))
        self.unlock_button = BigButton("confirm", scale)
        self.unlock_button.bind(on_release=lambda *_: self.ask_pin())
        self.verify_button = BigButton("next", scale, font_size=scale.font(24))
        self.verify_button.bind(on_release=lambda *_: self.verify())
        self.void_button = BigButton("void", scale, font_size=scale.font(24))
        self.void_button.bind(on_release=lambda *_: self.ask_void())
        self.lock_button = BigButton("neutral", scale, font_size=scale.font(24))
        self.lock_button.bind(on_release=lambda *_: self.lock())
        self.enroll_button = BigButton("neutral", scale, font_size=scale.font(24))
        self.enroll_button.bind(on_release=lambda *_: self.open_enrollment())
        for button in (self.unlock_button, self.verify_button, self.void_button, self.enroll_button, self.lock_button):
            row.add_widget(button)
        box.add_widget(row)
        self.message_label = TextLabel(font_size=scale.font(22), bold=True, size_hint_y=None, height=px(36))
        box.add_widget(self.message_label)
        self.recall_title = TextLabel(
            font_size=scale.font(22), bold=True, color=theme.WARN, size_hint_y=None, height=px(32)
        )
        box.add_widget(self.recall_title)
        scroll = ScrollView()
        self.recall_text = TextLabel(font_size=scale.font(18), size_hint_y=None, valign="top", markup=False)
        self.recall_text.bind(texture_size=lambda w, s: setattr(w, "height", max(s[1], px(100))))
        self.recall_text.bind(width=lambda w, _: setattr(w, "text_size", (w.width, None)))
        scroll.add_widget(self.recall_text)
        box.add_widget(scroll)
        self.devices_text = TextLabel(
            font_size=scale.font(16), size_hint_y=None, height=px(110), valign="top", color=theme.TEXT_DIM
        )
        box.add_widget(self.devices_text)
        self.add_widget(box)

    # ---- actions -----------------------------------------------------------------------------------------
    def ask_pin(self) -> None:
        catalogue = self.runtime.catalogue
        self.dialog = PinPad(self.scale, catalogue, self.enter_pin)
        self.dialog.open()

    def enter_pin(self, pin: str) -> None:
        if self.gate.try_pin(pin):
            self.message = ""
            self.load_recall()
        else:
            self.message = self.runtime.catalogue.text("setup.pin_wrong")
        self.refresh(force=True)

    def open_enrollment(self) -> None:
        from kiosk.ui.screen_enroll import EnrollDialog

        self.dialog = EnrollDialog(self.runtime, self.scale)
        self.dialog.open()

    def lock(self) -> None:
        self.gate.lock()
        self.recall_lines = []
        self.message = ""
        self.refresh(force=True)

    def load_recall(self) -> None:
        from journal.review import recall

        t = self.runtime.catalogue.text
        lines = []
        for detail in recall(self.runtime.journal, RECALL_COUNT):
            summary = detail.summary
            when = summary.begun_at[11:16]
            money = t("sup.house_net", net=f"{summary.house_net:+d}") if summary.house_net is not None else ""
            status = summary.outcome.upper()
            replayed = detail.replayed
            check = t("sup.replay_ok") if replayed.agrees else t("sup.replay_bad", error=replayed.error or "")
            why = f" ({summary.void_reason})" if summary.void_reason else ""
            lines.append(
                "RECALL "
                + t(
                    "sup.round_line",
                    round=summary.round_id,
                    time=when,
                    game=t("game." + summary.game),
                    status=status + why,
                    summary=f"{money} · {check}",
                )
            )
            lines.extend(f"        {text}" for text in detail.replayed.descriptions[-7:])
        self.recall_lines = lines

    def verify(self) -> None:
        t = self.runtime.catalogue.text
        report = self.runtime.journal.verify()
        if report.ok:
            self.message = t("sup.verify_ok", events=report.events)
        else:
            self.message = t("sup.verify_bad", error=report.problem)
        self.refresh(force=True)

    def ask_void(self) -> None:
        catalogue = self.runtime.catalogue
        controller = self.runtime.active
        if controller.round_id is None or controller.phase.value in ("closed", "voided", "ready"):
            self.message = catalogue.text("sup.no_open")
            self.refresh(force=True)
            return
        self.dialog = void_dialog(self.scale, catalogue, VOID_REASONS, self.void)
        self.dialog.open()

    def void(self, reason: str) -> None:
        controller = self.runtime.active
        text = self.runtime.catalogue.text("void." + reason)
        controller.dealer = "supervisor"
        try:
            controller.command("void", reason=text)
        finally:
            controller.dealer = "dealer"
        self.message = self.runtime.catalogue.text(controller.alert) if controller.alert else ""
        self.load_recall()
        self.refresh(force=True)

    # ---- output ------------------------------------------------------------------------------------------
    def refresh(self, force: bool = False) -> None:
        t = self.runtime.catalogue.text
        unlocked = self.gate.unlocked
        self.title.text = t("sup.title")
        self.unlock_button.text = t("setup.pin")
        self.unlock_button.disabled = unlocked
        self.verify_button.text = t("sup.verify")
        self.void_button.text = t("sup.void_open")
        self.lock_button.text = t("sup.lock")
        from kiosk.ui.screen_enroll import TEXTS as ENROLL_TEXTS

        self.enroll_button.text = ENROLL_TEXTS["title"][self.runtime.catalogue.language == "vi"]
        for button in (self.verify_button, self.void_button, self.enroll_button, self.lock_button):
            button.disabled = not unlocked
        self.message_label.text = self.message
        self.message_label.color = theme.ALERT if "!" in self.message or "ALTERED" in self.message else theme.GOOD
        self.recall_title.text = t("sup.recall", count=RECALL_COUNT) if unlocked else ""
        self.recall_text.text = "\n".join(self.recall_lines) if unlocked else ""
        self.devices_text.text = (
            "\n".join(
                [
                    t("sup.devices") + ":",
                    *self.runtime.devices.diagnostics(),
                    "camera: " + self.runtime.camera.state().detail,
                ]
            )
            if unlocked
            else ""
        )
