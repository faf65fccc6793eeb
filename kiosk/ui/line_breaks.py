"""Where a long line may break: between words, Khmer included.

Khmer writes no space between words, and Kivy breaks a line only at a space, so a long Khmer line used to break in
the middle of a word (or of a cluster). ICU's line breaker knows Khmer words (a dictionary); the kiosk breaks a
Khmer text there itself, as a line would overflow, before Kivy lays out the lines it is given.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

KHMER = re.compile("[\u1780-\u17ff\u19e0-\u19ff]")


@functools.lru_cache(maxsize=2048)
def pieces(paragraph: str) -> tuple[str, ...]:
    """``paragraph`` cut where ICU allows a line break (each piece keeps the spaces that follow it)."""
    import icu

    breaker = icu.BreakIterator.createLineInstance(icu.Locale("km"))
    breaker.setText(paragraph)
    out: list[str] = []
    start = 0
    for end in breaker:
        out.append(paragraph[start:end])
        start = end
    return tuple(out)


def break_between_words(text: str, width: float, measure: Callable[[str], float]) -> str:
    """``text`` with a newline wherever a line ``width`` wide would otherwise overflow, put between two words;
    a text without Khmer is returned as it is (Kivy already breaks it at its spaces). A single word wider than
    the line is left for Kivy to break."""
    if not KHMER.search(text):
        return text
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for piece in pieces(paragraph):
            if line and measure((line + piece).rstrip()) > width:
                lines.append(line.rstrip())
                line = piece
            else:
                line += piece
        lines.append(line)
    return "\n".join(lines)
