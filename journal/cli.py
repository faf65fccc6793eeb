"""``dealer-assist logs …``: supervisor review of the journal (rounds, show, recall, verify, export, stats)."""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import InputError
from engine.phrases import Phrase
from journal.paths import DATA_ENV, default_journal_path, default_key_path
from journal.words import (
    LOGS,
    SEATS_FROM_ONE,
    Words,
    anchor_why,
    english,
    seat_number,
    void_words,
    who_words,
    zone_words,
)

LANGUAGES = ("en", "vi", "km")  # the kiosk's (kiosk.i18n), which the journal may not import

if TYPE_CHECKING:
    from rich.console import Console

    from journal.review import RoundDetail
    from journal.store import Entry, JournalReader


def register(subparsers: Any) -> None:
    logs = subparsers.add_parser(
        "logs",
        help="review the journal: rounds, show, recall, verify, export, stats",
        description="Supervisor review of the table's journal. Paths default to the kiosk's data folder "
        f"(./data, or ${DATA_ENV}).",
    )
    logs.set_defaults(func=lambda _args: logs.print_help() or 2)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", type=Path, default=None, help="the journal file (default: DATA/journal.sqlite3)")
    common.add_argument("--key", type=Path, default=None,
                        help="the kiosk's key file (default: $DEALER_ASSIST_KEY, else DATA/kiosk.key)")
    worded = argparse.ArgumentParser(add_help=False)
    worded.add_argument("--language", choices=LANGUAGES, default=None,
                        help="the words' language: en, vi (Tiếng Việt) or km (Khmer); default: the kiosk config's "
                        "(--config), else en. Events stay as recorded")
    worded.add_argument("--config", type=Path, default=None, help="the kiosk's config file, for its language")
    worded.set_defaults(words=None)  # set by ``dealer-assist`` from the kiosk's catalogue (the journal imports none)
    sub = logs.add_subparsers(dest="logs_command", metavar="SUBCOMMAND")

    rounds = sub.add_parser("rounds", parents=[common], help="list rounds with their outcome, and totals")
    rounds.add_argument("--since", type=_day, help="first day, YYYY-MM-DD (UTC)")
    rounds.add_argument("--until", type=_day, help="last day, YYYY-MM-DD (UTC)")
    rounds.add_argument("--table", help="only this table id")
    rounds.add_argument("--game", choices=("baibuu", "samloc", "schmier"))
    rounds.add_argument("--outcome", choices=("settled", "voided", "open"))
    rounds.set_defaults(func=_rounds)

    show = sub.add_parser("show", parents=[common, worded], help="every event of a round and its replayed result")
    show.add_argument("round", type=_round_number, metavar="ROUND")
    show.add_argument("--frames", type=Path, metavar="DIR",
                      help="copy the round's evidence frames into DIR, as kept and with the read boxes drawn")
    show.set_defaults(func=_show)

    recall = sub.add_parser("recall", parents=[common, worded], help="the last 10 rounds, marked as recall")
    recall.add_argument("--count", type=_round_number, default=10, help="how many rounds (default 10)")
    recall.set_defaults(func=_recall)

    verify = sub.add_parser(
        "verify", parents=[common, worded], help="walk the hash chain; exit 1 at the first bad event",
        description="Walk the hash chain. The chain alone cannot show a journal swapped for an older copy, cut "
        "short with its seal, or rewritten by someone holding the key: give the anchors kept outside it "
        "(--anchors, --checkpoint) to prove the journal continues each of them.",
    )
    verify.add_argument("--anchors", type=Path, action="append", default=[], metavar="FILE",
                        help="an anchor file the kiosk appended at every round's end (journal.anchors); repeatable")
    verify.add_argument("--checkpoint", action="append", default=[], metavar="TEXT",
                        help="a line `logs checkpoint` printed (e.g. 'K1 T3 event 812 … 3f2a9c0d1b7e44a2'); "
                        "repeatable")
    verify.set_defaults(func=_verify)

    checkpoint = sub.add_parser(
        "checkpoint", parents=[common], help="print the chain's head as one line to write down or print",
        description="Print one line naming the journal's last event and the start of its hash, after checking the "
        "chain. Keep it away from the kiosk (write it in the shift log, print it); `logs verify --checkpoint "
        "LINE` later proves the journal still holds that event unchanged.",
    )
    checkpoint.set_defaults(func=_checkpoint)

    export = sub.add_parser("export", parents=[common], help="every event as CSV or JSON Lines")
    export.add_argument("--format", choices=("csv", "jsonl"), default="csv")
    export.add_argument("--round", type=_round_number, help="only this round's events")
    export.add_argument("--since", type=_day, help="first day, YYYY-MM-DD (UTC)")
    export.add_argument("--until", type=_day, help="last day, YYYY-MM-DD (UTC)")
    export.add_argument("-o", "--output", type=Path, help="write to this file (default: standard output)")
    export.set_defaults(func=_export)

    stats = sub.add_parser("stats", parents=[common], help="rounds, re-shakes, misreads, corrections per table and day")
    stats.set_defaults(func=_stats)

    demo = sub.add_parser("demo", parents=[common], help="write a NEW journal of simulated rounds to try these on")
    demo.add_argument("--rounds", type=_round_number, default=30, help="how many rounds (default 30)")
    demo.add_argument("--seed", type=int, default=0)
    demo.set_defaults(func=_demo)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a day: write it as YYYY-MM-DD, e.g. 2026-11-29") from None


