"""The console's words, by key: the English here, the Vietnamese and the Khmer in the gettext catalogues the kiosk
reads too (``journal/locale/<language>/LC_MESSAGES/dealer_assist.po``, context ``console <key>``), through
``journal.catalogues``.

The floor may not import the kiosk, so the console keeps its own keys beside the kiosk's rather than sharing them;
the words both screens show (the alerts, game names, devices' health) are the kiosk's words, and
``tests/test_floor_console_i18n.py`` holds the two to the same text for those keys. The console's own Khmer uses the
glossary's (../shared/spec/glossary.md) and the kiosk's Khmer terms; the test requires every key in all three
languages, and a key missing from a language at run time falls back to English, never to the key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from journal.catalogues import EnglishAndVietnamese, Translations

LANGUAGES = ("en", "vi", "km")
# Each language's name in its own script: the language button shows the next one's (as on the kiosk).
LANGUAGE_NAMES = {"en": "English", "vi": "Tiếng Việt", "km": "ខ្មែរ"}

SHARED_WITH_KIOSK = ("status.called", "status.table", "status.round", "status.camera", "status.shaker",
                     "status.panel", "status.journal", "health.ok", "health.down", "game.baibuu", "game.samloc",
                     "game.schmier", "bb.outcome.mis-set")
"""Keys whose words must equal the kiosk's (kiosk/i18n.py)."""

