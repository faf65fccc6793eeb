"""The kiosk's side of the parts: serial devices (``hardware``) and the camera (``vision``), in one small module.

Nothing here knows a game rule: it opens the parts the config names, turns their events into the controller's
calls, and reports their health for the status bar.
"""

from __future__ import annotations

import os
import queue
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.clock import Clock
from kiosk.config import SIMULATED, SYNTHETIC, KioskConfig
from kiosk.controller.view import CardRead, Health
from kiosk.evidence import EvidenceFrame, FrameEncoding
from kiosk.i18n import TEXTS, Msg


@dataclass
class LinkHealth:
    health: Health = Health.OFF
    detail: str = ""
    words: Msg | None = None
    """The detail as the supervisor's screen words it, in its language."""


@dataclass(frozen=True)
class Refusal:
    """A device that did not prove it holds its paired key: what the dealer's screen and the journal say."""

    device: str
    serial: str
    reason: str


class Devices:
    """The shaker and the button panel: real ports, or the built-in simulator on a pty pair.

    Every link is authenticated (protocol 3): a real device must be paired (its key in ``keys_file``); the
    simulated ones are paired with a key made for this run, which is kept in memory only."""

    def __init__(self, config: KioskConfig, keys_file: Path | None = None) -> None:
        from hardware import DeviceKind
        from hardware.client import DeviceClient
        from hardware.keystore import KeyFileError, load_keys

        self.events: queue.Queue[Any] = queue.Queue()
        self.sim: Any = None
        self.shaker: Any = None
        self.panel: Any = None
        self.links: dict[str, LinkHealth] = {"shaker": LinkHealth(), "panel": LinkHealth()}
        self.refusals: dict[str, Refusal] = {}
        """Devices refused as not authenticated, until they come up authenticated (the dealer's screen says it)."""
        self.unauthenticated_in_use: set[str] = set()
        """Devices up on protocol 2, allowed by ``devices.allow_version_2`` (every screen says so)."""
        wanted = {"shaker": config.devices.shaker, "panel": config.devices.panel}
        ports = dict(wanted)
        self.key_problem: str | None = None
        """Why the paired keys could not be read (every real device is then refused as not paired)."""
        keys: dict[str, bytes] = {}
        if keys_file is not None:
            try:
                keys = dict(load_keys(keys_file))
            except KeyFileError as error:
                self.key_problem = str(error)
        if SIMULATED in wanted.values():
            from hardware.sim import start_simulated_devices

            shaker_port, panel_port, self.sim = start_simulated_devices(
                seed=config.devices.seed, baud=config.devices.baud
            )
            keys.update(self.sim.keys)  # paired for this run: the key never leaves this process
            ports = {
                "shaker": shaker_port if wanted["shaker"] == SIMULATED else wanted["shaker"],
                "panel": panel_port if wanted["panel"] == SIMULATED else wanted["panel"],
            }
        kinds = {"shaker": DeviceKind.SHAKER, "panel": DeviceKind.PANEL}
        serials = {"shaker": config.devices.shaker_serial, "panel": config.devices.panel_serial}
        for name in ("shaker", "panel"):
            if wanted[name].lower() == "none":
                continue
            self.links[name] = LinkHealth(Health.WARN, "connecting", Msg("device.connecting"))
            client = DeviceClient(
                ports[name], name=name, events=self.events, expect_kind=kinds[name], baudrate=config.devices.baud,
                keys=keys, allow_v2=config.devices.allow_version_2,
                expect_serial=serials[name] if wanted[name] != SIMULATED else None,
            )
            setattr(self, name, client)

    def shake(self) -> int | None:
        """Start a shake; None when the shaker is offline (the dealer then shakes again or enters the dice)."""
        if self.shaker is None or not self.shaker.connected:
            return None
        return int(self.shaker.shake())

    def press(self, button: str) -> None:
        """Press a button on the simulated panel (the demo's autoplay and the tests)."""
        if self.sim is None:
            raise RuntimeError("only the simulated panel can be pressed from the program")
        self.sim.press(button)

    def drain(self) -> list[Any]:
        """Device events since the last call; link events also update the health shown."""
        from hardware import DeviceFault, DeviceStatus, LinkDown, LinkUp

        events = []
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                break
            link = self.links.get(getattr(event, "source", ""))
            if link is not None:
                if isinstance(event, LinkUp):
                    link.health, link.detail = (
                        Health.OK if event.authenticated else Health.WARN,
                        f"{event.identity.kind} {event.identity.firmware} on {event.port}",
                    )
                    link.words = Msg("device.up", {"firmware": event.identity.firmware})
                    self.refusals.pop(event.source, None)
                    if event.authenticated:
                        self.unauthenticated_in_use.discard(event.source)
                    else:
                        self.unauthenticated_in_use.add(event.source)
                elif isinstance(event, LinkDown) and event.source in self.refusals:
                    pass  # dropped because it was refused: the refusal is what the screens keep saying
                elif isinstance(event, LinkDown):
                    link.health, link.detail = Health.DOWN, event.reason
                    link.words = Msg("device.down")
                elif isinstance(event, DeviceFault) and event.code == "NOT_AUTHENTICATED":
                    link.health, link.detail = Health.DOWN, event.message
                    link.words = Msg("device.fault.not_authenticated")
                    self.refusals[event.source] = Refusal(event.source, event.serial, event.message)
                elif isinstance(event, DeviceFault):
                    link.health, link.detail = Health.WARN, event.message
                    fault = f"device.fault.{event.code.lower()}"
                    link.words = Msg(fault) if fault in TEXTS else Msg("device.fault", {"code": event.code})
                elif isinstance(event, DeviceStatus) and link.health is not Health.DOWN:
                    fine = event.state.value in ("READY", "SHAKING") and event.source not in self.unauthenticated_in_use
                    link.health = Health.OK if fine else Health.WARN
                    link.detail = event.state.value
                    state = f"device.state.{event.state.value.lower()}"
                    link.words = Msg(state) if state in TEXTS else Msg("device.state", {"state": event.state.value})
            events.append(event)
        return events

    def port_words(self, port: str) -> Msg | str:
        """What a device's port is, for a person: the simulator, or the serial adapter's own description and its
        device name (``FT232R USB UART (ttyUSB0)``), never a temporary pseudo-terminal's path."""
        if self.sim is not None:
            return Msg("device.port.simulated")
        from serial.tools import list_ports

        real = os.path.realpath(port)
        for found in list_ports.comports():
            if os.path.realpath(found.device) == real and found.description not in ("", "n/a"):
                return f"{found.description} ({os.path.basename(found.device)})"
        return os.path.basename(real) if real.startswith("/dev/") else port

    def diagnostics(self) -> list[Msg]:
        """A line per device for the supervisor: its health, what it last said, its port and the link's counters."""
        lines = []
        for name in ("shaker", "panel"):
            client = getattr(self, name)
            link = self.links[name]
            device = Msg(f"status.{name}")
            if client is None:
                lines.append(Msg("sup.device_unused", {"device": device}))
                continue
            counters = client.counters
            lines.append(
                Msg(
                    "sup.device_line",
                    {
                        "device": device,
                        "health": Msg(f"health.{link.health.value}"),
                        "detail": link.words or link.detail,
                        "port": self.port_words(client.port_name),
                        "retries": counters.retries,
                        "crc": counters.crc_errors,
                        "duplicates": counters.duplicates,
                        "timeouts": counters.timeouts,
                        "reconnects": counters.reconnects,
                        "faults": counters.dice_faults,
                        "refused": counters.refused,
                        "unauthenticated": counters.unauthenticated,
                    },
                )
            )
        return lines

    def close(self) -> None:
        for client in (self.shaker, self.panel):
            if client is not None:
                client.close()
        if self.sim is not None:
            self.sim.stop()


