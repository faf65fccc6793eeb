"""Where the kiosk keeps its journal and key: ``./data`` unless ``DEALER_ASSIST_DATA`` names another folder."""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "DEALER_ASSIST_DATA"


def data_folder() -> Path:
    return Path(os.environ.get(DATA_ENV) or "data")


def default_journal_path() -> Path:
    return data_folder() / "journal.sqlite3"


def default_key_path() -> Path:
    return data_folder() / "kiosk.key"
