"""Journal figures: durable appends per second, and the time to verify (and start on) 100,000 events.

    .venv/bin/python bench/journal.py [--appends 2000] [--events 100000] [--dir FOLDER]

Appends are measured as the kiosk makes them: one transaction per event, WAL, ``synchronous=FULL`` (an fsync
each). The 100,000-event journal is filled from a simulated mix of all three games with ``synchronous=OFF`` to
save time (that only changes how it is written, not what is verified).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from journal import Journal, JournalReader, ManualClock, SystemClock
from journal.events import ActionRecorded, DiceRolled, ResultsShown, RoundBegun, RoundSettled, RoundVoided
from journal.review import summarize
from journal.simulate import fill


def durable_appends(folder: Path, count: int) -> float:
    journal = Journal.open(folder / "a.sqlite3", folder / "a.key", kiosk_id="bench", table_id="B1",
                           clock=SystemClock())
    journal.recover()
    start = time.perf_counter()
    for index in range(count):
        journal.append(DiceRolled((index % 6 + 1, 3, 5)))
    elapsed = time.perf_counter() - start
    journal.close()
    return count / elapsed


def big_journal(folder: Path, events: int) -> Path:
    """A journal of ``events`` events copied round by round from a simulated mix of the three games."""
    template_folder = folder / "template"
    template_folder.mkdir()
    template = Journal.open(template_folder / "t.sqlite3", template_folder / "t.key", kiosk_id="bench",
                            table_id="B1", clock=ManualClock())
    template.recover()
    template._conn.execute("PRAGMA synchronous=OFF")
    fill(template, 30, seed=1)
    pattern = [entry for entry in template.entries() if entry.kind not in ("kiosk_started", "clock_changed")]
    template.close()

    path = folder / "big.sqlite3"
    journal = Journal.open(path, folder / "big.key", kiosk_id="bench", table_id="B1", clock=ManualClock())
    journal.recover()
    journal._conn.execute("PRAGMA synchronous=OFF")  # filling only; the kiosk always writes with FULL
    round_id = 0
    rng = random.Random(0)
    written = journal.count()
    while written < events:
        for entry in pattern:
            event = entry.event
            if isinstance(event, RoundBegun):
                round_id = journal.begin_round(event.game, event.settings, event.deal)
            elif isinstance(event, ActionRecorded):
                journal.record_action(round_id, event.action)
            elif isinstance(event, ResultsShown):
                journal.show_results(round_id, {"payments": [p.to_json() for p in event.payments],
                                                "nets": event.nets}, event.lines)
            elif isinstance(event, RoundSettled):
                journal.close_round(round_id, {"payments": [p.to_json() for p in event.payments],
                                               "nets": event.nets})
            elif isinstance(event, RoundVoided):
                journal.void_round(round_id, event.by, event.reason)
            else:
                journal.append(event)
            journal.clock.advance(rng.uniform(1, 20))  # type: ignore[attr-defined]
            written += 1
            if written >= events and journal.open_round_id is None:
                break
    journal.close(None)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: a temporary folder)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="journal-bench-", dir=args.dir))
    try:
        rate = durable_appends(folder, args.appends)
        print(f"durable appends (WAL, synchronous=FULL, one transaction each): {rate:,.0f} per second "
              f"({1000 / rate:.2f} ms each, {args.appends} appends, {folder})")
        start = time.perf_counter()
        path = big_journal(folder, args.events)
        print(f"filled a journal of {args.events:,} events in {time.perf_counter() - start:.1f} s "
              f"({os.path.getsize(path) / 1e6:.1f} MB)")
        with JournalReader.open(path, folder / "big.key") as reader:
            start = time.perf_counter()
            report = reader.verify()
            verify_s = time.perf_counter() - start
            assert report.ok, report.problem
            print(f"verify {report.events:,} events (integrity check, triggers, chain, seal): {verify_s:.2f} s")
            start = time.perf_counter()
            rounds = summarize(reader)
            print(f"list {len(rounds):,} rounds (logs rounds): {time.perf_counter() - start:.2f} s")
        journal = Journal.open(path, folder / "big.key", kiosk_id="bench", table_id="B1", clock=ManualClock())
        start = time.perf_counter()
        recovery = journal.recover()
        print(f"kiosk start on it (recover: verify + find the open round): {time.perf_counter() - start:.2f} s, "
              f"sound={recovery.sound}")
        journal.close(None)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
