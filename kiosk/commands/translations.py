"""``dealer-assist translations``: the kiosk's and the console's words for translators and developers.

The Vietnamese and the Khmer live in ``journal/locale/<language>/LC_MESSAGES/dealer_assist.po``, which the kiosk
and the console read at run time. ``translations export --language km [--format po|csv] [--out FILE]`` writes the
language's catalogue (gettext ``.po`` for Poedit, Weblate or Lokalize, or a CSV with the English beside each
translation) for a native speaker's review; ``translations update`` brings the catalogues to the code's English
after a developer added or changed a text, keeping every translation; ``translations check`` lists what is
missing, untranslated, fuzzy or still in English (exit 1 when anything is). ``--locale-dir DIR`` works on other
catalogues than the ones the kiosk reads (default: ``$DEALER_ASSIST_LOCALE_DIR``, else the shipped ones).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("translations", help="the screens' words for translators: export, update, check")
    commands = parser.add_subparsers(dest="translations_command", metavar="COMMAND", required=True)
    export = commands.add_parser("export", help="a language's catalogue as a .po file or a CSV beside the English")
    export.add_argument("--language", choices=("vi", "km"), required=True)
    export.add_argument("--format", choices=("po", "csv"), default="po")
    export.add_argument("--out", type=Path, help="the file to write (default: standard output)")
    export.set_defaults(func=export_command)
    update = commands.add_parser("update", help="bring the catalogues to the code's English, translations kept")
    update.set_defaults(func=update_command)
    check = commands.add_parser("check", help="what is missing, untranslated or still English, in Vietnamese and "
                                              "Khmer")
    check.set_defaults(func=check_command)
    for command in (export, update, check):
        command.add_argument("--locale-dir", type=Path, default=None,
                             help="the folder of <language>/LC_MESSAGES/dealer_assist.po (default: the kiosk's)")


def export_command(args: argparse.Namespace) -> int:
    from kiosk.translations import export_csv, export_po

    directory = _locale_dir(args)
    data = export_po(args.language, directory) if args.format == "po" else export_csv(args.language,
                                                                                      directory).encode()
    if args.out is None:
        sys.stdout.buffer.write(data)
    else:
        args.out.write_bytes(data)
        print(f"wrote {args.out} ({args.language}, {args.format})")
    return 0


def update_command(args: argparse.Namespace) -> int:
    from journal.catalogues import catalogue_path
    from kiosk.translations import update

    directory = _locale_dir(args)
    for language, counts in update(directory).items():
        print(f"{catalogue_path(language, directory)}: {counts['added']} added, {counts['changed']} with new English "
              f"(marked fuzzy), {counts['dropped']} no longer used dropped")
    print("then `dealer-assist translations check` lists what a translator has to do")
    return 0


def check_command(args: argparse.Namespace) -> int:
    from kiosk.translations import TRANSLATED, problems

    found = {language: problems(language, _locale_dir(args)) for language in TRANSLATED}
    for language, lines in found.items():
        print(f"{language}: {len(lines)} to translate or check" if lines else f"{language}: every text translated")
        for line in lines:
            print("  " + line)
    return 1 if any(found.values()) else 0


def _locale_dir(args: argparse.Namespace) -> Path | None:
    """The folder asked for, checked: None for the kiosk's own catalogues."""
    from engine.errors import InputError
    from journal.catalogues import TRANSLATED, catalogue_path

    directory: Path | None = args.locale_dir
    if directory is not None:
        missing = [str(catalogue_path(language, directory)) for language in TRANSLATED
                   if not catalogue_path(language, directory).is_file()]
        if missing:
            raise InputError(f"--locale-dir {directory} has no {' nor '.join(missing)}: give the folder that holds "
                             "vi/ and km/ (copy journal/locale to start one)")
    return directory
