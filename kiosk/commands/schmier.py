"""``dealer-assist schmier replay HAND.json [--json]``: narrate and score one recorded Schmier hand."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engine.errors import InputError
from kiosk.commands.language import add_language_options, catalogue_of


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("schmier", help="Schmier: replay and score a recorded hand")
    actions = parser.add_subparsers(dest="schmier_command", metavar="ACTION")
    replay = actions.add_parser(
        "replay",
        help="narrate and score one hand from a hand file",
        description="Replay a hand file (dealer, scores, hands, kept, actions) or a table record (dealer, scores, "
        "actions, the discards counted), check every action against the rules and print the six points with their "
        "reasons, the hand's points and the running scores. An illegal action stops the replay (exit status 2); a "
        "table record whose hands, rebuilt from the tricks, break a rule (a revoke) lists each violation and exits "
        "with status 3 (the score is held).",
    )
    replay.add_argument("hand", type=Path, metavar="HAND.json", help="the hand file")
    replay.add_argument("--json", action="store_true", help="print the result as one JSON object")
    replay.add_argument(
        "--trump-anytime",
        action="store_true",
        help="table option: a player who can follow suit may still play a trump",
    )
    add_language_options(replay)
    replay.set_defaults(func=_replay)
    parser.set_defaults(func=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


HELD = 3
"""The exit status of a replayed table record with a rule broken: its score is held for a supervisor."""


def _replay(args: argparse.Namespace) -> int:
    from engine.common import IllegalAction
    from engine.schmier import Settings, State, TableState, action_from_json
    from engine.schmier.state import read_hand_file
    from engine.schmier.table_hand import read_record
    from engine.untrusted import parse_json

    data = parse_json(args.hand.read_bytes(), str(args.hand))
    table = isinstance(data, dict) and "hands" not in data
    now = None
    try:
        if table:
            settings, deal, actions = read_record(data)
        else:
            settings, full_deal, actions, now = read_hand_file(data)
    except InputError as error:
        raise InputError(f"{args.hand}: {error}") from None
    if args.trump_anytime:
        settings = Settings(trump_anytime=True, show_dealer_trump_discards=settings.show_dealer_trump_discards)

    hand: State = TableState(settings, deal) if table else State(settings, full_deal)
    narrate = not args.json
    catalogue = catalogue_of(args)
    t = catalogue.text  # seats and teams counted from 1, as the table counts them
    if narrate:
        scores = ", ".join(t("sm.cli.team_score", team=team, score=score)
                           for team, score in enumerate(hand.deal.scores))
        print(t("sm.cli.table_header" if table else "sm.cli.header", seat=hand.dealer, scores=scores))
    for index, action in enumerate(actions):
        try:
            record = hand.apply(action_from_json(action))
        except IllegalAction as error:
            raise InputError(f"action {index}: {error}") from None
        if narrate:
            print(f"  [{index}] {catalogue.phrase(record.describe())}")
    if not hand.is_over:
        raise InputError(
            f"the hand is not finished after {len(actions)} actions: waiting for {hand.waiting_for()}; "
            "add the missing actions"
        )
    if now is not None and now != hand.snapshot():
        raise InputError(
            'the saved snapshot ("now") does not match what the actions give: the file was altered or is damaged'
        )
    result = hand.settle()
    if args.json:
        print(json.dumps(result.summary_json(), ensure_ascii=False))
    else:
        for violation in result.violations:
            print(t("cli.violation", kind=violation.kind, message=catalogue.phrase(violation.message)))
        if result.held:
            print(t("cli.held", count=len(result.violations)))
        for line in result_lines(result, catalogue):
            print(line)
    return HELD if result.held else 0


def result_lines(result: Any, catalogue: Any) -> list[str]:
    """``Settlement.lines()`` in the catalogue's language, seats and teams numbered from 1 as at the table."""
    from engine.schmier.ranks import TEAMS, team_of
    from engine.schmier.settings import GAME_TARGET

    t = catalogue.text
    out = [t("sm.cli.thrown_in")] if result.thrown_in else []
    for award in result.points:
        who = t("sm.cli.nobody") if award.team is None else t("sm.cli.team", team=award.team)
        out.append(t("sm.cli.point", title=t(f"sm.cli.point.{award.point}"), who=who, reason=award.reason))
    if result.bidder is not None:
        team = team_of(result.bidder)
        out.append(t("sm.cli.made" if result.made else "sm.cli.set", seat=result.bidder, team=team, bid=result.bid,
                     taken=result.taken[team]))
    hand = [t("sm.cli.team_score", team=team, score=f"{result.hand_points[team]:+d}") for team in range(TEAMS)]
    scores = [t("sm.cli.team_score", team=team, score=result.scores_after[team]) for team in range(TEAMS)]
    out.append(t("sm.cli.hand", points=", ".join(hand)))
    out.append(t("sm.cli.scores", scores=", ".join(scores)))
    if result.winner is not None:
        out.append(t("sm.cli.winner", team=result.winner, score=result.scores_after[result.winner]))
    elif max(result.scores_after) >= GAME_TARGET:
        out.append(t("sm.cli.tied", score=max(result.scores_after)))
    return out
