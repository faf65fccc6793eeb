"""The serial devices: the dice shaker and the dealer's button panel (protocol, driver, simulator, firmware).

How the kiosk uses it (no Kivy here; events arrive on a ``queue.Queue`` filled by one background thread per
device, or through an ``on_event`` callback called on that thread)::

    import queue
    from hardware import Button, ButtonPressed, DeviceEvent, DeviceKind, DiceFault, DiceRolled
    from hardware.client import DeviceClient
    from hardware.sim import start_simulated_devices

    # The embedded default: a simulated shaker and panel on real pseudo-terminals, in this process, paired with a
    # key made for the session (sim.keys: the paired keys by serial number, as the kiosk's key file holds them).
    shaker_port, panel_port, sim = start_simulated_devices(seed=7)

    inbox: queue.Queue[DeviceEvent] = queue.Queue()
    shaker = DeviceClient(shaker_port, name="shaker", events=inbox, expect_kind=DeviceKind.SHAKER, keys=sim.keys)
    panel = DeviceClient(panel_port, name="panel", events=inbox, expect_kind=DeviceKind.PANEL, keys=sim.keys)

    shake_id = shaker.shake()          # returns at once; a second call while a shake is pending returns the same id
    sim.press(Button.CONFIRM)          # the simulated dealer presses a button (press + release) through the pty
    dice, pressed = None, None
    while dice is None or pressed is None:
        event = inbox.get(timeout=5)   # also LinkUp, LinkDown, DeviceStatus, DeviceFault, ButtonReleased
        if isinstance(event, DiceRolled) and event.shake_id == shake_id:
            dice = event.values        # three ints 1-6; event.total is their sum
        elif isinstance(event, DiceFault):
            dice = ()                  # no result (event.reason, event.message): shake again and count it
        elif isinstance(event, ButtonPressed):
            pressed = event.button     # Button.CONFIRM

    print(shaker.counters)             # LinkCounters(retries=…, crc_errors=…, duplicates=…, timeouts=…, …)
    shaker.close(); panel.close(); sim.stop()

A real device is opened the same way with any pyserial URL or path (``/dev/ttyUSB0``, ``socket://host:port``,
``hwgrep://…``); ``hardware.client.find_port(DeviceKind.SHAKER)`` finds it by identity and ``find_devices()``
lists the ports and who answers on them. ``DeviceClient`` also takes ``baudrate`` (115200 or 9600…),
``expect_serial``, ``timing`` (``hardware.link.LinkTiming``: ack timeout, retries, shake timeout, backoff) and
``clock`` (an ``engine.clock.Clock``, the machine's by default; its ``monotonic()`` stamps events' ``at`` and
times the link, so a test clock that moves only when told would hold the link's timeouts).
The wire protocol is in ``hardware/PROTOCOL.md``. Every frame is authenticated (protocol 3): a device that does not
prove it holds the key paired with it (``keys``: paired keys by serial number) is refused (``DeviceFault``
``NOT_AUTHENTICATED``) and nothing it sends is acted on; ``hardware.client.pair`` pairs a device whose pairing
button is held at power-up (or whose jumper is fitted).

Faults for tests, through the real pty path (``sim.shaker`` and ``sim.panel`` are ``hardware.sim.SimulatedDevice``):
``sim.shaker.force_next_dice((3, 7, 1))`` (a die out of range → ``DiceFault``), ``force_next_dice(error="SENSOR")``,
``sim.shaker.set_state(DeviceState.JAMMED)`` / ``DOME_OPEN`` / ``READY``, ``sim.shaker.unplug()`` and
``replug()`` (``LinkDown`` / ``LinkUp``), ``sim.shaker.drop_next(outgoing=1, only="ACK")``,
``corrupt_next(...)``, ``send_raw(b"noise")``; random ones with ``start_simulated_devices(faults=FaultPlan(...))``.
"""

from hardware.events import (
    Button,
    ButtonPressed,
    ButtonReleased,
    DeviceEvent,
    DeviceFault,
    DeviceIdentity,
    DeviceKind,
    DeviceState,
    DeviceStatus,
    DiceFault,
    DiceFaultReason,
    DiceRolled,
    LinkCounters,
    LinkDown,
    LinkUp,
)

__all__ = [
    "Button",
    "ButtonPressed",
    "ButtonReleased",
    "DeviceEvent",
    "DeviceFault",
    "DeviceIdentity",
    "DeviceKind",
    "DeviceState",
    "DeviceStatus",
    "DiceFault",
    "DiceFaultReason",
    "DiceRolled",
    "LinkCounters",
    "LinkDown",
    "LinkUp",
]
