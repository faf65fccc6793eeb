"""What every game engine shares: the error for an illegal action, payments, and the shape of a game.

The shape (see ``../shared/ARCHITECTURE.md``): a frozen settings value validated on creation; a state built
from settings and a deal; for each action a ``verify_…`` raising ``IllegalAction`` with the reason in a
dealer's words, a ``can_…`` answering yes/no, and the action itself returning a frozen action record;
``legal_actions()``, ``is_over``, ``settle()``, ``history``, ``to_json()`` / ``from_json()``; and a module-level
``replay(settings, deal, actions)`` that rebuilds an equal state from JSON-ready values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

from engine.errors import InputError
from engine.phrases import Phrase, PhraseTemplate

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
class Action(Protocol):
    """What a player or the dealer asks for; ``to_json()`` is the one envelope ``{"kind": …, …}``."""

    @property
    def kind(self) -> str: ...

    def to_json(self) -> dict[str, JSON]: ...


@runtime_checkable
class ActionRecord(Protocol):
    """A frozen record of one applied action: who, what (``action``), and what it caused (``describe()``)."""

    @property
    def action(self) -> Action: ...

    def to_json(self) -> dict[str, JSON]: ...

    def describe(self) -> str: ...


@runtime_checkable
class Settlement(Protocol):
    """What ``settle()`` returns in every game: the payments with their reasons (whole chips; none in a game
    played for points, such as Schmier, whose settlement also carries the points and the match score)."""

    @property
    def payments(self) -> tuple[Payment, ...]: ...

    def to_json(self) -> dict[str, JSON]: ...


A = TypeVar("A", bound=Action)
R_co = TypeVar("R_co", bound=ActionRecord, covariant=True)


@runtime_checkable
class GameState(Protocol[A, R_co]):
    """The state of one game (one round or hand), the same shape in every package (each exports it as ``State``).

    ``legal_actions()`` lists exactly the actions ``apply()`` takes now; ``verify(action)`` raises
    ``IllegalAction`` with the reason, ``can(action)`` answers yes/no, ``apply(action)`` acts and returns the
    frozen record. ``from_json(to_json())`` and ``replay(settings, deal, actions)`` rebuild an equal state.
    """

    @property
    def is_over(self) -> bool: ...

    @property
    def history(self) -> Sequence[R_co]: ...

    def legal_actions(self) -> Sequence[A]: ...

    def verify(self, action: A) -> None: ...

    def can(self, action: A) -> bool: ...

    def apply(self, action: A) -> R_co: ...

    def settle(self) -> Settlement: ...

    def copy(self) -> Self: ...

    def to_json(self) -> dict[str, JSON]: ...

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Self: ...


class GameModule(Protocol):
    """What ``engine.games.load(name)`` returns: the package of one game."""

    GAME: str
    State: type[GameState[Any, Any]]

    def settings_from_json(self, data: Mapping[str, JSON]) -> Any: ...

    def action_from_json(self, data: Mapping[str, JSON]) -> Any: ...

    def replay(self, settings: Any, deal: JSON, actions: Sequence[Mapping[str, JSON]]) -> Any: ...


def answers_yes(verify: Callable[..., object], *args: object) -> bool:
    """What every ``can_…`` says: whether ``verify(*args)`` passes without raising ``IllegalAction``."""
    try:
        verify(*args)
    except IllegalAction:
        return False
    return True


def kind_of(data: Mapping[str, JSON], kinds: Sequence[str]) -> str:
    """The ``"kind"`` of an action in the one envelope, checked against the game's ``kinds``."""
    kind = data.get("kind")
    if kind not in kinds:
        raise IllegalAction(f"an action's kind is one of {', '.join(kinds)}, not {kind!r}")
    return str(kind)


def check_keys(data: Mapping[str, JSON], required: Sequence[str], optional: Sequence[str] = ()) -> None:
    """An action names exactly its fields: say which are missing or unknown."""
    keys = set(data) - {"kind"}
    missing = sorted(set(required) - keys)
    unknown = sorted(keys - set(required) - set(optional))
    if missing or unknown:
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unknown {', '.join(unknown)}"] if unknown else []
        )
        raise IllegalAction(f"{data.get('kind')}: {'; '.join(parts)}")


S = TypeVar("S", bound=GameState[Any, Any])
REFUSED_ACTION = PhraseTemplate("replay.refused_action", "action {index}: {error}")


def record_actions(data: object, *, game: str, what: str, keys: Sequence[str], example: str
                   ) -> list[Mapping[str, JSON]]:
    """The actions of a hand file or a table record (``what``: "a Schmier hand file"), its outer shape checked: a
    JSON object of ``game`` with none but ``keys``, whose actions are a list. A malformed one raises ``InputError``
    saying what to fix."""
    if not isinstance(data, Mapping):
        named = ", ".join(key for key in keys if key not in ("game", "note", "now"))
        raise InputError(f"{what} is a JSON object with {named}")
    if data.get("game", game) != game:
        raise InputError(f"this is a {data.get('game')!r} file, not {what}")
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise InputError(f"unknown key {', '.join(map(repr, unknown))} in {what}; its keys are {', '.join(keys)}")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise InputError(f'"actions" must be a list of actions such as {example}')
    return actions


def replay_actions(state: S, actions: Sequence[Mapping[str, JSON]], read: Callable[[Mapping[str, JSON]], Any]) -> S:
    """Apply recorded actions (their JSON, in today's envelope or an older form ``read`` understands) in order;
    an illegal one raises ``IllegalAction`` starting with ``action <index>: ``. Shared by every game's ``replay``."""
    for index, data in enumerate(actions):
        try:
            state.apply(read(data))
        except InputError as error:
            reason = error.args[0] if len(error.args) == 1 and isinstance(error.args[0], Phrase) else str(error)
            raise IllegalAction(REFUSED_ACTION(index=index, error=reason)) from None
    return state
