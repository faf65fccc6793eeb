"""The journal's texts for people (review flags, replay verdicts, evidence frames' status, the ``logs`` CLI's
verdict lines), as phrases: the English text that logs and tests read, carrying its key and values so that a screen
or the CLI can word it in Vietnamese or Khmer (the translations are in the kiosk's one catalogue, ``kiosk.i18n``;
the journal imports no kiosk code)."""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.phrases import Phrase, PhraseTemplate

Words = Callable[[str], str]
"""A text (a phrase, or plain data) in the reader's language."""

# ---- a round's flags in review ----------------------------------------------------------------------------------
HAND_HOUSE = PhraseTemplate("review.hand.house", "house")
HAND_SEAT = PhraseTemplate("review.hand.seat", "seat {seat}")
FLAG_SAME_HAND = PhraseTemplate(
    "review.flag.same_hand",
    "the {hand} hand {cards} is the {earlier} hand of round {round}: cards left on the felt from it?",
)
FLAG_DICE_TWICE = PhraseTemplate(
    "review.flag.dice_twice",
    "the shaker's dice were journaled {count} times in this round ({dice}): it was shaken again after its dice "
    "were recorded",
)
FLAG_PAID_UNSHOWN = PhraseTemplate("review.flag.paid_unshown", "paid with no record of the results shown to the dealer")

# ---- why a replay does not agree --------------------------------------------------------------------------------
REPLAY_NOT_INSTALLED = PhraseTemplate("review.replay.not_installed", "the {game} engine is not installed ({module})")
REPLAY_REFUSED = PhraseTemplate("review.replay.refused", "the engine refuses this round: {error}")
REPLAY_FAILED = PhraseTemplate("review.replay.failed", "the engine failed on this round: {error}")
REPLAY_UNSETTLED = PhraseTemplate("review.replay.unsettled", "the engine could not settle this round: {error}")
REPLAY_UNFINISHED = PhraseTemplate("review.replay.unfinished", "the round's actions do not finish it")
REPLAY_DIFFERS_SHOWN = PhraseTemplate("review.replay.differs_shown",
                                      "the replayed result differs from what was shown to the dealer")
REPLAY_DIFFERS_PAID = PhraseTemplate("review.replay.differs_paid", "the replayed result differs from what was paid")

# ---- an evidence frame's status ---------------------------------------------------------------------------------
FRAME_KEPT = PhraseTemplate("evidence.status.kept", "kept")
FRAME_PRUNED = PhraseTemplate("evidence.status.pruned", "pruned {day} ({reason}; event {seq})")
FRAME_MISSING = PhraseTemplate("evidence.status.missing", "MISSING (no evidence_pruned event explains it)")
FRAME_ALTERED = PhraseTemplate("evidence.status.altered", "ALTERED")
PRUNE_OLDER = PhraseTemplate("evidence.prune.older", "older than {days} days")
PRUNE_CAP = PhraseTemplate("evidence.prune.cap", "over the {mb} MB cap")

# ---- what the journal's check found wrong (the kiosk's stop screen, the supervisor's VERIFY, ``logs verify``) ----
VERIFY = {
    key: PhraseTemplate(f"verify.{key}", text)
    for key, text in (
        ("damaged", "the database file is damaged ({error})"),
        ("damaged_integrity", "the database file is damaged (SQLite integrity check: {detail})"),
        ("format", "the journal format is {version}, expected {expected}"),
        ("trigger", "the trigger {name} that refuses changes to events was dropped or altered"),
        ("missing", "missing"),
        ("duplicated", "duplicated"),
        ("gap", "event {seq} is {what} (the chain goes on at event {next}): rows were deleted or inserted"),
        ("unreadable", "event {seq} was altered (unreadable bytes in it)"),
        ("out_of_order", "event {seq} does not follow event {previous} (rows were reordered, replaced or deleted)"),
        ("altered", "event {seq} was altered (its content no longer matches its hash)"),
        ("rewritten", "event {seq} holds content the kiosk never writes, under a hash made with its key: the journal "
                      "was rewritten by someone with the key"),
        ("seal", "the seal on the journal's last event is missing or forged"),
        ("cut", "the journal was sealed at event {sealed} but ends at event {last}: events were cut off the end or "
                "added without the key"),
        ("event_trouble", "event {seq}: {trouble}"),
        ("frame_missing", "evidence frame {frame}… is missing from {folder} and no evidence_pruned event explains it "
                          "(the retention settings journal every frame they delete)"),
        ("frame_altered", "evidence frame {path} was altered (its content no longer matches its hash)"),
    )
}

