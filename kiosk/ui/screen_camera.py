"""The live camera view, one tap away: the frame with the zones, each zone's stable cards and the detections."""

from __future__ import annotations

from typing import Any

from kivy.graphics.texture import Texture
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.screenmanager import Screen

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
            font_size=scale.font(24), bold=True, color=theme.PROMPT, size_hint_y=None, height=scale.px(36)
        )
        self.image = Image(fit_mode="contain")
        self.detail = TextLabel(font_size=scale.font(20), size_hint_y=None, height=scale.px(32), color=theme.TEXT_DIM)
        box.add_widget(self.title)
        box.add_widget(self.image)
        box.add_widget(self.detail)
        self.add_widget(box)
        self._shown_at = -1.0

    def refresh(self, force: bool = False) -> None:
        t = self.runtime.catalogue.text
        self.title.text = t("camera.title")
        camera = self.runtime.camera.state()
        self.detail.text = camera.detail
        now = self.runtime.clock.monotonic()
        if not force and now - self._shown_at < REFRESH_S:
            return
        self._shown_at = now
        frame = self.runtime.camera.annotated()
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
