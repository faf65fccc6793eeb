"""The Kivy app: a status bar on top, the current screen, a navigation bar below. It renders; it decides nothing.

Every tick (20 per second) the app asks the runtime to take in device events and camera reads, then shows the
controller's view if it changed. Touches become the same commands the button panel sends.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from kivy.app import App
from kivy.clock import Clock as KivyClock
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from kiosk.controller.view import DeviceHealth
from kiosk.i18n import Catalogue, language_button_text
from kiosk.ui import theme
from kiosk.ui.cues import Cues
from kiosk.ui.widgets import BigButton, StatusBar, TextLabel, paint_background, register_fonts

TICK_SECONDS = 0.05
NAV = ("table", "camera", "setup", "supervisor")


class Runtime(Protocol):
    """What the app needs from the wired-up kiosk (``kiosk.runtime.KioskRuntime``)."""

    catalogue: Catalogue
    game: str

    def tick(self) -> None: ...

    def health(self) -> DeviceHealth: ...

    def status_text(self) -> str: ...

    def make_screens(self, scale: theme.Scale) -> list[Screen]: ...

    def table_screen(self) -> str: ...


Driver = Callable[["KioskApp"], Iterator[float]]
"""A test or demo script: a generator given the app; each ``yield seconds`` waits that long on the Kivy clock."""


class KioskApp(App):
    def __init__(self, runtime: Runtime, driver: Driver | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.runtime = runtime
        self.catalogue = runtime.catalogue
        self.driver = driver
        self.title = "dealer-assist"
        self._driving: Iterator[float] | None = None
        self.screens: dict[str, Screen] = {}

    def build(self) -> BoxLayout:
        register_fonts()
        Window.clearcolor = theme.BACKGROUND
        scale = theme.Scale(Window.height)
        self.scale = scale
        root = BoxLayout(orientation="vertical")
        paint_background(root, theme.BACKGROUND)
        self.status_bar = StatusBar(scale, size_hint_y=None, height=scale.px(46))
        root.add_widget(self.status_bar)
        # a called supervisor is a red banner across the top (in the status bar's place, so the screen below keeps
        # its size), not a word in the status bar
        self.banner = TextLabel(
            font_size=scale.font(28), bold=True, halign="center", size_hint_y=None, height=0, opacity=0
        )
        paint_background(self.banner, theme.ALERT_BG)
        root.add_widget(self.banner)
        self.manager = ScreenManager(transition=NoTransition())
        for screen in self.runtime.make_screens(scale):
            self.screens[screen.name] = screen
            self.manager.add_widget(screen)
        root.add_widget(self.manager)
        nav = BoxLayout(
            orientation="horizontal",
            size_hint_y=None,
            height=scale.px(theme.MIN_TOUCH_PX + 8),
            spacing=scale.px(6),
            padding=(scale.px(6), scale.px(4)),
        )
        paint_background(nav, theme.PANEL)
        self.nav_buttons: dict[str, BigButton] = {}
        for name in NAV:
            if name != "table" and name not in self.screens:
                continue
            button = BigButton("nav", scale, font_size=scale.font(24))
            button.bind(on_release=lambda _w, n=name: self.show(n))
            self.nav_buttons[name] = button
            nav.add_widget(button)
        self.dealer_button: BigButton | None = None
        self.dealer_pad: Any = None
        if getattr(getattr(self.runtime, "config", None), "dealers", None):  # dealers sign in at this table
            self.dealer_button = BigButton("nav", scale, font_size=scale.font(22))
            self.dealer_button.bind(on_release=lambda *_: self.ask_dealer())
            nav.add_widget(self.dealer_button)
        self.language_button = BigButton("neutral", scale, font_size=scale.font(24))
        self.language_button.bind(on_release=lambda *_: self.toggle_language())
        nav.add_widget(self.language_button)
        root.add_widget(nav)
        self.manager.current = self.runtime.table_screen()
        config = getattr(self.runtime, "config", None)
        self.cues = Cues(bool(getattr(config, "sound", False)))
        self.refresh(force=True)
        Window.bind(on_touch_down=self._touched)
        if self.manager.current == "supervisor":  # a kiosk without supervisors: set up the first one now
            KivyClock.schedule_once(lambda _dt: self.screens["supervisor"].ask_pin(), 0)
        KivyClock.schedule_interval(self._tick, TICK_SECONDS)
        if self.driver is not None:
            self._driving = self.driver(self)
            KivyClock.schedule_once(self._drive, 0.5)
        return root

    def on_start(self) -> None:
        """The screen is up: tell systemd, and feed its watchdog from this main loop (a hung screen stops feeding)."""
        from kiosk import service_notify

        service_notify.ready(f"table {getattr(getattr(self.runtime, 'config', None), 'table_id', '')}".strip())
        interval = service_notify.watchdog_interval_s()
        if interval is not None:
            KivyClock.schedule_interval(lambda _dt: service_notify.watchdog_ping(), interval)

    def on_stop(self) -> None:
        from kiosk import service_notify

        service_notify.stopping()

    # ---- navigation and language ---------------------------------------------------------------------------
    def show(self, name: str) -> None:
        if name == "table":
            name = self.runtime.table_screen()
        if name in self.screens:
            self.manager.current = name
            self.refresh(force=True)

    def ask_dealer(self) -> None:
        """The dealer's sign-in pad (ID, then PIN)."""
        from kiosk.ui.dealer_pad import open_dealer_pad

        self.dealer_pad = open_dealer_pad(self.runtime, self.scale, lambda: self.refresh(force=True))

    def toggle_language(self) -> None:
        self.catalogue.toggle()
        self.refresh(force=True)

    # ---- the loop ----------------------------------------------------------------------------------------
    def _touched(self, *_args: Any) -> None:
        """Any touch keeps a signed-in supervisor signed in (two minutes without one locks the screen)."""
        desk = getattr(self.runtime, "desk", None)
        if desk is not None:
            desk.touch()

    def _tick(self, _dt: float) -> None:
        self.runtime.tick()
        if getattr(self.runtime, "restart_for", None):  # a new release is current: systemd starts it between rounds
            self.stop()
            return
        self.cues.watch(self.runtime)
        self.refresh()

    def refresh(self, force: bool = False) -> None:
        t = self.catalogue.text
        self.status_bar.show(self.runtime.health(), self.catalogue, self.runtime.status_text(),
                             dice=getattr(self.runtime, "game", "baibuu") == "baibuu",
                             unsynced_time=self.runtime.time_text() if getattr(
                                 self.runtime, "clock_synchronised", None) is False else None)
        called = bool(getattr(self.runtime, "supervisor_called", False))
        self.banner.text = t("status.called") if called else ""
        self.banner.height = self.scale.px(46) if called else 0
        self.banner.opacity = 1 if called else 0
        self.status_bar.height = 0 if called else self.scale.px(46)
        self.status_bar.opacity = 0 if called else 1
        for name, button in self.nav_buttons.items():
            button.text = t("nav." + name)
            current = self.manager.current.split("-")[0]
            button.set_colour(theme.BUTTON_COLOURS["nav_active" if current == name else "nav"])
        self.language_button.text = language_button_text(self.catalogue.language)
        if self.dealer_button is not None:
            dealer = getattr(self.runtime, "dealer", None)
            self.dealer_button.text = t("nav.dealer", dealer=dealer) if dealer else t("nav.dealer_sign_in")
            self.dealer_button.set_colour(theme.BUTTON_COLOURS["nav" if dealer else "void"])
        screen = self.manager.current_screen
        refresh = getattr(screen, "refresh", None)
        if refresh is not None:
            refresh(force) if _takes_force(refresh) else refresh()

    def _drive(self, _dt: float) -> None:
        if self._driving is None:
            return
        try:
            wait = next(self._driving)
        except StopIteration:
            self._driving = None
            return
        KivyClock.schedule_once(self._drive, max(0.0, float(wait)))

    def screenshot(self, folder: str, name: str) -> str:
        """Save the window as ``folder/name-<size>.png`` and return the path written."""
        os.makedirs(folder, exist_ok=True)
        width, height = Window.size
        written = Window.screenshot(os.path.join(folder, f"{name}-{width}x{height}.png"))
        target = os.path.join(folder, f"{name}-{width}x{height}.png")
        if written and written != target:
            os.replace(written, target)
        return target


