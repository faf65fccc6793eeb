"""The kiosk's one configuration file (YAML): table, devices, camera, zones, game settings. Validated with clear errors.

Every key has a default (the embedded default: simulated devices, the synthetic table camera, Bài Bửu), so a
missing file is fine and a file needs only what differs. A wrong key or value is refused with a message naming
the file, the key, the bad value and what is allowed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.errors import InputError
from engine.games import GAMES
from kiosk.i18n import LANGUAGES

SIMULATED = "simulated"
SYNTHETIC = "synthetic"


class ConfigError(InputError):
    """A configuration file that cannot be used."""


@dataclass(frozen=True)
class DeviceConfig:
    shaker: str = SIMULATED
    """``simulated`` (the built-in simulator on a pty), a serial port path or pyserial URL, or ``none``."""
    panel: str = SIMULATED
    baud: int = 115200
    seed: int | None = None
    """Seed of the simulated dice (None: different every run)."""
    shaker_serial: str | None = None
    """Pin the shaker: only the unit with this serial number is taken (any paired shaker when None)."""
    panel_serial: str | None = None
    allow_version_2: bool = False
    """Take dice and buttons from protocol 2 devices, which cannot prove who they are. Shown on every round's
    screen and on the floor while in use."""


@dataclass(frozen=True)
class CameraConfig:
    source: str = SYNTHETIC
    """``synthetic`` (rendered felt for the demo), a camera index (``0``), a video file or a stream URL."""
    layout: str = "baibuu_7"
    """A layout name from ``vision/layouts`` or a path to a layout YAML file (the zones)."""
    calibration: str | None = None
    """A saved calibration file; None: calibrate from the markers in the first frame."""
    reader: str = "model"
    """``model`` (the card reader) or, with the synthetic camera only, ``placement``: the demo felt is read by
    where the cards were put, to show the kiosk without the reader's mistakes."""
    keep_still: bool = True
    """Parts of the table that have not changed keep their readings instead of being read every frame
    (``vision.still_tiles``); false reads every frame whole, e.g. while looking into a reading problem."""


@dataclass(frozen=True)
class EvidenceConfig:
    """The camera frame each reading was made from, kept beside the journal (``kiosk.evidence``)."""

    format: str = "jpeg"
    """``jpeg`` or ``webp``."""
    quality: int = 80
    """1 (smallest file) to 100 (best picture)."""
    retention_days: int | None = 30
    """Frames of rounds closed longer ago are deleted (journaled); null keeps them for ever. A round still open or
    held for a dispute keeps its frames whatever this says."""
    max_mb: float | None = 2000.0
    """The evidence folder is kept under this size, oldest closed rounds' frames deleted first; null: no cap."""


@dataclass(frozen=True)
class JournalConfig:
    """Where the journal's key and anchors live (``journal.anchors``): both off the journal's own folder in
    production. Unset, the key is the embedded demo's ``DATA/kiosk.key`` and no anchors are kept."""

    key: str | None = None
    """The key file: another volume, readable by the kiosk's user only (0600)."""
    anchors: str | None = None
    """An append-only anchor file on another volume: the chain's head at every round's end."""
    floor: str | None = None
    """The floor's central PostgreSQL (a DSN with this kiosk's own login, from ``dealer-assist floor add-kiosk``):
    the journal is shipped there in the background, and every anchor goes there too."""


