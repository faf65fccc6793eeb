"""Supervisors of the kiosk: their PINs (salted Argon2id, checked in constant time), the lock-out after wrong tries,
and the signed-in session that locks itself after two minutes without a touch.

Everything here runs on the kiosk's one clock and records through a callback, so tests move time by hand and
read what was recorded; the Kivy screens only show what ``SignInDesk`` says.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from argon2 import PasswordHasher, extract_parameters
from argon2.exceptions import InvalidHashError, VerificationError

from engine.clock import Clock
from engine.phrases import PhraseTemplate
from journal.events import (
    DealerSignedIn,
    DealerSignedOut,
    DealerSignInFailed,
    Event,
    SupervisorLocked,
    SupervisorSignedIn,
    SupervisorSignedOut,
    SupervisorSignInFailed,
)

FREE_TRIES = 5
"""Wrong PINs in a row before the kiosk refuses every sign-in for a while."""
FIRST_LOCK_S = 30
LONGEST_LOCK_S = 15 * 60
IDLE_LOCK_S = 120.0
"""A signed-in supervisor's screen locks after this long without a touch."""
PIN_DIGITS = (4, 12)
# Why a new ID or PIN is refused: English for the command line and the config's errors, a phrase the first-supervisor
# pad words in the screen's language (kiosk.i18n).
PIN_FORMAT = PhraseTemplate("signin.problem.pin_format",
                            "a PIN is {low} to {high} digits (the screen has a number pad)")
PIN_GUESSABLE = PhraseTemplate("signin.problem.pin_guessable",
                               "a PIN of one digit repeated or of digits in a row is guessed first: choose another")
ID_FORMAT = PhraseTemplate("signin.problem.id_format",
                           "a supervisor ID is 1 to 16 letters, digits, - or _ (such as S1 or 4711), not starting with "
                           "- or _")
SUPERVISOR_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,15}$")
DEALER_ID_FORMAT = "a dealer ID is their badge number: 1 to 10 digits (typed on the kiosk's number pad)"
DEALER_ID = re.compile(r"^[0-9]{1,10}$")
_HASHER = PasswordHasher()  # argon2id, 64 MiB, 3 passes: about 0.1 s a try on a kiosk PC
_PHC = re.compile(r"^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$")


def hash_pin(pin: str) -> str:
    """A new salted Argon2id hash of ``pin`` (as the config file keeps it)."""
    problem = pin_problem(pin)
    if problem:
        raise ValueError(problem)
    return _HASHER.hash(pin)


def pin_problem(pin: str) -> str | None:
    low, high = PIN_DIGITS
    if not pin.isdigit() or not pin.isascii() or not low <= len(pin) <= high:
        return PIN_FORMAT(low=low, high=high)
    if len(set(pin)) == 1 or pin in "0123456789012" or pin in "9876543210987":
        return PIN_GUESSABLE()
    return None


def pin_hash_problem(value: Any) -> str | None:
    """Why ``value`` is not a PIN hash this kiosk can check (None when it is)."""
    if not isinstance(value, str) or not _PHC.match(value):
        return "not an Argon2id PIN hash ($argon2id$v=19$m=…,t=…,p=…$salt$hash)"
    try:
        parameters = extract_parameters(value)
    except (InvalidHashError, ValueError):
        return "not an Argon2id PIN hash (its parameters cannot be read)"
    if parameters.salt_len < 8 or parameters.hash_len < 16:
        return "an Argon2id PIN hash with a salt or hash too short to be one this kiosk wrote"
    if not 8 <= parameters.memory_cost <= 1 << 20 or not 1 <= parameters.time_cost <= 20:
        return "an Argon2id PIN hash with costs out of range (memory up to 1 GiB, 1 to 20 passes)"
    return None


def pin_matches(stored: str, pin: str) -> bool:
    """Whether ``pin`` is the PIN of ``stored``; Argon2's own check compares in constant time."""
    try:
        return bool(_HASHER.verify(stored, pin))
    except (VerificationError, InvalidHashError):
        return False


def supervisor_id_problem(value: Any) -> str | None:
    if not isinstance(value, str) or not SUPERVISOR_ID.match(value):
        return ID_FORMAT()
    return None


def dealer_id_problem(value: Any) -> str | None:
    if not isinstance(value, str) or not DEALER_ID.match(value):
        return DEALER_ID_FORMAT
    return None


@dataclass(frozen=True)
class DeskEvents:
    """What a sign-in desk journals, for supervisors or for dealers."""

    signed_in: Callable[[str], Event]
    signed_out: Callable[[str, str], Event]
    """(who, why): signed out themself, or relieved by the next one signing in."""
    failed: Callable[[str, int, int, str], Event]
    locked: Callable[[str, str], Event]
    unknown: str
    """The reason journaled for an ID the kiosk does not know."""


SUPERVISOR_EVENTS = DeskEvents(SupervisorSignedIn, lambda who, _why: SupervisorSignedOut(who),
                               SupervisorSignInFailed, SupervisorLocked, "no such supervisor")
