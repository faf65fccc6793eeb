"""The engines' and the journal's phrases (keys of ``engine.phrases.TEMPLATES``: house-way lines, settlement
reasons, Sâm Lốc and Schmier refusals and log lines, the journal's review and verdict words) in Vietnamese and
Khmer, as the catalogues (``journal/locale/<language>/LC_MESSAGES/dealer_assist.po``, context ``phrase <key>``) hold
them; English is each phrase's own text.

Kept here, beside the journal, so that every screen that words them reads one catalogue: the kiosk
(``kiosk.i18n``) and the floor's console, which may not import the kiosk. Table words as in the glossary
(../shared/spec/glossary.md); a Schmier card is named by its symbols (J♦) in both languages.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.phrases import TEMPLATES
from journal.catalogues import Translations

PHRASES_VI = Translations("vi", "phrase", TEMPLATES)
PHRASES_KM = Translations("km", "phrase", TEMPLATES)

PHRASES: dict[str, Mapping[str, str]] = {"vi": PHRASES_VI, "km": PHRASES_KM}
