"""kill -9 during writes, at random points, again and again: no committed event is lost, the journal verifies,
and the round that was interrupted resumes exactly where its recorded actions left it."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

from journal import Journal, JournalReader
from journal.review import round_detail, summarize

CHILD = r"""
import random, sys
from engine import samloc
from engine.games import load
from journal import Journal

folder, seed = sys.argv[1], int(sys.argv[2])
journal = Journal.open(folder + "/journal.sqlite3", folder + "/kiosk.key", kiosk_id="K-7", table_id="T3")
recovery = journal.recover()
if not recovery.sound:
    print("UNSOUND", recovery.problem, flush=True)
    sys.exit(3)
rng = random.Random(seed)

def committed(entry):
    print(entry.seq, entry.hash, flush=True)

state = None
if recovery.open_round is not None:
    found = recovery.open_round
    game = load(found.game)
    state = game.replay(game.settings_from_json(found.settings), found.deal, list(found.actions))
    round_id = found.round_id
    print("resumed", round_id, len(found.actions), flush=True)
    committed(journal.resume_round(round_id))
while True:
    if state is None:
        settings = samloc.Settings(bet=10)
        state = samloc.State.start(settings, samloc.random_deal(3, rng.randrange(3), rng))
        round_id = journal.begin_round("samloc", settings, state.deal_to_json())
        committed(journal.last_entry())
    if state.is_over:
        committed(journal.show_results(round_id, state.settle()))
        committed(journal.close_round(round_id, state.settle()))
        state = None
        continue
    actions = state.legal_actions()
    plays = [a for a in actions if isinstance(a, samloc.PlayCards)]
    action = rng.choice(plays) if plays and rng.random() < 0.8 else actions[-1]
    committed(journal.record_action(round_id, state.apply(action)))
"""


def test_kill_9_at_random_points_loses_no_committed_event(tmp_path: Path, cli_env: dict[str, str]) -> None:
    rng = random.Random(2026)
    committed: dict[int, str] = {}
    resumed = 0
    for attempt in range(7):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path), str(attempt)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=cli_env)
        assert child.stdout is not None
        wanted = rng.randint(2, 60)
        lines: list[str] = []
        while len(lines) < wanted:
            line = child.stdout.readline()
            assert line, f"the writer stopped by itself: {child.stderr.read() if child.stderr else ''}"
            lines.append(line)
        time.sleep(rng.uniform(0, 0.004))  # land somewhere inside the next write
        child.kill()
        child.wait(timeout=10)
        lines += child.stdout.read().splitlines()
        child.stdout.close()
        if child.stderr:
            child.stderr.close()
        for line in lines:
            words = line.split()
            if words and words[0] == "resumed":
                resumed += 1
            elif len(words) == 2:
                committed[int(words[0])] = words[1]
        with JournalReader.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key") as reader:
            report = reader.verify()
            assert report.ok, report.problem
            stored = {entry.seq: entry.hash for entry in reader.entries()}
        assert all(stored.get(seq) == digest for seq, digest in committed.items())
    assert resumed >= 3  # most kills landed inside a round, which the next start took up again

    journal = Journal.open(tmp_path / "journal.sqlite3", tmp_path / "kiosk.key", kiosk_id="K-7", table_id="T3")
    assert journal.recover().sound
    rounds = summarize(journal)
    settled = [r for r in rounds if r.outcome == "settled"]
    assert settled, "no round finished: raise the counts above"
    for summary in settled:  # rounds that lived through kills replay to exactly what was shown and paid
        replayed = round_detail(journal, summary.round_id, rounds).replayed
        assert replayed.agrees and replayed.agrees_with_settled
    journal.close()
