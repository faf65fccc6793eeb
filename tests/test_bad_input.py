"""Bad files given to the command line: one clear line and exit status 2, never a traceback, never a silent yes.

The cases issue 35 listed run as a user runs them (a subprocess); the fuzzing drives ``kiosk.cli.main`` in this
process, where any exception that escapes ``main`` is exactly the traceback a user would have seen.
"""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from copy import deepcopy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import InputError
from kiosk.cli import main

DATA = Path(__file__).parent / "data"
LAYOUT = Path(__file__).resolve().parent.parent / "vision" / "layouts" / "baibuu_7.yaml"
ROUND: dict[str, Any] = {
    "dice": [3, 5, 6],
    "house": ["QH", "8S", "AD", "3C"],
    "seats": {"2": {"bet": 100, "high": ["KH", "QS"], "low": ["5D", "4C"]}},
}
SAMLOC = json.loads((DATA / "samloc" / "overkill.json").read_text())
SCHMIER = json.loads((DATA / "schmier" / "made.json").read_text())
CALIBRATION = {
    "format": 1,
    "image_size": [640, 480],
    "homography_px_to_mm": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    "markers_found": [0, 1, 2, 3],
    "error_mm": 0.5,
}
REPLAYS = {
    "baibuu settle": (["baibuu", "settle"], ROUND),
    "samloc replay": (["samloc", "replay"], SAMLOC),
    "schmier replay": (["schmier", "replay"], SCHMIER),
}
DEEP = "[" * 100_000 + "]" * 100_000
HUGE = "1" + "0" * 4999  # 5,000 digits


def config(tmp: Path, **camera: Any) -> dict[str, Any]:
    return {
        "table_id": "T9",
        "game": "baibuu",
        "default_bet": 10,
        "devices": {"shaker": "simulated", "panel": "simulated", "baud": 115200, "seed": 7},
        "camera": {"source": "synthetic", "layout": str(LAYOUT), "calibration": None, **camera},
        "games": {"baibuu": {"min_bet": 10, "max_bet": 1000, "smallest_chip": 1}, "samloc": {"bet": 10}},
    }


@pytest.fixture
def refused(dealer_assist: list[str], cli_env: dict[str, str]) -> Callable[..., str]:
    """Run the command in a subprocess; it must refuse with exit status 2 and one line. Returns that line."""

    def go(*args: str) -> str:
        done = subprocess.run([*dealer_assist, *args], capture_output=True, text=True, env=cli_env, timeout=120)
        assert "Traceback" not in done.stderr, done.stderr[-2000:]
        assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-500:])
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("dealer-assist: "), done.stderr
        return lines[0]

    return go


# ---------------------------------------------------------------- the cases the issue listed (subprocesses)


@pytest.mark.parametrize("command", sorted(REPLAYS))
def test_json_nested_100000_deep_is_refused(refused: Callable[..., str], tmp_path: Path, command: str) -> None:
    path = tmp_path / "round.json"
    path.write_text(DEEP)
    assert "nested more than" in refused(*REPLAYS[command][0], str(path))


@pytest.mark.parametrize("command", sorted(REPLAYS))
def test_a_5000_digit_number_is_refused_naming_where(refused: Callable[..., str], tmp_path: Path, command: str) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps({**REPLAYS[command][1], "dice": "HUGE"}).replace('"HUGE"', HUGE))
    line = refused(*REPLAYS[command][0], str(path))
    assert f"{path}: dice: a number of 5,000 digits" in line


@pytest.mark.parametrize(("name", "text"), [("deep", "table_id: " + DEEP), ("digits", "default_bet: " + HUGE)])
def test_a_yaml_config_nested_100000_deep_or_with_5000_digits_is_refused(
    refused: Callable[..., str], tmp_path: Path, name: str, text: str
) -> None:
    path = tmp_path / "kiosk.yaml"
    path.write_text(text + "\n")
    line = refused("kiosk", "--check", "--config", str(path))
    assert line.startswith(f"dealer-assist: {path}: ")
    assert ("nested more than" if name == "deep" else "default_bet: a number of 5,000 digits") in line


