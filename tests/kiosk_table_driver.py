"""Sâm Lốc and Schmier hands played through the kiosk's runtime on a real journal, then the kiosk killed between
hands, for the table-state tests.

    python tests/kiosk_table_driver.py DATA_DIR CONFIG [--hands N]

It starts as the kiosk starts (``KioskRuntime`` on DATA_DIR with the config file CONFIG), plays N hands of Sâm
Lốc and N of Schmier from the felt as a dealer would (the camera's reads of the centre and of each loser's zone),
prints what the table keeps (balances, who leads, the match score, who deals) as one JSON line, and SIGKILLs
itself: no clean shutdown, as a power cut."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kiosk.clock import ManualClock
from kiosk.config import load_config
from kiosk.runtime import KioskRuntime


def table_state(runtime: KioskRuntime) -> dict[str, object]:
    samloc, schmier = runtime.controllers["samloc"], runtime.controllers["schmier"]
    view = schmier.view()  # type: ignore[attr-defined]
    return {"balances": samloc.balances, "leader": samloc.leader,  # type: ignore[attr-defined]
            "scores": list(view.scores), "dealer": view.dealer}


def main() -> None:
    from test_kiosk_tables import full_hand, full_schmier, play_from_the_felt, schmier_from_the_felt

    parser = argparse.ArgumentParser()
    parser.add_argument("data", type=Path)
    parser.add_argument("config", type=Path)
    parser.add_argument("--hands", type=int, default=3)
    args = parser.parse_args()
    clock = ManualClock()
    runtime = KioskRuntime(load_config(args.config), args.data, clock=clock, read=lambda frame: [],
                           config_path=args.config)
    samloc, schmier = runtime.controllers["samloc"], runtime.controllers["schmier"]
    for number in range(args.hands):
        samloc.on_table({})
        samloc.command("start")
        hand = full_hand(samloc, seed=40 + number)  # type: ignore[arg-type]
        play_from_the_felt(samloc, clock, hand)  # type: ignore[arg-type]
        samloc.command("confirm", supervisor="S1")
        assert samloc.phase.value == "closed"  # type: ignore[attr-defined]
    for number in range(args.hands):
        schmier.on_table({})
        schmier.command("start")
        schmier_from_the_felt(schmier, full_schmier(schmier, seed=70 + number))  # type: ignore[arg-type]
        schmier.command("confirm", supervisor="S1")
        assert schmier.phase.value == "closed"  # type: ignore[attr-defined]
    print(json.dumps(table_state(runtime)), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # between hands, without closing anything


if __name__ == "__main__":
    main()
