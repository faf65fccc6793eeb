"""The supervisors' web console: an ASGI app (Starlette, Jinja2 pages drawn on the server, SSE for the pit view).

Every page but the sign-in needs a session; every POST needs the session's CSRF token (the sign-in form: the token
of its own cookie); every action a person takes here is recorded in ``console_actions``.
"""

from __future__ import annotations

import asyncio
import csv
import io
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from datetime import UTC, date, datetime, tzinfo
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from engine.clock import Clock
from engine.errors import InputError
from floor.console import auth, data, i18n, money, protection
from floor.console.db import Database, StoreUnreachable
from floor.console.formats import Formats
from floor.console.money import Money
from floor.console.review_words import ReviewWords
from journal.clock import SystemClock

HERE = Path(__file__).parent
SESSION_COOKIE = "floor_session"
LOGIN_CSRF_COOKIE = "floor_login_csrf"
MONEY_EVERY_S = 5.0
EVERY_RESPONSE = ((b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"))

class Console:
    """The app's state: the database, the clock, and the settings a floor may change."""

    def __init__(self, db: Database, *, clock: Clock | None = None, secure_cookies: bool = False,
                 silent_after_s: int = 300, pit_poll_s: float = 0.5, session_check_s: float = 10.0,
                 shifts: tuple[int, ...] = (6, 14, 22), zone: tzinfo = UTC) -> None:
        self.db = db
        self.clock: Clock = clock or SystemClock()
        self.secure_cookies = secure_cookies
        self.silent_after_s = silent_after_s
        self.pit_poll_s = pit_poll_s
        self.session_check_s = session_check_s
        self.shifts = shifts
        self.zone = zone
        """The casino's time zone: every time shown is in it (and names it); shifts begin at its local hours."""
        self._money: tuple[float, Any] = (-1e9, None)
        self.templates = Jinja2Templates(directory=str(HERE / "templates"))


    def shift_money(self, conn: Any, now: datetime
                    ) -> tuple[dict[str, Money], dict[str, Decimal], dict[str, list[data.Alert]]]:
        """Each table's money this shift, the floor's thresholds and the open game-protection alerts (raised now
        when the figures call for it), worked out again at most every few seconds (the pit's stream asks twice a
        second)."""
        stamp = time.monotonic()
        if stamp - self._money[0] >= MONEY_EVERY_S:
            start, _end = data.shift_of(now.astimezone(self.zone), self.shifts)
            tables, limits = data.shift_money(conn, start), money.settings(conn)
            protection.check(conn, start, now, limits, tables)
            self._money = (stamp, (tables, limits, data.protection_alerts(conn, now)))
        found: tuple[dict[str, Money], dict[str, Decimal], dict[str, list[data.Alert]]] = self._money[1]
        return found

    def forget_money(self) -> None:
        self._money = (-1e9, None)


def create_app(console: Console) -> Starlette:
    routes = [
        Route("/login", _login_page, methods=["GET"]),
        Route("/login", _login, methods=["POST"]),
        Route("/logout", _logout, methods=["POST"]),
        Route("/language", _language, methods=["POST"]),
        Route("/", _pit, methods=["GET"]),
        Route("/pit/stream", _pit_stream, methods=["GET"]),
        Route("/alerts/acknowledge", _acknowledge, methods=["POST"]),
        Route("/alerts", _alerts, methods=["GET"]),
        Route("/rounds", _rounds, methods=["GET"]),
        Route("/rounds.csv", _rounds_csv, methods=["GET"]),
        Route("/rounds/{kiosk}/{round_id:int}", _review, methods=["GET"]),
        Route("/frames/{digest}", _frame, methods=["GET"]),
        Route("/reports", _reports, methods=["GET"]),
        Route("/dealers", _dealers, methods=["GET"]),
        Route("/actions", _actions, methods=["GET"]),
        Route("/settings", _settings, methods=["GET"]),
        Route("/settings", _change_settings, methods=["POST"]),
        Route("/favicon.ico", _favicon, methods=["GET"]),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={InputError: _input_error, 404: _not_found})
    app.state.console = console
    app.add_middleware(SecurityHeaders)
    return app


class SecurityHeaders:
    """Headers every answer carries, pages, files, CSV, streams and redirects alike: no sniffing a type other than
    the one sent, and no address of the console's pages handed to another site."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *(pair for pair in EVERY_RESPONSE if pair[0] not in names)]
            await send(message)

        await self.app(scope, receive, with_headers)


# ---- helpers ---------------------------------------------------------------------------------------------------


def _console(request: Request) -> Console:
    console: Console = request.app.state.console
    return console


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


def _page(request: Request, template: str, context: dict[str, Any], session: auth.Session | None = None,
          status: int = 200, language: str | None = None) -> HTMLResponse:
    lang = language or (session.language if session else request.cookies.get("floor_lang", "en"))
    lang = lang if lang in i18n.LANGUAGES else "en"
    context = {**_words(lang, _console(request)), "lang": lang, "session": session,
               "next_language": i18n.next_language(lang), "language_names": i18n.LANGUAGE_NAMES, **context}
    response = _console(request).templates.TemplateResponse(request, template, context, status_code=status)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Content-Security-Policy"] = ("default-src 'self'; img-src 'self' data:; style-src 'self'; "
                                                   "script-src 'self'; frame-ancestors 'none'")
    return response


def _words(language: str, console: Console) -> dict[str, Any]:
    """What a template words things with: ``t`` (the catalogue), ``f`` (numbers and moments), ``ago``."""

    def t(key: str, **params: Any) -> str:
        return i18n.text(language, key, **params)

    f = Formats(language, console.zone)
    return {"t": t, "f": f, "ago": lambda seconds: i18n.ago(language, seconds),
            "word": lambda prefix, name: i18n.word(language, prefix, name),
            "detail": lambda values: i18n.detail(language, values),
            "alert_text": lambda alert: _alert_text(language, f, alert)}


def _alert_text(language: str, f: Formats, alert: data.Alert) -> str:
    """An alert in words: a game-protection alert's figures written as the language writes them."""
    params = dict(alert.params)
    if alert.kind in ("hold_drift", "dealer_drift"):
        sd = float(params.get("sd", 0))
        params.update(sd=("+" if sd > 0 else "") + f.number(sd, 1), hold=f.percent(params.get("hold")),
                      theory=f.percent(params.get("theory")))
    elif alert.kind == "dealer_rates":
        params.update(what=i18n.word(language, "rate.", str(params.get("what"))),
                      rate=f.number(float(params.get("rate", 0)), 2), norm=f.number(float(params.get("norm", 0)), 2))
    return i18n.text(language, "alert." + alert.kind, **params)


def _current(request: Request) -> auth.Session | None:
    console = _console(request)
    with console.db.transaction() as conn:
        return auth.session(conn, request.cookies.get(SESSION_COOKIE, ""), console.clock.now())


def _to_login() -> RedirectResponse:
    return RedirectResponse("/login", status_code=303)


async def _form_with_csrf(request: Request, expected: str) -> dict[str, str] | None:
    """The posted form, or None when its CSRF token is not the expected one."""
    form = await request.form()
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    return values if auth.same_token(values.get("csrf", ""), expected) else None


def _refused(request: Request, session: auth.Session | None, key: str, **params: Any) -> HTMLResponse:
    return _page(request, "refused.html", {"message_key": key, "params": params}, session, status=403)


def _run(function: Callable[..., Any], *args: Any) -> Any:
    return asyncio.to_thread(function, *args)


async def _input_error(request: Request, error: Exception) -> Response:
    """A request the console cannot answer, on a page of its own with the menu, in the user's language: 404 for
    something the floor does not hold, 400 for a request worded wrong (its English detail beneath), 503 while no
    server of the store takes requests (the next request tries again: after a failover, the new primary)."""
    if isinstance(error, StoreUnreachable):
        return _page(request, "refused.html", {"message_key": "error.unreachable", "params": {},
                                               "detail": str(error)}, None, status=503)
    session = await _run(_current, request)
    if isinstance(error, data.NotFound):
        return _page(request, "refused.html", {"message_key": error.key, "params": error.params}, session,
                     status=404)
    return _page(request, "refused.html", {"message_key": "error.refused", "params": {}, "detail": str(error)},
                 session, status=400)


async def _not_found(request: Request, _error: Exception) -> Response:
    try:
        session = await _run(_current, request)
    except StoreUnreachable:
        session = None
    return _page(request, "refused.html", {"message_key": "error.no_page", "params": {}}, session, status=404)


async def _favicon(_request: Request) -> Response:
    return Response((HERE / "static" / "favicon.svg").read_bytes(), media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})


# ---- sign-in ---------------------------------------------------------------------------------------------------


async def _login_page(request: Request) -> Response:
    token = request.cookies.get(LOGIN_CSRF_COOKIE) or secrets.token_urlsafe(32)
    response = _page(request, "login.html", {"csrf": token, "error": None})
    _set_cookie(request, response, LOGIN_CSRF_COOKIE, token)
    return response


async def _login(request: Request) -> Response:
    console = _console(request)
    form = await _form_with_csrf(request, request.cookies.get(LOGIN_CSRF_COOKIE, ""))
    if form is None:
        await _run(_record_anonymous, console, "csrf_refused", {"form": "sign in"}, _address(request))
        return _refused(request, None, "csrf.refused")
    name, password = form.get("name", "").strip(), form.get("password", "")

    def attempt() -> auth.SignIn:
        with console.db.transaction() as conn:
            return auth.sign_in(conn, name, password, _address(request), console.clock.now())

    result = await _run(attempt)
    if result.token is None:
        error = ("login.locked", {"minutes": result.locked_minutes}) if result.refused == "locked" \
            else ("login.wrong", {})
        token = request.cookies.get(LOGIN_CSRF_COOKIE, "")
        return _page(request, "login.html", {"csrf": token, "error": error, "name": name}, status=401)
    response = RedirectResponse("/", status_code=303)
    _set_cookie(request, response, SESSION_COOKIE, result.token)
    response.delete_cookie(LOGIN_CSRF_COOKIE)
    return response


def _record_anonymous(console: Console, action: str, detail: dict[str, Any], address: str) -> None:
    with console.db.transaction() as conn:
        auth.record(conn, "-", action, detail, address)


def _set_cookie(request: Request, response: Response, name: str, value: str) -> None:
    response.set_cookie(name, value, httponly=True, samesite="strict", secure=_console(request).secure_cookies,
                        max_age=auth.SESSION_HOURS * 3600)


async def _logout(request: Request) -> Response:
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    if await _form_with_csrf(request, session.csrf) is None:
        return _refused(request, session, "csrf.refused")

    def end() -> None:
        with console.db.transaction() as conn:
            auth.sign_out(conn, session, console.clock.now(), _address(request))

    await _run(end)
    response = _to_login()
    response.delete_cookie(SESSION_COOKIE)
    return response


async def _language(request: Request) -> Response:
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    form = await _form_with_csrf(request, session.csrf)
    if form is None:
        return _refused(request, session, "csrf.refused")
    language = form.get("language", "en")
    if language not in i18n.LANGUAGES:
        raise InputError(f"language {language!r} is not offered: use one of {', '.join(i18n.LANGUAGES)}")

    def change() -> None:
        with console.db.transaction() as conn:
            auth.set_language(conn, session, language, _address(request))

    await _run(change)
    back = form.get("back", "/")
    return RedirectResponse(back if back.startswith("/") and not back.startswith("//") else "/", status_code=303)


# ---- the pit ---------------------------------------------------------------------------------------------------


def _pit_tables(console: Console) -> list[data.TableView]:
    now = console.clock.now()
    with console.db.transaction() as conn:
        tables = data.pit(conn, now, console.silent_after_s)
        money, limits, guarded = console.shift_money(conn, now)
    amber, red = float(limits["hold_amber_points"]), float(limits["hold_red_points"])
    shown = set()
    views = []
    for table in tables:
        found = money.get(table.table_id)
        extra = guarded.get(table.table_id, []) if table.table_id not in shown else []
        shown.add(table.table_id)  # a table with two kiosks shows its protection alerts once
        views.append(replace(table, money=found, alarm=found.alarm(amber, red) if found else "ok",
                             alerts=data.by_priority([*table.alerts, *extra])))
    return views


async def _pit(request: Request) -> Response:
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    tables = await _run(_pit_tables, _console(request))
    return _page(request, "pit.html", {"tables": tables, "now": _console(request).clock.now()}, session)


async def _pit_stream(request: Request) -> Response:
    """Server-sent events: the pit's table cards as HTML whenever anything on the floor changed."""
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return Response("sign in first", status_code=401)
    template = console.templates.get_template("pit_tables.html")
    words = _words(session.language, console)

    async def stream() -> AsyncIterator[str]:
        last = ""
        idle = checked = 0.0
        yield "retry: 1000\n\n"
        while True:
            if await request.is_disconnected():
                return
            try:
                if checked >= console.session_check_s:  # a session signed out elsewhere or expired ends its stream
                    checked = 0.0
                    if await _run(_current, request) is None:
                        yield "event: signed-out\ndata: /login\n\n"
                        return
                tables = await _run(_pit_tables, console)
            except (StoreUnreachable, psycopg.OperationalError):  # the store lost (a failover): the stream stays
                yield ": the floor's store does not answer; trying again\n\n"  # open and the pit comes back by itself
                await asyncio.sleep(1.0)
                continue
            html = template.render(tables=tables, session=session, **words)
            if html != last:
                last, idle = html, 0.0
                yield "event: pit\n" + "".join(f"data: {line}\n" for line in html.splitlines()) + "\n"
            elif idle >= 15:
                idle = 0.0
                yield ": still here\n\n"
            await asyncio.sleep(console.pit_poll_s)
            idle += console.pit_poll_s
            checked += console.pit_poll_s

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def _acknowledge(request: Request) -> Response:
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    form = await _form_with_csrf(request, session.csrf)
    if form is None:
        return _refused(request, session, "csrf.refused")
    if not session.may("acknowledge"):
        return _refused(request, session, "role.refused", role=session.role)
    alert, source, note = form.get("alert", ""), form.get("source", "floor"), form.get("note", "").strip()
    if not alert.isdigit() or source not in ("floor", "protection"):
        raise InputError(f"no alert {alert!r} to acknowledge; reload the pit view")
    if not note or len(note) > 500:
        raise InputError("an alert is acknowledged with a note (1 to 500 characters) saying what was done about it")

    def ack() -> None:
        with console.db.transaction() as conn:
            cleared = data.acknowledge(conn, int(alert), session.account, console.clock.now(), note, source)
            auth.record(conn, session.account, "alert_acknowledged",
                        {"alert": int(alert), "source": source, "note": note, "cleared": cleared}, _address(request))

    await _run(ack)
    console.forget_money()
    return RedirectResponse("/", status_code=303)


async def _alerts(request: Request) -> Response:
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    rows = await _run(_audited, console, session, "alerts_viewed", {}, _address(request),
                      lambda conn: data.alert_history(conn, console.clock.now()))
    return _page(request, "alerts.html", {"rows": rows}, session)


# ---- rounds ----------------------------------------------------------------------------------------------------


def _filter(request: Request) -> data.RoundQuery:
    query = request.query_params

    def day(name: str) -> date | None:
        value = query.get(name, "").strip()
        if not value:
            return None
        try:
            return date.fromisoformat(value)
        except ValueError:
            raise InputError(f"{name} {value!r} is not a date: write it as 2026-12-31") from None

    outcome = query.get("outcome", "") or None
    if outcome is not None and outcome not in data.OUTCOMES:
        raise InputError(f"outcome {outcome!r} is not known: use one of {', '.join(data.OUTCOMES)}")
    game = query.get("game", "") or None
    if game is not None and game not in data.GAMES:
        raise InputError(f"game {game!r} is not known: use one of {', '.join(data.GAMES)}")
    return data.RoundQuery(table=query.get("table", "").strip() or None, game=game, outcome=outcome,
                           since=day("since"), until=day("until"), text=query.get("q", "").strip()[:200],
                           flagged=query.get("flagged", "") == "1", zone=_console(request).zone)


def _audited(console: Console, session: auth.Session, action: str, detail: dict[str, Any], address: str,
             function: Callable[[Any], Any]) -> Any:
    with console.db.transaction() as conn:
        auth.record(conn, session.account, action, detail, address)
        return function(conn)


def _audited_read(console: Console, session: auth.Session, action: str, detail: dict[str, Any], address: str,
                  function: Callable[[Any], Any]) -> Any:
    """Like ``_audited`` for a heavy read (a report, an export): recorded on the primary, read on the standby
    when the floor has one up."""
    with console.db.transaction() as conn:
        auth.record(conn, session.account, action, detail, address)
    with console.db.reading() as conn:
        return function(conn)


async def _rounds(request: Request) -> Response:
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    where = _filter(request)
    (rows, total), tables = await _run(_audited, console, session, "rounds_searched", where.to_json(),
                                       _address(request),
                                       lambda conn: (data.rounds(conn, where, data.PAGE), data.tables(conn)))
    return _page(request, "rounds.html", {"rows": rows, "more": total - len(rows), "where": where,
                                          "tables": tables, "outcomes": data.OUTCOMES, "games": data.GAMES,
                                          "query": str(request.url.query)}, session)


async def _rounds_csv(request: Request) -> Response:
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    if not session.may("export"):
        return _refused(request, session, "role.refused", role=session.role)
    where = _filter(request)

    def export(conn: Any) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(data.CSV_COLUMNS)
        for row in data.iter_rounds(conn, where):
            writer.writerow(data.csv_row(row, console.zone))
        return buffer.getvalue()

    text = await _run(_audited_read, console, session, "rounds_exported", where.to_json(), _address(request), export)
    stamp = console.clock.now().strftime("%Y%m%d-%H%M%S")
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="rounds-{stamp}.csv"',
                             "Cache-Control": "no-store"})


