"""SIGKILL at every write point of a whole Bài Bửu round, one after another: each time the kiosk starts again, takes
up the round from the journal alone and finishes it, and the journal tells the truth about it.

The kiosk is ``tests/kiosk_crash_driver.py``, a real process on a real SQLite journal, started and resumed the way
the kiosk starts (journal recovery, then ``BaiBuuController.resume``), killed by SIGKILL from inside the journal's
writer: right after each event written inside a step not yet committed, and right after each commit.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from journal import JournalReader
from journal.review import round_detail, summarize

DRIVER = Path(__file__).resolve().parent / "kiosk_crash_driver.py"


def drive(data: Path, env: dict[str, str], kill_after: int | None = None) -> subprocess.CompletedProcess[str]:
    kill = [] if kill_after is None else ["--kill-after", str(kill_after)]
    command = [sys.executable, str(DRIVER), str(data), *kill]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)


def check_the_journal_tells_the_truth(data: Path, where: str) -> str:
    """The one round: settled or voided; returns which."""
    with JournalReader.open(data / "journal.sqlite3", data / "kiosk.key") as reader:
        report = reader.verify()
        assert report.ok, f"{where}: {report.problem}"
        rounds = summarize(reader)
        assert [r.round_id for r in rounds] == [1], where
        entries = list(reader.entries(round_id=1))
        kinds = [e.kind for e in entries]
        if rounds[0].outcome == "voided":
            return "voided"
        assert rounds[0].outcome == "settled", where
        rolls = [e.payload["action"] for e in entries
                 if e.kind == "action_recorded" and e.payload["action"]["kind"] == "roll"]
        dice = [e.payload["dice"] for e in entries if e.kind == "dice_rolled"]
        assert len(rolls) == 1 and dice == [rolls[0]["dice"]], f"{where}: one dice roll, the one used: {dice}"
        actions = [e.payload["action"]["kind"] for e in entries if e.kind == "action_recorded"]
        assert actions.count("reveal_house") == 1 and actions.count("set_house") == 1, f"{where}: {actions}"
        assert kinds.count("results_shown") == 1 and kinds.index("results_shown") < kinds.index("round_settled"), \
            f"{where}: {kinds}"
        detail = round_detail(reader, 1, rounds)
        replayed = detail.replayed
        assert replayed.agrees_with_shown and replayed.agrees_with_settled, f"{where}: the replay differs"
        assert detail.flags == (), f"{where}: {detail.flags}"
    return "settled"


@pytest.mark.slow
def test_a_kill_between_any_two_writes_of_a_round_resumes_and_finishes_it_truthfully(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    whole = drive(tmp_path / "whole", cli_env)
    assert whole.returncode == 0, whole.stdout + whole.stderr
    points = int(whole.stdout.split("points")[-1])
    assert points >= 20  # the round's events, its steps' commits, the kiosk's start and stop
    check_the_journal_tells_the_truth(tmp_path / "whole", "no kill")

    def kill_and_restart(point: int) -> tuple[bool, str]:
        data = tmp_path / f"kill-{point}"
        killed = drive(data, cli_env, kill_after=point)
        assert killed.returncode == -signal.SIGKILL, f"point {point}: {killed.stdout} {killed.stderr}"
        again = drive(data, cli_env)
        assert again.returncode == 0, f"after the kill at point {point}: {again.stdout} {again.stderr}"
        return "resumed" in again.stdout, check_the_journal_tells_the_truth(data, f"killed at point {point}")

    with ThreadPoolExecutor(max_workers=2) as pool:  # two journals at a time: each is its own process pair
        results = list(pool.map(kill_and_restart, range(1, points + 1)))
    kills, resumed = len(results), sum(took_up for took_up, _ in results)
    outcomes = Counter(outcome for _, outcome in results)
    print(f"write points {points}: kills {kills}, resumed {resumed}, {dict(outcomes)}")
    assert kills == points and outcomes == {"settled": points}
    assert resumed == points - 3  # every kill inside the round: all but after the kiosk's start, the close, the stop
