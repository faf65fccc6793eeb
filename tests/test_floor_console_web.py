"""The console over HTTP against a real PostgreSQL: sign-in, lock-out, CSRF, roles, the record of actions, round
review, CSV export and reports, with kiosks' journals shipped by the real shipper."""

from __future__ import annotations

import csv
import io
import random
import re
import subprocess
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from starlette.testclient import TestClient

from floor.console import auth
from floor.console.app import Console, create_app
from floor.console.db import Database
from floor.console.server import BackgroundServer
from floor.migrate import migrate
from floor.pg import LocalServer
from floor.shipper import Shipper
from floor.store import add_kiosk
from journal import Journal, ManualClock
from journal.chain import load_key
from journal.simulate import play_round
from journal.store import settlement_json
from tests.floor_helpers import enroll

PASSWORD = "correct horse battery"
Floor = tuple[str, ManualClock, Database]
"""The floor's database address, the console's clock, and its database."""


@pytest.fixture(scope="module")
def floor_db(floor_server: LocalServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Database]]:
    """One floor for the module (the tests change only their own accounts): two tables' journals shipped by the
    shipper, one account per role."""
    dsn = floor_server.create_database("floor_console_web")
    with psycopg.connect(dsn) as conn:
        migrate(conn)
    folder = tmp_path_factory.mktemp("kiosks")
    for number, rounds in ((1, 7), (2, 4)):
        kiosk = enroll(floor_server, dsn, folder / f"k{number}", f"K-{number}", f"T{number}", rounds, seed=number)
        Shipper(kiosk.journal_path, kiosk.dsn).ship_pending()
    with psycopg.connect(dsn) as conn:
        for role in auth.ROLES:
            auth.add_account(conn, role, PASSWORD, role, "test")
    db = Database(dsn)
    yield dsn, db
    db.close()


@pytest.fixture
def floor(floor_db: tuple[str, Database]) -> Floor:
    return floor_db[0], ManualClock(datetime(2026, 12, 4, 12, 0, tzinfo=UTC)), floor_db[1]


def client(floor: Floor) -> TestClient:
    _dsn, clock, db = floor
    return TestClient(create_app(Console(db, clock=clock)), follow_redirects=False)


