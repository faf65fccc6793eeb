"""``dealer-assist devices pair --port PORT``: pair a shaker or a panel with this kiosk.

The device side needs a person at the device (its pairing jumper fitted, or its button held, at power-up); the
kiosk side needs a supervisor's PIN. A new key is made (256 bits, ``secrets``), given to the device once, checked
with a fresh challenge, kept beside the journal's key (``devices.keys``, mode 0600) and the pairing journalled:
unit, who, when, never the key. Run it while the kiosk is stopped (the kiosk holds the port and the journal).
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from engine.errors import InputError


def register(subparsers: Any) -> None:
    """Adds the kiosk's part of pairing to ``devices`` (registered by ``hardware.cli``, which imports no kiosk)."""
    devices = subparsers.choices.get("devices")
    if devices is None:
        return
    devices.add_argument("--config", type=Path,
                         help="pair: the kiosk's config (supervisors, where the keys are kept); "
                              "default DATA/kiosk.yaml")
    devices.add_argument("--data", type=Path,
                         help="pair: the kiosk's data folder (default ./data or $DEALER_ASSIST_DATA)")
    devices.add_argument("--by", help="pair: the supervisor who signs the pairing with their PIN")
    devices.set_defaults(pair_with=pair_command)


def pair_command(args: argparse.Namespace) -> int:
    from hardware.auth import new_key
    from hardware.client import PairingError, identify, pair
    from hardware.keystore import load_keys, save_key
    from journal.events import DevicePaired
    from journal.paths import data_folder
    from journal.store import Journal
    from kiosk.config import load_config
    from kiosk.journal_place import device_keys_path, journal_path, key_path
    from kiosk.supervisors import pin_matches

    data_dir: Path = args.data or data_folder()
    config_path = args.config or (data_dir / "kiosk.yaml" if (data_dir / "kiosk.yaml").exists() else None)
    config = load_config(config_path)
    if not config.supervisors:
        raise InputError("no supervisor is set up in the kiosk's config: add one first "
                         "(dealer-assist kiosk --add-supervisor ID)")
    supervisor = args.by
    if supervisor is None:
        raise InputError(f"a supervisor signs a pairing: --by ID (one of {', '.join(sorted(config.supervisors))})")
    stored = config.supervisors.get(supervisor)
    pin = getpass.getpass(f"PIN for {supervisor}: ") if sys.stdin.isatty() else sys.stdin.readline().strip()
    if stored is None or not pin_matches(stored, pin):
        raise InputError(f"wrong supervisor ID or PIN for {supervisor}: nothing was paired")
    port = args.port[0]
    keys_file = args.keys or device_keys_path(config, data_dir)
    baud = args.baud or config.devices.baud
    try:
        before = identify(port, baud, args.timeout)
    except TimeoutError:
        raise InputError(
            f"no device answers on {port}; check the cable and the port (`dealer-assist devices`)"
        ) from None
    key = new_key()
    try:
        identity = pair(port, key, baud, args.timeout)
    except PairingError as error:
        raise InputError(str(error)) from None
    except TimeoutError:
        raise InputError(f"the device on {port} stopped answering while it was paired; pair it again") from None
    if identity.serial_number != before.serial_number:
        raise InputError(f"another device answered on {port} while pairing ({identity.serial_number}, not "
                         f"{before.serial_number}): nothing was kept; check the cable and pair again")
    again = identity.serial_number in load_keys(keys_file)
    save_key(keys_file, identity.serial_number, key)
    device = identity.kind.value.lower()
    journal = Journal.open(journal_path(data_dir), key_path(config, data_dir), kiosk_id=config.kiosk_id,
                           table_id=config.table_id)
    try:
        journal.recover().raise_if_unsound()
        journal.append(DevicePaired(device=device, serial=identity.serial_number, by=supervisor, port=port,
                                    again=again))
    finally:
        journal.close()
    print(f"{device} {identity.serial_number} on {port} {'paired again' if again else 'paired'} with this kiosk "
          f"by {supervisor}; its key is kept in {keys_file}")
    return 0
