"""The journal: a tamper-evident, crash-safe record of everything the table does, and the kiosk's memory.

Every event goes into one SQLite file (WAL, ``synchronous=FULL``: a recorded event survives a power cut) as a
link of a hash chain keyed by a per-kiosk secret; triggers refuse UPDATE and DELETE. A round is its events: the
game, the settings, the deal and the actions, replayed through the engine.

What is proven, and by what:

- ``verify()`` proves, against anyone without the key, that no stored event was altered, reordered, inserted or
  removed from the middle, and that the seal on the last event matches; events cut off the end show unless an older
  seal was put back with them.
- It cannot prove that the file is not an older copy, that nothing was cut off the end, that a ``-wal`` file was
  not lost, or that someone holding the key did not rewrite events and every hash after them. Anchors kept outside
  the journal do: the chain's head sent at every round's end to an ``AnchorSink`` (an ``AnchorFile`` on another
  volume), and checkpoints supervisors print (``dealer-assist logs checkpoint``). ``check_anchors()`` proves the
  journal continues each anchor; events after the last anchor are proven only by the next one.
- The key must not sit beside the journal: whoever holds both can forge a journal that ``verify()`` calls sound.
  The demo keeps it in the data folder; production names another place (the kiosk config's ``journal.key``).

How the kiosk uses it::

    from journal import AnchorFile, Journal, SystemClock
    from journal.events import CardsRead, DiceRolled, DeviceUp, HouseSplitShown

    journal = Journal.open("data/journal.sqlite3", "/mnt/keys/kiosk.key", anchors=AnchorFile("/mnt/log/K-07.anchors"),
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
    journal.close_round(round_id, state.settle())    # when the dealer confirms the payout; anchors the head
    journal.close()                                  # records kiosk_stopped

Any write raises ``JournalError`` (an ``InputError``: show its message) when it cannot be recorded; then nothing
was recorded and the result must not be shown. Tests pass a ``ManualClock``. Supervisors review with
``dealer-assist logs …`` (``journal/cli.py``), or ``JournalReader.open(db, key)`` and ``journal.review``.
"""

from engine.clock import Clock
from journal.anchors import Anchor, AnchorCheck, AnchorError, AnchorFile, AnchorSink
from journal.clock import ManualClock, SystemClock
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
    "Anchor",
    "AnchorCheck",
    "AnchorError",
    "AnchorFile",
    "AnchorSink",
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
