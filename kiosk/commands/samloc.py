"""``dealer-assist samloc replay HAND.json [--json]``: re-check a Sâm Lốc hand move by move and settle it.

Two kinds of file: a hand file with ``hands`` (the deal the kiosk made), and a table record (no ``hands``: a hand
followed at a real table, rebuilt at its end from what each seat played and showed, and checked). A table record
with a rule broken exits with status 3 and its settlement says it is held.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engine.cards import CardsText
from engine.common import IllegalAction
from engine.errors import InputError
from kiosk.commands.language import add_language_options, catalogue_of

HAND_KEYS = {"game", "table", "hands", "leader", "actions", "now"}
HELD = 3
"""The exit status of a replayed table record with a rule broken: its settlement is held for a supervisor."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("samloc", help="Sâm Lốc: replay and settle a recorded hand")
    commands = parser.add_subparsers(dest="samloc_command", metavar="SUBCOMMAND", required=True)
    replay = commands.add_parser(
        "replay",
        help="narrate a hand file or table record move by move and print the settlement",
        description="Replays a Sâm Lốc hand file (table, deal, actions) or table record (table, players, leader, "
        "actions, the cards each seat showed at the end), narrating each action and what it caused, then prints "
        "every payment with its reason. An illegal action stops the replay (exit status 2); a table record whose "
        "rebuilt hands break a rule lists each violation and exits with status 3 (the settlement is held).",
    )
    replay.add_argument("hand_file", metavar="HAND.json", type=Path)
    replay.add_argument("--json", action="store_true", help="print only the settlement as JSON")
    add_language_options(replay)
    replay.set_defaults(func=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    from engine.samloc import State, TableState, action_from_json, deal_from_json, settings_from_json
    from engine.samloc.table_hand import read_record
    from engine.untrusted import parse_json

    data = parse_json(args.hand_file.read_bytes(), str(args.hand_file))
    if not isinstance(data, dict):
        raise InputError(f"{args.hand_file}: a hand file is a JSON object with table, hands, leader and actions")
    if data.get("game", "samloc") != "samloc":
        raise InputError(f"{args.hand_file} is a {data['game']!r} hand; use `dealer-assist {data['game']} …`")
    table = "hands" not in data
    hand: State
    if table:
        try:
            settings, deal, actions = read_record(data)
        except InputError as error:
            raise InputError(f"{args.hand_file}: {error}") from None
        hand = TableState(settings, deal)
    else:
        unknown = sorted(set(data) - HAND_KEYS)
        if unknown:
            raise InputError(f"{args.hand_file}: unknown key {', '.join(unknown)}; a hand file has "
                             f"{', '.join(sorted(HAND_KEYS))} (a table record has no hands)")
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise InputError(f'{args.hand_file}: "actions" must be a list')
        settings = settings_from_json(data.get("table", {}))
        hand = State.start(settings, deal_from_json({"hands": data.get("hands"), "leader": data.get("leader")}))
    catalogue = catalogue_of(args)
    t, phrase = catalogue.text, catalogue.phrase  # seats counted from 1, as the table counts them
    say = (lambda _text: None) if args.json else print
    header = "sl.cli.table_header" if table else "sl.cli.header"
    say(t(header, players=hand.players, bet=settings.bet, timer=settings.turn_timer_s,
          mode=t(f"sl.mode.{settings.mode}"), player=hand.deal.leader))
    if not table:
        for seat, cards in enumerate(hand.hands):
            say("  " + t("sl.cli.seat_cards", player=seat, cards=CardsText(cards)))
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
            f"the hand is not over after {len(actions)} actions: seat {(hand.turn or 0) + 1} is to play; "
            "the file is incomplete"
        )
    if "now" in data and data["now"] != hand.snapshot():
        raise InputError(f"{args.hand_file}: the saved state does not match what its actions give: it was altered")
    settlement = hand.settle()
    if args.json:
        print(json.dumps(settlement.to_json(), ensure_ascii=False))
        return HELD if settlement.held else 0
    if isinstance(hand, TableState):
        _print_rebuilt(hand, catalogue)
    _print_settlement(settlement, hand.next_leader(), catalogue)
    return HELD if settlement.held else 0


def _print_rebuilt(hand: Any, catalogue: Any) -> None:
    """The hands as dealt, rebuilt from what each seat played and showed, and every rule found broken."""
    t = catalogue.text
    print(t("sl.cli.rebuilt"))
    for seat, cards in enumerate(hand.rebuilt_hands()):
        if cards is None:
            print("  " + t("sl.cli.rebuilt_unknown", player=seat))
        else:
            print("  " + t("sl.cli.seat_cards", player=seat, cards=CardsText(cards)))
    for violation in hand.settle().violations:
        print(t("cli.violation", kind=violation.kind, message=catalogue.phrase(violation.message)))


def _print_settlement(settlement: Any, next_leader: int, catalogue: Any) -> None:
    """The settlement in the catalogue's language, seats numbered as the table numbers them."""
    t = catalogue.text
    if settlement.held:
        print(t("cli.held", count=len(settlement.violations)))
    winners = ", ".join(t("sl.cli.seat", player=seat) for seat in settlement.winners) or t("sl.cli.nobody")
    print(t("sl.cli.result", result=t(f"sl.cli.result.{settlement.result}"), winners=winners))
    for payment in settlement.payments:
        print("  " + t("sl.cli.pays", payer=payment.payer, payee=payment.payee, amount=payment.amount,
                       reason=catalogue.phrase(payment.reason)))
    nets = ", ".join(t("sl.cli.net", player=seat, net=f"{net:+d}") for seat, net in settlement.nets.items())
    print(t("sl.cli.nets", nets=nets))
    print(t("sl.cli.next", player=next_leader))
