"""The supervisor screen (ID + PIN): recall of the last 10 rounds, verify the journal, void an open round, devices;
and the stop screen a kiosk opens on when its journal failed its check."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from journal.words import HOLD_DISPUTE, hold_words, void_words
from kiosk.i18n import Msg
from kiosk.supervisors import SignInAnswer
from kiosk.ui import theme
from kiosk.ui.dialogs import FirstSupervisorPad, PinPad, void_dialog
from kiosk.ui.screen_camera import camera_detail
from kiosk.ui.widgets import BigButton, TextLabel, paint_background

RECALL_COUNT = 10
SIGNED_IN_SCREENS = ("supervisor", "setup")
"""Screens one sign-in opens together: going from one to another keeps it; any other screen locks."""
VOID_REASONS = ("crash", "device", "misdeal", "dispute")


class Locked:
    """The sign-in gate of the set-up and supervisor screens, over the kiosk's one ``SignInDesk``: each
    supervisor signs in as themself, the screen locks after two minutes without a touch and when it is left."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime

    @property
    def unlocked(self) -> bool:
        return self.runtime.desk.current() is not None

    def ask(self, scale: theme.Scale, then: Any) -> Any:
        """The dialog that signs a supervisor in (or sets up the first one); ``then(message)`` after each try."""
        catalogue = self.runtime.catalogue
        if not self.runtime.config.supervisors:

            def first(supervisor: str, pin: str) -> str | None:
                from engine.errors import InputError

                try:
                    self.runtime.add_first_supervisor(supervisor, pin)
                except InputError as error:  # the ID's or PIN's problem, worded in the screen's language
                    return catalogue.phrase(error.args[0] if len(error.args) == 1 else str(error))
                self.runtime.supervisor_arrived()
                then("")
                return None

            dialog: Any = FirstSupervisorPad(scale, catalogue, first)
        else:

            def sign_in(supervisor: str, pin: str) -> None:
                then(self.try_pin(supervisor, pin))

            dialog = PinPad(scale, catalogue, sign_in, self.runtime.desk.supervisor_ids)
        dialog.open()
        return dialog

    def try_pin(self, supervisor: str, pin: str) -> str:
        """Sign in; answers the message to show ("" when signed in)."""
        answer: SignInAnswer = self.runtime.desk.sign_in(supervisor, pin)
        if answer.ok:
            self.runtime.supervisor_arrived()
            return ""
        return self.runtime.catalogue.text(answer.message_key, left=answer.tries_left, seconds=answer.locked_for_s)

    def lock(self) -> None:
        self.runtime.desk.sign_out()

    def left_screen(self, going_to: str | None) -> None:
        if going_to not in SIGNED_IN_SCREENS:
            self.runtime.desk.lock("the screen was left")

    def signed_in_as(self) -> str:
        """Who is signed in and the countdown to the idle lock (m:ss), or "" when nobody is."""
        who = self.runtime.desk.current()
        if who is None:
            return ""
        minutes, seconds = divmod(self.runtime.desk.locks_in(), 60)
        return self.runtime.catalogue.text("signin.as", who=who, left=f"{minutes}:{seconds:02d}")


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
        self.title = TextLabel(
            font_size=scale.font(26), bold=True, color=theme.PROMPT, size_hint_y=None, height=px(40), grow=True
        )
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
        self.message_label = TextLabel(font_size=scale.font(22), bold=True, size_hint_y=None, height=px(36), grow=True)
        box.add_widget(self.message_label)
        # the recall down to the screen's foot, the devices beside it
        body = BoxLayout(orientation="horizontal", spacing=px(10))
        recall_box = BoxLayout(orientation="vertical", spacing=px(6))
        body.add_widget(recall_box)
        self.recall_title = TextLabel(
            font_size=scale.font(22), bold=True, color=theme.WARN, size_hint_y=None, height=px(32), grow=True
        )
        recall_box.add_widget(self.recall_title)
        from kiosk.ui.recall_frames import RecallFrames
        from kiosk.ui.recall_road import RecallRoad

        self.road = RecallRoad(scale)  # the recalled rounds' results in a row, oldest first
        recall_box.add_widget(self.road)
        self.recall_frames = RecallFrames(scale, runtime.catalogue, self.hold_evidence)
        recall_box.add_widget(self.recall_frames)  # the camera frames the recalled readings were made from
        scroll = ScrollView()
        # as high as its lines, however many (the scroll shows them all): a plain label, never boxed to a height
        self.recall_text = Label(font_size=scale.font(18), size_hint_y=None, halign="left", valign="top",
                                 color=theme.TEXT, markup=False)
        self.recall_text.bind(texture_size=lambda w, s: setattr(w, "height", s[1]))
        self.recall_text.bind(width=lambda w, _: setattr(w, "text_size", (w.width, None)))
        scroll.add_widget(self.recall_text)
        recall_box.add_widget(scroll)
        # a column as high as the recall: a longer list (Khmer wraps the device lines) is drawn smaller, never cut
        self.devices_text = TextLabel(font_size=scale.font(16), valign="top", size_hint_x=0.3, color=theme.TEXT_DIM)
        body.add_widget(self.devices_text)
        box.add_widget(body)
        self.add_widget(box)
        self.road_rounds: list[Any] = []

    # ---- actions -----------------------------------------------------------------------------------------
    def ask_pin(self) -> None:
        self.dialog = self.gate.ask(self.scale, self.signed_in)

    def signed_in(self, message: str) -> None:
        self.message = message
        if self.gate.unlocked:
            self.load_recall()
        self.refresh(force=True)

    def on_leave(self, *args: Any) -> None:
        self.gate.left_screen(self.manager.current if self.manager else None)
        self.recall_lines = []
        self.message = ""

    def open_enrollment(self) -> None:
        from kiosk.ui.screen_enroll import EnrollDialog

        self.dialog = EnrollDialog(self.runtime, self.scale)
        self.dialog.open()

    def lock(self) -> None:
        self.gate.lock()
        self.recall_lines = []
        self.message = ""
        self.journal_bad = False
        self.refresh(force=True)

    def load_recall(self, frames: bool = True) -> None:
        """The recall's lines, and its frames' thumbnails unless ``frames`` is False (a frame shown enlarged stays)."""
        from journal.retention import evidence_index
        from journal.review import recall
        from kiosk.ui.recall_road import RoadRound

        t = self.runtime.catalogue.text
        lines = []
        road = []
        if not self.runtime.journal_readable:
            self.recall_lines = [t("sup.verify_bad", error=self.runtime.recovery.problem or "")]
            return
        held = evidence_index(self.runtime.journal).held
        for detail in recall(self.runtime.journal, RECALL_COUNT):
            summary = detail.summary
            road.append(RoadRound(summary.round_id, summary.outcome, summary.house_net))
            when = summary.begun_at[11:16]
            money = t("sup.house_net", net=f"{summary.house_net:+d}") if summary.house_net is not None else ""
            status = t(f"sup.status.{summary.outcome}") if _known(f"sup.status.{summary.outcome}") else summary.outcome
            replayed = detail.replayed
            check = t("sup.replay_ok") if replayed.agrees else t("sup.replay_bad", error=replayed.disagreement or "")
            reason = summary.void_reason
            phrase = self.runtime.catalogue.phrase
            words = t("void." + reason) if _known("void." + reason) else phrase(void_words(reason))
            why = f" ({words})" if reason else ""
            lines.append(
                t("sup.recall_mark")
                + " "
                + t(
                    "sup.round_line",
                    round=summary.round_id,
                    time=when,
                    game=t("game." + summary.game),
                    status=status + why,
                    summary=f"{money} · {check}",
                )
            )
            hold = held.get(summary.round_id)
            if hold is not None:
                kept = phrase(hold_words(str(hold.payload["reason"])))
                lines.append(f"        {t('sup.held', by=hold.payload['by'], reason=kept)}")
            lines.extend(f"        {t('sup.flag')}: {self.runtime.catalogue.phrase(flag)}" for flag in detail.flags)
            lines.extend(f"        {self.runtime.catalogue.phrase(text)}" for text in detail.replayed.descriptions[-7:])
        self.recall_lines = lines
        self.road_rounds = sorted(road, key=lambda r: r.round_id)
        if frames:
            self.recall_frames.show(self.runtime.journal, self.runtime.journal.round_ids()[-RECALL_COUNT:][::-1])

    def hold_evidence(self, round_id: int) -> None:
        """KEEP FOR A DISPUTE: the round's frames outlive the retention settings; journaled with who asked."""
        from journal.retention import hold

        hold(self.runtime.journal, round_id, by=getattr(self.runtime, "supervisor", "supervisor"),
             reason=HOLD_DISPUTE)  # a code: each screen words it in its own language
        self.load_recall(frames=False)
        self.refresh(force=True)

    def verify(self) -> None:
        outcome = self.runtime.verify_journal()
        self.message = self.runtime.catalogue.text(outcome)
        self.journal_bad = getattr(outcome, "key", "") != "sup.verify_ok"
        self.refresh(force=True)

    def ask_void(self) -> None:
        catalogue = self.runtime.catalogue
        controller = self.runtime.controller
        if not controller.round_open:
            self.message = catalogue.text("sup.no_open")
            self.refresh(force=True)
            return
        self.dialog = void_dialog(self.scale, catalogue, VOID_REASONS, self.void)
        self.dialog.open()

    def void(self, reason: str) -> None:
        controller = self.runtime.controller
        controller.dealer = self.runtime.supervisor
        try:  # the journal keeps the reason's code; each screen words it in its own language
            controller.command("void", reason=reason)
        finally:
            controller.dealer = "dealer"
        if reason == "dispute" and controller.phase.value == "voided" and controller.round_id is not None:
            self.hold_evidence(controller.round_id)
        self.message = self.runtime.catalogue.text(controller.alert) if controller.alert else ""
        self.load_recall()
        self.refresh(force=True)

    # ---- output ------------------------------------------------------------------------------------------
    def refresh(self, force: bool = False) -> None:
        t = self.runtime.catalogue.text
        who = self.runtime.desk.current()
        unlocked = who is not None
        if not unlocked:
            self.recall_lines = []
        self.title.text = t("sup.title") + (" · " + self.gate.signed_in_as() if unlocked else "")
        first = not self.runtime.config.supervisors
        self.unlock_button.text = t("signin.first_button" if first else "setup.pin")
        self.unlock_button.disabled = unlocked
        self.verify_button.text = t("sup.verify")
        self.void_button.text = t("sup.void_open")
        self.lock_button.text = t("sup.lock")
        self.enroll_button.text = t("enroll.title")
        for button in (self.verify_button, self.void_button, self.enroll_button, self.lock_button):
            button.disabled = not unlocked
        if self.runtime.blocked is not None:  # nothing is written to a refused journal: look, do not change
            self.void_button.disabled = self.enroll_button.disabled = True
        if first and not self.message:
            self.message_label.text = t("signin.first_why")
        else:
            self.message_label.text = self.message
        # locked: a refused try; a journal that fails its check is red in every language
        alert = not unlocked or "!" in self.message or (bool(self.message) and getattr(self, "journal_bad", False))
        self.message_label.color = theme.PROMPT if first else theme.ALERT if alert else theme.GOOD
        self.recall_title.text = t("sup.recall", count=RECALL_COUNT) if unlocked else ""
        self.recall_text.text = "\n".join(self.recall_lines) if unlocked else ""
        self.road.show(self.road_rounds if unlocked else [], self.runtime.catalogue)
        if not unlocked:
            self.recall_frames.clear()
        self.devices_text.text = (
            "\n".join(
                [
                    t("sup.devices") + ":",
                    *map(t, self.runtime.devices.diagnostics()),
                    t("status.camera") + ": " + camera_detail(self.runtime.camera.state(), self.runtime.catalogue),
                    t("sup.journal_line", health=Msg(f"health.{self.runtime.health().journal.value}"),
                      detail=self.runtime.journal_words()),
                    *([f"{t('sup.evidence')}: {t(evidence)}"] if (evidence := self.runtime.evidence_words) else []),
                ]
            )
            if unlocked
            else ""
        )


