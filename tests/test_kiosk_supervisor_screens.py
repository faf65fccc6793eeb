"""Supervisors on the kiosk's own screens, in a real window under Xvfb (each run in a fresh process): the first
supervisor set up on a kiosk without one, sign-in as oneself (one sign-in for SUPERVISOR and SET-UP, with the
countdown to the idle lock in sight), the lock-out, the locks on leaving and on two idle minutes; a kiosk whose
journal failed its check opening on its stop screen, with the recall one sign-in away; the demo's supervisor PIN
printed by `dealer-assist kiosk`. Screenshots go to artifacts/screenshots/."""

# ruff: noqa: F811 - the Xvfb `display` fixture is imported from test_kiosk_ui
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

THIS = Path(__file__).resolve()
sys.path.insert(0, str(THIS.parent))
from test_kiosk_ui import REPO, SHOTS, Probe, display  # noqa: E402,F401 - display: the Xvfb fixture

pytestmark = [pytest.mark.ui, pytest.mark.slow]

PINS = {"S1": "9753", "S2": "318642"}


class Later:
    """The kiosk's clock, moved on by ``offset`` seconds (for the lock-out and the idle lock)."""

    def __init__(self, clock: Any) -> None:
        self.clock = clock
        self.offset = 0.0

    def monotonic(self) -> float:
        return float(self.clock.monotonic()) + self.offset


def type_pin(p: Probe, pad: Any, digits: str, ok: bool = True) -> None:
    for key in digits:
        p.tap(pad.keys[key])
    if ok:
        p.tap(pad.keys["OK"])


# ---- drivers (they run inside the kiosk process) ---------------------------------------------------------------
def drive_first_supervisor(app: Any) -> Iterator[float]:
    p = Probe(app)
    result = p.result
    yield 0.5
    sup = app.screens["supervisor"]
    result["opened_on"] = app.manager.current
    result["dialog"] = type(sup.dialog).__name__
    result["dialog_title"] = sup.dialog.title_label.text
    yield from p.shot("30-first-supervisor")
    pad = sup.dialog
    type_pin(p, pad, "4711")
    type_pin(p, pad, "1234")
    type_pin(p, pad, "1234")
    result["easy_pin"] = pad.problem.text
    for language in ("km", "en"):  # the same refusal in Khmer, then on in English
        while app.catalogue.language != language:
            app.language_button.trigger_action(0)
        if language == "km":
            type_pin(p, pad, "1234")
            type_pin(p, pad, "1234")
            result["easy_pin_km"] = pad.problem.text
    type_pin(p, pad, "9753")
    type_pin(p, pad, "9753")
    yield 0.3
    result["signed_in_title"] = sup.title.text
    result["recall_shown"] = sup.recall_title.text
    app.runtime.controller.command("manual_dice", dice=(1, 2, 3))  # a round open, voided in Vietnamese
    while app.catalogue.language != "vi":
        app.language_button.trigger_action(0)
    p.tap(sup.void_button)
    yield 0.2
    p.tap(sup.dialog.buttons["misdeal"])
    yield 0.2
    result["void_vi"] = [app.catalogue.text(app.runtime.controller.view().prompt), sup.recall_text.text]
    while app.catalogue.language != "en":
        app.language_button.trigger_action(0)
    p.tap(app.nav_buttons["setup"])  # one sign-in opens both supervisor screens
    yield 0.3
    setup = app.screens["setup"]
    early = Later(app.runtime.desk.clock)
    app.runtime.desk.clock = early
    early.offset = 45.0  # 45 s without a touch: the countdown to the idle lock shows what is left
    yield 0.3
    result["setup_signed_in"] = [setup.gate.unlocked, setup.unlock_button.disabled, setup.save_button.disabled]
    result["setup_title"] = setup.title.text
    yield from p.shot("35-setup-signed-in-countdown")
    p.tap(app.nav_buttons["supervisor"])
    yield 0.3
    result["back_on_supervisor"] = [sup.gate.unlocked, sup.title.text]
    p.tap(app.nav_buttons["table"])  # leaving for any other screen locks it
    yield 0.3
    result["table_after"] = app.manager.current
    p.tap(app.nav_buttons["supervisor"])
    yield 0.3
    result["locked_after_leaving"] = not sup.unlock_button.disabled and sup.verify_button.disabled
    messages = []
    for wrong in ("1357", "2460", "8642", "5555", "1470"):
        p.tap(sup.unlock_button)
        yield 0.2
        type_pin(p, sup.dialog, wrong)
        yield 0.1
        messages.append(sup.message_label.text)
    result["wrong_messages"] = messages
    yield from p.shot("31-sign-in-locked-out")
    p.tap(sup.unlock_button)
    yield 0.2
    type_pin(p, sup.dialog, "9753")  # the right PIN, while locked out
    yield 0.1
    result["right_while_locked"] = [sup.message_label.text, sup.gate.unlocked]
    later = Later(app.runtime.desk.clock)
    app.runtime.desk.clock = later
    later.offset = 31.0
    p.tap(sup.unlock_button)
    yield 0.2
    type_pin(p, sup.dialog, "9753")
    yield 0.3
    result["after_the_wait"] = [sup.gate.unlocked, sup.verify_button.disabled]
    later.offset += 120.0  # two minutes without a touch
    yield 0.5
    result["after_idle"] = [sup.gate.unlocked, sup.unlock_button.disabled, sup.recall_text.text]
    p.finish()


