"""Sâm Lốc at a real table: hands followed from the felt (``TableState``), rebuilt at their end and checked.

The table records here come from hands played with the deal known (``State``): each is turned into what the table
saw (plays, passes, the card each timeout laid, claims) and what each seat showed at the end, replayed, and must
settle exactly as the hand played with its deal did. Records altered as a cheat or a misread would alter them give
the named violation and a held settlement.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards, standard_deck
from engine.common import IllegalAction
from engine.errors import InputError
from engine.samloc import (
    ClaimInstant,
    Deal,
    Settings,
    State,
    TableDeal,
    TableState,
    random_deal,
    replay,
    table_record,
)
from engine.samloc.table_hand import read_record

MAX_STEPS = 400


def c(text: str) -> list[str]:
    """Card texts as a record lists them."""
    return text.split()


@st.composite
def played_hands(draw: st.DrawFn) -> State:
    """A hand dealt at random and played to its end with random legal actions (timeouts, sâm and báo-1 breaches
    included: the random player often plays a low single under the duty)."""
    players = draw(st.integers(2, 4))
    table = Settings(
        bet=draw(st.sampled_from((10, 100, 10_000))),
        mode=draw(st.sampled_from(("normal", "sam_ngheo_giau"))),
        quad_beats_pair_of_twos=draw(st.booleans()),
        timeout_keeps_bao1_duty=draw(st.booleans()),
    )
    rng = random.Random(draw(st.integers(0, 2**32)))
    hand = State.start(table, random_deal(players, rng.randrange(players), rng))
    steps = 0
    while not hand.is_over:
        actions = hand.legal_actions()
        hand.apply(actions[rng.randrange(len(actions))])
        steps += 1
        assert steps < MAX_STEPS
    return hand


def from_record(record: dict[str, Any]) -> TableState:
    return TableState.from_json(json.loads(json.dumps(record)))  # through JSON text, as a file is read


def kinds(state: TableState) -> list[tuple[int | None, str]]:
    return [(violation.seat, violation.kind) for violation in state.settle().violations]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=played_hands())
def test_a_table_record_settles_as_the_hand_played_with_its_deal(hand: State) -> None:
    record = table_record(hand)
    assert "hands" not in record and record["players"] == hand.players
    table = from_record(record)
    full = hand.settle()
    seen = table.settle()
    assert seen.result == full.result and seen.winners == full.winners
    assert Counter(seen.payments) == Counter(full.payments)
    assert sum(seen.deltas) == 0 and seen.deltas == full.deltas
    assert table.next_leader() == hand.next_leader()
    # the only rule the table could not check at once, and finds at the end, is báo 1's duty: one violation per
    # breach, and no other
    assert kinds(table) == [(breach.seat, "bao1_duty") for breach in hand.breaches]
    assert seen.held == bool(hand.breaches)
    # no card lost or doubled: the rebuilt deal is the deal (an instant win's other seats need not show)
    rebuilt = table.rebuilt_hands()
    for seat, cards in enumerate(rebuilt):
        if cards is not None:
            assert Counter(cards) == Counter(hand.deal.hands[seat]) and len(cards) == 10
    # the record round-trips, and the journal's form (the deal, the actions) replays to the same state
    assert table.to_json() == record | {"actions": table.to_json()["actions"]}
    assert from_record(table.to_json()) == table
    settings_, deal, actions = read_record(record)
    assert replay(settings_, deal.to_json(), actions) == table


@st.composite
def instant_deals(draw: st.DrawFn) -> State:
    """Deals where one or two seats hold an instant win (five pairs, or three triples), the rest at random."""
    players = draw(st.integers(2, 4))
    rng = random.Random(draw(st.integers(0, 2**32)))
    deck = list(standard_deck())
    rng.shuffle(deck)
    by_rank: dict[Any, list[Any]] = {}
    for card in deck:
        by_rank.setdefault(card.rank, []).append(card)
    ranks = list(by_rank)
    rng.shuffle(ranks)
    lucky = draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=2, unique=True))
    hands: list[list[Any]] = [[] for _ in range(players)]
    for seat in lucky:
        if draw(st.booleans()):  # five pairs
            for rank in [ranks.pop() for _ in range(5)]:
                hands[seat] += [by_rank[rank].pop(), by_rank[rank].pop()]
        else:  # three triples and a single
            for rank in [ranks.pop() for _ in range(3)]:
                hands[seat] += [by_rank[rank].pop() for _ in range(3)]
    rest = [card for cards in by_rank.values() for card in cards]
    rng.shuffle(rest)
    for seat in range(players):
        while len(hands[seat]) < 10:
            hands[seat].append(rest.pop())
    table = Settings(bet=10, mode=draw(st.sampled_from(("normal", "sam_ngheo_giau"))))
    return State.start(table, Deal(tuple(tuple(hand) for hand in hands), draw(st.integers(0, players - 1))))


@settings(max_examples=60, deadline=None)
@given(hand=instant_deals())
def test_a_claimed_instant_win_settles_as_the_deal_does(hand: State) -> None:
    assert hand.is_over and hand.outcome is not None and hand.outcome.result == "instant_win"
    record = table_record(hand)
    assert all(action.get("instant") for action in record["actions"])
    table = from_record(record)
    seen, full = table.settle(), hand.settle()
    assert (seen.result, seen.winners, seen.payments, seen.deltas) == (full.result, full.winners, full.payments,
                                                                        full.deltas)
    assert not seen.held and sum(seen.deltas) == 0
    assert table.next_leader() == hand.next_leader()


# ---------------------------------------------------------------- worked records

CARDS_0 = "3S 4H 5D 6C 7S 8H 9D 10C JS KH"
CARDS_1 = "3H 4S 6H 7D 9S JC QC KD AD 2H"
CARDS_2 = "4D 5S 6S 8S 10S JH QS KC AC 2D"


def two_player_record() -> dict[str, Any]:
    """Seat 0 sheds a straight, JS and KH; seat 1 passes each time and shows his 10 cards (15 counted, a 2)."""
    return {
        "game": "samloc",
        "table": {"bet": 10},
        "players": 2,
        "leader": 0,
        "actions": [
            {"kind": "play", "seat": 0, "cards": c("3S 4H 5D 6C 7S 8H 9D 10C")},
            {"kind": "pass", "seat": 1},
            {"kind": "play", "seat": 0, "cards": ["JS"]},
            {"kind": "pass", "seat": 1},
            {"kind": "play", "seat": 0, "cards": ["KH"]},
        ],
        "revealed": [None, c(CARDS_1)],
    }


def test_a_two_player_record() -> None:
    hand = from_record(two_player_record())
    result = hand.settle()
    assert result.checked and not result.held and result.violations == ()
    assert result.deltas == [180, -180]
    assert [p.reason for p in result.payments] == ["never played a card (counts as 15 cards)", "thối: left holding 2H"]
    assert result.to_json()["violations"] == [] and result.to_json()["held"] is False
    # the same hand with its deal known settles alike
    full = replay(Settings(bet=10), {"hands": [c(CARDS_0), c(CARDS_1)], "leader": 0},
                  two_player_record()["actions"])
    assert full.settle().payments == result.payments


def three_player_record() -> dict[str, Any]:
    """Seat 1 leads 3H; seat 2 answers 4D, seat 0 KH; the others pass; seat 0 then sheds his straight and JS,
    going down to one card (báo 1: seat 2, before him, must play his highest single), seat 2 leads a low single
    (5S) while holding 2D; seat 0 goes out with 3S, so seat 2 pays for everyone."""
    return {
        "game": "samloc",
        "table": {"bet": 10},
        "players": 3,
        "leader": 1,
        "actions": [
            {"kind": "play", "seat": 1, "cards": ["3H"]},
            {"kind": "play", "seat": 2, "cards": ["4D"]},
            {"kind": "play", "seat": 0, "cards": ["KH"]},
            {"kind": "pass", "seat": 1},
            {"kind": "pass", "seat": 2},
            {"kind": "play", "seat": 0, "cards": c("4H 5D 6C 7S 8H 9D 10C")},
            {"kind": "pass", "seat": 1},
            {"kind": "pass", "seat": 2},
            {"kind": "play", "seat": 0, "cards": ["JS"]},
            {"kind": "pass", "seat": 1},
            {"kind": "pass", "seat": 2},
            {"kind": "play", "seat": 0, "cards": ["3S"]},
        ],
        "revealed": [None, c("4S 6H 7D 9S JC QC KD AD 2H"), c("5S 6S 8S 10S JH QS KC AC 2D")],
    }


def test_a_three_player_record_settles_as_its_deal_does() -> None:
    hand = from_record(three_player_record())
    assert hand.players == 3 and hand.outcome is not None and hand.outcome.result == "win"
    result = hand.settle()
    assert not result.held
    deal = {"hands": [c(CARDS_0), c(CARDS_1), c(CARDS_2)], "leader": 1}
    full = replay(Settings(bet=10), deal, three_player_record()["actions"])
    assert full.settle().payments == result.payments
    assert result.deltas == [240, -120, -120]  # each: 9 cards left and a 2 (thối)


def bao1_broken_record() -> dict[str, Any]:
    """Three players, seat 0 leads. In the third round seat 0 is down to one card (KH): báo 1, and seat 2, just
    before him, must play his highest single; seat 2 answers JS with QS while holding AC, and seat 0 goes out on
    KH that same round: seat 2 pays for everyone."""
    return {
        "game": "samloc",
        "table": {"bet": 10},
        "players": 3,
        "leader": 0,
        "actions": [
            {"kind": "play", "seat": 0, "cards": c("4H 5D 6C 7S 8H 9D 10C")},
            {"kind": "pass", "seat": 1},
            {"kind": "pass", "seat": 2},
            {"kind": "play", "seat": 0, "cards": ["3S"]},
            {"kind": "play", "seat": 1, "cards": ["4S"]},
            {"kind": "play", "seat": 2, "cards": ["2D"]},
            {"kind": "pass", "seat": 0},
            {"kind": "pass", "seat": 1},
            {"kind": "play", "seat": 2, "cards": ["5S"]},
            {"kind": "play", "seat": 0, "cards": ["JS"]},
            {"kind": "pass", "seat": 1},
            {"kind": "play", "seat": 2, "cards": ["QS"]},
            {"kind": "play", "seat": 0, "cards": ["KH"]},
        ],
        "revealed": [None, c("3H 6H 7D 9S JC QC KD AD 2H"), c("4D 6S 8S 10S JH KC AC")],
    }


def test_bao1_duty_broken_pays_for_everyone_and_is_held() -> None:
    hand = from_record(bao1_broken_record())
    result = hand.settle()
    assert kinds(hand) == [(2, "bao1_duty")]
    assert result.violations[0].message == (
        "seat 3 played QS while holding AC and seat 1 had one card (báo 1: he must play his highest single); "
        "seat 1 went out that round: seat 3 pays for everyone")
    assert result.held
    assert {p.payer for p in result.payments} == {2} and result.deltas == [190, 0, -190]
    # the kiosk could not see it during play: the table state took QS as any legal answer
    assert hand.breaches == ()
    # with the deal known, the engine finds the same payments
    deal = {"hands": [c(CARDS_0), c(CARDS_1), c(CARDS_2)], "leader": 0}
    assert replay(Settings(bet=10), deal, bao1_broken_record()["actions"]).settle().payments == result.payments


def test_a_card_shown_twice_is_held() -> None:
    record = two_player_record()
    record["revealed"][1] = [*c(CARDS_1)[:-1], "JS"]  # JS was played by seat 0; 2H not shown
    hand = from_record(record)
    result = hand.settle()
    assert result.held
    assert kinds(hand) == [(0, "card_twice")]
    assert "JS is in the deal twice (played by seat 1, shown by seat 2)" in result.violations[0].message


def test_a_hand_of_nine_cards_is_held() -> None:
    record = two_player_record()
    record["revealed"][1] = c(CARDS_1)[:-1]
    hand = from_record(record)
    result = hand.settle()
    assert kinds(hand) == [(1, "hand_size")]
    assert result.violations[0].message == (
        "seat 2's hand comes to 9 cards (0 played, 9 shown): every hand is dealt 10")
    assert result.held and result.to_json()["held"] is True
    # settled from what was seen: 15 cards for never playing, no 2 left
    assert result.deltas == [150, -150]


def test_a_loser_who_shows_nothing_is_held() -> None:
    record = two_player_record()
    record["revealed"] = [None, None]
    assert kinds(from_record(record)) == [(1, "hand_size")]


def test_an_unclaimed_instant_win_is_shown_not_paid() -> None:
    record = two_player_record()
    five_pairs = "3H 3D 4S 4D 6H 6D 7D 7H 9S 9H"
    record["revealed"][1] = five_pairs.split()
    hand = from_record(record)
    result = hand.settle()
    assert kinds(hand) == [(1, "instant_unclaimed")]
    assert "seat 2 was dealt an instant win (five pairs" in result.violations[0].message
    assert result.result == "win" and result.deltas == [150, -150]  # played as it was, the instant win not paid


def test_a_claimed_instant_win() -> None:
    five_pairs = c("3H 3D 4S 4D 6H 6D 7D 7H 9S 9H")
    record = {"game": "samloc", "table": {"bet": 10}, "players": 3, "leader": 0,
              "actions": [{"seat": 2, "instant": True}], "revealed": [None, None, five_pairs]}
    hand = from_record(record)
    assert hand.is_over and hand.claims == (2,)
    result = hand.settle()
    assert result.result == "instant_win" and result.winners == (2,) and not result.held
    assert result.deltas == [-100, -100, 200]
    assert hand.to_json()["actions"] == [{"kind": "instant", "seat": 2}]
    # a claim the cards do not make: held, nothing paid
    record["revealed"][2] = c(CARDS_2)
    false = from_record(record)
    assert kinds(false) == [(2, "instant_false")] and false.settle().payments == ()


def test_a_claim_comes_before_the_first_play() -> None:
    hand = TableState(Settings(bet=10), TableDeal.of(2, 0))
    hand.play(0, parse_cards("3S"))
    with pytest.raises(IllegalAction, match="an instant win is claimed on the deal"):
        hand.claim_instant(1)


def test_the_table_refuses_at_once_what_it_can_see() -> None:
    hand = TableState(Settings(bet=10), TableDeal.of(3, 0))
    hand.play(0, parse_cards("5S"))
    with pytest.raises(IllegalAction, match="it is seat 2's turn, not seat 3's"):
        hand.play(2, parse_cards("6S"))
    with pytest.raises(IllegalAction, match="5S was already played by seat 1"):
        hand.play(1, parse_cards("5S"))
    with pytest.raises(IllegalAction, match="the 4 of spades does not beat the 5 of spades"):
        hand.play(1, parse_cards("4S"))
    with pytest.raises(IllegalAction, match="cards are shown when the hand is over"):
        hand.show(1, parse_cards("4S"))
    hand.play(1, parse_cards("6S"))
    hand.pass_(2)
    with pytest.raises(IllegalAction, match="seat 1's time ran out while he could pass"):
        hand.timeout(0, parse_cards("7S"))
    hand.timeout(0)
    with pytest.raises(IllegalAction, match="name the one card the dealer laid for him"):
        hand.timeout(1)  # seat 1 leads a new round: the table must name the card laid
    hand.timeout(1, parse_cards("3D"))
    assert hand.top is not None and hand.played[1] == parse_cards("6S 3D")


def test_a_timer_that_laid_the_wrong_card_is_held() -> None:
    """Seat 0's time runs out as he leads: the dealer laid 4H, but his lowest single was 3S."""
    record = two_player_record()
    record["actions"][0:0] = []
    record["actions"] = [
        {"kind": "timeout", "seat": 0, "cards": ["4H"]},
        {"kind": "pass", "seat": 1},
        {"kind": "play", "seat": 0, "cards": ["3S"]},
        {"kind": "pass", "seat": 1},
        {"kind": "play", "seat": 0, "cards": c("5D 6C 7S 8H 9D 10C JS")},
        {"kind": "pass", "seat": 1},
        {"kind": "play", "seat": 0, "cards": ["KH"]},
    ]
    hand = from_record(record)
    assert kinds(hand) == [(0, "timer_card")]
    assert hand.settle().violations[0].message == (
        "seat 1's time ran out while he led: 4H was laid, the timer lays his lowest single, 3S")
    assert hand.settle().deltas == [180, -180]  # settled as it was played