def _round_number(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a round number (1, 2, 3 …)")
    return int(text)


def _open(args: argparse.Namespace) -> JournalReader:
    from journal.store import JournalReader

    return JournalReader.open(args.db or default_journal_path(), args.key or default_key_path())


def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


# ---- subcommands -----------------------------------------------------------------------------------------------


def _rounds(args: argparse.Namespace) -> int:
    from rich.table import Table

    from journal.review import RoundFilter, select, totals

    with _open(args) as reader:
        rounds = select(reader, RoundFilter(args.since, args.until, args.table, args.game, args.outcome))
    table = Table(title="Rounds", show_footer=True)
    total = totals(rounds)
    columns = [
        ("Round", f"{total.rounds} rounds"), ("Table", ""), ("Game", ""), ("Begun (UTC)", ""),
        ("Outcome", f"{total.settled} settled, {total.voided} voided, {total.open} open"), ("Actions", ""),
        ("Re-shakes", ""), ("Misreads", ""), ("Corrections", ""), ("Paid", str(total.paid)),
        ("House net", _signed(total.house_net)),
    ]
    for name, footer in columns:
        numeric = name in ("Round", "Actions", "Re-shakes", "Misreads", "Corrections", "Paid", "House net")
        table.add_column(name, footer=footer, justify="right" if numeric else "left")
    for r in rounds:
        outcome = _outcome(r.outcome) + (f" by {r.voided_by}: {r.void_reason}" if r.outcome == "voided" else "")
        table.add_row(str(r.round_id), r.table_id, r.game, r.begun_at[:19].replace("T", " "), outcome,
                      str(r.actions), _warn(r.reshakes), _warn(r.misreads), _warn(r.corrections), str(r.paid),
                      "" if r.house_net is None else _signed(r.house_net))
    _console().print(table)
    return 0


def _show(args: argparse.Namespace) -> int:
    from journal.evidence_export import export, round_frames
    from journal.review import round_detail

    with _open(args) as reader:
        detail = round_detail(reader, args.round)
        frames = round_frames(reader, detail.entries)
        console = _console()
        say = _sayer(args)
        _print_round(console, detail, recall_mark=None, say=say)
        _print_frames(console, frames, say)
        if args.frames is not None:
            written = export(frames, args.frames, args.round)
            kept = sum(1 for f in frames if f.status == "kept")
            console.print(say("frames_written", count=len(written), folder=args.frames, kept=kept,
                              frames=len(frames)))
    return 0 if detail.replayed.agrees else 1


def _recall(args: argparse.Namespace) -> int:
    from rich.rule import Rule

    from journal.review import recall

    with _open(args) as reader:
        details = recall(reader, args.count)
    console = _console()
    say = _sayer(args)
    if not details:
        console.print(f"[yellow]{say('recall_none')}[/]")
        return 0
    for number, detail in enumerate(details, 1):
        mark = say("recall_mark", number=number, count=len(details), round=detail.summary.round_id)
        console.print(Rule(f"[bold black on yellow] {mark} [/]", style="yellow"))
        _print_round(console, detail, recall_mark=mark, say=say)
    return 0


def _verify(args: argparse.Namespace) -> int:
    from journal.errors import JournalCorrupted

    console = _console()
    say = _sayer(args)
    db = args.db or default_journal_path()
    try:
        reader = _open(args)
    except JournalCorrupted as error:
        console.print(f"[bold red]{say('not_sound')}[/] {db}: {error}")
        return 1
    with reader:
        report = reader.verify()
        anchored = None
        if report.ok and (args.anchors or args.checkpoint):
            anchored = reader.check_anchors(args.anchors, args.checkpoint)
    if report.ok:
        console.print(f"[bold green]{say('sound')}[/] {db}: "
                      + say("sound_detail", events=report.events, evidence=_evidence_words(report)))
        if anchored is None:
            console.print(f"[yellow]{say('not_anchored')}[/] {say('not_anchored_why')}")
            return 0
        for note in anchored.notes:
            console.print(f"[yellow]{say('note')}[/] {say.phrase(note)}")
        if anchored.ok:
            last = anchored.last_good
            tail = "" if last is None else say("anchored_last_why" if last.why else "anchored_last", seq=last.seq,
                                               why=anchor_why(last.why))
            console.print(f"[bold green]{say('anchored')}[/] " + say("anchored_detail", count=anchored.checked,
                                                                      last=tail))
            return 0
        console.print(f"[bold red]{say('not_anchored_bad')}[/] {db}: {say.phrase(anchored.problem or '')}")
        console.print(say("keep_evidence_anchors"))
        return 1
    where = f" {say('first_bad', seq=report.first_bad_seq)}" if report.first_bad_seq is not None else ""
    console.print(f"[bold red]{say('not_sound')}[/] {db}{where}: {say.phrase(report.problem or '')}")
    console.print(say("keep_evidence"))
    return 1


def _checkpoint(args: argparse.Namespace) -> int:
    from journal.anchors import checkpoint_text

    with _open(args) as reader:
        report = reader.verify()
        if not report.ok:
            raise InputError(f"the journal failed its check ({report.problem}): a checkpoint of it would prove "
                             "nothing; run `dealer-assist logs verify`")
        last = reader.last_entry()
    if last is None:
        raise InputError("the journal has no events yet: nothing to checkpoint")
    print(checkpoint_text(last.kiosk_id, last.table_id, last.seq, last.hash, last.time))
    return 0


def _export(args: argparse.Namespace) -> int:
    from journal.review import export_entries, summarize

    with _open(args) as reader:
        entries = reader.entries()
        if args.round is not None:
            found = [r for r in summarize(reader) if r.round_id == args.round]
            if not found:
                raise InputError(f"there is no round {args.round} in this journal")
            entries = (e for e in reader.entries(after_seq=found[0].first_seq - 1, until_seq=found[0].last_seq)
                       if e.round_id in (None, args.round))
        entries = (e for e in entries if _within(e.time, args.since, args.until))
        if args.output is None:
            try:
                count = export_entries(entries, sys.stdout, args.format)
            except BrokenPipeError:  # the reader (head, less) has had enough
                sys.stderr.close()
                return 0
        else:
            with open(args.output, "w", encoding="utf-8", newline="") as out:
                count = export_entries(entries, out, args.format)
    print(f"exported {count} events", file=sys.stderr)
    return 0


def _stats(args: argparse.Namespace) -> int:
    from rich.table import Table

    from journal.review import stats

    with _open(args) as reader:
        rows = stats(reader)
    table = Table(title="Per table and day (UTC)")
    for name in ("Table", "Day", "Rounds", "Settled", "Voided", "Re-shakes", "Misreads", "Corrections",
                 "Cards read"):
        table.add_column(name, justify="left" if name in ("Table", "Day") else "right")
    for row in rows:
        table.add_row(row.table_id, row.day, str(row.rounds), str(row.settled), _warn(row.voided),
                      _warn(row.reshakes), _warn(row.misreads), _warn(row.corrections), str(row.cards_read))
    _console().print(table)
    return 0


def _demo(args: argparse.Namespace) -> int:
    from journal.clock import SystemClock
    from journal.simulate import fill
    from journal.store import Journal

    db, key = args.db or default_journal_path(), args.key or default_key_path()
    if db.exists():
        raise InputError(f"{db} already exists: the demo writes a new journal only; give another --db")
    if key.exists():
        raise InputError(f"{key} already exists: the demo makes its own key; give another --key")
    journal = Journal.open(db, key, kiosk_id="DEMO", table_id="DEMO-1", clock=SystemClock())
    journal.recover()
    fill(journal, args.rounds, seed=args.seed)
    journal.close()
    _console().print(f"wrote {args.rounds} simulated rounds to {db} (key {key}); try "
                     f"`dealer-assist logs rounds --db {db} --key {key}`")
    return 0


# ---- rendering -------------------------------------------------------------------------------------------------


class Say:
    """The CLI's words (``journal.words.LOGS``) in the language asked for: ``say(key, **values)``; and
    ``say.phrase(text)`` for a phrase of the journal's or an engine's."""

    def __init__(self, words: Words | None) -> None:
        self.phrase = words or english
        self.worded = words is not None
        """Worded by the kiosk's catalogue, which numbers Sâm Lốc and Schmier seats from 1 as the table does."""

    def __call__(self, key: str, **values: Any) -> str:
        return self.phrase(LOGS[key](**values))


def _sayer(args: argparse.Namespace) -> Say:
    return Say(getattr(args, "words", None))


def _evidence_words(report: Any) -> Phrase:
    kept = report.frames - report.frames_pruned
    if report.frames_pruned:
        return LOGS["evidence_pruned"](kept=kept, pruned=report.frames_pruned)
    return LOGS["evidence"](kept=kept)


def _print_frames(console: Console, frames: Any, say: Say) -> None:
    """Each evidence frame the round's readings cite: its hash, whether it is still as kept, which readings, where."""
    if not frames:
        console.print(f"[yellow]{say('frames_none')}[/]")
        return
    console.print(f"[bold]{say('frames')}[/]")
    for frame in frames:
        style = "green" if frame.status == "kept" else "yellow" if frame.status.startswith("pruned") else "bold red"
        zones = frame.zones if not say.worded else ", ".join(
            say.phrase(zone_words(str(entry.payload["zone"]))) for entry in frame.readings)
        console.print(f"  {frame.digest}  [{style}]{say.phrase(frame.status)}[/]  {zones}", soft_wrap=True)
        if frame.path is not None:
            console.print(f"      {frame.path}", soft_wrap=True, highlight=False)


def _print_round(console: Console, detail: RoundDetail, recall_mark: str | None, say: Say) -> None:
    from rich.table import Table

    s = detail.summary
    title = say("round_title", round=s.round_id, game=s.game, table=s.table_id, kiosk=s.kiosk_id)
    if recall_mark:
        title = f"[black on yellow] {say('recall')} [/] {title}"
    console.print(f"[bold]{title}[/]")
    outcome = _outcome(s.outcome, say)
    if s.outcome == "voided":
        by, reason = s.voided_by, s.void_reason
        if say.worded:  # English: as journaled
            by, reason = who_words(by), void_words(reason)
        outcome = say("voided_by", outcome=outcome, by=by, reason=reason)
    if s.ended_at:
        console.print(say("begun_ended", at=s.begun_at, outcome=outcome, ended=s.ended_at))
    else:
        console.print(say("begun", at=s.begun_at, outcome=outcome))
    for flag in detail.flags:
        console.print(f"[bold black on yellow] {say('flag')} [/] {say.phrase(flag)}")
    for violation in detail.replayed.violations:  # a table record's hand, rebuilt at its end, broke a rule: held
        console.print(f"[bold white on red] {say('violation')} [/] {say.phrase(violation)}", soft_wrap=True)
    events = Table(show_lines=False, title=say("events"))
    for key in ("seq", "time", "event", "what"):
        events.add_column(say("col." + key), justify="right" if key == "seq" else "left")
    replayed_words = detail.replayed.descriptions if s.game in SEATS_FROM_ONE else ()
    for entry in detail.entries:
        style = "dim" if entry.round_id is None else ""
        what = describe(entry, s.game, say if say.worded else None)
        index = entry.payload.get("index") if entry.kind == "action_recorded" else None
        if isinstance(index, int) and 0 <= index < len(replayed_words):  # today's words, seats counted from 1
            what = f"#{index} " + say.phrase(replayed_words[index])
        events.add_row(str(entry.seq), entry.time[11:23], entry.kind, what, style=style)
    console.print(events)

    replayed = detail.replayed
    shown = detail.shown
    settled = detail.settled
    parties = sorted({*replayed.nets, *(shown.nets if shown else {}), *(settled.nets if settled else {})},
                     key=lambda p: (not p.isdigit(), int(p) if p.isdigit() else 0, p))
    side = Table(title=say("result_title"))
    for key in ("party", "shown", "paid", "replayed"):
        side.add_column(say("col." + key), justify="left" if key == "party" else "right")
    for party in parties:
        cells = [_net(shown.nets if shown else None, party), _net(settled.nets if settled else None, party),
                 _net(replayed.nets if replayed.finished else None, party)]
        differs = len({c for c in cells if c != "·"}) > 1
        side.add_row(_party(party, say, s.game), *cells, style="bold red" if differs else "")
    console.print(side)
    if replayed.finished:
        for payment in replayed.payments:
            console.print("  " + say("pays", payer=_party(str(payment.payer), say, s.game),
                                     payee=_party(str(payment.payee), say, s.game), amount=payment.amount,
                                     reason=say.phrase(payment.reason)))
    if replayed.error:
        console.print(f"[bold red]{say('replay_failed')}[/] {say.phrase(replayed.error)}")
    elif not replayed.finished:
        console.print(f"[yellow]{say('unfinished')}[/]"
                      + ("" if s.outcome != "settled" else f" [bold red]{say('unfinished_settled')}[/]"))
    elif replayed.agrees:
        checked = {w for w, v in (("shown", replayed.agrees_with_shown), ("paid", replayed.agrees_with_settled)) if v}
        what = "both" if len(checked) == 2 else checked.pop() if checked else "recorded"
        console.print(f"[bold green]{say('agrees', what=LOGS['agrees.' + what]())}[/]")
    else:
        console.print(f"[bold red]{say('differs')}[/]")


def describe(entry: Entry, game: str = "", say: Say | None = None) -> str:
    """One line in words for an event (``game``: the round's, so that seats are counted as its table counts them;
    ``say``: a round's beginning and its results worded in that language, the rest as journaled)."""
    p = entry.payload
    kind = entry.kind
    if say is not None and kind == "round_begun":
        return say("event.round_begun", game=p["game"])
    if say is not None and kind in ("results_shown", "round_settled"):
        nets = ", ".join(f"{_party(k, say, game)} {_signed(v)}" for k, v in p["nets"].items() if v)
        values = {"count": len(p["payments"]), "nets": nets or say("event.no_money")}
        if kind == "results_shown":
            return say("event.shown", **values)
        return say("event.paid", by=who_words(p["confirmed_by"]), **values)
    if kind == "dice_rolled":
        return f"dice {' '.join(map(str, p['dice']))} (shake {p['shake']})"
    if kind == "dice_reshaken":
        return f"re-shake: {p['reason']}" + (f" (shaker sent {p['raw']!r})" if p.get("raw") else "")
    if kind in ("cards_read", "cards_misread"):
        confidences = ", ".join(f"{c:.0%}" for c in p.get("confidences", []))
        cards = " ".join(p.get("cards", [])) or "-"
        frame = f" · frame {p['frame'][:10]}…" if p.get("frame") else ""
        why = f" MISREAD: {p['reason']} ·" if kind == "cards_misread" else ""
        return f"{p['zone']}:{why} {cards} ({confidences}){frame}"
    if kind == "cards_corrected":
        return (f"{p['zone']}: {' '.join(p['before']) or '-'} → {' '.join(p['after']) or '-'} by {p['by']}"
                + (f" ({p['reason']})" if p.get("reason") else ""))
    if kind == "round_begun":
        return f"{p['game']} round begun"
    if kind == "action_recorded":
        return f"#{p['index']} " + (p["description"] or _compact(p["action"]))
    if kind == "house_split_shown":
        return f"house way: high {' '.join(p['high'])} · low {' '.join(p['low'])}" + (
            f" ({p['rule']})" if p.get("rule") else "")
    if kind in ("results_shown", "round_settled"):
        nets = ", ".join(f"{_party(k, game=game)} {_signed(v)}" for k, v in p["nets"].items() if v)
        verb = "shown" if kind == "results_shown" else f"paid (confirmed by {p['confirmed_by']})"
        return f"{verb}: {len(p['payments'])} payments · {nets or 'no money moves'}"
    if kind == "round_voided":
        return f"VOIDED by {p['by']}: {p['reason']}"
    if kind == "round_resumed":
        return f"resumed at {p['step']} after {p['actions']} actions (by {p['by']})"
    if kind == "kiosk_started":
        return f"version {p['version']}" + (f", round {p['open_round']} was open" if p.get("open_round") else "")
    if kind == "clock_changed":
        return f"wall clock moved {p['jump_ms']} ms: {p['before']} → {p['after']}"
    if kind == "settings_changed":
        return f"{p['setting']}: {_compact(p['before'])} → {_compact(p['after'])} by {p['by']}"
    return _compact(p)


def _compact(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 100 else text[:99] + "…"


def _within(time: str, since: date | None, until: date | None) -> bool:
    day = date.fromisoformat(time[:10])
    return (since is None or day >= since) and (until is None or day <= until)


def _outcome(outcome: str, say: Say | None = None) -> str:
    words = say("outcome." + outcome) if say is not None else outcome
    return {"settled": f"[green]{words}[/]", "voided": f"[bold red]{words}[/]", "open": f"[yellow]{words}[/]"}[outcome]


def _warn(count: int) -> str:
    return f"[yellow]{count}[/]" if count else "0"


def _signed(amount: int) -> str:
    return f"{amount:+d}" if amount else "0"


def _party(party: str, say: Say | None = None, game: str = "") -> str:
    if not party.isdigit():
        return say("party.house") if say is not None and party == "house" else party
    seat = seat_number(party, game)  # as the table numbers it, like the engines' words
    return say("party.seat", seat=seat) if say is not None else f"seat {seat}"


def _net(nets: dict[str, int] | None, party: str) -> str:
    if nets is None:
        return "·"
    return _signed(nets.get(party, 0))