async def _review(request: Request) -> Response:
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    kiosk, round_id = request.path_params["kiosk"], request.path_params["round_id"]
    review = await _run(_audited, console, session, "round_reviewed", {"kiosk": kiosk, "round": round_id},
                        _address(request), lambda conn: data.review(conn, kiosk, round_id))
    return _page(request, "review.html", {"r": review, "w": ReviewWords(session.language, review.detail)}, session)


async def _frame(request: Request) -> Response:
    """An evidence frame's picture, only to a signed-in user (the review page's <img>); each look is recorded."""
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return Response("sign in first", status_code=401, headers={"Cache-Control": "no-store"})
    digest = request.path_params["digest"]
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise InputError(f"{digest[:80]!r} is not a frame's SHA-256 (64 lower-case hex digits)")
    found = await _run(_audited, console, session, "frame_viewed", {"frame": digest}, _address(request),
                       lambda conn: data.frame(conn, digest))
    if found is None:
        return Response("the floor holds no such frame", status_code=404, headers={"Cache-Control": "no-store"})
    media_type, body = found
    return Response(body, media_type=media_type, headers={"Cache-Control": "private, max-age=3600",
                                                          "X-Content-Type-Options": "nosniff"})


# ---- reports and the console's own log -------------------------------------------------------------------------


