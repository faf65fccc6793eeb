"""The console in a real headless Chromium (Debian's chromium + chromium-driver through Selenium), served by
uvicorn against a real PostgreSQL, with a kiosk's journal shipped by the real shipper while the page is open."""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import psycopg
import pytest

from floor.console import auth
from floor.console.app import Console, create_app
from floor.console.db import Database
from floor.console.demo import CALL_TEXT
from floor.console.server import BackgroundServer
from floor.migrate import migrate
from floor.pg import LocalServer
from floor.shipper import Shipper, ShipperThread
from floor.store import add_kiosk
from journal import Journal, SystemClock
from journal.chain import load_key
from journal.events import DeviceDown, DeviceUp, Note
from journal.simulate import fill, play_round

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                                reason="Debian's chromium and chromium-driver are not installed (make system-packages)")
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def site(floor_server: LocalServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The console on a free port, with kiosk K-1 at table T1 playing into a journal its shipper sends on."""
    dsn = floor_server.create_database("floor_console_browser")
    with psycopg.connect(dsn) as conn:
        migrate(conn)
        for name in ("pit", "locked"):
            auth.add_account(conn, name, PASSWORD, "supervisor", "test")
    folder = tmp_path_factory.mktemp("kiosk")
    folder.chmod(0o700)
    journal = Journal.open(folder / "journal.sqlite3", folder / "journal.key", kiosk_id="K-1", table_id="T1",
                           clock=SystemClock())
    journal.recover()
    journal.append(DeviceUp("shaker", "/dev/ttyUSB0"))
    journal.append(DeviceUp("camera", "/dev/video0"))
    fill(journal, 6, seed=3)
    journal.append(DeviceDown("camera", "no frame for 5 s"))
    with psycopg.connect(dsn) as conn:
        login = add_kiosk(conn, "K-1", "T1", chain_key=load_key(folder / "journal.key", create=False))
    shipper = ShipperThread(Shipper(folder / "journal.sqlite3", floor_server.dsn("floor_console_browser",
                                                                                 login.role, login.password),
                                    poll_s=0.2))
    shipper.start()
    db = Database(dsn)
    web = BackgroundServer(create_app(Console(db, pit_poll_s=0.25, zone=ZoneInfo("Asia/Ho_Chi_Minh"))))
    web.start()
    yield {"url": web.url.rstrip("/"), "dsn": dsn, "journal": journal}
    web.stop()
    shipper.stop()
    journal.close()
    db.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not look for a browser to download
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,900", "--lang=en"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def by_id(driver: Any, element_id: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id)


def sign_in(driver: Any, url: str, name: str, password: str, forge_csrf: bool = False) -> None:
    """Submit the sign-in form and return once the server's answer is the page shown: a click returns as soon as
    the form is submitted, so under load the browser can still be showing the form (and its /login address)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.delete_all_cookies()
    driver.get(url + "/login")
    by_id(driver, "name").send_keys(name)
    by_id(driver, "password").send_keys(password)
    if forge_csrf:
        driver.execute_script("document.querySelector('input[name=csrf]').value = 'forged';")
    driver.execute_script("window.signInFormShown = true;")  # gone once the answer is a new page
    by_id(driver, "sign-in").click()
    answered = "return window.signInFormShown === undefined && document.readyState === 'complete';"
    # while the browser swaps pages a script may find no page to run in: asked again until the answer shows
    WebDriverWait(driver, 20, ignored_exceptions=(WebDriverException,)).until(lambda d: d.execute_script(answered))


def screenshot(driver: Any, folder: Path, name: str) -> Path:
    """Saved under the test's folder, and into $FLOOR_CONSOLE_SCREENSHOTS when set (to look at them)."""
    from PIL import Image

    path = folder / f"{name}.png"
    driver.save_screenshot(str(path))
    colours = Image.open(path).convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50, f"the {name} screenshot is blank"
    if os.environ.get("FLOOR_CONSOLE_SCREENSHOTS"):
        target = Path(os.environ["FLOOR_CONSOLE_SCREENSHOTS"])
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target / path.name)
    return path


