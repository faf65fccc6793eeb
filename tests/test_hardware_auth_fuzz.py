"""Fuzzing tags and challenges (issue 59): whatever frames a forger makes, nothing raises and nothing is acted on.

The host link and the device engine are the real ones, wired in memory with a paired key and a live session; the
forged frames carry no tag, a random tag, a tag under another key, a tag of another frame (spliced), a tag made for
the other direction, or a tag of the right session for a frame whose text was then changed.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import auth
from hardware.device import DeviceEngine, DeviceTiming
from hardware.events import (
    Button,
    ButtonPressed,
    ButtonReleased,
    DeviceEvent,
    DeviceFault,
    DeviceIdentity,
    DeviceKind,
    DiceRolled,
)
from hardware.link import HostLink, LinkTiming
from hardware.protocol import Frame, FrameParser

KEY = bytes(range(0xA0, 0xC0))
PANEL = DeviceIdentity(DeviceKind.PANEL, "3.0.0", "PN-7")
SHAKER = DeviceIdentity(DeviceKind.SHAKER, "3.0.0", "SK-7")
ACTED_ON = (ButtonPressed, ButtonReleased, DiceRolled)


def pump(host: HostLink, device: DeviceEngine, start: float, seconds: float = 0.2) -> list[DeviceEvent]:
    """Let the real host and device talk for a while; the events the host gave."""
    events: list[DeviceEvent] = []
    now = start
    while now < start + seconds:
        now += 0.01
        device.data_received(host.data_to_send(), now)
        device.poll(now)
        for data in device.frames_to_send():
            events += host.data_received(data, now)
        events += host.poll(now)
    return events


def live(identity: DeviceIdentity) -> tuple[HostLink, DeviceEngine, bytes, int]:
    """A host and a device in an authenticated session: (host, device, session key, session number)."""
    host = HostLink("dev", "mem", LinkTiming(), expect_kind=identity.kind, keys={identity.serial_number: KEY})
    device = DeviceEngine(identity, random.Random(1), DeviceTiming(shake_duration=0.05), key=KEY)
    host.connection_made(0.0)
    pump(host, device, 0.0)
    assert host.up and host.authenticated
    assert host._session_key is not None  # the test plays the forger who knows everything but the key
    return host, device, host._session_key, device.session


hex8 = st.integers(0, 0xFFFF_FFFF).map(lambda n: f"{n:08X}")
buttons = st.sampled_from(["SHAKE", "CONFIRM", "NEXT", "VOID", "CALL"])


@st.composite
def device_frames(draw: st.DrawFn, session: int) -> Frame:
    """What a device could send (events, replies, heartbeats), naming the live session or another."""
    who = draw(st.sampled_from([f"{session:08X}", draw(hex8)]))
    event = draw(st.integers(1, 0xFFFF_FFFF).map(lambda n: f"{n:08X}"))
    kind, fields = draw(st.sampled_from([
        ("BTN", (who, event, draw(buttons), draw(st.sampled_from(["DOWN", "UP"])))),
        ("DICE", (who, event, draw(hex8), *draw(st.lists(st.sampled_from("123456"), min_size=3, max_size=3)))),
        ("STATE", (who, event, "JAMMED")),
        ("ACK", (who, draw(hex8))),
        ("NAK", ("BUSY", who, draw(hex8))),
        ("STAT", ("READY", draw(hex8))),
        ("HB", ("READY",)),
        ("IDENT", ("3", "PANEL", "3.0.0", "PN-7", who)),
    ]))
    return Frame(draw(st.integers(0, 255)), kind, fields)


@st.composite
def forged(draw: st.DrawFn, session_key: bytes, session: int, direction: bytes) -> bytes:
    frame = draw(device_frames(session))
    how = draw(st.sampled_from(["none", "random", "other_key", "spliced", "other_direction", "altered"]))
    other = HOST if direction == DEVICE else DEVICE
    if how == "none":
        return frame.encode()
    if how == "random":
        made_up = draw(st.binary(min_size=8, max_size=8)).hex().upper()
        return Frame(frame.seq, frame.type, frame.fields, made_up).encode()
    if how == "other_key":
        return frame.signed(draw(st.binary(min_size=32, max_size=32)), direction).encode()
    if how == "other_direction":
        return frame.signed(session_key, other).encode()
    donor = draw(device_frames(session)).signed(session_key, direction)
    if how == "spliced":  # a real tag of this session, from another frame
        if donor.covered == frame.covered:
            return frame.encode()
        return Frame(frame.seq, frame.type, frame.fields, donor.tag).encode()
    # altered: a frame as the session would tag it, then its last field changed (the CRC is made anew)
    changed = (*donor.fields[:-1], "7" if donor.fields[-1] != "7" else "6")
    return Frame(donor.seq, donor.type, changed, donor.tag).encode()


HOST, DEVICE = auth.HOST, auth.DEVICE


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_forged_frames_of_any_tag_are_never_acted_on_by_the_host(data: st.DataObject) -> None:
    host, device, session_key, session = live(PANEL)
    frames = data.draw(st.lists(forged(session_key, session, DEVICE), min_size=1, max_size=20))
    events: list[DeviceEvent] = []
    for raw in frames:
        events += host.data_received(raw, 1.0)
    assert not [e for e in events if isinstance(e, ACTED_ON)]
    assert all(e.code == "NOT_AUTHENTICATED" for e in events if isinstance(e, DeviceFault))
    assert host.up and host.counters.unauthenticated + host.counters.malformed + host.counters.refused > 0
    device.press(Button.CONFIRM, 1.0, hold=0.05)  # the real panel still works, exactly once
    taken = pump(host, device, 1.0, 0.5)
    assert [type(e) for e in taken if isinstance(e, ACTED_ON)] == [ButtonPressed, ButtonReleased]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_answer_to_a_challenge_from_a_device_without_the_key_never_brings_the_link_up(
    data: st.DataObject,
) -> None:
    host = HostLink("dev", "mem", LinkTiming(), expect_kind=DeviceKind.SHAKER, keys={"SK-7": KEY})
    host.connection_made(0.0)
    [asked] = [f for f in FrameParser().feed(host.data_to_send()) if isinstance(f, Frame)]
    assert asked.type == "ID" and auth.is_challenge(asked.fields[1])
    guess = data.draw(st.one_of(st.binary(min_size=32, max_size=32), st.just(bytes(32))))
    session = data.draw(st.integers(0, 0xFFFF_FFFF))
    challenge = data.draw(st.one_of(st.just(asked.fields[1]), st.text("0123456789ABCDEF", min_size=24, max_size=24)))
    answer = Frame(asked.seq, "IDENT", ("3", "SHAKER", "9.9.9", "SK-7", f"{session:08X}"))
    how = data.draw(st.sampled_from(["untagged", "guessed_key", "random_tag"]))
    if how == "guessed_key":
        answer = answer.signed(auth.session_key(guess, challenge, session), DEVICE)
    elif how == "random_tag":
        answer = Frame(answer.seq, answer.type, answer.fields, guess[:8].hex().upper())
    events = host.data_received(answer.encode(), 0.01)
    assert not host.up and host.dead_reason is not None
    assert [e.code for e in events if isinstance(e, DeviceFault)] == ["NOT_AUTHENTICATED"]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_device_acts_on_no_forged_host_frame(data: st.DataObject) -> None:
    _host, device, session_key, _session = live(SHAKER)
    for _ in range(data.draw(st.integers(1, 10))):
        frame = Frame(
            data.draw(st.integers(1, 255)),
            data.draw(st.sampled_from(["SHAKE", "ACK", "ST", "ID", "PAIR"])),
        )
        if frame.type == "SHAKE":
            frame = Frame(frame.seq, "SHAKE", (data.draw(hex8),))
        elif frame.type == "PAIR":
            frame = Frame(frame.seq, "PAIR", auth.key_to_fields(data.draw(st.binary(min_size=32, max_size=32))))
        how = data.draw(st.sampled_from(["none", "other_key", "other_direction", "random"]))
        if frame.type == "PAIR":
            pass  # taken untagged, and only in pairing mode (tagged, it would not fit in 100 bytes)
        elif how == "other_key":
            frame = frame.signed(data.draw(st.binary(min_size=32, max_size=32)), HOST)
        elif how == "other_direction":
            frame = frame.signed(session_key, DEVICE)
        elif how == "random":
            frame = Frame(frame.seq, frame.type, frame.fields, data.draw(st.binary(min_size=8, max_size=8)).hex())
        device.data_received(frame.encode(), 1.0)
    device.poll(2.0)
    replies = [f for raw in device.frames_to_send() for f in FrameParser().feed(raw) if isinstance(f, Frame)]
    assert device.counts.shakes_taken == 0 and device.rolls == []
    assert device.key == KEY  # PAIR outside pairing mode changes nothing
    assert {f.type for f in replies} <= {"IDENT", "NOPAIR", "HB"}
    assert all(f.tag is None for f in replies if f.type == "IDENT")  # an ID it could not check: answered untagged