async def _reports(request: Request) -> Response:
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    where = _filter(request)
    report = await _run(_audited_read, console, session, "report_viewed", where.to_json(), _address(request),
                        lambda conn: data.report(conn, where, console.shifts, console.clock.now()))

    words = _words(session.language, console)
    tables = await _run(_read, console, data.tables)
    return _page(request, "reports.html", {"report": report, "where": where, "tables": tables,
                                           "now": console.clock.now(),
                                           "charts": data.report_charts(report, words["t"], words["f"])}, session)


async def _dealers(request: Request) -> Response:
    """Each dealer's rounds, money and flags (the dealer signed in at the kiosk when each round began)."""
    from floor.console.dealers import by_dealer

    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    where = _filter(request)
    lines, tables = await _run(_audited_read, console, session, "dealers_viewed", where.to_json(),
                               _address(request), lambda conn: (by_dealer(conn, where), data.tables(conn)))
    return _page(request, "dealers.html", {"lines": lines, "tables": tables, "where": where}, session)


async def _actions(request: Request) -> Response:
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    if not session.may("audit"):
        return _refused(request, session, "role.refused", role=session.role)
    rows = await _run(_audited, console, session, "console_log_viewed", {}, _address(request),
                      lambda conn: data.console_actions(conn, 500))
    return _page(request, "actions.html", {"rows": rows}, session)


def _read(console: Console, function: Callable[[Any], Any]) -> Any:
    with console.db.transaction() as conn:
        return function(conn)


# ---- the floor's settings ----------------------------------------------------------------------------------------


async def _settings(request: Request) -> Response:
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    if not session.may("settings"):
        return _refused(request, session, "role.refused", role=session.role)
    values = await _run(_read, console, money.settings)
    return _page(request, "settings.html", {"values": values, "saved": request.query_params.get("saved") == "1"},
                 session)


async def _change_settings(request: Request) -> Response:
    console = _console(request)
    session = await _run(_current, request)
    if session is None:
        return _to_login()
    form = await _form_with_csrf(request, session.csrf)
    if form is None:
        return _refused(request, session, "csrf.refused")
    if not session.may("settings"):
        return _refused(request, session, "role.refused", role=session.role)

    def change(conn: Any) -> None:
        for name in money.SETTINGS:
            if name in form:
                value = money.change_setting(conn, name, form[name], session.account)
                auth.record(conn, session.account, "setting_changed", {"setting": name, "value": str(value)},
                            _address(request))

    await _run(_read, console, change)
    console.forget_money()
    return RedirectResponse("/settings?saved=1", status_code=303)