@dataclass(frozen=True)
class KioskConfig:
    table_id: str = "T1"
    kiosk_id: str = "K1"
    game: str = "baibuu"
    language: str = "en"
    sound: bool = False
    """A short tone for an alert, a refused action and a settled round (the kiosk needs a speaker)."""
    supervisors: Mapping[str, str] = field(default_factory=dict)
    """Supervisor ID → salted Argon2id hash of their PIN (``kiosk.supervisors``). None in the built-in default: a
    kiosk asks for its first supervisor on the screen, and the demo makes one for the session."""
    dealers: Mapping[str, str] = field(default_factory=dict)
    """Dealer ID (digits, as on their badge) → salted Argon2id hash of their PIN. Dealers sign in at the table and
    every round is journaled with the dealer's ID; none here: rounds name no dealer."""
    shake_timeout_s: float = 8.0
    default_bet: int = 10
    devices: DeviceConfig = DeviceConfig()
    camera: CameraConfig = CameraConfig()
    evidence: EvidenceConfig = EvidenceConfig()
    journal: JournalConfig = JournalConfig()
    games: Mapping[str, Mapping[str, Any]] = field(
        default_factory=lambda: {
            "baibuu": {"min_bet": 10, "max_bet": 1000, "smallest_chip": 1},
            "samloc": {"bet": 10},
            "schmier": {},
        }
    )
    source: str = "(built-in default)"

    def game_settings(self, game: str) -> Any:
        """The engine's validated ``Settings`` for ``game`` from this file's section."""
        from engine.games import load

        try:
            return load(game).settings_from_json(dict(self.games.get(game, {})))
        except InputError as error:
            raise ConfigError(f"{self.source}: games.{game}: {error}") from None

    def with_game_settings(self, game: str, settings_json: Mapping[str, Any]) -> KioskConfig:
        games = {**self.games, game: dict(settings_json)}
        return replace(self, games=games)

    def to_yaml_data(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "kiosk_id": self.kiosk_id,
            "game": self.game,
            "language": self.language,
            "sound": self.sound,
            "supervisors": dict(self.supervisors),
            "dealers": dict(self.dealers),
            "shake_timeout_s": self.shake_timeout_s,
            "default_bet": self.default_bet,
            "devices": {
                "shaker": self.devices.shaker,
                "panel": self.devices.panel,
                "baud": self.devices.baud,
                "seed": self.devices.seed,
                "shaker_serial": self.devices.shaker_serial,
                "panel_serial": self.devices.panel_serial,
                "allow_version_2": self.devices.allow_version_2,
            },
            "camera": {
                "reader": self.camera.reader,
                "keep_still": self.camera.keep_still,
                "source": self.camera.source,
                "layout": self.camera.layout,
                "calibration": self.camera.calibration,
            },
            "games": {name: dict(values) for name, values in self.games.items()},
            "evidence": {
                "format": self.evidence.format,
                "quality": self.evidence.quality,
                "retention_days": self.evidence.retention_days,
                "max_mb": self.evidence.max_mb,
            },
            "journal": {"key": self.journal.key, "anchors": self.journal.anchors, "floor": self.journal.floor},
        }


_TOP = {
    "table_id",
    "kiosk_id",
    "game",
    "language",
    "sound",
    "supervisors",
    "dealers",
    "supervisor_pin_sha256",
    "supervisor_pin",
    "shake_timeout_s",
    "default_bet",
    "devices",
    "camera",
    "games",
    "evidence",
    "journal",
}
_DEVICES = {"shaker", "panel", "baud", "seed", "shaker_serial", "panel_serial", "allow_version_2"}
_CAMERA = {"source", "layout", "calibration", "reader", "keep_still"}
_BAUDS = (9600, 19200, 38400, 57600, 115200)


def load_config(path: str | Path | None) -> KioskConfig:
    """Read and validate a config file; ``None`` gives the built-in default."""
    if path is None:
        config = KioskConfig()
        config.game_settings(config.game)
        return config
    from engine.untrusted import parse_yaml

    where = str(path)
    try:
        text = Path(path).read_bytes()
    except FileNotFoundError:
        raise ConfigError(
            f"{where}: no such config file; write one with `dealer-assist kiosk --write-config {where}`"
        ) from None
    try:
        data = parse_yaml(text, where)
    except InputError as error:
        raise ConfigError(str(error)) from None
    return config_from_data({} if data is None else data, where)


