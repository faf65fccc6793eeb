"""The six points of a hand with the reason for each, the score change, and the end of the game at 21."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import JOKER, Card, Rank, Suit
from engine.common import JSON, Payment
from engine.phrases import Phrase, PhraseTemplate
from engine.schmier.ranks import SEATS, TEAMS, card_points, left_bauer, right_bauer, team_of
from engine.schmier.settings import GAME_TARGET
from engine.schmier.tricks import Trick
from engine.violations import Violation

POINTS = ("high", "low", "right_bauer", "left_bauer", "joker", "game")
TITLES = {
    "high": "High",
    "low": "Low",
    "right_bauer": "Right bauer",
    "left_bauer": "Left bauer",
    "joker": "Joker",
    "game": "Game",
}


@dataclass(frozen=True, slots=True)
class PointAward:
    """One of the six points: the team it goes to (None: Game tied, nobody) and why."""

    point: str
    team: int | None
    seat: int | None
    trick: int | None
    reason: str

    def to_json(self) -> dict[str, JSON]:
        return {"point": self.point, "team": self.team, "seat": self.seat, "trick": self.trick, "reason": self.reason}


def _find(tricks: Sequence[Trick], card: Card) -> tuple[Trick, int] | None:
    """The trick ``card`` fell in and who played it; None when nobody played it (a hand followed at the table
    where a protected trump was discarded against the rules: the five are always played otherwise)."""
    for trick in tricks:
        for seat, played in trick.plays:
            if played == card:
                return trick, seat
    return None


def card_points_by_team(tricks: Sequence[Trick]) -> tuple[int, int, int]:
    totals = [0] * TEAMS
    for trick in tricks:
        totals[team_of(trick.winner)] += sum(card_points(card) for card in trick.cards())
    return (totals[0], totals[1], totals[2])


# Why each point went where it did, as phrases (the kiosk words them in its language; seats and teams from 0 here).
HIGH_PLAYED = PhraseTemplate(
    "schmier.point.high", "seat {seat} (team {team}) played the {card} in trick {trick}"
)
LOW_PLAYED = PhraseTemplate(
    "schmier.point.low", "seat {seat} (team {team}) played the {card} in trick {trick}, trick won by seat {taker}"
)
FELL = PhraseTemplate(
    "schmier.point.fell", "the {card} fell in trick {trick} (played by seat {seat}), won by seat {taker} (team {team})"
)
LISTING = PhraseTemplate("schmier.point.listing", "team {team_a} {a}, team {team_b} {b}, team {team_c} {c}")
TIE_OF_TWO = PhraseTemplate(
    "schmier.point.tie_two", "nobody: team {team_a} and team {team_b} tie at {top} card points ({listing})"
)
TIE_OF_THREE = PhraseTemplate(
    "schmier.point.tie_three",
    "nobody: team {team_a} and team {team_b} and team {team_c} tie at {top} card points ({listing})",
)
MOST_CARD_POINTS = PhraseTemplate("schmier.point.most", "team {team} took the most card points ({listing})")
NOT_PLAYED = PhraseTemplate("schmier.point.not_played", "nobody: the {card} was never played")
CARD_NAMES = {
    card: PhraseTemplate("schmier.card." + card.name.replace(" ", "_"), card.name)
    for card in (*(Card(rank, suit) for suit in Suit for rank in Rank if rank is not Rank.JOKER), JOKER)
}


def _named(card: Card) -> Phrase:
    return CARD_NAMES[card]()


def award_points(tricks: Sequence[Trick], trump: Suit) -> tuple[PointAward, ...]:
    """The six points of a played hand, in the order High, Low, Right bauer, Left bauer, Joker, Game."""
    awards: list[PointAward] = []
    for point, card in (("high", Card(Rank.ACE, trump)), ("low", Card(Rank.TWO, trump))):
        found = _find(tricks, card)
        if found is None:
            awards.append(PointAward(point, None, None, None, NOT_PLAYED(card=_named(card))))
            continue
        trick, seat = found
        if point == "high":
            reason = HIGH_PLAYED(seat=seat, team=team_of(seat), card=_named(card), trick=trick.number)
        else:
            reason = LOW_PLAYED(
                seat=seat, team=team_of(seat), card=_named(card), trick=trick.number, taker=trick.winner
            )
        awards.append(PointAward(point, team_of(seat), seat, trick.number, reason))
    for point, card in (("right_bauer", right_bauer(trump)), ("left_bauer", left_bauer(trump)), ("joker", JOKER)):
        found = _find(tricks, card)
        if found is None:
            awards.append(PointAward(point, None, None, None, NOT_PLAYED(card=_named(card))))
            continue
        trick, seat = found
        winner = trick.winner
        reason = FELL(card=_named(card), trick=trick.number, seat=seat, taker=winner, team=team_of(winner))
        awards.append(PointAward(point, team_of(winner), winner, trick.number, reason))
    awards.append(_game_point(card_points_by_team(tricks)))
    return tuple(awards)


def _game_point(totals: tuple[int, int, int]) -> PointAward:
    top = max(totals)
    leaders = [team for team in range(TEAMS) if totals[team] == top]
    listing = LISTING(team_a=0, a=totals[0], team_b=1, b=totals[1], team_c=2, c=totals[2])
    if len(leaders) > 1:
        named = dict(zip(("team_a", "team_b", "team_c"), leaders, strict=False))
        tie = TIE_OF_TWO if len(leaders) == 2 else TIE_OF_THREE
        return PointAward("game", None, None, None, tie(**named, top=top, listing=listing))
    return PointAward("game", leaders[0], None, None, MOST_CARD_POINTS(team=leaders[0], listing=listing))


def game_winner(scores: Sequence[int], bidding_team: int | None) -> int | None:
    """The winning team once a team has 21 or more: the highest total; on a tie the bidding team if tied,
    otherwise nobody yet (another hand is played)."""
    top = max(scores)
    if top < GAME_TARGET:
        return None
    leaders = [team for team in range(TEAMS) if scores[team] == top]
    if len(leaders) == 1:
        return leaders[0]
    return bidding_team if bidding_team in leaders else None


@dataclass(frozen=True, slots=True)
class Settlement:
    """The settlement of a hand. Schmier scores points, not chips, so ``payments`` is empty and ``nets`` gives
    each seat its team's score change for the hand."""

    points: tuple[PointAward, ...]
    card_points: tuple[int, int, int]
    taken: tuple[int, int, int]
    hand_points: tuple[int, int, int]
    scores_before: tuple[int, int, int]
    scores_after: tuple[int, int, int]
    bidder: int | None
    bid: int | None
    made: bool | None
    winner: int | None
    payments: tuple[Payment, ...] = ()
    violations: tuple[Violation, ...] = ()
    """Rules a table record broke, found when its hand was rebuilt at the end: they hold the score."""
    checked: bool = False
    """Scored from a table record (the hands unknown until the end): the JSON then says ``held`` and lists the
    violations."""

    @property
    def held(self) -> bool:
        """Whether a supervisor must look before the score stands (a rule found broken at the hand's end)."""
        return bool(self.violations)

    @property
    def thrown_in(self) -> bool:
        return self.bidder is None

    @property
    def game_over(self) -> bool:
        return self.winner is not None

    @property
    def nets(self) -> dict[int, int]:
        return {seat: self.hand_points[team_of(seat)] for seat in range(SEATS)}

    def point_teams(self) -> dict[str, int | None]:
        teams: dict[str, int | None] = dict.fromkeys(POINTS)
        for award in self.points:
            teams[award.point] = award.team
        return teams

    def summary_json(self) -> dict[str, JSON]:
        """The replay CLI's ``--json`` form (with ``held`` and ``violations`` for a table record)."""
        data: dict[str, JSON] = {
            "points": dict(self.point_teams()),
            "hand_points": list(self.hand_points),
            "scores": list(self.scores_after),
            "bidder": self.bidder,
            "bid": self.bid,
            "made": self.made,
            "winner": self.winner,
        }
        if self.checked:
            data["held"] = self.held
            data["violations"] = [violation.to_json() for violation in self.violations]
        return data

    def to_json(self) -> dict[str, JSON]:
        return {
            **self.summary_json(),
            "reasons": [award.to_json() for award in self.points],
            "card_points": list(self.card_points),
            "taken": list(self.taken),
            "scores_before": list(self.scores_before),
            "payments": [payment.to_json() for payment in self.payments],
            "nets": {str(seat): net for seat, net in self.nets.items()},
        }

    def lines(self) -> list[str]:
        """The result in words, one line each, for the dealer's screen and the replay narration (seats and teams
        counted from 1, as people count them)."""
        out = []
        if self.thrown_in:
            out.append("all passed: the cards are thrown in and the same dealer deals again")
        for award in self.points:
            who = "nobody" if award.team is None else f"team {award.team + 1}"
            out.append(f"{TITLES[award.point]}: {who}: {award.reason}")
        if self.bidder is not None:
            bidding_team = team_of(self.bidder)
            verdict = "made it" if self.made else f"went set: minus {self.bid}"
            out.append(
                f"bid: seat {self.bidder + 1} (team {bidding_team + 1}) bid {self.bid} and took "
                f"{self.taken[bidding_team]}: {verdict}"
            )
        out.append("hand: " + ", ".join(f"team {t + 1} {self.hand_points[t]:+d}" for t in range(TEAMS)))
        out.append("scores: " + ", ".join(f"team {t + 1} {self.scores_after[t]}" for t in range(TEAMS)))
        if self.winner is not None:
            out.append(f"game over: team {self.winner + 1} wins with {self.scores_after[self.winner]}")
        elif max(self.scores_after) >= GAME_TARGET:
            out.append(f"tied at {max(self.scores_after)} without the bidding team: another hand is played")
        return out


def score_hand(
    tricks: Sequence[Trick], trump: Suit, bidder: int, bid: int, scores_before: tuple[int, int, int]
) -> Settlement:
    awards = award_points(tricks, trump)
    taken = [0] * TEAMS
    for award in awards:
        if award.team is not None:
            taken[award.team] += 1
    bidding_team = team_of(bidder)
    made = taken[bidding_team] >= bid
    change = list(taken)
    if not made:
        change[bidding_team] = -bid
    after = tuple(before + delta for before, delta in zip(scores_before, change, strict=True))
    return Settlement(
        points=awards,
        card_points=card_points_by_team(tricks),
        taken=(taken[0], taken[1], taken[2]),
        hand_points=(change[0], change[1], change[2]),
        scores_before=scores_before,
        scores_after=(after[0], after[1], after[2]),
        bidder=bidder,
        bid=bid,
        made=made,
        winner=game_winner(after, bidding_team),
    )


def thrown_in(scores: tuple[int, int, int]) -> Settlement:
    return Settlement((), (0, 0, 0), (0, 0, 0), (0, 0, 0), scores, scores, None, None, None, None)
