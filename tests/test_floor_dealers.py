"""The dealer's name on the floor: dealers signed in at two kiosks, their journals shipped by the real shipper to a
real PostgreSQL, and the console in headless Chromium: the rounds table's "Dealer" column names the dealer (not the
supervisor), and the per-dealer summary counts each dealer's rounds, money and voids, in English and Vietnamese."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from floor.console import auth
from floor.console.app import Console, create_app
from floor.console.db import Database
from floor.console.server import BackgroundServer
from floor.pg import LocalServer
from floor.shipper import Shipper
from journal import Journal, ManualClock
from journal.events import DealerSignedIn, DealerSignedOut, SupervisorSignedIn
from journal.simulate import fill
from tests.floor_helpers import enroll
from tests.test_floor_console_browser import CHROMIUM, DRIVER, PASSWORD, browser, by_id, screenshot, sign_in

__all__ = ["browser"]  # the Chromium fixture, shared with the console's other browser tests
pytestmark = pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                                reason="Debian's chromium and chromium-driver are not installed (make system-packages)")


def texts(driver: Any, css: str) -> list[str]:
    """The text of each element ``css`` selects, read in one go (no element can go stale between finding and
    reading it while a page is replaced); a row's cells joined by spaces."""
    found: list[str] = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.cells ? [...e.cells].map(c => "
        "c.innerText.trim()).join(' ') : e.innerText.trim());", css)
    return found


def _play(path: Path, key: Path, kiosk_id: str, table_id: str, steps: list[Any]) -> None:
    journal = Journal.open(path, key, kiosk_id=kiosk_id, table_id=table_id, clock=ManualClock())
    journal.recover()
    for seed, step in enumerate(steps):
        if isinstance(step, int):
            fill(journal, step, seed=seed + 20, void_every=3)
        else:
            journal.append(step)
    journal.close()


@pytest.fixture
def floor(floor_server: LocalServer, floor_dsn: str, tmp_path: Path) -> Iterator[str]:
    """T1: 4711 deals 2 rounds, then 5120 takes over for 1; T2: 1 round nobody signed in for (a journal from
    before dealers), then 4711 moves there for 2. A supervisor is signed in at both all along."""
    one = enroll(floor_server, floor_dsn, tmp_path / "k1", "K-1", "T1", rounds=1)
    two = enroll(floor_server, floor_dsn, tmp_path / "k2", "K-2", "T2", rounds=1)
    _play(one.journal_path, tmp_path / "k1" / "kiosk.key", "K-1", "T1",
          [SupervisorSignedIn("S-9"), DealerSignedIn("4711"), 2, DealerSignedOut("4711", "relieved by 5120"),
           DealerSignedIn("5120"), 1])
    _play(two.journal_path, tmp_path / "k2" / "kiosk.key", "K-2", "T2",
          [SupervisorSignedIn("S-9"), 1, DealerSignedIn("4711"), 2])
    for kiosk in (one, two):
        shipper = Shipper(kiosk.journal_path, kiosk.dsn)
        shipper.ship_pending()
        shipper.close()
    with psycopg.connect(floor_dsn) as conn:
        auth.add_account(conn, "pit", PASSWORD, "supervisor", "test")
    yield floor_dsn


def test_rounds_name_their_dealer_and_the_console_sums_each_dealer(floor: str, browser: Any,
                                                                   tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    with psycopg.connect(floor) as conn:
        dealers = dict(conn.execute("SELECT coalesce(dealer, '-'), count(*) FROM rounds GROUP BY 1").fetchall())
        at_tables = dict(conn.execute("SELECT table_id, dealer FROM kiosks").fetchall())
        rows = conn.execute("SELECT dealer, count(*), coalesce(sum(total_bet) FILTER (WHERE status = 'settled'), 0),"
                            " count(*) FILTER (WHERE status = 'voided') FROM rounds GROUP BY 1").fetchall()
    assert dealers == {"4711": 4, "5120": 1, "-": 3}  # T2's first and each journal's 1 before anyone signed in
    assert at_tables == {"T1": "5120", "T2": "4711"}
    db = Database(floor)
    web = BackgroundServer(create_app(Console(db)))
    web.start()
    try:
        url = web.url.rstrip("/")
        sign_in(browser, url, "pit", PASSWORD)
        browser.get(url + "/rounds?table=T1")
        column = texts(browser, "#rounds td.dealer")
        assert set(column) == {"4711", "5120", ""} and "S-9" not in column, column
        screenshot(browser, tmp_path, "rounds-dealer-column")

        by_id(browser, "nav-dealers").click()
        WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/dealers")
                                         and texts(d, "#dealers tr.dealer"))
        lines = texts(browser, "#dealers tr.dealer")
        expected = {dealer: (count, bet, voids) for dealer, count, bet, voids in rows}
        assert lines[0].startswith(f"4711 T1, T2 {expected['4711'][0]} {expected['4711'][1]:,}"), lines
        assert lines[1].startswith(f"5120 T1 {expected['5120'][0]} "), lines
        assert lines[2].startswith(f"no dealer signed in T1, T2 {expected[None][0]} "), lines
        for line, dealer in zip(lines, ("4711", "5120", None), strict=True):
            assert line.split()[-4] == str(expected[dealer][2]), (line, expected[dealer])  # its voids
        screenshot(browser, tmp_path, "dealers")

        by_id(browser, "language").click()  # English → Tiếng Việt
        WebDriverWait(browser, 10).until(lambda d: by_id(d, "nav-dealers").text == "Người chia")
        browser.get(url + "/dealers")
        assert browser.find_element("tag name", "h1").text == "Theo người chia"
        assert "không có người chia đăng nhập" in by_id(browser, "dealers").text
        screenshot(browser, tmp_path, "dealers-vi")
    finally:
        web.stop()
        db.close()
