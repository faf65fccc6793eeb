"""The typed events of the table: one frozen dataclass per kind, each with a JSON payload that round-trips.

Money is whole chips (``int``); a detector's confidence is the only float. Cards are card text (``"10H"``).
``decode(kind, payload)`` turns a stored payload back into its event, refusing anything malformed.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

from journal.errors import JournalError

JSON = Any
Party = int | str
"""A seat number, or ``"house"``."""

_KINDS: dict[str, type[Event]] = {}
_E = TypeVar("_E", bound="Event")


class EventError(JournalError):
    """An event whose fields are missing, of the wrong type or out of range."""


@dataclass(frozen=True, slots=True)
class PaymentLine:
    """One payment as the journal keeps it (the same shape as ``engine.common.Payment.to_json()``)."""

    payer: Party
    payee: Party
    amount: int
    reason: str

    def __post_init__(self) -> None:
        _check_chips(self.amount, "payment amount")

    def to_json(self) -> dict[str, JSON]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "reason": self.reason}

    @classmethod
    def from_json(cls, data: JSON) -> PaymentLine:
        if not isinstance(data, Mapping) or set(data) != {"from", "to", "amount", "reason"}:
            raise EventError(f"a payment needs exactly from, to, amount and reason, not {data!r}")
        return cls(
            payer=_load(Party, data["from"], "payment from"),
            payee=_load(Party, data["to"], "payment to"),
            amount=_load(int, data["amount"], "payment amount"),
            reason=_load(str, data["reason"], "payment reason"),
        )


class Event:
    """Base of every event kind. Subclasses are frozen dataclasses with a ``KIND`` and JSON-ready fields."""

    KIND: ClassVar[str] = ""
    ROUND: ClassVar[bool] = False
    """True for kinds that always belong to a round."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.KIND:
            previous = _KINDS.get(cls.KIND)
            if previous is not None and previous.__qualname__ != cls.__qualname__:
                raise TypeError(f"two event classes claim kind {cls.KIND!r}")
            _KINDS[cls.KIND] = cls  # dataclass(slots=True) re-creates the class: the last one is the real one

    def to_payload(self) -> dict[str, JSON]:
        assert dataclasses.is_dataclass(self)
        return {f.name: _dump(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_payload(cls: type[_E], payload: Mapping[str, JSON]) -> _E:
        assert dataclasses.is_dataclass(cls)
        hints = get_type_hints(cls)
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(payload) - names
        if unknown:
            raise EventError(f"{cls.KIND} event has unknown fields {sorted(unknown)}")
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in payload:
                values[f.name] = _load(hints[f.name], payload[f.name], f"{cls.KIND}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise EventError(f"{cls.KIND} event lacks its field {f.name!r}")
        return cls(**values)


def kinds() -> dict[str, type[Event]]:
    """Every event kind by its name."""
    return dict(_KINDS)


def decode(kind: str, payload: Mapping[str, JSON]) -> Event:
    cls = _KINDS.get(kind)
    if cls is None:
        raise EventError(f"unknown event kind {kind!r}: was this journal written by a newer dealer-assist?")
    return cls.from_payload(payload)


# ---- the kiosk and its devices ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KioskStarted(Event):
    KIND: ClassVar[str] = "kiosk_started"
    version: str
    open_round: int | None = None
    """The round found open at start (resumed or voided by the events that follow), if any."""


@dataclass(frozen=True, slots=True)
class KioskStopped(Event):
    KIND: ClassVar[str] = "kiosk_stopped"
    reason: str


@dataclass(frozen=True, slots=True)
class DeviceUp(Event):
    KIND: ClassVar[str] = "device_up"
    device: str
    """``shaker``, ``panel``, ``camera`` …"""
    port: str = ""


@dataclass(frozen=True, slots=True)
class DeviceDown(Event):
    KIND: ClassVar[str] = "device_down"
    device: str
    reason: str


@dataclass(frozen=True, slots=True)
class DeviceRefused(Event):
    """A shaker or panel that did not prove it holds the key paired with this kiosk (protocol 3): not paired,
    another key, a recording played back, a frame altered on the wire, or a version 2 device. Nothing it sent was
    acted on. ``serial`` is what it called itself (a forged device may lie). Never the key."""

    KIND: ClassVar[str] = "device_refused"
    device: str
    serial: str
    reason: str


@dataclass(frozen=True, slots=True)
class DevicePaired(Event):
    """A device paired (or paired again) with this kiosk: a new key made and kept on both sides (never journalled)."""

    KIND: ClassVar[str] = "device_paired"
    device: str
    """``shaker`` or ``panel``."""
    serial: str
    by: str
    """The supervisor who signed the pairing with their PIN."""
    port: str = ""
    again: bool = False
    """True when the unit had a key before (a re-pairing)."""


@dataclass(frozen=True, slots=True)
class DevicesUnauthenticated(Event):
    """A device taken on protocol 2, by the config's explicit ``devices.allow_version_2``: not authenticated."""

    KIND: ClassVar[str] = "devices_unauthenticated"
    device: str
    serial: str


@dataclass(frozen=True, slots=True)
class SupervisorSignedIn(Event):
    KIND: ClassVar[str] = "supervisor_signed_in"
    supervisor: str


@dataclass(frozen=True, slots=True)
class SupervisorSignedOut(Event):
    KIND: ClassVar[str] = "supervisor_signed_out"
    supervisor: str


@dataclass(frozen=True, slots=True)
class SupervisorSignInFailed(Event):
    """A sign-in refused: a wrong PIN, or any try while the kiosk is locked out. The PIN itself is never kept."""

    KIND: ClassVar[str] = "supervisor_sign_in_failed"
    supervisor: str
    """The supervisor ID the try was made for."""
    failures: int
    """Wrong tries in a row on this kiosk, this one included."""
    locked_for_s: int
    """Seconds the kiosk refuses every sign-in from now (0: none)."""
    reason: str


@dataclass(frozen=True, slots=True)
class SupervisorLocked(Event):
    """A signed-in supervisor's screen locked without them: no touch for a while, or the screen was left."""

    KIND: ClassVar[str] = "supervisor_locked"
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class DealerSignedIn(Event):
    """A dealer signed in at the table (ID and PIN): every round from now on is theirs until another signs in."""

    KIND: ClassVar[str] = "dealer_signed_in"
    dealer: str


@dataclass(frozen=True, slots=True)
class DealerSignedOut(Event):
    """The dealer left the table: signed out, or relieved by the next dealer signing in (``reason`` says which)."""

    KIND: ClassVar[str] = "dealer_signed_out"
    dealer: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class DealerSignInFailed(Event):
    """A dealer's sign-in refused: a wrong PIN, an ID the kiosk does not know, or a try while locked out. The PIN
    itself is never kept."""

    KIND: ClassVar[str] = "dealer_sign_in_failed"
    dealer: str
    failures: int
    locked_for_s: int
    reason: str


@dataclass(frozen=True, slots=True)
class SupervisorAdded(Event):
    """A supervisor (ID and PIN) added to the kiosk's config; ``by`` is who did it (the first one: themself)."""

    KIND: ClassVar[str] = "supervisor_added"
    supervisor: str
    by: str


@dataclass(frozen=True, slots=True)
class JournalChecked(Event):
    """A supervisor ran VERIFY JOURNAL on the kiosk: who, and what it found."""

    KIND: ClassVar[str] = "journal_checked"
    by: str
    sound: bool
    events: int
    problem: str = ""


@dataclass(frozen=True, slots=True)
class SettingsChanged(Event):
    KIND: ClassVar[str] = "settings_changed"
    setting: str
    before: JSON
    after: JSON
    by: str


@dataclass(frozen=True, slots=True)
class ClockChanged(Event):
    """The wall clock moved apart from the monotonic clock (NTP step, a person setting the time)."""

    KIND: ClassVar[str] = "clock_changed"
    before: str
    after: str
    jump_ms: int


# ---- what the table sees ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    KIND: ClassVar[str] = "dice_rolled"
    dice: tuple[int, ...]
    shake: int = 1
    """1 for the first shake of the round, 2 after one re-shake …"""

    def __post_init__(self) -> None:
        if not self.dice or any(isinstance(d, bool) or not 1 <= d <= 6 for d in self.dice):
            raise EventError(f"a dice result is values 1 to 6, not {list(self.dice)}: shake again (dice_reshaken)")
        if self.shake < 1:
            raise EventError(f"shake is counted from 1, not {self.shake}")


@dataclass(frozen=True, slots=True)
class DiceReshaken(Event):
    KIND: ClassVar[str] = "dice_reshaken"
    reason: str
    """Why: ``cocked die``, ``value 7 from the shaker``, ``only 2 dice``, ``dealer asked`` …"""
    raw: str = ""
    """What the shaker sent, as text, when that was the cause."""


@dataclass(frozen=True, slots=True)
class CardsRead(Event):
    KIND: ClassVar[str] = "cards_read"
    zone: str
    cards: tuple[str, ...]
    confidences: tuple[float, ...]
    frame: str | None = None
    """The evidence frame's content hash (``Journal.store_frame``)."""
    boxes: tuple[tuple[int, ...], ...] = ()
    """Where each card was read in that frame, ``(x1, y1, x2, y2)`` pixels; ``()`` for a card set by hand."""

    def __post_init__(self) -> None:
        if len(self.confidences) != len(self.cards):
            raise EventError(f"cards_read has {len(self.cards)} cards but {len(self.confidences)} confidences")
        if self.boxes and (len(self.boxes) != len(self.cards) or any(len(b) not in (0, 4) for b in self.boxes)):
            raise EventError(f"cards_read has {len(self.cards)} cards but boxes {[list(b) for b in self.boxes]}")
        if any(not 0.0 <= c <= 1.0 for c in self.confidences):
            raise EventError(f"a confidence is between 0 and 1, not {list(self.confidences)}")


@dataclass(frozen=True, slots=True)
class CardsMisread(Event):
    """The reader could not give a result the kiosk accepts (too unsure, wrong count, a duplicate card)."""

    KIND: ClassVar[str] = "cards_misread"
    zone: str
    reason: str
    cards: tuple[str, ...] = ()
    confidences: tuple[float, ...] = ()
    frame: str | None = None


@dataclass(frozen=True, slots=True)
class CardsCorrected(Event):
    KIND: ClassVar[str] = "cards_corrected"
    zone: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    by: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ReaderModelChanged(Event):
    """The card reader reads with this model from now on: every round after it was read by it. Written when a model
    learnt for an enrolled deck is activated (with the verification figures that justified it), or set back."""

    KIND: ClassVar[str] = "reader_model_changed"
    model: str
    """The model's hash (``vision.enroll.registry.model_hash``)."""
    name: str
    """Its folder's name; ``shipped`` for the repository's ``models/``."""
    profile: str = ""
    """The deck profile it was learnt for, ``slug@vN``."""
    previous: str = ""
    cards_checked: int = 0
    right_before: int = 0
    right_after: int = 0
    by: str = ""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class EvidencePruned(Event):
    """Evidence frames deleted by the kiosk's retention settings (written before the files go), so that a frame a
    reading cites and that is no longer on disk is explained rather than missing."""

    KIND: ClassVar[str] = "evidence_pruned"
    frames: tuple[str, ...]
    rounds: tuple[int, ...]
    """The closed rounds whose readings cited them."""
    reason: str
    """``older than 30 days`` or ``over the 2000 MB cap`` …"""
    freed_bytes: int = 0


@dataclass(frozen=True, slots=True)
class EvidenceHeld(Event):
    """A round's evidence frames are kept whatever the retention settings say (a dispute)."""

    KIND: ClassVar[str] = "evidence_held"
    round: int
    by: str
    reason: str


# ---- the round -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundBegun(Event):
    KIND: ClassVar[str] = "round_begun"
    ROUND: ClassVar[bool] = True
    game: str
    settings: dict[str, JSON]
    deal: JSON
    dealer: str = ""
    """The dealer signed in when the round began ("" when none was: journals written before dealers signed in)."""

    def to_payload(self) -> dict[str, JSON]:
        payload = Event.to_payload(self)
        if not self.dealer:
            del payload["dealer"]  # a round without a dealer is written as before dealers signed in
        return payload


@dataclass(frozen=True, slots=True)
class ActionRecorded(Event):
    KIND: ClassVar[str] = "action_recorded"
    ROUND: ClassVar[bool] = True
    index: int
    action: dict[str, JSON]
    description: str = ""


@dataclass(frozen=True, slots=True)
class HouseSplitShown(Event):
    """Bài Bửu: the house way's split as the dealer was told to set it, with the rule that decided it."""

    KIND: ClassVar[str] = "house_split_shown"
    ROUND: ClassVar[bool] = True
    high: tuple[str, ...]
    low: tuple[str, ...]
    rule: str = ""


@dataclass(frozen=True, slots=True)
class ResultsShown(Event):
    """The seat results and payments put on the dealer's screen (written before they are shown)."""

    KIND: ClassVar[str] = "results_shown"
    ROUND: ClassVar[bool] = True
    payments: tuple[PaymentLine, ...]
    nets: dict[str, int]
    lines: tuple[str, ...] = ()
    """The result of each seat in words, as shown."""

    def __post_init__(self) -> None:
        _check_nets(self.nets)


@dataclass(frozen=True, slots=True)
class RoundSettled(Event):
    KIND: ClassVar[str] = "round_settled"
    ROUND: ClassVar[bool] = True
    payments: tuple[PaymentLine, ...]
    nets: dict[str, int]
    confirmed_by: str = "dealer"

    def __post_init__(self) -> None:
        _check_nets(self.nets)


@dataclass(frozen=True, slots=True)
class RoundVoided(Event):
    KIND: ClassVar[str] = "round_voided"
    ROUND: ClassVar[bool] = True
    by: str
    reason: str

    def __post_init__(self) -> None:
        if not self.by.strip() or not self.reason.strip():
            raise EventError("voiding a round needs who voids it and why")


@dataclass(frozen=True, slots=True)
class RoundResumed(Event):
    """An open round found at start was taken up again at the step it had reached."""

    KIND: ClassVar[str] = "round_resumed"
    ROUND: ClassVar[bool] = True
    step: str
    actions: int
    by: str = "kiosk"


@dataclass(frozen=True, slots=True)
class Note(Event):
    """Free text a supervisor adds (the why of a void, a dispute); never changes a result."""

    KIND: ClassVar[str] = "note"
    text: str
    by: str = field(default="")


# ---- JSON conversion -------------------------------------------------------------------------------------------


def _check_chips(amount: object, what: str) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise EventError(f"{what} is a whole, non-negative number of chips, not {amount!r}")


def _check_nets(nets: Mapping[str, int]) -> None:
    for party, amount in nets.items():
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise EventError(f"the net of {party} is a whole number of chips, not {amount!r}")


def _dump(value: Any) -> JSON:
    if isinstance(value, PaymentLine):
        return value.to_json()
    if isinstance(value, tuple | list):
        return [_dump(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _dump(v) for k, v in value.items()}
    if not isinstance(value, str | int | float | bool | None) and hasattr(value, "item"):
        return value.item()  # a NumPy scalar (a detector's confidence) becomes a plain number
    return value


_PLAIN: dict[Any, tuple[type, ...]] = {str: (str,), int: (int,), float: (float, int), bool: (bool,)}


def _load(tp: Any, value: JSON, where: str) -> Any:
    origin = get_origin(tp)
    if tp is Any:
        return value
    if tp is type(None):
        if value is not None:
            raise EventError(f"{where}: expected nothing (null), got {value!r}")
        return None
    if tp in _PLAIN:
        ok = isinstance(value, _PLAIN[tp]) and (tp is bool or not isinstance(value, bool))
        if not ok:
            raise EventError(f"{where}: expected {tp.__name__}, got {value!r}")
        return float(value) if tp is float else value
    if origin in (Union, types.UnionType):
        for option in get_args(tp):
            try:
                return _load(option, value, where)
            except EventError:
                continue
        raise EventError(f"{where}: {value!r} is none of {tp}")
    if origin is tuple:
        (item,) = (a for a in get_args(tp) if a is not Ellipsis)
        if not isinstance(value, list):
            raise EventError(f"{where}: expected a list, got {value!r}")
        return tuple(_load(item, v, f"{where}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        _, item = get_args(tp)
        if not isinstance(value, dict):
            raise EventError(f"{where}: expected an object, got {value!r}")
        return {str(k): _load(item, v, f"{where}.{k}") for k, v in value.items()}
    if tp is PaymentLine:
        return PaymentLine.from_json(value)
    raise TypeError(f"{where}: no JSON reader for {tp!r}")  # a programming error in this module

