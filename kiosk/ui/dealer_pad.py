"""The dealer signing in at the table: their ID (badge number), then their PIN, on the screen's number pad.

The nav bar's DEALER button opens it; a dealer taking over the table signs in over the one before (who is journaled
as relieved), and a dealer leaving with nobody to take over signs out there. Every round begun is journaled with
the ID of the dealer signed in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.i18n import Catalogue
from kiosk.ui import theme
from kiosk.ui.dialogs import Dialog, _number_keys
from kiosk.ui.widgets import CARD_FONT, BigButton


class DealerPad(Dialog):
    """ID, then PIN; ``on_pin(id, pin)`` answers "" when signed in (the pad closes) or the message to show."""

    def __init__(self, scale: theme.Scale, catalogue: Catalogue, on_pin: Callable[[str, str], str],
                 signed_in: str | None = None, on_sign_out: Callable[[], None] | None = None) -> None:
        super().__init__(scale, catalogue.text("dealer.id"))
        self.catalogue = catalogue
        self.on_pin = on_pin
        self.step = "id"
        self.entered = {"id": "", "pin": ""}
        self.shown = Label(text="", font_size=scale.font(44), size_hint_y=None, height=scale.px(60),
                           font_name=CARD_FONT)  # Roboto has no ●
        self.box.add_widget(self.shown)
        self.problem = Label(text="", font_size=scale.font(24), bold=True, color=theme.ALERT, size_hint_y=None,
                             height=scale.px(36))
        self.box.add_widget(self.problem)
        self.keys = _number_keys(self.box, scale, self.press, catalogue.text("button.ok"))
        below = BoxLayout(orientation="horizontal", spacing=scale.px(8), size_hint_y=None, height=scale.px(80))
        self.sign_out: BigButton | None = None
        if signed_in is not None and on_sign_out is not None:  # the dealer leaving with nobody to take over
            self.sign_out = BigButton("neutral", scale, text=catalogue.text("dealer.sign_out", dealer=signed_in))
            self.sign_out.bind(on_release=lambda *_: (self.dismiss(animation=False), on_sign_out()))
            below.add_widget(self.sign_out)
        cancel = BigButton("void", scale, text=catalogue.text("button.cancel"))
        cancel.bind(on_release=lambda *_: self.dismiss(animation=False))
        below.add_widget(cancel)
        self.box.add_widget(below)
        self._show()

    def press(self, key: str) -> None:
        digits = self.entered[self.step]
        if key == "OK":
            self._next()
            return
        if key == "⌫" and not digits and self.step == "pin":  # back to the ID (a mistyped badge number)
            self.step = "id"
            self._show()
            return
        if key == "⌫":
            digits = digits[:-1]
        elif len(digits) < (10 if self.step == "id" else 12):
            digits += key
        self.entered[self.step] = digits
        self._show()

    def _next(self) -> None:
        if not self.entered[self.step]:
            return
        if self.step == "id":
            self.step = "pin"
            self.problem.text = ""
        else:
            message = self.on_pin(self.entered["id"], self.entered["pin"])
            self.entered["pin"] = ""
            if not message:
                self.dismiss(animation=False)
                return
            self.problem.text = message
        self._show()

    def _show(self) -> None:
        if self.step == "id":
            self.title_label.text = self.catalogue.text("dealer.id")
            self.shown.text = self.entered["id"]
        else:
            self.title_label.text = self.catalogue.text("dealer.pin", dealer=self.entered["id"])
            self.shown.text = "●" * len(self.entered["pin"])


def open_dealer_pad(runtime: Any, scale: theme.Scale, then: Callable[[], None]) -> DealerPad:
    """The pad over the runtime's dealer desk; ``then()`` after a dealer signed in or out."""
    catalogue = runtime.catalogue

    def sign_in(dealer: str, pin: str) -> str:
        answer = runtime.dealer_sign_in(dealer, pin)
        if answer.ok:
            then()
            return ""
        return str(catalogue.text(answer.message_key, left=answer.tries_left, seconds=answer.locked_for_s))

    def sign_out() -> None:
        runtime.dealer_sign_out()
        then()

    pad = DealerPad(scale, catalogue, sign_in, runtime.dealer, sign_out)
    pad.open()
    return pad
