"""The Vietnamese and Khmer words of the kiosk, the console and the engines' phrases, read at run time from one
gettext catalogue per language: ``journal/locale/<language>/LC_MESSAGES/dealer_assist.po``.

An entry's context (``msgctxt``) is where its text is used and its key (``kiosk bb.prompt.shake``, ``phrase
way.kong``, ``console pit.title``), its ``msgid`` the English the code holds, its ``msgstr`` the translation; a text
English words one way for one thing and another for more is a plural entry, whose one Vietnamese or Khmer form
serves both. As gettext does, a translation counts only while its ``msgid`` is the code's English and it is not
marked fuzzy: a text whose English changed shows in English until ``dealer-assist translations update`` and a
translator have caught up, never a translation of other words.

Kept beside the journal because the kiosk and the floor's console both read it and the floor may not import the
kiosk. Each file is read once, when a text of its language is first asked for (some 15 ms), and kept.
``DEALER_ASSIST_LOCALE_DIR`` points the kiosk and the console at other catalogues (a translator's copy to try out).
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import PoFileError, read_po

from engine.errors import InputError

log = logging.getLogger(__name__)

LOCALE_DIR_VARIABLE = "DEALER_ASSIST_LOCALE_DIR"
DOMAIN = "dealer_assist"
TRANSLATED = ("vi", "km")
SHIPPED_LOCALE_DIR = Path(__file__).with_name("locale")
PLACES = ("kiosk", "phrase", "console")
"""Where a text is used, the first word of its entry's context."""


class CatalogueError(InputError):
    """A catalogue that is missing or that gettext's format does not allow."""


@dataclass(frozen=True)
class Translation:
    english: str  # the entry's msgid; for a plural entry, its English for more than one
    text: str


def locale_dir() -> Path:
    """The folder of the catalogues: ``$DEALER_ASSIST_LOCALE_DIR`` when set, else the ones shipped in the package."""
    configured = os.environ.get(LOCALE_DIR_VARIABLE, "").strip()
    return Path(configured) if configured else SHIPPED_LOCALE_DIR


def catalogue_path(language: str, directory: Path | None = None) -> Path:
    return (directory or locale_dir()) / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalogue(path: Path) -> Catalog:
    """The ``.po`` file at ``path`` as Babel reads it; a clear error when it is missing or malformed."""
    try:
        with path.open("rb") as file:
            return read_po(file, abort_invalid=True)
    except FileNotFoundError:
        raise CatalogueError(
            f"no translation catalogue at {path}: restore it from the repository, or point {LOCALE_DIR_VARIABLE} "
            f"at a folder holding <language>/LC_MESSAGES/{DOMAIN}.po"
        ) from None
    except (PoFileError, UnicodeDecodeError) as error:
        raise CatalogueError(f"{path} is not a readable gettext catalogue ({error}): fix the line it names") from None


def entry_context(place: str, key: str) -> str:
    return f"{place} {key}"


def split_context(context: str | None) -> tuple[str, str] | None:
    """``(place, key)`` of an entry's context, or None for an entry this project did not write."""
    place, _, key = (context or "").partition(" ")
    return (place, key) if place in PLACES and key else None


@functools.lru_cache(maxsize=8)
def _translations(path: Path) -> dict[str, dict[str, Translation]]:
    """place → key → translation, for the entries translated and not fuzzy; none (English), said once in the log,
    when the catalogue cannot be read: a table plays on in English rather than stop at a language switch, as it
    plays on without its Khmer font (``dealer-assist kiosk doctor`` fails its ``words`` check meanwhile)."""
    found: dict[str, dict[str, Translation]] = {place: {} for place in PLACES}
    try:
        catalogue = read_catalogue(path)
    except CatalogueError as error:
        log.error("%s; showing English instead", error)
        return found
    for message in catalogue:
        where = split_context(message.context)
        if where is None or not message.id or message.fuzzy:
            continue
        string = message.string[0] if isinstance(message.string, (tuple, list)) else message.string
        english = message.id[-1] if isinstance(message.id, (tuple, list)) else message.id
        if string:
            found[where[0]][where[1]] = Translation(english, string)
    return found


@functools.lru_cache(maxsize=16)
def _translations_in(configured: str, language: str) -> dict[str, dict[str, Translation]]:
    """The language's translations where ``$DEALER_ASSIST_LOCALE_DIR`` (``configured``) points: a screen asks for
    thousands of texts a minute, so the folder is worked out once per value rather than at each text."""
    return _translations(catalogue_path(language, Path(configured.strip()) if configured.strip() else None))


def forget_read_catalogues() -> None:
    """Read the catalogues afresh at the next look-up (after ``dealer-assist translations update`` rewrote them)."""
    _translations_in.cache_clear()
    _translations.cache_clear()


class Translations(Mapping[str, str]):
    """One language's translations of one place's texts, by key, as its catalogue holds them now: a key is here
    when its entry is translated, not fuzzy, and worded from the English the code holds for it."""

    def __init__(self, language: str, place: str, english: Mapping[str, str]) -> None:
        if language not in TRANSLATED or place not in PLACES:
            raise ValueError(f"no catalogue for {place} texts in {language!r}")
        self.language, self.place, self.english = language, place, english

    def _current(self) -> dict[str, Translation]:
        return _translations_in(os.environ.get(LOCALE_DIR_VARIABLE, ""), self.language)[self.place]

    def __getitem__(self, key: str) -> str:
        found = self._current().get(key)
        if found is None or self.english.get(key) != found.english:
            raise KeyError(key)
        return found.text

    def __iter__(self) -> Iterator[str]:
        return (key for key, found in self._current().items() if self.english.get(key) == found.english)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"Translations({self.language!r}, {self.place!r}: {len(self)} texts)"


class EnglishAndVietnamese(Mapping[str, tuple[str, str]]):
    """Every key of a place with its words as ``(English, Vietnamese)``, the Vietnamese empty where the catalogue
    has none: the shape the kiosk's and the console's code has always looked texts up in."""

    def __init__(self, english: Mapping[str, str], vietnamese: Translations) -> None:
        self.english, self.vietnamese = english, vietnamese

    def __getitem__(self, key: str) -> tuple[str, str]:
        return self.english[key], self.vietnamese.get(key, "")

    def __iter__(self) -> Iterator[str]:
        return iter(self.english)

    def __len__(self) -> int:
        return len(self.english)

    def __contains__(self, key: object) -> bool:
        return key in self.english
