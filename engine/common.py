"""What every game engine shares: the error for an illegal action, payments, and the shape of a game.

The shape (see ``../shared/ARCHITECTURE.md``): a frozen settings value validated on creation; a state built
from settings and a deal; for each action a ``verify_…`` raising ``IllegalAction`` with the reason in a
dealer's words, a ``can_…`` answering yes/no, and the action itself returning a frozen action record;
``legal_actions()``, ``is_over``, ``settle()``, ``history``, ``to_json()`` / ``from_json()``; and a module-level
``replay(settings, deal, actions)`` that rebuilds an equal state from JSON-ready values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from engine.errors import InputError

JSON = Any
"""A value made of dicts, lists, str, int, bool and None only (what ``json.dumps`` writes)."""

HOUSE = "house"
"""The payer or payee standing for the house (the bank) in games played against it."""

Party = int | str
"""A seat number, or ``HOUSE``."""


class IllegalAction(InputError):
    """An action the rules do not allow now; the message says why, in a dealer's words."""


class SettingsError(InputError):
    """A table setting that is out of range or inconsistent; the message names it and what is allowed."""


@dataclass(frozen=True, slots=True)
class Payment:
    """Money that moves at settlement, in whole chips, with the rule that moved it."""

    payer: Party
    payee: Party
    amount: int
    reason: str

    def __post_init__(self) -> None:
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) or self.amount < 0:
            raise ValueError(f"a payment is a whole, non-negative number of chips, not {self.amount!r}")

    def to_json(self) -> dict[str, JSON]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "reason": self.reason}


def nets_from_payments(payments: Sequence[Payment], parties: Sequence[Party]) -> dict[Party, int]:
    """Each party's net (received minus paid); the nets of a closed set of payments sum to zero."""
    nets: dict[Party, int] = dict.fromkeys(parties, 0)
    for payment in payments:
        nets[payment.payer] = nets.get(payment.payer, 0) - payment.amount
        nets[payment.payee] = nets.get(payment.payee, 0) + payment.amount
    return nets


@runtime_checkable
class ActionRecord(Protocol):
    """A frozen record of one applied action: who, what, and what it caused."""

    def to_json(self) -> dict[str, JSON]: ...

    def describe(self) -> str: ...


@runtime_checkable
class GameState(Protocol):
    @property
    def is_over(self) -> bool: ...

    @property
    def history(self) -> Sequence[ActionRecord]: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def to_json(self) -> dict[str, JSON]: ...


class GameModule(Protocol):
    """What ``engine.games.load(name)`` returns: the package of one game."""

    GAME: str

    def settings_from_json(self, data: Mapping[str, JSON]) -> Any: ...

    def replay(self, settings: Any, deal: JSON, actions: Sequence[Mapping[str, JSON]]) -> Any: ...
