"""The Sâm Lốc engine's own words (refusals, combinations, the log, payment reasons) on a Vietnamese screen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_kiosk_tables import full_hand, open_journal, play_from_the_felt
from test_samloc_helpers import play_out, start

from engine.cards import parse_cards
from engine.common import IllegalAction
from engine.phrases import TEMPLATES, Phrase, placeholders
from engine.samloc import State
from kiosk.clock import ManualClock
from kiosk.controller.samloc import SamLocController
from kiosk.i18n import PHRASES_VI, Catalogue, Msg

SEAT0 = "3H 4S 6H 7D 9S JS JH QD KC 2C"
SEAT1 = "3S 4H 5D 6C 7S 8H 9D 10C AS AH"
SEAT2 = "3C 5S 5H 6S 8S 10S JD QC KS 2H"

# Words that only the English texts use: none may be left on the Vietnamese screen.
ENGLISH = re.compile(
    r"\b(seat|turn|pass|passes|play|plays|beat|beats|beaten|card|cards|round|hand|single|pair|triple|quad|straight"
    r"|chop|the|of|a|not|he|must|left|ace|jack|queen|king|spades|hearts|diamonds|clubs|holding|never|everyone)\b"
    r"|\d+e?s\b"
)



def shown(text: str) -> str:
    """An engine's English text as a screen shows it: its cards with their suits (``7H`` -> ``7♥``)."""
    return re.sub(r"\b(10|[2-9AJQK])([SHDC])\b", lambda m: m.group(1) + "♠♥♦♣"["SHDC".index(m.group(2))], text)

def english_words(text: str) -> list[str]:
    return [match.group(0) for match in ENGLISH.finditer(text)]


def refusal(action: object) -> Phrase:
    """The engine's reason for refusing an action, as the kiosk gets it (``error.args[0]``, not ``str(error)``)."""
    with pytest.raises(IllegalAction) as caught:
        action()  # type: ignore[operator]
    message = caught.value.args[0]
    assert isinstance(message, Phrase), repr(message)
    assert str(caught.value) == message
    return message


def test_every_samloc_phrase_has_a_vietnamese_wording_with_the_same_values() -> None:
    keys = [key for key in TEMPLATES if key.startswith(("samloc.", "list."))]
    assert len(keys) > 60, keys
    for key in keys:
        assert key in PHRASES_VI, f"no Vietnamese wording for {key}"
        assert placeholders(PHRASES_VI[key]) == placeholders(TEMPLATES[key]), key
        assert not english_words(re.sub(r"\{[^}]*\}", "", PHRASES_VI[key])), (key, PHRASES_VI[key])


def _does_not_beat(hand: State) -> Phrase:
    hand.play(0, parse_cards("9S"))
    return refusal(lambda: hand.play(1, parse_cards("7S")))


def _out_of_turn(hand: State) -> Phrase:
    return refusal(lambda: hand.play(1, parse_cards("3S")))


def _pass_when_leading(hand: State) -> Phrase:
    return refusal(lambda: hand.pass_(0))


def _single_on_a_pair(hand: State) -> Phrase:
    hand.play(0, parse_cards("JS JH"))
    return refusal(lambda: hand.play(1, parse_cards("AS")))


def _pair_on_a_single_2(hand: State) -> Phrase:
    hand.play(0, parse_cards("2C"))
    return refusal(lambda: hand.play(1, parse_cards("AS AH")))


def _no_combination(hand: State) -> Phrase:
    return refusal(lambda: hand.play(0, parse_cards("3H KC")))


def _passed_this_round(hand: State) -> Phrase:
    hand.play(0, parse_cards("3H"))
    hand.pass_(1)
    hand.play(2, parse_cards("5S"))
    hand.play(0, parse_cards("6H"))  # seat 1 passed: seat 2 is to play
    return refusal(lambda: hand.play(1, parse_cards("7S")))


def _sam_too_late(hand: State) -> Phrase:
    hand.play(0, parse_cards("3H"))
    return refusal(lambda: hand.declare_sam(1))


def as_table(text: str) -> str:
    """A text with its seats numbered from 1, as the table (and the screen) numbers them."""
    return re.sub(r"\b(seat|ghế) (\d+)", lambda m: f"{m[1]} {int(m[2]) + 1}", text)