ENGLISH: dict[str, str] = {
    # shared with the kiosk's screen
    "status.called": "SUPERVISOR CALLED",
    "status.table": "Table {table}",
    "status.round": "Round {round}",
    "status.camera": "Camera",
    "status.shaker": "Shaker",
    "status.panel": "Buttons",
    "status.journal": "Journal",
    "health.ok": "OK",
    "health.down": "OFFLINE",
    "game.baibuu": "Bài Bửu",
    "game.samloc": "Sâm Lốc",
    "game.schmier": "Schmier",
    "bb.outcome.mis-set": "MIS-SET",
    # the console's own
    "app.title": "Floor console",
    "nav.pit": "Pit",
    "nav.rounds": "Rounds",
    "nav.reports": "Reports",
    "nav.dealers": "Dealers",
    "dealers.title": "Per dealer",
    "dealers.tables": "Tables",
    "dealers.none": "no dealer signed in",
    "rounds.dealer": "Dealer",
    "action.dealers_viewed": "dealers viewed",
    "event.dealer_signed_in": "dealer signed in",
    "event.dealer_signed_out": "dealer signed out",
    "event.dealer_sign_in_failed": "dealer sign-in failed",
    "nav.actions": "Console log",
    "nav.logout": "Sign out",
    "login.title": "Sign in",
    "login.name": "User name",
    "login.password": "Password",
    "login.submit": "Sign in",
    "login.wrong": "Wrong user name or password.",
    "login.locked": "Too many wrong tries: this account is locked for {minutes} min.",
    "csrf.refused": ("The form was refused: it did not come from this console (CSRF check). Reload the page and try "
                     "again."),
    "role.refused": "Your role ({role}) may not do this.",
    "pit.title": "Pit view",
    "pit.live": "live",
    "pit.offline": "reconnecting…",
    "pit.no_tables": "No table has shipped its journal yet.",
    "pit.game": "Game",
    "pit.step": "Step",
    "pit.devices": "Devices",
    "pit.alerts": "Alerts",
    "pit.last_event": "Last heard {ago} ago",
    "pit.ack": "Acknowledge",
    "pit.review": "Rounds",
    "pit.runs": "Runs dealer-assist {version}, reader {reader}",
    "step.idle": "waiting for a round",
    "step.dealt": "dealt",
    "step.playing": "playing, step {actions}",
    "step.results_shown": "results shown",
    "step.settled": "settled",
    "step.voided": "voided",
    "alert.called": "SUPERVISOR CALLED",
    "alert.journal": "JOURNAL FAILED ITS CHECK",
    "alert.void": "ROUND {round} VOIDED",
    "alert.silent": "KIOSK SILENT {minutes} MIN",
    "alert.fork": "JOURNAL ALTERED OR RESTORED: REFUSED",
    "alert.gap": "EVENTS MISSING: REFUSED",
    "alert.anchor": "JOURNAL REWRITTEN AFTER SHIPPING",
    "alert.device_refused": "DEVICE NOT AUTHENTICATED: {serial}",
    "alert.device_v2": "DEVICE {serial} NOT AUTHENTICATED: PROTOCOL 2 ALLOWED",
    "rounds.title": "Round review",
    "rounds.table": "Table",
    "rounds.all": "all",
    "rounds.outcome": "Outcome",
    "rounds.since": "From",
    "rounds.until": "To",
    "rounds.search": "Search",
    "rounds.csv": "CSV export",
    "rounds.none": "No round matches.",
    "rounds.round": "Round",
    "rounds.begun": "Begun",
    "rounds.paid": "Paid",
    "rounds.house_net": "House net",
    "rounds.replay": "Replay",
    "rounds.flags": "Flags",
    "rounds.more": "{count} more rounds: narrow the search.",
    "outcome.settled": "settled",
    "outcome.voided": "voided",
    "outcome.open": "open",
    "review.title": "Table {table} · round {round}",
    "review.replayed": "Replayed through the rules",
    "review.shown": "Shown to the dealer",
    "review.paid": "Paid",
    "review.agrees": "The replay agrees with what was shown and paid.",
    "review.disagrees": "THE REPLAY DISAGREES with what was recorded.",
    "review.not_over": "The round is not over.",
    "review.events": "Events",
    "review.corrections": "Corrections",
    "review.frames": "Evidence frames",
    "review.no_frames": "No reading of this round cites a camera frame.",
    "review.frame": "The camera frame the readings beside it were made from",
    "review.frame_pruned": ("Deleted on the kiosk by its retention settings before it reached the floor (the "
                            "journal records it)."),
    "review.frame_pending": "Not at the floor yet: the kiosk sends it when it can.",
    "review.nets": "Nets",
    "review.seat": "seat {seat}",
    "review.none": "none",
    "reports.title": "Reports",
    "reports.by_table": "Per table",
    "reports.by_shift": "Per shift",
    "reports.rounds": "Rounds",
    "reports.hold": "Hold",
    "reports.house_win": "Win",
    "reports.total_bet": "Drop (bets)",
    "reports.voids": "Voids",
    "reports.corrections": "Corrections",
    "reports.flagged": "Flagged cards",
    "reports.mis_sets": "Mis-sets",
    "reports.per_hour": "Rounds per open hour",
    "reports.shift": "Shift",
    "reports.chart_rounds": "Rounds per table",
    "reports.chart_hold": "Hold per table",
    "reports.chart_shift": "Rounds per shift",
    "actions.title": "Console log: every action taken here",
    "actions.when": "When",
    "actions.who": "Who",
    "actions.what": "What",
    "actions.detail": "Detail",
    "pit.alert_age": "{ago} ago",
    "ago.s": "{n} s",
    "ago.min": "{n} min",
    "ago.h": "{h} h {min} min",
    "ago.never": "never",
    "error.refused": "The console cannot answer this request.",
    "error.unreachable": "The floor's database does not answer: try again in a few seconds.",
    "error.no_page": "There is no such page here: use the menu above.",
    "review.voided": "Voided by {by}: {reason}",
    # a round's events, as the review names them
    "event.kiosk_started": "kiosk started",
    "event.kiosk_stopped": "kiosk stopped",
    "event.device_up": "device connected",
    "event.device_down": "device lost",
    "event.device_refused": "device refused",
    "event.device_paired": "device paired",
    "event.devices_unauthenticated": "devices not authenticated",
    "event.supervisor_signed_in": "supervisor signed in",
    "event.supervisor_signed_out": "supervisor signed out",
    "event.supervisor_sign_in_failed": "supervisor sign-in failed",
    "event.supervisor_locked": "supervisor locked",
    "event.supervisor_added": "supervisor added",
    "event.journal_checked": "journal checked",
    "event.settings_changed": "settings changed",
    "event.clock_changed": "clock changed",
    "event.dice_rolled": "dice rolled",
    "event.dice_reshaken": "dice shaken again",
    # the kiosk's own reasons for a reshake and a correction (recorded in English; free text stays as typed)
    "why.corrected on the card picker": "corrected on the card picker",
    "why.dealer asked": "the dealer asked",
    "why.no result from the shaker in time": "no result from the shaker in time",
    "why.invalid_value": "a die read outside 1 to 6",
    "why.missing_die": "fewer than three dice read",
    "why.sensor_fault": "the sensor could not read the dice",
    "why.jammed": "the shaker is jammed",
    "why.dome_open": "the dome was open",
    "why.busy": "the shaker was busy",
    "event.cards_read": "cards read",
    "event.cards_misread": "cards misread",
    "event.cards_corrected": "cards corrected",
    "event.reader_model_changed": "reader model changed",
    "event.evidence_pruned": "evidence frames deleted",
    "event.evidence_held": "evidence kept",
    "event.round_begun": "round begun",
    "event.action_recorded": "action",
    "event.house_split_shown": "house way shown",
    "event.results_shown": "results shown",
    "event.round_settled": "paid",
    "event.round_voided": "round voided",
    "event.round_resumed": "round resumed",
    "event.note": "note",
    "event.corrected": "{zone}: {before} → {after} by {by}",
    "event.house_way": "high {high} · low {low}: {rule}",
    "event.paid": "confirmed by {by}: {nets}",
    "event.resumed": "after {actions} actions (by {by})",
    "review.house": "house",
    "review.all_even": "no money moves",
    "review.col.seq": "No.",
    "review.col.time": "Time ({zone})",
    "review.col.event": "Event",
    "review.col.what": "What",
    "reports.theoretical": "Theoretical hold",
    "reports.by_dealer": "Per dealer",
    "reports.dealer": "Dealer",
    "reports.total": "All",
    "reports.print": "Print",
    "reports.period": "Rounds from {since} to {until}",
    "reports.period_all": "Every round on record",
    "reports.printed": "printed {when} by {who}",
    "reports.signed_by": "Shift supervisor (name):",
    "reports.signature": "Signature:",
    "reports.signed_at": "Date and time:",
    "reports.explained": ("Drop and win count the settled rounds that had bets (Bài Bửu); Sâm Lốc and Schmier, "
                          "where players pay one another, stay out of hold. Theoretical hold: each round's bets "
                          "times the exact house edge of its table's commission and copy rule. Rounds per hour: "
                          "over the tables' open time."),
    "pit.money": "This shift: drop {drop} · win {win}",
    "pit.hold": "hold {hold} (theory {theory}) · {sd} sd",
    "nav.settings": "Settings",
    "settings.title": "Pit thresholds",
    "settings.hold_amber_points": ("A table's card turns amber when its actual hold this shift strays from its "
                                   "theoretical hold by more than (percentage points):"),
    "settings.hold_red_points": "…and red beyond (percentage points):",
    "settings.save": "Save",
    "settings.saved": "Saved.",
    "action.setting_changed": "setting changed",
    "alert.hold_drift": "HOLD {sd} SD FROM THEORY: {hold} AGAINST {theory}",
    "alert.dealer_drift": "DEALER {dealer}: HOLD {sd} SD FROM THEORY ({hold} against {theory})",
    "alert.winning_run": "SEAT {seat} WON {count} ROUNDS IN A ROW",
    "alert.dealer_rates": "DEALER {dealer}: {what} {rate} A ROUND (FLOOR {norm})",
    "rate.mis_sets": "mis-sets",
    "rate.corrections": "corrections",
    "rate.voids": "voids",
    "priority.high": "HIGH",
    "priority.medium": "MEDIUM",
    "priority.low": "LOW",
    "pit.note": "Note (required)",
    "nav.alerts": "Alerts",
    "alerts.title": "Alerts: open and acknowledged",
    "alerts.raised": "Raised",
    "alerts.priority": "Priority",
    "alerts.alert": "Alert",
    "alerts.cleared": "Acknowledged",
    "alerts.note": "Note",
    "alerts.open": "open",
    "settings.drift_sd": ("An alert when a table's or a dealer's win this shift strays from the theoretical win by "
                          "at least (standard deviations):"),
    "settings.winning_run": "An alert when a seat wins this many rounds in a row:",
    "settings.dealer_rate_factor": ("An alert when a dealer's mis-sets, corrections or voids per round reach this "
                                    "many times the floor's norm:"),
    "reports.sd": "SD from theory",
    # the details the console log records with an action
    "detail.kiosk": "kiosk",
    "detail.round": "round",
    "detail.table": "table",
    "detail.q": "search",
    "detail.game": "game",
    "detail.outcome": "outcome",
    "detail.since": "from",
    "detail.until": "to",
    "detail.flagged": "flagged only",
    "detail.form": "form",
    "detail.reason": "reason",
    "detail.tries": "tries",
    "detail.minutes": "minutes",
    "detail.account": "account",
    "detail.role": "role",
    "detail.language": "language",
    "detail.alert": "alert",
    "detail.cleared": "cleared now",
    "detail.source": "source",
    "detail.note": "note",
    "detail.setting": "setting",
    "detail.value": "value",
    "detail.frame": "frame",
    "reason.wrong_password": "wrong password",
    "reason.no_such_account": "no such account",
    "reason.locked": "locked",
    "value.true": "yes",
    "value.false": "no",
    # the console's own log: what each recorded action was
    "action.signed_in": "signed in",
    "action.signed_out": "signed out",
    "action.sign_in_refused": "sign-in refused",
    "action.account_locked": "account locked",
    "action.account_added": "account added",
    "action.language_changed": "language changed",
    "action.csrf_refused": "form refused (CSRF)",
    "action.alert_acknowledged": "alert acknowledged",
    "action.rounds_searched": "rounds searched",
    "action.rounds_exported": "rounds exported (CSV)",
    "action.round_reviewed": "round reviewed",
    "action.frame_viewed": "evidence frame viewed",
    "action.report_viewed": "report viewed",
    "action.console_log_viewed": "console log viewed",
    "action.alerts_viewed": "alerts viewed",
    "review.unknown": "The floor holds no round {round} of kiosk {kiosk}: search for it on the rounds page.",
}


