"""Text that any of the kiosk's three scripts can be drawn in: Latin with Vietnamese marks, Khmer, card symbols.

Kivy's default text provider (SDL2_ttf) does not shape Khmer: a subscript consonant (coeng) or a vowel sign comes
out as a loose mark. Pillow's FreeType with libraqm (HarfBuzz) shapes it right, so every label of the kiosk is
drawn here: the text is cut into runs by the first font that has each character (the label's own font, then a
Khmer font, then DejaVu Sans for ● ♣ ✔ and the like), and each run is shaped whole and drawn on one baseline.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from kiosk.ui.line_breaks import break_between_words


def _packaged_khmer() -> str | None:
    """Noto Sans Khmer from its PyPI package: one variable file with a real bold (a weight axis) and line metrics
    that hold its tallest marks."""
    try:
        import fontpkg_noto_sans_khmer
    except ImportError:
        return None
    return str(fontpkg_noto_sans_khmer.ROOT / "files" / "NotoSansKhmer[wdth,wght].ttf")


# The Khmer fonts tried, the first found used: Noto Sans Khmer (the package, or Debian's fonts-noto-core), then
# Debian's Khmer OS (fonts-khmeros), which has no bold.
KHMER_FONTS = tuple(
    path for path in (
        _packaged_khmer(),
        "/usr/share/fonts/truetype/noto/NotoSansKhmer-Regular.ttf",
        "/usr/share/fonts/truetype/khmeros/KhmerOS.ttf",
        "/usr/share/fonts/truetype/khmeros/KhmerOSsys.ttf",
    ) if path
)
# A regular face's bold file where it is a file of its own (a variable font carries its bold on its weight axis).
BOLD_FILES = {
    "DejaVuSans.ttf": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "Roboto-Regular.ttf": "Roboto-Bold.ttf",
    "NotoSansKhmer-Regular.ttf": "NotoSansKhmer-Bold.ttf",
}
# Characters that belong to the character before them whatever font has them (joiners, variation selectors).
_JOINERS = {"\u200b", "\u200c", "\u200d", "\ufe0e", "\ufe0f"}


def kivy_font_path(name: str) -> str:
    import kivy

    return str(Path(kivy.__file__).parent / "data" / "fonts" / name)


def khmer_font() -> str | None:
    return next((path for path in KHMER_FONTS if Path(path).is_file()), None)


def fallback_fonts() -> tuple[str, ...]:
    """The fonts tried, in order, for a character the label's own font lacks."""
    khmer = khmer_font()
    return tuple(path for path in (khmer, kivy_font_path("DejaVuSans.ttf")) if path)


@functools.cache
def coverage(path: str) -> frozenset[int]:
    """The code points a font file has a glyph for."""
    import logging

    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools").setLevel(logging.WARNING)  # its table-by-table debug lines flood the kiosk's log
    with TTFont(path, lazy=True, fontNumber=0) as font:
        cmap = font.getBestCmap() or {}
    return frozenset(cmap)


def bold_file(path: str) -> str | None:
    """The bold face of a font file: the file itself when it is bold or variable (its weight axis), else its bold
    sibling where one is installed; None when the face has no bold."""
    name = Path(path).name
    if "bold" in name.lower() or "wght" in name:
        return path
    sibling = BOLD_FILES.get(name)
    if sibling is None:
        return None
    bold = Path(path).with_name(sibling) if "/" not in sibling else Path(sibling)
    return str(bold) if bold.is_file() else None


