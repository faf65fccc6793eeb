"""One gettext catalogue per language for the kiosk and the console, read at run time: Vietnamese and Khmer hold
every text the code uses, none untranslated or fuzzy; what a translator changes in the .po is what the screens show;
`translations update` brings the catalogues to the code's English keeping every translation; the export a native
speaker reviews opens as a .po (plural forms included) or a CSV with the English beside each translation."""

from __future__ import annotations

import csv
import io
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from starlette.testclient import TestClient

from engine.phrases import Phrase
from journal.catalogues import (
    LOCALE_DIR_VARIABLE,
    SHIPPED_LOCALE_DIR,
    TRANSLATED,
    CatalogueError,
    catalogue_path,
    read_catalogue,
)
from kiosk.cli import main
from kiosk.translations import Entry, entries, export_po, problems, still_english


@pytest.mark.parametrize("language", ["vi", "km"])
def test_vietnamese_and_khmer_hold_every_text_the_code_uses_none_untranslated_or_fuzzy(language: str) -> None:
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


def _copy_catalogues(tmp_path: Path) -> Path:
    folder = tmp_path / "locale"
    shutil.copytree(SHIPPED_LOCALE_DIR, folder)
    return folder


def _rewrite(path: Path, change: Callable[[Catalog], None]) -> None:
    catalog = read_catalogue(path)
    change(catalog)
    out = io.BytesIO()
    write_po(out, catalog, width=120, sort_output=False)
    path.write_bytes(out.getvalue())


def test_the_kiosk_and_the_console_show_what_the_khmer_po_file_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from floor.console.app import Console, create_app
    from floor.console.db import Database
    from floor.console.review_words import phrase as console_phrase
    from kiosk.i18n import Catalogue

    points = Phrase("hand.points", "5 points", {"n": 5})
    assert (Catalogue("km").text("button.shake"), Catalogue("km").phrase(points)) == ("ក្រឡុក", "5 ពិន្ទុ")
    folder = _copy_catalogues(tmp_path)

    def translate_anew(catalog: Catalog) -> None:
        catalog.get("SHAKE", context="kiosk button.shake").string = "ក្រឡុកឥឡូវ"
        catalog.get("{n} points", context="phrase hand.points").string = "{n} ពិន្ទុថ្មី"
        catalog.get("Sign in", context="console login.title").string = "ចូលប្រើថ្មី"
        catalog.get("OK", context="kiosk button.ok").flags.add("fuzzy")  # to be checked: English meanwhile

    _rewrite(catalogue_path("km", folder), translate_anew)
    monkeypatch.setenv(LOCALE_DIR_VARIABLE, str(folder))
    kiosk = Catalogue("km")
    assert kiosk.text("button.shake") == "ក្រឡុកឥឡូវ"
    assert kiosk.phrase(points) == "5 ពិន្ទុថ្មី" and console_phrase("km", points) == "5 ពិន្ទុថ្មី"
    assert kiosk.text("button.ok") == "OK"
    assert Catalogue("vi").text("button.shake") == "LẮC"  # the copied Vietnamese, as it was
    web = TestClient(create_app(Console(Database("postgresql://nobody@127.0.0.1:9/none"))), follow_redirects=False)
    web.cookies.set("floor_lang", "km")
    login = web.get("/login")
    assert login.status_code == 200 and "<h1>ចូលប្រើថ្មី</h1>" in login.text


def test_a_kiosk_whose_catalogue_cannot_be_read_shows_english_and_says_why_in_its_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from kiosk.i18n import Catalogue

    monkeypatch.setenv(LOCALE_DIR_VARIABLE, str(tmp_path / "nowhere"))
    assert Catalogue("km").text("button.shake") == "SHAKE"
    assert f"no translation catalogue at {tmp_path}/nowhere/km/LC_MESSAGES/dealer_assist.po" in caplog.text
    broken = _copy_catalogues(tmp_path)
    path = catalogue_path("vi", broken)
    path.write_text(path.read_text(encoding="utf-8").replace('msgid "SHAKE"', 'msgid: "SHAKE"', 1), encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"dealer_assist\.po is not a readable gettext catalogue"):
        problems("vi", broken)
    monkeypatch.setenv(LOCALE_DIR_VARIABLE, str(broken))
    assert Catalogue("vi").text("button.shake") == "SHAKE" and Catalogue("km").text("button.shake") == "ក្រឡុក"


def test_the_check_finds_a_text_the_catalogue_lacks_and_update_adds_it_keeping_every_translation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _copy_catalogues(tmp_path)
    before = {language: {entry.context: entry.translation for entry in entries(language)} for language in TRANSLATED}

    def lose_shake(catalog: Catalog) -> None:
        catalog.delete("SHAKE", context="kiosk button.shake")

    def old_english_and_a_text_gone(catalog: Catalog) -> None:  # as if the code's English had moved on
        confirm = catalog.get("CONFIRM", context="kiosk button.confirm")
        catalog.delete("CONFIRM", context="kiosk button.confirm")
        catalog.add("CONFIRM IT", confirm.string, context="kiosk button.confirm")
        catalog.add("Gone", "Đã bỏ", context="kiosk gone.away")

    _rewrite(catalogue_path("km", folder), lose_shake)
    _rewrite(catalogue_path("vi", folder), old_english_and_a_text_gone)
    hint = "(run `dealer-assist translations update`"
    assert problems("km", folder) == [f"missing: kiosk button.shake {hint})"]
    assert sorted(problems("vi", folder)) == [f"English changed: kiosk button.confirm {hint}, then translate it)",
                                              f"no longer used: kiosk gone.away {hint})"]
    assert main(["translations", "check", "--locale-dir", str(folder)]) == 1
    assert "km: 1 to translate or check" in capsys.readouterr().out

    assert main(["translations", "update", "--locale-dir", str(folder)]) == 0
    assert "1 added" in capsys.readouterr().out
    assert problems("km", folder) in (["untranslated: kiosk button.shake"], ["fuzzy (to check): kiosk button.shake"])
    assert problems("vi", folder) == ["fuzzy (to check): kiosk button.confirm"]
    for language in TRANSLATED:
        after = {entry.context: entry.translation for entry in entries(language, folder)}
        assert after.keys() == before[language].keys()
        kept = {context for context in after if after[context] == before[language][context]}
        assert after.keys() - kept <= {"kiosk button.shake"}, language


def test_a_translation_naming_a_value_the_code_does_not_give_is_reported(tmp_path: Path) -> None:
    folder = _copy_catalogues(tmp_path)

    def typo(catalog: Catalog) -> None:
        catalog.get("Table {table}", context="kiosk status.table").string = "Bàn {tabel}"

    _rewrite(catalogue_path("vi", folder), typo)
    assert problems("vi", folder) == ["names values the English does not have ({tabel}): kiosk status.table"]


def test_the_wheel_ships_the_catalogues() -> None:
    root = Path(__file__).resolve().parents[1]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["journal"]
    shipped = {path for pattern in patterns for path in (root / "journal").glob(pattern)}
    assert {catalogue_path(language, root / "journal" / "locale") for language in TRANSLATED} <= shipped
