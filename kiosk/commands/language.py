"""The language of a command's words for people: ``--language en|vi|km``; without it the kiosk config's language
(``--config``), else English. Machine outputs (``--json``, CSV) stay English whatever is asked."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from kiosk.i18n import LANGUAGES, Catalogue


def add_language_options(parser: Any) -> None:
    parser.add_argument("--language", choices=LANGUAGES, default=None,
                        help="the words' language: en, vi (Tiếng Việt) or km (Khmer); default: the kiosk config's "
                        "(--config), else en")
    parser.add_argument("--config", type=Path, default=None, help="the kiosk's config file, for its language")


def catalogue_of(args: argparse.Namespace) -> Catalogue:
    """The catalogue in the language the command was asked for."""
    language = getattr(args, "language", None)
    if language is None and getattr(args, "config", None) is not None:
        from kiosk.config import load_config

        language = load_config(args.config).language
    return Catalogue(language or "en")
