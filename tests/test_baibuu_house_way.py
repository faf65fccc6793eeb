"""The house way, rule by rule, with every example of the spec and of the issue."""

from __future__ import annotations

import pytest

from engine.baibuu import STANDARD_HOUSE_WAY, HouseWay, Split, house_way
from engine.baibuu.house_way import STANDARD_PAIR_SPLITS, STANDARD_RULES, pair_table_text
from engine.cards import CardError, Rank, parse_cards


def split_of(text: str) -> Split:
    return house_way(parse_cards(text))


def assert_split(text: str, high: str, low: str) -> Split:
    split = split_of(text)
    assert sorted(map(str, split.high.cards)) == sorted(high.split()), split
    assert sorted(map(str, split.low.cards)) == sorted(low.split()), split
    return split


def test_rules_are_named_and_in_the_spec_order() -> None:
    names = [rule.name for rule in STANDARD_RULES]
    assert names == ["natural", "two pairs", "one pair", "Kong or two pictures", "otherwise"]
    assert all(text for _, text in STANDARD_HOUSE_WAY.posted_rules())


# 1. Naturals
def test_natural_four_of_a_kind_set_as_two_pairs() -> None:
    split = split_of("7S 7H 7D 7C")
    assert split.high.hand_class.name == split.low.hand_class.name == "PAIR"
    assert split.rule_name == "natural"
    assert "four 7s" in split.rule


def test_natural_three_of_a_kind_pair_high_other_two_low() -> None:
    split = assert_split("5S KC 5H 5D", "5S 5H", "5D KC")
    assert split.rule == "natural three 5s: pair high, the other two low"


# 2. Two pairs
def test_two_pairs_higher_pair_high() -> None:
    split = assert_split("3D KS 3C KH", "KS KH", "3D 3C")
    assert split.rule == "two pairs: Ks high, 3s low"


def test_two_pairs_aces_rank_highest() -> None:
    assert_split("KS AS KH AH", "AS AH", "KS KH")


# 3. One pair: never split
@pytest.mark.parametrize("pair", ["4", "5", "10", "J", "Q", "K", "A"])
def test_one_pair_never_split_4_5_10_j_q_k_a(pair: str) -> None:
    # 6+8 or A+Z would split some other pairs; these pairs stay together with any two cards.
    for others in ("6C 8D", "2C 9D", "3C 7D"):
        if pair in [token[:-1] for token in others.split()]:
            continue
        split = assert_split(f"{pair}S {pair}H {others}", f"{pair}S {pair}H", others)
        assert split.rule == f"pair of {pair}s: never split, pair high"


SPLIT_CASES = [
    ("2", "3C 7D"),
    ("2", "4C 7D"),
    ("2", "5C 7D"),
    ("2", "6C 7D"),
    ("2", "5C 6D"),
    ("3", "4C 6D"),
    ("3", "5C 6D"),
    ("6", "AC 2D"),
    ("6", "AC 3D"),
    ("6", "2C 3D"),
    ("6", "2C KD"),
    ("6", "3C 10D"),
    ("7", "AC 2D"),
    ("7", "AC QD"),
    ("7", "2C JD"),
    ("7", "10C KD"),
    ("7", "2C 9D"),
    ("8", "AC KD"),
    ("8", "AC 10D"),
    ("9", "AC JD"),
]


@pytest.mark.parametrize(("pair", "others"), SPLIT_CASES)
def test_one_pair_split_table_splits_one_pair_card_with_each_other_card(pair: str, others: str) -> None:
    split = split_of(f"{pair}S {pair}H {others}")
    assert split.rule_name == "one pair"
    assert split.rule.endswith(": split")
    for placed in (split.high, split.low):
        assert sum(card.rank.text == pair for card in placed.cards) == 1
    assert split.high.strength >= split.low.strength  # the better of the two is high


KEEP_CASES = [
    ("2", "3C 6D"),
    ("2", "8C 9D"),
    ("2", "7C 9D"),
    ("3", "4C 5D"),
    ("3", "6C 7D"),
    ("6", "AC 4D"),
    ("6", "KC QD"),
    ("6", "4C KD"),
    ("7", "3C 9D"),
    ("7", "AC 9D"),
    ("8", "AC 2D"),
    ("8", "KC QD"),
    ("9", "2C KD"),
]