def test_a_record_read_from_the_brief_form() -> None:
    """The older action form reads too: ``{"seat": S, "instant": true}``, ``{"seat": 1, "pass": true}``."""
    record = two_player_record()
    record["actions"][1] = {"seat": 1, "pass": True}
    assert from_record(record).settle().deltas == [180, -180]


def test_a_table_record_is_refused_where_malformed() -> None:
    record = two_player_record()
    with pytest.raises(InputError, match="one entry per seat"):
        from_record(record | {"revealed": [None]})
    with pytest.raises(InputError, match="unknown key 'kept' in a Sâm Lốc table record"):
        from_record(record | {"kept": []})
    with pytest.raises(InputError, match="2 to 4"):
        from_record(record | {"players": 5})
    unfinished = copy.deepcopy(record)
    del unfinished["actions"][-1]
    with pytest.raises(IllegalAction, match="cards are shown when the hand is over"):
        from_record(unfinished)


def test_the_state_dealt_by_the_kiosk_refuses_table_actions() -> None:
    deal = Deal((parse_cards(CARDS_0), parse_cards(CARDS_1)), 0)
    hand = State(Settings(bet=10), deal)
    with pytest.raises(IllegalAction, match="belongs to a table record"):
        hand.apply(ClaimInstant(1))
    # a timeout that names the card the timer lays is taken; another card is refused with the rule
    hand.timeout(0, parse_cards("3S"))
    assert hand.history[-1].to_json() == {"kind": "timeout", "seat": 0, "cards": ["3S"]}
    hand.timeout(1)  # he may pass: he passes
    with pytest.raises(IllegalAction, match="the timer lays his lowest single, 4H, not 5D"):
        hand.timeout(0, parse_cards("5D"))


