"""Audible cues a dealer cannot miss: a high double tone for an alert, a low tone for a refused action, a rising
tone for a settled round. Off unless the kiosk's config says ``sound: true``.

``cue_for`` decides from two looks at the table (before and after a tick) which cue, if any, is due; ``Cues`` plays
it through Kivy's audio (tones written once as WAV files).
"""

from __future__ import annotations

import math
import struct
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.ui import theme

REFUSED_KEYS = frozenset({"alert.not_now", "alert.illegal", "alert.unknown_command"})
TONES: dict[str, tuple[tuple[float, float], ...]] = {  # (frequency Hz, seconds) in a row
    "alert": ((1320.0, 0.12), (0.0, 0.05), (1320.0, 0.12)),
    "refused": ((330.0, 0.18),),
    "settled": ((660.0, 0.08), (880.0, 0.12)),
}


@dataclass(frozen=True)
class TableLook:
    """What the cues look at: the alert's key, whether the round is settled, whether a supervisor is called."""

    alert: str | None
    settled: bool
    called: bool


def look(runtime: Any) -> TableLook:
    active = runtime.controller
    alert = active.alert.key if getattr(active, "alert", None) is not None else None
    phase = getattr(getattr(active, "phase", None), "value", None)
    return TableLook(alert, phase == "closed", bool(getattr(runtime, "supervisor_called", False)))


def cue_for(before: TableLook, after: TableLook) -> str | None:
    """The cue due when the table went from ``before`` to ``after``: a new alert or a new call (alert), a new
    refusal (refused), a round just settled (settled); nothing for news such as a resumed round."""
    if after.alert is not None and after.alert != before.alert:
        if after.alert in REFUSED_KEYS:
            return "refused"
        if after.alert not in theme.INFO_KEYS:
            return "alert"
    if after.called and not before.called:
        return "alert"
    if after.settled and not before.settled:
        return "settled"
    return None


def write_tone(path: Path, notes: tuple[tuple[float, float], ...], rate: int = 22050) -> None:
    frames = bytearray()
    for frequency, seconds in notes:
        count = int(rate * seconds)
        for i in range(count):
            fade = min(1.0, i / 200, (count - i) / 200)  # no click at either end
            value = math.sin(2 * math.pi * frequency * i / rate) * 0.5 * fade if frequency else 0.0
            frames += struct.pack("<h", int(value * 32767))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(bytes(frames))


class Cues:
    """Plays the cues (when the config turns sound on); ``played`` keeps their names for the record."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.played: list[str] = []
        self._sounds: dict[str, Any] = {}
        self._before: TableLook | None = None
        if enabled:
            from kivy.core.audio import SoundLoader

            folder = Path(tempfile.mkdtemp(prefix="dealer-assist-cues-"))
            for name, notes in TONES.items():
                write_tone(folder / f"{name}.wav", notes)
                self._sounds[name] = SoundLoader.load(str(folder / f"{name}.wav"))

    def watch(self, runtime: Any) -> str | None:
        """Look at the table after a tick and play the cue due, if any."""
        now = look(runtime)
        before, self._before = self._before, now
        if not self.enabled or before is None:
            return None
        name = cue_for(before, now)
        if name is not None:
            self.played.append(name)
            sound = self._sounds.get(name)
            if sound is not None:
                sound.play()
        return name
