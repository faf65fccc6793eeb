"""The supervisor's recall, with its evidence: for each recalled round a thumbnail of the camera frame the house
reading and the seats reading were made from. A tap opens the frame full size with the read boxes drawn, to zoom into
(ZOOM + and −, or two fingers; a finger moves it), and a button to keep that round's frames whatever the retention
settings say (a dispute)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kivy.graphics.texture import Texture
from kivy.graphics.transformation import Matrix
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.scatter import Scatter
from kivy.uix.scrollview import ScrollView
from kivy.uix.stencilview import StencilView

from journal.evidence_export import RoundFrame, decode, draw_readings, round_frames
from journal.retention import evidence_index
from journal.store import JournalReader
from kiosk.i18n import Catalogue
from kiosk.ui import theme
from kiosk.ui.dialogs import Dialog
from kiosk.ui.widgets import BigButton, TextLabel, paint_background

THUMB_WIDTH = 240
ZOOM_STEP = 1.5
ZOOM_MOST = 6.0


@dataclass(frozen=True)
class RecalledFrame:
    round_id: int
    what: str
    """``house``, ``seats`` or the places, for the caption."""
    frame: RoundFrame
    held: bool


def recalled_frames(reader: JournalReader, round_ids: Sequence[int]) -> list[RecalledFrame]:
    """The frames the readings of these rounds cite (in the order given, then as first cited)."""
    index = evidence_index(reader)
    found = []
    for round_id in round_ids:
        for frame in round_frames(reader, reader.entries(round_id=round_id, kinds=["cards_read"]), index):
            found.append(RecalledFrame(round_id, _what(frame), frame, round_id in index.held))
    return found


def _what(frame: RoundFrame) -> str:
    zones = [str(entry.payload["zone"]) for entry in frame.readings]
    if all(zone.startswith("house") for zone in zones):
        return "house"
    if all(zone.startswith("seat") for zone in zones):
        return "seats"
    return ", ".join(zones)


def texture_of(image: Any, width: float | None = None) -> Texture:
    """A Kivy texture of a BGR image, scaled down to ``width`` pixels when given."""
    import cv2

    if width is not None and image.shape[1] > width:
        size = (round(width), round(image.shape[0] * width / image.shape[1]))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    texture = Texture.create(size=(image.shape[1], image.shape[0]), colorfmt="bgr")
    texture.blit_buffer(cv2.flip(image, 0).tobytes(), colorfmt="bgr", bufferfmt="ubyte")  # Kivy counts rows up
    return texture


class FrameThumb(ButtonBehavior, BoxLayout):
    """One frame: its picture small (or why there is none) over a caption such as ``#12 house``."""

    def __init__(self, recalled: RecalledFrame, caption: str, scale: theme.Scale, catalogue: Catalogue,
                 **kwargs: Any) -> None:
        super().__init__(orientation="vertical", size_hint=(None, 1), width=scale.px(THUMB_WIDTH), **kwargs)
        self.recalled = recalled
        self.picture: Image | None = None
        self.image: Any = None
        path = recalled.frame.path
        if recalled.frame.status == "kept" and path is not None:
            self.image = decode(path.read_bytes())
        if self.image is not None:
            self.picture = Image(texture=texture_of(self.image, scale.px(THUMB_WIDTH)), fit_mode="contain")
            self.add_widget(self.picture)
        else:
            self.add_widget(TextLabel(text=catalogue.phrase(recalled.frame.status), color=theme.WARN,
                                      halign="center", font_size=scale.font(16)))
        self.caption = TextLabel(text=caption, font_size=scale.font(18), bold=True, halign="center",
                                 size_hint_y=None, height=scale.px(26), grow=True)
        self.add_widget(self.caption)