def test_a_full_deck_is_never_more_than_52() -> None:
    assert len(standard_deck()) == 52


# ---------------------------------------------------------------- the supervisor's command, run as a supervisor runs it


def run_cli(dealer_assist: list[str], cli_env: dict[str, str], path: Path, *args: str) -> Any:
    return subprocess.run([*dealer_assist, "samloc", "replay", str(path), *args], capture_output=True, text=True,
                          env=cli_env, timeout=60)


def test_the_replay_command_holds_a_broken_record_with_exit_status_3(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(bao1_broken_record()), encoding="utf-8")
    done = run_cli(dealer_assist, cli_env, path, "--json")
    assert done.returncode == 3, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"result", "winners", "deltas", "payments", "held", "violations"}
    assert out["held"] is True and out["deltas"] == [190, 0, -190]
    assert out["violations"] == [{"seat": 2, "kind": "bao1_duty", "message": (
        "seat 3 played QS while holding AC and seat 1 had one card (báo 1: he must play his highest single); "
        "seat 1 went out that round: seat 3 pays for everyone")}]
    # narrated: the rebuilt hands, the violation and the hold, seats from 1
    words = run_cli(dealer_assist, cli_env, path)
    assert words.returncode == 3
    lines = words.stdout.splitlines()
    assert lines[0] == "Sâm Lốc table record, 3 players, bet 10, turn timer 20 s, standard rules; seat 1 would lead"
    assert "  seat 3: 2♦ 5♠ Q♠ 4♦ 6♠ 8♠ 10♠ J♥ K♣ A♣" in lines
    assert any(line.startswith("VIOLATION (bao1_duty): seat 3 played Q♠") for line in lines)
    assert any(line.startswith("HELD for a supervisor: 1 rules broken") for line in lines)
    vi = run_cli(dealer_assist, cli_env, path, "--language", "vi")
    assert vi.returncode == 3 and "ghế 3 đánh Q♠ khi còn A♣" in vi.stdout and "TẠM GIỮ" in vi.stdout


def test_the_replay_command_settles_a_sound_record_with_exit_status_0(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(three_player_record()), encoding="utf-8")
    done = run_cli(dealer_assist, cli_env, path, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["held"] is False and json.loads(done.stdout)["violations"] == []
    nine = two_player_record()
    nine["revealed"][1] = c(CARDS_1)[:-1]
    path.write_text(json.dumps(nine), encoding="utf-8")
    held = run_cli(dealer_assist, cli_env, path, "--json", "--language", "km")
    assert held.returncode == 3 and json.loads(held.stdout)["violations"][0]["kind"] == "hand_size"
