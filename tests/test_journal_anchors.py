"""Someone with the journal's files: what the chain alone misses, and the anchors kept outside it catch.

Four attacks pass plain ``logs verify`` (the chain checks out): the journal swapped for an older copy, events cut
off the end with the seal put back from an older copy, the ``-wal`` file deleted after a crashed writer, and events
rewritten with every hash recomputed using the kiosk's key. Each is caught by ``logs verify --anchors`` (and by a
checkpoint a supervisor printed), run as the real command on real SQLite files.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from journal import Journal, JournalReader, ManualClock
from journal.anchors import AnchorFile
from journal.chain import canonical_json, event_hash, head_mac, header_json, load_key
from journal.events import Note
from journal.simulate import fill
from journal.store import _TRIGGERS
from kiosk.cli import main

DB = "journal.sqlite3"
KEY = "kiosk.key"
ANCHORS = "anchors.jsonl"
OLD = "old.sqlite3"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three rounds, a copy of the journal as it was then, three rounds more; the kiosk anchored each round's end."""
    folder = tmp_path_factory.mktemp("anchored")
    clock = ManualClock()
    for part in range(2):
        journal = Journal.open(folder / DB, folder / KEY, kiosk_id="K-7", table_id="T3", clock=clock,
                               anchors=AnchorFile(folder / ANCHORS))
        assert journal.recover().sound
        fill(journal, 3, seed=part, void_every=0)
        journal.close()
        if part == 0:
            shutil.copy2(folder / DB, folder / OLD)
    return folder


