"""The dealer signs in at the table in a real window under Xvfb (a fresh process): the DEALER button in the nav bar,
ID then PIN on the number pad, a wrong PIN refused, the round begun journaled with the dealer's ID, a dealer change
journaled as the one relieved and the next signed in, the last one signing out; `dealer-assist kiosk --add-dealer`
keeps the PIN hashed. Screenshots go to artifacts/screenshots/."""

# ruff: noqa: F811 - the Xvfb `display` fixture is imported from test_kiosk_ui
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

THIS = Path(__file__).resolve()
sys.path.insert(0, str(THIS.parent))
from test_kiosk_supervisor_screens import journal_of, type_pin  # noqa: E402
from test_kiosk_ui import REPO, SHOTS, Probe, display  # noqa: E402,F401 - display: the Xvfb fixture

pytestmark = [pytest.mark.ui, pytest.mark.slow]

PINS = {"4711": "2580", "5120": "1397"}


# ---- the driver (it runs inside the kiosk process) ------------------------------------------------------------
def drive_dealers(app: Any) -> Iterator[float]:
    p = Probe(app)
    result = p.result
    from kivy.core.window import Window

    yield 0.5
    yield from p.until("the window laid out at its size", lambda: tuple(app.root.size) == tuple(Window.size))
    result["button_before"] = app.dealer_button.text
    result["status_before"] = app.runtime.status_text()
    yield from p.shot("40-dealer-not-signed-in")
    p.tap(app.dealer_button)
    yield 0.2
    pad = app.dealer_pad
    result["asks_id"] = pad.title_label.text
    type_pin(p, pad, "4711")
    result["asks_pin"] = pad.title_label.text
    type_pin(p, pad, "1111")  # a wrong PIN: refused, the pad stays open
    result["wrong"] = pad.problem.text
    yield from p.shot("41-dealer-wrong-pin")
    type_pin(p, pad, PINS["4711"])
    yield 0.2
    result["pad_closed"] = pad.parent is None
    result["button_after"] = app.dealer_button.text
    result["status_after"] = app.runtime.status_text()
    yield from p.shot("42-dealer-signed-in")
    app.runtime.controller.command("manual_dice", dice=(1, 2, 3))  # a round begun: the dealer's
    yield 0.2
    while app.catalogue.language != "vi":  # the next dealer takes over, the screen in Vietnamese
        app.language_button.trigger_action(0)
    p.tap(app.dealer_button)
    yield 0.2
    pad = app.dealer_pad
    result["asks_id_vi"] = pad.title_label.text
    type_pin(p, pad, "5120")
    type_pin(p, pad, PINS["5120"])
    yield 0.2
    result["button_vi"] = app.dealer_button.text
    yield from p.shot("43-dealer-changed-vi")
    p.tap(app.dealer_button)  # 5120 leaves, nobody takes over
    yield 0.2
    result["sign_out_vi"] = app.dealer_pad.sign_out.text
    yield from p.shot("44-dealer-sign-out-vi")
    p.tap(app.dealer_pad.sign_out)
    yield 0.2
    result["button_signed_out"] = app.dealer_button.text
    p.finish()


# ---- the test -------------------------------------------------------------------------------------------------
def test_the_dealer_signs_in_at_the_table_and_the_journal_names_them(display: str, tmp_path: Path) -> None:
    from kiosk.config import load_config, write_config
    from kiosk.supervisors import hash_pin, pin_matches

    config_path = tmp_path / "kiosk.yaml"
    write_config(load_config(None), config_path)
    env = dict(os.environ, PYTHONPATH=str(REPO), KIVY_NO_ARGS="1")
    added = subprocess.run([sys.executable, "-m", "kiosk.cli", "kiosk", "--config", str(config_path),
                            "--add-dealer", "4711"], input=PINS["4711"] + "\n", env=env, capture_output=True,
                           text=True, timeout=60)
    assert added.returncode == 0 and "dealer 4711 added" in added.stdout, added.stderr
    from engine.errors import InputError
    from kiosk.commands.app import _add_dealer

    with pytest.raises(InputError, match="--add-dealer S-1: a dealer ID is their badge number: 1 to 10 digits"):
        _add_dealer("S-1", config_path)
    config = load_config(config_path)
    assert pin_matches(config.dealers["4711"], PINS["4711"]) and PINS["4711"] not in config_path.read_text()
    from dataclasses import replace

    write_config(replace(config, supervisors={"S1": hash_pin("9753")},
                         dealers={**config.dealers, "5120": hash_pin(PINS["5120"])}), config_path)

    out = tmp_path / "dealers.json"
    run_env = dict(env, DISPLAY=display, KIOSK_TEST_OUT=str(out), KIOSK_SHOTS=str(SHOTS),
                   KIVY_HOME=str(tmp_path / "kivy-home"))
    command = [sys.executable, "-m", "kiosk.testing", "--data", str(tmp_path / "data"), "--config", str(config_path),
               "--driver", f"{THIS}:drive_dealers", "--reader", "placed"]
    run = subprocess.run(command, cwd=REPO, env=run_env, capture_output=True, text=True, timeout=120)
    assert out.exists(), f"no result (exit {run.returncode}):\n{run.stdout[-3000:]}{run.stderr[-3000:]}"
    result: dict[str, Any] = json.loads(out.read_text())
    assert not result.get("failed"), result["failed"]
    for shot in result["shots"]:
        assert Path(shot).stat().st_size > 10_000, shot

    assert result["button_before"] == "DEALER: SIGN IN" and "NO DEALER SIGNED IN" in result["status_before"]
    assert result["asks_id"] == "Dealer: your ID (badge number)" and result["asks_pin"] == "Dealer 4711: your PIN"
    assert result["wrong"] == "Wrong PIN: 4 more before sign-in locks"
    assert result["pad_closed"] and result["button_after"] == "DEALER 4711" and "Dealer 4711" in result["status_after"]
    assert result["asks_id_vi"] == "Người chia: mã của bạn (số thẻ)" and result["button_vi"] == "NGƯỜI CHIA 5120"
    assert result["sign_out_vi"] == "ĐĂNG XUẤT 5120" and result["button_signed_out"] == "NGƯỜI CHIA: ĐĂNG NHẬP"

    events = journal_of(tmp_path / "data")
    dealers = [(k, p) for k, p in events if k.startswith("dealer") or k == "round_begun"]
    assert dealers == [
        ("dealer_sign_in_failed", {"dealer": "4711", "failures": 1, "locked_for_s": 0, "reason": "wrong PIN"}),
        ("dealer_signed_in", {"dealer": "4711"}),
        ("round_begun", {**dealers[2][1], "dealer": "4711"}),
        ("dealer_signed_out", {"dealer": "4711", "reason": "relieved by 5120"}),
        ("dealer_signed_in", {"dealer": "5120"}),
        ("dealer_signed_out", {"dealer": "5120", "reason": "signed out"}),
    ]
    assert not any(pin in json.dumps(events) for pin in (*PINS.values(), "1111"))
