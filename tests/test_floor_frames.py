"""Evidence frames reach the floor: the shipper uploads each frame a shipped reading cites (once, checked by its
SHA-256 on both ends), skips one pruned on the kiosk, and the console shows it beside its readings, only to a
signed-in user. A real PostgreSQL (tests/floor_fixtures.py), real journals and frames on disk, the real app."""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import psycopg
import pytest
from starlette.testclient import TestClient

from floor.console import auth
from floor.console.app import Console, create_app
from floor.console.db import Database
from floor.pg import LocalServer
from floor.shipper import Shipper
from floor.store import add_kiosk
from journal import Journal, ManualClock
from journal.chain import load_key
from journal.events import CardsRead
from journal.retention import Retention, prune
from journal.simulate import play_round
from journal.store import JournalReader
from tests.floor_helpers import central

PASSWORD = "correct horse battery"


class WithFrames:
    """The kiosk as it reads cards: each reading's camera frame kept as evidence before the event citing it."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.count = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.journal, name)

    def append(self, event: Any) -> Any:
        if isinstance(event, CardsRead):
            self.count += 1
            image = np.full((120, 160, 3), (self.count * 37) % 256, dtype=np.uint8)
            cv2.putText(image, str(self.count), (20, 80), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 3)
            ok, encoded = cv2.imencode(".jpg", image)
            assert ok
            digest = self.journal.store_frame(bytes(encoded), ".jpg")
            boxes = tuple((4 + 10 * i, 6, 30 + 10 * i, 50) for i in range(len(event.cards)))
            event = replace(event, frame=digest, boxes=boxes)
        return self.journal.append(event)


def kiosk_with_frames(folder: Path, owner_dsn: str, server: LocalServer, kiosk_id: str,
                      rounds: int = 2) -> tuple[Journal, str]:
    """A kiosk's journal of ``rounds`` Bài Bửu rounds whose readings cite frames, enrolled at the floor; returns
    the open journal and the kiosk's DSN."""
    folder.mkdir(mode=0o700)
    journal = Journal.open(folder / "journal.sqlite3", folder / "journal.key", kiosk_id=kiosk_id, table_id="T-F",
                           clock=ManualClock())
    journal.recover()
    rng = random.Random(3)
    kiosk = WithFrames(journal)
    for _ in range(rounds):
        play_round(kiosk, "baibuu", rng, incidents=False)  # type: ignore[arg-type]
    with psycopg.connect(owner_dsn) as conn:
        login = add_kiosk(conn, kiosk_id, "T-F", chain_key=load_key(folder / "journal.key", create=False))
    dbname = str(psycopg.conninfo.conninfo_to_dict(owner_dsn)["dbname"])
    return journal, server.dsn(dbname, login.role, login.password)


def cited(journal_path: Path, round_id: int | None = None) -> list[str]:
    """The frames the journal's readings cite (of one round), in order, once each."""
    reader = JournalReader.open(journal_path, journal_path.with_name("journal.key"))
    try:
        found = [e.payload["frame"] for e in reader.entries(kinds=("cards_read",), round_id=round_id)]
    finally:
        reader.close()
    return list(dict.fromkeys(found))


def signed_in(owner_dsn: str) -> tuple[TestClient, Database]:
    """A supervisor signed in to a console that logs in with the floor_console role only (as deployed)."""
    with psycopg.connect(owner_dsn, autocommit=True) as conn:
        auth.add_account(conn, "sup", PASSWORD, "supervisor", "test")
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = 'console_frames'").fetchone():
            conn.execute("CREATE ROLE console_frames LOGIN PASSWORD 'console-frames-pw' IN ROLE floor_console")
    params = psycopg.conninfo.conninfo_to_dict(owner_dsn)
    params.update(user="console_frames", password="console-frames-pw")
    db = Database(psycopg.conninfo.make_conninfo("", **params))
    web = TestClient(create_app(Console(db)), follow_redirects=False)
    token = re.search(r'name="csrf" value="([^"]+)"', web.get("/login").text)
    assert token is not None
    assert web.post("/login", data={"csrf": token[1], "name": "sup", "password": PASSWORD}).status_code == 303
    return web, db


