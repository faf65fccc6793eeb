"""Where the kiosk keeps its journal and key: ``./data`` unless ``DEALER_ASSIST_DATA`` names another folder.

The key in the data folder is the embedded demo's default only: in production the key lives elsewhere (another
volume, a file only the kiosk's user reads), named by the kiosk config's ``journal.key`` and, for the supervisors'
``dealer-assist logs``, by ``--key`` or ``DEALER_ASSIST_KEY``.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "DEALER_ASSIST_DATA"
KEY_ENV = "DEALER_ASSIST_KEY"


def data_folder() -> Path:
    return Path(os.environ.get(DATA_ENV) or "data")


def default_journal_path() -> Path:
    return data_folder() / "journal.sqlite3"


def default_key_path() -> Path:
    return Path(os.environ.get(KEY_ENV) or data_folder() / "kiosk.key")