def test_a_seat_written_02_is_refused(refused: Callable[..., str], tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps({**ROUND, "seats": {"02": ROUND["seats"]["2"]}}))
    assert "seats: '02' is not a seat; write seats as the table numbers them" in refused("baibuu", "settle", str(path))


def test_a_bet_of_10_to_the_20_is_refused(refused: Callable[..., str], tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps({**ROUND, "seats": {"2": {**ROUND["seats"]["2"], "bet": 10**20}}}))
    assert "seats.2.bet: 100000000000000000000 is larger than any value" in refused("baibuu", "settle", str(path))


def test_manual_dice_must_be_true_or_false(refused: Callable[..., str], tmp_path: Path) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps({**ROUND, "manual_dice": "yes"}))
    assert "manual_dice 'yes'" in refused("baibuu", "settle", str(path))


@pytest.mark.parametrize("part", ["layout", "calibration"])
def test_check_refuses_a_missing_layout_or_calibration_file(
    refused: Callable[..., str], tmp_path: Path, part: str
) -> None:
    missing = tmp_path / f"no-such-{part}.{'yaml' if part == 'layout' else 'json'}"
    path = tmp_path / "kiosk.yaml"
    path.write_text(yaml.safe_dump(config(tmp_path, **{part: str(missing)})))
    line = refused("kiosk", "--check", "--config", str(path))
    assert f"camera.{part}: no {part} " in line and str(missing) in line
    assert ("baibuu_7" if part == "layout" else "dealer-assist vision calibrate") in line  # what to do


def test_a_bet_beyond_any_table_is_refused_by_the_rules_too() -> None:
    from engine.baibuu import Settings, State
    from engine.common import IllegalAction

    state = State(Settings(seats=(2,)))
    state.roll([3, 5, 6])
    state.reveal_house(parse_cards("QH 8S AD 3C"))
    state.set_house(parse_cards("QH 8S"), parse_cards("AD 3C"))
    with pytest.raises(IllegalAction, match="more than any table takes"):
        state.set_seat(2, 10**15, parse_cards("KH QS"), parse_cards("5D 4C"))
    with pytest.raises(InputError, match=r"max_bet .*more than any table uses"):
        Settings(max_bet=10**15)


def parse_cards(text: str) -> Any:
    from engine.cards import parse_cards as parse

    return parse(text)


# ---------------------------------------------------------------- found while fuzzing (in process)


def run_main(argv: list[str], out: io.StringIO | None = None) -> tuple[int, str]:
    """``dealer-assist ARGV`` in this process: its exit status and what it printed to standard error."""
    err = io.StringIO()
    with redirect_stdout(out or io.StringIO()), redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as leaving:
            status = leaving.code if isinstance(leaving.code, int) else 1
    return status, err.getvalue()


