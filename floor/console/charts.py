"""Bar charts drawn on the server as SVG: no script, no library in the browser, the same picture in every export."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

WIDTH = 640
BAR_HEIGHT = 22
GAP = 8
LABEL_WIDTH = 150
VALUE_WIDTH = 80
CHAR_WIDTH = 7.6
"""The widest a character of the chart's 12 px font runs (DejaVu Sans): the labels' column fits the longest."""


def bar_chart(title: str, bars: Sequence[tuple[str, float]],
              shown: Callable[[float], str] = "{:g}".format) -> str:
    """Horizontal bars, one per ``(label, value)``, each value written by ``shown``; negative values grow left of a
    zero line. The labels' column is as wide as the longest label needs, the chart wider with it."""
    label_width = max(LABEL_WIDTH, int(max((len(label) for label, _ in bars), default=0) * CHAR_WIDTH) + 12)
    width = WIDTH + label_width - LABEL_WIDTH
    height = 34 + len(bars) * (BAR_HEIGHT + GAP)
    plot = width - label_width - VALUE_WIDTH
    values = [v for _, v in bars]
    low, high = min([0.0, *values]), max([0.0, *values])
    span = (high - low) or 1.0
    zero = label_width + plot * (-low / span)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="chart" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" aria-label="{escape(title)}">',
             f'<title>{escape(title)}</title>',
             f'<text x="0" y="16" class="chart-title">{escape(title)}</text>']
    for index, (label, value) in enumerate(bars):
        y = 30 + index * (BAR_HEIGHT + GAP)
        length = plot * abs(value) / span
        x = zero if value >= 0 else zero - length
        text = shown(value)
        parts.append(f'<text x="{label_width - 6}" y="{y + 16}" text-anchor="end">{escape(label)}</text>')
        parts.append(f'<rect x="{x:.1f}" y="{y}" width="{max(length, 1):.1f}" height="{BAR_HEIGHT}" '
                     f'class="{"bar" if value >= 0 else "bar negative"}"><title>{escape(label)}: {escape(text)}'
                     '</title></rect>')
        parts.append(f'<text x="{width - VALUE_WIDTH + 6}" y="{y + 16}">{escape(text)}</text>')
    parts.append(f'<line x1="{zero:.1f}" y1="26" x2="{zero:.1f}" y2="{height - 4}" class="axis"/>')
    parts.append("</svg>")
    return "".join(parts)