class RecallFrames(ScrollView):
    """A strip of frame thumbnails under the recall's title, newest round first; empty while locked."""

    def __init__(self, scale: theme.Scale, catalogue: Catalogue, on_hold: Callable[[int], None], **kwargs: Any):
        super().__init__(do_scroll_y=False, size_hint_y=None, height=0, **kwargs)
        self.scale = scale
        self.catalogue = catalogue
        self.on_hold = on_hold
        self.strip = BoxLayout(orientation="horizontal", size_hint_x=None, spacing=scale.px(8))
        self.strip.bind(minimum_width=self.strip.setter("width"))
        self.add_widget(self.strip)
        self.thumbs: list[FrameThumb] = []
        self.dialog: FrameDialog | None = None

    def show(self, reader: JournalReader, round_ids: Sequence[int]) -> None:
        self.clear()
        t = self.catalogue.text
        for recalled in recalled_frames(reader, round_ids):
            caption = t("sup.frame", round=recalled.round_id, what=self.what_words(recalled.what))
            thumb = FrameThumb(recalled, caption, self.scale, self.catalogue)
            thumb.bind(on_release=lambda widget: self.enlarge(widget))
            self.strip.add_widget(thumb)
            self.thumbs.append(thumb)
        self.height = self.scale.px(170) if self.thumbs else 0

    def what_words(self, what: str) -> str:
        """``house``, ``seats`` or the zones a frame was read for, in the screen's language."""
        if what in ("house", "seats"):
            return self.catalogue.text("sup.frame_" + what)
        from kiosk.ui.screen_camera import zone_label

        return ", ".join(zone_label(zone, self.catalogue) for zone in what.split(", "))

    def clear(self) -> None:
        self.strip.clear_widgets()
        self.thumbs = []
        self.height = 0
        if self.dialog is not None:
            self.dialog.dismiss(animation=False)
            self.dialog = None

    def enlarge(self, thumb: FrameThumb) -> None:
        if thumb.image is None:
            return
        drawn = draw_readings(thumb.image.copy(), thumb.recalled.frame.readings)
        self.dialog = FrameDialog(self.scale, self.catalogue, thumb, drawn, self.on_hold)
        self.dialog.open()


class FrameDialog(Dialog):
    """A frame full size with the read boxes; CLOSE, and KEEP FOR A DISPUTE (journaled) for a round not yet held."""

    def __init__(self, scale: theme.Scale, catalogue: Catalogue, thumb: FrameThumb, drawn: Any,
                 on_hold: Callable[[int], None]) -> None:
        t = catalogue.text
        recalled = thumb.recalled
        readings = len(recalled.frame.readings)
        super().__init__(scale, t("sup.frame_title", caption=thumb.caption.text, count=readings))
        self.title_label.font_size = scale.font(22)
        self.picture = Image(texture=texture_of(drawn), fit_mode="contain")
        # the picture in a window of its own, zoomed and moved inside it (never over the buttons)
        self.view = StencilView()
        paint_background(self.view, theme.BACKGROUND)
        self.zoomed = Scatter(do_rotation=False, scale_min=1.0, scale_max=ZOOM_MOST, auto_bring_to_front=False)
        self.zoomed.add_widget(self.picture)
        self.view.add_widget(self.zoomed)
        self.view.bind(size=self._fit, pos=self._fit)
        self.box.add_widget(self.view)
        self.box.add_widget(TextLabel(text=f"SHA-256 {recalled.frame.digest}", font_size=scale.font(15),
                                      color=theme.TEXT_DIM, size_hint_y=None, height=scale.px(24)))
        row = BoxLayout(orientation="horizontal", spacing=scale.px(10), size_hint_y=None, height=scale.px(72))
        self.hold_button = BigButton("void", scale, font_size=scale.font(22),
                                     text=t("sup.frame_held" if recalled.held else "sup.frame_hold"))
        self.hold_button.disabled = recalled.held

        def hold(*_: Any) -> None:
            on_hold(recalled.round_id)
            self.hold_button.text = t("sup.frame_held")
            self.hold_button.disabled = True

        self.hold_button.bind(on_release=hold)
        self.close_button = BigButton("neutral", scale, font_size=scale.font(24), text=t("sup.frame_close"))
        self.close_button.bind(on_release=lambda *_: self.dismiss(animation=False))
        self.zoom_in = BigButton("next", scale, font_size=scale.font(24), text=t("sup.frame_zoom_in"))
        self.zoom_in.bind(on_release=lambda *_: self.zoom(ZOOM_STEP))
        self.zoom_out = BigButton("next", scale, font_size=scale.font(24), text=t("sup.frame_zoom_out"))
        self.zoom_out.bind(on_release=lambda *_: self.zoom(1 / ZOOM_STEP))
        for button in (self.zoom_in, self.zoom_out, self.hold_button, self.close_button):
            row.add_widget(button)
        self.box.add_widget(row)

    def _fit(self, *_: Any) -> None:
        """Unzoomed, the picture fills its window; zooming starts again from there."""
        self.zoomed.transform = Matrix()
        self.zoomed.pos = self.view.pos
        self.zoomed.size = self.picture.size = self.view.size

    def zoom(self, factor: float) -> None:
        """Zoom by ``factor`` about the middle of the window, between the whole picture and ZOOM_MOST times it."""
        wanted = min(ZOOM_MOST, max(1.0, self.zoomed.scale * factor))
        if wanted == 1.0:
            self._fit()
            return
        anchor = self.zoomed.to_local(*self.view.center)
        self.zoomed.apply_transform(Matrix().scale(wanted / self.zoomed.scale, wanted / self.zoomed.scale, 1),
                                    anchor=anchor)