@pytest.fixture
def folder(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COLUMNS", "250")  # one report, one line
    for name in (DB, KEY, ANCHORS, OLD):
        shutil.copy2(template / name, tmp_path / name)
    return tmp_path


def _logs(folder: Path, *argv: str) -> list[str]:
    return ["logs", *argv, "--db", str(folder / DB), "--key", str(folder / KEY)]


def _real(folder: Path, dealer_assist: list[str], cli_env: dict[str, str], *argv: str
          ) -> subprocess.CompletedProcess[str]:
    cli_env["COLUMNS"] = "250"
    return subprocess.run([*dealer_assist, *_logs(folder, *argv)], capture_output=True, text=True, env=cli_env,
                          timeout=60)


def _plain_verify(folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """What the chain alone says (in process: the same command, without a second interpreter)."""
    code = main(_logs(folder, "verify"))
    out = capsys.readouterr().out
    assert code == 0 and "SOUND" in out and "NOT SOUND" not in out
    return out


def _anchor_lines(folder: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (folder / ANCHORS).read_text().splitlines()]


def _count(path: Path) -> int:
    connection = sqlite3.connect(path)
    try:
        return int(connection.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    finally:
        connection.close()


@contextmanager
def _untriggered(path: Path) -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(path, isolation_level=None)
    for name in _TRIGGERS:
        connection.execute(f"DROP TRIGGER {name}")
    yield connection
    for sql in _TRIGGERS.values():
        connection.execute(sql)
    connection.close()


def test_the_untouched_journal_continues_every_anchor(
    folder: Path, dealer_assist: list[str], cli_env: dict[str, str]
) -> None:
    done = _real(folder, dealer_assist, cli_env, "verify", "--anchors", str(folder / ANCHORS))
    assert done.returncode == 0, done.stdout + done.stderr
    anchors = len(_anchor_lines(folder))
    assert anchors == 8  # six round ends and two stops
    assert f"ANCHORED the journal continues all {anchors} anchors" in done.stdout


def test_a_journal_swapped_for_an_older_copy_is_rolled_back(
    folder: Path, dealer_assist: list[str], cli_env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    old_end = _count(folder / OLD)
    shutil.copy2(folder / OLD, folder / DB)
    _plain_verify(folder, capsys)
    done = _real(folder, dealer_assist, cli_env, "verify", "--anchors", str(folder / ANCHORS))
    assert done.returncode == 1
    first_beyond = next(n for n, a in enumerate(_anchor_lines(folder), 1) if int(str(a["seq"])) > old_end)
    assert "NOT ANCHORED" in done.stdout and "ROLLED BACK" in done.stdout
    assert f"anchor line {first_beyond} " in done.stdout and f"journal's end at event {old_end}" in done.stdout


def test_events_cut_off_the_end_with_the_old_seal_put_back_are_rolled_back(
    folder: Path, dealer_assist: list[str], cli_env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    old = sqlite3.connect(folder / OLD)
    old_head = old.execute("SELECT seq, hash, mac FROM head").fetchone()
    old.close()
    with _untriggered(folder / DB) as connection:
        connection.execute("DELETE FROM events WHERE seq > ?", (old_head[0],))
        connection.execute("UPDATE head SET seq = ?, hash = ?, mac = ?", old_head)
    _plain_verify(folder, capsys)
    done = _real(folder, dealer_assist, cli_env, "verify", "--anchors", str(folder / ANCHORS))
    assert done.returncode == 1 and "ROLLED BACK" in done.stdout
    assert f"journal's end at event {old_head[0]}" in done.stdout


_CRASHING_WRITER = textwrap.dedent(
    """
    import os, signal, sys
    from journal import Journal, ManualClock
    from journal.anchors import AnchorFile
    from journal.simulate import fill

    folder = sys.argv[1]
    journal = Journal.open(folder + "/journal.sqlite3", folder + "/kiosk.key", kiosk_id="K-7", table_id="T3",
                           clock=ManualClock(), anchors=AnchorFile(folder + "/anchors.jsonl"))
    assert journal.recover().sound
    fill(journal, 2, seed=9, void_every=0)
    os.kill(os.getpid(), signal.SIGKILL)  # the writer dies: its last commits are still in the -wal file only
    """
)


def test_a_wal_file_deleted_after_a_crashed_writer_is_rolled_back(
    folder: Path, dealer_assist: list[str], cli_env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = _count(folder / DB)
    crashed = subprocess.run([sys.executable, "-c", _CRASHING_WRITER, str(folder)], env=cli_env, timeout=60)
    assert crashed.returncode == -9
    wal = folder / (DB + "-wal")
    assert wal.exists() and wal.stat().st_size > 0
    wal.unlink()
    (folder / (DB + "-shm")).unlink(missing_ok=True)
    assert _count(folder / DB) == before  # the crashed writer's events went with the -wal file
    _plain_verify(folder, capsys)
    done = _real(folder, dealer_assist, cli_env, "verify", "--anchors", str(folder / ANCHORS))
    assert done.returncode == 1 and "ROLLED BACK" in done.stdout
    assert f"journal's end at event {before}" in done.stdout


def _rewrite_with_the_key(folder: Path) -> int:
    """Zero the payments of the first settled round and recompute every later hash and the seal with the key."""
    key = load_key(folder / KEY, create=False)
    with _untriggered(folder / DB) as connection:
        seq, payload = connection.execute(
            "SELECT seq, payload FROM events WHERE kind = 'round_settled' ORDER BY seq LIMIT 1").fetchone()
        changed = json.loads(payload)
        changed["payments"], changed["nets"] = [], {party: 0 for party in changed["nets"]}
        connection.execute("UPDATE events SET payload = ? WHERE seq = ?", (canonical_json(changed), seq))
        prev = connection.execute("SELECT hash FROM events WHERE seq = ?", (seq - 1,)).fetchone()[0]
        rows = connection.execute(
            "SELECT seq, time, mono_ns, boot_id, kiosk_id, table_id, round_id, kind, payload FROM events "
            "WHERE seq >= ? ORDER BY seq", (seq,)).fetchall()
        for row_seq, *header, row_payload in rows:
            digest = event_hash(key, prev, header_json(row_seq, *header), row_payload.encode())
            connection.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE seq = ?", (prev, digest, row_seq))
            prev = digest
        last = rows[-1][0]
        connection.execute("UPDATE head SET seq = ?, hash = ?, mac = ?", (last, prev, head_mac(key, last, prev)))
    return int(seq)


def test_events_rewritten_with_the_key_are_forked(
    folder: Path, dealer_assist: list[str], cli_env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    edited = _rewrite_with_the_key(folder)
    _plain_verify(folder, capsys)
    done = _real(folder, dealer_assist, cli_env, "verify", "--anchors", str(folder / ANCHORS))
    assert done.returncode == 1 and "FORKED" in done.stdout
    first_after = next(n for n, a in enumerate(_anchor_lines(folder), 1) if int(str(a["seq"])) >= edited)
    assert f"anchor line {first_after} " in done.stdout


def test_a_printed_checkpoint_catches_a_rollback_and_a_rewrite(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_logs(folder, "checkpoint")) == 0
    line = capsys.readouterr().out.strip()
    end = _count(folder / DB)
    assert line.startswith(f"K-7 T3 event {end} ") and len(line.split()[-1]) == 16
    assert main(_logs(folder, "verify", "--checkpoint", line)) == 0
    assert "ANCHORED the journal continues all 1 anchors" in capsys.readouterr().out

    _rewrite_with_the_key(folder)
    assert main(_logs(folder, "verify", "--checkpoint", line)) == 1
    assert f"FORKED: at event {end}" in capsys.readouterr().out

    shutil.copy2(folder / OLD, folder / DB)
    assert main(_logs(folder, "verify", "--checkpoint", line)) == 1
    assert "ROLLED BACK: checkpoint 1" in capsys.readouterr().out


def test_an_edited_or_removed_anchor_line_shows(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = (folder / ANCHORS).read_text().splitlines(keepends=True)
    edited = json.loads(lines[2])
    edited["seq"] -= 1
    (folder / ANCHORS).write_text("".join([*lines[:2], canonical_json(edited) + "\n", *lines[3:]]))
    assert main(_logs(folder, "verify", "--anchors", str(folder / ANCHORS))) == 1
    assert "line 3 of the anchor file" in capsys.readouterr().out

    (folder / ANCHORS).write_text("".join([*lines[:2], *lines[3:]]))
    assert main(_logs(folder, "verify", "--anchors", str(folder / ANCHORS))) == 1
    assert "does not follow line 2" in capsys.readouterr().out


def test_a_line_torn_by_a_power_cut_hides_nothing_and_the_next_anchor_goes_on(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with (folder / ANCHORS).open("a") as handle:
        handle.write('{"hash":"7f5b')  # the write cut short: no newline
    journal = Journal.open(folder / DB, folder / KEY, kiosk_id="K-7", table_id="T3", clock=ManualClock(),
                           anchors=AnchorFile(folder / ANCHORS))
    assert journal.recover().sound
    fill(journal, 1, seed=4, void_every=0)
    journal.close()
    assert main(_logs(folder, "verify", "--anchors", str(folder / ANCHORS))) == 0
    out = capsys.readouterr().out
    assert "not complete anchors" in out and "lines 9" in out and "all 10 anchors" in out


def test_a_journal_begun_anew_is_not_in_the_anchors(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in (DB, OLD):
        (folder / name).unlink()
    journal = Journal.open(folder / DB, folder / KEY, kiosk_id="K-7", table_id="T3", clock=ManualClock())
    assert journal.recover().sound
    fill(journal, 2, seed=5)
    journal.close()
    assert main(_logs(folder, "verify", "--anchors", str(folder / ANCHORS))) == 1
    assert "none of the 8 anchors is of this journal" in capsys.readouterr().out


def test_bad_anchor_arguments_are_one_clear_line(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_logs(folder, "verify", "--checkpoint", "event twelve")) == 2
    err = capsys.readouterr().err
    assert err.startswith("dealer-assist: --checkpoint 'event twelve' is not a checkpoint") and err.count("\n") == 1
    assert main(_logs(folder, "verify", "--anchors", str(folder / "nope.jsonl"))) == 2
    assert capsys.readouterr().err.startswith("dealer-assist: there is no anchor file at")


def test_an_anchor_file_that_cannot_be_written_never_stops_play(tmp_path: Path) -> None:
    away = tmp_path / "anchor-volume"  # not mounted yet
    journal = Journal.open(tmp_path / DB, tmp_path / KEY, kiosk_id="K-7", table_id="T3", clock=ManualClock(),
                           anchors=AnchorFile(away / ANCHORS))
    assert journal.recover().sound
    fill(journal, 3, seed=6, void_every=0)
    assert journal.anchor_problem is not None and "does not exist" in journal.anchor_problem
    away.mkdir()
    fill(journal, 1, seed=7, void_every=0)
    assert journal.anchor_problem is None
    journal.close()
    with JournalReader.open(tmp_path / DB, tmp_path / KEY) as reader:
        notes = [e.event for e in reader.entries(kinds=["note"])]
        assert sum(e.kind == "round_settled" for e in reader.entries()) == 4  # every round recorded
        check = reader.check_anchors([away / ANCHORS])
    assert [n.text.split(" (")[0] for n in notes if isinstance(n, Note)] == [
        "the chain's head could not be anchored", f"anchors are kept again in the anchor file {away / ANCHORS}"]
    assert check.ok and check.checked == 2  # the fourth round's end and the stop


# ---- the key -------------------------------------------------------------------------------------------------


def test_a_journal_found_without_its_key_says_where_it_looked(folder: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    (folder / KEY).unlink()
    assert main(_logs(folder, "verify")) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"dealer-assist: the journal's key is not at {folder / KEY}: if it was moved")
    assert "Traceback" not in err
    with pytest.raises(Exception, match="the journal's key is not at"):
        Journal.open(folder / DB, folder / KEY, kiosk_id="K-7", table_id="T3", clock=ManualClock())


def test_a_key_others_may_read_is_refused(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.chmod(folder / KEY, 0o644)
    assert main(_logs(folder, "verify")) == 2
    assert f"may be read or written by others (mode 644): make it the kiosk user's alone with `chmod 600 " \
           f"{folder / KEY}`" in capsys.readouterr().err


def test_a_key_on_a_volume_that_is_not_mounted_is_not_made_in_its_place(tmp_path: Path) -> None:
    with pytest.raises(Exception, match=r"the key's folder .* does not exist: mount the key's volume"):
        Journal.open(tmp_path / DB, tmp_path / "keys" / KEY, kiosk_id="K-7", table_id="T3", clock=ManualClock())
    assert not (tmp_path / "keys").exists()


def test_logs_finds_the_key_named_by_the_environment(folder: Path, tmp_path_factory: pytest.TempPathFactory,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = tmp_path_factory.mktemp("key-volume") / KEY
    shutil.move(folder / KEY, elsewhere)
    monkeypatch.setenv("DEALER_ASSIST_KEY", str(elsewhere))
    assert main(["logs", "verify", "--db", str(folder / DB)]) == 0
    assert "SOUND" in capsys.readouterr().out


def test_a_round_closed_inside_a_step_is_anchored_only_once_the_step_is_recorded(tmp_path: Path) -> None:
    """A step undone (an error, a crash before its commit) must not leave an anchor naming an event it took back:
    the kiosk would then refuse its own sound journal as rolled back."""
    journal = Journal.open(tmp_path / DB, tmp_path / KEY, kiosk_id="K-7", table_id="T3", clock=ManualClock(),
                           anchors=AnchorFile(tmp_path / ANCHORS))
    assert journal.recover().sound
    settle = {"payments": [], "nets": {"house": 0}}
    round_id = journal.begin_round("baibuu", {}, {})
    with pytest.raises(RuntimeError), journal.step():
        journal.close_round(round_id, settle)
        raise RuntimeError("the step fails after the round's end was written")
    assert not (tmp_path / ANCHORS).exists() and journal.open_round_id == round_id
    with journal.step():
        journal.close_round(round_id, settle)
        assert not (tmp_path / ANCHORS).exists()
    journal.close()
    lines = [json.loads(line) for line in (tmp_path / ANCHORS).read_text().splitlines()]
    assert [line["why"] for line in lines] == [f"round {round_id} settled", "kiosk stopped"]
    with JournalReader.open(tmp_path / DB, tmp_path / KEY) as reader:
        assert reader.check_anchors([tmp_path / ANCHORS]).ok
