"""``dealer-assist kiosk doctor``: is this PC fit to run a table? One line per check, each saying what it found and,
when it fails, what to do.

The checks: the camera found and calibrated; the shaker and the panel present, answering and proving their paired
key; the Khmer font; the Vietnamese and Khmer catalogues readable; the clock synchronised; the disk against the
evidence retention; the journal's key and anchors on other volumes with the right modes; the floor reachable (when
configured); with ``--self-check`` (a new release checking itself beside the running kiosk) the card reader's models
loaded instead of the camera and the ports opened.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.errors import InputError
from kiosk.config import SIMULATED, SYNTHETIC, KioskConfig

CHECKS = ("config", "camera", "shaker", "panel", "fonts", "words", "clock", "disk", "key", "anchors", "floor",
          "models")
MACHINE_ONLY = ("clock", "floor")
"""Left out of a new release's self-check: the machine's state and the network's, which no release fixes (an update
is not held back by them)."""
JOURNAL_RESERVE_MB = 500.0
"""Room kept beside the evidence cap for the journal itself, the logs and an update's new release."""


@dataclass(frozen=True)
class Line:
    check: str
    ok: bool
    says: str
    skipped: bool = False

    def text(self) -> str:
        mark = "SKIP" if self.skipped else ("OK  " if self.ok else "FAIL")
        return f"{mark} {self.check}: {self.says}"


class Failed(Exception):
    """A check that failed, with what was found and what to do."""


Check = Callable[[KioskConfig, Path], str]


def run_checks(config: KioskConfig, data: Path, *, self_check: bool = False, skip: set[str] | None = None
               ) -> Iterator[Line]:
    skip = skip or set()
    checks: dict[str, Check] = {
        "config": check_config, "camera": check_camera, "shaker": device_check("shaker"),
        "panel": device_check("panel"), "fonts": check_fonts, "words": check_words, "clock": check_clock,
        "disk": check_disk,
        "key": check_key, "anchors": check_anchors, "floor": check_floor, "models": check_models,
    }
    if self_check:  # beside the running kiosk, which holds the camera and the serial ports
        checks["camera"] = check_calibration_file
        checks["shaker"] = device_present("shaker")
        checks["panel"] = device_present("panel")
    for name in CHECKS:
        if self_check and name in MACHINE_ONLY:
            yield Line(name, True, "the machine's, not the release's: `dealer-assist kiosk doctor` checks it",
                       skipped=True)
            continue
        if name in skip:
            yield Line(name, True, "left out (--skip)", skipped=True)
            continue
        try:
            yield Line(name, True, checks[name](config, data))
        except (Failed, InputError, OSError) as error:
            yield Line(name, False, str(error))


# ---- the checks ----------------------------------------------------------------------------------------------------
def check_config(config: KioskConfig, data: Path) -> str:
    from kiosk.journal_place import placement_problems

    refusals, _ = placement_problems(config, data)
    if refusals:
        raise Failed(refusals[0])
    return f"{config.source}: table {config.table_id}, kiosk {config.kiosk_id}, game {config.game}"


def check_camera(config: KioskConfig, data: Path) -> str:
    from vision.calibration import Calibration, calibrate
    from vision.layout import load_layout
    from vision.sources import open_source

    layout = load_layout(config.camera.layout)
    source = open_source(config.camera.source, layout=layout)
    try:
        frame = None
        for _ in range(30):  # a camera's first frames can be empty while it starts
            frame = source.read()
            if frame is not None:
                break
        if frame is None:
            raise Failed(f"camera {config.camera.source}: no frame ({source.status.message}); check its cable and "
                         "camera.source in the config")
    finally:
        source.close()
    height, width = frame.shape[:2]
    if config.camera.calibration:
        calibration = Calibration.load(config.camera.calibration)
        calibration.check_frame(width, height)
        how = f"calibration {config.camera.calibration}"
    else:
        try:
            found = calibrate(frame, layout.markers)
        except InputError as error:
            raise Failed(f"camera {config.camera.source}: a {width}x{height} frame, not calibrated: {error}") from None
        how = f"calibrated from {len(found.markers_found)} markers (mean error {found.error_mm:.1f} mm)"
    kind = "synthetic table (demo)" if config.camera.source == SYNTHETIC else config.camera.source
    return f"{kind}: a {width}x{height} frame, {how}"