def test_sign_in_refuses_a_wrong_password_a_forged_form_and_a_locked_account(site: dict[str, Any],
                                                                             browser: Any) -> None:
    url = site["url"]
    sign_in(browser, url, "pit", "not the password")
    assert by_id(browser, "login-error").text == "Wrong user name or password."
    sign_in(browser, url, "pit", PASSWORD, forge_csrf=True)
    assert "CSRF" in by_id(browser, "refused").text
    for _ in range(auth.MAX_TRIES):
        sign_in(browser, url, "locked", "guess")
    assert f"locked for {auth.LOCK_MINUTES} min" in by_id(browser, "login-error").text
    sign_in(browser, url, "locked", PASSWORD)
    assert "locked" in by_id(browser, "login-error").text
    sign_in(browser, url, "pit", PASSWORD)
    shown = browser.find_element("tag name", "body").text
    assert browser.current_url == url + "/", f"pit, right password, not signed in; the page: {shown!r}"
    assert by_id(browser, "table-K-1")


def test_a_call_pressed_at_a_table_shows_on_the_open_pit_view_within_2_s(site: dict[str, Any], browser: Any,
                                                                         tmp_path: Path) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    redrawn = (StaleElementReferenceException,)  # a live update replaces the table's element between find and read
    sign_in(browser, site["url"], "pit", PASSWORD)
    WebDriverWait(browser, 10, ignored_exceptions=redrawn).until(
        lambda d: "on" in by_id(d, "live").get_attribute("class"))
    table = WebDriverWait(browser, 10, ignored_exceptions=redrawn).until(lambda d: by_id(d, "table-K-1").text)
    assert "SUPERVISOR CALLED" not in table and "Shaker: OK" in table and "Camera: OFFLINE" in table
    browser.execute_script("window.stillThisPage = true;")
    pressed = time.monotonic()
    site["journal"].append(Note(text=CALL_TEXT, by="dealer"))
    WebDriverWait(browser, 2.0, poll_frequency=0.05, ignored_exceptions=redrawn).until(
        lambda d: "SUPERVISOR CALLED" in by_id(d, "table-K-1").text)
    print(f"CALL on the pit view {time.monotonic() - pressed:.2f} s after the kiosk journaled it")
    assert browser.execute_script("return window.stillThisPage === true;"), "the page was reloaded, not updated"
    assert "alerting" in WebDriverWait(browser, 10, ignored_exceptions=redrawn).until(
        lambda d: by_id(d, "table-K-1").get_attribute("class"))
    screenshot(browser, tmp_path, "pit-view")


