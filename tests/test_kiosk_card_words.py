"""What a person reads of a Sâm Lốc or Schmier hand on a Vietnamese or Khmer screen (each log line, the play on the
table, refusals, payment reasons, the held hand's violations, Schmier's results) is in that language, and names
cards as every screen shows cards (7♥), never by the codes a record keeps (7H); the English text the journal and
the logs keep is unchanged."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from engine.cards import CardsText, parse_cards
from engine.common import IllegalAction
from engine.samloc import Settings, State, random_deal
from engine.samloc.table_hand import TableState, table_record
from engine.schmier import table_record as schmier_record
from engine.schmier.randomplay import play_random_hand
from engine.schmier.table_hand import TableState as SchmierTable
from kiosk.i18n import Catalogue, Msg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_kiosk_languages import english_words
from test_samloc_table_record import played_hands

CARD_CODE = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9AJQK])[SHDC]\b")


def samloc_texts(seeds: range) -> list[str]:
    """Every engine text of whole hands followed at the table: log lines, the play on the table, payment reasons,
    violations, and the refusals a dealer meets (not a combination, does not beat, already played)."""
    texts: list[str] = []
    for seed in seeds:
        rng = random.Random(seed)
        full = State.start(Settings(bet=10), random_deal(rng.choice([2, 3, 4]), 0, rng))
        while not full.is_over:
            actions = full.legal_actions()
            full.apply(actions[rng.randrange(len(actions))])
            if full.top is not None:
                texts.append(full.top.describe())
        hand = TableState.from_json(table_record(full))
        settlement = hand.settle()
        texts += [record.describe() for record in hand.history]
        texts += [payment.reason for payment in settlement.payments] + [v.message for v in settlement.violations]
    table = TableState(Settings(bet=10), TableState.from_json(
        {"table": {"bet": 10}, "players": 2, "leader": 0, "actions": []}).deal)
    for seat, cards in ((0, "3S 9D"), (0, "5S 5D"), (1, "3H 3D"), (1, "5S 6S"), (0, "7S")):
        try:
            table.play(seat, parse_cards(cards))
        except IllegalAction as error:
            texts.append(error.args[0])
    return texts


def schmier_texts(seeds: range) -> list[str | Msg]:
    texts: list[str | Msg] = []
    for seed in seeds:
        full = play_random_hand(random.Random(seed))
        hand = SchmierTable.from_json(schmier_record(full))
        texts += [record.describe() for record in hand.history]
        result = hand.settle()
        texts += [award.reason for award in result.points] + [v.message for v in result.violations]
    return texts


def _worded(catalogue: Catalogue, text: str | Msg) -> str:
    return catalogue.text(text) if isinstance(text, Msg) else catalogue.phrase(text)


@pytest.mark.parametrize("language", ["vi", "km"])
@pytest.mark.parametrize("game", ["samloc", "schmier"])
def test_no_card_code_and_no_english_on_a_vietnamese_or_khmer_screen(game: str, language: str) -> None:
    texts = samloc_texts(range(40)) if game == "samloc" else schmier_texts(range(30))
    catalogue = Catalogue(language)
    leaks = sorted({shown for shown in (_worded(catalogue, text) for text in texts)
                    if CARD_CODE.search(shown) or english_words(shown)})
    assert len(texts) > 200
    assert not leaks, "\n".join(leaks[:10])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=played_hands())
def test_any_hand_at_the_table_reads_in_the_dealers_language_with_its_cards_as_drawn(hand: State) -> None:
    """Whatever the hand (timeouts, sâm, chops, báo-1 breaches, instant wins found at the end), its every line on a
    Vietnamese or Khmer screen is free of card codes and English, and the cards it names are the cards played."""
    table = TableState.from_json(table_record(hand))
    settlement = table.settle()
    texts = [*(record.describe() for record in table.history), *(p.reason for p in settlement.payments),
             *(v.message for v in settlement.violations)]
    for language in ("vi", "km"):
        catalogue = Catalogue(language)
        for text in texts:
            shown = catalogue.phrase(text)
            assert not CARD_CODE.search(shown) and not english_words(shown), (language, shown)
    for record in table.history:  # a play's cards, as the screen words them, are the cards played
        cards = getattr(record, "cards", ())
        if cards:
            assert " ".join(card.pretty for card in cards) in Catalogue("vi").phrase(record.describe())


def test_cards_in_a_log_line_are_shown_with_their_suits_in_every_language_and_kept_as_codes_in_the_journal() -> None:
    hand = TableState.from_json({"table": {"bet": 10}, "players": 2, "leader": 0, "actions": [
        {"kind": "play", "seat": 0, "cards": ["7H", "7D"]}]})
    line = hand.history[0].describe()
    assert str(line) == "seat 1 plays 7H 7D (a pair of 7s)"  # what the journal's narration and logs show keep
    assert Catalogue("en").phrase(line) == "seat 1 plays 7♥ 7♦ (a pair of 7s)"
    assert Catalogue("vi").phrase(line) == "ghế 1 đánh 7♥ 7♦ (đôi 7)"
    assert "7♥ 7♦" in Catalogue("km").phrase(line)


def test_a_refusal_names_the_cards_with_their_suits() -> None:
    hand = TableState.from_json({"table": {"bet": 10}, "players": 2, "leader": 0, "actions": [
        {"kind": "play", "seat": 0, "cards": ["4S"]}]})
    with pytest.raises(IllegalAction) as refused:
        hand.play(1, parse_cards("4S"))
    assert str(refused.value.args[0]) == "4S was already played by seat 1"
    assert Catalogue("vi").phrase(refused.value.args[0]) == "lá 4♠ đã được ghế 1 đánh"


def test_cards_text_keeps_its_cards_through_a_copy() -> None:
    import copy
    import pickle

    text = CardsText(parse_cards("10H 2S"))
    for again in (copy.deepcopy(text), pickle.loads(pickle.dumps(text))):
        assert again == "10H 2S" and again.pretty == "10♥ 2♠"


def test_schmiers_refusals_are_worded_in_the_dealers_language() -> None:
    from engine.schmier import TableDeal as SchmierDeal
    from engine.schmier.settings import Settings as SchmierSettings

    hand = SchmierTable(SchmierSettings(), SchmierDeal.of(0))
    refusals = []
    for attempt in (lambda: hand.bid(3, 3), lambda: hand.play(1, parse_cards("AS")[0]), lambda: hand.bid(1, 7),
                    lambda: (hand.bid(1, 4), hand.bid(2, 4)), lambda: (hand.bid(2, 6), hand.bid(3, 6)),
                    lambda: hand.settle()):
        with pytest.raises(IllegalAction) as refused:
            attempt()
        refusals.append(refused.value.args[0])
    assert [str(r) for r in refusals[:2]] == ["not seat 4's turn: waiting for seat 2 to bid or pass",
                                              "not now: the hand is in bidding, waiting for seat 2 to bid or pass"]
    assert Catalogue("vi").phrase(refusals[3]) == "phải gọi cao hơn 4 của ghế 2: gọi 5 trở lên, hoặc bỏ"
    for language in ("vi", "km"):
        for refusal in refusals:
            shown = Catalogue(language).phrase(refusal)
            assert shown != str(refusal) and not english_words(shown), (language, shown)


def test_trump_is_one_khmer_word_in_every_text_that_names_it() -> None:
    """Schmier's trump is ឈុតមេ on every Khmer screen and in every Khmer phrase (set-up, prompts, log lines, refusals,
    the revoke held for a supervisor), never the rule sheet's English "Trump" nor a split ឈុត មេ."""
    from engine.phrases import TEMPLATES
    from engine.schmier.table_hand import TRUMP_WORD, V_REVOKE
    from kiosk.i18n import TEXTS
    from kiosk.i18n_km import PHRASES_KM, TEXTS_KM

    english = {**{key: texts[0] for key, texts in TEXTS.items()}, **TEMPLATES}
    khmer = {**TEXTS_KM, **PHRASES_KM}
    naming = {key for key, text in english.items() if re.search(r"\btrumps?\b", text, re.I)}
    assert naming & set(TEXTS) and naming & set(TEMPLATES)
    for key in naming - {TRUMP_WORD.key, V_REVOKE.key}:
        assert "ឈុតមេ" in khmer[key], (key, khmer[key])
    assert not [text for text in khmer.values() if "Trump" in text or "ឈុត មេ" in text]
    revoke = V_REVOKE(seat=1, card="5♦", trick=1, held="4♥", later=2, suit=TRUMP_WORD())
    assert "ចេញតាមឈុតមេ" in Catalogue("km").phrase(revoke)
