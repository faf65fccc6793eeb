"""The table of a Sâm Lốc game: every number of the rulebook, in one place, as validated settings.

Money is counted in units of the bet ("×bet"); the ``*_bets`` settings are those multipliers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from engine.common import JSON, SettingsError

GAME = "samloc"

BET_LEVELS = (10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000)
TURN_TIMERS_S = (15, 20, 30)
MODES = ("normal", "sam_ngheo_giau")
MIN_PLAYERS = 2
MAX_PLAYERS = 4
CARDS_PER_HAND = 10
DECK_SIZE = 52


@dataclass(frozen=True, slots=True)
class Settings:
    """One table's settings. ``players`` and ``balances`` are optional: without them the deal decides how
    many play and nobody's coins are checked; with them every seat must hold at least the bet."""

    bet: int
    turn_timer_s: int = 20
    mode: str = "normal"
    room_owner: int = 0
    players: int | None = None
    balances: tuple[int, ...] | None = None
    quad_beats_pair_of_twos: bool = False
    # (decision) a timed-out player under the báo-1 duty leads his highest single, not his lowest.
    timeout_keeps_bao1_duty: bool = True
    card_bets: int = 1
    never_played_cards: int = 15
    thoi_bets: int = 3
    chop_bets: int = 5
    overkill_step_bets: int = 5
    chop_cap_bets: int = 10
    sam_bets: int = 10
    instant_win_bets: int = 10
    two_finish_bets: int = 3

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if field.name in _BOOL_FIELDS:
                if not isinstance(value, bool):
                    raise SettingsError(f"setting {field.name} must be true or false, not {value!r}")
            elif field.name == "mode":
                if value not in MODES:
                    raise SettingsError(f"setting mode is {value!r}; allowed: {', '.join(MODES)}")
            elif field.name == "balances":
                self._check_balances(value)
            elif value is not None and (not _is_int(value) or value < 0):
                raise SettingsError(f"setting {field.name} must be a whole number of at least 0, not {value!r}")
        if self.bet not in BET_LEVELS:
            levels = ", ".join(str(level) for level in BET_LEVELS)
            raise SettingsError(f"setting bet is {self.bet}, not one of the bet levels: {levels}")
        if self.turn_timer_s not in TURN_TIMERS_S:
            raise SettingsError(
                f"setting turn_timer_s is {self.turn_timer_s}; allowed: {', '.join(map(str, TURN_TIMERS_S))} seconds"
            )
        seats = self.seat_count
        if seats is not None:
            check_player_count(seats)
            if not 0 <= self.room_owner < seats:
                raise SettingsError(
                    f"setting room_owner is {self.room_owner} (seat {self.room_owner + 1}), but the table seats "
                    f"{seats}: room_owner is 0 to {seats - 1}"
                )
        if self.chop_cap_bets < self.chop_bets:
            raise SettingsError(
                f"setting chop_cap_bets ({self.chop_cap_bets}) is below chop_bets ({self.chop_bets}); raise the cap"
            )
        if self.balances is not None and self.balances[self.room_owner] < self.bet:
            raise SettingsError(
                f"the room owner (seat {self.room_owner + 1}) holds {self.balances[self.room_owner]} coins, "
                f"less than the bet {self.bet}: choose a lower bet level or add coins"
            )

    def _check_balances(self, balances: tuple[int, ...] | None) -> None:
        if balances is None:
            return
        if not isinstance(balances, tuple) or not all(_is_int(b) for b in balances):
            raise SettingsError(f"setting balances must be a list of whole coin amounts, not {balances!r}")
        check_player_count(len(balances))
        if self.players is not None and self.players != len(balances):
            raise SettingsError(f"setting players is {self.players} but balances lists {len(balances)} players")

    @property
    def seat_count(self) -> int | None:
        """How many play, where the settings say."""
        if self.players is not None:
            return self.players
        return None if self.balances is None else len(self.balances)

    @property
    def sam_ngheo_giau(self) -> bool:
        return self.mode == "sam_ngheo_giau"

    def times_bet(self, multiple: int) -> int:
        return multiple * self.bet

    def to_json(self) -> dict[str, JSON]:
        data = asdict(self)
        if self.balances is not None:
            data["balances"] = list(self.balances)
        return {key: value for key, value in data.items() if value is not None}

    def with_balances(self, balances: Sequence[int]) -> Settings:
        return Settings(**{**_field_values(self), "balances": tuple(balances), "players": len(balances)})


def _field_values(settings: Settings) -> dict[str, Any]:
    return {field.name: getattr(settings, field.name) for field in fields(settings)}


_BOOL_FIELDS = {"quad_beats_pair_of_twos", "timeout_keeps_bao1_duty"}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_player_count(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SettingsError(f"Sâm Lốc is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")


def settings_from_json(data: Mapping[str, JSON]) -> Settings:
    """Settings from the "table" of a hand file (plus ``players``/``balances`` where known)."""
    if not isinstance(data, Mapping):
        raise SettingsError(f"the table settings must be a JSON object, not {type(data).__name__}")
    known = {field.name for field in fields(Settings)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise SettingsError(f"unknown table setting {', '.join(unknown)}; known settings: {', '.join(sorted(known))}")
    if "bet" not in data:
        raise SettingsError(f"the table has no bet; choose one of {', '.join(map(str, BET_LEVELS))}")
    values = dict(data)
    balances = values.get("balances")
    if balances is not None:
        if not isinstance(balances, list):
            raise SettingsError(f"setting balances must be a list of whole coin amounts, not {balances!r}")
        values["balances"] = tuple(balances)
    return Settings(**values)


def dealt_in(balances: Sequence[int], bet: int) -> tuple[int, ...]:
    """(decision) The seats that hold at least the bet and are dealt the next hand; the others sit out."""
    return tuple(seat for seat, coins in enumerate(balances) if coins >= bet)
