"""Find a game engine by its name, so the journal and the kiosk can treat all games alike."""

from __future__ import annotations

import importlib
from typing import cast

from engine.common import GameModule

GAMES = ("baibuu", "samloc", "schmier")


def load(game: str) -> GameModule:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: the kiosk plays {', '.join(GAMES)}")
    return cast(GameModule, importlib.import_module(f"engine.{game}"))
