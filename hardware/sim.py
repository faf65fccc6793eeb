"""Simulated shaker and panel on real pseudo-terminal pairs, with fault injection and a seed.

Each simulated device drives the master side of a pty; the host opens the slave side like any serial port,
through a stable symlink (``<dir>/shaker``, ``<dir>/panel``) that survives a simulated unplug and replug, the way
``/dev/serial/by-id/…`` does for a real USB device. One background thread serves all the devices.

The line rate is emulated: a frame of n bytes reaches the other side n × 10 / baud seconds after it was sent,
so latency figures at 9600 and 115200 baud mean something even though a pty has no baud rate.

The simulated devices speak protocol 3: each holds the paired key it was given (``key=``; the kiosk's embedded
default makes one for the session and gives it to both sides), or none, and can be put in pairing mode as a person
at the device would (``power_up_pairing()``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import selectors
import tempfile
import threading
import time
import tty
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from hardware.device import DeviceEngine, DeviceTiming, ForcedDice
from hardware.events import Button, DeviceIdentity, DeviceKind, DeviceState


@dataclass(frozen=True, slots=True)
class FaultPlan:
    """Random faults, each a probability per frame (or per shake); all off by default."""

    garbage: float = 0.0
    """Random junk bytes written before an outgoing frame."""
    drop: float = 0.0
    """A frame lost on the wire, in either direction."""
    corrupt: float = 0.0
    """A frame with one byte changed on the wire, in either direction (the CRC catches it)."""
    duplicate: float = 0.0
    """An outgoing frame sent twice."""
    invalid_die: float = 0.0
    """A shake that reads a die as 7 (outside 1–6)."""
    missing_die: float = 0.0
    """A shake that reads only two dice (the third is reported missing, ``-``)."""
    jam: float = 0.0
    """A shake that jams half-way: it ends in ``DICE … ERR JAMMED`` and the shaker stays jammed until made
    ready (``set_state(DeviceState.READY)``, or ``ready`` typed to ``dealer-assist device-sim``)."""
    disconnect_every: float | None = None
    """Unplug the device every so many seconds, and plug it back in 0.3 s later."""

    def __post_init__(self) -> None:
        for name in ("garbage", "drop", "corrupt", "duplicate", "invalid_die", "missing_die", "jam"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"fault rate {name}={value} must be between 0 and 1")
        if self.disconnect_every is not None and self.disconnect_every <= 0:
            raise ValueError("disconnect_every must be a positive number of seconds")


class SimulatedDevice:
    """One device on its own pty. Use its methods from any thread; they take effect on the simulator thread."""

    def __init__(
        self,
        simulator: Simulator,
        name: str,
        identity: DeviceIdentity,
        link_path: Path,
        seed: int | None,
        faults: FaultPlan,
        timing: DeviceTiming,
        baud: int,
        key: bytes | None = None,
        version: int = 3,
    ) -> None:
        self.name = name
        self.link_path = link_path
        self.faults = faults
        self.baud = baud
        self._sim = simulator
        self._rng = random.Random(None if seed is None else seed + 1)
        # Per-shake faults draw from their own generator, so that the same seed gives the same faults on the same
        # shakes however many frames (heartbeats, retries) went by in between.
        self._shake_rng = random.Random(None if seed is None else seed + 2)
        self.engine = DeviceEngine(
            identity, random.Random(seed), timing, now=time.monotonic(), key=key, version=version
        )
        self._master: int | None = None
        self._slave: int | None = None
        self._tx: deque[tuple[float, bytes]] = deque()
        self._tx_free_at = 0.0
        self._rx: deque[tuple[float, bytes]] = deque()
        self._drop_in = 0
        self._drop_out = 0
        self._corrupt_in = 0
        self._corrupt_out = 0
        self._fault_only: str | None = None
        self._deferred_presses: list[tuple[Button, float]] = []
        self._replug_at: float | None = None
        self._shakes_seen = 0
        self._jam_at: float | None = None
        self._next_disconnect = (
            time.monotonic() + faults.disconnect_every if faults.disconnect_every is not None else None
        )
        self.plugged = False

    @property
    def port(self) -> str:
        """The path to open: a symlink to the current pty slave."""
        return str(self.link_path)

    # --- controls -----------------------------------------------------------------------------------------

    def press(self, button: Button | str, hold: float = 0.05) -> None:
        """Press and release a button (``"CONFIRM"``, ``Button.VOID``, …).

        Before any host has connected, the press waits for it (a real dealer presses once the kiosk is up; a
        press made earlier would be dropped by the host's new session), so tests need not wait for ``LinkUp``.
        """
        pressed = button if isinstance(button, Button) else parse_button(button)
        with self._sim.lock:
            if self.engine.host_seen:
                self.engine.press(pressed, time.monotonic(), hold)
            else:
                self._deferred_presses.append((pressed, hold))
        self._sim.wake()

    def set_state(self, state: DeviceState) -> None:
        with self._sim.lock:
            self.engine.set_state(state, time.monotonic())
        self._sim.wake()

    def force_next_dice(self, values: tuple[int | None, ...] = (), error: str | None = None) -> None:
        """The next shake reports these raw values (``None`` for a missing die) or this error code."""
        with self._sim.lock:
            self.engine.force_next_dice(ForcedDice(values, error))

    def drop_next(self, incoming: int = 0, outgoing: int = 0, only: str | None = None) -> None:
        """Lose the next frames on the wire: ``incoming`` from the host, ``outgoing`` to the host.

        ``only`` limits it to frames of one message type (``"ACK"``, ``"DICE"``, ``"SHAKE"``…).
        """
        with self._sim.lock:
            self._drop_in += incoming
            self._drop_out += outgoing
            self._fault_only = only

    def corrupt_next(self, incoming: int = 0, outgoing: int = 0, only: str | None = None) -> None:
        """Change one byte of each of the next frames (the CRC catches it); ``only`` as for ``drop_next``."""
        with self._sim.lock:
            self._corrupt_in += incoming
            self._corrupt_out += outgoing
            self._fault_only = only

    def send_raw(self, data: bytes) -> None:
        """Write bytes to the host as they are (garbage, a hand-made frame)."""
        with self._sim.lock:
            self._tx.append((time.monotonic(), data))
        self._sim.wake()

    def unplug(self, reboot: bool = False) -> None:
        """Pull the cable: the pty disappears (the host sees an I/O error) and the symlink goes away."""
        with self._sim.lock:
            self._close_pty()
            if reboot:
                self.engine.reboot(time.monotonic())
        self._sim.wake()

    def power_up_pairing(self) -> None:
        """Power the device up with its pairing button held (or the jumper fitted): it takes the next ``PAIR``."""
        with self._sim.lock:
            self.engine.reboot(time.monotonic(), pairing=True)
        self._sim.wake()

    def replug(self) -> None:
        """Plug the cable back in: a fresh pty behind the same symlink."""
        with self._sim.lock:
            if not self.plugged:
                self._open_pty()
        self._sim.wake()

    # --- simulator thread ---------------------------------------------------------------------------------

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing, before anyone opens it
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        temporary = self.link_path.with_name(self.link_path.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        temporary.symlink_to(os.ttyname(slave))
        temporary.replace(self.link_path)
        self._tx.clear()
        self._rx.clear()
        self.plugged = True
        self._sim.register(self, master)

    def _close_pty(self) -> None:
        if self._master is None:
            return
        self._sim.unregister(self._master)
        with contextlib.suppress(FileNotFoundError):
            self.link_path.unlink()
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)  # type: ignore[arg-type]
        self._master = self._slave = None
        self.engine.host_gone()
        self.plugged = False

    def _readable(self, now: float) -> None:
        assert self._master is not None
        try:
            data = os.read(self._master, 4096)
        except BlockingIOError:
            return
        except OSError:
            return
        if data:
            self._rx.append((now + len(data) * 10 / self.baud, data))

    def _step(self, now: float) -> float:
        """Do everything due by ``now``; returns when to come back."""
        if self._next_disconnect is not None and now >= self._next_disconnect and self.plugged:
            self._close_pty()
            self._replug_at = now + 0.3
            assert self.faults.disconnect_every is not None
            self._next_disconnect = now + self.faults.disconnect_every
        if self._replug_at is not None and now >= self._replug_at:
            self._replug_at = None
            self._open_pty()
        while self._rx and self._rx[0][0] <= now:
            _, data = self._rx.popleft()
            self.engine.data_received(self._wire_in(data), now)
            self._shake_faults(now)
        if self._jam_at is not None and now >= self._jam_at:
            self._jam_at = None
            if self.engine.state == DeviceState.SHAKING:
                self.engine.set_state(DeviceState.JAMMED, now)
        if self._deferred_presses and self.engine.host_seen:
            for button, hold in self._deferred_presses:
                self.engine.press(button, now, hold)
            self._deferred_presses.clear()
        self.engine.poll(now)
        for frame in self.engine.frames_to_send():
            self._queue_out(frame, now)
        self._flush(now)
        times = [self.engine.next_deadline()]
        if self._rx:
            times.append(self._rx[0][0])
        if self._tx:
            times.append(self._tx[0][0])
        for extra in (self._replug_at, self._next_disconnect, self._jam_at):
            if extra is not None:
                times.append(extra)
        return min(times)

    def _shake_faults(self, now: float) -> None:
        """Draw the per-shake faults of the plan for a shake the device has just taken."""
        taken = self.engine.counts.shakes_taken
        if taken == self._shakes_seen:
            return
        self._shakes_seen = taken
        faults, rng = self.faults, self._shake_rng
        if faults.jam and rng.random() < faults.jam:
            self._jam_at = now + self.engine.timing.shake_duration / 2
            return
        if self.engine.forced_pending:
            return  # an outcome forced by hand (a test, a typed command) comes first
        dice: list[int | None] = [rng.randint(1, 6) for _ in range(3)]
        if faults.invalid_die and rng.random() < faults.invalid_die:
            dice[rng.randrange(3)] = 7
        elif faults.missing_die and rng.random() < faults.missing_die:
            dice[rng.randrange(3)] = None
        else:
            return
        self.engine.force_next_dice(ForcedDice(tuple(dice)))

    def _wire_in(self, data: bytes) -> bytes:
        """Faults on frames coming from the host (whole frames only: a host writes one frame at a time)."""
        targeted = self._targeted(data)
        if (self._drop_in and targeted) or self._rng.random() < self.faults.drop:
            self._drop_in = max(0, self._drop_in - targeted)
            return b""
        if (self._corrupt_in and targeted) or self._rng.random() < self.faults.corrupt:
            self._corrupt_in = max(0, self._corrupt_in - targeted)
            return _corrupt(data, self._rng)
        return data

    def _targeted(self, frame: bytes) -> int:
        """1 if a one-shot fault aimed at a message type (or at any frame) applies to this frame, else 0."""
        if self._fault_only is None:
            return 1
        words = frame.split(b"*")[0].split(b" ")
        return int(len(words) > 1 and words[1] == self._fault_only.encode())

    def _queue_out(self, frame: bytes, now: float) -> None:
        targeted = self._targeted(frame)
        if (self._drop_out and targeted) or self._rng.random() < self.faults.drop:
            self._drop_out = max(0, self._drop_out - targeted)
            return
        if (self._corrupt_out and targeted) or self._rng.random() < self.faults.corrupt:
            self._corrupt_out = max(0, self._corrupt_out - targeted)
            frame = _corrupt(frame, self._rng)
        if self._rng.random() < self.faults.garbage:
            frame = self._rng.randbytes(self._rng.randint(1, 12)).replace(b"$", b"#") + frame
        copies = 2 if self._rng.random() < self.faults.duplicate else 1
        for _ in range(copies):
            self._tx_free_at = max(self._tx_free_at, now) + len(frame) * 10 / self.baud
            self._tx.append((self._tx_free_at, frame))

    def _flush(self, now: float) -> None:
        while self._tx and self._tx[0][0] <= now:
            _, data = self._tx.popleft()
            if self._master is None:
                continue  # unplugged: the bytes go nowhere
            try:
                os.write(self._master, data)
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EIO):
                    raise


def _corrupt(frame: bytes, rng: random.Random) -> bytes:
    """Change one digit or letter before the CRC to another of its kind: the frame still looks well formed, so
    only the CRC can tell (a one-byte change always changes a CRC-16)."""
    end = frame.find(b"*")
    spots = [i for i in range(1, end if end > 0 else len(frame)) if chr(frame[i]).isalnum()]
    if not spots:
        return frame
    index = rng.choice(spots)
    old = chr(frame[index])
    tag_at = frame.find(b" #")
    if 0 < tag_at < index:
        pool = "0123456789ABCDEF"  # a digit of the tag
    elif old.isdigit():
        pool = "0123456789"
    elif index <= 2:
        pool = "ABCDEF"  # a hex digit of the sequence number
    else:
        pool = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    damaged = bytearray(frame)
    damaged[index] = ord(rng.choice(pool.replace(old, "")))
    return bytes(damaged)


def parse_button(text: str) -> Button:
    """A button from what a person types: ``confirm``, ``CALL``, ``call_supervisor``, ``supervisor``."""
    word = text.strip().upper().replace("-", "_")
    aliases = {"SUPERVISOR": Button.CALL_SUPERVISOR, "CALL_SUPERVISOR": Button.CALL_SUPERVISOR}
    if word in aliases:
        return aliases[word]
    try:
        return Button(word)
    except ValueError:
        names = ", ".join(b.value.lower() for b in Button)
        raise ValueError(f"no button called {text.strip()!r}; the buttons are {names}") from None


class Simulator:
    """Serves simulated devices on one background thread until ``stop()``."""

    def __init__(self, directory: str | Path | None = None) -> None:
        self.lock = threading.RLock()
        self._own_dir = directory is None
        self.directory = Path(tempfile.mkdtemp(prefix="dealer-assist-sim-")) if directory is None else Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.devices: dict[str, SimulatedDevice] = {}
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._stopping = False
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="device-sim", daemon=True)

    def add(
        self,
        name: str,
        kind: DeviceKind,
        *,
        seed: int | None = None,
        faults: FaultPlan | None = None,
        timing: DeviceTiming | None = None,
        baud: int = 115200,
        serial_number: str | None = None,
        key: bytes | None = None,
        version: int = 3,
    ) -> SimulatedDevice:
        if baud <= 0:
            raise ValueError("baud rate must be positive")
        firmware = "sim-3.0" if version >= 3 else "sim-2.0"
        identity = DeviceIdentity(kind, firmware, serial_number or f"SIM-{kind.value[:2]}-{len(self.devices) + 1:04d}")
        device = SimulatedDevice(
            self, name, identity, self.directory / name, seed, faults or FaultPlan(), timing or DeviceTiming(), baud,
            key, version,
        )
        with self.lock:
            self.devices[name] = device
            device._open_pty()
        return device

    def start(self) -> Simulator:
        self._thread.start()
        return self

    def register(self, device: SimulatedDevice, fd: int) -> None:
        self._selector.register(fd, selectors.EVENT_READ, device)

    def unregister(self, fd: int) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(fd)

    def wake(self) -> None:
        with contextlib.suppress(BlockingIOError):
            os.write(self._wake_w, b"!")

    def stop(self) -> None:
        """Stop serving and remove the ports; calling it again does nothing."""
        if self._stopped:
            return
        self._stopped = True
        self._stopping = True
        self.wake()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        with self.lock:
            for device in self.devices.values():
                device._close_pty()
        self._selector.close()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self._own_dir:
            with contextlib.suppress(OSError):
                for leftover in self.directory.iterdir():
                    leftover.unlink()
                self.directory.rmdir()

    def _run(self) -> None:
        next_at = time.monotonic()
        while not self._stopping:
            # Wait without the lock, so that controls from other threads are never held up by the wait.
            ready = self._selector.select(max(0.0, min(next_at - time.monotonic(), 0.5)))
            with self.lock:
                now = time.monotonic()
                for key, _ in ready:
                    if key.data is None:
                        with contextlib.suppress(BlockingIOError):
                            os.read(self._wake_r, 4096)
                    elif key.fd == key.data._master:  # not a pty closed by an unplug meanwhile
                        key.data._readable(now)
                next_at = min((d._step(now) for d in self.devices.values()), default=now + 0.5)


class SimHandle:
    """What ``start_simulated_devices`` gives back: press buttons, inject faults, stop."""

    def __init__(
        self, simulator: Simulator, shaker: SimulatedDevice, panel: SimulatedDevice, key: bytes | None = None
    ) -> None:
        self.simulator = simulator
        self.shaker = shaker
        self.panel = panel
        self.key = key
        """The key both simulated devices were paired with."""

    @property
    def keys(self) -> dict[str, bytes]:
        """The paired keys by serial number, as a host's key file holds them."""
        if self.key is None:
            return {}
        return {d.engine.identity.serial_number: self.key for d in (self.shaker, self.panel)}

    def press(self, button: Button | str, hold: float = 0.05) -> None:
        self.panel.press(button, hold)

    def stop(self) -> None:
        self.simulator.stop()


def start_simulated_devices(
    seed: int | None = None,
    *,
    faults: FaultPlan | None = None,
    timing: DeviceTiming | None = None,
    baud: int = 115200,
    directory: str | Path | None = None,
    key: bytes | None = None,
) -> tuple[str, str, SimHandle]:
    """Start a simulated shaker and panel in this process; returns (shaker port, panel port, handle).

    Both are paired with ``key`` (a new one when not given: ``handle.keys`` is what the host needs to believe
    them). The same ``seed`` gives the same dice. Call ``handle.stop()`` when done (it removes the ports).
    """
    from hardware.auth import new_key

    key = key if key is not None else new_key()
    simulator = Simulator(directory)
    shaker = simulator.add("shaker", DeviceKind.SHAKER, seed=seed, faults=faults, timing=timing, baud=baud, key=key)
    panel = simulator.add("panel", DeviceKind.PANEL, seed=seed, faults=faults, timing=timing, baud=baud, key=key)
    simulator.start()
    return shaker.port, panel.port, SimHandle(simulator, shaker, panel, key)
