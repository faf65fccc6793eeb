"""Running the real kiosk app under a script, in a fresh process: for the window tests and the benchmark.

    python -m kiosk.testing --data DIR --size 1280x800 --driver path/to/file.py:function [--reader model|placed]

``--reader placed`` reads the synthetic felt from what was placed on it (``vision.placed_reader.PlacedReader``, with
doubt injected where the driver asks), for tests that are about the kiosk and not about the model;
``--reader model`` (the default) runs the shipped card reader on the rendered frames.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from vision.placed_reader import PlacedReader


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.testing")
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--size", default="1280x800")
    parser.add_argument("--driver", required=True)
    parser.add_argument("--reader", choices=("model", "placed"), default="model")
    parser.add_argument("--config", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--autoplay", action="store_true")
    parser.add_argument("--demo-pin", default="2468", help="the PIN of the embedded default's supervisor DEMO")
    args = parser.parse_args(argv)

    from kiosk.commands.app import SIZES, load_driver, prepare_kivy
    from kiosk.config import DeviceConfig, load_config

    prepare_kivy()
    from dataclasses import replace

    config = load_config(args.config)
    config = replace(
        config, devices=DeviceConfig(config.devices.shaker, config.devices.panel, config.devices.baud, args.seed)
    )
    if args.config is None and not config.supervisors:  # as `dealer-assist kiosk` does, with a PIN a script knows
        from kiosk.demo import demo_supervisor

        config, _ = demo_supervisor(config, args.demo_pin)
    from kiosk.runtime import KioskRuntime

    holder: dict[str, Any] = {}

    def placed_read(frame: Any) -> list[Any]:
        return holder["reader"](frame) if "reader" in holder else []

    runtime = KioskRuntime(
        config,
        args.data,
        autoplay=args.autoplay,
        config_path=args.config,
        read=placed_read if args.reader == "placed" else None,
        demo_seed=args.seed,
    )
    if args.reader == "placed":
        holder["reader"] = PlacedReader(runtime.camera.source)
        runtime.placed_reader = holder["reader"]  # type: ignore[attr-defined]
    driver: Callable[..., Any] = load_driver(args.driver)
    try:
        from kiosk.ui.app import run_app

        run_app(runtime, SIZES[args.size], driver=driver)
    finally:
        runtime.close()
    return 0


if __name__ == "__main__":
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    sys.exit(main())
