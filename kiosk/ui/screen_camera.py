"""The live camera view, one tap away: the frame with the zones, each zone's stable cards and the detections."""

from __future__ import annotations

import re
from typing import Any

from kivy.graphics.texture import Texture
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.screenmanager import Screen

from kiosk.i18n import Catalogue, Msg
from kiosk.ui import theme
from kiosk.ui.widgets import TextLabel, paint_background

REFRESH_S = 0.25


class CameraScreen(Screen):
    def __init__(self, runtime: Any, scale: theme.Scale, **kwargs: Any) -> None:
        super().__init__(name="camera", **kwargs)
        self.runtime = runtime
        self.scale = scale
        box = BoxLayout(orientation="vertical", padding=scale.px(8), spacing=scale.px(6))
        paint_background(box, theme.BACKGROUND)
        self.title = TextLabel(
            font_size=scale.font(24), bold=True, color=theme.PROMPT, size_hint_y=None, height=scale.px(36), grow=True
        )
        self.image = Image(fit_mode="contain")
        self.detail = TextLabel(
            font_size=scale.font(20), size_hint_y=None, height=scale.px(32), color=theme.TEXT_DIM, grow=True
        )
        box.add_widget(self.title)
        box.add_widget(self.image)
        box.add_widget(self.detail)
        self.add_widget(box)
        self._shown_at = -1.0

    def refresh(self, force: bool = False) -> None:
        t = self.runtime.catalogue.text
        self.title.text = t("camera.title")
        camera = self.runtime.camera.state()
        self.detail.text = camera_detail(camera, self.runtime.catalogue)
        now = self.runtime.clock.monotonic()
        if not force and now - self._shown_at < REFRESH_S:
            return
        self._shown_at = now
        frame = self._annotated()
        if frame is None:
            self.title.text = t("camera.title") + " · " + t("camera.none")
            return
        import cv2

        rgb = cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)[::-1].copy()  # Kivy textures start at the bottom row
        height, width = rgb.shape[:2]
        texture = self.image.texture
        if texture is None or tuple(texture.size) != (width, height):
            texture = Texture.create(size=(width, height), colorfmt="rgb")
        texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.image.texture = texture
        self.image.canvas.ask_update()

    def _annotated(self) -> Any:
        """The camera frame with its zones named in the screen's language (seat 3 high, not ``seat3.high``)."""
        camera = self.runtime.camera
        reader = getattr(camera, "reader", None)
        if reader is None or getattr(reader, "last_frame", None) is None or not hasattr(reader, "layout"):
            return camera.annotated()
        return annotated_for_screen(camera, self.runtime.catalogue)


def annotated_for_screen(camera: Any, catalogue: Catalogue, draw_text: Any = None) -> Any:
    """The camera's frame with every word on it in the screen's language, shaped: the zones' names, the doubts on
    a reading, and the banner of a table that cannot be read."""
    from kiosk.adapters import problem_words, source_status_words
    from kiosk.ui.shaped_text import draw_on_frame
    from vision.table_reader import FLAG_WORDS

    reader = camera.reader
    names = {name: zone_label(name, catalogue) for name in reader.layout.zone_names}
    flags = {flag: catalogue.text(f"camera.flag.{word}") for flag, word in FLAG_WORDS.items()}
    problem = None
    if reader.snapshot.problem:
        status = camera.source.status
        words = (problem_words(reader.snapshot.problem) if status.ok
                 else source_status_words(getattr(camera.source, "name", "camera"), status.state, status.reason))
        problem = catalogue.text(words)
    return reader.annotate(names=names, draw_text=draw_text or draw_on_frame, problem=problem, flag_words=flags)


def zone_label(zone: str, catalogue: Catalogue) -> str:
    """A camera zone's name as the dealer says it: ``seat3.high`` is "Seat 3 high", ``centre`` "Centre"."""
    match = re.fullmatch(r"(house|seat(\d+))\.(high|low)", zone)
    if match is not None:
        if match.group(1) == "house":
            return catalogue.text(f"zone.house.{match.group(3)}")
        return catalogue.text(f"zone.seat.{match.group(3)}", seat=int(match.group(2)))
    if zone == "centre":
        return catalogue.text("common.centre")
    return zone


def camera_detail(camera: Any, catalogue: Catalogue) -> str:
    """The camera's state for a screen: its source worded in the screen's language when it is working."""
    words = camera.words if camera.words is not None else camera.detail
    return catalogue.text(words) if isinstance(words, Msg) else str(words)
