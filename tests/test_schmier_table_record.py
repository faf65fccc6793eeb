"""Schmier at a real table: hands followed from the felt (``TableState``), the discards only counted, checked at the
end from the cards each player laid (his 6 cards after the discards are the 6 he plays).

Table records come from hands played with the deal known (``State``): the discards turned into counts, the hands and
the kept cards dropped. They must score exactly as the hand played with its deal did; records altered as a cheat or
a misread would (a revoke, a protected trump never played) give the named violation and a held score.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.cards import parse_card
from engine.common import IllegalAction
from engine.errors import InputError
from engine.schmier import Phase, Settings, State, TableDeal, TableState, replay, table_record
from engine.schmier.randomplay import random_action
from engine.schmier.ranks import effective_suit, is_trump
from engine.schmier.table_hand import read_record
from engine.schmier.tricks import trick_winner

DATA = Path(__file__).parent / "data" / "schmier"
seeds = st.integers(min_value=0, max_value=2**32 - 1)
options = st.builds(Settings, trump_anytime=st.booleans(), show_dealer_trump_discards=st.booleans())


def play_out(seed: int, dealer: int, table: Settings, scores: tuple[int, int, int] = (0, 0, 0)) -> State:
    from engine.schmier import random_deal

    rng = random.Random(seed)
    hand = State(table, random_deal(rng, dealer, scores))
    while not hand.is_over:
        hand.apply(random_action(hand, rng, pass_chance=0.5))
    return hand


def from_record(record: dict[str, Any]) -> TableState:
    return TableState.from_json(json.loads(json.dumps(record)))


def without_checks(summary: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in summary.items() if key not in ("held", "violations")}


@settings(max_examples=150, deadline=None)
@given(seeds, st.integers(0, 5), options, st.tuples(*(st.integers(-10, 20),) * 3))
def test_a_table_record_scores_as_the_hand_played_with_its_deal(
    seed: int, dealer: int, table: Settings, scores: tuple[int, int, int]
) -> None:
    hand = play_out(seed, dealer, table, scores)
    record = table_record(hand)
    assert "hands" not in record and "kept" not in record
    assert all(not isinstance(a.get("cards"), list) for a in record["actions"] if a["kind"] == "discard")
    seen = from_record(record)
    full, result = hand.settle(), seen.settle()
    assert without_checks(result.summary_json()) == full.summary_json()
    assert result.points == full.points and result.nets == full.nets
    assert result.checked and result.violations == () and result.summary_json()["held"] is False
    # every card laid is the dealt hand after the discards: none lost or doubled
    if hand.phase is not Phase.THROWN_IN:
        laid = [card for cards in seen.played for card in cards]
        assert len(laid) == len(set(laid)) == 36
        for seat in range(6):
            assert set(seen.played[seat]) == {card for trick in hand.tricks for s, card in trick.plays if s == seat}
    # the record round-trips; the journal's form (deal, actions) replays to the same state
    assert seen.to_json() == record
    settings_, deal, actions = read_record(record)
    assert replay(settings_, deal.to_json(), actions) == seen


@settings(max_examples=100, deadline=None)
@given(seeds, st.integers(0, 5), st.data())
def test_a_revoke_made_by_swapping_two_of_a_players_cards_is_found(seed: int, dealer: int, data: st.DataObject) -> None:
    """Swap a card a player followed suit with for one of another suit he laid in a later trick (where neither trick
    changes hands): the table accepts every play as it comes, and the end finds the revoke."""
    hand = play_out(seed, dealer, Settings())
    assume(hand.phase is not Phase.THROWN_IN)
    assert hand.trump is not None
    trump = hand.trump
    swaps = []
    for first in hand.tricks:
        suit = effective_suit(first.plays[0][1], trump)
        for position, (seat, followed) in enumerate(first.plays[1:], 1):
            if effective_suit(followed, trump) is not suit:
                continue
            for later in hand.tricks[first.number:]:
                index = next(i for i, (s, _) in enumerate(later.plays) if s == seat)
                other = later.plays[index][1]
                if effective_suit(other, trump) is suit or (is_trump(other, trump) and suit is not trump):
                    continue
                a = [*first.plays]
                b = [*later.plays]
                a[position], b[index] = (seat, other), (seat, followed)
                if trick_winner(a, trump) == first.winner and trick_winner(b, trump) == later.winner:
                    swaps.append((seat, followed, other))
    assume(swaps)
    seat, followed, other = data.draw(st.sampled_from(swaps))
    record = table_record(hand)
    for action in record["actions"]:
        if action["kind"] == "play" and action["card"] in (str(followed), str(other)):
            action["card"] = str(other) if action["card"] == str(followed) else str(followed)
    seen = from_record(record)
    found = [(v.seat, v.kind) for v in seen.settle().violations]
    assert (seat, "revoke") in found and set(found) <= {(s, "revoke") for s in range(6)}
    assert seen.settle().held


# ---------------------------------------------------------------- the worked hand of tests/data/schmier/made.json


def made_record() -> dict[str, Any]:
    full = State.from_json(json.loads((DATA / "made.json").read_text(encoding="utf-8")))
    return table_record(full)


def test_the_made_hand_as_a_table_record() -> None:
    record = made_record()
    assert record["actions"][7] == {"kind": "discard", "seat": 1, "count": 2}
    assert record["actions"][12] == {"kind": "discard", "seat": 0, "count": 10}  # the dealer took up 10
    result = from_record(record).settle()
    assert not result.held
    assert result.summary_json()["hand_points"] == [0, 4, 2]


def test_a_revoke_is_found_and_held() -> None:
    """Seat 4 (seat 5 at the table) followed the trump lead with 3H in trick 1 and laid 5D in trick 3; swapped, he
    did not follow trump in trick 1 while holding 4H, which he laid in trick 2."""
    record = made_record()
    plays = [a for a in record["actions"] if a["kind"] == "play"]
    three, five = (next(a for a in plays if a["card"] == card) for card in ("3H", "5D"))
    three["card"], five["card"] = "5D", "3H"
    hand = from_record(record)
    result = hand.settle()
    assert [(v.seat, v.kind) for v in result.violations] == [(4, "revoke")]
    assert result.violations[0].message == (
        "seat 5 played 5♦ to trick 1 while holding 4♥ (he played it in trick 2): he had to follow trump")
    assert result.held and result.summary_json()["held"] is True
    assert result.summary_json()["violations"][0]["seat"] == 4


def test_a_protected_trump_never_played_is_held() -> None:
    """Seat 2 lays 2S (a card seat 4 discarded face down) where he laid the 2 of trump: the 2H is never played, so
    someone discarded it; and seat 2, holding the joker, did not follow the trump lead."""
    record = made_record()
    two = next(a for a in record["actions"] if a["kind"] == "play" and a["card"] == "2H")
    two["card"] = "2S"
    result = from_record(record).settle()
    assert [(v.seat, v.kind) for v in result.violations] == [(2, "revoke"), (None, "trump_discarded")]
    assert result.violations[1].message == (
        "nobody played 2♥, a trump nobody may discard: it was discarded")
    assert result.point_teams()["low"] is None  # nobody scores Low


def test_the_table_refuses_at_once_what_it_can_see() -> None:
    hand = TableState(Settings(), TableDeal.of(0))
    hand.bid(1, 3)
    with pytest.raises(IllegalAction, match="a bid must be higher than seat 2's 3"):
        hand.bid(2, 3)
    for seat in (2, 3, 4, 5, 0):
        hand.pass_bid(seat)
    hand.name_trump(1, parse_card("AH").suit)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="give how many seat 2 discarded"):
        hand.discard(1, (parse_card("3S"),))
    with pytest.raises(IllegalAction, match="seat 2 may discard 0 to 3 cards, not 4"):
        hand.discard_count(1, 4)
    for seat, count in ((1, 3), (2, 3), (3, 3), (4, 3), (5, 3)):
        hand.discard_count(seat, count)
    with pytest.raises(IllegalAction, match="the dealer takes up the 2 kept cards and discards 2 to keep 6, not 3"):
        hand.discard_count(0, 3)
    hand.discard_count(0, 2)
    assert hand.turn == 1 and hand.phase is Phase.PLAY
    hand.play(1, parse_card("AH"))
    with pytest.raises(IllegalAction, match="A♥ was already played by seat 2"):
        hand.play(2, parse_card("AH"))
    with pytest.raises(IllegalAction, match="not seat 4's turn"):
        hand.play(3, parse_card("KH"))


def test_a_record_in_the_brief_form_reads() -> None:
    """``{"seat": S, "discard": 3}``: a count in the older action form."""
    record = made_record()
    record["actions"][7] = {"seat": 1, "discard": 2}
    assert not from_record(record).settle().held


def test_a_dealt_hand_refuses_a_counted_discard_and_a_table_record_is_checked() -> None:
    full = State.from_json(json.loads((DATA / "made.json").read_text(encoding="utf-8")))
    actions = [*full.to_json()["actions"][:7], {"kind": "discard", "seat": 1, "count": 2}]
    with pytest.raises(IllegalAction, match="only counted"):
        replay(full.settings, full.deal, actions)
    record = made_record()
    with pytest.raises(InputError, match="unknown key 'kept' in a Schmier table record"):
        from_record(record | {"kept": []})
    broken = copy.deepcopy(record)
    broken["actions"][12]["count"] = 9
    with pytest.raises(IllegalAction, match="action 12: the dealer takes up the 10 kept cards"):
        from_record(broken)


def test_the_replay_command_holds_a_revoke_with_exit_status_3(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    import subprocess

    record = made_record()
    plays = [a for a in record["actions"] if a["kind"] == "play"]
    three, five = (next(a for a in plays if a["card"] == card) for card in ("3H", "5D"))
    three["card"], five["card"] = "5D", "3H"
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*dealer_assist, "schmier", "replay", str(path), *args], capture_output=True,
                              text=True, env=cli_env, timeout=60)

    done = run("--json")
    assert done.returncode == 3, done.stderr
    out = json.loads(done.stdout)
    assert out["held"] is True and out["hand_points"] == [0, 4, 2]
    assert out["violations"] == [{"seat": 4, "kind": "revoke", "message": (
        "seat 5 played 5♦ to trick 1 while holding 4♥ (he played it in trick 2): he had to follow trump")}]
    words = run()
    assert words.returncode == 3
    lines = words.stdout.splitlines()
    assert lines[0] == "Schmier table record: seat 1 deals; scores going in: team 1 0, team 2 0, team 3 0"
    assert "  [7] seat 2 discards 2 face down; gets 2 from the kept cards" in lines
    assert "VIOLATION (revoke): seat 5 played 5♦ to trick 1 while holding 4♥ (he played it in trick 2): he had to " \
           "follow trump" in lines
    km = run("--language", "km")
    assert km.returncode == 3 and "ត្រូវតែចេញតាមឈុតមេ" in km.stdout
    path.write_text(json.dumps(made_record()), encoding="utf-8")
    assert run("--json").returncode == 0