DEALER_EVENTS = DeskEvents(DealerSignedIn, DealerSignedOut, DealerSignInFailed, DealerSignedOut, "no such dealer")


@dataclass(frozen=True)
class SignInAnswer:
    ok: bool
    message_key: str
    """A phrase of ``kiosk.i18n``: ``signin.ok``, ``signin.wrong``, ``signin.locked`` …"""
    locked_for_s: int = 0
    tries_left: int = 0


class SignInDesk:
    """Who is signed in on this kiosk, for how long, and how many wrong PINs in a row (one count per kiosk, not
    per ID, so trying every ID in turn gains nothing). Every sign-in, sign-out, lock and refused try is recorded."""

    def __init__(
        self,
        supervisors: Callable[[], Mapping[str, str]],
        clock: Clock,
        record: Callable[[Event], Any],
        *,
        idle_lock_s: float = IDLE_LOCK_S,
        events: DeskEvents = SUPERVISOR_EVENTS,
    ) -> None:
        self._supervisors = supervisors
        self.events = events
        self.clock = clock
        self.record = record
        self.idle_lock_s = idle_lock_s
        self.who: str | None = None
        self.failures = 0
        self._locked_until = 0.0
        self._last_touch = 0.0

    @property
    def supervisor_ids(self) -> list[str]:
        return sorted(self._supervisors())

    def locked_for(self) -> int:
        """Whole seconds before another try is taken (0: now)."""
        left = self._locked_until - self.clock.monotonic()
        return max(0, int(left + 0.999))

    def sign_in(self, supervisor: str, pin: str) -> SignInAnswer:
        waiting = self.locked_for()
        if waiting:
            self.record(self.events.failed(supervisor, self.failures, waiting, "tried while locked out"))
            return SignInAnswer(False, "signin.locked", waiting)
        stored = self._supervisors().get(supervisor)
        # an ID not in the config is checked against a stand-in, so it takes as long to refuse as a wrong PIN
        matched = pin_matches(stored or _stand_in(), pin) and stored is not None
        if matched:
            if self.who is not None and self.who != supervisor:
                self.record(self.events.signed_out(self.who, f"relieved by {supervisor}"))
            self.failures = 0
            self.who = supervisor
            self._last_touch = self.clock.monotonic()
            self.record(self.events.signed_in(supervisor))
            return SignInAnswer(True, "signin.ok")
        self.failures += 1
        lock = self._lock_after(self.failures)
        if lock:
            self._locked_until = self.clock.monotonic() + lock
        reason = "wrong PIN" if stored is not None else self.events.unknown
        self.record(self.events.failed(supervisor, self.failures, lock, reason))
        if lock:
            return SignInAnswer(False, "signin.locked", lock)
        return SignInAnswer(False, "signin.wrong", tries_left=FREE_TRIES - self.failures)

    def resume(self, failures: int) -> None:
        """Carry wrong tries in a row over a restart (as the journal counted them), the lock-out with them: it
        starts again in full, as the kiosk cannot tell how long it was off."""
        self.failures = failures
        lock = self._lock_after(failures)
        if lock:
            self._locked_until = self.clock.monotonic() + lock

    @staticmethod
    def _lock_after(failures: int) -> int:
        """No wait for the first four wrong PINs; 30 s after the fifth, doubling with each one after, to 15 min."""
        if failures < FREE_TRIES:
            return 0
        doublings: int = min(failures - FREE_TRIES, 10)
        return min(LONGEST_LOCK_S, FIRST_LOCK_S << doublings)

    def touch(self) -> None:
        """A touch on the screen while signed in: the two minutes start again."""
        if self.who is not None and not self.expire():
            self._last_touch = self.clock.monotonic()

    def expire(self) -> bool:
        """Lock when the signed-in supervisor has not touched the screen for ``idle_lock_s``; True when it did."""
        if self.who is not None and self.clock.monotonic() - self._last_touch >= self.idle_lock_s:
            self.lock(f"no touch for {int(self.idle_lock_s)} s")
            return True
        return False

    def current(self) -> str | None:
        """The supervisor signed in now (after locking an idle session)."""
        self.expire()
        return self.who

    def locks_in(self) -> int:
        """Whole seconds before the signed-in supervisor is locked out for want of a touch (0: nobody is in)."""
        if self.current() is None:
            return 0
        return max(0, int(self.idle_lock_s - (self.clock.monotonic() - self._last_touch) + 0.999))

    def lock(self, reason: str) -> None:
        """Lock without the supervisor asking (idle, screen left)."""
        if self.who is not None:
            self.record(self.events.locked(self.who, reason))
        self.who = None

    def sign_out(self) -> None:
        """The supervisor's own LOCK."""
        if self.who is not None:
            self.record(self.events.signed_out(self.who, "signed out"))
        self.who = None


@cache
def _stand_in() -> str:
    return _HASHER.hash("40613871")