def config_from_data(data: Any, where: str = "config") -> KioskConfig:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where}: the config is a mapping of keys ({', '.join(sorted(_TOP))})")
    _known(data, _TOP, where, "")
    values: dict[str, Any] = {"source": where}
    for key in ("table_id", "kiosk_id"):
        if key in data:
            value = data[key]
            if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
                raise ConfigError(f"{where}: {key} {value!r}: give a short name such as T1")
            values[key] = str(value).strip()
    if "game" in data:
        if data["game"] not in GAMES:
            raise ConfigError(f"{where}: game {data['game']!r}: allowed {', '.join(GAMES)}")
        values["game"] = data["game"]
    if "language" in data:
        if data["language"] not in LANGUAGES:
            raise ConfigError(f"{where}: language {data['language']!r}: allowed {', '.join(LANGUAGES)}")
        values["language"] = data["language"]
    if "sound" in data:
        if not isinstance(data["sound"], bool):
            raise ConfigError(f"{where}: sound {data['sound']!r}: write true or false")
        values["sound"] = data["sound"]
    for old in ("supervisor_pin_sha256", "supervisor_pin"):
        if old in data:
            raise ConfigError(
                f"{where}: {old} is no longer accepted (one shared PIN, unsalted, is guessed from the file in "
                f"seconds): delete that line and give each supervisor their own PIN with `dealer-assist kiosk "
                f"--config {where} --add-supervisor ID`"
            )
    if "supervisors" in data:
        values["supervisors"] = _supervisors(data["supervisors"], where)
    if "dealers" in data:
        values["dealers"] = _dealers(data["dealers"], where)
    if "shake_timeout_s" in data:
        timeout = data["shake_timeout_s"]
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 1 <= timeout <= 120:
            raise ConfigError(f"{where}: shake_timeout_s {timeout!r}: seconds from 1 to 120")
        values["shake_timeout_s"] = float(timeout)
    if "default_bet" in data:
        bet = data["default_bet"]
        if isinstance(bet, bool) or not isinstance(bet, int) or bet < 1:
            raise ConfigError(f"{where}: default_bet {bet!r}: a whole number of chips, at least 1")
        values["default_bet"] = bet
    if "devices" in data:
        values["devices"] = _devices(data["devices"], where)
    if "camera" in data:
        values["camera"] = _camera(data["camera"], where)
    if "evidence" in data:
        values["evidence"] = _evidence(data["evidence"], where)
    if "journal" in data:
        values["journal"] = _journal(data["journal"], where)
    games: dict[str, Mapping[str, Any]] = dict(KioskConfig().games)
    if "games" in data:
        section = data["games"]
        if not isinstance(section, Mapping):
            raise ConfigError(f"{where}: games: a mapping of game name to its settings")
        _known(section, set(GAMES), where, "games.")
        for name, settings in section.items():
            if settings is None:
                settings = {}
            if not isinstance(settings, Mapping):
                raise ConfigError(f"{where}: games.{name}: a mapping of settings")
            games[name] = dict(settings)
            if name == "baibuu" and isinstance(settings.get("house_way"), str):
                games[name]["house_way"] = _posted_house_way(settings["house_way"], where)
    values["games"] = games
    config = KioskConfig(**values)
    for name in GAMES:
        config.game_settings(name)
    if config.game == "baibuu":
        settings = config.game_settings("baibuu")
        problem = settings.check_bet(config.default_bet)
        if problem:
            raise ConfigError(f"{where}: default_bet: {problem}")
    return config


def _posted_house_way(name: str, where: str) -> Any:
    """The casino's posted house way, from a JSON file named beside the config (checked by the engine later)."""
    from engine.untrusted import parse_json

    path = Path(name) if Path(name).is_absolute() else Path(where).parent / name
    try:
        text = path.read_bytes()
    except OSError as error:
        raise ConfigError(
            f"{where}: games.baibuu.house_way: cannot read {path} ({error.strerror}); name the casino's posted "
            "house-way JSON file, relative to this config"
        ) from None
    try:
        return parse_json(text, str(path))
    except InputError as error:
        raise ConfigError(f"{where}: games.baibuu.house_way: {error}") from None


