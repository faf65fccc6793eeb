"""The kiosk's and the console's words as one gettext catalogue per language, for translators' tools.

Each text is an entry whose context (``msgctxt``) is where it is used and its key (``kiosk bb.prompt.shake``,
``phrase way.kong``, ``console pit.title``), whose ``msgid`` is the English and whose ``msgstr`` is the translation;
a text English words in one form for one thing and another for more is a plural entry (Vietnamese and Khmer have one
form: ``nplurals=1``). Babel writes the ``.po`` file (Poedit, Weblate or Lokalize open it) or a CSV with the English
beside each translation, for a native speaker's review. An entry with no translation is untranslated; one whose
translation is still the English words is marked fuzzy (to be checked); the tests require neither in Vietnamese
and Khmer.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

TRANSLATED = ("vi", "km")
# Names, and the Vietnamese table words English screens use as they are (TỚI TRẮNG, BÁO SÂM): a translation equal
# to its English is right for these.
NAMES = {"bài", "bửu", "sâm", "lốc", "schmier", "bauer", "pin", "sha", "utc", "sqlite", "ok", "crc", "id", "json",
         "csv", "jsonl", "kiosk", "demo", "tới", "trắng", "báo"}


@dataclass(frozen=True)
class Entry:
    context: str
    english: str | tuple[str, str]  # (one, more) for a text worded by its count
    translation: str


def _import_every_phrase() -> None:
    """The engines and the journal register their phrases' English when their modules are imported."""
    import importlib
    import pkgutil

    import engine

    for module in pkgutil.walk_packages(engine.__path__, "engine."):
        importlib.import_module(module.name)
    for name in ("journal.words", "kiosk.journal_place", "kiosk.supervisors"):
        importlib.import_module(name)


def entries(language: str) -> Iterator[Entry]:
    """Every text of the kiosk and the console with its translation into ``language`` (``vi`` or ``km``)."""
    from engine.phrases import TEMPLATES
    from floor.console import i18n as console
    from kiosk.i18n import ENGLISH_ONE, PHRASES, TEXTS
    from kiosk.i18n_km import TEXTS_KM

    if language not in TRANSLATED:
        raise ValueError(f"no catalogue for {language!r}: translations are kept for {', '.join(TRANSLATED)}")
    _import_every_phrase()
    for key, (english, vietnamese) in TEXTS.items():
        translation = vietnamese if language == "vi" else TEXTS_KM.get(key, "")
        words: str | tuple[str, str] = (ENGLISH_ONE[key], english) if key in ENGLISH_ONE else english
        yield Entry(f"kiosk {key}", words, translation)
    for key, english in sorted(TEMPLATES.items()):
        yield Entry(f"phrase {key}", english, PHRASES[language].get(key, ""))
    for key, (english, vietnamese) in console.TEXTS.items():
        yield Entry(f"console {key}", english, vietnamese if language == "vi" else console.TEXTS_KM.get(key, ""))


def still_english(entry: Entry) -> bool:
    """A translation that is the English itself, with words in it that are not names."""
    english = entry.english[-1] if isinstance(entry.english, tuple) else entry.english
    if entry.translation != english:
        return False
    words = re.findall(r"[A-Za-zÀ-ỹĐđ]{2,}", re.sub(r"\{[a-z_]+\}|--[a-z-]+|`[^`]*`", "", english))
    return any(word.lower() not in NAMES for word in words)


def catalogue(language: str) -> Catalog:
    """The language's catalogue: every entry, an untranslated one empty, one still in English marked fuzzy."""
    result = Catalog(locale=language, project="dealer-assist", fuzzy=False)
    for entry in entries(language):
        flags = ["fuzzy"] if still_english(entry) else []
        if "{" in (entry.english[-1] if isinstance(entry.english, tuple) else entry.english):
            flags.append("python-brace-format")
        string: str | tuple[str, ...] = (entry.translation,) if isinstance(entry.english, tuple) else entry.translation
        result.add(entry.english, string, context=entry.context, flags=flags)
    return result


def problems(language: str) -> list[str]:
    """What a translator still has to do: entries untranslated or fuzzy, by context."""
    found: list[str] = []
    for message in catalogue(language):
        if not message.id:
            continue  # the header
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            found.append(f"untranslated: {message.context}")
        elif message.fuzzy:
            found.append(f"fuzzy (still English): {message.context}")
    return found


def export_po(language: str) -> bytes:
    out = io.BytesIO()
    write_po(out, catalogue(language), width=120, sort_output=False)
    return out.getvalue()


def export_csv(language: str) -> str:
    """One row per text: where it is used, the English, the translation, and whether it needs a look."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["where", "english", language, "check"])
    for entry in entries(language):
        english = " | ".join(entry.english) if isinstance(entry.english, tuple) else entry.english
        check = "untranslated" if not entry.translation else "still English" if still_english(entry) else ""
        writer.writerow([entry.context, english, entry.translation, check])
    return out.getvalue()