def _takes_force(method: Callable[..., Any]) -> bool:
    import inspect

    return "force" in inspect.signature(method).parameters


def run_app(
    runtime: Runtime, size: tuple[int, int] = (1280, 800), fullscreen: bool = False, driver: Driver | None = None
) -> None:
    """Open the window and run until it closes. Call in a fresh process (Kivy keeps state between apps)."""
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("kivy", "exit_on_escape", "0")
    Window.size = size
    Window.left, Window.top = 0, 0  # SDL centres a window: off the screen's edges on a bare X server
    if fullscreen:
        Window.fullscreen = "auto"  # the window exists already (imported above): the config alone comes too late
        KivyClock.schedule_once(_fill_screen, 0.2)
    KioskApp(runtime, driver=driver).run()


def _fill_screen(_dt: float = 0) -> None:
    """``--fullscreen`` on an X server without a window manager (a kiosk's bare X): SDL's fullscreen keeps the window
    at its configured size there, though it reports the desktop's. A borderless window of the desktop's size at 0,0
    fills the screen everywhere (checked under Xvfb: 1920x1080+0+0)."""
    desktop = tuple(Window.system_size)
    Window.fullscreen = False
    Window.borderless = True

    def place(_dt: float) -> None:
        Window.system_size = desktop
        Window.left, Window.top = 0, 0

    KivyClock.schedule_once(place, 0.3)
