"""What the console reads from the central store (see floor/SCHEMA.md), shaped for its pages.

The pit view reads the summaries the ingest keeps (``kiosks``, ``rounds``, open ``alerts``); a round's review reads
its events and rebuilds it with ``journal.review`` exactly as ``dealer-assist logs show`` does on a kiosk.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

from engine.cards import CardError, parse_card
from engine.errors import InputError
from floor.console.charts import bar_chart
from floor.console.formats import Formats, zone_label
from floor.console.money import Money
from floor.console.protection import FLOOR_PRIORITY, PRIORITIES
from journal import review as journal_review
from journal.store import Entry
from journal.words import SEATS_FROM_ONE, seat_number

OUTCOMES = ("settled", "voided", "open")
GAMES = ("baibuu", "samloc", "schmier")
PAGE = 500
ALERTS = {  # the store's alert kinds → the catalogue's words
    "supervisor_called": "called",
    "journal_failed": "journal",
    "void": "void",
    "silent": "silent",
    "fork": "fork",
    "gap": "gap",
    "anchor_mismatch": "anchor",
    "device_refused": "device_refused",
    "device_unauthenticated": "device_v2",
}
STEPS = {"round_begun": "dealt", "action_recorded": "playing", "round_resumed": "playing",
         "results_shown": "results_shown"}
SILENT_EVERY_S = 5.0


class NotFound(InputError):
    """Something asked for that the floor does not hold: the console answers 404 with ``key`` in the user's
    language."""

    def __init__(self, message: str, key: str, **params: Any) -> None:
        super().__init__(message)
        self.key, self.params = key, params


@dataclass(frozen=True, slots=True)
class Device:
    name: str
    up: bool
    detail: str


@dataclass(frozen=True, slots=True)
class Alert:
    alert_id: int
    kind: str
    """The catalogue's word for it: called, journal, void, silent, fork, gap, anchor, device_refused, device_v2."""
    message: str
    seq: int | None
    params: dict[str, Any]
    acknowledgeable: bool = True
    age_s: int | None = None
    """Seconds it has been open."""
    priority: str = "medium"
    """high, medium or low: the pit lists an alert by its priority, then its age."""
    source: str = "floor"
    """``floor`` (raised by the store's ingest, in ``alerts``) or ``protection`` (raised by the console's game
    protection, in ``protection_alerts``)."""


@dataclass(frozen=True, slots=True)
class TableView:
    kiosk_id: str
    table_id: str
    game: str | None
    round_id: int | None
    step: str
    actions: int
    devices: tuple[Device, ...]
    alerts: tuple[Alert, ...]
    ago_s: int | None
    """Seconds since the kiosk was last heard; None: never."""
    version: str = ""
    """The dealer-assist release the kiosk last started with ("" before any start said so)."""
    reader: str = ""
    """Its card-reader model at that start: name and hash."""
    money: Money | None = None
    """This shift's money at the table (None: no bet yet)."""
    alarm: str = "ok"
    """How far its actual hold strays from theory against the floor's thresholds: ok, amber, red."""
    dealer: str = ""
    """The dealer signed in at the table now ("" when nobody is)."""


# ---- the pit ---------------------------------------------------------------------------------------------------

_last_silent_check: dict[str, float] = {}


