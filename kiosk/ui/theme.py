"""Colours and sizes of the kiosk: high contrast on a dark felt-green ground, targets big enough for wet fingers.

Sizes scale with the window height (800 px is the reference), so 1280×800 and 1920×1080 look alike.
"""

from __future__ import annotations

from pathlib import Path

RGBA = tuple[float, float, float, float]


def _hex(code: str, alpha: float = 1.0) -> RGBA:
    code = code.lstrip("#")
    return (int(code[0:2], 16) / 255, int(code[2:4], 16) / 255, int(code[4:6], 16) / 255, alpha)


BACKGROUND = _hex("0b1a14")
PANEL = _hex("15302a")
PANEL_LIGHT = _hex("1f4a3f")
TEXT = _hex("ffffff")
TEXT_DIM = _hex("b8c7c0")
PROMPT = _hex("ffd84d")
ALERT = _hex("ff5252")
ALERT_BG = _hex("5a1010")
GOOD = _hex("3ddc84")
WARN = _hex("ff9f1a")
CARD_FACE = _hex("fbfbf5")
CARD_RED = _hex("d0021b")
CARD_BLACK = _hex("111111")
CARD_EMPTY = _hex("2b4d43")
FIRST = _hex("ffd84d")

BUTTON_COLOURS: dict[str, RGBA] = {
    "shake": _hex("1e6fd9"),
    "reshake": _hex("1e6fd9"),
    "manual_dice": _hex("5b4bc4"),
    "confirm": _hex("1a9c4b"),
    "void": _hex("c62828"),
    "next": _hex("0d7f8c"),
    "nav": _hex("26463d"),
    "nav_active": _hex("3f7a69"),
    "neutral": _hex("37474f"),
    "disabled": _hex("2a3330"),
}

OUTCOME_COLOURS: dict[str, RGBA] = {
    "win": GOOD,
    "natural": GOOD,
    "push": _hex("9ecbff"),
    "lose": ALERT,
    "mis-set": ALERT,
}

HEALTH_COLOURS: dict[str, RGBA] = {"ok": GOOD, "warn": WARN, "down": ALERT, "off": TEXT_DIM}

INFO_BG = _hex("1d4f7a")
INFO_KEYS = frozenset({"alert.resumed"})


def alert_background(key: str | None) -> RGBA:
    """Red behind a problem, blue behind news (a resumed round), nothing when there is no message."""
    if key is None:
        return BACKGROUND
    return INFO_BG if key in INFO_KEYS else ALERT_BG


REFERENCE_HEIGHT = 800.0
MIN_TOUCH_PX = 72  # at 800 px high: about 12 mm on a 15" screen, comfortable with a wet finger


def kivy_font(name: str) -> str:
    """A font file shipped with Kivy (Roboto for text; DejaVu Sans has the suit symbols)."""
    import kivy

    return str(Path(kivy.__file__).parent / "data" / "fonts" / name)


class Scale:
    """Pixel sizes for a window of a given height."""

    def __init__(self, window_height: float) -> None:
        self.factor = max(window_height, 480.0) / REFERENCE_HEIGHT

    def px(self, value: float) -> float:
        return value * self.factor

    def font(self, value: float) -> float:
        return round(value * self.factor)