@pytest.mark.parametrize(
    "act, english, vietnamese",
    [
        (_does_not_beat, "the 7 of spades does not beat the 9 of spades", "lá 7 bích không chặn được lá 9 bích"),
        (_out_of_turn, "it is seat 0's turn, not seat 1's", "đang là lượt của ghế 0, không phải ghế 1"),
        (
            _pass_when_leading,
            "seat 0 leads this round and cannot pass: he must play",
            "ghế 0 đánh đầu vòng này, không được bỏ lượt: phải đánh",
        ),
        (
            _single_on_a_pair,
            "a pair of jacks can only be beaten by a higher pair",
            "đôi J chỉ chặn được bằng đôi cao hơn",
        ),
        (
            _pair_on_a_single_2,
            "a single 2 can only be beaten by a quad",
            "heo lẻ (một lá 2) chỉ chặt được bằng tứ quý",
        ),
        (
            _no_combination,
            "3H KC is not a combination: play a single, a pair, a triple, a quad or a straight of 3 to 10 cards "
            "in a row",
            "3♥ K♣ không phải bộ hợp lệ: đánh lá lẻ, đôi, sám cô, tứ quý hoặc sảnh từ 3 đến 10 lá liên tiếp",
        ),
        (
            _passed_this_round,
            "seat 1 passed this round; he may play again when a new round is led",
            "ghế 1 đã bỏ lượt vòng này; được đánh lại khi có vòng mới",
        ),
        (
            _sam_too_late,
            "sâm can only be declared after the deal, before the first card is played",
            "chỉ được báo sâm sau khi chia bài, trước khi đánh lá đầu tiên",
        ),
    ],
)
def test_an_illegal_play_is_refused_in_the_dealers_language(act: object, english: str, vietnamese: str) -> None:
    hand = start([SEAT0, SEAT1, SEAT2])
    reason = act(hand)  # type: ignore[operator]
    # the engine's words count seats from 1, as the table does (its values, like the JSON, from 0)
    assert reason == as_table(english) and type(str(reason)) is str
    assert Catalogue("en").phrase(reason) == shown(as_table(english))  # cards on a screen as 7♥, not 7H
    words = Catalogue("vi").phrase(reason)
    assert words == as_table(vietnamese)
    assert not english_words(words), words


def test_payment_reasons_are_vietnamese() -> None:
    """Seat 0 sheds his hand unanswered; seat 2 never played and holds 2S, 2H and the quad of 8s (thối)."""
    hands = ["3S 4H 5D 6C 7S 9S 9H JD JC KS", "3H 4D 5H 10S 10H QD QS AC 6D 7C", "8S 8H 8D 8C 2S 2H 3C 4C 9C KH"]
    moves = ["0 play 3S 4H 5D 6C 7S", "1 pass", "2 pass", "0 play 9S 9H", "1 pass", "2 pass",
             "0 play JD JC", "1 pass", "2 pass", "0 play KS"]  # fmt: skip
    hand = play_out(hands, moves)
    reasons = [payment.reason for payment in hand.settle().payments]
    assert reasons == [
        "never played a card (counts as 15 cards)",
        "never played a card (counts as 15 cards)",
        "thối: left holding 2S, 2H, a quad of 8s",
    ]
    words = [Catalogue("vi").phrase(reason) for reason in reasons]
    assert words == [
        "chưa đánh lá nào (tính 15 lá)",
        "chưa đánh lá nào (tính 15 lá)",
        "thối: còn giữ 2♠, 2♥, tứ quý 8",
    ]
    log = Catalogue("vi").phrase(hand.history[-1].describe())
    assert log == "ghế 1 đánh K♠ (lá K bích); ghế 1 hết bài và thắng ván", log
    assert Catalogue("en").phrase(hand.history[-1].describe()) == shown(hand.history[-1].describe())
    assert hand.history[-1].describe() == "seat 1 plays KS (the king of spades); seat 1 goes out and wins the hand"


def test_a_chop_is_worded_with_the_table_words() -> None:
    hands = ["2S 5H 6D 8C 9S JH QD KC AS 4D", "7S 7H 7D 7C 10S 10D JD QH KS 3C"]
    moves = ["0 play 2S", "1 play 7S 7H 7D 7C", "0 pass", "1 play 10S 10D", "0 pass", "1 play JD QH KS", "0 pass",
             "1 play 3C"]  # fmt: skip
    hand = play_out(hands, moves)
    vi = Catalogue("vi")
    assert vi.phrase(hand.history[1].describe()) == (
        "ghế 2 đánh 7♠ 7♥ 7♦ 7♣ (tứ quý 7); ghế 2 chặt heo 2♠ của ghế 1: 5×cược (500), trả khi hết vòng"
    )
    assert [vi.phrase(p.reason) for p in hand.settle().payments] == ["còn 9 lá", "chặt heo"]


def test_the_table_shows_the_engines_refusal_and_the_payments_in_vietnamese(tmp_path: Path) -> None:
    clock = ManualClock()
    c = SamLocController({"bet": 10, "players": 3}, open_journal(tmp_path, clock), clock)
    vi, en = Catalogue("vi"), Catalogue("en")
    c.command("start")
    leader = c.hand.turn
    c.command("pass")  # the leader may not pass
    assert c.alert is not None and c.alert.key == "alert.illegal"
    error = c.alert.params["error"]
    assert isinstance(error, Phrase) and error.key == "samloc.illegal.must_lead"
    assert en.text(c.alert) == f"seat {leader + 1} leads this round and cannot pass: he must play"
    assert vi.text(c.alert) == f"ghế {leader + 1} đánh đầu vòng này, không được bỏ lượt: phải đánh"
    c.command("confirm")  # the table's own refusal
    assert en.text(c.alert) == "nothing to confirm now" and vi.text(c.alert) == "chưa có gì để xác nhận"
    hand = full_hand(c, seed=11)
    play_from_the_felt(c, clock, hand)
    view = c.view()
    assert not english_words(vi.phrase(view.log[-1])), vi.phrase(view.log[-1])
    assert view.payments and all(isinstance(line, Msg) for line in view.payments)
    for line in view.payments:
        english, words = en.text(line), vi.text(line)
        assert english.startswith("seat ") and " → seat " in english
        assert words.startswith("ghế ") and not english_words(words), words
