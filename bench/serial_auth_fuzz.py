"""Forged frames against protocol 3's tags and challenges, counted: how many were acted on (none is the point).

The real host link and the real device engine, paired and in a live session, wired in memory; a forger who knows
the protocol, the session number and every frame on the line, but not the key, sends
- to the host: events and replies (BTN, DICE, STATE, ACK, NAK, STAT, HB, IDENT) untagged, with a random tag, tagged
  under a random key, with a tag of another frame of the session (spliced), tagged for the other direction, or a
  frame of the session with one field changed and its CRC recomputed;
- to the device: SHAKE, ACK, ST, ID, PAIR, the same ways;
- to a host asking a fresh challenge: IDENT answers untagged, with a random tag, or under a guessed key.
Between forgeries the real panel presses CONFIRM and the real shaker shakes, so the figures also show that the
real devices were still taken. Prints the counts.

    .venv/bin/python bench/serial_auth_fuzz.py [--frames 20000] [--seed 59]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from hardware import auth
from hardware.device import DeviceEngine, DeviceTiming
from hardware.events import (
    Button,
    ButtonPressed,
    ButtonReleased,
    DeviceEvent,
    DeviceIdentity,
    DeviceKind,
    DiceRolled,
)
from hardware.link import HostLink, LinkTiming
from hardware.protocol import Frame

KEY = bytes(range(0x10, 0x30))
WAYS = ("untagged", "random_tag", "other_key", "spliced", "other_direction", "altered")


def pump(host: HostLink, device: DeviceEngine, now: float, seconds: float) -> tuple[list[DeviceEvent], float]:
    events: list[DeviceEvent] = []
    end = now + seconds
    while now < end:
        now += 0.01
        device.data_received(host.data_to_send(), now)
        device.poll(now)
        for data in device.frames_to_send():
            events += host.data_received(data, now)
        events += host.poll(now)
    return events, now


def device_frame(rng: random.Random, session: int) -> Frame:
    who = f"{session:08X}" if rng.random() < 0.7 else f"{rng.getrandbits(32):08X}"
    number = f"{rng.randrange(1, 2**32):08X}"
    shake = f"{rng.getrandbits(32):08X}"
    choices = [
        ("BTN", (who, number, rng.choice(["SHAKE", "CONFIRM", "NEXT", "VOID", "CALL"]), rng.choice(["DOWN", "UP"]))),
        ("DICE", (who, number, shake, "6", "6", "6")),
        ("STATE", (who, number, "JAMMED")),
        ("ACK", (who, shake)),
        ("NAK", ("BUSY", who, shake)),
        ("STAT", ("READY", shake)),
        ("HB", ("READY",)),
        ("IDENT", ("3", "SHAKER", "9.9.9", "SK-1", who)),
    ]
    kind, fields = rng.choice(choices)
    return Frame(rng.randrange(256), kind, fields)


def forge(frame: Frame, way: str, session_key: bytes, direction: bytes, rng: random.Random, donor: Frame) -> bytes:
    other = auth.HOST if direction == auth.DEVICE else auth.DEVICE
    if way == "untagged":
        return frame.encode()
    if way == "random_tag":
        return Frame(frame.seq, frame.type, frame.fields, rng.randbytes(8).hex().upper()).encode()
    if way == "other_key":
        return frame.signed(rng.randbytes(32), direction).encode()
    if way == "other_direction":
        return frame.signed(session_key, other).encode()
    signed = donor.signed(session_key, direction)
    if way == "spliced" and signed.covered != frame.covered:
        return Frame(frame.seq, frame.type, frame.fields, signed.tag).encode()
    last = signed.fields[-1] if signed.fields else ""
    changed = (*signed.fields[:-1], "7" if last != "7" else "6") if signed.fields else ("X",)
    return Frame(signed.seq, signed.type, changed, signed.tag).encode()


def live(identity: DeviceIdentity, rng: random.Random) -> tuple[HostLink, DeviceEngine, float]:
    host = HostLink("dev", "mem", LinkTiming(), expect_kind=identity.kind, keys={identity.serial_number: KEY})
    device = DeviceEngine(identity, random.Random(rng.random()), DeviceTiming(shake_duration=0.05), key=KEY)
    host.connection_made(0.0)
    _, now = pump(host, device, 0.0, 0.2)
    assert host.authenticated
    return host, device, now


def against_the_host(frames: int, rng: random.Random) -> None:
    host, panel, now = live(DeviceIdentity(DeviceKind.PANEL, "3.0.0", "PN-1"), rng)
    session_key, session = host._session_key, panel.session
    assert session_key is not None
    acted = real_presses = taken = 0
    by_way = dict.fromkeys(WAYS, 0)
    for n in range(frames):
        way = rng.choice(WAYS)
        by_way[way] += 1
        raw = forge(device_frame(rng, session), way, session_key, auth.DEVICE, rng, device_frame(rng, session))
        acted += sum(isinstance(e, ButtonPressed | ButtonReleased | DiceRolled) for e in host.data_received(raw, now))
        if n % 100 == 99:  # the real panel, pressed now and then: still taken, exactly once
            panel.press(Button.CONFIRM, now, hold=0.02)
            real_presses += 1
            events, now = pump(host, panel, now, 0.2)
            taken += sum(isinstance(e, ButtonPressed) for e in events)
            session_key, session = host._session_key or session_key, panel.session
    counters = host.counters
    print(f"to the host, {frames:,} forged device frames ({', '.join(f'{w} {c:,}' for w, c in by_way.items())}):")
    print(f"  acted on: {acted}   refused: unauthenticated {counters.unauthenticated:,}, malformed "
          f"{counters.malformed:,}, old {counters.refused:,}, duplicates {counters.duplicates:,}")
    print(f"  the real panel meanwhile: {real_presses} presses, {taken} taken")


def against_the_device(frames: int, rng: random.Random) -> None:
    host, shaker, now = live(DeviceIdentity(DeviceKind.SHAKER, "3.0.0", "SK-1"), rng)
    session_key = host._session_key
    assert session_key is not None
    before = len(shaker.rolls)
    for _ in range(frames):
        kind = rng.choice(["SHAKE", "ACK", "ST", "ID", "PAIR"])
        fields: tuple[str, ...] = ()
        if kind == "SHAKE":
            fields = (f"{rng.getrandbits(32):08X}",)
        elif kind == "PAIR":
            fields = auth.key_to_fields(rng.randbytes(32))
        frame = Frame(rng.randrange(1, 256), kind, fields)
        way = rng.choice(("untagged", "random_tag", "other_key", "other_direction"))
        if kind == "PAIR":
            way = "untagged"  # PAIR is taken untagged, and only in pairing mode
        shaker.data_received(forge(frame, way, session_key, auth.HOST, rng, frame), now)
    shaker.frames_to_send()
    print(f"to the shaker, {frames:,} forged host frames: shakes taken {shaker.counts.shakes_taken}, dice rolled "
          f"{len(shaker.rolls) - before}, key changed {shaker.key != KEY}; not acted on (tag): "
          f"{shaker.counts.unauthenticated:,}")


def against_the_challenge(frames: int, rng: random.Random) -> None:
    up = faults = 0
    for _ in range(frames):
        host = HostLink("dev", "mem", LinkTiming(), expect_kind=DeviceKind.SHAKER, keys={"SK-1": KEY})
        host.connection_made(0.0)
        asked = Frame(1, "ID")
        sent = host.data_to_send()
        challenge = sent.split(b" ")[2].split(b"*")[0].decode()
        session = rng.getrandbits(32)
        answer = Frame(asked.seq, "IDENT", ("3", "SHAKER", "9.9.9", "SK-1", f"{session:08X}"))
        way = rng.choice(("untagged", "random_tag", "guessed_key"))
        if way == "guessed_key":
            answer = answer.signed(auth.session_key(rng.randbytes(32), challenge, session), auth.DEVICE)
        elif way == "random_tag":
            answer = Frame(answer.seq, answer.type, answer.fields, rng.randbytes(8).hex().upper())
        faults += len(host.data_received(answer.encode(), 0.01))
        up += host.up
    print(f"to a host's fresh challenge, {frames:,} answers without the key: links up {up}, refusals reported "
          f"{faults:,}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=59)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.perf_counter()
    against_the_host(args.frames, rng)
    against_the_device(args.frames, rng)
    against_the_challenge(args.frames // 10, rng)
    print(f"({time.perf_counter() - start:.1f} s, seed {args.seed}; no traceback)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