@dataclass
class CameraState:
    health: Health = Health.WARN
    detail: str = "starting"
    frame_number: int = -1
    reads: Mapping[str, tuple[CardRead, ...]] = field(default_factory=dict)
    taken_at: float | None = None
    """Clock seconds when the frame behind ``reads`` was asked of the camera."""
    frame: EvidenceFrame | None = None
    """The camera frame ``reads`` were read from (kept as evidence when a reading is journaled)."""
    words: Msg | str | None = None
    """The detail as a screen words it in its language (None: the detail as it is)."""


def source_words(name: str) -> Msg | str:
    """A camera source's name for a screen: the synthetic table and a numbered camera worded, a file's path as is."""
    synthetic = re.fullmatch(r"synthetic table \((\S+)\)", name)
    if synthetic:
        return Msg("camera.source.synthetic", {"layout": synthetic.group(1)})
    numbered = re.fullmatch(r"camera (\d+)", name)
    if numbered:
        return Msg("camera.source.device", {"number": int(numbered.group(1))})
    return name


def source_status_words(name: str, state: str, reason: str = "") -> Msg:
    """A camera source that gives no frames, for a screen: which source and why (the English detail, with its
    retry timing, stays in the camera's ``detail``)."""
    key = f"camera.source_{state}" if f"camera.source_{state}" in TEXTS else "camera.source_lost"
    why = f"camera.why.{reason.replace(' ', '_')}"
    return Msg(key, {"source": source_words(name), "why": Msg(why) if why in TEXTS else reason})


def problem_words(problem: str) -> Msg:
    """Why the camera's view of the table cannot be read (``TableReader``'s problem), for a screen."""
    if problem.startswith("no frame"):
        return Msg("camera.no_frame")
    if problem.startswith("not calibrated"):
        return Msg("camera.not_calibrated")
    if problem.startswith("the calibration was made on"):
        return Msg("camera.calibration_size")
    return Msg("camera.problem")


