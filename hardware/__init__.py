"""The serial devices: the dice shaker and the dealer's button panel (protocol, driver, simulator, firmware).

How the kiosk uses it (no Kivy here; events arrive on a ``queue.Queue`` filled by one background thread per
device)::

    import queue
    from hardware import Button, DeviceKind, DiceRolled, DiceFault, ButtonPressed, DeviceEvent
    from hardware.client import DeviceClient
    from hardware.sim import start_simulated_devices

    # The embedded default: a simulated shaker and panel on real pseudo-terminals, in this process.
    shaker_port, panel_port, sim = start_simulated_devices(seed=7)

    inbox: queue.Queue[DeviceEvent] = queue.Queue()
    shaker = DeviceClient(shaker_port, name="shaker", events=inbox, expect_kind=DeviceKind.SHAKER)
    panel = DeviceClient(panel_port, name="panel", events=inbox, expect_kind=DeviceKind.PANEL)

    shake_id = shaker.shake()          # returns at once; a second call while a shake is pending returns the same id
    sim.press(Button.CONFIRM)          # the simulated dealer presses a button (press + release) through the pty
    while True:
        event = inbox.get(timeout=5)   # LinkUp, DeviceStatus, DiceRolled, DiceFault, ButtonPressed, ...
        if isinstance(event, DiceRolled) and event.shake_id == shake_id:
            print(event.values, event.total)
        elif isinstance(event, DiceFault):
            ...                        # no result: the round logic shakes again and counts event.reason
        elif isinstance(event, ButtonPressed):
            ...

    print(shaker.counters)             # LinkCounters(retries=…, crc_errors=…, duplicates=…, timeouts=…, …)
    shaker.close(); panel.close(); sim.stop()

A real device is opened the same way with any pyserial URL or path (``/dev/ttyUSB0``, ``socket://host:port``,
``hwgrep://…``); ``hardware.client.find_devices()`` lists the ports and who answers on them. The wire protocol is
in ``hardware/PROTOCOL.md``.
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
