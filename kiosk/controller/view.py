"""What a controller shows: plain frozen values the screen renders (and tests read) without knowing the rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine.cards import Card
from engine.errors import InputError
from kiosk.i18n import Catalogue, Msg


class Health(StrEnum):
    OK = "ok"
    WARN = "warn"
    DOWN = "down"
    OFF = "off"


@dataclass(frozen=True)
class DeviceHealth:
    """The status bar: camera, shaker, panel and journal, each with a short detail."""

    camera: Health = Health.OFF
    shaker: Health = Health.OFF
    panel: Health = Health.OFF
    journal: Health = Health.OFF
    details: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class CardRead:
    """One card in a place on the felt, as read (or as corrected by hand)."""

    card: Card
    confidence: float = 1.0
    flags: frozenset[str] = frozenset()
    corrected: bool = False
    read_as: Card | None = None
    """For a card the dealer corrected: the card the reader had read in its place (the card lies where that reading
    was, which the journal keeps as a labelled example: learning from play); None for one set by hand."""
    alternatives: tuple[Card, ...] = ()
    """The reader's next guesses for this card, likeliest first: the picker offers them first."""

    @property
    def doubtful(self) -> bool:
        return bool(self.flags) and not self.corrected


@dataclass(frozen=True)
class PlaceView:
    """A place on the felt that holds ``expected`` cards (a seat's high hand, the centre, ...)."""

    zone: str
    label: Msg
    cards: tuple[CardRead, ...]
    expected: int
    problem: Msg | None = None

    @property
    def complete(self) -> bool:
        return len(self.cards) == self.expected and self.problem is None


@dataclass(frozen=True)
class Command:
    """A button the dealer can press now; ``name`` is the command the controller takes."""

    name: str
    label: Msg
    enabled: bool = True


@dataclass(frozen=True)
class ScreenView:
    """Shared by every game screen: what to do next, what went wrong, which buttons work."""

    prompt: Msg
    alert: Msg | None = None
    commands: tuple[Command, ...] = ()
    round_id: int | None = None
    info: tuple[Msg, ...] = field(default_factory=tuple)


class Refused(InputError):
    """A command the table refuses for a reason the catalogue words (so it shows in the dealer's language); its
    text is the English wording."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(Catalogue("en").text(msg))
        self.msg = msg