@pytest.mark.parametrize(("pair", "others"), KEEP_CASES)
def test_one_pair_otherwise_keep_the_pair_high(pair: str, others: str) -> None:
    split = assert_split(f"{pair}S {pair}H {others}", f"{pair}S {pair}H", others)
    assert split.rule.endswith("keep the pair high")


def test_pair_of_2s_with_5_and_6_issue_wording() -> None:
    split = assert_split("2S 2H 5D 6C", "2S 6C", "2H 5D")
    assert split.rule == "pair of 2s with 5+6: split"
    assert split.high.points == 8 and split.low.points == 7


def test_pair_of_9s_with_ace_and_zero_makes_a_kong_high() -> None:
    split = split_of("9S 9H AD KC")
    assert split.high.hand_class.name == "KONG"
    assert split.low.points == 9


def test_pair_table_is_data_and_lists_every_pair() -> None:
    rows = dict(pair_table_text())
    assert len(rows) == 13
    assert rows["4-4"] == "never split"
    assert rows["2-2"] == "split with 3+7, 4+7, 5+7, 6+7, 5+6"
    assert set(STANDARD_PAIR_SPLITS) == {Rank.TWO, Rank.THREE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE}


def test_a_casino_can_adapt_the_pair_table_as_data() -> None:
    never_split = HouseWay(STANDARD_RULES, pair_splits={})
    split = never_split.split(parse_cards("2S 2H 5D 6C"))
    assert sorted(map(str, split.high.cards)) == ["2H", "2S"]
    with pytest.raises(ValueError, match="pattern"):
        HouseWay(STANDARD_RULES, pair_splits={Rank.TWO: ("5+X",)})


# 4. Kong or two pictures
def test_two_pictures_kept_high_low_may_score_zero_q_k_6_4() -> None:
    split = assert_split("QH KS 6D 4C", "QH KS", "6D 4C")
    assert split.low.points == 0


def test_kong_kept_high_low_may_score_zero_a_9_8_2() -> None:
    split = assert_split("AH 9S 8D 2C", "AH 9S", "8D 2C")
    assert split.rule == "Kong A+9: never broken, high"


def test_two_pictures_and_a_kong_the_pictures_go_high() -> None:
    split = assert_split("AS 9H KD QC", "KD QC", "AS 9H")
    assert "pictures" in split.rule


def test_three_pictures_the_two_highest_go_high() -> None:
    assert_split("JD KS 2C QH", "KS QH", "JD 2C")


def test_kong_is_kept_even_when_another_split_scores_more() -> None:
    # A+9 high, 5+4 low, although A+4 / 9+5 would be 5 and 4.
    assert_split("AS 9H 5D 4C", "AS 9H", "5D 4C")


# 5. Otherwise
def test_otherwise_highest_high_with_low_4_or_more_q_8_a_4() -> None:
    split = assert_split("QH 8S AD 4C", "8S AD", "QH 4C")
    assert split.high.points == 9 and split.low.points == 4


def test_otherwise_low_would_be_3_take_the_8_high_q_8_a_3() -> None:
    split = assert_split("8S QH AD 3C", "QH 8S", "AD 3C")
    assert split.rule == "low would be 3 < 4: take the 8 high"


def test_otherwise_no_split_leaves_4_take_the_highest_high() -> None:
    split = assert_split("KS 10H 2D 6C", "2D 6C", "KS 10H")
    assert split.rule.startswith("no split leaves 4+ low")


def test_otherwise_tie_keeps_the_highest_card_in_the_high_hand() -> None:
    # K+9 / 10+8 and 10+9 / K+8 both give 9 high and 8 low: the king stays high.
    assert_split("KS 10S 9S 8S", "KS 9S", "10S 8S")


def test_house_way_refuses_wrong_count_duplicates_and_the_joker() -> None:
    with pytest.raises(CardError, match="4 cards"):
        house_way(parse_cards("AS KS QS"))
    with pytest.raises(CardError, match="twice"):
        house_way(parse_cards("AS AS QS 2C", allow_duplicates=True))
    with pytest.raises(CardError, match="joker"):
        house_way(parse_cards("AS JK QS 2C"))


def test_the_split_does_not_depend_on_the_order_the_cards_are_read() -> None:
    first = split_of("8S QH AD 3C")
    assert split_of("3C AD QH 8S") == first
    assert split_of("AD 8S 3C QH") == first
