"""The kiosk's and the console's words as one gettext catalogue per language, for translators and their tools.

The catalogues (``journal/locale/<language>/LC_MESSAGES/dealer_assist.po``) are where the Vietnamese and the Khmer
live: the kiosk and the console read them at run time (``journal.catalogues``), and a translator edits them in
Poedit, Weblate or Lokalize. The code holds the English: each text is an entry whose context (``msgctxt``) is where
it is used and its key (``kiosk bb.prompt.shake``, ``phrase way.kong``, ``console pit.title``), whose ``msgid`` is
the English and whose ``msgstr`` the translation; a text English words in one form for one thing and another for
more is a plural entry (Vietnamese and Khmer have one form: ``nplurals=1``).

``update`` brings the catalogues to the code's English (Babel's ``Catalog.update``: a new text comes in
untranslated, or fuzzy with the translation of the likeliest old one; a changed English keeps its translation,
marked fuzzy; every other translation is kept). ``problems`` is what the check and the tests require to be empty:
an entry missing or left behind, untranslated, fuzzy, still in English, or naming a value the code does not give.
``export_po`` and ``export_csv`` give a native speaker the catalogue, or a CSV with the English beside each
translation.
"""

from __future__ import annotations

import csv
import io
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po

from journal.catalogues import (
    TRANSLATED,
    catalogue_path,
    entry_context,
    forget_read_catalogues,
    read_catalogue,
    split_context,
)

__all__ = [
    "TRANSLATED",
    "Entry",
    "english_catalogue",
    "entries",
    "export_csv",
    "export_po",
    "problems",
    "still_english",
    "update",
]

# Names, and the Vietnamese table words English screens use as they are (TỚI TRẮNG, BÁO SÂM): a translation equal
# to its English is right for these.
NAMES = {"bài", "bửu", "sâm", "lốc", "schmier", "bauer", "pin", "sha", "utc", "sqlite", "ok", "crc", "id", "json",
         "csv", "jsonl", "kiosk", "demo", "tới", "trắng", "báo"}
# Values the code gives a text beyond those its English names: a posted rule's line is headed by the rule's name.
EXTRA_VALUES = {"kiosk rule.line": {"name"}}
UPDATE_HINT = "run `dealer-assist translations update`"


@dataclass(frozen=True)
class Entry:
    context: str
    english: str | tuple[str, str]  # (one, more) for a text worded by its count
    translation: str
    fuzzy: bool = False


def _import_every_phrase() -> None:
    """The engines and the journal register their phrases' English when their modules are imported."""
    import importlib
    import pkgutil

    import engine

    for module in pkgutil.walk_packages(engine.__path__, "engine."):
        importlib.import_module(module.name)
    for name in ("journal.words", "kiosk.journal_place", "kiosk.supervisors"):
        importlib.import_module(name)


def _english_texts() -> Iterator[tuple[str, str | tuple[str, str]]]:
    """(context, English) of every text the code uses, in the catalogues' order."""
    from engine.phrases import TEMPLATES
    from floor.console import i18n as console
    from kiosk.i18n import ENGLISH, ENGLISH_ONE

    _import_every_phrase()
    for key, english in ENGLISH.items():
        yield entry_context("kiosk", key), (ENGLISH_ONE[key], english) if key in ENGLISH_ONE else english
    for key, english in sorted(TEMPLATES.items()):
        yield entry_context("phrase", key), english
    for key, english in console.ENGLISH.items():
        yield entry_context("console", key), english


def _last(english: str | tuple[str, ...]) -> str:
    return english[-1] if isinstance(english, tuple) else english


def _forms(value: object) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (str(value or ""),)


def english_catalogue() -> Catalog:
    """The template every language's catalogue follows: each text the code uses, its English, no translation."""
    template = Catalog(project="dealer-assist", fuzzy=False)
    for context, english in _english_texts():
        flags = ["python-brace-format"] if "{" in _last(english) else []
        template.add(english, context=context, flags=flags)
    return template


def entries(language: str, directory: Path | None = None) -> Iterator[Entry]:
    """Every text of the language's catalogue with its translation (empty when untranslated)."""
    _check_language(language)
    for message in read_catalogue(catalogue_path(language, directory)):
        if message.id and split_context(message.context) is not None:
            ids = _forms(message.id)
            english: str | tuple[str, str] = (ids[0], ids[1]) if len(ids) == 2 else ids[0]
            yield Entry(str(message.context), english, _forms(message.string)[0], message.fuzzy)