def _supervisors(data: Any, where: str) -> dict[str, str]:
    from kiosk.supervisors import supervisor_id_problem

    return _pin_holders(data, where, "supervisor", supervisor_id_problem)


def _dealers(data: Any, where: str) -> dict[str, str]:
    from kiosk.supervisors import dealer_id_problem

    return _pin_holders(data, where, "dealer", dealer_id_problem)


def _pin_holders(data: Any, where: str, role: str, id_problem: Callable[[str], str | None]) -> dict[str, str]:
    """The ``supervisors`` or ``dealers`` section (``role``): each ID checked by ``id_problem``, each PIN hash
    checked as one a PIN can match."""
    from kiosk.supervisors import pin_hash_problem

    section = role + "s"
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where}: {section}: a mapping of {role} ID to PIN hash (`--add-{role} ID`)")
    holders: dict[str, str] = {}
    for key, digest in data.items():
        name = str(key)
        problem = id_problem(name)
        if problem:
            raise ConfigError(f"{where}: {section}.{name}: {problem}")
        problem = pin_hash_problem(digest)
        if problem:
            raise ConfigError(f"{where}: {section}.{name}: {problem}; no PIN could match it: set the PIN again with "
                              f"`dealer-assist kiosk --config {where} --add-{role} {name}`")
        holders[name] = digest
    return holders


def _devices(data: Any, where: str) -> DeviceConfig:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where}: devices: a mapping with {', '.join(sorted(_DEVICES))}")
    _known(data, _DEVICES, where, "devices.")
    device = DeviceConfig()
    values: dict[str, Any] = {}
    for key in ("shaker", "panel"):
        if key in data:
            value = data[key]
            if not isinstance(value, str) or not value.strip():
                raise ConfigError(
                    f"{where}: devices.{key} {value!r}: 'simulated', 'none', or a serial port such as /dev/ttyUSB0"
                )
            values[key] = value.strip()
    if "baud" in data:
        if data["baud"] not in _BAUDS:
            raise ConfigError(f"{where}: devices.baud {data['baud']!r}: allowed {', '.join(map(str, _BAUDS))}")
        values["baud"] = data["baud"]
    if "seed" in data:
        seed = data["seed"]
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ConfigError(f"{where}: devices.seed {seed!r}: a whole number, or null for random dice")
        values["seed"] = seed
    for key in ("shaker_serial", "panel_serial"):
        if key in data:
            value = data[key]
            if value is not None and (not isinstance(value, str) or not re.fullmatch(r"[!-~]{1,24}", value)):
                raise ConfigError(
                    f"{where}: devices.{key} {value!r}: the unit's serial number as `dealer-assist devices` shows it "
                    "(e.g. SK-000123), or null for any paired unit"
                )
            values[key] = value
    if "allow_version_2" in data:
        if not isinstance(data["allow_version_2"], bool):
            raise ConfigError(
                f"{where}: devices.allow_version_2 {data['allow_version_2']!r}: true or false (true takes dice and "
                "buttons from devices that cannot prove who they are)"
            )
        values["allow_version_2"] = data["allow_version_2"]
    return replace(device, **values)


