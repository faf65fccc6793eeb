"""Shared test set-up."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture
def cli_env() -> dict[str, str]:
    """Environment for running ``dealer-assist`` in a subprocess the way a user would."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    env.setdefault("YOLO_OFFLINE", "1")
    return env


@pytest.fixture
def dealer_assist() -> list[str]:
    """The command line that starts ``dealer-assist`` with this interpreter."""
    return [sys.executable, "-m", "kiosk.cli"]


from tests.floor_fixtures import floor_dsn, floor_server  # noqa: E402, F401  (the floor's PostgreSQL fixtures)
