"""``dealer-assist kiosk install|doctor|update|rollback``: the PC under the table as an appliance.

Registered under ``kiosk`` (``kiosk.commands.app``), whose options stay those of starting the screen.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.errors import InputError

DEFAULT_PREFIX = Path("/opt/dealer-assist")


def register(subparsers: Any) -> None:
    kiosk = subparsers.choices.get("kiosk")
    if kiosk is None:
        return
    actions = kiosk.add_subparsers(dest="kiosk_action", metavar="ACTION")
    _register_install(actions)
    _register_doctor(actions)
    _register_update(actions)


def _register_install(actions: Any) -> None:
    from kiosk.install import InstallSettings

    d = InstallSettings()
    parser = actions.add_parser(
        "install", help="make this Debian PC a kiosk: service user, folders, systemd unit, udev rules (as root)",
        description="Lay down what makes a PC a kiosk: the service user, the data, key and anchor folders on the "
        "volumes given, the kiosk's config, a systemd unit with a watchdog the screen feeds, udev rules naming the "
        "shaker and the panel by USB serial number, no screen blanking. Run as root; --root DIR writes it all under "
        "DIR instead, --dry-run prints every file.",
    )
    parser.add_argument("--root", type=Path, help="write everything under this folder (an image, a test)")
    parser.add_argument("--dry-run", action="store_true", help="print every file it would write, write nothing")
    parser.add_argument("--user", default=d.user, help=f"the service user (default {d.user})")
    parser.add_argument("--data", type=Path, default=d.data, help=f"the data folder: journal, evidence ({d.data})")
    parser.add_argument("--keys", type=Path, default=d.keys,
                        help=f"the journal's key folder, on another volume ({d.keys})")
    parser.add_argument("--anchors", type=Path, default=d.anchors,
                        help=f"the anchor file's folder, on another volume ({d.anchors})")
    parser.add_argument("--prefix", type=Path, default=d.prefix, help=f"where the releases live ({d.prefix})")
    parser.add_argument("--shaker-serial", metavar="USB_SERIAL",
                        help="the shaker's USB serial number (udevadm info: ID_SERIAL_SHORT); default: that of the "
                        "port it was paired on")
    parser.add_argument("--panel-serial", metavar="USB_SERIAL", help="the button panel's USB serial number")
    parser.add_argument("--watchdog", type=int, default=d.watchdog_s, metavar="SECONDS",
                        help=f"restart a screen that stops answering for this long ({d.watchdog_s})")
    parser.add_argument("--tty", type=int, default=d.tty, help=f"the virtual console the screen takes ({d.tty})")
    parser.add_argument("--yes", action="store_true",
                        help="make THIS PC a kiosk (needed without --root or --dry-run: it adds a user, a service "
                        "that takes over the screen, udev rules and a kernel option)")
    parser.set_defaults(func=install_command)


def _register_doctor(actions: Any) -> None:
    parser = actions.add_parser(
        "doctor", help="check this kiosk: camera, devices, fonts, clock, disk, key and anchors, floor",
        description="One line per check, exit status 1 when any fails: the camera found and calibrated, each serial "
        "device present and answering, the Khmer font, the clock synchronised, the disk against the evidence "
        "retention, the key and anchors on other volumes with the right modes, the floor reachable.",
    )
    parser.add_argument("--config", type=Path, help="the kiosk's config (default DATA/kiosk.yaml, else built-in)")
    parser.add_argument("--data", type=Path, help="the data folder (default ./data or $DEALER_ASSIST_DATA)")
    parser.add_argument("--self-check", action="store_true",
                        help="a new release's check beside the running kiosk: the card reader's models loaded, the "
                        "camera and the serial ports (held by the running kiosk) not opened")
    parser.add_argument("--skip", action="append", default=[], metavar="CHECK",
                        help="leave a check out (named SKIP in the output), e.g. clock on a machine kept in time "
                        "by other means; repeatable")
    parser.set_defaults(func=doctor_command)


def _register_update(actions: Any) -> None:
    parser = actions.add_parser(
        "update", help="install a new version beside the old one and switch to it once it checks itself",
        description="Install a version beside the others (a wheel into its own virtual environment, or a prepared "
        "release folder), run its own `kiosk doctor --self-check`, and only then point PREFIX/current at it. The "
        "running kiosk restarts into it between rounds. The last 3 versions are kept for `kiosk rollback`.",
    )
    parser.add_argument("source", nargs="?", type=Path,
                        help="dealer_assist-VERSION-….whl, or a release folder with bin/dealer-assist")
    parser.add_argument("--version", help="with a folder: its version; alone: switch to this installed version")
    parser.add_argument("--wheels", type=Path, help="a folder of wheels to install the dependencies from (offline)")
    _release_options(parser)
    parser.set_defaults(func=update_command)
    back = actions.add_parser("rollback", help="go back to the version that ran before (checked first)")
    _release_options(back)
    back.set_defaults(func=rollback_command)


def _release_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", type=Path, help="the kiosk's file system is under this folder (an image, a test)")
    parser.add_argument("--prefix", type=Path, default=DEFAULT_PREFIX, help=f"where the releases live "
                        f"({DEFAULT_PREFIX})")
    parser.add_argument("--data", type=Path, help="the kiosk's data folder (default /var/lib/dealer-assist)")
    parser.add_argument("--config", type=Path, help="the kiosk's config (default DATA/kiosk.yaml)")
    parser.add_argument("--keep", type=int, default=3, help="versions kept for rollback (3)")


# ---- install -------------------------------------------------------------------------------------------------------
def install_command(args: argparse.Namespace) -> int:
    from kiosk import install
    from kiosk.install import InstallSettings, plan

    root: Path | None = args.root
    serials = {"shaker": args.shaker_serial, "panel": args.panel_serial}
    settings = InstallSettings(user=args.user, data=args.data, keys=args.keys, anchors=args.anchors,
                               prefix=args.prefix, watchdog_s=args.watchdog, tty=args.tty,
                               usb_serials={k: v for k, v in serials.items() if v})
    if root is None and not args.dry_run and not args.yes:
        raise InputError("kiosk install makes this PC a kiosk (a service user, a service that takes over the screen "
                         "at boot, udev rules, consoleblank=0): add --yes on the kiosk PC itself, or see what it "
                         "writes with --dry-run, or write it under a folder with --root DIR")
    install.refuse_problems(settings)
    if root is None and not args.dry_run and os.geteuid() != 0:
        raise InputError("kiosk install changes the system: run it as root (sudo), or give --root DIR to write "
                         "under a folder, or --dry-run to see what it writes")
    notes: list[str] = []
    settings = _serials_from_pairing(settings, root, notes)
    config_text = _config_text(settings, root)
    files = plan(settings, config_text)
    folders = install.folders(settings)
    if args.dry_run:
        print(install.dry_run_text(files, folders))
        for note in notes:
            print(f"note: {note}")
        return 0
    release_files = _first_release(settings, root)
    written = install.write(files, folders, root)
    for path in [*release_files, *written]:
        print(f"wrote {path}")
    for note in notes:
        print(f"note: {note}")
    for warning in _same_volume_warnings(settings, root):
        print(f"warning: {warning}")
    if root is None:
        _apply_to_system(settings)
    else:
        print(f"written under {root}: nothing on this system was changed; on the kiosk run systemd-sysusers, "
              f"chown {settings.user}: {settings.data / install.CONFIG_FILE}, systemd-tmpfiles --create and "
              "update-grub")
    return 0


def _serials_from_pairing(settings: Any, root: Path | None, notes: list[str]) -> Any:
    """USB serial numbers not given: those of the ports the devices were paired on (``devices pair``)."""
    from kiosk import install
    from kiosk.config import load_config
    from kiosk.journal_place import journal_path, key_path

    missing = [d for d in install.DEVICE_LINKS if d not in settings.usb_serials]
    if not missing:
        return settings
    data = install.under(root, settings.data)
    config_file = data / install.CONFIG_FILE
    found = dict(settings.usb_serials)
    try:
        config = load_config(config_file if config_file.exists() else None)
        ports = install.paired_ports(journal_path(data), install.under(root, key_path(config, settings.data)))
    except InputError as error:
        ports = {}
        notes.append(f"the paired devices' records could not be read ({error})")
    for device in missing:
        port = ports.get(device)
        serial = install.usb_serial_of(port) if port else None
        if serial:
            found[device] = serial
            notes.append(f"{device}: USB serial number {serial}, from {port} where it was paired")
        else:
            where = f"the port it was paired on ({port}) has none udev knows" if port else "it was never paired here"
            notes.append(f"{device}: no rule written: no --{device}-serial given and {where}; install again with "
                         f"--{device}-serial (udevadm info --query=property --name=/dev/ttyACM0 | grep "
                         "ID_SERIAL_SHORT)")
    return replace(settings, usb_serials=found)


def _config_text(settings: Any, root: Path | None) -> str:
    """The kiosk's config: the one already there (or the default) with the journal's key and anchors in their
    folders and each device with a udev rule at its stable name."""
    import yaml

    from kiosk import install
    from kiosk.config import DeviceConfig, JournalConfig, load_config

    existing = install.under(root, settings.data / install.CONFIG_FILE)
    config = load_config(existing if existing.exists() else None)
    journal = JournalConfig(key=str(settings.keys / install.KEY_FILE),
                            anchors=str(settings.anchors / install.ANCHOR_FILE), floor=config.journal.floor)
    ports = {device: f"/dev/{link}" if device in settings.usb_serials else getattr(config.devices, device)
             for device, link in install.DEVICE_LINKS.items()}
    devices = replace(config.devices, shaker=ports["shaker"], panel=ports["panel"])
    assert isinstance(devices, DeviceConfig)
    config = replace(config, journal=journal, devices=devices)
    header = "# dealer-assist kiosk configuration (see README, 'The kiosk'), written by `kiosk install`.\n"
    return header + yaml.safe_dump(config.to_yaml_data(), sort_keys=False, allow_unicode=True)


def _first_release(settings: Any, root: Path | None) -> list[Path]:
    """When no version is installed yet: the software this command runs from, as release VERSION (a launcher of
    this interpreter), made current."""
    from journal.store import software_version
    from kiosk.install import under
    from kiosk.releases import Releases

    releases = Releases(under(root, settings.prefix))
    if releases.current() is not None:
        return []
    version = software_version()
    folder = releases.path(version)
    launcher = folder / "bin" / "dealer-assist"
    launcher.parent.mkdir(parents=True, exist_ok=True)
    launcher.write_text(f"#!/bin/sh\n# dealer-assist {version}, installed by `kiosk install` from the software it ran "
                        f"from\nexec {sys.executable} -m kiosk.cli \"$@\"\n")
    launcher.chmod(0o755)
    releases.activate(version, lambda _release: (True, ""), "kiosk install")
    return [launcher, releases.current_link]


def _same_volume_warnings(settings: Any, root: Path | None) -> list[str]:
    from kiosk.install import under

    data = os.stat(under(root, settings.data)).st_dev
    return [f"{name} {path} is on the same volume as the data folder {settings.data}: mount another volume there "
            "(`kiosk doctor` fails until then)"
            for name, path in (("--keys", settings.keys), ("--anchors", settings.anchors))
            if os.stat(under(root, path)).st_dev == data]


def _apply_to_system(settings: Any) -> None:
    from kiosk import install

    steps = [
        ["systemd-sysusers", str(install.SYSUSERS)],
        ["systemd-tmpfiles", "--create", str(install.TMPFILES)],
        ["udevadm", "control", "--reload-rules"],
        ["udevadm", "trigger", "--subsystem-match=tty"],
        ["systemctl", "daemon-reload"],
    ]
    if shutil.which("update-grub"):
        steps.append(["update-grub"])
    for step in steps:
        done = subprocess.run(step, check=False)
        print(f"{'ran' if done.returncode == 0 else 'FAILED'}: {' '.join(step)}")
        if step[0] == "systemd-sysusers" and done.returncode == 0:
            # the kiosk reads its config and saves the set-up screen's changes to it (tmpfiles.d refuses a root-owned
            # file in the user's folder as an unsafe path)
            shutil.chown(settings.data / install.CONFIG_FILE, settings.user, settings.user)
    print(f"the kiosk starts at the next boot (or now: systemctl start {install.UNIT_NAME})")


# ---- doctor --------------------------------------------------------------------------------------------------------
def doctor_command(args: argparse.Namespace) -> int:
    from journal.paths import data_folder
    from kiosk.config import load_config
    from kiosk.doctor import CHECKS, run_checks

    unknown = sorted(set(args.skip) - set(CHECKS))
    if unknown:
        raise InputError(f"--skip {unknown[0]}: the checks are {', '.join(CHECKS)}")
    data: Path = args.data or data_folder()
    config_path: Path | None = args.config
    if config_path is None and (data / "kiosk.yaml").exists():
        config_path = data / "kiosk.yaml"
    config = load_config(config_path)
    failed = 0
    for line in run_checks(config, data, self_check=args.self_check, skip=set(args.skip)):
        print(line.text(), flush=True)
        failed += not line.ok
    print(f"{failed} check(s) failed" if failed else "all checks passed")
    return 1 if failed else 0


# ---- update and rollback -------------------------------------------------------------------------------------------
def _releases_and_check(args: argparse.Namespace) -> tuple[Any, Any]:
    from kiosk.install import CONFIG_FILE, InstallSettings, under
    from kiosk.releases import Releases, run_self_check

    root: Path | None = args.root
    data = args.data or InstallSettings().data
    config = args.config or data / CONFIG_FILE
    releases = Releases(under(root, args.prefix))
    data_here = under(root, data)
    config_here = under(root, config) if args.config is None or root is not None else config
    return releases, run_self_check(data_here, config_here if config_here.exists() else None)


def update_command(args: argparse.Namespace) -> int:
    releases, check = _releases_and_check(args)
    source: Path | None = args.source
    if source is None:
        if not args.version:
            raise InputError("give the new version: a wheel or a release folder, or --version of one installed")
        version = args.version
    elif source.is_dir():
        if not args.version:
            version_file = source / "VERSION"
            if not version_file.exists():
                raise InputError(f"{source}: say which version it is (--version) or put it in {version_file}")
            args.version = version_file.read_text().strip()
        version = args.version
        releases.add_folder(source, version)
    elif source.suffix == ".whl":
        version = releases.add_wheel(source, args.wheels).name
    else:
        raise InputError(f"{source}: a dealer_assist-VERSION-….whl or a release folder with bin/dealer-assist")
    before = releases.current()
    output = releases.activate(version, check, f"update from {before or 'nothing'}")
    print(output.rstrip())
    removed = releases.prune(args.keep)
    print(f"now on {version} (was {before or 'nothing'}); the kiosk restarts into it between rounds"
          + (f"; removed {', '.join(removed)}" if removed else ""))
    return 0


def rollback_command(args: argparse.Namespace) -> int:
    releases, check = _releases_and_check(args)
    before = releases.current()
    version = releases.previous()
    if version is None:
        raise InputError(f"no earlier version is installed under {releases.folder} to go back to "
                         f"(installed: {', '.join(releases.installed()) or 'none'})")
    output = releases.activate(version, check, f"rollback from {before}")
    print(output.rstrip())
    print(f"rolled back to {version} (was {before}); the kiosk restarts into it between rounds")
    return 0
