"""``dealer-assist baibuu …``: the Bài Bửu house way, settling a round, the pit chart, and a demo round.

- ``house-way 8S QH AD 3C`` prints the split and its rule; with no cards it reads one hand a line from stdin.
- ``settle ROUND.json`` settles a round file (``-`` reads stdin); ``--json`` for machines.
- ``table --format csv|html`` writes the house way of every hand of ranks (1,820), the chart posted at a table.
- ``demo --seed N --seats 4`` rolls, deals and settles a random round.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from engine.errors import InputError
from kiosk.i18n import LANGUAGES

if TYPE_CHECKING:
    from engine.baibuu import Settlement, State
    from engine.cards import Card



def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "baibuu",
        help="Bài Bửu: house way, settle a round, pit chart, demo round",
        description="Bài Bửu: the house way for any four cards, settling a round, the printable house-way chart "
        "and a demo round.",
    )
    commands = parser.add_subparsers(dest="baibuu_command", metavar="SUBCOMMAND", required=True)

    way = commands.add_parser(
        "house-way",
        help="the house-way split of four cards, with its rule",
        description="Prints the split the house way requires for four cards, and the rule that decided it. With no "
        "cards, reads one hand a line from standard input (blank lines and lines starting with # are skipped).",
    )
    way.add_argument("cards", nargs="*", metavar="CARD", help="four cards, e.g. 8S QH AD 3C (10 as 10 or T)")
    way.add_argument("--json", action="store_true", help="one JSON object a hand: cards, high, low, rule")
    way.set_defaults(func=run_house_way)

    from engine.baibuu.round_file import ROUND_KEYS

    settle = commands.add_parser(
        "settle",
        help="settle a round file: every seat's outcome and net, the house split, the stack assignment",
        description="Settles a round given as JSON: "
        + "; ".join(f"{key}: {text}" for key, text in ROUND_KEYS.items())
        + ". Give - to read the round from standard input.",
    )
    settle.add_argument("round_file", metavar="ROUND.json")
    settle.add_argument("--json", action="store_true", help="print the settlement as one JSON object")
    settle.set_defaults(func=run_settle)

    table = commands.add_parser(
        "table",
        help="the house way for all 1,820 hands of ranks, as CSV or a printable HTML chart",
        description="Writes the house way of every distinct hand of ranks (suits never matter): the chart a pit "
        "posts at the table.",
    )
    table.add_argument("--format", choices=("csv", "html"), default="csv")
    table.add_argument("--language", choices=LANGUAGES, default="en",
                       help="the HTML chart's language: en, vi (Tiếng Việt) or km (Khmer); CSV stays English")
    table.add_argument("--output", "-o", type=Path, help="write to this file instead of standard output")
    table.set_defaults(func=run_table)

    demo = commands.add_parser(
        "demo",
        help="roll the dice, deal a random round and settle it",
        description="Shuffles a deck, rolls three dice, deals seven stacks, sets the house by the house way and "
        "the seats as players might, then prints the stack assignment, the house split with its rule and every "
        "seat's result.",
    )
    demo.add_argument("--seed", type=int, default=None, help="the same seed gives the same round")
    demo.add_argument(
        "--seats",
        default="6",
        help="how many seats play (1-6, positions 2 upward) or which positions, comma-separated (e.g. 2,4,7)",
    )
    demo.add_argument("--json", action="store_true", help="print the round (settings, deal, actions) and settlement")
    demo.set_defaults(func=run_demo)

    from kiosk.commands.baibuu_analyse import register_analyse

    register_analyse(commands)


# ---------------------------------------------------------------- house-way


def run_house_way(args: argparse.Namespace) -> int:
    from engine.cards import parse_cards

    if args.cards:
        cards = parse_cards(args.cards, count=4)
        _print_split(cards, args.json, sys.stdout)
        return 0
    for number, line in enumerate(sys.stdin, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            cards = parse_cards(text, count=4)
        except InputError as error:
            raise InputError(f"line {number}: {error}") from None
        _print_split(cards, args.json, sys.stdout)
    return 0


def _print_split(cards: Sequence[Card], as_json: bool, out: TextIO) -> None:
    from engine.baibuu import house_way

    split = house_way(cards)
    if as_json:
        data = {"cards": [str(c) for c in cards], "high": split.high.to_json(), "low": split.low.to_json()}
        out.write(json.dumps({**data, "rule": split.rule}, ensure_ascii=False) + "\n")
    else:
        out.write(
            f"{_cards(cards)}:  high {_cards(split.high.cards)} ({split.high.value_text})  "
            f"low {_cards(split.low.cards)} ({split.low.value_text})  -- {split.rule}\n"
        )


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


# ---------------------------------------------------------------- settle


def run_settle(args: argparse.Namespace) -> int:
    from engine.baibuu.round_file import read_round_file
    from engine.untrusted import parse_json

    name = "standard input" if args.round_file == "-" else args.round_file
    source = sys.stdin.buffer.read() if args.round_file == "-" else Path(args.round_file).read_bytes()
    data = parse_json(source, name)
    try:
        state = read_round_file(data)
    except InputError as error:
        raise InputError(f"{name}: {error}") from None
    settlement = state.settle()
    if args.json:
        print(json.dumps(_settlement_json(state, settlement), ensure_ascii=False))
    else:
        _print_round(state, settlement, sys.stdout)
    return 0




def _settlement_json(state: State, settlement: Settlement) -> dict[str, object]:
    assert state.assignment is not None
    return {"dice": list(state.assignment.dice.values), **settlement.to_json()}


def _print_round(state: State, settlement: Settlement, out: TextIO) -> None:
    assert state.assignment is not None and state.house_split is not None and state.house is not None
    assignment = state.assignment
    say = out.write
    say(assignment.describe() + "\n")
    say("  stacks: " + ", ".join(_stack_line(state, p) for p in range(1, 8)) + "\n")
    split = state.house_split
    say(f"house: {_cards(state.house_cards or ())}\n")
    way = state.settings.house_way
    named = "" if way.is_standard else f" (posted: {way.name})"
    say(f"  house way{named}: high {split.high.describe()}, low {split.low.describe()}\n")
    say(f"  rule: {split.rule}\n")
    if not settlement.house_way_followed:
        say(
            f"  WARNING: the house was set high {state.house.high.describe()}, low {state.house.low.describe()}, "
            "not by the house way; seats were settled against the house as set\n"
        )
    for seat, result in settlement.seats.items():
        hand = state.seats[seat].hand
        say(f"seat {seat}: bet {result.bet}, high {hand.high.describe()}, low {hand.low.describe()}\n")
        say(f"  {result.outcome.value.upper()}: {result.describe()}\n")
        for reason in result.reasons:
            say(f"    {reason}\n")
    house_net = settlement.nets["house"]
    say(f"house net: {house_net:+d}\n")


def _stack_line(state: State, position: int) -> str:
    assert state.assignment is not None
    stack = f"stack {state.assignment.stack_for(position)}"
    if position == 1:
        return f"house ← {stack}"
    if position in state.settings.seats:
        return f"seat {position} ← {stack}"
    return f"position {position} ← {stack} (set aside)"


# ---------------------------------------------------------------- table (the pit chart)


def rank_hands() -> list[tuple[Card, Card, Card, Card]]:
    """One hand for every distinct multiset of four ranks (1,820), suits spread S, H, D, C over repeats."""
    from itertools import combinations_with_replacement

    from engine.baibuu.hands import rank_order
    from engine.cards import Card, Rank, Suit

    ranks = sorted((r for r in Rank if r is not Rank.JOKER), key=rank_order, reverse=True)
    suits = list(Suit)
    hands = []
    for combo in combinations_with_replacement(ranks, 4):
        seen: dict[Rank, int] = {}
        cards = []
        for rank in combo:
            cards.append(Card(rank, suits[seen.get(rank, 0)]))
            seen[rank] = seen.get(rank, 0) + 1
        hands.append((cards[0], cards[1], cards[2], cards[3]))
    return hands


def _ranks(cards: Iterable[Card]) -> str:
    return " ".join(card.rank.text for card in cards)


def chart_rows() -> list[dict[str, str]]:
    from engine.baibuu import house_way

    rows = []
    for hand in rank_hands():
        split = house_way(hand)
        rows.append(
            {
                "hand": _ranks(hand),
                "high": _ranks(split.high.cards),
                "high_value": split.high.value_text,
                "low": _ranks(split.low.cards),
                "low_value": split.low.value_text,
                "rule_name": split.rule_name,
                "rule": split.rule,
            }
        )
    return rows


def run_table(args: argparse.Namespace) -> int:
    rows = chart_rows()
    text = _chart_csv(rows) if args.format == "csv" else chart_html(rows, args.language)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote the house way of {len(rows)} hands to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _chart_csv(rows: list[dict[str, str]]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


CHART_CSS = """
@page { size: A4 portrait; margin: 12mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; color: #000; background: #fff; margin: 0 auto; max-width: 190mm; }
h1 { font-size: 26pt; margin: 0 0 2mm; }
h2 { font-size: 18pt; margin: 6mm 0 2mm; border-bottom: 2pt solid #000; break-after: avoid; }
p.note { font-size: 11pt; margin: 0 0 3mm; }
ol.rules { font-size: 13pt; line-height: 1.35; padding-left: 7mm; }
ol.rules li { margin-bottom: 1.5mm; }
table { border-collapse: collapse; }
table.pairs { font-size: 13pt; margin-bottom: 3mm; }
table.pairs td, table.pairs th { border: 1pt solid #000; padding: 1mm 3mm; text-align: left; }
.hands { columns: 3; column-gap: 5mm; column-rule: 0.5pt solid #888; font-size: 11pt; }
.hand { break-inside: avoid; display: flex; justify-content: space-between; padding: 0.4mm 1mm;
        border-bottom: 0.4pt solid #ccc; font-variant-numeric: tabular-nums; }
.hand .cards { font-weight: bold; min-width: 17mm; }
.hand .split { white-space: nowrap; }
.hand .sep { color: #777; padding: 0 1.2mm; }
.hand:nth-child(even) { background: #f2f2f2; }
"""

SECTIONS = (
    ("natural", "Naturals"),
    ("two pairs", "Two pairs"),
    ("one pair", "One pair"),
    ("Kong or two pictures", "Kong or two pictures"),
    ("otherwise", "Everything else"),
)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def chart_html(rows: list[dict[str, str]], language: str = "en") -> str:
    """The printable chart in ``language`` (the words from the kiosk's catalogue; the posted rules of the standard
    house way translated, a casino's own way as it wrote it)."""
    from html import escape

    from engine.baibuu.house_way import STANDARD_HOUSE_WAY, pair_table_text
    from kiosk.i18n import TEXTS, Catalogue

    t = Catalogue(language).text
    english = Catalogue("en").text

    def rule_line(name: str, text: str) -> str:
        key = f"chart.rule.{name}"
        title, body = name.capitalize(), text.split(": ", 1)[-1]
        if language != "en" and key in TEXTS and english(key) == text:  # the standard rule, in the chart's language
            title, _, body = t(key).partition("៖ " if language == "km" else ": ")
        return f"<li><b>{escape(title)}.</b> {escape(_sentence(body))}</li>"

    def split_text(rule: str) -> str:
        if rule == "never split":
            return t("chart.never_split")
        return t("chart.split_with", patterns=rule.removeprefix("split with "))

    def why(row: dict[str, str]) -> str:  # the rule line as a tooltip, in English only (the CSV's words)
        return f' title="{escape(row["rule"])}"' if language == "en" else ""

    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{language}"><head><meta charset="utf-8"><title>{escape(t("chart.title"))}</title>',
        f"<style>{CHART_CSS}</style></head><body>",
        f"<h1>{escape(t('chart.title'))}</h1>",
        f'<p class="note">{escape(t("chart.note"))}</p>',
        '<ol class="rules">',
        *(rule_line(name, text) for name, text in STANDARD_HOUSE_WAY.posted_rules()),
        "</ol>",
        f'<table class="pairs"><tr><th>{escape(t("chart.pair"))}</th><th>{escape(t("chart.split_when"))}</th></tr>',
        *(f"<tr><td>{escape(pair)}</td><td>{escape(split_text(rule))}</td></tr>" for pair, rule in pair_table_text()),
        "</table>",
    ]
    for rule_name, _title in SECTIONS:
        section = [row for row in rows if row["rule_name"] == rule_name]
        title = t("chart.section", title=t(f"chart.section.{rule_name}"), count=len(section))
        parts.append(f"<h2>{escape(title)}</h2>")
        parts.append('<div class="hands">')
        for row in section:
            parts.append(
                f'<div class="hand"{why(row)}><span class="cards">{escape(row["hand"])}</span>'
                f'<span class="split"><b>{escape(row["high"])}</b><span class="sep">|</span>{escape(row["low"])}'
                "</span></div>"
            )
        parts.append("</div>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------- demo


def parse_seats(text: str) -> tuple[int, ...]:
    from engine.baibuu.dice import SEAT_POSITIONS

    text = text.strip()
    if text.isdigit() and "," not in text:
        count = int(text)
        if not 1 <= count <= len(SEAT_POSITIONS):
            raise InputError(f"--seats {text}: between 1 and {len(SEAT_POSITIONS)} seats play (positions 2 to 7)")
        return SEAT_POSITIONS[:count]
    seats = []
    for part in text.split(","):
        if not part.strip().isdigit() or int(part) not in SEAT_POSITIONS:
            raise InputError(f"--seats {text}: {part.strip()!r} is not a seat; seats are positions 2 to 7")
        seats.append(int(part))
    if len(set(seats)) != len(seats):
        raise InputError(f"--seats {text}: a seat is named twice")
    return tuple(sorted(seats))


def player_set(cards: Sequence[Card], rng: random.Random) -> tuple[list[Card], list[Card]]:
    """How a demo player sets: mostly the house way, sometimes another way (which may be a mis-set)."""
    from engine.baibuu import house_way
    from engine.baibuu.house_way import all_splits

    if rng.random() < 0.85:
        split = house_way(cards)
        return list(split.high.cards), list(split.low.cards)
    high, low = rng.choice(all_splits(cards))
    if rng.random() < 0.3:
        high, low = low, high
    return list(high.cards), list(low.cards)


def run_demo(args: argparse.Namespace) -> int:
    from engine.baibuu import Deal, Settings, State, house_way
    from engine.cards import shuffled, standard_deck

    seats = parse_seats(args.seats)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    rng = random.Random(seed)
    deal = Deal.from_deck(shuffled(standard_deck(), rng.randrange(2**32)))
    state = State(Settings(seats=seats), deal)
    state.roll([rng.randint(1, 6) for _ in range(3)])
    house_cards = state.stack_of(1) or ()
    state.reveal_house(house_cards)
    split = house_way(house_cards)
    state.set_house(split.high.cards, split.low.cards)
    for seat in seats:
        high, low = player_set(state.stack_of(seat) or (), rng)
        state.set_seat(seat, rng.choice((10, 20, 50, 100, 200)), high, low)
    settlement = state.settle()
    if args.json:
        print(json.dumps({"seed": seed, "round": state.to_json(), "settlement": settlement.to_json()}))
        return 0
    print(f"Bài Bửu demo round (seed {seed}; replay it with --seed {seed})")
    _print_round(state, settlement, sys.stdout)
    return 0
