"""Errors of the floor that a user can act on (their message says what to do)."""

from __future__ import annotations

from engine.errors import InputError


class FloorError(InputError):
    """The central store could not be reached, set up or written: the message says why and what to do."""
