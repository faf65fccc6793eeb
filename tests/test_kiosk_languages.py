"""The kiosk speaks English, Vietnamese and Khmer: every text and every engine phrase is in every catalogue, with
the same values, in glyphs the kiosk's fonts have, and Khmer and Vietnamese texts carry no English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.baibuu
import engine.samloc
import engine.schmier  # noqa: F401
import journal.words  # noqa: F401 - the journal's review and logs phrases, worded by the same catalogue
import kiosk.journal_place  # what a production config must not do with the key and anchors
import kiosk.supervisors  # noqa: F401 - why a new supervisor's ID or PIN is refused
from engine.phrases import TEMPLATES, join, placeholders
from kiosk.i18n import LANGUAGES, PHRASES, TEXTS, Catalogue, Msg, language_button_text
from kiosk.i18n_km import PHRASES_KM, TEXTS_KM
from kiosk.ui.shaped_text import khmer_font, missing_glyphs

# Words that stay as they are in every language: game names and table words players use as is.
KEPT = {"bài", "bửu", "sâm", "lốc", "schmier", "bauer", "pin", "sha", "báo", "utc", "sqlite"}
# The English the kiosk could leak: every word of its English texts and of the engines' English phrases.
ENGLISH = {
    word.lower()
    for text in [*(pair[0] for pair in TEXTS.values()), *TEMPLATES.values()]
    for word in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[a-z_]+\}", "", text))
} - KEPT


def english_words(text: str) -> list[str]:
    """Words of the kiosk's English left in a Khmer or Vietnamese text (a command's option, or a command or a name
    in backquotes, typed as it is, is not a word)."""
    words = re.findall(r"[A-Za-zÀ-ỹĐđ]+", re.sub(r"\{[a-z_]+\}|--[a-z][a-z-]*|`[^`]*`", "", text))
    return [word for word in words if word.lower() in ENGLISH]


def test_every_screen_text_is_in_all_three_languages_with_the_same_values() -> None:
    assert LANGUAGES == ("en", "vi", "km")
    missing = sorted(set(TEXTS) - set(TEXTS_KM))
    unknown = sorted(set(TEXTS_KM) - set(TEXTS))
    assert not missing and not unknown, (missing, unknown)
    for key, (english, vietnamese) in TEXTS.items():
        allowed = placeholders(english) | placeholders(vietnamese)
        assert vietnamese and TEXTS_KM[key], key
        assert placeholders(TEXTS_KM[key]) <= allowed and placeholders(english) <= placeholders(TEXTS_KM[key]) | {
            "name"
        }, key
        for language in LANGUAGES:
            assert Catalogue(language).text(key, **dict.fromkeys(allowed, "7")), (language, key)


def test_every_engine_phrase_is_in_every_catalogue() -> None:
    assert TEMPLATES
    for language in ("vi", "km"):
        catalogue = PHRASES[language]
        assert sorted(set(TEMPLATES) - set(catalogue)) == [], language
        for key, english in TEMPLATES.items():
            assert placeholders(catalogue[key]) == placeholders(english), (language, key)


@pytest.mark.parametrize("language", ["vi", "km"])
def test_no_english_is_left_in_vietnamese_or_khmer(language: str) -> None:
    texts = {key: pair[1] if language == "vi" else TEXTS_KM[key] for key, pair in TEXTS.items()}
    texts |= {"phrase " + key: text for key, text in PHRASES[language].items()}
    leftovers = {key: english_words(text) for key, text in texts.items() if english_words(text)}
    assert leftovers == {}


def test_khmer_texts_are_in_khmer_script() -> None:
    for key, text in TEXTS_KM.items():
        letters = re.sub(r"\{[a-z_]+\}|[\W\d_]", "", text)
        if letters and letters not in ("BàiBửu", "Schmier"):
            assert re.search("[\u1780-\u17ff]", text), key


def test_khmer_spells_win_as_the_rulebooks_do() -> None:
    """ឈ្នះ ends in the reahmuk (U+17C7), as the Khmer rulebooks of Bài Bửu and Schmier write it, not U+17C8."""
    from floor.console.i18n import TEXTS_KM as CONSOLE_KM

    texts = [*TEXTS_KM.values(), *PHRASES_KM.values(), *map(str, CONSOLE_KM.values())]
    assert sum("ឈ្នះ" in text for text in texts) > 20
    assert [text for text in texts if "\u17c8" in text] == []


def test_every_text_has_a_glyph_in_the_kiosks_fonts() -> None:
    assert khmer_font() is not None, "no Khmer font: apt-get install fonts-khmeros (make installs it)"
    everything = [*(t for pair in TEXTS.values() for t in pair), *TEXTS_KM.values(), *PHRASES_KM.values()]
    everything += ["●" * 6, "A♣ 10♦ K♥ Q♠ ✔ → · … ▶ − +"]
    assert {char for text in everything for char in missing_glyphs(text)} == set()


def test_english_counts_one_card_not_one_cards() -> None:
    en, vi, km = Catalogue("en"), Catalogue("vi"), Catalogue("km")
    assert en.text("sl.cards_left", count=1) == "1 card"
    assert en.text("sl.cards_left", count=3) == "3 cards"
    assert en.text("bb.waiting_cards", count=1) == "waiting for 1 card"
    assert en.text("sup.recall", count=1) == "RECALL: the last round"
    assert vi.text("sl.cards_left", count=1) == "1 lá" and km.text("sl.cards_left", count=1) == "កាត 1"


def test_one_word_for_a_seat_in_every_game() -> None:
    vi_keys = [
        key for key, (english, _) in TEXTS.items() if re.search(r"\b[Ss]eats?\b", re.sub(r"\{\w+\}", "", english))
    ]
    assert vi_keys
    for key in vi_keys:
        assert re.search(r"\b[Gg]hế\b", TEXTS[key][1]), key
        assert "កៅអី" in TEXTS_KM[key], key


def test_the_language_button_cycles_the_three_languages() -> None:
    catalogue = Catalogue("en")
    seen = []
    for _ in range(3):
        seen.append((catalogue.language, language_button_text(catalogue.language)))
        catalogue.toggle()
    assert seen == [("en", "Tiếng Việt"), ("vi", "ខ្មែរ"), ("km", "English")]
    assert catalogue.language == "en"


def test_a_void_reason_is_worded_in_the_screens_language() -> None:
    assert Catalogue("vi").text("bb.prompt.voided", reason="misdeal") == "Ván đã hủy: Chia sai. Nhấn VÁN MỚI"
    assert "ចែកខុស" in Catalogue("km").text("bb.prompt.voided", reason="misdeal")
    assert Catalogue("en").text("bb.prompt.voided", reason="misdeal").startswith("Round voided: Misdeal.")
    panel = "dealer pressed VOID on the panel"  # what the controllers journal for the panel's VOID
    for language in ("vi", "km"):
        assert english_words(Catalogue(language).text("bb.prompt.voided", reason=panel)) == [], language


BET_STEPS = st.sampled_from((1, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 2000, 5000, 10000))


@settings(max_examples=200, deadline=None)
@given(seats=st.lists(st.integers(2, 7), unique=True).map(sorted), chip=st.sampled_from((1, 5, 10)), low=BET_STEPS,
       high=st.none() | BET_STEPS, bet=BET_STEPS)
def test_the_set_up_screen_words_a_refusal_exactly_when_the_engine_refuses(
        seats: list[int], chip: int, low: int, high: int | None, bet: int) -> None:
    """What the set-up screen's controls can choose: refused in the screen's language when, and only when, the
    engine refuses it (the engine's reason is English)."""
    from engine.baibuu import settings_from_json
    from engine.errors import InputError
    from kiosk.runtime import set_up_problem

    draft: dict[str, object] = {"seats": seats, "smallest_chip": chip, "min_bet": low, "max_bet": high}
    worded = set_up_problem(draft, bet)
    try:
        refused = settings_from_json(draft).check_bet(bet)  # type: ignore[arg-type]
    except InputError as error:
        refused = str(error)
    assert (worded is None) == (refused is None), (worded, refused)
    for language in ("vi", "km") if worded is not None else ():
        shown = Catalogue(language).text(worded)
        assert english_words(shown) == [] and missing_glyphs(shown) == set(), shown


def test_camera_zones_are_named_in_the_screens_language_and_drawn_shaped() -> None:
    import numpy as np

    from kiosk.ui.screen_camera import zone_label
    from kiosk.ui.shaped_text import draw_on_frame

    zones = ("seat3.high", "house.low", "centre")
    names = {language: [zone_label(zone, Catalogue(language)) for zone in zones] for language in LANGUAGES}
    assert names == {
        "en": ["Seat 3 high", "House low", "Centre"],
        "vi": ["Ghế 3 tay cao", "Nhà cái tay thấp", "Giữa bàn"],
        "km": ["កៅអី 3 កាតខ្ពស់", "ផ្ទះ កាតទាប", "កណ្ដាល"],
    }
    frame = np.zeros((120, 400, 3), dtype=np.uint8)
    x1, y1, x2, y2 = draw_on_frame(frame, names["km"][0], (5, 60), 0.8, (255, 255, 255))
    assert x2 - x1 > 100 and frame[y1:y2, x1:x2].max() == 255 and frame[:, x2 + 1 :].max() == 0


def test_a_schmier_hands_log_is_worded_in_the_screens_language_with_seats_from_one() -> None:
    from engine.cards import Suit, parse_card
    from engine.schmier.actions import Bid, NameTrump, Play, Record

    bid, trump = Bid(seat=0, amount=4), NameTrump(seat=2, suit=Suit.HEARTS)
    assert bid.text() == "seat 1 bids 4"  # the engine's and the journal's words count seats from 1, as people do
    assert bid.to_json()["seat"] == 0  # the JSON from 0
    assert Catalogue("en").phrase(bid.text()) == "seat 1 bids 4"
    assert Catalogue("vi").phrase(bid.text()) == "ghế 1 gọi 4"
    assert Catalogue("km").phrase(trump.text()) == "កៅអី 3 ជ្រើសឈុតមេ កឺ ♥"
    assert Catalogue("vi").phrase(trump.text()) == "ghế 3 chọn chủ cơ ♥"
    played = Record(Play(seat=1, card=parse_card("AH")))
    assert Catalogue("vi").phrase(played.describe()) == "ghế 2 đánh A♥"


def test_schmiers_camera_is_unsure_refusal_is_worded_in_the_screens_language(tmp_path: Path) -> None:
    from test_kiosk_tables import open_journal

    from engine.cards import parse_card
    from kiosk.clock import ManualClock
    from kiosk.controller.schmier import SchmierController
    from kiosk.controller.view import CardRead

    clock = ManualClock()
    c = SchmierController({}, open_journal(tmp_path, clock), clock, seed=9)
    c.command("start")
    for _ in range(60):
        hand = c.hand
        phase = hand.phase.value
        if phase == "play":
            break
        if phase == "bidding":
            c.command("bid:3" if hand.high_bid is None else "pass")
        elif phase == "trump":
            c.command("trump:H")
        else:
            c.command("discard:0" if phase == "discard" else "discard")
    card = parse_card("AH")
    c.on_table({"centre": (CardRead(card, confidence=0.3, flags=frozenset({"low_confidence"})),)})
    c.command("play")
    assert c.alert is not None
    assert Catalogue("vi").text(c.alert) == "máy quay chưa chắc lá giữa bàn: chọn lá trên màn hình"
    assert Catalogue("km").text(c.alert) == TEXTS_KM["sm.refused.camera_unsure"]
    assert Catalogue("en").text(c.alert) == "the camera is unsure of the card in the centre: pick it on the screen"


def test_a_bai_buu_engine_refusal_reaches_the_screen_in_its_language() -> None:
    from engine.baibuu import settings_from_json
    from engine.baibuu.round import State
    from engine.common import IllegalAction
    from kiosk.controller.baibuu import reason_of
    from kiosk.i18n import Msg

    with pytest.raises(IllegalAction) as caught:
        State(settings_from_json({})).settle()
    assert str(caught.value) == "the round is not finished: the house hand is not set yet"  # the logs' English
    alert = Msg("alert.illegal", {"error": reason_of(caught.value)})
    assert Catalogue("vi").text(alert) == "ván chưa xong: bài nhà cái chưa xếp"
    assert Catalogue("km").text(alert) == "ជុំមិនទាន់ចប់៖ កាតផ្ទះមិនទាន់រៀប"
    assert Catalogue("en").text(alert) == "the round is not finished: the house hand is not set yet"


def test_the_samloc_table_line_words_its_variant() -> None:
    from kiosk.ui.screen_samloc import _mode

    for language, words in (("en", "standard rules"), ("vi", "luật thường"), ("km", "ច្បាប់ធម្មតា")):
        assert _mode("normal", Catalogue(language).text) == words


def test_every_device_state_is_worded_for_the_supervisor() -> None:
    from hardware.events import DeviceState

    for state in DeviceState:
        assert f"device.state.{state.value.lower()}" in TEXTS, state
    assert Catalogue("vi").text("device.state.jammed") == "bị kẹt"


@pytest.mark.parametrize("language", ["vi", "km"])
def test_a_dice_fault_and_an_unknown_command_are_worded_in_the_screens_language(
    tmp_path: Path, language: str
) -> None:
    from test_kiosk_controller import Shaker, controller, open_journal

    from kiosk.clock import ManualClock

    clock = ManualClock()
    c = controller(open_journal(tmp_path, clock), clock, Shaker())
    c.command("shake")
    c.on_dice_fault(1, "JAMMED", "motor stalled: jammed dome, clear it and shake again")  # the shaker's English
    fault = Catalogue(language).text(c.view().alert)
    assert english_words(fault) == [] and Catalogue(language).text("dice_fault.jammed") in fault
    assert "jammed" in Catalogue("en").text(c.view().alert)
    c.command("fly")
    unknown = Catalogue(language).text(c.view().alert)
    assert english_words(unknown) == [] and unknown.endswith(" fly")


@pytest.mark.parametrize("language", ["vi", "km"])
def test_schmiers_six_points_are_worded_in_the_screens_language_with_seats_and_teams_from_one(language: str) -> None:
    from test_schmier_properties import play_out

    from engine.schmier import Settings

    points = play_out(seed=3, dealer=0, options=Settings()).settle().points
    assert len(points) == 6
    catalogue = Catalogue(language)
    for award in points:
        worded = catalogue.phrase(award.reason)
        assert english_words(worded) == [], (award.reason, worded)
    high = points[0]
    assert high.seat is not None and f"{high.seat + 1} (" in catalogue.phrase(high.reason)
    # the engine's English counts teams from 1 as the table does: team 1 to team 3, never team 0
    assert "team 1 " in points[-1].reason and "team 0 " not in points[-1].reason


@pytest.mark.parametrize("language", ["vi", "km"])
def test_the_supervisors_devices_and_journal_lines_are_worded_in_the_screens_language(
    tmp_path: Path, language: str
) -> None:
    """The Devices list as the supervisor sees it: a device still connecting, one not used, and the journal light's
    detail when the config keeps the key and the anchors beside the journal; and a round's evidence kept for a
    dispute, as the recall words it."""
    import os
    from dataclasses import replace

    from journal.words import HOLD_DISPUTE, hold_words
    from kiosk.adapters import Devices
    from kiosk.config import config_from_data
    from kiosk.journal_place import placement_problems

    config = config_from_data({"devices": {"shaker": str(tmp_path / "tty9"), "panel": "none"}})
    devices = Devices(config)
    try:
        lines = devices.diagnostics()
    finally:
        devices.close()
    key = tmp_path / "k7"
    key.write_text("0" * 64)
    os.chmod(key, 0o644)
    production = replace(config, journal=replace(config.journal, key=str(key), anchors=str(tmp_path / "a7")))
    refusals = placement_problems(production, tmp_path)[0]
    assert len(refusals) == 3
    catalogue = Catalogue(language)
    shown = [catalogue.text(line) for line in lines]
    shown.append(catalogue.text("sup.journal_line", health="", detail=join("; ", refusals)))
    shown.append(catalogue.text("sup.journal_line", health="", detail=Msg("sup.journal_events", {"events": 7})))
    shown.append(catalogue.text("sup.held", by="S1", reason=catalogue.phrase(hold_words(HOLD_DISPUTE))))
    for text in shown:
        assert english_words(text.replace(str(tmp_path), "")) == [] and missing_glyphs(text) == set(), text
    assert catalogue.text("device.connecting") in shown[0]
    assert hold_words("kept for a dispute") == hold_words(HOLD_DISPUTE)  # as older kiosks journaled it


def test_the_camera_source_is_named_in_the_screens_language() -> None:
    from kiosk.adapters import source_words

    synthetic = source_words("synthetic table (baibuu_7)")
    assert Catalogue("vi").text(synthetic) == "bàn mô phỏng (baibuu_7)"
    assert Catalogue("km").text(source_words("camera 0")) == "កាមេរ៉ា 0"
    assert Catalogue("en").text(synthetic) == "synthetic table (baibuu_7)"
    assert source_words("/srv/videos/table.mp4") == "/srv/videos/table.mp4"


def _journal_of_rare_states(folder: Path) -> Path:
    """A journal whose recall has every review flag, a refused and a differing replay, and evidence frames kept,
    pruned, missing and altered."""
    from engine.baibuu import Settings, State
    from engine.cards import parse_cards
    from journal import Journal
    from journal.events import CardsRead, DiceRolled, EvidencePruned
    from kiosk.clock import ManualClock

    clock = ManualClock()
    journal = Journal.open(folder / "j.sqlite3", folder / "k.key", kiosk_id="K1", table_id="T1", clock=clock)
    journal.recover().raise_if_unsound()
    settings = Settings(seats=(2,), min_bet=10)
    frames = [journal.store_frame(bytes([number]) * 64) for number in range(4)]
    for number in (1, 2):
        state = State(settings)
        round_id = journal.begin_round("baibuu", settings, state.deal_to_json())
        journal.append(DiceRolled(dice=(3, 5, 6), shake=1))
        if number == 2:  # shaken again after its dice were recorded
            journal.append(DiceRolled(dice=(3, 5, 6), shake=2))
        journal.record_action(round_id, state.roll([3, 5, 6]))
        for frame, zone in zip(frames[2 * number - 2 : 2 * number], ("house.high", "seat2.low"), strict=True):
            journal.append(CardsRead(zone, ("AD",), (0.99,), frame=frame))
        journal.record_action(round_id, state.reveal_house(parse_cards("AD 8S QH 4C")))  # round 2: the same hand
        journal.record_action(round_id, state.set_house(parse_cards("AD 8S"), parse_cards("QH 4C")))
        journal.record_action(round_id, state.set_seat(2, 100, parse_cards("KH KS"), parse_cards("5D 4H")))
        settlement = state.settle()
        if number == 1:
            journal.show_results(round_id, settlement)
            journal.close_round(round_id, settlement)
        else:  # paid, with no record of the results shown, and not what the rules give
            journal.close_round(round_id, {"payments": [], "nets": {"house": 0}})
    state = State(settings)
    round_id = journal.begin_round("baibuu", settings, state.deal_to_json())
    journal.record_action(round_id, state.roll([3, 5, 6]))
    journal.record_action(round_id, {"kind": "reveal_house", "cards": ["AD", "8S", "QH"]})  # the engine refuses it
    journal.void_round(round_id, "dealer", "misdeal")
    journal.append(EvidencePruned((frames[0],), (1,), "older than 30 days"))
    journal.close()
    evidence = folder / "evidence"
    for frame in frames[:2]:
        next(evidence.rglob(f"{frame}*")).unlink()  # the first pruned (journaled), the second missing
    next(evidence.rglob(f"{frames[2]}*")).write_bytes(b"altered")
    return folder


@pytest.mark.parametrize("language", ["vi", "km"])
def test_the_recalls_rare_states_are_worded_in_the_screens_language(tmp_path: Path, language: str) -> None:
    """What the supervisor's recall shows of a round gone wrong: each flag, why the replay disagrees, and each
    evidence frame's status, with no English and in glyphs the fonts have."""
    from journal.evidence_export import round_frames
    from journal.review import recall
    from journal.store import JournalReader

    folder = _journal_of_rare_states(tmp_path)
    catalogue = Catalogue(language)
    with JournalReader.open(folder / "j.sqlite3", folder / "k.key") as reader:
        details = recall(reader, 3)
        statuses = [frame.status for detail in details for frame in round_frames(reader, detail.entries)]
    flags = [flag for detail in details for flag in detail.flags]
    assert [flag.key for flag in flags] == ["review.flag.same_hand", "review.flag.same_hand",
                                            "review.flag.dice_twice", "review.flag.paid_unshown"]
    verdicts = [detail.replayed.disagreement for detail in details]
    assert [getattr(v, "key", v) for v in verdicts] == ["review.replay.refused", "review.replay.differs_paid", None]
    assert sorted(status.split()[0] for status in statuses) == ["ALTERED", "MISSING", "kept", "pruned"]
    shown = [catalogue.phrase(flag) for flag in flags]
    shown += [catalogue.text("sup.replay_bad", error=verdict) for verdict in verdicts if verdict is not None]
    shown += [catalogue.phrase(status) for status in statuses]
    for text in shown:
        assert english_words(text) == [] and missing_glyphs(text) == set(), text
    assert shown[0] == {
        "vi": "bài nhà cái 4C 8S AD QH giống bài nhà cái của ván 1: lá bài của ván đó còn trên bàn?",
        "km": "កាតផ្ទះ 4C 8S AD QH ដូចកាតផ្ទះ នៃជុំ 1៖ កាតពីជុំនោះនៅសល់លើតុឬ?",
    }[language]
    assert PHRASES[language]["baibuu.illegal.house_four"].split()[0] in shown[4]  # the engine's refusal, worded


@pytest.mark.parametrize("language", ["vi", "km"])
def test_the_cameras_troubles_are_worded_in_the_screens_language(tmp_path: Path, language: str) -> None:
    """The camera screen's and the supervisor's line for a camera that cannot be opened, a card reader that fails, the
    demo's placement fallback, and a table view that cannot be read."""
    from dataclasses import replace

    from kiosk.adapters import Camera, problem_words
    from kiosk.clock import ManualClock
    from kiosk.config import load_config
    from kiosk.ui.screen_camera import camera_detail

    config = load_config(None)
    camera = Camera(replace(config, camera=replace(config.camera, source=str(tmp_path / "gone.mp4"))), ManualClock())
    try:
        camera.source.read()
        states = [camera.state()]
        camera.source = camera.reader.source = _LiveSource(camera.source.name)
        camera.read_error = "card reader unavailable: no model file"
        states.append(camera.state())
        camera.read_error = None
        camera.fallback = "demo: the felt is read by where the cards were placed (camera.reader: placement)"
        states.append(camera.state())
    finally:
        camera.close()
    catalogue = Catalogue(language)
    shown = [camera_detail(state, catalogue) for state in states]
    for problem in ("no frame read yet", "not calibrated: 2 of 4 markers found",
                    "the calibration was made on 1280×720 frames but the camera gives 640×480: …", "anything else"):
        shown.append(catalogue.text(problem_words(problem)))
    assert states[0].health.value == "down" and states[0].detail.endswith("retrying now")  # the English log line
    for text in shown:
        assert english_words(text.replace(str(tmp_path), "")) == [] and missing_glyphs(text) == set(), text
    assert len(set(shown)) == len(shown)
    assert shown[0] == str(tmp_path / "gone.mp4") + {"vi": ": không mở được; kiểm tra dây cáp hoặc đường truyền hình",
                                                     "km": "៖ បើកមិនបាន។ ពិនិត្យខ្សែកាមេរ៉ា ឬខ្សែបញ្ជូនរូបភាព"}[language]


class _LiveSource:
    """A source whose frames are coming (its status is all the camera's state reads of it)."""

    def __init__(self, name: str) -> None:
        from vision.sources import SourceStatus

        self.name = name
        self.status = SourceStatus("live", f"{name}: live", 0.0)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("language", ["vi", "km"])
def test_the_supervisors_commands_speak_the_asked_language(tmp_path: Path, language: str) -> None:
    """``samloc replay``, ``schmier replay`` and ``logs show / recall / verify`` run as a supervisor runs them: their
    words in Vietnamese or Khmer, from the catalogue; only what the journal recorded (the events table's rows) stays
    as written."""
    import os
    import subprocess
    import sys

    from journal import Journal
    from journal.events import Note
    from kiosk.clock import ManualClock

    data = Path(__file__).parent / "data"
    rare = _journal_of_rare_states(tmp_path / "rare")
    sound = Journal.open(tmp_path / "sound.sqlite3", tmp_path / "sound.key", kiosk_id="K1", table_id="T1",
                         clock=ManualClock())
    sound.recover().raise_if_unsound()
    sound.append(Note(text="shift begins", by="supervisor"))
    sound.close()
    config = tmp_path / "kiosk.yaml"
    config.write_text(f"language: {language}\n", encoding="utf-8")
    rare_db = ["--db", str(rare / "j.sqlite3"), "--key", str(rare / "k.key")]
    commands = {
        "samloc": ["samloc", "replay", str(data / "samloc" / "bao1_pays_for_everyone.json"), "--language", language],
        "schmier": ["schmier", "replay", str(data / "schmier" / "tie_plays_on.json"), "--config", str(config)],
        "show": ["logs", "show", "2", *rare_db, "--language", language],
        "recall": ["logs", "recall", "--count", "3", *rare_db, "--language", language],
        "verify": ["logs", "verify", "--db", str(tmp_path / "sound.sqlite3"), "--key", str(tmp_path / "sound.key"),
                   "--language", language],
        "broken": ["logs", "verify", *rare_db, "--language", language],
    }
    env = dict(os.environ, COLUMNS="200")
    running = {name: subprocess.Popen([sys.executable, "-m", "kiosk.cli", *args], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=env) for name, args in commands.items()}
    outputs = {name: process.communicate(timeout=60) for name, process in running.items()}
    codes = {name: process.returncode for name, process in running.items()}
    assert codes == {"samloc": 0, "schmier": 0, "show": 1, "recall": 0, "verify": 0, "broken": 1}, outputs
    leftovers = {}
    for name, (out, _) in outputs.items():
        for line in out.splitlines():
            if "│" in line:  # a row of a table of what was recorded, as recorded
                continue
            words = english_words(re.sub(r"\S*/\S*", "", line))  # paths are data
            if words:
                leftovers[f"{name}: {line}"] = words
    assert leftovers == {}, "\n".join(f"{line} {words}" for line, words in leftovers.items())
    said = " ".join(out for out, _ in outputs.values())
    expected = {"vi": ("ghế 1 trả ghế 2", "CHÚ Ý", "XEM LẠI 1/3", "NGUYÊN VẸN", "KHÔNG NGUYÊN VẸN", "hòa 23"),
                "km": ("កៅអី 1 សងកៅអី 2", "ប្រយ័ត្ន", "មើលឡើងវិញ 1/3", "ល្អ", "មិនល្អ", "ស្មើ 23")}[language]
    assert all(words in said for words in expected), [words for words in expected if words not in said]


@pytest.mark.parametrize("language", ["vi", "km"])
def test_what_the_journals_check_finds_wrong_is_worded_in_the_screens_language(tmp_path: Path, language: str) -> None:
    """The stop screen's and VERIFY JOURNAL's reason for a journal that fails its check: an evidence frame gone, an
    event altered, rows deleted, events cut off the end."""
    import shutil
    import sqlite3

    from journal.store import _TRIGGERS, JournalReader
    from kiosk.i18n import Msg

    def verify(folder: Path) -> str:
        with JournalReader.open(folder / "j.sqlite3", folder / "k.key") as reader:
            report = reader.verify()
        assert not report.ok and report.problem is not None
        return report.problem

    rare = _journal_of_rare_states(tmp_path / "rare")
    problems = [verify(rare)]
    for tamper in ("UPDATE events SET payload = replace(payload, '3,5,6', '6,6,6') WHERE kind = 'dice_rolled'",
                   "DELETE FROM events WHERE seq = 4", "DELETE FROM events WHERE seq > 20"):
        folder = tmp_path / f"tampered-{len(problems)}"
        shutil.copytree(rare, folder)
        connection = sqlite3.connect(folder / "j.sqlite3", isolation_level=None)  # as someone with the file would
        for name in _TRIGGERS:
            connection.execute(f"DROP TRIGGER {name}")
        connection.execute(tamper)
        for sql in _TRIGGERS.values():
            connection.execute(sql)
        connection.close()
        problems.append(verify(folder))
    problems += _anchor_problems(rare, tmp_path)
    problems += _anchor_side_notes(rare, tmp_path)
    keys = [getattr(problem, "key", problem) for problem in problems]
    assert keys == ["verify.event_trouble", "verify.altered", "verify.gap", "verify.cut", "anchor.rolled_back",
                    "anchor.forked", "anchor.line_out_of_place", "anchor.line_altered", "anchor.not_ours",
                    "anchor.others", "anchor.torn", "anchor.folder_gone", "anchor.cannot_write"]
    catalogue = Catalogue(language)
    for problem in problems:
        shown = catalogue.text(Msg("sup.verify_bad", {"error": problem}))
        shown = re.sub(r"\S*/\S*|\(K1 T1 event [^)]*\)", "", shown)  # paths, and the checkpoint as it was typed
        assert english_words(shown) == [] and missing_glyphs(shown) == set(), shown


def _anchor_problems(journal: Path, folder: Path) -> list[str]:
    """Why a journal does not continue its anchors: a checkpoint beyond its end, one it contradicts, anchor lines
    reordered or altered, and anchors that are all of another journal."""
    from journal.anchors import Anchor, AnchorFile
    from journal.store import JournalReader

    with JournalReader.open(journal / "j.sqlite3", journal / "k.key") as reader:
        end, head = reader.head()
        problems = [reader.check_anchors(checkpoints=[f"K1 T1 event {seq} 2026-12-04T10:00:00Z {digest}"]).problem
                    for seq, digest in ((end + 3, head[:16]), (2, "0" * 16))]
        ours = reader.journal_id() or ""
        for name, journal_id in (("reordered", ours), ("altered", ours), ("another", "f" * 64)):
            path = folder / f"{name}.anchors"
            for seq, why in ((1, "kiosk started"), (2, "round 1 settled")):
                anchor = Anchor("K1", "T1", journal_id, seq, reader.hash_at(seq) or "", "2026-12-04T10:00:00", why)
                AnchorFile(path).send(anchor, reader.sign_anchor)
            if name == "reordered":
                path.write_text("\n".join(reversed(path.read_text().splitlines())) + "\n")
            elif name == "altered":
                path.write_text(path.read_text().replace("round 1 settled", "round 7 settled"))
            problems.append(reader.check_anchors([path]).problem)
    return [problem or "" for problem in problems]


def _anchor_side_notes(journal: Path, folder: Path) -> list[str]:
    """What the anchor check says beside its verdict (anchors of another journal, a line torn by a power cut), and why
    an anchor cannot be written (the anchor volume is gone, the file cannot be written): the journal light's detail."""
    from journal.anchors import Anchor, AnchorError, AnchorFile
    from journal.store import JournalReader
    from journal.words import phrase_of

    with JournalReader.open(journal / "j.sqlite3", journal / "k.key") as reader:
        path = folder / "mixed.anchors"
        for journal_id, seq in (("f" * 64, 1), (reader.journal_id() or "", 2)):
            anchor = Anchor("K1", "T1", journal_id, seq, reader.hash_at(seq) or "", "2026-12-04T10:00", "kiosk started")
            AnchorFile(path).send(anchor, reader.sign_anchor)
        with path.open("a") as file:
            file.write('{"v": 1, "kiosk": "K1"')  # a line cut short by a power cut
        notes = list(reader.check_anchors([path]).notes)
        problems = []
        for sink in (AnchorFile(folder / "unmounted" / "a.anchors"), AnchorFile(folder)):  # a folder is no file
            try:
                sink.send(Anchor("K1", "T1", "", 1, "", "", "kiosk started"), reader.sign_anchor)
            except AnchorError as error:
                problems.append(phrase_of(error))
    return notes + problems


@pytest.mark.parametrize("language", ["vi", "km"])
def test_the_words_drawn_on_the_camera_picture_are_in_the_screens_language(language: str) -> None:
    """On the live camera picture: a reading's doubt (unsure) and the banner of a table that cannot be read (here a
    calibration made on frames of another size), drawn shaped in the screen's language, no English."""
    from dataclasses import replace

    from engine.cards import parse_card
    from kiosk.adapters import Camera
    from kiosk.clock import ManualClock
    from kiosk.config import load_config
    from kiosk.ui.screen_camera import annotated_for_screen
    from kiosk.ui.shaped_text import draw_on_frame
    from vision.detection import LOW_CONFIDENCE, Detection

    def read(frame: object) -> list[Detection]:
        return [Detection(parse_card("AS"), 0.41, (100, 100, 160, 190), flags=frozenset({LOW_CONFIDENCE}))]

    camera = Camera(load_config(None), ManualClock(), read=read)
    drawn: list[str] = []

    def draw(frame: object, text: str, *args: object) -> tuple[int, int, int, int]:
        drawn.append(text)
        return draw_on_frame(frame, text, *args)  # type: ignore[arg-type]

    try:
        camera.reader.step()
        calibration = camera.reader.calibration
        assert calibration is not None and camera.reader.snapshot.problem is None
        camera.reader.calibration = replace(calibration, image_size=(320, 200))
        camera.reader.step()
        assert camera.reader.snapshot.problem is not None
        image = annotated_for_screen(camera, Catalogue(language), draw)
    finally:
        camera.close()
    catalogue = Catalogue(language)
    banner = catalogue.text("camera.calibration_size")
    assert image[:20].reshape(-1, 3).tolist().count([0, 0, 160]) > 100  # the banner's red ground
    assert any(catalogue.text("camera.flag.unsure") in text for text in drawn)
    assert " ".join(drawn).replace("  ", " ").count(banner.split()[0]) >= 1
    for text in drawn:
        assert english_words(text) == [] and missing_glyphs(text) == set(), text


def test_schmiers_trick_lines_count_seats_from_one_in_every_language(tmp_path: Path) -> None:
    """The screen's trick in play ("4:3♠ 5:2♦ 6:A♠" for seats 3, 4 and 5 as the engine counts them) and the last
    trick's winner are worded by the catalogue, seats from 1 as the seat rows show them."""
    from test_kiosk_tables import full_schmier, open_journal, schmier_from_the_felt

    from kiosk.clock import ManualClock
    from kiosk.controller.schmier import SchmierController

    clock = ManualClock()
    c = SchmierController({}, open_journal(tmp_path, clock), clock, seed=9)
    c.command("start")
    hand = full_schmier(c, seed=4)
    if hand.phase.value == "thrown in":
        pytest.skip("thrown in")
    schmier_from_the_felt(c, hand)  # the hand played from the felt: the view reads its last trick
    winner = c.hand.tricks[-1].winner
    last = c.view().last_trick
    assert last is not None and last.params["seat"] == winner
    for language, seat in (("en", "seat"), ("vi", "ghế"), ("km", "កៅអី")):
        assert Catalogue(language).text(last).endswith(f"→ {seat} {winner + 1}")
        assert Catalogue(language).text("sm.trick_play", seat=3, card="3♠") == "4:3♠"