def test_round_review_and_csv_export_in_the_browser(site: dict[str, Any], browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    sign_in(browser, site["url"], "pit", PASSWORD)
    by_id(browser, "nav-rounds").click()
    links = browser.find_elements(By.CLASS_NAME, "round-link")
    with psycopg.connect(site["dsn"]) as conn:
        rounds = conn.execute("SELECT round_id, status, game FROM rounds WHERE kiosk_id = 'K-1' ORDER BY round_id"
                              ).fetchall()
    assert len(links) == len(rounds) >= 6
    settled = next(r for r, status, game in reversed(rounds) if status == "settled" and game == "baibuu")
    browser.find_element(By.LINK_TEXT, str(settled)).click()
    assert by_id(browser, "review-title").text == f"Table T1 · round {settled}"
    assert by_id(browser, "verdict").text == "The replay agrees with what was shown and paid."
    (paid,) = browser.find_elements(By.CSS_SELECTOR, "#events tr[data-kind=round_settled]")
    assert paid.text.split()[2:4] == ["paid", "confirmed"], paid.text
    screenshot(browser, tmp_path, "round-review")

    exported = browser.execute_async_script(
        "const done = arguments[0]; fetch('/rounds.csv?table=T1').then(r => r.text()).then(done);")
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert [int(r["round_id"]) for r in rows] == [r for r, _, _ in rounds]
    assert [r["status"] for r in rows] == [s for _, s, _ in rounds]


def test_in_vietnamese_a_voided_round_an_unknown_one_the_reports_and_the_log(site: dict[str, Any], browser: Any,
                                                                           tmp_path: Path) -> None:
    import random

    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    swapped = (NoSuchElementException, StaleElementReferenceException)  # a page changing, the pit's cards redrawn
    voided, _ = play_round(site["journal"], "baibuu", random.Random(11), void=True)
    with psycopg.connect(site["dsn"]) as conn:
        auth.add_account(conn, "night-admin", PASSWORD, "admin", "test")
    sign_in(browser, site["url"], "night-admin", PASSWORD)
    by_id(browser, "language").click()  # English → Tiếng Việt
    WebDriverWait(browser, 10, ignored_exceptions=swapped).until(lambda d: by_id(d, "nav-pit").text == "Khu bàn")
    WebDriverWait(browser, 10, ignored_exceptions=swapped).until(lambda d: "trước" in by_id(d, "table-K-1").text)
    screenshot(browser, tmp_path, "pit-vi")

    WebDriverWait(browser, 10, ignored_exceptions=swapped).until(
        lambda d: d.get(f"{site['url']}/rounds/K-1/{voided}") or
        by_id(d, "verdict").text.startswith("Đã hủy bởi supervisor S-1"))
    assert "not over" not in browser.page_source and "Ván chưa kết thúc" not in browser.page_source
    assert "UTC+07" in browser.find_element("tag name", "main").text
    screenshot(browser, tmp_path, "review-voided-vi")

    with psycopg.connect(site["dsn"]) as conn:
        (settled,) = conn.execute("SELECT max(round_id) FROM rounds WHERE kiosk_id = 'K-1' AND game = 'baibuu' AND "
                                  "status = 'settled'").fetchone()
    browser.get(f"{site['url']}/rounds/K-1/{settled}")
    events = by_id(browser, "events").text
    assert "hiện cách xếp của nhà cái" in events and "tay cao" in events and "đã trả tiền" in events, events
    for english in ('{"high"', "house_split_shown", "action_recorded", "house way", "confirmed by", "seat ",
                    "corrected on the card picker", "MISSING_DIE"):  # the kiosk's fixed reasons are worded too
        assert english not in events, english
    assert ("sửa bài" in events) is ("sửa trên bảng chọn lá bài" in events)  # a correction says why, in Vietnamese
    assert "ghế" in by_id(browser, "verdict").find_element("xpath", "..").text
    screenshot(browser, tmp_path, "review-settled-vi")

    browser.get(site["url"] + "/rounds/K-1/999")
    assert "Hệ thống không có ván 999 của kiosk K-1" in by_id(browser, "refused").text
    assert by_id(browser, "nav-rounds").text == "Các ván"
    screenshot(browser, tmp_path, "unknown-round-vi")

    browser.get(site["url"] + "/reports")
    labels = browser.execute_script(
        "return [...document.querySelectorAll('svg.chart text[text-anchor=end]')].map(t => t.getBBox().x);")
    assert labels and min(labels) >= 0, f"a chart's label runs off its left edge: {labels}"
    assert re.search(r"\d,\d%", browser.find_element("tag name", "main").text), "no hold written 58,5%"
    screenshot(browser, tmp_path, "reports-vi")

    browser.get(site["url"] + "/actions")
    log = browser.find_element("tag name", "main").text
    assert "round_reviewed" not in log and "xem lại ván" in log and "ván: " in log and "sai mật khẩu" in log
    screenshot(browser, tmp_path, "console-log-vi")


def test_a_demo_kiosks_round_is_reviewed_beside_its_rendered_frames_with_the_cards_boxed(
        site: dict[str, Any], browser: Any, tmp_path: Path) -> None:
    import random

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from floor.console.demo_frames import FramingJournal

    played, _ = play_round(FramingJournal(site["journal"]), "baibuu", random.Random(21),  # type: ignore[arg-type]
                           incidents=False)
    sign_in(browser, site["url"], "pit", PASSWORD)

    def boxes_drawn(driver: Any) -> int:
        driver.get(f"{site['url']}/rounds/K-1/{played}")
        return len(driver.find_elements(By.CSS_SELECTOR, "#frames svg rect.card-box"))

    assert WebDriverWait(browser, 20, poll_frequency=0.5).until(boxes_drawn) >= 4  # the house's four cards at least
    pictures = browser.execute_script("return [...document.querySelectorAll('#frames svg image')].length;")
    assert pictures >= 2  # the house's reading and each seat's
    browser.execute_script("document.getElementById('frames').scrollIntoView();")
    screenshot(browser, tmp_path, "review-frames")


def test_the_pit_card_shows_the_shifts_money_and_the_shift_report_prints_with_a_sign_off(
        site: dict[str, Any], browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    sign_in(browser, site["url"], "pit", PASSWORD)
    by_id(browser, "nav-settings").click()
    for name, value in (("hold_amber_points", "0"), ("hold_red_points", "100")):
        field = by_id(browser, name)
        field.clear()
        field.send_keys(value)
    by_id(browser, "save").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_elements("id", "saved"))
    screenshot(browser, tmp_path, "settings")
    by_id(browser, "nav-pit").click()
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    def money(driver: Any) -> tuple[str, str]:  # the live update replaces the card between find and read
        card = driver.find_element("css selector", "#table-K-1 .money")
        return str(card.get_attribute("data-alarm")), str(card.text)

    alarm, text = WebDriverWait(browser, 10, ignored_exceptions=(NoSuchElementException,
                                                                 StaleElementReferenceException)).until(money)
    assert alarm == "amber" and "drop" in text and "theory 10.5%" in text, text
    screenshot(browser, tmp_path, "pit-money")

    browser.get(site["url"] + "/reports")
    assert by_id(browser, "by-dealer").is_displayed() and not by_id(browser, "report-period").is_displayed()
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert by_id(browser, "report-period").is_displayed() and by_id(browser, "sign-off").is_displayed()
        assert not browser.find_element("tag name", "header").is_displayed()
        screenshot(browser, tmp_path, "shift-report-print")
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_an_alert_is_acknowledged_with_a_note_that_the_alert_history_keeps(site: dict[str, Any], browser: Any,
                                                                           tmp_path: Path) -> None:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    redrawn = (NoSuchElementException, StaleElementReferenceException)
    sign_in(browser, site["url"], "pit", PASSWORD)
    site["journal"].append(Note(text=CALL_TEXT, by="dealer"))
    called = "#table-K-1 li[data-alert=called]"
    WebDriverWait(browser, 10, ignored_exceptions=redrawn).until(
        lambda d: d.find_element(By.CSS_SELECTOR, called).get_attribute("data-priority") == "high")
    screenshot(browser, tmp_path, "pit-alerts")
    # the note typed and the form sent in one go: a live update may redraw the card between two driver calls
    # (the newest CALL: an earlier test's may still be open)
    acknowledged = browser.execute_script(
        "const all = document.querySelectorAll(arguments[0]); const alert = all[all.length - 1]; "
        "alert.querySelector('input[name=note]').value = arguments[1]; "
        "const id = alert.querySelector('input[name=alert]').value; alert.querySelector('button').click(); "
        "return id;", called, "went to T1: dealer needed change")
    WebDriverWait(browser, 10, ignored_exceptions=redrawn).until(
        lambda d: not d.find_elements(By.CSS_SELECTOR, f"#table-K-1 input[name=alert][value='{acknowledged}']"))
    by_id(browser, "nav-alerts").click()
    history = by_id(browser, "alert-history").text
    assert "went to T1: dealer needed change" in history and "SUPERVISOR CALLED" in history
    screenshot(browser, tmp_path, "alert-history")