def drive_stopped(app: Any) -> Iterator[float]:
    p = Probe(app)
    result = p.result
    yield 0.5
    stop = app.screens["stopped"]
    result["opened_on"] = app.manager.current
    result["screens"] = sorted(app.screens)
    result["stop"] = [stop.title.text, stop.problem.text, stop.what.text]
    yield from p.shot("32-journal-stopped")
    for language in ("km", "en"):  # the reason in the screen's language too
        while app.catalogue.language != language:
            app.language_button.trigger_action(0)
        yield 0.2
        result.setdefault("stop_km", [stop.title.text, stop.problem.text])
    p.tap(app.nav_buttons["table"])
    yield 0.2
    result["table_goes_to"] = app.manager.current
    p.tap(stop.sign_in_button)
    yield 0.3
    sup = app.screens["supervisor"]
    pad = sup.dialog
    result["ids"] = list(pad.id_buttons)
    type_pin(p, pad, PINS["S2"], ok=False)
    p.tap(pad.keys["OK"])  # no ID chosen yet: the pad asks for one
    result["no_id"] = pad.title_label.text
    p.tap(pad.id_buttons["S2"])
    yield from p.shot("33-pin-two-supervisors")
    p.tap(pad.keys["OK"])
    yield 0.3
    result["recall"] = sup.recall_text.text
    result["devices"] = sup.devices_text.text
    p.tap(sup.verify_button)
    yield 0.3
    result["verify"] = sup.message_label.text
    result["void_disabled"] = sup.void_button.disabled
    result["title"] = sup.title.text
    yield from p.shot("34-journal-stopped-supervisor")
    p.finish()


def drive_demo(app: Any) -> Iterator[float]:
    yield 0.5
    out = {"supervisors": dict(app.runtime.config.supervisors), "screen": app.manager.current}
    Path(os.environ["KIOSK_TEST_OUT"]).write_text(json.dumps(out))
    app.stop()


# ---- the tests -------------------------------------------------------------------------------------------------
def run_driver(display: str, tmp_path: Path, driver: str, data: Path, config: Path) -> dict[str, Any]:
    out = tmp_path / f"{driver}.json"
    env = dict(os.environ, DISPLAY=display, KIVY_NO_ARGS="1", KIOSK_TEST_OUT=str(out), KIOSK_SHOTS=str(SHOTS),
               KIVY_HOME=str(tmp_path / "kivy-home"), PYTHONPATH=str(REPO))
    command = [sys.executable, "-m", "kiosk.testing", "--data", str(data), "--config", str(config),
               "--driver", f"{THIS}:{driver}", "--reader", "placed"]
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        output, _ = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        pytest.fail("the kiosk did not finish:\n" + output.decode(errors="replace")[-4000:])
    text = output.decode(errors="replace")
    assert out.exists(), f"the driver wrote no result (exit {process.returncode}):\n{text[-4000:]}"
    result: dict[str, Any] = json.loads(out.read_text())
    assert not result.get("failed"), f"{result['failed']}\n{text[-3000:]}"
    for shot in result["shots"]:
        assert Path(shot).stat().st_size > 10_000, shot
    return result


