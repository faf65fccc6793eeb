"""Where the kiosk keeps its journal, the journal's key and its anchors, and what a production config must not do.

The embedded demo keeps all three in the data folder. A kiosk with real devices must not: whoever copies that
folder holds the key and can rewrite the journal with every hash recomputed, and an anchor beside the journal is
rolled back together with it. ``dealer-assist kiosk --check`` refuses such a config.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from engine.phrases import PhraseTemplate
from journal.anchors import AnchorFile, AnchorSink
from journal.errors import JournalError
from journal.events import Note
from journal.store import Journal, Recovery
from journal.words import ANCHORS, phrase_of
from kiosk.config import SIMULATED, SYNTHETIC, KioskConfig

# What a production config must not do: refused by ``--check``, and the journal light's detail on the screen.
KEY_BESIDE_JOURNAL = PhraseTemplate(
    "place.key_beside_journal",
    "journal.key: the journal's key {key} is in the journal's folder: whoever copies that folder can rewrite the "
    "journal and recompute every hash; set journal.key to a file on another volume that only the kiosk's user can "
    "read (chmod 600)",
)
KEY_SHARED = PhraseTemplate("place.key_shared", "journal.key {key} may be read or written by others: chmod 600 {key}")
ANCHORS_BESIDE_JOURNAL = PhraseTemplate(
    "place.anchors_beside_journal",
    "journal.anchors {anchors} is in the journal's folder: an anchor beside the journal is rolled back with it; put "
    "it on another volume",
)

JOURNAL_FILE = "journal.sqlite3"
DEMO_KEY_FILE = "kiosk.key"


def journal_path(data_dir: Path) -> Path:
    return data_dir / JOURNAL_FILE


def key_path(config: KioskConfig, data_dir: Path) -> Path:
    return Path(config.journal.key) if config.journal.key else data_dir / DEMO_KEY_FILE


def device_keys_path(config: KioskConfig, data_dir: Path) -> Path:
    """The devices' paired keys: beside the journal's key, by the same rules (``hardware.keystore``)."""
    from hardware.keystore import FILE_NAME

    return key_path(config, data_dir).parent / FILE_NAME


def anchor_sink(config: KioskConfig) -> AnchorSink | None:
    """The anchor file, the floor, both, or none (as the config says)."""
    file_sink = AnchorFile(config.journal.anchors) if config.journal.anchors else None
    if config.journal.floor:
        from floor.kiosk_link import floor_anchors

        return floor_anchors(config.journal.floor, file_sink)
    return file_sink


def start_floor_shipping(config: KioskConfig, data_dir: Path) -> Any:
    """Ship the journal to the floor in a background thread when the config names one (``journal.floor``); the
    thread (a ``floor.shipper.ShipperThread``: ``.shipper.status()``, ``.stop()``) or None. Play never waits for
    it: it reads the journal on its own connection and retries an unreachable floor by itself."""
    if not config.journal.floor:
        return None
    from floor.kiosk_link import start_shipping

    return start_shipping(journal_path(data_dir), config.journal.floor)


def is_production(config: KioskConfig) -> bool:
    """A config with a real device or camera: one a casino runs, not the demo."""
    devices = {config.devices.shaker, config.devices.panel} - {SIMULATED, "none"}
    return bool(devices) or config.camera.source != SYNTHETIC


def placement_problems(config: KioskConfig, data_dir: Path) -> tuple[list[str], list[str]]:
    """(refusals, warnings) about where the key and the anchors are; a demo config gets warnings only."""
    refusals: list[str] = []
    warnings: list[str] = []
    production = is_production(config)
    key = key_path(config, data_dir)
    data = _real(data_dir)
    if _real(key.parent) == data:
        text: str = KEY_BESIDE_JOURNAL(key=key)
        (refusals if production else warnings).append(text if production else "demo only: " + text)
    elif _same_volume(key.parent, data_dir):
        warnings.append(f"journal.key {key} is on the same volume as the journal: another volume (a separate "
                        "partition, a removable key) keeps it when the journal's disk is copied")
    if key.is_file() and os.stat(key).st_mode & 0o077:
        refusals.append(KEY_SHARED(key=key))
    device_keys = device_keys_path(config, data_dir)
    if device_keys.is_file() and os.stat(device_keys).st_mode & 0o077:
        refusals.append(f"the devices' paired keys {device_keys} may be read or written by others: whoever reads "
                        f"them can pass for the shaker and the panel; chmod 600 {device_keys} and pair them again")
    if config.journal.anchors is None:
        text = ("journal.anchors is not set: a journal swapped for an older copy, cut short or rewritten with the "
                "key would not show; set it to an append-only file on another volume")
        warnings.append(text if production else "demo only: " + text)
    else:
        anchors = Path(config.journal.anchors)
        if _real(anchors.parent) == data:
            text = ANCHORS_BESIDE_JOURNAL(anchors=anchors)
            (refusals if production else warnings).append(text)
        elif not anchors.parent.is_dir():
            warnings.append(f"journal.anchors: the folder {anchors.parent} does not exist (is its volume mounted?): "
                            "the kiosk plays on, warning at every round that no anchor is kept")
    return refusals, warnings


def print_placement(config: KioskConfig, data_dir: Path) -> bool:
    """For ``--check``: say what is wrong with where the key and anchors are; False when the config is refused."""
    refusals, warnings = placement_problems(config, data_dir)
    for line in refusals:
        print(f"{config.source}: REFUSED: {line}")
    for line in warnings:
        print(f"{config.source}: warning: {line}")
    return not refusals


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _same_volume(a: Path, b: Path) -> bool:
    try:
        return os.stat(a).st_dev == os.stat(b).st_dev
    except OSError:
        return False



def recover_anchored(journal: Journal) -> Recovery:
    """``journal.recover()``, once the journal is found to continue this kiosk's own anchors; else play stops and
    nothing is written to it (it is evidence). Then the start is anchored.

    A journal the kiosk has just begun is in none of the anchors of the one before it: that is noted, not refused.
    """
    sink = _anchor_file(journal)
    begun_anew = False
    if sink is not None and sink.path.exists():
        try:
            check = journal.check_anchors([sink.path])
        except JournalError as error:  # unreadable: the anchor that follows fails too, and notes it
            journal.anchor_problem = phrase_of(error)
        else:
            begun_anew = not check.ok and check.verdict == "not in the anchors" and journal.created
            if not check.ok and not begun_anew:
                report = journal.verify()
                if not report.ok:  # the chain's own fault is the one to name; recover() writes nothing then
                    return journal.recover()
                problem = check.problem or ANCHORS["not_continued"]()
                journal.refuse(problem)
                return Recovery(False, report.events, problem)
    recovery = journal.recover()
    if recovery.sound:
        if begun_anew:
            where = sink.where if sink is not None else "the anchors"
            journal.append(Note(f"a new journal was begun: the anchors in {where} before this one's are of the "
                                "journal before it", by="kiosk"))
        journal.anchor("kiosk started")
    return recovery


def _anchor_file(journal: Journal) -> AnchorFile | None:
    """The kiosk's anchor file, alone or beside the floor (``floor.kiosk_link.BothAnchors``)."""
    sinks = getattr(journal.anchors, "sinks", (journal.anchors,))
    return next((sink for sink in sinks if isinstance(sink, AnchorFile)), None)


def anchors_problem(journal: Journal) -> str | None:
    """Why the journal does not continue this kiosk's anchors (VERIFY JOURNAL on the supervisor screen), or None."""
    sink = _anchor_file(journal)
    if sink is None or not sink.path.exists():
        return None
    try:
        check = journal.check_anchors([sink.path])
    except JournalError:  # unreadable is no proof of anything: the journal light already says why
        return None
    if check.ok or (check.verdict == "not in the anchors" and journal.created):
        return None
    return check.problem