def check_calibration_file(config: KioskConfig, data: Path) -> str:
    from vision.calibration import Calibration
    from vision.layout import load_layout

    load_layout(config.camera.layout)
    if config.camera.calibration:
        Calibration.load(config.camera.calibration)
        return f"layout {config.camera.layout}, calibration {config.camera.calibration} (camera held by the kiosk)"
    return f"layout {config.camera.layout}, calibrated from its markers at start (camera held by the kiosk)"


def device_check(device: str) -> Check:
    def check(config: KioskConfig, data: Path) -> str:
        port = getattr(config.devices, device)
        if port == "none":
            return f"not used (devices.{device}: none)"
        if port == SIMULATED:
            return _simulated_answers(device)
        return _device_answers(config, data, device, port)

    return check


def device_present(device: str) -> Check:
    def check(config: KioskConfig, data: Path) -> str:
        port = getattr(config.devices, device)
        if port in (SIMULATED, "none") or "://" in port:
            return f"devices.{device}: {port}"
        if not Path(port).exists():
            raise Failed(f"{port} does not exist: is the {device} plugged in (and its udev rule installed)?")
        return f"{port} present (held by the running kiosk)"

    return check


def _simulated_answers(device: str) -> str:
    from hardware.client import challenge
    from hardware.sim import start_simulated_devices

    shaker, panel, handle = start_simulated_devices(seed=1)
    try:
        port = shaker if device == "shaker" else panel
        answer = challenge(port, handle.keys, timeout=1.0)
    finally:
        handle.stop()
    if not answer.authenticated:
        raise Failed(f"the simulated {device} answered but {answer.trust}")
    return f"simulated {device} {answer.identity.serial_number} answers, {answer.trust}"


def _device_answers(config: KioskConfig, data: Path, device: str, port: str) -> str:
    from hardware.client import challenge
    from hardware.keystore import load_keys
    from kiosk.journal_place import device_keys_path

    if "://" not in port and not Path(port).exists():
        raise Failed(f"{port} does not exist: is the {device} plugged in (and its udev rule installed: "
                     "`dealer-assist kiosk install --" + device + "-serial …`)?")
    keys = load_keys(device_keys_path(config, data))
    try:
        answer = challenge(port, keys, config.devices.baud, timeout=1.0)
    except TimeoutError:
        raise Failed(f"nothing answers on {port}: check the {device}'s power and cable; is the kiosk running "
                     "(it holds the port)?") from None
    kind = answer.identity.kind.value.lower()
    if kind != device:
        raise Failed(f"a {kind} answers on {port}, not the {device}: swap the cables or fix devices.{device}")
    pinned = getattr(config.devices, f"{device}_serial")
    if pinned and answer.identity.serial_number != pinned:
        raise Failed(f"{answer.identity.serial_number} answers on {port}, not {pinned} (devices.{device}_serial)")
    if not answer.authenticated:
        raise Failed(f"{device} {answer.identity.serial_number} on {port}: {answer.trust}; pair it "
                     f"(`dealer-assist devices pair --port {port} --by ID`)")
    return f"{device} {answer.identity.serial_number} on {port} answers, {answer.trust}"


def check_fonts(config: KioskConfig, data: Path) -> str:
    from kiosk.ui.shaped_text import KHMER_FONTS

    found = next((path for path in KHMER_FONTS if Path(path).is_file()), None)
    if found is None:
        raise Failed("no Khmer font: Khmer words show as boxes; apt-get install fonts-khmeros")
    return f"Khmer {found}"


def check_words(config: KioskConfig, data: Path) -> str:
    """The Vietnamese and Khmer catalogues readable (the screens show English where one is not)."""
    from journal.catalogues import TRANSLATED, catalogue_path, locale_dir, read_catalogue

    counts = [f"{language} {sum(1 for message in read_catalogue(catalogue_path(language)) if message.id)}"
              for language in TRANSLATED]
    return f"{', '.join(counts)} texts in {locale_dir()}"


def check_clock(config: KioskConfig, data: Path) -> str:
    from kiosk.clock_sync import clock_synchronised

    synchronised = clock_synchronised()
    if synchronised is None:
        raise Failed("cannot tell whether the clock is synchronised (no timedatectl, no adjtimex)")
    if not synchronised:
        raise Failed("the clock is not synchronised: every journal time may be off; enable systemd-timesyncd or "
                     "chrony with the casino's time server (timedatectl set-ntp true)")
    return "synchronised"