def csrf_of(page: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', page)
    assert match is not None, "the page has no CSRF token"
    return match[1]


def sign_in(web: TestClient, name: str, password: str = PASSWORD) -> tuple[int, str]:
    token = csrf_of(web.get("/login").text)
    answer = web.post("/login", data={"csrf": token, "name": name, "password": password})
    return answer.status_code, answer.text


def actions(dsn: str, account: str) -> list[str]:
    with psycopg.connect(dsn) as conn:
        return [r[0] for r in conn.execute("SELECT action FROM console_actions WHERE account = %s ORDER BY id",
                                           (account,))]


def test_sign_in_with_argon2_and_lock_out_after_five_wrong_passwords(floor: Floor) -> None:
    dsn, clock, _db = floor
    web = client(floor)
    with psycopg.connect(dsn) as conn:
        auth.add_account(conn, "guessed", PASSWORD, "supervisor", "test")
        (stored,) = conn.execute("SELECT password_hash FROM console_accounts WHERE name = 'guessed'").fetchone()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored

    assert web.get("/").headers["location"] == "/login"
    for _ in range(auth.MAX_TRIES - 1):
        status, page = sign_in(web, "guessed", "guess")
        assert status == 401 and "Wrong user name or password" in page
    status, page = sign_in(web, "guessed", "guess")
    assert status == 401 and f"locked for {auth.LOCK_MINUTES} min" in page
    status, page = sign_in(web, "guessed")  # the right password while locked: refused too
    assert status == 401 and "locked" in page
    assert web.get("/").headers["location"] == "/login"

    clock.advance(60 * (auth.LOCK_MINUTES + 1))
    status, _ = sign_in(web, "guessed")
    assert status == 303
    assert web.get("/").status_code == 200
    assert actions(dsn, "guessed") == (["sign_in_refused"] * auth.MAX_TRIES +
                                       ["account_locked", "sign_in_refused", "signed_in"])
    with psycopg.connect(dsn) as conn:
        tokens = [r[0] for r in conn.execute("SELECT token_hash FROM console_sessions WHERE account = 'guessed'")]
    assert web.cookies["floor_session"] not in tokens and len(tokens) == 1  # only its hash is kept


def test_floor_account_add_from_the_shell(floor: Floor, dealer_assist: list[str],
                                         cli_env: dict[str, str]) -> None:
    dsn = floor[0]
    command = [*dealer_assist, "floor", "account", "add", "night-auditor", "--role", "auditor", "--password-stdin",
               "--dsn", dsn, "--by", "admin"]
    short = subprocess.run(command, input="short\n", env=cli_env, capture_output=True, text=True)
    assert short.returncode == 2 and short.stderr.count("\n") == 1 and "at least 10 characters" in short.stderr
    added = subprocess.run(command, input=PASSWORD + "\n", env=cli_env, capture_output=True, text=True)
    assert added.returncode == 0, added.stderr
    again = subprocess.run(command, input=PASSWORD + "\n", env=cli_env, capture_output=True, text=True)
    assert again.returncode == 2 and "already a console account 'night-auditor'" in again.stderr
    web = client(floor)
    assert sign_in(web, "night-auditor")[0] == 303
    assert web.get("/actions").status_code == 200
    assert "account_added" in actions(dsn, "admin")


def test_the_console_runs_as_a_login_with_only_the_floor_console_role(floor: Floor) -> None:
    """Reads the store, clears alerts, keeps its own tables: and cannot touch the kiosks' events."""
    dsn, clock, _db = floor
    with psycopg.connect(dsn, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = 'console_web'").fetchone():
            conn.execute("CREATE ROLE console_web LOGIN PASSWORD 'console-web-pw' IN ROLE floor_console")
        alert = conn.execute("INSERT INTO alerts (kiosk_id, table_id, kind, message) VALUES ('K-1', 'T1', 'fork', "
                             "'test') RETURNING alert_id").fetchone()[0]
    params = psycopg.conninfo.conninfo_to_dict(dsn)
    params.update(user="console_web", password="console-web-pw")
    console_dsn = psycopg.conninfo.make_conninfo("", **params)
    db = Database(console_dsn)
    try:
        web = TestClient(create_app(Console(db, clock=clock)), follow_redirects=False)
        assert sign_in(web, "admin")[0] == 303
        for page in ("/", "/rounds", "/rounds/K-1/3", "/rounds.csv", "/reports", "/actions", "/alerts", "/settings"):
            assert web.get(page).status_code == 200, page
        token = csrf_of(web.get("/").text)
        assert web.post("/alerts/acknowledge", data={"csrf": token, "alert": alert, "note": "seen"}).status_code == 303
        assert web.post("/settings", data={"csrf": token, "drift_sd": "4"}).status_code == 303
        with psycopg.connect(console_dsn) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("UPDATE events SET payload_text = '{}' WHERE kiosk_id = 'K-1'")
    finally:
        db.close()


@pytest.mark.timeout(60)
def test_the_pit_stream_pushes_the_tables_and_ends_when_the_session_does(floor: Floor) -> None:
    dsn, _clock, db = floor
    server = BackgroundServer(create_app(Console(db, pit_poll_s=0.1, session_check_s=0.2)))
    server.start()
    try:
        web = httpx.Client(base_url=server.url, timeout=10)
        token = csrf_of(web.get("/login").text)
        web.post("/login", data={"csrf": token, "name": "supervisor", "password": PASSWORD})
        events = []
        with web.stream("GET", "/pit/stream") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            for line in stream.iter_lines():
                if line.startswith("event: "):
                    events.append(line[7:])
                    if events == ["pit"]:
                        with psycopg.connect(dsn) as conn:  # signed out in another tab
                            conn.execute("UPDATE console_sessions SET ended_at = now() WHERE token_hash = %s",
                                         (auth.token_hash(web.cookies["floor_session"]),))
        # the tables again whenever a card changed ("last heard" ticks), then the end of the session
        assert events[0] == "pit" and events[-1] == "signed-out" and set(events) == {"pit", "signed-out"}
        assert web.get("/pit/stream").status_code == 401
    finally:
        server.stop()


def test_a_form_without_the_sessions_csrf_token_is_refused(floor: Floor) -> None:
    dsn, _clock, _db = floor
    web = client(floor)
    web.get("/login")
    refused = web.post("/login", data={"csrf": "forged", "name": "admin", "password": PASSWORD})
    assert refused.status_code == 403 and "CSRF" in refused.text
    assert "floor_session" not in web.cookies
    assert sign_in(web, "admin")[0] == 303
    assert web.post("/logout", data={}).status_code == 403
    assert web.post("/language", data={"csrf": "forged", "language": "vi"}).status_code == 403
    assert web.get("/").status_code == 200  # still signed in: the forged sign-out did nothing
    assert "csrf_refused" in actions(dsn, "-")
    token = csrf_of(web.get("/").text)
    assert web.post("/logout", data={"csrf": token}).status_code == 303
    assert web.get("/").headers["location"] == "/login"


def test_roles_and_the_record_of_every_action(floor: Floor) -> None:
    dsn, _clock, _db = floor
    supervisor, auditor = client(floor), client(floor)
    sign_in(supervisor, "supervisor")
    sign_in(auditor, "auditor")
    assert supervisor.get("/actions").status_code == 403
    assert supervisor.get("/rounds/K-1/2").status_code == 200
    assert supervisor.get("/rounds.csv?table=T1").status_code == 200
    log = auditor.get("/actions")
    assert log.status_code == 200 and "round reviewed" in log.text and "rounds exported (CSV)" in log.text
    with psycopg.connect(dsn) as conn:
        alert = conn.execute("INSERT INTO alerts (kiosk_id, table_id, kind, message) VALUES ('K-1', 'T1', 'gap', "
                             "'test') RETURNING alert_id").fetchone()[0]
    token = csrf_of(auditor.get("/").text)
    assert auditor.post("/alerts/acknowledge", data={"csrf": token, "alert": alert, "note": "seen"}
                        ).status_code == 403
    token = csrf_of(supervisor.get("/").text)
    assert supervisor.post("/alerts/acknowledge", data={"csrf": token, "alert": alert, "note": "seen"}
                           ).status_code == 303
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT cleared_by FROM alerts WHERE alert_id = %s", (alert,)).fetchone()[0] == \
            "console:supervisor"
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            conn.execute("DELETE FROM console_actions")
    assert actions(dsn, "supervisor")[-1] == "alert_acknowledged"


def test_the_pit_view_names_every_open_alert_and_each_tables_round(floor: Floor) -> None:
    dsn, _clock, _db = floor
    web = client(floor)
    sign_in(web, "supervisor")
    with psycopg.connect(dsn) as conn:
        (voided_round,) = conn.execute("SELECT round_id FROM events WHERE kiosk_id = 'K-1' AND kind = "
                                              "'round_voided' ORDER BY seq LIMIT 1").fetchone()
        raised = []
        for kind, seq in (("supervisor_called", 2), ("journal_failed", 3), ("silent", None), ("fork", None),
                          ("gap", None), ("anchor_mismatch", None)):
            raised.append(conn.execute("INSERT INTO alerts (kiosk_id, table_id, kind, seq, message) VALUES "
                                       "('K-2', 'T2', %s, %s, 'test') RETURNING alert_id", (kind, seq)).fetchone()[0])
        last_round, game = conn.execute("SELECT round_id, game FROM rounds WHERE kiosk_id = 'K-2' ORDER BY round_id "
                                        "DESC LIMIT 1").fetchone()
    page = web.get("/").text
    table_1 = page[page.index('id="table-K-1"'):page.index('id="table-K-2"')]
    table_2 = page[page.index('id="table-K-2"'):]
    assert f"ROUND {voided_round} VOIDED" in table_1  # the ingest raised it
    for words in ("SUPERVISOR CALLED", "JOURNAL FAILED ITS CHECK", "KIOSK SILENT", "JOURNAL ALTERED OR RESTORED",
                  "EVENTS MISSING", "JOURNAL REWRITTEN AFTER SHIPPING"):
        assert words in table_2 and words not in table_1, words
    assert f"Round {last_round}" in table_2 and {"baibuu": "Bài Bửu", "samloc": "Sâm Lốc",
                                                  "schmier": "Schmier"}[game] in table_2
    token = csrf_of(page)
    web.post("/language", data={"csrf": token, "language": "vi"})
    assert "ĐÃ GỌI GIÁM SÁT" in web.get("/").text
    web.post("/language", data={"csrf": token, "language": "en"})
    for alert in raised:
        assert web.post("/alerts/acknowledge", data={"csrf": token, "alert": alert, "note": "seen"}).status_code == 303
    page = web.get("/").text
    assert "SUPERVISOR CALLED" not in page and "EVENTS MISSING" not in page


def test_round_review_replays_the_round_and_the_csv_has_one_row_per_round(
        floor: Floor) -> None:
    dsn, _clock, _db = floor
    web = client(floor)
    sign_in(web, "auditor")
    with psycopg.connect(dsn) as conn:
        rounds = conn.execute("SELECT kiosk_id, round_id, status, game FROM rounds WHERE kiosk_id IN ('K-1', 'K-2') "
                              "ORDER BY kiosk_id, round_id").fetchall()
    assert len(rounds) == 11
    for kiosk_id, round_id, status, _game in rounds:
        page = web.get(f"/rounds/{kiosk_id}/{round_id}").text
        verdict = re.search(r'id="verdict">([^<]+)<', page)
        assert verdict is not None
        if status == "voided":  # why and by whom, not "the round is not over"
            assert verdict[1].startswith("Voided by supervisor S-1: "), (kiosk_id, round_id)
            assert "not over" not in page
        else:
            assert verdict[1] == "The replay agrees with what was shown and paid.", (kiosk_id, round_id)
    unknown = web.get("/rounds/K-1/99")
    assert unknown.status_code == 404 and 'id="nav-pit"' in unknown.text
    assert "The floor holds no round 99 of kiosk K-1" in unknown.text
    web.post("/language", data={"csrf": csrf_of(unknown.text), "language": "vi"})
    unknown = web.get("/rounds/K-1/99")
    assert unknown.status_code == 404 and "Hệ thống không có ván 99 của kiosk K-1" in unknown.text
    assert web.get("/no/such/page").status_code == 404
    web.post("/language", data={"csrf": csrf_of(unknown.text), "language": "en"})

    listed = web.get("/rounds?table=T1&outcome=settled").text
    assert listed.count('class="round-link"') == sum(1 for r in rounds if r[0] == "K-1" and r[2] == "settled")
    exported = web.get("/rounds.csv")
    assert exported.headers["content-type"].startswith("text/csv")
    rows = [r for r in csv.DictReader(io.StringIO(exported.text)) if r["kiosk_id"] in ("K-1", "K-2")]
    assert sorted((r["kiosk_id"], int(r["round_id"])) for r in rows) == [(r[0], r[1]) for r in rounds]
    assert {r["status"] for r in rows} == {"settled", "voided"}
    only_voided = list(csv.DictReader(io.StringIO(web.get("/rounds.csv?outcome=voided").text)))
    assert only_voided and {r["status"] for r in only_voided} == {"voided"}


def ship_kiosk(floor: Floor, floor_server: LocalServer, folder: Path, kiosk_id: str, table_id: str,
               play: Callable[[Journal], Any]) -> Any:
    """A kiosk enrolled at the floor whose journal ``play`` writes, shipped by the real shipper; what ``play``
    returns."""
    dsn, _clock, _db = floor
    folder.mkdir(mode=0o700)
    journal = Journal.open(folder / "journal.sqlite3", folder / "journal.key", kiosk_id=kiosk_id, table_id=table_id,
                           clock=ManualClock())
    journal.recover()
    played = play(journal)
    journal.close()
    with psycopg.connect(dsn) as conn:
        login = add_kiosk(conn, kiosk_id, table_id, chain_key=load_key(folder / "journal.key", create=False))
    dbname = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
    Shipper(folder / "journal.sqlite3", floor_server.dsn(dbname, login.role, login.password)).ship_pending()
    return played


class PaysTenMore:
    """A kiosk that records a payout 10 chips above what it showed (what a review exists to catch)."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal

    def __getattr__(self, name: str) -> Any:
        return getattr(self.journal, name)

    def close_round(self, round_id: int, settlement: Any) -> Any:
        payments, nets = settlement_json(settlement)
        paid = [p.to_json() for p in payments]
        paid[0]["amount"] += 10
        return self.journal.close_round(round_id, {"payments": paid, "nets": nets})


def test_a_round_paid_otherwise_than_the_rules_say_is_shown_as_disagreeing(
        floor: Floor, floor_server: LocalServer, tmp_path: Path) -> None:
    def rounds(journal: Journal) -> None:
        rng = random.Random(5)
        play_round(journal, "baibuu", rng)
        play_round(PaysTenMore(journal), "baibuu", rng)  # type: ignore[arg-type]

    ship_kiosk(floor, floor_server, tmp_path / "k9", "K-9", "T9", rounds)
    web = client(floor)
    sign_in(web, "auditor")
    assert 'id="verdict">The replay agrees' in web.get("/rounds/K-9/1").text
    page = web.get("/rounds/K-9/2").text
    assert 'id="verdict">THE REPLAY DISAGREES with what was recorded.' in page
    replayed, shown, paid = (re.search(r"<ul class=\"payments\">(.*?)</ul>", part, re.S)[1]  # type: ignore[index]
                             for part in page.split("<section>")[1:4])
    assert replayed == shown != paid


def test_reports_per_table_hold_and_charts_in_both_languages(floor: Floor) -> None:
    dsn, _clock, _db = floor
    web = client(floor)
    sign_in(web, "supervisor")
    with psycopg.connect(dsn) as conn:
        bet, won = conn.execute("SELECT sum(total_bet), sum(house_net) FROM rounds WHERE table_id = 'T1' AND "
                                "status = 'settled'").fetchone()
    page = web.get("/reports").text
    cells = r"<td class=\"num\">([^<]+)</td>"
    row = re.search(r"<tr><td>T1</td>" + cells * 4, page)
    assert row is not None
    assert (int(row[1]), int(row[2].replace(",", "")), int(row[3].replace(",", ""))) == (7, bet, won)
    assert row[4] == f"{won / bet:.1%}"
    assert page.count("<svg") == 3 and "Rounds per table" in page
    token = csrf_of(page)
    assert web.post("/language", data={"csrf": token, "language": "vi", "back": "/reports"}).headers["location"] \
        == "/reports"
    page = web.get("/reports").text
    assert "Báo cáo" in page and "Tỷ lệ giữ" in page and "Số ván theo bàn" in page
    row = re.search(r"<tr><td>T1</td>" + cells * 4, page)
    assert row is not None  # Vietnamese numbers: a comma before the decimals, dots between thousands
    assert row[4] == f"{100 * won / bet:.1f}%".replace(".", ",") and int(row[2].replace(".", "")) == bet


class WordsFromZero:
    """A kiosk as it journaled before its words counted seats from 1: "seat 0 plays 3S" in each action's words, and
    results lines naming seats by their JSON index."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal

    def __getattr__(self, name: str) -> Any:
        return getattr(self.journal, name)

    def record_action(self, round_id: int, record: Any) -> Any:
        old = re.sub(r"\b(seat|team) (\d+)", lambda m: f"{m[1]} {int(m[2]) - 1}", str(record.describe()))
        return self.journal.record_action(round_id, OldWords(record, old))


class OldWords:
    def __init__(self, record: Any, words: str) -> None:
        self.record, self.words = record, words

    def to_json(self) -> Any:
        return self.record.to_json()

    def describe(self) -> str:
        return self.words


def test_a_card_table_round_journaled_with_seats_from_0_is_reviewed_with_seats_from_1(
        floor: Floor, floor_server: LocalServer, tmp_path: Path) -> None:
    def play(journal: Journal) -> list[int]:
        rng, old = random.Random(8), WordsFromZero(journal)
        played = [play_round(old, "samloc", rng, incidents=False)[0]]  # type: ignore[arg-type]
        for _ in range(20):  # a Schmier hand played out (not thrown in)
            round_id, hand = play_round(old, "schmier", rng, incidents=False)  # type: ignore[arg-type]
            if not hand.settle().thrown_in:
                return [*played, round_id]
        return played

    rounds = ship_kiosk(floor, floor_server, tmp_path / "k8", "K-8", "T8", play)
    web = client(floor)
    sign_in(web, "auditor")
    assert len(rounds) == 2
    for round_id in rounds:
        page = web.get(f"/rounds/K-8/{round_id}").text
        assert 'id="verdict">The replay agrees' in page
        events = re.search(r'<table class="events".*?</table>', page, re.S)[0]  # type: ignore[index]
        assert "seat 0" not in events and "team 0" not in events, events
        assert re.search(r"<td>seat 1 (plays|bids|passes)", events), events
        assert re.search(r"<td>results shown</td><td>seat \d [+-]\d+", events), events
        replayed = page.split("<section>")[1]
        assert "seat 0" not in replayed, replayed
        if round_id == rounds[0]:  # Sâm Lốc pays seat to seat; Schmier scores teams (no payments)
            assert re.search(r"seat [1-4] → seat [1-4]: \d+", replayed), replayed
        assert re.search(r"Nets: seat [1-6] [+-]\d+", replayed), replayed


class VoidsWithFormulas:
    """A kiosk whose void's author and reason are text a spreadsheet would run as formulas."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal

    def __getattr__(self, name: str) -> Any:
        return getattr(self.journal, name)

    def void_round(self, round_id: int, by: str, reason: str) -> Any:
        return self.journal.void_round(round_id, "@SUM(1+1)*cmd|' /C calc'!A0", '=HYPERLINK("http://x.example","y")')


def test_every_answer_says_nosniff_and_no_referrer_and_no_csv_cell_is_a_formula(
        floor: Floor, floor_server: LocalServer, tmp_path: Path) -> None:
    ship_kiosk(floor, floor_server, tmp_path / "k7", "K-7", "T7",
               lambda journal: play_round(VoidsWithFormulas(journal), "baibuu",  # type: ignore[arg-type]
                                          random.Random(4), void=True))
    web = client(floor)
    answers = [web.get("/"), web.get("/login")]
    sign_in(web, "supervisor")
    answers += [web.get(page) for page in ("/", "/rounds", "/rounds.csv?table=T7", "/reports", "/rounds/K-7/1",
                                           "/rounds/K-7/99", "/static/console.css", "/favicon.ico", "/nothing")]
    assert [a.status_code for a in answers] == [303, 200, 200, 200, 200, 200, 200, 404, 200, 200, 404]
    for answer in answers:
        assert answer.headers["x-content-type-options"] == "nosniff", answer.url
        assert answer.headers["referrer-policy"] == "no-referrer", answer.url
    assert answers[-2].headers["content-type"] == "image/svg+xml" and b"<svg" in answers[-2].content
    (row,) = csv.DictReader(io.StringIO(answers[4].text))
    assert row["void_reason"] == '\'=HYPERLINK("http://x.example","y")'
    assert row["voided_by"] == "'@SUM(1+1)*cmd|' /C calc'!A0"


def test_wrong_passwords_lock_a_name_only_from_where_they_came_and_a_made_up_name_alike(floor: Floor) -> None:
    dsn, clock, db = floor
    with psycopg.connect(dsn) as conn:
        auth.add_account(conn, "target", PASSWORD, "supervisor", "test")
    app = create_app(Console(db, clock=clock))
    elsewhere = TestClient(app, follow_redirects=False, client=("203.0.113.9", 40000))
    answers = {}
    for name in ("target", "nobody-by-this-name"):
        for _ in range(auth.MAX_TRIES):
            status, page = sign_in(elsewhere, name, "a guess")
        answers[name] = re.search(r'id="login-error">([^<]+)<', page)[1]  # type: ignore[index]
        assert status == 401 and sign_in(elsewhere, name)[0] == 401  # the right password is refused there too
    assert answers["target"] == answers["nobody-by-this-name"] == \
        f"Too many wrong tries: this account is locked for {auth.LOCK_MINUTES} min."
    at_the_pit = TestClient(app, follow_redirects=False, client=("10.1.2.3", 40000))
    assert sign_in(at_the_pit, "target")[0] == 303  # the supervisor at the pit is not locked out


def test_times_are_in_the_casinos_zone_and_shifts_begin_at_its_local_hours(floor: Floor) -> None:
    from zoneinfo import ZoneInfo

    dsn, clock, db = floor
    web = TestClient(create_app(Console(db, clock=clock, zone=ZoneInfo("Asia/Ho_Chi_Minh"), shifts=(6, 14, 22))),
                     follow_redirects=False)
    sign_in(web, "supervisor")
    with psycopg.connect(dsn) as conn:
        (began,) = conn.execute("SELECT began_at FROM rounds WHERE kiosk_id = 'K-1' AND round_id = 1").fetchone()
    local = began.astimezone(ZoneInfo("Asia/Ho_Chi_Minh"))
    rounds = web.get("/rounds?table=T1").text
    assert f"{local.month}/{local.day}/{local.year} {local:%H:%M:%S} UTC+07" in rounds
    review = web.get("/rounds/K-1/1").text
    assert f"{local:%H:%M:%S} UTC+07" in review
    shifts = re.findall(r"<td>\d+/\d+/\d{4} (\d\d:\d\d)–(\d\d:\d\d) UTC\+07</td>", web.get("/reports").text)
    assert shifts and set(shifts) <= {("06:00", "14:00"), ("14:00", "22:00"), ("22:00", "06:00")}


def test_the_pit_view_shows_which_release_and_reader_each_table_runs(floor: Floor, floor_server: LocalServer,
                                                                     tmp_path: Path) -> None:
    """Each kiosk start records its release and models (kiosk.model_hashes); the pit shows the latest start's."""
    from journal.events import SettingsChanged
    from kiosk.model_hashes import SOFTWARE_SETTING

    dsn = floor[0]
    kiosk = enroll(floor_server, dsn, tmp_path / "k3", "K-3", "T3", 1, seed=3)
    journal = Journal.open(kiosk.journal_path, kiosk.journal_path.parent / "kiosk.key", kiosk_id="K-3",
                           table_id="T3")
    journal.recover()
    first = {"version": "0.1.0", "reader": "shipped c12f9393925605ba", "models": {"card-detector.onnx": "ab" * 32}}
    journal.append(SettingsChanged(SOFTWARE_SETTING, None, first, "kiosk"))
    journal.append(SettingsChanged(SOFTWARE_SETTING, first, {**first, "version": "0.2.0"}, "kiosk"))
    journal.close()
    Shipper(kiosk.journal_path, kiosk.dsn).ship_pending()
    web = client(floor)
    sign_in(web, "supervisor")
    page = web.get("/").text
    table_3 = page[page.index('id="table-K-3"'):]
    assert "Runs dealer-assist 0.2.0, reader shipped c12f9393925605ba" in table_3
    assert 'class="software"' not in page[page.index('id="table-K-1"'):page.index('id="table-K-3"')]


def test_money_per_table_theoretical_hold_from_its_settings_and_the_pit_cards_thresholds(
        floor: Floor, floor_server: LocalServer, tmp_path: Path) -> None:
    """A Bài Bửu table at 3 % commission with copies to the highest card, closed for an hour mid-shift, and a Sâm
    Lốc table (players pay one another: no drop, no hold)."""
    from decimal import Decimal

    from engine.baibuu import CopyRule, Settings
    from engine.baibuu.analysis import house_edge

    dsn, _clock, _db = floor
    table = {"commission": Decimal("0.03"), "copy_rule": CopyRule.HIGHEST_CARD}
    shift_start = datetime(2026, 12, 4, 7, 0, tzinfo=UTC)  # the console's clock reads 12:00: the 06:00 shift
    for kiosk_id, table_id, game in (("K-M1", "TM1", "baibuu"), ("K-M2", "TM2", "samloc")):
        folder = tmp_path / kiosk_id
        folder.mkdir(mode=0o700)
        journal = Journal.open(folder / "j.sqlite3", folder / "j.key", kiosk_id=kiosk_id, table_id=table_id,
                               clock=ManualClock(shift_start))
        journal.recover()
        rng = random.Random(41)
        for number in range(8):
            play_round(journal, game, rng, incidents=False, table=table if game == "baibuu" else None)
            journal.clock.advance(3600 if number == 3 else 60)  # type: ignore[attr-defined]
        journal.close()
        with psycopg.connect(dsn) as conn:
            login = add_kiosk(conn, kiosk_id, table_id, chain_key=load_key(folder / "j.key", create=False))
        dbname = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
        Shipper(folder / "j.sqlite3", floor_server.dsn(dbname, login.role, login.password)).ship_pending()
    with psycopg.connect(dsn) as conn:
        drop, win = map(int, conn.execute("SELECT sum(total_bet), sum(house_net) FROM rounds WHERE table_id = 'TM1'"
                                          ).fetchone())
    edge = float(house_edge(Settings(**table)))  # type: ignore[arg-type]
    web = client(floor)
    sign_in(web, "supervisor")

    cells = r"<td class=\"num\">([^<]+)</td>"
    page = web.get("/reports?table=TM1").text
    row = re.search(r"<tr><td>TM1</td>" + cells * 11, page)
    assert row is not None, page
    assert (row[1], row[2], row[3], row[4]) == ("8", f"{drop:,}", f"{win:+,}", f"{win / drop:.1%}")
    assert row[5] == f"{edge:.2%}" and edge < 0.05  # not the 10.5 % of 5 % commission, copies to the house
    assert row[11] == "80.0"  # 8 rounds over 6 open minutes: the hour the table stood closed does not count
    assert 'id="by-dealer"' in page and 'id="sign-off"' in page and "@media print" in web.get(
        "/static/console.css").text
    period = web.get("/reports?table=TM1&since=2026-12-04&until=2026-12-05").text
    assert "Rounds from 12/4/2026 to 12/5/2026 · Table TM1 · printed" in period
    row = re.search(r"<tr><td>TM2</td>" + cells * 5, web.get("/reports?table=TM2").text)
    assert row is not None and (row[1], row[2], row[4], row[5]) == ("8", "0", "—", "—")

    def card() -> str:
        page = web.get("/").text
        return page[page.index('id="table-K-M1"'):page.index("</article>", page.index('id="table-K-M1"'))]

    assert f"drop {drop:,} · win {win:+,}" in card() and f"hold {win / drop:.1%} (theory {edge:.1%})" in card()
    token = csrf_of(web.get("/settings").text)
    off = abs(win / drop - edge) * 100
    for amber, red, alarm in ((off + 1, off + 2, "ok"), (off / 2, off + 1, "amber"), (off / 4, off / 2, "red")):
        answer = web.post("/settings", data={"csrf": token, "hold_amber_points": f"{amber:.3f}",
                                             "hold_red_points": f"{red:.3f}"})
        assert answer.status_code == 303
        assert f'data-alarm="{alarm}"' in card(), (amber, red, alarm)
    auditor = client(floor)
    sign_in(auditor, "auditor")
    assert auditor.post("/settings", data={"csrf": csrf_of(auditor.get("/").text), "hold_red_points": "1"}
                        ).status_code == 403
    assert web.post("/settings", data={"csrf": token, "hold_red_points": "lots"}).status_code == 400
    assert actions(dsn, "supervisor").count("setting_changed") == 6


def test_game_protection_alerts_by_priority_acknowledged_with_a_note_and_kept_in_the_history(
        floor: Floor, floor_server: LocalServer, tmp_path: Path) -> None:
    """A dealer's Bài Bửu table this shift: its hold against theory in standard deviations, the dealer's, and its
    seats' longest winning run raise alerts past the thresholds the supervisor set."""
    import math

    from engine.baibuu.analysis import game_count
    from journal.events import DealerSignedIn

    dsn, _clock, _db = floor
    folder = tmp_path / "K-P1"
    folder.mkdir(mode=0o700)
    journal = Journal.open(folder / "j.sqlite3", folder / "j.key", kiosk_id="K-P1", table_id="TP1",
                           clock=ManualClock(datetime(2026, 12, 4, 8, 0, tzinfo=UTC)))
    journal.recover()
    journal.append(DealerSignedIn("D-7"))
    rng = random.Random(7)
    for _ in range(30):
        play_round(journal, "baibuu", rng, incidents=False)
        journal.clock.advance(60)  # type: ignore[attr-defined]
    journal.close()
    voiding = tmp_path / "K-P2"  # another table's dealer voids every round: 21 of 21, far above the floor's norm
    voiding.mkdir(mode=0o700)
    other = Journal.open(voiding / "j.sqlite3", voiding / "j.key", kiosk_id="K-P2", table_id="TP2",
                         clock=ManualClock(datetime(2026, 12, 4, 9, 0, tzinfo=UTC)))
    other.recover()
    other.append(DealerSignedIn("D-9"))
    for _ in range(21):
        play_round(other, "baibuu", rng, void=True, incidents=False)
    other.close()
    dbname = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
    for kiosk_id, table_id, where in (("K-P1", "TP1", folder), ("K-P2", "TP2", voiding)):
        with psycopg.connect(dsn) as conn:
            login = add_kiosk(conn, kiosk_id, table_id, chain_key=load_key(where / "j.key", create=False))
        Shipper(where / "j.sqlite3", floor_server.dsn(dbname, login.role, login.password)).ship_pending()
    with psycopg.connect(dsn) as conn:
        played = conn.execute("SELECT total_bet, house_net, nets, dealer FROM rounds WHERE kiosk_id = 'K-P1' "
                              "ORDER BY round_id").fetchall()
    counts = game_count().house_way()
    edge, spread = float(counts.house_edge(Decimal("0.05"))), counts.standard_deviation(Decimal("0.05"))
    drop, win = sum(r[0] for r in played), sum(r[1] for r in played)
    deviations = (win - drop * edge) / (spread * math.sqrt(sum(r[0] ** 2 for r in played)))
    runs: dict[str, int] = {}
    longest = 0
    for _, _, nets, _ in played:
        for seat, net in nets.items():
            if seat.isdigit():
                runs[seat] = runs.get(seat, 0) + 1 if net > 0 else 0
                longest = max(longest, runs[seat])
    assert {r[3] for r in played} == {"D-7"} and abs(deviations) >= 0.5 and longest >= 3

    web = client(floor)
    sign_in(web, "supervisor")
    token = csrf_of(web.get("/settings").text)
    assert web.post("/settings", data={"csrf": token, "drift_sd": "0.5", "winning_run": str(longest)}
                    ).status_code == 303
    page = web.get("/").text
    card = page[page.index('id="table-K-P1"'):page.index("</article>", page.index('id="table-K-P1"'))]
    sd = f"{deviations:+.1f}"
    found = re.findall(r'data-alert="(\w+)" data-priority="(\w+)"', card)
    assert found[:2] == [("hold_drift", "high"), ("dealer_drift", "high")] and ("winning_run", "medium") in found
    assert f"HOLD {sd} SD FROM THEORY" in card and f"DEALER D-7: HOLD {sd} SD FROM THEORY" in card
    assert f"WON {longest} ROUNDS IN A ROW" in card
    with psycopg.connect(dsn) as conn:
        week, voids = conn.execute("SELECT count(*), count(*) FILTER (WHERE status = 'voided') FROM rounds WHERE "
                                   "began_at >= '2026-11-27 12:00+00' AND began_at < '2026-12-04 12:00+00'").fetchone()
    other_card = page[page.index('id="table-K-P2"'):page.index("</article>", page.index('id="table-K-P2"'))]
    assert 'data-alert="dealer_rates" data-priority="low"' in other_card
    assert f"DEALER D-9: voids 1.00 A ROUND (FLOOR {voids / week:.2f})" in other_card
    alert = re.search(r'name="alert" value="(\d+)">\s*<input type="hidden" name="source" value="protection">', card)
    assert alert is not None
    refused = web.post("/alerts/acknowledge", data={"csrf": token, "alert": alert[1], "source": "protection"})
    assert refused.status_code == 400 and "with a note" in refused.text
    assert web.post("/alerts/acknowledge", data={"csrf": token, "alert": alert[1], "source": "protection",
                                                 "note": "watched two shoes: dealer rotated"}).status_code == 303
    page = web.get("/").text
    card = page[page.index('id="table-K-P1"'):page.index("</article>", page.index('id="table-K-P1"'))]
    assert len(re.findall(r'data-alert="(\w+)"', card)) == len(found) - 1
    history = web.get("/alerts").text
    assert "watched two shoes: dealer rotated" in history and "console:supervisor" in history
    assert web.post("/language", data={"csrf": token, "language": "km"}).status_code == 303
    for page, words in (("/", "គម្លាតស្តង់ដារ"), ("/alerts", "បានឃើញ"), ("/reports?table=TP1", "គម្លាតស្តង់ដារ"),
                        ("/rounds/K-P1/2", "ព្រឹត្តិការណ៍"), ("/settings", "រក្សាទុក")):
        answer = web.get(page)
        assert answer.status_code == 200 and words in answer.text, page
