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
    )
}
_PANEL_VOID = "dealer pressed VOID on the panel"  # the reason the controllers journal for the panel's VOID


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