def _camera(data: Any, where: str) -> CameraConfig:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where}: camera: a mapping with {', '.join(sorted(_CAMERA))}")
    _known(data, _CAMERA, where, "camera.")
    values: dict[str, Any] = {}
    if "source" in data:
        values["source"] = str(data["source"]).strip()
        if not values["source"]:
            raise ConfigError(f"{where}: camera.source: 'synthetic', a camera number, a video file or a stream URL")
    if "layout" in data:
        layout = data["layout"]
        if not isinstance(layout, str) or not layout.strip():
            raise ConfigError(f"{where}: camera.layout: a layout name (baibuu_7) or a layout YAML file")
        values["layout"] = layout.strip()
    if "calibration" in data:
        calibration = data["calibration"]
        if calibration is not None and not isinstance(calibration, str):
            raise ConfigError(f"{where}: camera.calibration: a calibration file path, or null")
        values["calibration"] = calibration
    if "reader" in data:
        if data["reader"] not in ("model", "placement"):
            raise ConfigError(f"{where}: camera.reader {data['reader']!r}: 'model' or 'placement'")
        values["reader"] = data["reader"]
    if "keep_still" in data:
        if not isinstance(data["keep_still"], bool):
            raise ConfigError(f"{where}: camera.keep_still {data['keep_still']!r}: true or false")
        values["keep_still"] = data["keep_still"]
    camera = replace(CameraConfig(), **values)
    if camera.reader == "placement" and camera.source != SYNTHETIC:
        raise ConfigError(
            f"{where}: camera.reader placement reads only the synthetic table; a real camera needs reader: model"
        )
    return camera


_EVIDENCE = {"format", "quality", "retention_days", "max_mb"}


def _evidence(data: Any, where: str) -> EvidenceConfig:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where}: evidence: a mapping with {', '.join(sorted(_EVIDENCE))}")
    _known(data, _EVIDENCE, where, "evidence.")
    values: dict[str, Any] = {}
    if "format" in data:
        if data["format"] not in ("jpeg", "webp"):
            raise ConfigError(f"{where}: evidence.format {data['format']!r}: 'jpeg' or 'webp'")
        values["format"] = data["format"]
    if "quality" in data:
        quality = data["quality"]
        if isinstance(quality, bool) or not isinstance(quality, int) or not 1 <= quality <= 100:
            raise ConfigError(
                f"{where}: evidence.quality {quality!r}: a whole number from 1 (smallest files) to 100 (best picture)"
            )
        values["quality"] = quality
    if "retention_days" in data:
        days = data["retention_days"]
        if days is not None and (isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 36500):
            raise ConfigError(
                f"{where}: evidence.retention_days {days!r}: whole days from 1, or null to keep frames for ever"
            )
        values["retention_days"] = days
    if "max_mb" in data:
        cap = data["max_mb"]
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int | float) or not 1 <= cap <= 10**7):
            raise ConfigError(
                f"{where}: evidence.max_mb {cap!r}: megabytes from 1 (a few frames) up, or null for no size cap"
            )
        values["max_mb"] = None if cap is None else float(cap)
    return replace(EvidenceConfig(), **values)


def _journal(data: Any, where: str) -> JournalConfig:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where}: journal: a mapping with key and anchors (file paths)")
    _known(data, {"key", "anchors", "floor"}, where, "journal.")
    values: dict[str, str | None] = {}
    for name in ("key", "anchors"):
        value = data.get(name)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ConfigError(f"{where}: journal.{name} {value!r}: a file path (on another volume), or null")
        values[name] = None if value is None else value.strip()
    floor = data.get("floor")
    if floor is not None and (not isinstance(floor, str) or ("=" not in floor and "://" not in floor)):
        raise ConfigError(f"{where}: journal.floor {floor!r}: the floor's DSN ('host=… dbname=… user=… "
                          "password=…', given by `dealer-assist floor add-kiosk`), or null")
    values["floor"] = None if floor is None else floor.strip()
    return JournalConfig(**values)


def _known(data: Mapping[str, Any], known: set[str], where: str, prefix: str) -> None:
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        raise ConfigError(f"{where}: unknown key {prefix}{unknown[0]}; known keys: {', '.join(sorted(known))}")


def write_config(config: KioskConfig, path: str | Path) -> None:
    import yaml

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    header = "# dealer-assist kiosk configuration (see README, 'The kiosk'). Every key is optional.\n"
    temporary = target.with_suffix(target.suffix + ".tmp")
    temporary.write_text(
        header + yaml.safe_dump(config.to_yaml_data(), sort_keys=False, allow_unicode=True), encoding="utf-8"
    )
    os.replace(temporary, target)
