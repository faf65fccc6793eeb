"""``dealer-assist translations``: the kiosk's and the console's words for translators.

``translations export --language km [--format po|csv] [--out FILE]`` writes the language's catalogue (gettext ``.po``
for Poedit, Weblate or Lokalize, or a CSV with the English beside each translation) for a native speaker's review;
``translations check`` lists what is untranslated or still in English (exit 1 when anything is).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("translations", help="the screens' words for translators: export, check")
    commands = parser.add_subparsers(dest="translations_command", metavar="COMMAND", required=True)
    export = commands.add_parser("export", help="a language's catalogue as a .po file or a CSV beside the English")
    export.add_argument("--language", choices=("vi", "km"), required=True)
    export.add_argument("--format", choices=("po", "csv"), default="po")
    export.add_argument("--out", type=Path, help="the file to write (default: standard output)")
    export.set_defaults(func=export_command)
    check = commands.add_parser("check", help="what is untranslated or still English, in Vietnamese and Khmer")
    check.set_defaults(func=check_command)


def export_command(args: argparse.Namespace) -> int:
    from kiosk.translations import export_csv, export_po

    data = export_po(args.language) if args.format == "po" else export_csv(args.language).encode()
    if args.out is None:
        sys.stdout.buffer.write(data)
    else:
        args.out.write_bytes(data)
        print(f"wrote {args.out} ({args.language}, {args.format})")
    return 0


def check_command(args: argparse.Namespace) -> int:
    from kiosk.translations import TRANSLATED, problems

    found = {language: problems(language) for language in TRANSLATED}
    for language, lines in found.items():
        print(f"{language}: {len(lines)} to translate or check" if lines else f"{language}: every text translated")
        for line in lines:
            print("  " + line)
    return 1 if any(found.values()) else 0