def pit(conn: Any, now: datetime, silent_after_s: int) -> list[TableView]:
    """Every kiosk of the floor with its round, step, devices and open alerts (a few indexed reads)."""
    import time

    stamp = time.monotonic()
    if stamp - _last_silent_check.get("at", -1e9) >= SILENT_EVERY_S:
        _last_silent_check["at"] = stamp
        conn.execute("SELECT raise_silent_alerts(%s)", (timedelta(seconds=silent_after_s),))
    kiosks = conn.execute(
        "SELECT k.kiosk_id, k.table_id, k.game, k.open_round, k.round_step, k.devices, "
        "coalesce(k.last_seen_at, k.last_event_at), r.round_id, r.status, r.actions, r.game, sw.software, k.dealer "
        "FROM kiosks k LEFT JOIN LATERAL (SELECT round_id, status, actions, game FROM rounds "
        "WHERE rounds.kiosk_id = k.kiosk_id ORDER BY round_id DESC LIMIT 1) r ON true "
        # what the kiosk's last start ran (kiosk.model_hashes.SOFTWARE_SETTING; index events_software, 0008)
        "LEFT JOIN LATERAL (SELECT e.payload->'after' AS software FROM events e WHERE e.kiosk_id = k.kiosk_id "
        "AND e.kind = 'settings_changed' AND e.payload->>'setting' = 'software' ORDER BY e.seq DESC LIMIT 1) sw "
        "ON true ORDER BY k.table_id, k.kiosk_id").fetchall()
    alerts: dict[str, list[Alert]] = {}
    for alert_id, kiosk_id, kind, seq, message, raised_at, round_id, payload in conn.execute(
            "SELECT a.alert_id, a.kiosk_id, a.kind, a.seq, a.message, a.raised_at, e.round_id, e.payload FROM alerts a "
            "LEFT JOIN events e ON e.kiosk_id = a.kiosk_id AND e.seq = a.seq "
            "WHERE a.cleared_at IS NULL ORDER BY a.raised_at, a.alert_id"):
        word = ALERTS.get(kind, "fork")
        params: dict[str, Any] = {}
        if word == "void":
            params = {"round": round_id if round_id is not None else "?"}
        elif word in ("device_refused", "device_v2"):
            params = {"serial": str((payload or {}).get("serial", "?"))}  # the message names the device in English
        elif word == "silent":
            params = {"minutes": max(1, int((now - raised_at).total_seconds() // 60) + silent_after_s // 60)}
        alerts.setdefault(kiosk_id, []).append(Alert(alert_id, word, message, seq, params,
                                                     age_s=_seconds_since(now, raised_at),
                                                     priority=FLOOR_PRIORITY.get(kind, "medium")))
    views = []
    for (kiosk_id, table_id, game, open_round, round_step, devices, seen, last_round, status, actions,
         last_game, software, dealer) in kiosks:
        if open_round is not None:
            step, round_id = STEPS.get(round_step or "", "playing"), open_round
        elif last_round is not None:
            step, round_id = status if status in ("settled", "voided") else "idle", last_round
        else:
            step, round_id = "idle", None
        views.append(TableView(
            kiosk_id, table_id, game or last_game, round_id, step, actions or 0,
            tuple(Device(name, bool(state.get("up")), str(state.get("reason") or state.get("port") or ""))
                  for name, state in sorted((devices or {}).items())),
            tuple(alerts.get(kiosk_id, ())), _seconds_since(now, seen),
            *_software(software), dealer=dealer or ""))
    return views


def _software(recorded: Any) -> tuple[str, str]:
    """(version, reader) from a kiosk start's record; blanks for a kiosk whose starts never said."""
    if not isinstance(recorded, dict):
        return "", ""
    return str(recorded.get("version") or ""), str(recorded.get("reader") or "")


def shift_money(conn: Any, since: datetime) -> dict[str, Money]:
    """Each table's drop, win and theoretical win since ``since`` (the shift's start): settled rounds with bets."""
    money: dict[str, Money] = {}
    for table_id, copy_rule, commission, drop, win, squares in conn.execute(
            "SELECT table_id, copy_rule, commission, sum(total_bet), coalesce(sum(house_net), 0), "
            "sum(total_bet::float8 * total_bet) FROM rounds WHERE began_at >= %s AND status = 'settled' AND "
            "total_bet > 0 GROUP BY 1, 2, 3", (since,)):
        money.setdefault(table_id, Money()).add(int(drop), int(win), copy_rule, commission, float(squares))
    return money


def acknowledge(conn: Any, alert_id: int, account: str, now: datetime, note: str, source: str = "floor") -> bool:
    """Clear an open alert in the console's name with the supervisor's note; False when it was already cleared."""
    table = {"floor": "alerts", "protection": "protection_alerts"}[source]
    row = conn.execute(f"UPDATE {table} SET cleared_at = %s, cleared_by = %s, cleared_note = %s WHERE alert_id = %s "
                       "AND cleared_at IS NULL RETURNING alert_id", (now, f"console:{account}", note, alert_id)
                       ).fetchone()
    return row is not None


def protection_alerts(conn: Any, now: datetime) -> dict[str, list[Alert]]:
    """The open game-protection alerts per table."""
    found: dict[str, list[Alert]] = {}
    for alert_id, table_id, kind, priority, params, raised_at in conn.execute(
            "SELECT alert_id, table_id, kind, priority, params, raised_at FROM protection_alerts "
            "WHERE cleared_at IS NULL ORDER BY raised_at, alert_id"):
        found.setdefault(table_id, []).append(Alert(alert_id, kind, kind, None, dict(params), True,
                                                    _seconds_since(now, raised_at), priority, "protection"))
    return found


def by_priority(alerts: Sequence[Alert]) -> tuple[Alert, ...]:
    """High first, then medium, then low; the oldest first within a priority."""
    return tuple(sorted(alerts, key=lambda a: (PRIORITIES.index(a.priority), -(a.age_s or 0))))


@dataclass(frozen=True, slots=True)
class PastAlert:
    alert: Alert
    table_id: str
    raised_at: datetime
    cleared_at: datetime | None
    cleared_by: str | None
    note: str | None


def alert_history(conn: Any, now: datetime, limit: int = 300) -> list[PastAlert]:
    """Every alert, open and acknowledged, newest first: the floor's and game protection's."""
    rows = conn.execute(
        "(SELECT 'floor', a.alert_id, a.table_id, a.kind, a.message, a.seq, e.round_id, e.payload, NULL::jsonb, "
        "NULL, a.raised_at, a.cleared_at, a.cleared_by, a.cleared_note FROM alerts a LEFT JOIN events e ON "
        "e.kiosk_id = a.kiosk_id AND e.seq = a.seq ORDER BY a.raised_at DESC LIMIT %s) UNION ALL "
        "(SELECT 'protection', alert_id, table_id, kind, kind, NULL, NULL, NULL, params, priority, raised_at, "
        "cleared_at, cleared_by, cleared_note FROM protection_alerts ORDER BY raised_at DESC LIMIT %s) "
        "ORDER BY 11 DESC LIMIT %s", (limit, limit, limit)).fetchall()
    history = []
    for (source, alert_id, table_id, kind, message, seq, round_id, payload, params, priority, raised_at, cleared_at,
         cleared_by, note) in rows:
        if source == "floor":
            word = ALERTS.get(kind, "fork")
            words: dict[str, Any] = {}
            if word == "void":
                words = {"round": round_id if round_id is not None else "?"}
            elif word in ("device_refused", "device_v2"):
                words = {"serial": str((payload or {}).get("serial", "?"))}
            elif word == "silent":
                words = {"minutes": max(1, int(((cleared_at or now) - raised_at).total_seconds() // 60))}
            alert = Alert(alert_id, word, message, seq, words, cleared_at is None, _seconds_since(now, raised_at),
                          FLOOR_PRIORITY.get(kind, "medium"))
        else:
            alert = Alert(alert_id, kind, kind, None, dict(params), cleared_at is None,
                          _seconds_since(now, raised_at), priority, "protection")
        history.append(PastAlert(alert, table_id, raised_at, cleared_at, cleared_by, note))
    return history


def _seconds_since(now: datetime, then: datetime | None) -> int | None:
    return None if then is None else max(0, int((now - then).total_seconds()))


# ---- rounds ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundQuery:
    table: str | None = None
    game: str | None = None
    outcome: str | None = None
    since: date | None = None
    until: date | None = None
    text: str = ""
    flagged: bool = False
    zone: tzinfo = UTC
    """Days begin at midnight in the casino's zone."""

    def to_json(self) -> dict[str, Any]:
        return {k: str(v) if isinstance(v, date) else v for k, v in
                (("table", self.table), ("game", self.game), ("outcome", self.outcome), ("since", self.since),
                 ("until", self.until), ("q", self.text), ("flagged", self.flagged)) if v}

    def where(self) -> tuple[str, list[Any]]:
        clauses: list[str] = ["true"]
        args: list[Any] = []
        if self.table:
            clauses.append("table_id = %s")
            args.append(self.table)
        if self.game:
            clauses.append("game = %s")
            args.append(self.game)
        if self.outcome:
            clauses.append("status = %s")
            args.append(self.outcome)
        if self.since:
            clauses.append("began_at >= %s")
            args.append(datetime.combine(self.since, datetime.min.time(), self.zone))
        if self.until:
            clauses.append("began_at < %s")
            args.append(datetime.combine(self.until + timedelta(days=1), datetime.min.time(), self.zone))
        if self.flagged:
            clauses.append("(status = 'voided' OR corrections > 0 OR mis_sets > 0 OR misreads > 0)")
        if self.text:
            pattern = "%" + self.text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            clauses.append("(kiosk_id ILIKE %s OR table_id ILIKE %s OR coalesce(dealer, '') ILIKE %s OR "
                           "coalesce(void_reason, '') ILIKE %s OR coalesce(voided_by, '') ILIKE %s OR "
                           "round_id::text = %s)")
            args.extend([pattern] * 5 + [self.text])
        return " AND ".join(clauses), args


ROUND_COLUMNS = ("table_id", "kiosk_id", "round_id", "game", "dealer", "began_at", "ended_at", "status", "actions",
                 "total_bet", "house_net", "corrections", "misreads", "mis_sets", "reshakes", "voided_by",
                 "void_reason")
CSV_COLUMNS = ROUND_COLUMNS


@dataclass(frozen=True, slots=True)
class RoundRow:
    table_id: str
    kiosk_id: str
    round_id: int
    game: str
    dealer: str | None
    began_at: datetime
    ended_at: datetime | None
    status: str
    actions: int
    total_bet: int
    house_net: int | None
    corrections: int
    misreads: int
    mis_sets: int
    reshakes: int
    voided_by: str | None
    void_reason: str | None


def rounds(conn: Any, where: RoundQuery, limit: int | None = None) -> tuple[list[RoundRow], int]:
    """Rounds that match, newest first (at most ``limit``), and how many match in all."""
    clause, args = where.where()
    total = conn.execute(f"SELECT count(*) FROM rounds WHERE {clause}", args).fetchone()[0]
    sql = (f"SELECT {', '.join(ROUND_COLUMNS)} FROM rounds WHERE {clause} "
           "ORDER BY began_at DESC, kiosk_id, round_id DESC")
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [RoundRow(*row) for row in conn.execute(sql, args)], int(total)


def iter_rounds(conn: Any, where: RoundQuery) -> Iterator[RoundRow]:
    clause, args = where.where()
    with conn.cursor(name="rounds_export") as cursor:
        cursor.execute(f"SELECT {', '.join(ROUND_COLUMNS)} FROM rounds WHERE {clause} "
                       "ORDER BY began_at, kiosk_id, round_id", args)
        for row in cursor:
            yield RoundRow(*row)


def csv_row(row: RoundRow, zone: tzinfo = UTC) -> list[Any]:
    """A round as CSV cells: times in the casino's zone (ISO 8601 with the offset); text that a spreadsheet would
    run as a formula (=, +, -, @, tab, carriage return first) is kept as text by a leading apostrophe."""
    values: list[Any] = []
    for name in CSV_COLUMNS:
        value = getattr(row, name)
        if value is None:
            values.append("")
        elif isinstance(value, datetime):
            values.append(value.astimezone(zone).isoformat())
        elif isinstance(value, str):
            values.append(spreadsheet_safe(value))
        else:
            values.append(value)
    return values


def spreadsheet_safe(text: str) -> str:
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def tables(conn: Any) -> list[str]:
    return [row[0] for row in conn.execute("SELECT table_id FROM tables ORDER BY table_id")]


# ---- one round, reviewed ----------------------------------------------------------------------------------------


class CentralJournal:
    """One kiosk's central copy read like a ``JournalReader`` (what ``journal.review`` asks of it), within a window
    of sequence numbers so that a review reads the round and the one before it, not the whole journal."""

    def __init__(self, conn: Any, kiosk_id: str, first_seq: int, last_seq: int) -> None:
        self.conn, self.kiosk_id, self.first_seq, self.last_seq = conn, kiosk_id, first_seq, last_seq

    def entries(self, *, round_id: int | None = None, kinds: Sequence[str] | None = None, after_seq: int = 0,
                until_seq: int | None = None) -> Iterator[Entry]:
        where = ["kiosk_id = %s", "seq > %s", "seq <= %s"]
        args: list[Any] = [self.kiosk_id, max(after_seq, self.first_seq - 1),
                           min(until_seq if until_seq is not None else self.last_seq, self.last_seq)]
        if round_id is not None:
            where.append("round_id = %s")
            args.append(round_id)
        if kinds is not None:
            where.append("kind = ANY(%s)")
            args.append(list(kinds))
        for row in self.conn.execute(
                "SELECT seq, time_text, mono_ns, boot_id, kiosk_id, table_id, round_id, kind, payload_text, "
                f"prev_hash, hash FROM events WHERE {' AND '.join(where)} ORDER BY seq", args):
            yield Entry(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], json.loads(row[8]),
                        row[9], row[10])


@dataclass(frozen=True, slots=True)
class Box:
    """One card read in a frame, as a rectangle in the frame's pixels."""

    card: str
    x: int
    y: int
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class Reading:
    seq: int
    text: str
    boxes: tuple[Box, ...] = ()


@dataclass(frozen=True, slots=True)
class Frame:
    """An evidence frame and the readings of the round citing it. ``state``: ``stored`` (at the floor: the console
    serves it), ``pruned`` (deleted on the kiosk by its retention settings before it was shipped, per the journal)
    or ``pending`` (not shipped yet)."""

    digest: str
    readings: tuple[Reading, ...]
    state: str
    size: tuple[int, int] | None = None
    """(width, height) in pixels when known: the readings' boxes are drawn over the picture."""


@dataclass(frozen=True)
class Review:
    detail: journal_review.RoundDetail
    corrections: tuple[str, ...]
    frames: tuple[Frame, ...]
    describe: Callable[[Entry], str] = field(repr=False)

    @property
    def void_reason(self) -> str:
        return self.detail.summary.void_reason or ""

    def seat(self, party: object) -> str:
        """A party of the payments and nets as the round's table numbers its seats (from 1 at the card games)."""
        return seat_number(str(party), self.detail.summary.game)


def review(conn: Any, kiosk_id: str, round_id: int) -> Review:
    """The round rebuilt from its central events and replayed through the engine, beside what was shown and paid."""
    row = conn.execute("SELECT begun_seq, coalesce(ended_seq, (SELECT last_seq FROM kiosks WHERE kiosk_id = %s)) "
                       "FROM rounds WHERE kiosk_id = %s AND round_id = %s", (kiosk_id, kiosk_id, round_id)
                       ).fetchone()
    if row is None:
        raise NotFound(f"the floor has no round {round_id} of kiosk {kiosk_id}; search the rounds page for it",
                       "review.unknown", round=round_id, kiosk=kiosk_id)
    _begun_seq, last_seq = row
    previous = conn.execute("SELECT begun_seq FROM rounds WHERE kiosk_id = %s AND round_id < %s ORDER BY round_id "
                            "DESC LIMIT 1", (kiosk_id, round_id)).fetchone()
    first = previous[0] if previous else 1
    reader = CentralJournal(conn, kiosk_id, first, last_seq)
    summaries = journal_review.summarize(reader)  # type: ignore[arg-type]
    detail = journal_review.round_detail(reader, round_id, summaries)  # type: ignore[arg-type]
    corrections = tuple(_describe(e) for e in detail.entries if e.kind == "cards_corrected")
    return Review(detail, corrections, _frames(conn, kiosk_id, detail.entries), _describer(detail))


def _describer(detail: journal_review.RoundDetail) -> Callable[[Entry], str]:
    """How the round's events read: at the card games, each action in today's words (seats from 1) replayed from
    its JSON, and the results by the nets, so that a journal written while its words counted seats from 0 reads as
    the table counts them too; any other event as the journal wrote it."""
    game = detail.summary.game
    if game not in SEATS_FROM_ONE:
        return _describe
    words = detail.replayed.descriptions

    def describe(entry: Entry) -> str:
        index = entry.payload.get("index") if entry.kind == "action_recorded" else None
        if isinstance(index, int) and 0 <= index < len(words):
            return str(words[index])
        if entry.kind in ("results_shown", "round_settled") and isinstance(entry.payload.get("nets"), dict):
            nets = ", ".join(f"seat {seat_number(str(party), game)} {amount:+d}"
                             for party, amount in entry.payload["nets"].items() if amount)
            return f"{_describe(entry) if entry.kind == 'round_settled' else 'results shown'}: {nets or 'all even'}"
        return _describe(entry)

    return describe


def _frames(conn: Any, kiosk_id: str, entries: Sequence[Entry]) -> tuple[Frame, ...]:
    cited: dict[str, list[Reading]] = {}
    first_seq: dict[str, int] = {}
    for e in entries:
        digest = e.payload.get("frame")
        if e.kind in ("cards_read", "cards_misread") and isinstance(digest, str) and digest:
            cited.setdefault(digest, []).append(Reading(e.seq, _describe(e), _boxes(e.payload)))
            first_seq.setdefault(digest, e.seq)
    if not cited:
        return ()
    digests = list(cited)
    heads = {row[0]: frame_size(bytes(row[1])) for row in conn.execute(
        "SELECT digest, substring(data FROM 1 FOR 65536) FROM frames WHERE digest = ANY(%s)", (digests,))}
    pruned = {row[0] for row in conn.execute(
        "SELECT DISTINCT f.digest FROM events p, jsonb_array_elements_text(p.payload->'frames') AS f(digest) "
        "WHERE p.kiosk_id = %s AND p.kind = 'evidence_pruned' AND f.digest = ANY(%s)", (kiosk_id, digests))}
    return tuple(Frame(d, tuple(readings), "stored" if d in heads else "pruned" if d in pruned else "pending",
                       heads.get(d)) for d, readings in cited.items())


def _boxes(payload: dict[str, Any]) -> tuple[Box, ...]:
    cards, boxes = payload.get("cards") or [], payload.get("boxes") or []
    found = []
    for card, box in zip(cards, boxes, strict=False):
        if isinstance(box, list) and len(box) == 4 and all(isinstance(v, int) for v in box):
            x1, y1, x2, y2 = box
            found.append(Box(_pretty(str(card)), x1, y1, max(0, x2 - x1), max(0, y2 - y1)))
    return tuple(found)


def _pretty(code: str) -> str:
    try:
        return parse_card(code).pretty
    except CardError:
        return code


def frame_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the start of a JPEG or WebP file, or None when the header does not say."""
    if head[:2] == b"\xff\xd8":
        i = 2
        while i + 9 <= len(head):
            if head[i] != 0xFF:
                return None
            marker = head[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            length = int.from_bytes(head[i + 2:i + 4], "big")
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                return int.from_bytes(head[i + 7:i + 9], "big"), int.from_bytes(head[i + 5:i + 7], "big")
            i += 2 + length
        return None
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP" and len(head) >= 30:
        chunk = head[12:16]
        if chunk == b"VP8 ":
            return int.from_bytes(head[26:28], "little") & 0x3FFF, int.from_bytes(head[28:30], "little") & 0x3FFF
        if chunk == b"VP8L":
            bits = int.from_bytes(head[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8X":
            return int.from_bytes(head[24:27], "little") + 1, int.from_bytes(head[27:30], "little") + 1
    return None


def frame(conn: Any, digest: str) -> tuple[str, bytes] | None:
    """A stored frame's media type and bytes."""
    row = conn.execute("SELECT media_type, data FROM frames WHERE digest = %s", (digest,)).fetchone()
    return (str(row[0]), bytes(row[1])) if row is not None else None


def _describe(entry: Entry) -> str:
    p = entry.payload
    match entry.kind:
        case "action_recorded":
            return str(p.get("description") or json.dumps(p.get("action"), ensure_ascii=False))
        case "cards_read":
            return f"{p.get('zone')}: {' '.join(p.get('cards', []))}"
        case "cards_misread":
            return f"{p.get('zone')}: {p.get('reason')}"
        case "cards_corrected":
            return (f"{p.get('zone')}: {' '.join(p.get('before', []))} → {' '.join(p.get('after', []))} "
                    f"({p.get('by')}{': ' + p['reason'] if p.get('reason') else ''})")
        case "dice_rolled":
            return " ".join(map(str, p.get("dice", [])))
        case "results_shown":
            return "; ".join(p.get("lines", [])) or "results shown"
        case "round_settled":
            return f"paid, confirmed by {p.get('confirmed_by')}"
        case "round_voided":
            return f"voided by {p.get('by')}: {p.get('reason')}"
        case "note":
            return f"{p.get('by')}: {p.get('text')}"
        case "round_begun":
            return str(p.get("game"))
        case _:
            return json.dumps(p, ensure_ascii=False, sort_keys=True)[:300]


# ---- reports ---------------------------------------------------------------------------------------------------


OPEN_GAP = timedelta(minutes=10)
"""A table whose next round begins later than this after the last one was closed in between: its open time counts
each round from its start to the next round's (within this gap), or to its own end."""


@dataclass
class ReportLine:
    label: str
    rounds: int = 0
    voids: int = 0
    corrections: int = 0
    flagged: int = 0
    mis_sets: int = 0
    open_s: float = 0.0
    """The tables' open time behind these rounds, in seconds (a shift's line: every table's, added)."""
    money: Money = field(default_factory=Money)
    shift: tuple[datetime, datetime] | None = None
    """A shift's line: when it begins and ends (local to the casino)."""

    @property
    def total_bet(self) -> int:
        return self.money.drop

    @property
    def house_win(self) -> int:
        return self.money.win

    @property
    def hold(self) -> float | None:
        """House win over the bets of the rounds that had bets; None where none had (games without a house)."""
        return self.money.hold

    @property
    def per_hour(self) -> float:
        """Rounds per hour of the table's open time (one time base for tables, shifts and dealers)."""
        return self.rounds / (self.open_s / 3600) if self.open_s > 0 else 0.0

    def add(self, rounds: int, drop: int, win: int, voids: int, corrections: int, flagged: int, mis_sets: int,
            open_s: float, copy_rule: str | None, commission: str | None, squares: float) -> None:
        self.rounds += rounds
        self.voids += voids
        self.corrections += corrections
        self.flagged += flagged
        self.mis_sets += mis_sets
        self.open_s += open_s
        self.money.add(drop, win, copy_rule, commission, squares)


@dataclass(frozen=True, slots=True)
class Report:
    by_table: list[ReportLine]
    by_shift: list[ReportLine]
    by_dealer: list[ReportLine]
    total: ReportLine


def shift_of(moment: datetime, starts: Sequence[int]) -> tuple[datetime, datetime]:
    """The shift holding ``moment``: shifts begin at the hours ``starts`` (in the moment's own time zone)."""
    hours = sorted(starts)
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    begins = [day + timedelta(hours=h - 24) for h in hours] + [day + timedelta(hours=h) for h in hours] + \
             [day + timedelta(hours=h + 24) for h in hours]
    start = max(b for b in begins if b <= moment)
    end = min(b for b in begins if b > moment)
    return start, end


def zone_name(zone: tzinfo) -> str:
    """The IANA name PostgreSQL knows the zone by."""
    return str(getattr(zone, "key", "UTC"))


def report(conn: Any, where: RoundQuery, shifts: Sequence[int], now: datetime) -> Report:
    """Per table, shift and dealer, summed by PostgreSQL in one pass (grouping sets: each line per Bài Bửu rule, for
    its theoretical hold). A round belongs to the shift that began last, in the casino's local hours, before it.
    Drop and win count only settled rounds with bets; each round's open time runs to its table's next round."""
    clause, args = where.where()
    zone = where.zone
    starts = sorted(set(shifts))
    by_table: dict[str, ReportLine] = {}
    by_shift: dict[datetime, ReportLine] = {}
    by_dealer: dict[str, ReportLine] = {}
    total = ReportLine("all")
    rows = conn.execute(
        "WITH r AS (SELECT *, lead(began_at) OVER (PARTITION BY table_id ORDER BY began_at, kiosk_id, round_id) "
        f"AS next_at, began_at AT TIME ZONE %s AS local FROM rounds WHERE {clause}), "
        "s AS (SELECT *, coalesce(date_trunc('day', local) + make_interval(hours => (SELECT max(h) FROM "
        "unnest(%s::int[]) h WHERE h <= extract(hour FROM local))), date_trunc('day', local) - interval '1 day' + "
        "make_interval(hours => %s)) AS shift_local, coalesce(dealer, '') AS dealt_by FROM r) "
        "SELECT grouping(table_id), grouping(shift_local), table_id, shift_local, dealt_by, copy_rule, commission, "
        "count(*), coalesce(sum(total_bet) FILTER (WHERE status = 'settled' AND total_bet > 0), 0), "
        "coalesce(sum(house_net) FILTER (WHERE status = 'settled' AND total_bet > 0), 0), "
        "count(*) FILTER (WHERE status = 'voided'), sum(corrections), sum(misreads), sum(mis_sets), "
        "coalesce(sum(total_bet::float8 * total_bet) FILTER (WHERE status = 'settled' AND total_bet > 0), 0), "
        "sum(extract(epoch FROM CASE WHEN next_at - began_at <= %s THEN next_at - began_at "
        "ELSE coalesce(ended_at, began_at) - began_at END)) FROM s "
        "GROUP BY GROUPING SETS ((table_id, copy_rule, commission), (shift_local, copy_rule, commission), "
        "(dealt_by, copy_rule, commission))",
        [zone_name(zone), *args, starts, starts[-1], OPEN_GAP]).fetchall()
    for no_table, no_shift, table_id, shift_local, dealer, copy_rule, commission, *counts, squares, open_s in rows:
        values = (*(int(c) for c in counts), float(open_s or 0), copy_rule, commission, float(squares))
        if not no_table:
            by_table.setdefault(table_id, ReportLine(table_id)).add(*values)
            total.add(*values)
        elif not no_shift:
            begins, ends = shift_of(shift_local.replace(tzinfo=zone), starts)
            line = by_shift.get(begins)
            if line is None:
                line = by_shift[begins] = ReportLine(shift_label(begins, ends), shift=(begins, ends))
            line.add(*values)
        else:
            by_dealer.setdefault(dealer, ReportLine(dealer or "—")).add(*values)
    return Report([by_table[k] for k in sorted(by_table)], [by_shift[k] for k in sorted(by_shift)],
                  [by_dealer[k] for k in sorted(by_dealer)], total)


def shift_label(start: datetime, end: datetime) -> str:
    return f"{start:%Y-%m-%d %H:%M}–{end:%H:%M} {zone_label(start)}"


def report_charts(report: Report, t: Callable[..., str], f: Formats) -> list[str]:
    charts = [bar_chart(t("reports.chart_rounds"), [(line.label, line.rounds) for line in report.by_table],
                        f.number)]
    held = [(line.label, line.hold) for line in report.by_table if line.hold is not None]
    if held:
        charts.append(bar_chart(t("reports.chart_hold"), held, f.percent))
    charts.append(bar_chart(t("reports.chart_shift"), [(f.shift(line.shift) if line.shift else line.label,
                                                        line.rounds) for line in report.by_shift], f.number))
    return charts


# ---- the console's own record -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConsoleAction:
    at: datetime
    account: str
    action: str
    detail: dict[str, Any]
    address: str


def console_actions(conn: Any, limit: int) -> list[ConsoleAction]:
    return [ConsoleAction(at, account, action, dict(detail or {}), address)
            for at, account, action, detail, address in conn.execute(
                "SELECT at, account, action, detail, address FROM console_actions ORDER BY id DESC LIMIT %s",
                (limit,))]