def folder_size_mb(folder: Path) -> float:
    total = 0
    if folder.is_dir():
        for path in folder.rglob("*"):
            if path.is_file() and not path.is_symlink():
                total += path.stat().st_size
    return total / 1e6


def check_disk(config: KioskConfig, data: Path) -> str:
    cap = config.evidence.max_mb
    if cap is None:
        raise Failed("evidence.max_mb is null: the evidence frames grow without bound (about 80 MB an hour of "
                     "play) until the disk is full; set a cap the disk holds")
    place = data if data.exists() else data.parent
    free_mb = shutil.disk_usage(place).free / 1e6
    used_mb = folder_size_mb(data / "evidence")
    needed_mb = cap - used_mb + JOURNAL_RESERVE_MB
    if free_mb < needed_mb:
        raise Failed(f"{free_mb:,.0f} MB free on {place}, the evidence may still grow {cap - used_mb:,.0f} MB "
                     f"(evidence.max_mb {cap:,.0f}) with {JOURNAL_RESERVE_MB:,.0f} MB kept for the journal: free "
                     f"{needed_mb - free_mb:,.0f} MB or lower evidence.max_mb")
    return (f"{free_mb:,.0f} MB free; evidence {used_mb:,.0f} of {cap:,.0f} MB (evidence.max_mb), kept "
            f"{config.evidence.retention_days or 'for ever'} days")


def _same_volume(a: Path, b: Path) -> bool:
    return os.stat(a).st_dev == os.stat(b).st_dev


def check_key(config: KioskConfig, data: Path) -> str:
    from kiosk.journal_place import key_path

    key = key_path(config, data)
    if config.journal.key is None:
        raise Failed(f"journal.key is not set: the key is {key}, beside the journal; set it to a file on another "
                     "volume (`dealer-assist kiosk install --keys DIR`)")
    return _secret_on_other_volume("key", key, data, 0o600)


def check_anchors(config: KioskConfig, data: Path) -> str:
    if config.journal.anchors is None:
        raise Failed("journal.anchors is not set: a journal rolled back would not show; set it to a file on another "
                     "volume (`dealer-assist kiosk install --anchors DIR`)")
    return _secret_on_other_volume("anchors", Path(config.journal.anchors), data, 0o600)


def _secret_on_other_volume(name: str, path: Path, data: Path, mode: int) -> str:
    folder = path.parent
    if not folder.is_dir():
        raise Failed(f"{folder} does not exist: is its volume mounted?")
    if data.exists() and _same_volume(folder, data):
        raise Failed(f"{path} is on the same volume as the journal ({data}): a copy of that disk takes both; put it "
                     "on another volume")
    folder_mode = folder.stat().st_mode & 0o777
    if folder_mode & 0o022:
        raise Failed(f"{folder} may be written by others (mode {folder_mode:04o}): chmod 700 {folder}")
    if not path.exists():
        return f"{path} on another volume; the kiosk makes it at its first start"
    file_mode = path.stat().st_mode & 0o777
    if file_mode & ~mode & 0o777:
        raise Failed(f"{path} has mode {file_mode:04o}, wants {mode:04o} or less: chmod {mode:o} {path}")
    return f"{path} on another volume, mode {file_mode:04o}"


def check_floor(config: KioskConfig, data: Path) -> str:
    if not config.journal.floor:
        return "not configured (journal.floor): the journal is kept on this kiosk only"
    import psycopg

    try:
        with psycopg.connect(config.journal.floor, connect_timeout=5) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise Failed(f"the floor cannot be reached ({reason}); the kiosk plays on and ships when it can: check "
                     "the network and journal.floor") from None
    return "reachable"


def check_models(config: KioskConfig, data: Path) -> str:
    from kiosk.model_hashes import model_hashes
    from vision.active_model import active_model

    active = active_model(data)
    hashes = model_hashes(active.folder)
    if not hashes:
        raise Failed(f"no card-reader model in {active.folder}: reinstall the release")
    if config.camera.reader != "model":
        return f"{len(hashes)} model files hashed ({active.name}); the reader is off (camera.reader)"
    from vision.reader import CardReader

    reader = CardReader(active.folder)
    del reader
    return f"{active.name} {active.hash} loaded ({len(hashes)} model files)"