# ---- why the journal cannot be opened (the kiosk's stop screen) -------------------------------------------------
OPENING = {
    key: PhraseTemplate(f"open.{key}", text)
    for key, text in (
        ("refusal", "the journal failed its check: {problem}. Play is stopped. Call a supervisor: keep the journal "
                    "file as evidence, run `dealer-assist logs verify` and start a new journal; it is never repaired "
                    "automatically"),
        ("cannot_open", "{path} cannot be opened as a journal ({error})"),
        ("cannot_read", "{path} cannot be read ({error})"),
        ("cannot_read_events", "cannot read events ({error})"),
        ("not_a_journal", "{path} is not a dealer-assist journal (no journal format set)"),
        ("newer", "the journal {path} was written by a newer dealer-assist (journal format {version}; this one reads "
                  "up to {supported}): update dealer-assist. The journal was not touched"),
        ("wrong_key", "the key file does not belong to the journal {path}: use the key this kiosk wrote it with (a "
                      "journal cannot be checked with another kiosk's key)"),
        ("key_missing", "the journal's key is not at {path}: if it was moved, give where it is now (--key, the kiosk "
                        "config's journal.key, or DEALER_ASSIST_KEY); otherwise restore it from the kiosk's key "
                        "backup. Without it the journal cannot be checked or extended (a new key would not match)"),
        ("key_unreadable", "cannot read the key file {path}: run as the kiosk's user"),
        ("key_is_folder", "the key path {path} is a folder: give the key file itself"),
        ("key_shared", "the key file {path} may be read or written by others (mode {mode}): make it the kiosk "
                       "user's alone with `chmod 600 {path}`"),
        ("key_not_hex", "the key file {path} is not a journal key (64 hex digits expected)"),
        ("key_size", "the key file {path} holds {size} bytes, a journal key has {expected}"),
        ("key_no_folder", "the key's folder {folder} does not exist: mount the key's volume or create the folder "
                          "(readable by the kiosk's user only)"),
    )
}

# ---- why the journal does not continue its anchors (the stop screen, VERIFY JOURNAL, ``logs verify``) -----------
ANCHORS = {
    key: PhraseTemplate(f"anchor.{key}", text)
    for key, text in (
        ("no_file", "there is no anchor file at {path}: check --anchors (the kiosk's journal.anchors)"),
        ("unreadable", "cannot read the anchor file {path} ({error})"),
        ("line_altered", "line {line} of the anchor file {path} was altered or written with another kiosk's key"),
        ("line_out_of_place", "line {line} of the anchor file {path} does not follow {after}: anchor lines were "
                              "removed, reordered or copied in"),
        ("after_line", "line {line}"),
        ("after_start", "the start of the file"),
        ("not_ours", "none of the {count} anchors is of this journal (the last: {last}): this is not the journal "
                     "the kiosk was writing, or it was begun anew without the kiosk"),
        ("rolled_back", "ROLLED BACK: {anchor}{more} is beyond the journal's end at event {end}: the journal was "
                        "replaced by an older copy, cut short, or lost its -wal file{agreed}"),
        ("forked", "FORKED: at event {seq} the journal's hash is {digest}…, {anchor} says {hash}…: events up to "
                   "{seq} were rewritten (with the key), or this is another journal{agreed}"),
        ("more", " (and {count} later anchors)"),
        ("agreed", "; it agrees with every anchor up to {anchor}"),
        ("not_continued", "the journal does not continue its anchors"),
        ("name", "{label} (event {seq})"),
        ("name_why", "{label} (event {seq}, {why})"),
        ("name_at", "{label} (event {seq} at {time})"),
        ("name_at_why", "{label} (event {seq} at {time}, {why})"),
        ("line", "anchor line {line}"),
        ("checkpoint", "checkpoint {number} ({text})"),
        ("why.started", "kiosk started"),
        ("why.stopped", "kiosk stopped"),
        ("why.settled", "round {round} settled"),
        ("why.voided", "round {round} voided"),
        ("folder_gone", "the anchor file's folder {folder} does not exist: mount the anchor volume (or create the "
                        "folder)"),
        ("cannot_write", "cannot write the anchor file {path} ({error})"),
        ("others", "{count} anchors are of another journal of this kiosk (the last: {last}); they are not checked "
                   "against this one"),
        ("torn", "not complete anchors (a write cut short), and no anchor missing around them: lines {lines}"),
        ("floor_unreachable", "the floor was unreachable a moment ago; the next round's anchor tries again"),
        ("floor_refused", "the floor did not take the anchor ({error})"),
        ("floor_mismatch", "the floor holds another event {seq} than this journal: the journal was rewritten or "
                           "replaced after it was shipped; the floor raised an alert"),
    )
}


