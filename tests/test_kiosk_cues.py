"""Audible cues: which table changes sound (an alert, a refusal, a settled round, a call), that news and repeats do
not, that the tones are real WAV files, and that the kiosk config turns them on with ``sound: true``."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest

from kiosk.config import ConfigError, load_config
from kiosk.ui.cues import TONES, TableLook, cue_for, write_tone

QUIET = TableLook(alert=None, settled=False, called=False)


@pytest.mark.parametrize(
    ("after", "cue"),
    [
        (TableLook("alert.shaker_offline", False, False), "alert"),
        (TableLook("alert.not_now", False, False), "refused"),
        (TableLook("alert.illegal", False, False), "refused"),
        (TableLook(None, True, False), "settled"),
        (TableLook(None, False, True), "alert"),
        (TableLook("alert.resumed", False, False), None),  # news, not a problem
        (QUIET, None),
    ],
)
def test_a_change_at_the_table_sounds_its_cue(after: TableLook, cue: str | None) -> None:
    assert cue_for(QUIET, after) == cue


def test_an_alert_still_showing_or_a_round_still_settled_does_not_sound_again() -> None:
    shown = TableLook("alert.shaker_offline", True, True)
    assert cue_for(shown, shown) is None


def test_each_tone_is_a_playable_wav(tmp_path: Path) -> None:
    for name, notes in TONES.items():
        path = tmp_path / f"{name}.wav"
        write_tone(path, notes)
        with wave.open(str(path)) as tone:
            seconds = tone.getnframes() / tone.getframerate()
        assert seconds == pytest.approx(sum(length for _, length in notes), abs=0.01)


def test_the_config_turns_sound_on_and_refuses_a_non_boolean(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.yaml"
    path.write_text("sound: true\nlanguage: km\n")
    config = load_config(path)
    assert config.sound is True and config.language == "km"
    path.write_text("sound: loud\n")
    with pytest.raises(ConfigError, match="sound 'loud': write true or false"):
        load_config(path)
    assert load_config(None).sound is False
