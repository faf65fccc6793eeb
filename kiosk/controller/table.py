"""What the runtime knows of a game's table: the ``TableController`` protocol the three controllers implement, and
the gate that stops play at every table while the journal has failed its check.

A controller turns the dealer's commands, the panel's buttons and the camera's reads into engine actions written to
the journal, and shows where the round stands as a frozen view (a ``ScreenView``). ``resume`` picks up a round the
journal holds open after a stop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol, runtime_checkable

from engine.baibuu import Settings
from journal.store import OpenRound
from kiosk.controller.view import CardRead, Command, ScreenView
from kiosk.i18n import Msg


@runtime_checkable
class TableController(Protocol):
    round_id: int | None
    """The journal's id of the round in play, None between rounds."""

    dealer: str
    """Who the journal names for what the table does (a supervisor who voids a round sets it first)."""

    @property
    def round_open(self) -> bool: ...

    def view(self) -> ScreenView: ...

    def command(self, name: str, **params: Any) -> None: ...

    def on_button(self, button: str) -> None: ...

    def on_table(
        self, reads: Mapping[str, Sequence[CardRead]], frame: Any = None, taken_at: float | None = None
    ) -> None: ...

    def tick(self) -> None: ...

    def resume(self, open_round: OpenRound) -> None: ...


@runtime_checkable
class DiceTable(TableController, Protocol):
    """A table with a dice shaker (Bài Bửu): it also hears the shaker's results and faults, and it is the table the
    set-up screen changes (its settings, and the bet each seat starts a round with, from the next round)."""

    table_settings: Settings
    default_bet: int

    def on_dice(self, shake_id: int, values: tuple[int, int, int]) -> None: ...

    def on_dice_fault(self, shake_id: int, reason: str, message: str) -> None: ...

    def apply_settings(self, settings: Settings, default_bet: int | None = None) -> None: ...


class GatedTable:
    """A table as its screen and the panel reach it: while ``blocked()`` names a reason (the journal failed its
    check), every command, button and read is refused and the view shows the reason with every button off."""

    def __init__(self, controller: TableController, blocked: Callable[[], Msg | None]) -> None:
        self.controller = controller
        self.blocked = blocked

    def __getattr__(self, name: str) -> Any:
        # What else a screen reads of its table (its journal for the last rounds, its settings) is the controller's;
        # only acting goes through the gate.
        return getattr(self.controller, name)

    def view(self) -> ScreenView:
        view = self.controller.view()
        reason = self.blocked()
        if reason is None:
            return view
        return replace(  # no prompt to press what cannot be pressed
            view,
            prompt=Msg("gate.stopped"),
            alert=reason,
            commands=tuple(Command(c.name, c.label, False) for c in view.commands),
        )

    def command(self, name: str, **params: Any) -> None:
        if self.blocked() is None:
            self.controller.command(name, **params)

    def on_button(self, button: str) -> None:
        if self.blocked() is None:
            self.controller.on_button(button)

    def on_table(
        self, reads: Mapping[str, Sequence[CardRead]], frame: Any = None, taken_at: float | None = None
    ) -> None:
        if self.blocked() is None:
            self.controller.on_table(reads, frame=frame, taken_at=taken_at)

    def tick(self) -> None:
        if self.blocked() is None:
            self.controller.tick()

    def resume(self, open_round: OpenRound) -> None:
        if self.blocked() is None:
            self.controller.resume(open_round)