def anchor_why(why: str) -> str:
    """Why an anchor was kept (``kiosk started``, ``round 12 settled`` ...) as a phrase; another reason as is."""
    if why in ("kiosk started", "kiosk stopped"):
        return ANCHORS[f"why.{why.split()[1]}"]()
    ended = re.fullmatch(r"round (\d+) (settled|voided)", why)
    if ended:
        return ANCHORS[f"why.{ended.group(2)}"](round=int(ended.group(1)))
    return why


# ---- the ``logs`` CLI's verdict lines ---------------------------------------------------------------------------
LOGS = {
    key: PhraseTemplate(f"logs.{key}", text)
    for key, text in (
        ("round_title", "Round {round} · {game} · table {table} · kiosk {kiosk}"),
        ("begun", "begun {at} · {outcome}"),
        ("begun_ended", "begun {at} · {outcome} at {ended}"),
        ("outcome.settled", "settled"),
        ("outcome.voided", "voided"),
        ("outcome.open", "open"),
        ("voided_by", "{outcome} by {by}: {reason}"),
        ("flag", "FLAG"),
        ("violation", "VIOLATION (held for a supervisor)"),
        ("recall", "RECALL"),
        ("recall_mark", "RECALL {number}/{count}: round {round}, not live play"),
        ("recall_none", "RECALL: the journal has no rounds yet"),
        ("events", "Events"),
        ("col.seq", "Seq"),
        ("col.time", "Time (UTC)"),
        ("col.event", "Event"),
        ("col.what", "What"),
        ("result_title", "Result: shown to the dealer · paid · replayed from the events"),
        ("col.party", "Party"),
        ("col.shown", "Shown"),
        ("col.paid", "Paid"),
        ("col.replayed", "Replayed"),
        ("party.seat", "seat {seat}"),
        ("party.house", "house"),
        ("event.round_begun", "{game} round begun"),
        ("event.shown", "shown: {count} payments · {nets}"),
        ("event.paid", "paid (confirmed by {by}): {count} payments · {nets}"),
        ("event.no_money", "no money moves"),
        ("pays", "{payer} pays {payee} {amount}: {reason}"),
        ("replay_failed", "Replay failed:"),
        ("unfinished", "Replayed: the round's actions do not finish it"),
        ("unfinished_settled", "(yet it was settled)"),
        ("agrees", "The replayed result agrees with what was {what}"),
        ("agrees.shown", "shown"),
        ("agrees.paid", "paid"),
        ("agrees.both", "shown and paid"),
        ("agrees.recorded", "recorded"),
        ("differs", "The replayed result DIFFERS from what was recorded (rows in red)"),
        ("frames_none", "Evidence frames: none (these readings were journaled without their frame)"),
        ("frames", "Evidence frames (the camera frame each reading was made from; SHA-256, status, readings):"),
        ("frames_written", "{count} files written to {folder} ({kept} of {frames} frames kept, each as stored and "
                           "with the read boxes drawn)"),
        ("sound", "SOUND"),
        ("not_sound", "NOT SOUND"),
        ("sound_detail", "{events} events, every link of the chain and the seal check out; triggers in place; "
                         "{evidence}"),
        ("evidence", "{kept} evidence frames unaltered"),
        ("evidence_pruned", "{kept} evidence frames unaltered, {pruned} pruned by the retention settings "
                            "(journaled)"),
        ("not_anchored", "Not anchored:"),
        ("not_anchored_why", "the chain alone cannot show a journal swapped for an older copy or cut short, nor one "
                             "rewritten with the key; give --anchors FILE or --checkpoint TEXT"),
        ("note", "Note:"),
        ("anchored", "ANCHORED"),
        ("anchored_detail", "the journal continues all {count} anchors it was given{last}. Events after the last "
                            "anchor are proven only by the next one"),
        ("anchored_last", "; the last: event {seq}"),
        ("anchored_last_why", "; the last: event {seq} ({why})"),
        ("not_anchored_bad", "NOT ANCHORED"),
        ("first_bad", "(first bad event: {seq})"),
        ("keep_evidence", "Keep this file as evidence; the kiosk refuses to play on it."),
        ("keep_evidence_anchors", "Keep this file and the anchors as evidence; the kiosk refuses to play on it."),
        ("zone.house_high", "house high"),
        ("zone.house_low", "house low"),
        ("zone.seat_high", "seat {seat} high"),
        ("zone.seat_low", "seat {seat} low"),
        ("zone.centre", "centre"),
        ("zone.pile", "pile"),
        ("who.dealer", "dealer"),
        ("void.misdeal", "Misdeal"),
        ("void.dice", "Dice off the table"),
        ("void.exposed", "Card exposed"),
        ("void.dispute", "Player dispute"),
        ("void.device", "Device fault"),
        ("void.crash", "Kiosk restarted"),
        ("void.panel", "dealer pressed VOID on the panel"),
        ("hold.dispute", "kept for a dispute"),
    )
}
_PANEL_VOID = "dealer pressed VOID on the panel"  # the reason the controllers journal for the panel's VOID