class Camera:
    """The overhead camera read in a background thread: zones' stable cards, and the annotated live view."""

    def __init__(self, config: KioskConfig, clock: Clock, read: Any = None) -> None:
        from vision.layout import load_layout
        from vision.sources import SyntheticTableSource, open_source
        from vision.still_tiles import StillSettings
        from vision.table_reader import TableReader

        self.layout = load_layout(config.camera.layout)
        calibration = None
        if config.camera.calibration:
            from vision.calibration import Calibration

            calibration = Calibration.load(config.camera.calibration)
        if config.camera.source == SYNTHETIC:
            self.source: Any = SyntheticTableSource(self.layout, clock=clock)
        else:
            self.source = open_source(config.camera.source, layout=self.layout, clock=clock)
        self.synthetic = isinstance(self.source, SyntheticTableSource)
        self.read_error: str | None = None
        self._lock = threading.Lock()
        self.fallback: str | None = None
        if read is None and self.synthetic and config.camera.reader == "placement":
            from vision.placed_reader import PlacedReader

            read = PlacedReader(self.source)
            self.fallback = "demo: the felt is read by where the cards were placed (camera.reader: placement)"
        if read is None and self.synthetic:
            problem = _model_problem()
            if problem is not None:
                # The demo table without a shipped model: read the rendered felt by where cards were placed,
                # and say so on the status bar, rather than show a table nobody can play.
                from vision.placed_reader import PlacedReader

                read = PlacedReader(self.source)
                self.fallback = f"{problem}: the demo felt is read by where the cards were placed"
        reader_read = read if read is not None else self._read_with_model
        from vision.table_reader import ReadView

        # A reader given from outside (tests, replays) reads whole frames; the shipped model reads the table view.
        view = ReadView(mode="frame") if read is not None else None
        self.reader = TableReader(
            self.source, layout=self.layout, calibration=calibration, read=reader_read, clock=clock, view=view,
            still=StillSettings(enabled=config.camera.keep_still),
        )
        self.frames_read = 0
        self.warm_up_s: float | None = None
        """Seconds the shipped model took to read its warm-up frame at start (None: not yet, or another reader)."""
        self.frame_arrived_at: float | None = None
        self.encoding = FrameEncoding(config.evidence.format, config.evidence.quality)

    def _read_with_model(self, frame: Any) -> Any:
        import vision

        try:
            if self.warm_up_s is None:  # the first frame after start: the models read cards once before the table
                from vision.warm_up import warm_up

                self.warm_up_s = warm_up(vision.read, like=frame)
            detections = vision.read(frame)
        except Exception as error:  # no model shipped yet, a broken model file: say so, keep the kiosk up
            self.read_error = f"card reader unavailable: {error}"
            return []
        self.read_error = None
        return detections

    def start(self) -> None:
        self.reader.start(idle_s=0.1)

    def forget(self, since: float) -> None:
        """A new round's shake: cards on the felt count again only once frames asked for from ``since`` on show them."""
        self.reader.forget(since)

    def state(self) -> CameraState:
        snapshot, seen = self.reader.published()
        status = self.source.status
        words: Msg | str | None = None
        if not status.ok:
            health, detail = Health.DOWN, status.message
            words = source_status_words(getattr(self.source, "name", "camera"), status.state, status.reason)
        elif self.read_error:
            health, detail = Health.DOWN, self.read_error
            words = Msg("camera.read_error")
        elif self.fallback:
            health, detail = Health.WARN, self.fallback
            words = Msg("camera.fallback")
        elif snapshot.problem:
            health, detail = Health.WARN, snapshot.problem
            words = problem_words(snapshot.problem)
        else:
            health, detail = Health.OK, f"{self.source.name if hasattr(self.source, 'name') else 'camera'}"
            words = source_words(detail)
        reads = {
            name: tuple(CardRead(c.card, c.confidence, _flags(c.flags, zone.flags), alternatives=c.alternatives)
                        for c in zone.cards)
            for name, zone in snapshot.zones.items()
            if zone.cards
        }
        frame = EvidenceFrame(seen, self.encoding) if seen is not None else None
        return CameraState(
            health, detail, snapshot.frame, reads, frame=frame, taken_at=snapshot.taken_at, words=words
        )

    def annotated(self) -> Any:
        if self.reader.last_frame is None:
            return None
        return self.reader.annotate()

    def close(self) -> None:
        self.reader.stop()
        self.source.close()


def _model_problem() -> str | None:
    """Why the shipped card reader cannot be used, or None when it loads."""
    try:
        from vision.reader import default_reader

        default_reader()
    except Exception as error:  # a missing or broken model: the caller decides what to do
        return str(error).split(";")[0]
    return None


def _flags(card_flags: frozenset[str], zone_flags: frozenset[str]) -> frozenset[str]:
    # a zone holding too many cards casts doubt on every card in it
    return frozenset(card_flags) | (frozenset({"too_many"}) if zone_flags else frozenset())
