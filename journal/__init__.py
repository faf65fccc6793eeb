"""The journal: a tamper-evident, crash-safe record of everything the table does, and the kiosk's memory.

Every event goes into one SQLite file (WAL, ``synchronous=FULL``: a recorded event survives a power cut) as a
link of a hash chain keyed by a per-kiosk secret kept in a separate key file; triggers refuse UPDATE and DELETE,
and ``verify()`` proves nothing was altered, removed, reordered or cut off the end. A round is its events: the
game, the settings, the deal and the actions, replayed through the engine.

How the kiosk uses it::

    from journal import Journal, SystemClock
    from journal.events import CardsRead, DiceRolled, DeviceUp, HouseSplitShown

    journal = Journal.open("data/journal.sqlite3", "data/kiosk.key",
                           kiosk_id="K-07", table_id="T3", clock=SystemClock())
    recovery = journal.recover()        # checks file, chain, triggers, seal; records kiosk_started
    if not recovery.sound:              # damaged or altered: every write is now refused
        show_stop_screen(recovery.problem); return
    if (r := recovery.open_round) is not None:       # resume exactly where it was ...
        game = engine.games.load(r.game)
        state = game.replay(game.settings_from_json(r.settings), r.deal, list(r.actions))
        journal.resume_round(r.round_id)             # ... or: journal.void_round(r.round_id, by="sup-12", reason=…)

    journal.append(DeviceUp("shaker", "/dev/ttyUSB0"))
    journal.append(DiceRolled((3, 5, 6)))            # dice and cards belong to the open round, if any
    frame = journal.store_frame(jpeg_bytes)          # evidence on disk, by content hash
    journal.append(CardsRead("seat 2", ("AS", "9H"), (0.97, 0.91), frame))

    round_id = journal.begin_round("baibuu", settings, deal_json)   # settings: engine Settings or its JSON
    record = state.set_seat(2, 100, high, low)       # an engine action record
    journal.record_action(round_id, record)          # (or its JSON dict) in the order applied
    journal.show_results(round_id, state.settle())   # write first, then show the result to the dealer
    journal.close_round(round_id, state.settle())    # when the dealer confirms the payout
    journal.close()                                  # records kiosk_stopped

Any write raises ``JournalError`` (an ``InputError``: show its message) when it cannot be recorded; then nothing
was recorded and the result must not be shown. Tests pass a ``ManualClock``. Supervisors review with
``dealer-assist logs …`` (``journal/cli.py``), or ``JournalReader.open(db, key)`` and ``journal.review``.
"""

from journal.clock import Clock, ManualClock, SystemClock
from journal.errors import JournalCorrupted, JournalError, JournalKeyError, JournalVersionError
from journal.store import (
    SCHEMA_VERSION,
    Entry,
    Journal,
    JournalReader,
    OpenRound,
    Recovery,
    VerifyReport,
    settlement_json,
)

__all__ = [
    "SCHEMA_VERSION",
    "Clock",
    "Entry",
    "Journal",
    "JournalCorrupted",
    "JournalError",
    "JournalKeyError",
    "JournalReader",
    "JournalVersionError",
    "ManualClock",
    "OpenRound",
    "Recovery",
    "SystemClock",
    "VerifyReport",
    "settlement_json",
]