class StoppedScreen(Screen):
    """What a kiosk whose journal failed its check opens on: the problem, no play, and the way to the supervisor."""

    def __init__(self, runtime: Any, scale: theme.Scale, **kwargs: Any) -> None:
        super().__init__(name="stopped", **kwargs)
        self.runtime = runtime
        px = scale.px
        box = BoxLayout(orientation="vertical", padding=px(24), spacing=px(16))
        paint_background(box, theme.BACKGROUND)
        self.title = TextLabel(font_size=scale.font(36), bold=True, color=theme.ALERT, size_hint_y=None, height=px(60))
        self.problem = TextLabel(font_size=scale.font(24), color=theme.TEXT, valign="top")
        self.what = TextLabel(font_size=scale.font(24), color=theme.PROMPT, valign="top")
        self.sign_in_button = BigButton("confirm", scale, size_hint_y=None, height=px(96))
        self.sign_in_button.bind(on_release=lambda *_: self.go_sign_in())
        for widget in (self.title, self.problem, self.what, self.sign_in_button):
            box.add_widget(widget)
        self.add_widget(box)

    def go_sign_in(self) -> None:
        from kivy.app import App

        app = App.get_running_app()
        app.show("supervisor")
        app.screens["supervisor"].ask_pin()

    def refresh(self, force: bool = False) -> None:
        t = self.runtime.catalogue.text
        self.title.text = t("stop.title")
        self.problem.text = self.runtime.catalogue.phrase(self.runtime.recovery.problem or "")
        self.what.text = t("stop.what")
        self.sign_in_button.text = t("stop.sign_in")


def _known(key: str) -> bool:
    from kiosk.i18n import TEXTS

    return key in TEXTS