def assert_one_clear_line(status: int, stderr: str) -> None:
    assert status == 2, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dealer-assist: ") and len(lines[0]) > 30, stderr


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (json.dumps({**ROUND, "seats": {"²": ROUND["seats"]["2"]}}).encode(), "'²' is not a seat"),
        (b'{"dice": [3, 5, 6], "house": ["QH", "8S", "AD", "3C"], "seats": {\xff}}', "not UTF-8 text"),
        (json.dumps(ROUND).replace('{"2"', '{"2": 1, "2"').encode(), "seats: the key '2' is given twice"),
        (json.dumps({**ROUND, "commission": "NaN"}).replace('"NaN"', "NaN").encode(), "commission: nan is not"),
        (json.dumps({**ROUND, "house": ["\ud800", "8S", "AD", "3C"]}).encode(), "house[0]: '\\ud800' holds a lone"),
    ],
)
def test_round_files_found_while_fuzzing(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "round.json"
    path.write_bytes(content)
    status, stderr = run_main(["baibuu", "settle", str(path)])
    assert_one_clear_line(status, stderr)
    assert words in stderr


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("table_id: 2026-13-45\n", "line 1: '2026-13-45' looks like a date but is not one"),
        ("table_id: T1\ntable_id: T2\n", "line 2: the key 'table_id' is given twice"),
        (
            "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
            + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(8)),
            "more than 200,000 values",
        ),
        ("table_id: &a [*a]\n", "nested more than"),
    ],
)
def test_configs_found_while_fuzzing(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "kiosk.yaml"
    path.write_text(text)
    status, stderr = run_main(["kiosk", "--check", "--config", str(path)])
    assert_one_clear_line(status, stderr)
    assert words in stderr


# ---------------------------------------------------------------- fuzzing

# Raw texts put in place of one value of a good file. Each is refused wherever it stands.
ALWAYS_BAD_JSON = st.one_of(
    st.integers(33, 3_000).map(lambda depth: "[" * depth + "]" * depth),  # 100,000 deep: tests above
    st.integers(20, 5_000).map(lambda digits: "-" * (digits % 2) + "9" * digits),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", '{"a": 1, "a": 2}', '"\\udc80"']),
)
ALWAYS_BAD_YAML = st.one_of(
    st.integers(33, 3_000).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(20, 5_000).map(lambda digits: "9" * digits),
    st.sampled_from([".nan", ".inf", "2026-02-30", "2026-01-01", "!!binary aGk=", "&x [*x]", "{a: 1, a: 2}"]),
)
ODD_JSON = st.one_of(
    ALWAYS_BAD_JSON,
    st.sampled_from(['"02"', '"yes"', "true", "null", "[]", "{}", '""', "-1", "0", "1.5", '"²"', '"KH"', "[1, 2]"]),
    st.integers(-(2**70), 2**70).map(str),
    st.text(max_size=8).map(json.dumps),
)
ODD_YAML = st.one_of(
    ALWAYS_BAD_YAML,
    st.sampled_from(["yes", "~", "[]", "{}", "''", "-1", "0x10", "1:20", "!!set {a}", "*nope", "0o17", "1_000"]),
    st.text(max_size=8).map(json.dumps),
)


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, the whole value first."""
    places = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            places += paths_of(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            places += paths_of(child, (*prefix, index))
    return places


def with_raw(document: Any, path: tuple[Any, ...], rename: str | None, dump: Callable[[Any], str], raw: str) -> str:
    """``document`` written out with the value at ``path`` replaced by ``raw`` text (and its key renamed)."""
    marker = "RAWVALUE"
    copy = deepcopy(document)
    if not path:
        return raw
    parent = copy
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    parent[last] = marker
    if rename is not None and isinstance(parent, dict):
        parent[rename] = parent.pop(last)
    text = dump(copy)
    return text.replace(json.dumps(marker), raw, 1) if json.dumps(marker) in text else text.replace(marker, raw, 1)


def damaged(data: st.DataObject, text: str) -> bytes:
    """Sometimes the written file is cut short or has bytes changed, as a failing disk or a bad copy leaves it."""
    blob = text.encode("utf-8")
    how = data.draw(st.sampled_from(["whole", "whole", "whole", "cut", "bytes"]))
    if how == "cut":
        return blob[: data.draw(st.integers(0, max(len(blob) - 1, 0)))]
    if how == "bytes":
        at = data.draw(st.integers(0, len(blob)))
        return blob[:at] + data.draw(st.binary(min_size=1, max_size=4)) + blob[at:]
    return blob


def yaml_dump(value: Any) -> str:
    return yaml.safe_dump(value, default_flow_style=True, width=10**9)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(data=st.data(), command=st.sampled_from(sorted(REPLAYS)), always_bad=st.booleans())
def test_fuzzed_round_and_hand_files_never_crash(
    work: Path, data: st.DataObject, command: str, always_bad: bool
) -> None:
    argv, good = REPLAYS[command]
    path = data.draw(st.sampled_from(paths_of(good)))
    rename = data.draw(st.one_of(st.none(), st.sampled_from(["02", "²", "", " 2", "-1", "8", "seats"])))
    raw = data.draw(ALWAYS_BAD_JSON if always_bad else ODD_JSON)
    text = with_raw(good, path, rename, json.dumps, raw)
    file = work / "fuzzed.json"
    file.write_bytes(text.encode("utf-8") if always_bad else damaged(data, text))
    status, stderr = run_main([*argv, str(file)])
    if always_bad:
        assert_one_clear_line(status, stderr)
    else:
        assert status in (0, 2), stderr
        if status == 2:
            assert_one_clear_line(status, stderr)


SEAT_NAMES_THAT_ARE_NOT_HOW_A_TABLE_WRITES_THEM = st.one_of(
    st.tuples(st.integers(1, 3), st.integers(2, 7)).map(lambda zeros_seat: "0" * zeros_seat[0] + str(zeros_seat[1])),
    st.integers(2, 7).map(lambda seat: chr(0xFF10 + seat)),  # fullwidth digits
    st.integers(2, 7).map(lambda seat: chr(0x0660 + seat)),  # Arabic-Indic digits
    st.integers(2, 7).map(lambda seat: f" {seat}"),
    st.integers(2, 7).map(lambda seat: f"{seat}.0"),
    st.sampled_from(["²", "1", "8", "-2", "+2"]),
)


@FUZZ
@given(
    seat=st.one_of(st.none(), SEAT_NAMES_THAT_ARE_NOT_HOW_A_TABLE_WRITES_THEM),
    bet=st.one_of(st.none(), st.integers(10**12 + 1, 2**63 - 1)),
    manual=st.one_of(st.none(), st.sampled_from(["yes", "true", 1, 0, "no", [], {}])),
)
def test_round_files_of_the_kinds_the_issue_listed_are_never_accepted(
    work: Path, seat: str | None, bet: int | None, manual: object
) -> None:
    if seat is None and bet is None and manual is None:
        seat = "02"
    round_ = json.loads(json.dumps(ROUND))
    if bet is not None:
        round_["seats"]["2"]["bet"] = bet
    if seat is not None:
        round_["seats"] = {seat: round_["seats"]["2"]}
    if manual is not None:
        round_["manual_dice"] = manual
    file = work / "listed.json"
    file.write_text(json.dumps(round_))
    assert_one_clear_line(*run_main(["baibuu", "settle", str(file)]))


@FUZZ
@given(data=st.data(), part=st.sampled_from(["config", "layout", "calibration"]), always_bad=st.booleans())
def test_fuzzed_configs_layouts_and_calibrations_never_crash(
    work: Path, data: st.DataObject, part: str, always_bad: bool
) -> None:
    layout, calibration = work / "layout.yaml", work / "calibration.json"
    layout.write_text(LAYOUT.read_text())
    calibration.write_text(json.dumps(CALIBRATION))
    good: Any = {
        "config": config(work, layout=str(layout), calibration=str(calibration)),
        "layout": yaml.safe_load(LAYOUT.read_text()),
        "calibration": CALIBRATION,
    }[part]
    dump = json.dumps if part == "calibration" else yaml_dump
    path = data.draw(st.sampled_from(paths_of(good)))
    rename = data.draw(st.one_of(st.none(), st.sampled_from(["02", "", "zones", "camera", "true", "1"])))
    if part == "calibration":
        raw = data.draw(ALWAYS_BAD_JSON if always_bad else ODD_JSON)
    else:
        raw = data.draw(ALWAYS_BAD_YAML if always_bad else ODD_YAML)
    text = with_raw(good, path, rename, dump, raw)
    target = {"config": work / "kiosk.yaml", "layout": layout, "calibration": calibration}[part]
    target.write_bytes(text.encode("utf-8") if always_bad else damaged(data, text))
    if part != "config":
        (work / "kiosk.yaml").write_text(yaml_dump(config(work, layout=str(layout), calibration=str(calibration))))
    out = io.StringIO()
    status, stderr = run_main(["kiosk", "--check", "--config", str(work / "kiosk.yaml")], out)
    if always_bad:
        assert_one_clear_line(status, stderr)
    elif status == 1:  # --check's report refusing a production config (where its journal key is kept)
        assert "REFUSED: " in out.getvalue() and not stderr, (out.getvalue(), stderr)
    else:
        assert status in (0, 2), stderr
        if status == 2:
            assert_one_clear_line(status, stderr)


@settings(max_examples=300, deadline=None)
@given(source=st.one_of(st.text(max_size=60), st.binary(max_size=60)))
def test_any_text_parses_or_is_refused_with_an_input_error(source: str | bytes) -> None:
    from engine.untrusted import parse_json, parse_yaml

    for parse in (parse_json, parse_yaml):
        try:
            parse(source, "file")
        except InputError as error:
            assert str(error).startswith("file: ") and "\n" not in str(error)


# ---------------------------------------------------------------- the anchor file (another volume, other hands)


def test_an_anchor_file_line_nested_thousands_deep_is_a_torn_line_not_a_crash(tmp_path: Path) -> None:
    from journal.anchors import Anchor, AnchorFile, read_anchor_file

    path = tmp_path / "anchors.jsonl"
    path.write_text("[" * 5_000 + "]" * 5_000 + "\n")

    def sign(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    AnchorFile(path).send(Anchor("K1", "T1", "a" * 64, 1, "b" * 64, "2026-12-04T18:00:00Z", "round 1"), sign)
    read = read_anchor_file(path, sign)
    assert read.problem is None and read.torn == (1,) and [given.seq for given in read.anchors] == [1]


# ---------------------------------------------------------------- the journal, altered by someone with the file


def rewrite_event(db: Path, key: bytes, seq: int, payload: str, *, rehash: bool) -> None:
    """Put ``payload`` into event ``seq`` as someone with the file would: triggers dropped and put back, and with
    ``rehash`` every hash from there on recomputed with the key (which today sits beside the journal)."""
    import sqlite3

    from journal import chain

    conn = sqlite3.connect(db)
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, _ in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (payload, seq))
    if rehash:
        rows = conn.execute(
            "SELECT seq, time, mono_ns, boot_id, kiosk_id, table_id, round_id, kind, payload, prev_hash "
            "FROM events WHERE seq >= ? ORDER BY seq",
            (seq,),
        ).fetchall()
        prev = rows[0][9]
        for number, time, mono, boot, kiosk, table, round_id, kind, text, _ in rows:
            header = chain.header_json(number, time, mono, boot, kiosk, table, round_id, kind)
            digest = chain.event_hash(key, prev, header, text.encode())
            conn.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE seq = ?", (prev, digest, number))
            prev = digest
        conn.execute("UPDATE head SET seq = ?, hash = ?, mac = ?", (number, prev, chain.head_mac(key, number, prev)))
    for _, sql in triggers:
        conn.execute(sql)
    conn.commit()
    conn.close()


@pytest.fixture(scope="module")
def demo_journal(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("journal")
    db, key = folder / "journal.sqlite3", folder / "kiosk.key"
    status, stderr = run_main(["logs", "demo", "--db", str(db), "--key", str(key), "--rounds", "1", "--seed", "3"])
    assert status == 0, stderr
    return db, key


@pytest.mark.parametrize("rehash", [False, True], ids=["hash-left", "rehashed-with-the-key"])
def test_a_journal_event_nested_100000_deep_is_named_not_a_traceback(
    demo_journal: tuple[Path, Path], tmp_path: Path, rehash: bool
) -> None:
    from journal.chain import load_key

    db, key = tmp_path / "journal.sqlite3", demo_journal[1]
    db.write_bytes(demo_journal[0].read_bytes())
    rewrite_event(db, load_key(key, create=False), 3, DEEP, rehash=rehash)
    for command in (["rounds"], ["show", "1"], ["recall"], ["export", "--format", "jsonl"]):
        status, stderr = run_main(["logs", *command, "--db", str(db), "--key", str(key)])
        assert_one_clear_line(status, stderr)
        assert "event 3: its content is not the JSON the kiosk writes" in stderr
    out = io.StringIO()
    status, stderr = run_main(["logs", "verify", "--db", str(db), "--key", str(key)], out)
    assert status == 1 and "Traceback" not in stderr
    assert ("event 3 holds content the kiosk never writes" if rehash else "event 3 was altered") in out.getvalue()


def test_a_card_reader_manifest_nested_100000_deep_is_refused_naming_it(tmp_path: Path) -> None:
    from vision.reader_models import MANIFEST, ModelManifest

    (tmp_path / MANIFEST).write_text(DEEP)
    with pytest.raises(InputError, match="is not a valid card-reader manifest"):
        ModelManifest.load(tmp_path)