@functools.lru_cache(maxsize=256)
def _font(path: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font at ``size`` px; ``bold`` draws a bold face (a variable font set to its Bold weight, or the bold
    file), never a regular one stroked thicker, which smears accents and Khmer signs."""
    if bold:
        path = bold_file(path) or path
    font = ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.RAQM)
    if "wght" in Path(path).name:
        font.set_variation_by_name("Bold" if bold else "Regular")
    return font


# Khmer clusters that reach deepest under the baseline: a consonant with a subscript (coeng) and a vowel below it.
DEEP_KHMER = "ស្អុយ ង្គ្រូ ញ្ញុ ញ្ចូ ច្ចុ ខ្ញុំ ក្ស្ត្រ"


def metrics(path: str, size: int) -> tuple[int, int]:
    """Ascent and descent of a line in the font at ``size`` px, as the font itself gives them. A Khmer font's own
    line (its horizontal header) does not reach as deep as a subscript with a vowel below it (ស្អុយ): a Khmer
    line's descent is how deep the font draws those clusters, so no mark of a last line is cut."""
    font = _font(path, size)
    ascent, descent = font.getmetrics()
    if path in KHMER_FONTS:
        descent = max(descent, font.getbbox(DEEP_KHMER, anchor="ls")[3])
    return ascent, descent


def font_chain(primary: str | None) -> tuple[str, ...]:
    chain = [primary] if primary else []
    chain += [path for path in fallback_fonts() if path not in chain]
    return tuple(chain)


def missing_glyphs(text: str, primary: str | None = None) -> set[str]:
    """The characters of ``text`` no font of the kiosk can draw (they would show as empty boxes)."""
    chain = font_chain(primary or kivy_font_path("Roboto-Regular.ttf"))
    return {
        char
        for char in text
        if not char.isspace() and char not in _JOINERS and not any(ord(char) in coverage(p) for p in chain)
    }


@functools.lru_cache(maxsize=4096)
def runs(text: str, chain: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``text`` cut into (font path, text) runs: each character in the first font of ``chain`` that has it;
    combining marks and spaces stay with the run they follow so that shaping sees the whole cluster."""
    out: list[tuple[str, list[str]]] = []
    for char in text:
        sticky = char in _JOINERS or unicodedata.category(char) in ("Mn", "Mc") or (char == " " and out)
        if sticky and out and (ord(char) in coverage(out[-1][0]) or char in _JOINERS or char == " "):
            out[-1][1].append(char)
            continue
        path = next((p for p in chain if ord(char) in coverage(p)), chain[0])
        if out and out[-1][0] == path:
            out[-1][1].append(char)
        else:
            out.append((path, [char]))
    return tuple((path, "".join(chars)) for path, chars in out)


class ShapedTextMixin:
    """The drawing half of a Kivy core text provider, on Pillow + libraqm with per-character font fallback."""

    options: dict[str, Any]
    _size: Sequence[int]
    _text: str
    _text_size: tuple[float | None, float | None]
    _markup = False

    def _chain(self) -> tuple[str, ...]:
        return font_chain(self.options.get("font_name_r"))

    def _bold(self) -> bool:
        return bool(self.options.get("bold"))

    def _metrics(self, pieces: tuple[tuple[str, str], ...], size: int) -> tuple[int, int]:
        paths = {path for path, _ in pieces} or {self._chain()[0]}
        ascent = max(metrics(path, size)[0] for path in paths)
        descent = max(metrics(path, size)[1] for path in paths)
        return ascent, descent

    def get_extents(self, text: str) -> tuple[int, int]:
        size = int(self.options["font_size"])
        if size < 1:
            return 0, 0
        pieces = runs(text, self._chain())
        width = 0.0
        for path, part in pieces:
            width += _font(path, size, self._bold()).getlength(part)
        ascent, descent = self._metrics(pieces, size)
        return round(width), ascent + descent

    def render(self, real: bool = False) -> Any:
        """Laid out as Kivy lays out a label, a Khmer text first broken between its words where a line would
        overflow (Kivy itself breaks only at spaces, so inside a Khmer word). A markup label's text is left as
        it is (its tags are not words)."""
        width = self._text_size[0] if not real and not self._markup else None
        if width is None:
            return super().render(real)  # type: ignore[misc]
        padding = self.options.get("padding") or (0, 0, 0, 0)
        room = width - padding[0] - padding[2]
        original = self._text
        self._text = break_between_words(original, room, lambda line: self.get_extents(line)[0])
        try:
            return super().render(real)  # type: ignore[misc]
        finally:
            self._text = original

    def get_cached_extents(self) -> Any:
        return self.get_extents

    def get_descent(self) -> int:
        size = max(1, int(self.options["font_size"]))
        return _font(self._chain()[0], size).getmetrics()[1]

    def get_ascent(self) -> int:
        size = max(1, int(self.options["font_size"]))
        return _font(self._chain()[0], size).getmetrics()[0]

    def _render_begin(self) -> None:
        self._pil_im = Image.new("RGBA", tuple(self._size), color=(255, 255, 255, 0))
        self._pil_draw = ImageDraw.Draw(self._pil_im)

    def _render_text(self, text: str, x: float, y: float) -> None:
        size = int(self.options["font_size"])
        if size < 1:
            return
        colour = tuple(int(c * 255) for c in self.options["color"])
        pieces = runs(text, self._chain())
        ascent, _ = self._metrics(pieces, size)
        baseline = y + ascent
        for path, part in pieces:
            font = _font(path, size, self._bold())
            self._pil_draw.text((x, baseline), part, font=font, fill=colour, anchor="ls")
            x += font.getlength(part)

    def _render_end(self) -> Any:
        from kivy.core.image import ImageData

        data = ImageData(self._size[0], self._size[1], "rgba", self._pil_im.tobytes())
        del self._pil_im
        del self._pil_draw
        return data


_installed = False


def install() -> None:
    """Make every Kivy label of this process draw through the shaped path (call before widgets are made)."""
    global _installed
    if _installed:
        return
    import kivy.core.text as core_text
    import kivy.uix.label as uix_label
    from kivy.core.text.markup import MarkupLabel

    plain = type("ShapedLabel", (ShapedTextMixin, core_text.Label), {})
    markup = type("ShapedMarkupLabel", (ShapedTextMixin, MarkupLabel), {"_markup": True})
    uix_label.CoreLabel = plain  # type: ignore[attr-defined]
    uix_label.CoreMarkupLabel = markup  # type: ignore[attr-defined]
    import kivy.uix.textinput as uix_textinput

    uix_textinput.Label = plain  # type: ignore[attr-defined]  # a typed name (a deck's, in Khmer) is shaped too
    _installed = True


def draw_on_frame(
    frame: Any, text: str, origin: tuple[int, int], size: float, colour: Any
) -> tuple[int, int, int, int]:
    """Write ``text`` on a BGR camera frame (in place) with its baseline at ``origin``, shaped like the labels and
    outlined in black as OpenCV's captions are; ``size`` is an OpenCV font scale. Returns the rectangle covered."""
    import numpy as np

    pixel_size = max(10, round(34 * size))
    pieces = runs(text, font_chain(kivy_font_path("Roboto-Bold.ttf")))
    width = round(sum(_font(path, pixel_size).getlength(part) for path, part in pieces)) + 4
    ascent = max(metrics(path, pixel_size)[0] for path, _ in pieces) if pieces else pixel_size
    descent = max(metrics(path, pixel_size)[1] for path, _ in pieces) if pieces else 0
    x, baseline = origin
    baseline = max(baseline, ascent + 2)
    height, frame_width = frame.shape[0], frame.shape[1]
    x1, y1 = max(0, x - 2), max(0, baseline - ascent - 2)
    x2, y2 = min(frame_width, x + width), min(height, baseline + descent + 2)
    if x2 <= x1 or y2 <= y1:
        return (x1, y1, x1, y1)
    region = Image.fromarray(np.ascontiguousarray(frame[y1:y2, x1:x2, ::-1]))
    draw = ImageDraw.Draw(region)
    fill = (int(colour[2]), int(colour[1]), int(colour[0]))
    left = float(x - x1)
    for path, part in pieces:
        font = _font(path, pixel_size)
        draw.text((left, baseline - y1), part, font=font, fill=fill, anchor="ls", stroke_width=2, stroke_fill=(0, 0, 0))
        left += font.getlength(part)
    frame[y1:y2, x1:x2] = np.asarray(region)[:, :, ::-1]
    return (x1, y1, x2, y2)
