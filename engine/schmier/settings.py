"""Table settings of a Schmier table: the spec's two options, validated on creation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from engine.common import JSON, SettingsError

GAME_TARGET = 21
"""The game ends after a hand that leaves a team with this many points or more."""
MIN_BID = 3
MAX_BID = 6
MAX_DISCARD = 3
HAND_SIZE = 6
KEPT_SIZE = 17
TRICKS = 6


@dataclass(frozen=True, slots=True)
class Settings:
    """``trump_anytime``: a player who can follow suit may still play a trump (default off).

    ``show_dealer_trump_discards``: the trumps the dealer discards are shown face up (default hidden).
    """

    trump_anytime: bool = False
    show_dealer_trump_discards: bool = False

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if not isinstance(value, bool):
                raise SettingsError(f"setting {field.name} = {value!r}: allowed values are true and false")

    def to_json(self) -> dict[str, JSON]:
        return {field.name: getattr(self, field.name) for field in fields(self)}


def settings_from_json(data: Mapping[str, JSON]) -> Settings:
    if not isinstance(data, Mapping):
        raise SettingsError(f"Schmier settings must be an object of named settings, not {data!r}")
    known = {field.name for field in fields(Settings)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise SettingsError(
            f"unknown Schmier setting {', '.join(map(repr, unknown))}: the settings are {', '.join(sorted(known))}"
        )
    return Settings(**dict(data))
