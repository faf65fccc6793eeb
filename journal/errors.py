"""Errors of the journal, each with a message for the person who must act on it (dealer, supervisor, technician)."""

from __future__ import annotations

from engine.errors import InputError


class JournalError(InputError):
    """The journal cannot do what was asked (a closed round, a bad event, a second writer); the message says why."""


class JournalKeyError(JournalError):
    """The per-kiosk secret is missing, unreadable or not the one this journal was written with."""


class JournalVersionError(JournalError):
    """The journal was written by a newer version of dealer-assist than this one."""


class JournalCorrupted(JournalError):
    """The journal failed its checks (damaged file, broken chain, dropped trigger): play must stop.

    The journal is never repaired silently; a supervisor keeps the file as evidence and starts a new one.
    """

    def __init__(self, message: str, *, seq: int | None = None) -> None:
        super().__init__(message)
        self.seq = seq
