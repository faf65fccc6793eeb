"""``dealer-assist kiosk``: the touchscreen kiosk on the embedded default or on the devices a config file names."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import logging
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine.errors import InputError
from kiosk.i18n import LANGUAGES

KIOSK_GAMES = ("baibuu", "samloc", "schmier")
SIZES = {"1280x800": (1280, 800), "1920x1080": (1920, 1080)}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "kiosk",
        help="start the touchscreen kiosk (default: simulated shaker and buttons, synthetic table camera)",
        description="Start the dealer's touchscreen. Without --config it runs the embedded default: a simulated "
        "dice shaker and button panel on a pseudo-terminal, a rendered table read by the card reader, and a "
        "journal under the data folder (./data, or $DEALER_ASSIST_DATA).",
    )
    parser.add_argument(
        "--config",
        type=Path,
        help="the kiosk's YAML config file (default: DATA/kiosk.yaml if it exists, else the built-in default)",
    )
    parser.add_argument(
        "--data", type=Path, help="the data folder (journal, key); default ./data or $DEALER_ASSIST_DATA"
    )
    parser.add_argument("--size", choices=sorted(SIZES), default="1280x800", help="window size (landscape)")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen (on the kiosk itself)")
    parser.add_argument("--language", choices=LANGUAGES, help="start in this language (the screen can switch)")
    parser.add_argument(
        "--autoplay",
        action="store_true",
        help="demo: the simulated croupier also presses the panel buttons, so rounds run by themselves",
    )
    parser.add_argument("--seed", type=int, help="demo: seed of the simulated dice and the dealt cards")
    parser.add_argument("--demo-pace", type=float, default=1.0, metavar="N",
                        help="demo, Bài Bửu: the croupier plays N times a dealer's pace (the soak bench; default 1)")
    parser.add_argument("--check", action="store_true", help="only validate the config file and say what it sets")
    parser.add_argument(
        "--add-supervisor",
        metavar="ID",
        help="add a supervisor (or give one a new PIN) in the config file (default DATA/kiosk.yaml); the PIN is "
        "asked for, or read from standard input",
    )
    parser.add_argument(
        "--add-dealer",
        metavar="ID",
        help="add a dealer (their badge number, digits) or give one a new PIN in the config file; the PIN is asked "
        "for, or read from standard input. Dealers sign in at the table and every round names its dealer",
    )
    parser.add_argument(
        "--write-config", type=Path, metavar="PATH", help="write the built-in default config to PATH (to edit) and exit"
    )
    parser.add_argument("--driver", help=argparse.SUPPRESS)  # module:function stepping the app (tests, benchmark)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from journal.paths import data_folder
    from kiosk.config import DeviceConfig, load_config, write_config

    data_dir: Path = args.data or data_folder()
    if args.write_config:
        write_config(load_config(None), args.write_config)
        print(f"wrote the default kiosk config to {args.write_config}")
        return 0
    config_path: Path | None = args.config
    if config_path is None and (data_dir / "kiosk.yaml").exists():
        config_path = data_dir / "kiosk.yaml"
    if args.add_supervisor:
        return _add_supervisor(args.add_supervisor, config_path or data_dir / "kiosk.yaml")
    if args.add_dealer:
        return _add_dealer(args.add_dealer, config_path or data_dir / "kiosk.yaml")
    config = load_config(config_path)
    if args.language:
        config = replace(config, language=args.language)
    if not args.demo_pace > 0:
        raise InputError(f"--demo-pace {args.demo_pace:g}: give a positive speed (1 is a dealer's pace, 4 four times "
                         "faster)")
    if args.seed is not None:
        config = replace(
            config, devices=DeviceConfig(config.devices.shaker, config.devices.panel, config.devices.baud, args.seed)
        )
    if args.check:
        from kiosk.journal_place import print_placement

        if not print_placement(config, data_dir):
            return 1
        _check_camera_files(config)
        print(
            f"{config.source}: OK: table {config.table_id}, game {config.game}, shaker {config.devices.shaker}, "
            f"panel {config.devices.panel}, camera {config.camera.source} with layout {config.camera.layout}; "
            + (
                f"supervisors {', '.join(sorted(config.supervisors))}"
                if config.supervisors
                else "no supervisor yet (the kiosk asks for the first one on its screen)"
            )
        )
        return 0
    if config_path is None and not config.supervisors:
        from kiosk.demo import DEMO_SUPERVISOR, demo_supervisor

        config, pin = demo_supervisor(config)
        print(
            f"demo kiosk: supervisor {DEMO_SUPERVISOR}, PIN {pin} (for this run only; a kiosk with a config file "
            "asks for its first supervisor on the screen)",
            flush=True,
        )
    if config.game not in KIOSK_GAMES:
        raise InputError(
            f"{config.source}: game {config.game}: the kiosk's table screens play {', '.join(KIOSK_GAMES)}; "
            f"use `dealer-assist {config.game}` for {config.game}"
        )
    prepare_kivy()
    from kiosk.runtime import KioskRuntime

    runtime = KioskRuntime(config, data_dir, autoplay=args.autoplay, config_path=config_path, demo_seed=args.seed,
                           demo_pace=args.demo_pace)
    driver = load_driver(args.driver) if args.driver else None
    try:
        from kiosk.ui.app import run_app

        run_app(runtime, SIZES[args.size], fullscreen=args.fullscreen, driver=driver)
    finally:
        runtime.close()
    return 0


def _check_camera_files(config: Any) -> None:
    """The layout and calibration the config names exist and read as such: a check that passes means the kiosk
    starts with them."""
    from vision.calibration import Calibration
    from vision.layout import load_layout

    try:
        load_layout(config.camera.layout)
    except InputError as error:
        raise InputError(f"{config.source}: camera.layout: {error}") from None
    if config.camera.calibration:
        try:
            Calibration.load(config.camera.calibration)
        except InputError as error:
            raise InputError(
                f"{config.source}: camera.calibration: {error}; or set calibration: null to calibrate from the "
                "markers in the first frame"
            ) from None


def _add_supervisor(supervisor: str, path: Path) -> int:
    from kiosk.config import load_config, write_config
    from kiosk.supervisors import hash_pin, supervisor_id_problem

    problem = supervisor_id_problem(supervisor)
    if problem:
        raise InputError(f"--add-supervisor {supervisor}: {problem}")
    config = load_config(path) if path.exists() else load_config(None)
    pin = _new_pin(supervisor)
    from dataclasses import replace

    replaced = supervisor in config.supervisors
    write_config(replace(config, supervisors={**config.supervisors, supervisor: hash_pin(pin)}), path)
    print(f"{path}: supervisor {supervisor} {'has a new PIN' if replaced else 'added'}")
    return 0


def _add_dealer(dealer: str, path: Path) -> int:
    from dataclasses import replace

    from kiosk.config import load_config, write_config
    from kiosk.supervisors import dealer_id_problem, hash_pin

    problem = dealer_id_problem(dealer)
    if problem:
        raise InputError(f"--add-dealer {dealer}: {problem}")
    config = load_config(path) if path.exists() else load_config(None)
    pin = _new_pin(dealer)
    replaced = dealer in config.dealers
    write_config(replace(config, dealers={**config.dealers, dealer: hash_pin(pin)}), path)
    print(f"{path}: dealer {dealer} {'has a new PIN' if replaced else 'added'}")
    return 0


def _new_pin(who: str) -> str:
    """A PIN asked twice on a terminal, or read from standard input; refused (nothing changed) when guessable."""
    import getpass

    from kiosk.supervisors import pin_problem

    if sys.stdin.isatty():
        pin = getpass.getpass(f"PIN for {who}: ")
        if getpass.getpass("the same PIN again: ") != pin:
            raise InputError("the two PINs differ: nothing was changed")
    else:
        pin = sys.stdin.readline().strip()
    problem = pin_problem(pin)
    if problem:
        raise InputError(f"{problem}: nothing was changed")
    return pin


def prepare_kivy() -> None:
    """Set Kivy up for a kiosk (quiet, no command-line parsing, its own home) before it is first imported; refuse
    with one line when there is no display to open a window on."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    # Kivy probes for a multitouch library (mtdev) that kiosks without one lack, and logs the failure with a
    # traceback a dealer could take for a crash; touch input works without it.
    logging.getLogger("kivy").addFilter(lambda record: not str(record.msg).startswith("Input: MTDev"))
    if "KIVY_HOME" not in os.environ:
        home = Path(tempfile.gettempdir()) / "dealer-assist-kivy"
        home.mkdir(exist_ok=True)
        os.environ["KIVY_HOME"] = str(home)
    # SDL2's KMSDRM driver (the kiosk unit's) draws on the display itself, with no X or Wayland server
    drawn_direct = os.environ.get("SDL_VIDEODRIVER", "").lower() == "kmsdrm"
    if (not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY") and not drawn_direct
            and sys.platform.startswith("linux")):
        raise InputError("no display: run on the kiosk's screen, or under Xvfb (xvfb-run -a dealer-assist kiosk)")


def load_driver(spec: str) -> Any:
    """The function a script drives the app with: ``path/to/file.py:function`` or ``module:function``."""
    module_name, _, function = spec.partition(":")
    if module_name.endswith(".py"):
        loaded = importlib.util.spec_from_file_location("kiosk_driver", module_name)
        if loaded is None or loaded.loader is None:
            raise InputError(f"--driver {spec}: cannot load {module_name}")
        module = importlib.util.module_from_spec(loaded)
        loaded.loader.exec_module(module)
    else:
        module = importlib.import_module(module_name)
    return getattr(module, function or "drive")
