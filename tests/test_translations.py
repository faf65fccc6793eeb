"""One gettext catalogue per language for the kiosk and the console: Vietnamese and Khmer have no untranslated
and no fuzzy entry; the export a native speaker reviews opens as a .po (plural forms included) or a CSV with the
English beside each translation."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from kiosk.cli import main
from kiosk.translations import Entry, entries, export_po, problems, still_english


@pytest.mark.parametrize("language", ["vi", "km"])
def test_vietnamese_and_khmer_have_no_untranslated_or_fuzzy_entry(language: str) -> None:
    assert len(list(entries(language))) > 1000  # the kiosk's texts, the engines' phrases and the console's
    assert problems(language) == []


def test_a_translation_left_in_english_is_fuzzy_and_a_name_is_not() -> None:
    english = "Press SHAKE to start the round"
    assert still_english(Entry("kiosk bb.prompt.shake", english, english))
    assert not still_english(Entry("kiosk game.baibuu", "Bài Bửu", "Bài Bửu"))
    assert not still_english(Entry("kiosk bb.dice", "{a} · {b}", "{a} · {b}"))


def test_the_khmer_catalogue_opens_as_a_po_file_with_its_plural_forms() -> None:
    catalogue = read_po(io.BytesIO(export_po("km")))
    assert catalogue.locale_identifier == "km" and catalogue.num_plurals == 1
    waiting = catalogue.get(("waiting for 1 card", "waiting for {count} cards"), context="kiosk bb.waiting_cards")
    assert waiting is not None and waiting.pluralizable and waiting.string[0] == "រង់ចាំកាត {count}"
    assert catalogue.get("Camera", context="kiosk status.camera").string == "កាមេរ៉ា"
    assert not any(message.fuzzy for message in catalogue if message.id)


def test_a_native_speaker_gets_a_csv_with_the_english_beside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "vi.csv"
    assert main(["translations", "export", "--language", "vi", "--format", "csv", "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    shake = next(row for row in rows if row["where"] == "kiosk button.shake")
    assert (shake["english"], shake["vi"], shake["check"]) == ("SHAKE", "LẮC", "")
    assert main(["translations", "check"]) == 0
    assert "vi: every text translated" in capsys.readouterr().out