def journal_of(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    from journal import JournalReader

    with JournalReader.open(folder / "journal.sqlite3", folder / "kiosk.key") as reader:
        return [(e.kind, e.payload) for e in reader.entries()]


def test_the_first_supervisor_signs_in_as_themself_and_the_screen_locks(display: str, tmp_path: Path) -> None:
    from kiosk.config import load_config, write_config
    from kiosk.i18n_km import PHRASES_KM
    from kiosk.supervisors import pin_matches

    config = tmp_path / "kiosk.yaml"
    write_config(load_config(None), config)  # a kiosk's config as written: no supervisor, no PIN
    result = run_driver(display, tmp_path, "drive_first_supervisor", tmp_path / "data", config)
    assert result["opened_on"] == "supervisor" and result["dialog"] == "FirstSupervisorPad"
    assert result["dialog_title"].startswith("Your supervisor ID")
    assert "digits in a row" in result["easy_pin"]
    assert result["easy_pin_km"] == PHRASES_KM["signin.problem.pin_guessable"]
    assert "Signed in: 4711 · locks in 2:00" in result["signed_in_title"]
    assert result["recall_shown"].startswith("RECALL")
    assert result["setup_signed_in"] == [True, True, False]  # SET-UP after SUPERVISOR: no second PIN
    assert re.search(r"Signed in: 4711 · locks in 1:[01]\d without a touch", result["setup_title"])
    assert result["back_on_supervisor"][0] and "Signed in: 4711 · locks in 1:" in result["back_on_supervisor"][1]
    prompt, recall = result["void_vi"]  # worded in the screen's language, journaled as the reason's code
    assert prompt.startswith("Ván đã hủy: Chia sai") and "(Chia sai)" in recall and "Misdeal" not in recall
    assert result["table_after"] == "table-baibuu" and result["locked_after_leaving"]
    assert result["wrong_messages"][:4] == [f"Wrong PIN: {n} more before sign-in locks" for n in (4, 3, 2, 1)]
    assert result["wrong_messages"][4] == "Too many wrong PINs: sign-in locked for 30 s"
    assert result["right_while_locked"][1] is False and "locked for" in result["right_while_locked"][0]
    assert result["after_the_wait"] == [True, False]
    assert result["after_idle"] == [False, False, ""]
    saved = load_config(config).supervisors
    assert list(saved) == ["4711"] and pin_matches(saved["4711"], "9753")
    assert [p for k, p in journal_of(tmp_path / "data") if k == "round_voided"] == [{"by": "4711", "reason": "misdeal"}]
    events = [(k, p) for k, p in journal_of(tmp_path / "data") if k.startswith("supervisor")]
    assert [k for k, _ in events] == [
        "supervisor_added",
        "supervisor_signed_in",
        "supervisor_locked",
        *["supervisor_sign_in_failed"] * 6,
        "supervisor_signed_in",
        "supervisor_locked",
    ]
    assert events[2][1] == {"supervisor": "4711", "reason": "the screen was left"}
    assert events[8][1]["reason"] == "tried while locked out"
    assert events[-1][1] == {"supervisor": "4711", "reason": "no touch for 120 s"}
    assert not any(pin in json.dumps(events) for pin in ("9753", "1357", "2460", "8642", "5555", "1470"))


def test_a_kiosk_whose_journal_failed_opens_on_a_stop_screen_and_a_supervisor_reaches_the_recall(
    display: str, tmp_path: Path
) -> None:
    from test_kiosk_languages import english_words
    from test_kiosk_supervisors import tamper

    from kiosk.clock import ManualClock
    from kiosk.config import config_from_data, write_config
    from kiosk.runtime import STOPPED_JOURNAL, KioskRuntime
    from kiosk.supervisors import hash_pin

    data = tmp_path / "data"
    config_path = tmp_path / "kiosk.yaml"
    config = config_from_data({"supervisors": {who: hash_pin(pin) for who, pin in PINS.items()}})
    write_config(config, config_path)
    runtime = KioskRuntime(config, data, clock=ManualClock(), read=lambda frame: [], demo_seed=3)
    runtime.controller.command("manual_dice", dice=(1, 2, 3))
    runtime.close()
    tamper(data)
    result = run_driver(display, tmp_path, "drive_stopped", data, config_path)
    assert result["opened_on"] == "stopped" and result["table_goes_to"] == "stopped"
    assert not any(name.startswith("table-") for name in result["screens"]) and "setup" not in result["screens"]
    title, problem, what = result["stop"]
    assert title == "PLAY STOPPED: THE JOURNAL FAILED ITS CHECK" and "event" in problem and "supervisor" in what
    title_km, problem_km = result["stop_km"]
    names = re.sub(r"\w+_\w+", "", problem_km)  # a trigger's name (events_no_update) is a name
    assert title_km.startswith("ឈប់លេង") and "ព្រឹត្តិការណ៍" in problem_km and english_words(names) == []
    assert result["ids"] == ["S1", "S2"] and result["no_id"] == "Touch your supervisor ID"
    assert "RECALL #1" in result["recall"] and "Devices:" in result["devices"]
    assert result["verify"].startswith("JOURNAL ALTERED OR DAMAGED") and result["void_disabled"]
    assert "Signed in: S2" in result["title"]
    beside = [(k, p) for k, p in journal_of(data / STOPPED_JOURNAL) if k in ("supervisor_signed_in", "journal_checked")]
    assert beside[0] == ("supervisor_signed_in", {"supervisor": "S2"})
    assert beside[1][1]["by"] == "S2" and beside[1][1]["sound"] is False


def test_the_demo_prints_its_own_supervisor_and_pin(display: str, tmp_path: Path) -> None:
    from kiosk.supervisors import pin_matches

    out = tmp_path / "demo.json"
    env = dict(os.environ, DISPLAY=display, KIVY_NO_ARGS="1", KIOSK_TEST_OUT=str(out),
               KIVY_HOME=str(tmp_path / "kivy-home"), PYTHONPATH=str(REPO))
    command = [sys.executable, "-m", "kiosk.cli", "kiosk", "--data", str(tmp_path / "data"),
               "--driver", f"{THIS}:drive_demo"]
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    printed = re.search(r"demo kiosk: supervisor (\w+), PIN (\d+)", done.stdout)
    assert printed is not None, done.stdout[-2000:]
    result = json.loads(out.read_text())
    assert result["screen"] == "table-baibuu"
    assert list(result["supervisors"]) == [printed[1]] and pin_matches(result["supervisors"][printed[1]], printed[2])
    assert not (tmp_path / "data" / "kiosk.yaml").exists()  # the demo's PIN is for that run only
