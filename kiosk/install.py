"""What ``dealer-assist kiosk install`` lays on a Debian PC to make it a kiosk: every file as text, so that
``--dry-run`` prints them, ``--root DIR`` writes them under DIR and the tests check them without touching the system.

- a service user (a ``sysusers.d`` entry; in the video, render, input and dialout groups: the screen, the touch
  panel and the serial ports);
- the data, key and anchor folders on the volumes given (made at install, their owner and mode kept at every boot by
  a ``tmpfiles.d`` entry that only adjusts, never creates: a volume not mounted must not get a stand-in folder);
- the kiosk's config pointing the journal's key and anchors at their folders and the devices at their udev names;
- the systemd unit: ``Type=notify`` (the kiosk says READY=1 once its screen is up), ``WatchdogSec=`` fed from the
  screen's main loop (``kiosk.service_notify``), ``Restart=always``, the screen on tty1 through SDL2's KMSDRM;
- udev rules naming the shaker and the panel by their USB serial numbers;
- ``consoleblank=0`` for the kernel (a GRUB drop-in): the console under the kiosk never blanks the screen.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import InputError

UNIT_NAME = "dealer-assist-kiosk.service"
UNIT_PATH = Path("/etc/systemd/system") / UNIT_NAME
WANTS_LINK = Path("/etc/systemd/system/multi-user.target.wants") / UNIT_NAME
UDEV_RULES = Path("/etc/udev/rules.d/70-dealer-assist.rules")
SYSUSERS = Path("/etc/sysusers.d/dealer-assist.conf")
TMPFILES = Path("/etc/tmpfiles.d/dealer-assist.conf")
GRUB_DROP_IN = Path("/etc/default/grub.d/dealer-assist-kiosk.cfg")
DEVICE_LINKS = {"shaker": "dealer-assist/shaker", "panel": "dealer-assist/panel"}
GROUPS = ("video", "render", "input", "dialout")
KEY_FILE = "kiosk.key"
ANCHOR_FILE = "anchors.log"
CONFIG_FILE = "kiosk.yaml"

_USB_SERIAL = re.compile(r"[A-Za-z0-9._:+-]{1,64}")
_USER = re.compile(r"[a-z_][a-z0-9_-]{0,30}")


@dataclass(frozen=True)
class InstallSettings:
    user: str = "dealer-assist"
    data: Path = Path("/var/lib/dealer-assist")
    keys: Path = Path("/srv/dealer-assist-keys")
    anchors: Path = Path("/srv/dealer-assist-anchors")
    prefix: Path = Path("/opt/dealer-assist")
    """Releases side by side under PREFIX/releases/VERSION, the one that runs at PREFIX/current."""
    usb_serials: dict[str, str] = field(default_factory=dict)
    """``shaker`` / ``panel`` → the USB serial number udev sees (``udevadm info``'s ID_SERIAL_SHORT)."""
    watchdog_s: int = 30
    tty: int = 1

    def problems(self) -> list[str]:
        found: list[str] = []
        if not _USER.fullmatch(self.user):
            found.append(f"--user {self.user!r}: a system user name such as dealer-assist (lower case, no spaces)")
        for name, path in (("--data", self.data), ("--keys", self.keys), ("--anchors", self.anchors),
                           ("--prefix", self.prefix)):
            if not path.is_absolute() or any(c.isspace() for c in str(path)):
                found.append(f"{name} {path}: an absolute path without spaces, as on the kiosk itself")
        if len({self.data, self.keys, self.anchors}) < 3:
            found.append("--data, --keys and --anchors must be three different folders (the key and the anchors "
                         "belong on other volumes than the journal)")
        for device, serial in self.usb_serials.items():
            if not _USB_SERIAL.fullmatch(serial):
                found.append(f"--{device}-serial {serial!r}: the USB serial number as `udevadm info` shows it "
                             "(ID_SERIAL_SHORT: letters, digits and . _ : + -)")
        if not 10 <= self.watchdog_s <= 600:
            found.append(f"--watchdog {self.watchdog_s}: between 10 and 600 seconds")
        if not 1 <= self.tty <= 12:
            found.append(f"--tty {self.tty}: a virtual console 1-12")
        return found


@dataclass(frozen=True)
class PlannedFile:
    path: Path
    """Where it goes on the kiosk (absolute)."""
    text: str
    mode: int = 0o644
    link_to: str | None = None
    """A symbolic link to this target instead of a file with ``text``."""


@dataclass(frozen=True)
class PlannedFolder:
    path: Path
    mode: int


def executable(settings: InstallSettings) -> Path:
    return settings.prefix / "current" / "bin" / "dealer-assist"


def unit_text(settings: InstallSettings) -> str:
    data = settings.data
    config = data / CONFIG_FILE
    command = [str(executable(settings)), "kiosk", "--fullscreen", "--data", str(data), "--config", str(config)]
    mounts = " ".join(str(p) for p in (data, settings.keys, settings.anchors))
    writable = " ".join(str(p) for p in (data, settings.keys, settings.anchors))
    tty = f"/dev/tty{settings.tty}"
    return f"""# Written by `dealer-assist kiosk install`: install again rather than edit (or add a drop-in).
[Unit]
Description=dealer-assist kiosk (the dealer's touchscreen)
Documentation=file://{settings.prefix}/current/README.md
After=systemd-user-sessions.service systemd-udev-settle.service time-sync.target
Conflicts=getty@tty{settings.tty}.service
After=getty@tty{settings.tty}.service
RequiresMountsFor={mounts}
# Restart for ever: a kiosk that gives up after five crashes leaves a dark table.
StartLimitIntervalSec=0

[Service]
Type=notify
NotifyAccess=main
ExecStart={shlex.join(command)}
User={settings.user}
Group={settings.user}
Restart=always
RestartSec=2
# The kiosk sends WATCHDOG=1 from its screen's main loop every {settings.watchdog_s / 2:g} s: a hung screen
# is restarted too, not only a dead process.
WatchdogSec={settings.watchdog_s}
# Loading the card reader's models takes a while on a small PC.
TimeoutStartSec=180
TimeoutStopSec=20
# The screen without a desktop: SDL2's KMSDRM driver draws straight on the display, on its own virtual console.
Environment=SDL_VIDEODRIVER=kmsdrm
Environment=KIVY_WINDOW=sdl2
Environment=SDL_VIDEO_ALLOW_SCREENSAVER=0
Environment=KIVY_HOME={data}/kivy
Environment=DEALER_ASSIST_DATA={data}
Environment=DEALER_ASSIST_RELEASES={settings.prefix}
Environment=YOLO_OFFLINE=1
TTYPath={tty}
StandardInput=tty-force
StandardOutput=journal
StandardError=journal
TTYReset=yes
TTYVHangup=yes
TTYVTDisallocate=yes
# Hardening that leaves the kiosk what it needs: its three folders, the devices, the display.
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
ReadWritePaths={writable}

[Install]
WantedBy=multi-user.target
"""


def udev_rules_text(settings: InstallSettings, user: str) -> str:
    lines = ["# Written by `dealer-assist kiosk install`: the shaker and the button panel by their USB serial "
             "numbers,", "# so that a device plugged into another port keeps its name."]
    for device, link in DEVICE_LINKS.items():
        serial = settings.usb_serials.get(device)
        if serial is None:
            lines.append(f"# {device}: no USB serial number was given (--{device}-serial); no rule")
            continue
        lines.append(f'SUBSYSTEM=="tty", ATTRS{{serial}}=="{serial}", SYMLINK+="{link}", OWNER="{user}", '
                     f'GROUP="dialout", MODE="0660", TAG+="systemd"')
    return "\n".join(lines) + "\n"


def sysusers_text(settings: InstallSettings) -> str:
    user = settings.user
    lines = ["# Written by `dealer-assist kiosk install`: the kiosk's own user (the screen, touch, serial ports).",
             f'u {user} - "dealer-assist kiosk" {settings.data} /usr/sbin/nologin']
    lines += [f"m {user} {group}" for group in GROUPS]
    return "\n".join(lines) + "\n"


def folders(settings: InstallSettings) -> list[PlannedFolder]:
    return [PlannedFolder(settings.data, 0o750), PlannedFolder(settings.keys, 0o700),
            PlannedFolder(settings.anchors, 0o700), PlannedFolder(settings.prefix / "releases", 0o755)]


def tmpfiles_text(settings: InstallSettings) -> str:
    # `z` adjusts a folder that exists and never makes one: a key volume that did not mount must not get an empty
    # folder on the root disk for the kiosk to write a new key into (RequiresMountsFor= keeps the kiosk off then).
    lines = ["# Written by `dealer-assist kiosk install`: owner and mode of the kiosk's folders, kept at every boot."]
    lines += [f"z {f.path} {f.mode:04o} {settings.user} {settings.user} -" for f in folders(settings)[:3]]
    return "\n".join(lines) + "\n"


GRUB_TEXT = ("# Written by `dealer-assist kiosk install`: the console under the kiosk's screen never blanks it.\n"
             'GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT consoleblank=0"\n')


def plan(settings: InstallSettings, config_text: str) -> list[PlannedFile]:
    """Every file the install writes, in the order it writes them."""
    return [
        PlannedFile(SYSUSERS, sysusers_text(settings)),
        PlannedFile(TMPFILES, tmpfiles_text(settings)),
        PlannedFile(settings.data / CONFIG_FILE, config_text, 0o640),
        PlannedFile(UNIT_PATH, unit_text(settings)),
        PlannedFile(WANTS_LINK, "", link_to=str(UNIT_PATH)),
        PlannedFile(UDEV_RULES, udev_rules_text(settings, settings.user)),
        PlannedFile(GRUB_DROP_IN, GRUB_TEXT),
    ]


def under(root: Path | None, path: Path) -> Path:
    """``path`` on the kiosk as written under ``root`` (the system itself when None)."""
    return root / path.relative_to("/") if root is not None else path


def write(files: list[PlannedFile], folders_made: list[PlannedFolder], root: Path | None) -> list[Path]:
    """Make the folders (mode as planned) and write the files; the paths written."""
    written: list[Path] = []
    for folder in folders_made:
        target = under(root, folder.path)
        target.mkdir(parents=True, exist_ok=True)
        os.chmod(target, folder.mode)
    for planned in files:
        target = under(root, planned.path)
        target.parent.mkdir(parents=True, exist_ok=True)
        if planned.link_to is not None:
            if target.is_symlink() or target.exists():
                target.unlink()
            target.symlink_to(planned.link_to)
        else:
            temporary = target.with_name(target.name + ".new")
            temporary.write_text(planned.text, encoding="utf-8")
            os.chmod(temporary, planned.mode)
            temporary.replace(target)
        written.append(target)
    return written


def dry_run_text(files: list[PlannedFile], folders_made: list[PlannedFolder]) -> str:
    parts = [f"folder {f.path} (mode {f.mode:04o})" for f in folders_made]
    for planned in files:
        if planned.link_to is not None:
            parts.append(f"link {planned.path} -> {planned.link_to}")
        else:
            parts.append(f"file {planned.path} (mode {planned.mode:04o}):\n{planned.text.rstrip()}\n")
    return "\n".join(parts)


def usb_serial_of(port: str) -> str | None:
    """The USB serial number udev knows a serial port by (ID_SERIAL_SHORT), or None (not USB, no udev)."""
    import subprocess

    if not port.startswith("/dev/"):
        return None
    try:
        shown = subprocess.run(["udevadm", "info", "--query=property", f"--name={port}"], capture_output=True,
                               text=True, timeout=10, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in shown.splitlines():
        key, _, value = line.partition("=")
        if key == "ID_SERIAL_SHORT" and value:
            return value
    return None


def paired_ports(journal_file: Path, key_file: Path) -> dict[str, str]:
    """The port each kind of device was last paired on (``dealer-assist devices pair`` journals it)."""
    from journal import JournalReader
    from journal.events import DevicePaired

    ports: dict[str, str] = {}
    if not journal_file.exists() or not key_file.exists():
        return ports
    with JournalReader.open(journal_file, key_file) as reader:
        for entry in reader.entries(kinds=[DevicePaired.KIND]):
            if isinstance(entry.event, DevicePaired) and entry.event.port:
                ports[entry.event.device] = entry.event.port
    return ports


def refuse_problems(settings: InstallSettings) -> None:
    problems = settings.problems()
    if problems:
        raise InputError("; ".join(problems))