SEATS_FROM_ONE = ("samloc", "schmier")
"""The games whose journal counts seats and teams from 0 (actions, payments, nets): people count them from 1."""


def seat_number(party: str, game: str) -> str:
    """A seat of a round's payments or nets as people number it at its game's table (Sâm Lốc's and Schmier's
    journal keeps ``"0"`` for the first seat, Bài Bửu's the position itself); another party (``house``) as is.

    >>> seat_number("0", "samloc"), seat_number("3", "baibuu"), seat_number("house", "baibuu")
    ('1', '3', 'house')
    """
    if party.isdigit() and game in SEATS_FROM_ONE:
        return str(int(party) + 1)
    return party


def zone_words(zone: str) -> str:
    """A camera zone's name (``seat3.high``, ``house.low``, ``centre``, ``pile``) as a phrase; another as is."""
    place = re.fullmatch(r"(house|seat(\d+))\.(high|low)", zone)
    if place is not None:
        if place.group(1) == "house":
            return LOGS[f"zone.house_{place.group(3)}"]()
        return LOGS[f"zone.seat_{place.group(3)}"](seat=int(place.group(2)))
    return LOGS[f"zone.{zone}"]() if f"zone.{zone}" in LOGS else zone


def void_words(reason: str) -> str:
    """A void's journaled reason (a code such as ``misdeal``, or the panel's words) as a phrase; free text as is."""
    key = "void.panel" if reason == _PANEL_VOID else f"void.{reason}"
    return LOGS[key]() if key in LOGS else reason


HOLD_DISPUTE = "dispute"
"""The reason journaled when a supervisor keeps a round's evidence for a dispute (a code; screens word it)."""


def hold_words(reason: str) -> str:
    """Why a round's evidence is held (the code ``dispute``, or the English an older kiosk journaled) as a phrase;
    free text as is."""
    return LOGS["hold.dispute"]() if reason in (HOLD_DISPUTE, "kept for a dispute") else reason


def who_words(who: str) -> str:
    """Who did it: ``dealer`` as a phrase; a supervisor's ID as it is."""
    return LOGS["who.dealer"]() if who == "dealer" else who


def english(text: str) -> str:
    """The words as written (English): the ``Words`` of a reader who asked for no other language."""
    return str(text)


def prune_reason(reason: str) -> str:
    """A pruning's recorded reason (``older than 30 days``, ``over the 500 MB cap``) as a phrase; another as is."""
    older = re.fullmatch(r"older than (\d+) days", reason)
    if older:
        return PRUNE_OLDER(days=int(older.group(1)))
    cap = re.fullmatch(r"over the (\S+) MB cap", reason)
    if cap:
        return PRUNE_CAP(mb=cap.group(1))
    return reason


def phrase_of(error: Exception) -> str:
    """An error's message, kept as the engine's phrase when it gave one (so a screen can word it)."""
    reason = error.args[0] if len(error.args) == 1 else None
    return reason if isinstance(reason, Phrase) else str(error)
