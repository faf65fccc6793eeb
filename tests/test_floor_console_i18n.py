"""The console's catalogue: the kiosk's words where both screens say the same thing, every key in all three languages,
every key the pages ask for present."""

from __future__ import annotations

import re
from pathlib import Path

from floor.console import i18n
from kiosk import i18n as kiosk_i18n

TEMPLATES = Path(i18n.__file__).with_name("templates")


def test_words_shared_with_the_kiosk_are_the_kiosks_words_in_every_language() -> None:
    from kiosk.i18n_km import TEXTS_KM

    assert i18n.LANGUAGES == kiosk_i18n.LANGUAGES and i18n.LANGUAGE_NAMES == kiosk_i18n.LANGUAGE_NAMES
    for key in i18n.SHARED_WITH_KIOSK:
        assert key in kiosk_i18n.TEXTS, f"{key} is no longer in the kiosk's catalogue"
        assert i18n.TEXTS[key] == kiosk_i18n.TEXTS[key][:2], key
        assert i18n.TEXTS_KM[key] == TEXTS_KM[key], key
    for language in i18n.LANGUAGES:  # the pit's alert is the kiosk's status bar word
        assert i18n.text(language, "alert.called") == i18n.text(language, "status.called")


def placeholders(template: str) -> set[str]:
    return set(re.findall(r"{(\w+)}", template))


def test_every_text_is_in_all_three_languages_with_the_same_placeholders() -> None:
    assert set(i18n.TEXTS_KM) - set(i18n.TEXTS) == set(), "Khmer texts for keys the console no longer has"
    missing_khmer = sorted(key for key in i18n.TEXTS if not i18n.TEXTS_KM.get(key, "").strip())
    assert missing_khmer == [], f"no Khmer for {missing_khmer}"
    for key, (english, vietnamese) in i18n.TEXTS.items():
        khmer = i18n.TEXTS_KM[key]
        assert english.strip() and vietnamese.strip(), key
        assert placeholders(english) == placeholders(vietnamese) == placeholders(khmer), key
        if key not in ("game.baibuu", "game.schmier"):  # names the kiosk's Khmer keeps in Latin letters
            assert khmer != english, f"{key}: the Khmer text is the English one"


def test_every_key_a_page_asks_for_is_in_the_catalogue() -> None:
    asked = set()
    for page in TEMPLATES.glob("*.html"):
        asked |= set(re.findall(r"""\bt\(\s*["']([a-z_.-]+)["']\s*[,)]""", page.read_text(encoding="utf-8")))
    assert asked, "no t(...) call found in the templates"
    assert asked - set(i18n.TEXTS) == set()
    for prefix in ("alert.", "step.", "outcome.", "game."):
        assert any(key.startswith(prefix) for key in i18n.TEXTS)
    assert i18n.text("vi", "pit.title") == "Toàn cảnh khu bàn"
    assert i18n.text("km", "pit.title") == "ទិដ្ឋភាពតំបន់តុ"
    assert i18n.text("km", "login.locked", minutes=15) == "ខុសច្រើនដងពេក៖ គណនីនេះចាក់សោ 15 នាទី។"
    assert i18n.text("km", "status.table", table="T3") == "តុ T3"
    assert i18n.text("xx", "pit.title") == "Pit view"
