"""Each game's table, made from the kiosk's config by the game's own maker, so the runtime names no controller class.

A new game adds one maker to ``TABLE_MAKERS``; the runtime builds every table from the same ``TableParts``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.clock import Clock
from journal import Journal
from kiosk.config import KioskConfig
from kiosk.controller.baibuu import BaiBuuController
from kiosk.controller.samloc import SamLocController
from kiosk.controller.schmier import SchmierController
from kiosk.controller.table import TableController


@dataclass(frozen=True)
class TableParts:
    """What every table is made from: the config, the journal it writes, the clock, and the parts some games use."""

    config: KioskConfig
    journal: Journal
    clock: Clock
    shake: Callable[[], int | None]
    """Starts a shake on the shaker; None while it is offline (a dice game's)."""
    table_reset: Callable[[float], None]
    """Tells the camera a round began at that monotonic time, so it reads the felt afresh (a dice game's)."""


def _baibuu(parts: TableParts) -> TableController:
    config = parts.config
    return BaiBuuController(
        config.game_settings("baibuu"), parts.journal, parts.clock, parts.shake,
        default_bet=config.default_bet, shake_timeout_s=config.shake_timeout_s, table_reset=parts.table_reset,
    )


def _samloc(parts: TableParts) -> TableController:
    settings = parts.config.games.get("samloc", {"bet": 10})
    return SamLocController(settings, parts.journal, parts.clock, seed=parts.config.devices.seed)


def _schmier(parts: TableParts) -> TableController:
    settings = parts.config.games.get("schmier", {})
    return SchmierController(settings, parts.journal, parts.clock, seed=parts.config.devices.seed)


TABLE_MAKERS: dict[str, Callable[[TableParts], TableController]] = {
    "baibuu": _baibuu,
    "samloc": _samloc,
    "schmier": _schmier,
}


def make_tables(parts: TableParts) -> dict[str, TableController]:
    """Every game's table, by the game's name in the config."""
    return {game: make(parts) for game, make in TABLE_MAKERS.items()}
