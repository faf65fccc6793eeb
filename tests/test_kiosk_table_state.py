"""The table keeps its state (issue 60 items 4, 5): Sâm Lốc balances and who leads, Schmier's match score and
dealer survive a kiosk killed between hands, rebuilt from the journal on disk; SET-UP changes of each game are
journaled by the supervisor who made them and apply from the next hand."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from test_kiosk_tables import full_hand, full_schmier, play_from_the_felt, schmier_from_the_felt

from journal import JournalReader
from kiosk.clock import ManualClock
from kiosk.config import CameraConfig, DeviceConfig, KioskConfig, write_config
from kiosk.runtime import KioskRuntime

DRIVER = Path(__file__).parent / "kiosk_table_driver.py"


def quiet_config(path: Path, game: str = "samloc", players: int = 3) -> Path:
    """A kiosk config without devices, its Sâm Lốc table of ``players`` at bet 10, written to ``path``."""
    config = replace(KioskConfig(), game=game, devices=DeviceConfig(shaker="none", panel="none"),
                     camera=CameraConfig(reader="placement"),
                     games={**KioskConfig().games, "samloc": {"bet": 10, "players": players}, "schmier": {}})
    write_config(config, path)
    return path


def start(data: Path, config_path: Path, clock: ManualClock | None = None) -> KioskRuntime:
    from kiosk.config import load_config

    return KioskRuntime(load_config(config_path), data, clock=clock or ManualClock(), read=lambda frame: [],
                        config_path=config_path)


def kept(runtime: KioskRuntime) -> dict[str, object]:
    samloc, schmier = runtime.controllers["samloc"], runtime.controllers["schmier"]
    view = schmier.view()  # type: ignore[attr-defined]
    return {"balances": samloc.balances, "leader": samloc.leader,  # type: ignore[attr-defined]
            "scores": list(view.scores), "dealer": view.dealer}


@pytest.mark.slow
def test_a_kiosk_killed_between_hands_keeps_balances_leader_score_and_dealer(tmp_path: Path) -> None:
    data, config = tmp_path / "data", quiet_config(tmp_path / "kiosk.yaml")
    run = subprocess.run([sys.executable, str(DRIVER), str(data), str(config), "--hands", "3"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == -9, run.stderr[-3000:]  # killed, as a power cut
    before = json.loads(run.stdout.strip().splitlines()[-1])
    assert before["balances"] != [1000, 1000, 1000] and sum(before["balances"]) == 3000
    assert before["scores"] != [0, 0, 0]
    runtime = start(data, config)
    try:
        assert runtime.recovery.sound and runtime.recovery.open_round is None
        assert kept(runtime) == before
        samloc = runtime.controllers["samloc"]
        assert samloc.view().prompt.params["player"] == before["leader"]  # type: ignore[attr-defined]
        assert [p.balance for p in samloc.view().players] == before["balances"]  # type: ignore[attr-defined]
    finally:
        runtime.close()


def test_set_up_changes_are_journaled_by_the_supervisor_and_apply_from_the_next_hand(tmp_path: Path) -> None:
    data, config = tmp_path / "data", quiet_config(tmp_path / "kiosk.yaml")
    clock = ManualClock()
    runtime = start(data, config, clock)
    samloc, schmier = runtime.controllers["samloc"], runtime.controllers["schmier"]
    try:
        samloc.command("start")  # type: ignore[attr-defined]
        assert samloc.hand.settings.bet == 10  # type: ignore[attr-defined]
        values = runtime.game_set_up_values("samloc")
        assert values["players"] == 3 and values["bet"] == 10 and values["turn_timer_s"] == 20
        runtime.apply_game_settings("samloc", {**values, "bet": 20, "turn_timer_s": 30, "mode": "sam_ngheo_giau",
                                               "quad_beats_pair_of_twos": True}, by="S1")
        assert samloc.hand.settings.bet == 10  # type: ignore[attr-defined]  # the hand in play keeps its table
        from kiosk.controller.view import Refused

        with pytest.raises(Refused):  # another number of players only between hands
            runtime.apply_game_settings("samloc", {**runtime.game_set_up_values("samloc"), "players": 2}, by="S1")
        hand = full_hand(samloc, seed=5)  # type: ignore[arg-type]
        play_from_the_felt(samloc, clock, hand)  # type: ignore[arg-type]
        samloc.command("confirm", supervisor="S1")  # type: ignore[attr-defined]
        samloc.on_table({})  # type: ignore[attr-defined]
        samloc.command("start")  # type: ignore[attr-defined]
        settings = samloc.hand.settings  # type: ignore[attr-defined]
        assert (settings.bet, settings.turn_timer_s, settings.mode, settings.quad_beats_pair_of_twos) == \
            (20, 30, "sam_ngheo_giau", True)
        assert samloc.view().seconds_left == 30  # type: ignore[attr-defined]
        samloc.command("void", reason="misdeal")  # type: ignore[attr-defined]
        runtime.apply_game_settings("samloc", {**runtime.game_set_up_values("samloc"), "players": 2}, by="S2")
        assert samloc.balances == [1000, 1000] and len(samloc.view().players) == 2  # type: ignore[attr-defined]
        runtime.apply_game_settings("schmier", {"trump_anytime": True, "show_dealer_trump_discards": False},
                                    by="S2")
        schmier.command("start")  # type: ignore[attr-defined]
        assert schmier.hand.settings.trump_anytime  # type: ignore[attr-defined]
        schmier_from_the_felt(schmier, full_schmier(schmier, seed=2))  # type: ignore[arg-type]
        schmier.command("confirm", supervisor="S2")  # type: ignore[attr-defined]
    finally:
        runtime.close()
    with JournalReader.open(data / "journal.sqlite3", data / "kiosk.key") as reader:
        changes = [(e.payload["setting"], e.payload["before"], e.payload["after"], e.payload["by"])
                   for e in reader.entries(kinds=["settings_changed"])]
    assert ("samloc.bet", 10, 20, "S1") in changes and ("samloc.turn_timer_s", 20, 30, "S1") in changes
    assert ("samloc.mode", "normal", "sam_ngheo_giau", "S1") in changes
    assert ("samloc.quad_beats_pair_of_twos", False, True, "S1") in changes
    assert ("samloc.players", 3, 2, "S2") in changes and ("schmier.trump_anytime", False, True, "S2") in changes
    again = start(data, config)  # the config file keeps them; the journal keeps the new table of 2
    try:
        samloc = again.controllers["samloc"]
        assert samloc.table_players == 2 and samloc.base.bet == 20  # type: ignore[attr-defined]
        assert samloc.balances == [1000, 1000]  # type: ignore[attr-defined]
        assert again.controllers["schmier"].settings.trump_anytime  # type: ignore[attr-defined]
    finally:
        again.close()


@pytest.mark.slow
@pytest.mark.parametrize(("game", "layout"), [("samloc", "baibuu_7"), ("samloc", "samloc_4"),
                                              ("schmier", "baibuu_7")])
def test_autoplay_plays_whole_card_hands_from_its_own_felt(tmp_path: Path, game: str, layout: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``--autoplay`` at a Sâm Lốc or Schmier table: the simulated croupier deals, lays each play on the rendered
    felt, the camera reads it, and whole hands are played and settled, hand after hand (issue 60 item 8). On the
    Sâm Lốc felt (``samloc_4``) the losers' cards at the end are read from their own places too, none entered on
    the picker; on ``baibuu_7``, which has no such places, they are entered on the picker."""
    import time

    import kiosk.demo_cards as demo_cards

    monkeypatch.setattr(demo_cards, "STEP_DELAY_S", 0.15)
    monkeypatch.setattr(demo_cards, "RESULTS_DELAY_S", 0.3)
    monkeypatch.setattr(demo_cards, "FIX_DELAY_S", 0.3)
    config = replace(KioskConfig(), game=game, devices=DeviceConfig(shaker="none", panel="none"),
                     camera=CameraConfig(reader="placement", layout=layout))
    runtime = KioskRuntime(config, tmp_path / "data", autoplay=True, demo_seed=5)
    croupier = runtime.card_demos[game]
    try:
        deadline = time.monotonic() + 150
        while croupier.hands_played < 2 and time.monotonic() < deadline:
            runtime.tick()
            time.sleep(0.02)
    finally:
        runtime.close()
    assert croupier.hands_played >= 2
    with JournalReader.open(tmp_path / "data" / "journal.sqlite3", tmp_path / "data" / "kiosk.key") as reader:
        from journal.review import round_detail

        kinds = [e.kind for e in reader.entries()]
        settled = [e.round_id for e in reader.entries(kinds=["round_settled"])]
        assert len(settled) >= 2 and "cards_read" in kinds
        for round_id in settled:
            assert round_detail(reader, round_id).replayed.agrees
        if game == "samloc":
            shown = {e.payload["zone"] for e in reader.entries(kinds=["cards_read"])} - {"centre"}
            entered = {e.payload["zone"] for e in reader.entries(kinds=["cards_corrected"])} - {"centre"}
            assert shown and shown <= {"seat1", "seat2", "seat3", "seat4"}
            assert entered == (set() if layout == "samloc_4" else shown), (shown, entered)
