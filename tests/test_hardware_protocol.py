"""The wire protocol on its own: frames, CRC, messages, and a parser that survives any bytes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.auth import DEVICE
from hardware.events import Button, DeviceIdentity, DeviceKind, DeviceState
from hardware.link import validate_dice
from hardware.protocol import (
    MAX_FRAME,
    MAX_NUMBER,
    PROTOCOL_VERSION,
    Ack,
    BadFrame,
    ButtonReport,
    DiceReport,
    Frame,
    FrameParser,
    Garbage,
    Heartbeat,
    Ident,
    Identify,
    Message,
    MessageError,
    Nak,
    Pair,
    ParseItem,
    QueryStatus,
    Shake,
    ShakeAccepted,
    Stat,
    StateReport,
    crc16,
    encode,
    encode_signed,
    from_frame,
    next_seq,
)

token = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="*$#"), min_size=1,
                max_size=12)
code = st.from_regex(r"[A-Z][A-Z_]{1,15}", fullmatch=True)
die = st.one_of(st.none(), st.integers(0, 99))
number = st.integers(0, MAX_NUMBER)
messages: st.SearchStrategy[Message] = st.one_of(
    st.builds(Identify, st.booleans()),
    st.just(QueryStatus()),
    st.builds(Shake, number),
    st.just(Ack()),
    st.builds(ShakeAccepted, number, number),
    st.builds(Nak, code, number, number),
    st.builds(Ident, st.builds(DeviceIdentity, st.sampled_from(DeviceKind), token, token), number),
    st.builds(Stat, st.sampled_from(DeviceState), number),
    st.builds(DiceReport, number, number, number, st.lists(die, min_size=1, max_size=6).map(tuple)),
    st.builds(lambda s, e, c, x: DiceReport(s, e, c, error=x), number, number, number, code),
    st.builds(ButtonReport, number, number, st.sampled_from(Button), st.booleans()),
    st.builds(StateReport, number, number, st.sampled_from(DeviceState)),
    st.builds(Heartbeat, st.sampled_from(DeviceState)),
)


def parse_all(data: bytes) -> list[ParseItem]:
    return FrameParser().feed(data)


def test_crc_is_ccitt_false_with_the_documented_check_value_and_worked_example() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"03 SHAKE 00000001") == 0x6553
    assert encode(3, Shake(1)) == b"$03 SHAKE 00000001*6553\r\n"


def test_the_frames_in_the_protocol_document_are_the_ones_the_code_writes() -> None:
    """§5's example sessions and §12.4's worked example, signed as the code signs them (hmac, signed_frame)."""
    from pathlib import Path

    from hardware import auth

    document = (Path(__file__).resolve().parent.parent / "hardware" / "PROTOCOL.md").read_text()
    key = bytes(range(32))
    session = 0x002A9C41
    shaker = auth.session_key(key, "5A0C7E92B14D3F6A81C2E0B7", session)
    assert shaker.hex().upper() == "C82989ACA9692EFA15463C297EA8D1D87D04CCBDA2596AFB2E0966889FB5D372"
    assert f"KS       = {shaker.hex().upper()}" in document
    panel_session = 0x00075E10
    panel = auth.session_key(key, "C3D2E1F00F1E2D3C4B5A6978", panel_session)
    host, device = auth.HOST, auth.DEVICE
    examples = [
        encode(1, Identify(new_session=True, challenge="5A0C7E92B14D3F6A81C2E0B7")),
        encode_signed(1, Ident(DeviceIdentity(DeviceKind.SHAKER, "3.0.0", "SK-000123"), session), shaker, device),
        encode_signed(2, QueryStatus(), shaker, host),
        encode_signed(2, Stat(DeviceState.READY, 0), shaker, device),
        encode_signed(0, Heartbeat(DeviceState.READY), shaker, device),
        encode_signed(3, Shake(1), shaker, host),
        encode_signed(3, ShakeAccepted(session, 1), shaker, device),
        encode_signed(7, DiceReport(session, 1, 1, (3, 5, 6)), shaker, device),
        encode_signed(7, Ack(), shaker, host),
        encode_signed(4, Shake(2), shaker, host),
        encode_signed(4, Nak("DOME_OPEN", session, 2), shaker, device),
        encode(1, Identify(new_session=True, challenge="C3D2E1F00F1E2D3C4B5A6978")),
        encode_signed(1, Ident(DeviceIdentity(DeviceKind.PANEL, "3.0.0", "PN-000045"), panel_session), panel, device),
        encode_signed(1, ButtonReport(panel_session, 1, Button.CONFIRM, True), panel, device),
        encode_signed(1, Ack(), panel, host),
        encode_signed(2, ButtonReport(panel_session, 2, Button.CONFIRM, False), panel, device),
        encode_signed(2, Ack(), panel, host),
        encode(1, Pair(key)),
    ]
    for frame in examples:
        assert frame.decode().strip() in document
    wire = encode_signed(3, Shake(1), shaker, host)
    assert wire.hex(" ").upper().replace(" 2A 33", "\n2A 33") in document  # §12.4's bytes, as laid out there


@settings(deadline=None)  # the machine is shared: timing is not what these tests are about
@given(st.integers(0, 255), messages)
def test_every_message_survives_a_round_trip(seq: int, message: Message) -> None:
    [frame] = parse_all(encode(seq, message))
    assert isinstance(frame, Frame)
    assert frame.seq == seq
    assert from_frame(frame) == message


@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(0, 255), messages), max_size=8), st.integers(1, 7))
def test_a_stream_cut_into_any_chunks_gives_the_same_messages(pairs: list[tuple[int, Message]], chunk: int) -> None:
    stream = b"".join(encode(seq, message) for seq, message in pairs)
    parser = FrameParser()
    items = [item for start in range(0, len(stream), chunk) for item in parser.feed(stream[start : start + chunk])]
    assert [(item.seq, from_frame(item)) for item in items if isinstance(item, Frame)] == pairs
    assert all(isinstance(item, Frame) for item in items)


def test_a_flipped_byte_is_caught_by_the_crc_and_the_next_frame_still_arrives() -> None:
    good = encode(7, DiceReport(9, 1, 3, (3, 5, 6)))
    damaged = good.replace(b"3 5 6", b"3 5 5")
    items = parse_all(damaged + encode(8, ButtonReport(9, 2, Button.VOID, True)))
    assert isinstance(items[0], BadFrame) and items[0].reason == "crc"
    assert isinstance(items[1], Frame) and from_frame(items[1]) == ButtonReport(9, 2, Button.VOID, True)


def test_the_parser_resynchronises_after_noise_a_cut_frame_and_an_endless_line() -> None:
    shake = encode(3, Shake(1))
    stream = b"\x00\xffnoise" + shake[:6] + shake + b"x" * 200 + b"$" + b"y" * 100 + b"\r\n" + shake
    items = parse_all(stream)
    frames = [item for item in items if isinstance(item, Frame)]
    assert [from_frame(frame) for frame in frames] == [Shake(1), Shake(1)]
    reasons = [item.reason for item in items if isinstance(item, BadFrame)]
    assert reasons == ["cut_short", "too_long"]
    assert sum(item.count for item in items if isinstance(item, Garbage)) > 0


def test_lowercase_hex_and_a_bare_lf_are_accepted() -> None:
    body = b"0a ACK"
    frame = b"$" + body + b"*" + f"{crc16(body):04x}".encode() + b"\n"
    [item] = parse_all(frame)
    assert isinstance(item, Frame) and item.seq == 10 and from_frame(item) == Ack()


S, E = "002A9C41", "00000001"


@pytest.mark.parametrize(
    ("frame", "problem"),
    [
        (Frame(1, "ROLL"), "unknown message type"),
        (Frame(1, "SHAKE"), "SHAKE takes 1"),
        (Frame(1, "SHAKE", ("NOW",)), "shake number 'NOW' is not eight hex digits"),
        (Frame(1, "SHAKE", ("03",)), "not eight hex digits"),
        (Frame(1, "DICE", (S, E, "00000003", "3", "x")), "not a number"),
        (Frame(1, "DICE", (S, E, "03", "3", "5", "6")), "shake number '03' is not eight hex digits"),
        (Frame(1, "DICE", (S, E, "00000003")), "needs the session, event and shake numbers"),
        (Frame(1, "DICE", ("2A", E, "00000003", "3", "5", "6")), "session number '2A'"),
        (Frame(1, "BTN", (S, E, "PANIC", "DOWN")), "unknown button"),
        (Frame(1, "BTN", ("CONFIRM", "DOWN")), "BTN takes 4"),
        (Frame(1, "STATE", ("JAMMED",)), "STATE takes 3"),
        (Frame(1, "ACK", (S,)), "ACK takes 0 or 2"),
        (Frame(1, "NAK", ("JAMMED",)), "NAK takes 3"),
        (Frame(1, "HB", ("ASLEEP",)), "unknown device state"),
        (Frame(1, "IDENT", ("2", "TOASTER", "1", "2", S)), "unknown device kind"),
        (Frame(1, "IDENT", ("PANEL", "1", "2", "boot")), "boot number"),
        (Frame(1, "IDENT", ("two", "PANEL", "1", "2", S)), "protocol version"),
    ],
)
def test_well_framed_nonsense_is_refused_with_a_message(frame: Frame, problem: str) -> None:
    with pytest.raises(MessageError, match=problem):
        from_frame(frame)


def test_frames_refuse_what_the_grammar_forbids() -> None:
    with pytest.raises(ValueError, match="sequence"):
        Frame(256, "ACK")
    with pytest.raises(ValueError, match="capital"):
        Frame(1, "ack")
    with pytest.raises(ValueError, match="printable"):
        Frame(1, "NAK", ("two words",))
    with pytest.raises(ValueError, match="longer"):
        Frame(1, "IDENT", ("A" * 24, "B" * 24, "C" * 24, "D" * 24)).encode()
    with pytest.raises(ValueError, match="#"):
        Frame(1, "NAK", ("#BEEF",))  # '#' starts the tag (version 3): never in a field


def test_sequence_numbers_wrap_from_ff_to_01_and_never_use_00() -> None:
    seen = set()
    seq = 0
    for _ in range(600):
        seq = next_seq(seq)
        seen.add(seq)
    assert seen == set(range(1, 256))


def _check_items(items: list[ParseItem]) -> None:
    for item in items:
        assert isinstance(item, Frame | BadFrame | Garbage)
        if isinstance(item, Frame):
            assert crc16(item.encode()[1:].split(b"*")[0]) == int(item.encode()[-6:-2], 16)
            try:
                message = from_frame(item)
            except MessageError:
                continue
            if isinstance(message, DiceReport):
                values, reason, _ = validate_dice(message)
                assert (values is None) != (reason is None)
                if values is not None:
                    assert len(values) == 3 and all(1 <= v <= 6 for v in values)
        elif isinstance(item, BadFrame):
            assert len(item.raw) <= MAX_FRAME


@settings(deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_never_raise_and_never_yield_an_invalid_result(data: bytes) -> None:
    _check_items(parse_all(data))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 255), messages), min_size=1, max_size=5), st.data())
def test_mutated_streams_never_raise_and_never_yield_an_invalid_result(
    pairs: list[tuple[int, Message]], data: st.DataObject
) -> None:
    stream = bytearray(b"".join(encode(seq, message) for seq, message in pairs))
    for _ in range(data.draw(st.integers(1, 6))):
        position = data.draw(st.integers(0, len(stream) - 1))
        operation = data.draw(st.sampled_from(["flip", "insert", "delete"]))
        if operation == "flip":
            stream[position] ^= 1 << data.draw(st.integers(0, 7))
        elif operation == "insert":
            stream[position:position] = data.draw(st.binary(min_size=1, max_size=4))
        elif len(stream) > 1:
            del stream[position]
    _check_items(parse_all(bytes(stream)))


def test_bounded_fuzz_of_mutated_dice_reports() -> None:
    """20 000 seeded mutations of dice frames: any frame that still passes the CRC is judged correctly."""
    rng = random.Random(5)
    accepted_results = 0
    for _ in range(20_000):
        values = tuple(rng.choice([None, 0, 1, 2, 3, 4, 5, 6, 7, 9]) for _ in range(rng.randint(1, 4)))
        numbers = (rng.randint(1, MAX_NUMBER), rng.randint(1, MAX_NUMBER), rng.randint(1, MAX_NUMBER))
        raw = bytearray(encode(rng.randint(1, 255), DiceReport(*numbers, values)))
        for _ in range(rng.randint(0, 3)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        items = parse_all(bytes(raw))
        _check_items(items)
        for item in items:
            if isinstance(item, Frame) and item.type == "DICE":
                try:
                    message = from_frame(item)
                except MessageError:
                    continue
                assert isinstance(message, DiceReport)
                accepted_results += validate_dice(message)[0] is not None
    assert accepted_results > 0  # the fuzz did reach the valid-result path


@pytest.mark.parametrize(
    ("report", "reason"),
    [
        (DiceReport(1, 1, 1, (3, 7, 1)), "INVALID_VALUE"),
        (DiceReport(1, 1, 1, (0, 2, 3)), "INVALID_VALUE"),
        (DiceReport(1, 1, 1, (3, None, 1)), "MISSING_DIE"),
        (DiceReport(1, 1, 1, (3, 4)), "MISSING_DIE"),
        (DiceReport(1, 1, 1, (3, 4, 5, 6)), "MISSING_DIE"),
        (DiceReport(1, 1, 1, error="JAMMED"), "JAMMED"),
        (DiceReport(1, 1, 1, error="SOMETHING_NEW"), "SENSOR_FAULT"),
    ],
)
def test_bad_dice_are_a_reason_to_shake_again_never_a_result(report: DiceReport, reason: str) -> None:
    values, why, message = validate_dice(report)
    assert values is None and why is not None and why.value == reason
    assert message.startswith("shake again")


def test_three_good_dice_are_a_result() -> None:
    assert validate_dice(DiceReport(1, 1, 1, (6, 1, 4)))[0] == (6, 1, 4)


def test_the_longest_signed_frames_of_version_3_fit_in_100_bytes() -> None:
    top = MAX_NUMBER
    key = bytes(32)
    longest = [
        encode_signed(255, DiceReport(top, top, top, error="A" * 16), key, DEVICE),
        encode_signed(255, DiceReport(top, top, top, (99, 99, 99, 99, 99, 99)), key, DEVICE),
        encode_signed(255, ButtonReport(top, top, Button.CONFIRM, False), key, DEVICE),
        encode_signed(255, StateReport(top, top, DeviceState.SENSOR_FAULT), key, DEVICE),
        encode_signed(255, Nak("A" * 16, top, top), key, DEVICE),
        encode_signed(255, Stat(DeviceState.SENSOR_FAULT, top), key, DEVICE),
        encode(255, Identify(True, "F" * 24)),
        encode(255, Pair(bytes(range(32)))),
        # firmware and serial number: 46 characters together at most
        encode_signed(255, Ident(DeviceIdentity(DeviceKind.SHAKER, "F" * 22, "S" * 24), top), key, DEVICE),
    ]
    assert [len(frame) for frame in longest] == [81, 78, 61, 65, 67, 55, 42, 83, 100]
    assert MAX_FRAME == 100
    with pytest.raises(ValueError, match="longer"):
        encode_signed(1, Ident(DeviceIdentity(DeviceKind.SHAKER, "F" * 23, "S" * 24), top), key, DEVICE)


def test_a_version_1_identity_is_read_as_version_1_so_the_host_can_say_so() -> None:
    v1 = Frame(1, "IDENT", ("SHAKER", "1.0.0", "SK-000123", "002A"))
    message = from_frame(v1)
    assert isinstance(message, Ident) and message.version == 1 and PROTOCOL_VERSION == 3


@settings(deadline=None)
@given(st.integers(0, 255), messages, st.binary(min_size=32, max_size=32))
def test_every_signed_frame_parses_back_with_a_tag_that_checks_only_under_its_key(
    seq: int, message: Message, key: bytes
) -> None:
    from hardware import auth

    raw = encode_signed(seq, message, key, DEVICE)
    [frame] = parse_all(raw)
    assert isinstance(frame, Frame) and from_frame(frame) == message
    assert auth.tag_matches(key, DEVICE, frame.covered, frame.tag)
    assert not auth.tag_matches(key, auth.HOST, frame.covered, frame.tag)  # never believed the other way round
    assert not auth.tag_matches(bytes(b ^ 1 for b in key), DEVICE, frame.covered, frame.tag)


def test_a_tag_covers_the_frame_as_written_small_hex_letters_included() -> None:
    from hardware import auth

    key = bytes(32)
    text = b"0a SHAKE 0000002a"  # a sender that writes small letters (receivers accept either case)
    tag = auth.tag(key, auth.HOST, text)
    body = text + b" #" + tag.encode()
    [frame] = parse_all(b"$" + body + b"*" + f"{crc16(body):04X}".encode() + b"\r\n")
    assert isinstance(frame, Frame) and frame.seq == 10 and frame.covered == text
    assert auth.tag_matches(key, auth.HOST, frame.covered, frame.tag)