def still_english(entry: Entry) -> bool:
    """A translation that is the English itself, with words in it that are not names."""
    english = _last(entry.english)
    if entry.translation != english:
        return False
    words = re.findall(r"[A-Za-zÀ-ỹĐđ]{2,}", re.sub(r"\{[a-z_]+\}|--[a-z-]+|`[^`]*`", "", english))
    return any(word.lower() not in NAMES for word in words)


def _placeholders(text: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:  # an unmatched brace: reported as a value of its own
        return {"{"}


def problems(language: str, directory: Path | None = None) -> list[str]:
    """What a developer or a translator still has to do in the language's catalogue, one line each by context:
    an entry missing, left behind or worded from other English (``update`` mends those), and a translation
    untranslated, fuzzy, still in English, or naming a value the English does not have."""
    _check_language(language)
    code = dict(_english_texts())
    found: list[str] = []
    held: dict[str, Entry] = {}
    for entry in entries(language, directory):
        held[entry.context] = entry
        english = code.get(entry.context)
        if english is None:
            found.append(f"no longer used: {entry.context} ({UPDATE_HINT})")
            continue
        if english != entry.english:
            found.append(f"English changed: {entry.context} ({UPDATE_HINT}, then translate it)")
        elif not entry.translation:
            found.append(f"untranslated: {entry.context}")
        elif entry.fuzzy:
            found.append(f"fuzzy (to check): {entry.context}")
        elif still_english(entry):
            found.append(f"fuzzy (still English): {entry.context}")
        else:
            given = set().union(*map(_placeholders, _forms(english))) | EXTRA_VALUES.get(entry.context, set())
            unknown = _placeholders(entry.translation) - given
            if unknown:
                names = ", ".join("{" + name + "}" for name in sorted(unknown))
                found.append(f"names values the English does not have ({names}): {entry.context}")
    found += [f"missing: {context} ({UPDATE_HINT})" for context in code if context not in held]
    return found


def update(directory: Path | None = None) -> dict[str, dict[str, int]]:
    """Each language's catalogue brought to the code's English, its translations kept; per language, how many
    entries were added, had their English changed (marked fuzzy) and were dropped as no longer used."""
    template = english_catalogue()
    wanted = {message.context: _forms(message.id) for message in template if message.id}
    counts: dict[str, dict[str, int]] = {}
    for language in TRANSLATED:
        path = catalogue_path(language, directory)
        catalog = read_catalogue(path)
        before = {message.context: _forms(message.id) for message in catalog if message.id}
        catalog.update(template, update_creation_date=False)
        catalog.obsolete.clear()  # a text the code no longer uses is dropped, not kept commented out
        _write(catalog, path)
        counts[language] = {
            "added": sum(1 for context in wanted if context not in before),
            "changed": sum(1 for context, ids in wanted.items() if context in before and before[context] != ids),
            "dropped": sum(1 for context in before if context not in wanted),
        }
    forget_read_catalogues()
    return counts


def _write(catalog: Catalog, path: Path) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=120, sort_output=False)
    path.write_bytes(out.getvalue())


def export_po(language: str, directory: Path | None = None) -> bytes:
    """The language's catalogue as a ``.po`` file, a translation still in English marked fuzzy for review."""
    _check_language(language)
    catalog = read_catalogue(catalogue_path(language, directory))
    for message in catalog:
        if message.id and _still_english_message(message):
            message.flags.add("fuzzy")
    out = io.BytesIO()
    write_po(out, catalog, width=120, sort_output=False)
    return out.getvalue()


def _still_english_message(message: Message) -> bool:
    return still_english(Entry(str(message.context), _forms(message.id)[-1], _forms(message.string)[0]))


def export_csv(language: str, directory: Path | None = None) -> str:
    """One row per text: where it is used, the English, the translation, and whether it needs a look."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["where", "english", language, "check"])
    for entry in entries(language, directory):
        english = " | ".join(entry.english) if isinstance(entry.english, tuple) else entry.english
        check = ("untranslated" if not entry.translation else "fuzzy" if entry.fuzzy
                 else "still English" if still_english(entry) else "")
        writer.writerow([entry.context, english, entry.translation, check])
    return out.getvalue()


def _check_language(language: str) -> None:
    if language not in TRANSLATED:
        raise ValueError(f"no catalogue for {language!r}: translations are kept for {', '.join(TRANSLATED)}")