def test_a_shipped_frame_reaches_the_floor_once_and_the_review_shows_it_beside_its_readings(
        floor_dsn: str, floor_server: LocalServer, tmp_path: Path) -> None:
    journal, dsn = kiosk_with_frames(tmp_path / "k", floor_dsn, floor_server, "K-F1")
    path = journal.path
    journal.close()
    frames = cited(path)
    assert len(frames) >= 4

    unreachable = Shipper(path, "host=127.0.0.1 port=1 dbname=x user=x password=x connect_timeout=2")
    with pytest.raises(psycopg.OperationalError):
        unreachable.ship_pending()  # the floor is down: nothing is lost, the next pass catches up
    shipper = Shipper(path, dsn, frames_per_pass=3)
    shipper.ship_pending()
    assert central(floor_dsn, "SELECT count(*) FROM frames")[0][0] == 3  # a few per pass: events never wait
    assert shipper.ship_pending(frames=None) == 0  # no new events; the rest of the frames catch up
    stored = central(floor_dsn, "SELECT digest, kiosk_id, media_type, data FROM frames")
    assert sorted(r[0] for r in stored) == sorted(frames)
    assert all(hashlib.sha256(bytes(r[3])).hexdigest() == r[0] and r[1:3] == ("K-F1", "image/jpeg") for r in stored)
    assert Shipper(path, dsn).ship_frames() == 0  # a new connection asks again: nothing is sent twice
    assert central(floor_dsn, "SELECT count(*) FROM frames")[0][0] == len(frames)
    assert not shipper.frames_skipped

    web, db = signed_in(floor_dsn)
    try:
        page = web.get("/rounds/K-F1/1").text
        first = cited(path, round_id=1)
        for digest in first:
            figure = re.search(rf'<figure class="frame frame-stored" id="frame-{digest}">(.*?)</figure>', page, re.S)
            assert figure is not None, digest
            assert f'href="/frames/{digest}"' in figure[1]
            assert 'viewBox="0 0 160 120"' in figure[1]  # the frame's own size: the boxes land on the cards
            assert 'class="card-box"' in figure[1]
            assert re.search(r"<li>\d+ · [^<:]+: [^<]+</li>", figure[1])  # the reading citing it, beside it
        picture = web.get(f"/frames/{first[0]}")
        assert picture.status_code == 200
        assert picture.headers["content-type"] == "image/jpeg"
        assert picture.content == (path.parent / "evidence" / first[0][:2] / f"{first[0]}.jpg").read_bytes()
        assert web.get(f"/frames/{'0' * 64}").status_code == 404
        stranger = TestClient(create_app(Console(db)), follow_redirects=False)
        refused = stranger.get(f"/frames/{first[0]}")
        assert refused.status_code == 401 and refused.content != picture.content
        viewed = central(floor_dsn, "SELECT detail->>'frame' FROM console_actions WHERE action = 'frame_viewed'")
        assert (first[0],) in viewed
    finally:
        db.close()


def test_a_tampered_frame_is_refused_and_never_stored(floor_dsn: str, floor_server: LocalServer,
                                                      tmp_path: Path) -> None:
    journal, dsn = kiosk_with_frames(tmp_path / "k", floor_dsn, floor_server, "K-F2", rounds=1)
    path = journal.path
    journal.close()
    frames = cited(path)
    Shipper(path, dsn).ship_pending(frames=0)  # the events only

    with psycopg.connect(dsn, autocommit=True) as conn:  # the kiosk's own login, calling the floor directly
        with pytest.raises(psycopg.errors.DataException, match="not to its name"):
            conn.execute("SELECT ingest_frame(%s, 'image/jpeg', %s)", (frames[0], b"not the picture"))
        other = b"a picture no reading of this kiosk cites"
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="no reading of kiosk K-F2"):
            conn.execute("SELECT ingest_frame(%s, 'image/jpeg', %s)", (hashlib.sha256(other).hexdigest(), other))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO frames VALUES (%s, 'K-F2', 'image/jpeg', %s)", (frames[0], b"x"))
    assert central(floor_dsn, "SELECT count(*) FROM frames")[0][0] == 0

    altered = path.parent / "evidence" / frames[0][:2] / f"{frames[0]}.jpg"
    altered.write_bytes(altered.read_bytes()[:-20] + b"\0" * 20)  # someone edits the picture on the kiosk's disk
    shipper = Shipper(path, dsn)
    shipper.ship_pending(frames=None)
    assert shipper.frames_skipped == {frames[0]: "altered"}
    held = {r[0] for r in central(floor_dsn, "SELECT digest FROM frames")}
    assert held == set(frames[1:])


def test_a_frame_pruned_on_the_kiosk_is_skipped_and_the_review_says_so(floor_dsn: str, floor_server: LocalServer,
                                                                       tmp_path: Path) -> None:
    journal, dsn = kiosk_with_frames(tmp_path / "k", floor_dsn, floor_server, "K-F3", rounds=2)
    path = journal.path
    Shipper(path, dsn).ship_pending(frames=0)  # the events arrive; the frames wait (an outage of the uploads)
    pruning = prune(journal, Retention(days=None, max_mb=0))  # the retention settings delete every closed round's
    journal.close()
    pruned = {d for e in pruning.events for d in e.payload["frames"]}
    assert pruned == set(cited(path))

    shipper = Shipper(path, dsn)
    shipper.ship_pending(frames=None)  # the pruning event arrives, and no frame
    assert central(floor_dsn, "SELECT count(*) FROM events WHERE kind = 'evidence_pruned'")[0][0] == 1
    assert central(floor_dsn, "SELECT count(*) FROM frames")[0][0] == 0
    assert not shipper.frames_skipped  # the floor knew from the journal: it did not even ask for them

    web, db = signed_in(floor_dsn)
    try:
        page = web.get("/rounds/K-F3/1").text
        assert page.count('class="frame frame-pruned"') == len(cited(path, round_id=1))
        assert "Deleted on the kiosk by its retention settings" in page
        assert "/frames/" not in page
    finally:
        db.close()


def test_a_frame_pruned_before_the_floor_heard_of_it_is_skipped_by_the_shipper(
        floor_dsn: str, floor_server: LocalServer, tmp_path: Path) -> None:
    journal, dsn = kiosk_with_frames(tmp_path / "k", floor_dsn, floor_server, "K-F4", rounds=1)
    path = journal.path
    shipper = Shipper(path, dsn)
    shipper.ship_pending(frames=0)
    prune(journal, Retention(days=None, max_mb=0))
    journal.close()
    assert shipper.ship_frames() == 0  # the pruning event is not at the floor yet: the journal on disk says why
    assert set(shipper.frames_skipped.values()) == {"pruned"}
