"""``dealer-assist vision …``: the card reader's commands.

Each part of ``vision/`` adds its own subcommands through a module with ``register(vision_subparsers)``;
``register`` returns those subparsers so that the kiosk can add ``vision enroll``, which writes to the journal
(vision itself imports only the engine).
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

VISION_COMMAND_MODULES = (
    "vision.reader_cli",  # read, eval, train, export
    "vision.table_cli",  # calibrate, watch, layout
)


def register(subparsers: Any) -> Any:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "vision", help="the card reader: read photos, train, evaluate, calibrate the table, watch the camera"
    )
    vision_subparsers = parser.add_subparsers(dest="vision_command", metavar="VISION_COMMAND")
    for name in VISION_COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name and (name + ".").startswith(error.name + "."):  # not built yet
                continue
            raise
        module.register(vision_subparsers)
    parser.set_defaults(func=lambda _args: parser.print_help() or 2)
    return vision_subparsers
