"""``dealer-assist``: one command with a subcommand per part of the product.

Each part registers its own subcommands through a module with ``register(subparsers)``; those modules keep
their heavy imports (Kivy, OpenCV, ONNX Runtime) inside the handlers so that ``dealer-assist baibuu …``
starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

from engine.errors import InputError

COMMAND_MODULES = (
    "kiosk.commands.baibuu",
    "kiosk.commands.samloc",
    "kiosk.commands.schmier",
    "hardware.cli",
    "kiosk.commands.devices",
    "journal.cli",
    "floor.cli",
    "vision.cli",
    "kiosk.commands.app",
    "kiosk.commands.appliance",
    "kiosk.commands.translations",
)
# Subcommands of ``vision`` that live in the kiosk because they write to the journal (vision imports only engine).
VISION_COMMAND_MODULES = ("kiosk.commands.enroll", "kiosk.commands.learn_play")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dealer-assist",
        description="Dealer-assist kiosk for live card tables: game rules, card reader, devices, journal.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        group = importlib.import_module(name).register(subparsers)
        if name == "vision.cli":
            for vision_name in VISION_COMMAND_MODULES:
                importlib.import_module(vision_name).register(group)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    try:
        if "words" in vars(args):  # a command of a part that may not import the kiosk words its text by our catalogue
            from kiosk.commands.language import catalogue_of

            catalogue = catalogue_of(args)
            args.words = catalogue.phrase if catalogue.language != "en" else None  # English: as the part wrote it
        return int(args.func(args) or 0)
    except InputError as error:
        print(f"dealer-assist: {error}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as error:
        print(f"dealer-assist: not valid JSON ({error}); check the file", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"dealer-assist: {error.strerror or error}: {error.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
