"""The kiosk's words in Khmer, as the Khmer catalogue (``journal/locale/km/LC_MESSAGES/dealer_assist.po``) holds
them: the screen texts (keys of ``kiosk.i18n.TEXTS``) and the engines' phrases (keys of ``engine.phrases.TEMPLATES``).
Table words as in the glossary (../shared/spec/glossary.md): កាតខ្ពស់ / កាតទាប, កាតផ្ទះ, គូ, ឌីស, ពិន្ទុ; Sâm Lốc:
សន្លឹកបៀឯកោ, ត្រីគុណ, ត្រីមាស, ស៊េរី, អស់វេន, សុំសឹម. A seat is កៅអី in every game. Spaces separate phrases so that a
long line can wrap.
"""

from __future__ import annotations

from journal.phrase_words import PHRASES_KM
from kiosk.i18n import TEXTS_KM

__all__ = ["PHRASES_KM", "TEXTS_KM"]
