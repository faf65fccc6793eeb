"""``dealer-assist samloc replay HAND.json [--json]``: re-check a Sâm Lốc hand move by move and settle it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engine.common import IllegalAction
from engine.errors import InputError
from kiosk.commands.language import add_language_options, catalogue_of

HAND_KEYS = {"game", "table", "hands", "leader", "actions", "now"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("samloc", help="Sâm Lốc: replay and settle a recorded hand")
    commands = parser.add_subparsers(dest="samloc_command", metavar="SUBCOMMAND", required=True)
    replay = commands.add_parser(
        "replay",
        help="narrate a hand file move by move and print the settlement",
        description="Replays a Sâm Lốc hand file (table, deal, actions), narrating each action and what it "
        "caused, then prints every payment with its reason. An illegal action stops the replay (exit status 2).",
    )
    replay.add_argument("hand_file", metavar="HAND.json", type=Path)
    replay.add_argument("--json", action="store_true", help="print only the settlement as JSON")
    add_language_options(replay)
    replay.set_defaults(func=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    from engine.samloc import State, action_from_json, deal_from_json, settings_from_json
    from engine.untrusted import parse_json

    data = parse_json(args.hand_file.read_bytes(), str(args.hand_file))
    if not isinstance(data, dict):
        raise InputError(f"{args.hand_file}: a hand file is a JSON object with table, hands, leader and actions")
    if data.get("game", "samloc") != "samloc":
        raise InputError(f"{args.hand_file} is a {data['game']!r} hand; use `dealer-assist {data['game']} …`")
    unknown = sorted(set(data) - HAND_KEYS)
    if unknown:
        raise InputError(f"{args.hand_file}: unknown key {', '.join(unknown)}; a hand file has {', '.join(HAND_KEYS)}")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise InputError(f'{args.hand_file}: "actions" must be a list')
    settings = settings_from_json(data.get("table", {}))
    hand = State.start(settings, deal_from_json({"hands": data.get("hands"), "leader": data.get("leader")}))
    catalogue = catalogue_of(args)
    worded = catalogue.language != "en"  # English: the engine's own words, seats counted from 0 as journaled
    t, phrase = catalogue.text, catalogue.phrase if worded else str
    say = (lambda _text: None) if args.json else print
    if worded:
        say(t("sl.cli.header", players=hand.players, bet=settings.bet, timer=settings.turn_timer_s,
              mode=t(f"sl.mode.{settings.mode}"), player=hand.deal.leader))
    else:
        say(
            f"Sâm Lốc, {hand.players} players, bet {settings.bet}, turn timer {settings.turn_timer_s} s, "
            f"mode {settings.mode}; seat {hand.deal.leader} would lead"
        )
    for seat, cards in enumerate(hand.hands):
        say("  " + (t("sl.cli.seat_cards", player=seat, cards=" ".join(map(str, cards))) if worded
                    else f"seat {seat}: {' '.join(map(str, cards))}"))
    for win in hand.instant:
        say(phrase(win.describe()))
    for index, action in enumerate(actions):
        try:
            record = hand.apply(action_from_json(action))
        except IllegalAction as error:
            raise IllegalAction(f"action {index}: {error}") from None
        say(f"{index:3}. {phrase(record.describe())}")
    if not hand.is_over:
        raise InputError(
            f"the hand is not over after {len(actions)} actions: seat {hand.turn} is to play; the file is incomplete"
        )
    if "now" in data and data["now"] != hand.snapshot():
        raise InputError(f"{args.hand_file}: the saved state does not match what its actions give: it was altered")
    settlement = hand.settle()
    if args.json:
        print(json.dumps(settlement.to_json(), ensure_ascii=False))
        return 0
    if worded:
        _print_settlement(settlement, hand.next_leader(), catalogue)
        return 0
    winners = ", ".join(f"seat {seat}" for seat in settlement.winners) or "nobody"
    print(f"result: {settlement.result} (collecting: {winners})")
    for payment in settlement.payments:
        print(f"  seat {payment.payer} pays seat {payment.payee} {payment.amount:>7}  {payment.reason}")
    print("nets: " + ", ".join(f"seat {seat} {net:+d}" for seat, net in settlement.nets.items()))
    print(f"next hand: seat {hand.next_leader()} leads")
    return 0


def _print_settlement(settlement: Any, next_leader: int, catalogue: Any) -> None:
    """The settlement in the catalogue's language, seats numbered as the table numbers them."""
    t = catalogue.text
    winners = ", ".join(t("sl.cli.seat", player=seat) for seat in settlement.winners) or t("sl.cli.nobody")
    print(t("sl.cli.result", result=t(f"sl.cli.result.{settlement.result}"), winners=winners))
    for payment in settlement.payments:
        print("  " + t("sl.cli.pays", payer=payment.payer, payee=payment.payee, amount=payment.amount,
                       reason=payment.reason))
    nets = ", ".join(t("sl.cli.net", player=seat, net=f"{net:+d}") for seat, net in settlement.nets.items())
    print(t("sl.cli.nets", nets=nets))
    print(t("sl.cli.next", player=next_leader))