TEXTS_VI = Translations("vi", "console", ENGLISH)
TEXTS_KM = Translations("km", "console", ENGLISH)
TRANSLATIONS: dict[str, Translations] = {"vi": TEXTS_VI, "km": TEXTS_KM}
TEXTS: Mapping[str, tuple[str, str]] = EnglishAndVietnamese(ENGLISH, TEXTS_VI)
"""key → (English, Vietnamese), the kiosk catalogue's shape."""


def text(language: str, key: str, **params: Any) -> str:
    """``key`` in ``language`` with ``params`` filled in; English when that language lacks it."""
    english = ENGLISH.get(key)
    if english is None:
        raise KeyError(f"the console catalogue has no text {key!r}")
    catalogue = TRANSLATIONS.get(language)
    template = (catalogue.get(key) if catalogue is not None else None) or english
    return template.format(**params) if params else template


def word(language: str, prefix: str, name: str) -> str:
    """``prefix + name`` in the language when the catalogue has it, else ``name`` as it is (a kind of record a
    newer console wrote, say)."""
    return text(language, prefix + name) if prefix + name in ENGLISH else name


def detail(language: str, values: Mapping[str, Any]) -> str:
    """A console action's recorded detail in words: ``name: value`` pairs, names, yes/no and sign-in reasons in the
    language; other values (ids, a note, search text) as recorded."""
    def value(name: str, found: Any) -> str:
        if isinstance(found, bool):
            return text(language, f"value.{str(found).lower()}")
        if name == "reason" and isinstance(found, str):
            return word(language, "reason.", found.replace(" ", "_"))
        return str(found) if isinstance(found, (str, int, float)) else json.dumps(found, ensure_ascii=False)

    return " · ".join(f"{word(language, 'detail.', name)}: {value(name, found)}"
                      for name, found in sorted(values.items()))


def ago(language: str, seconds: int | None) -> str:
    """How long ago, in the language's words: 5 s, 4 min, 2 h 10 min (5 giây, 4 phút …)."""
    if seconds is None:
        return text(language, "ago.never")
    if seconds < 60:
        return text(language, "ago.s", n=seconds)
    if seconds < 3600:
        return text(language, "ago.min", n=seconds // 60)
    return text(language, "ago.h", h=seconds // 3600, min=seconds % 3600 // 60)


def next_language(language: str) -> str:
    return LANGUAGES[(LANGUAGES.index(language) + 1) % len(LANGUAGES)] if language in LANGUAGES else "en"
