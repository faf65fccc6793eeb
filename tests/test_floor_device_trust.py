"""A device the kiosk refused as not authenticated (issue 59) is raised on the floor's pit view, as is a version 2
device let in by the kiosk's config; a supervisor acknowledges them. Real journal files, a real PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import psycopg
from psycopg.types.json import Jsonb

from floor.console.data import pit
from floor.console.i18n import TEXTS, TEXTS_KM
from floor.pg import LocalServer
from journal import Journal, ManualClock
from journal.events import DeviceRefused, DevicesUnauthenticated
from tests.floor_helpers import central, enroll, local_events


def test_an_unauthenticated_shaker_is_raised_on_the_pit_view(floor_server: LocalServer, floor_dsn: str,
                                                            tmp_path: Path) -> None:
    kiosk = enroll(floor_server, floor_dsn, tmp_path / "k9", "K-9", "T9", rounds=2)
    journal = Journal.open(kiosk.journal_path, tmp_path / "k9" / "kiosk.key", kiosk_id="K-9", table_id="T9",
                           clock=ManualClock())
    journal.recover()
    journal.append(DeviceRefused("shaker", "SK-000999", "shaker not authenticated: SK-000999 on /dev/ttyUSB0: it is "
                                 "not paired with this kiosk"))
    journal.append(DevicesUnauthenticated("panel", "PN-000002"))
    journal.close()
    with psycopg.connect(kiosk.dsn, autocommit=True) as conn:
        conn.execute("SELECT ingest_events(%s)", (Jsonb(local_events(kiosk.journal_path)),))
    alerts = "SELECT kind, message FROM alerts WHERE kind IN ('device_refused', 'device_unauthenticated') ORDER BY 1"
    assert central(floor_dsn, alerts) == [
        ("device_refused", "shaker not authenticated: SK-000999"),
        ("device_unauthenticated", "panel PN-000002 speaks protocol 2: NOT authenticated (allowed by the kiosk's "
                                   "config)"),
    ]
    with psycopg.connect(floor_dsn) as conn:
        [table] = [view for view in pit(conn, datetime.now(UTC), 3600) if view.kiosk_id == "K-9"]
    shown = {alert.kind: alert for alert in table.alerts}
    assert TEXTS["alert.device_refused"][0].format(**shown["device_refused"].params) == \
        "DEVICE NOT AUTHENTICATED: SK-000999"
    assert TEXTS["alert.device_v2"][1].format(**shown["device_v2"].params).startswith("THIẾT BỊ PN-000002")
    assert "{serial}" in TEXTS_KM["alert.device_refused"]
    devices = {device.name: device for device in table.devices}
    assert not devices["shaker"].up and devices["shaker"].detail == "not authenticated: SK-000999"
    assert devices["panel"].up and "NOT authenticated" in devices["panel"].detail
