"""``dealer-assist baibuu analyse``: the game's exact numbers for a table setting, for the casino.

Prints (or writes as JSON, a printable HTML page and a PNG chart) the exact odds of win / push / lose, the player's
expected value, the house edge and standard deviation of the setting; the house edge and hold per hour of every
commission 0-10 % under both copy rules; how often each house-way rule decides the house hand; with
``--player best``, what the house way gives up against a player who sets every hand the best way.
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import sys
import time
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import InputError

if TYPE_CHECKING:
    from engine.baibuu import HouseWay
    from engine.baibuu.analysis import Counts, GameCount, RuleFrequency, Simulation
    from engine.baibuu.settings import CopyRule

COMMISSIONS = tuple(Decimal(percent) / 100 for percent in range(11))
BRANCHES = {
    "way.natural_four": "natural: four of a kind",
    "way.natural_three": "natural: three of a kind",
    "way.two_pairs": "two pairs",
    "way.pair_never_split": "one pair that is never split",
    "way.pair_split": "one pair, split by the pair table",
    "way.pair_kept": "one pair, kept high",
    "way.three_pictures": "three pictures",
    "way.pictures_and_kong": "two pictures and a Kong",
    "way.two_pictures": "two pictures",
    "way.kong": "Kong (A+9)",
    "way.highest_high": "otherwise: the highest high leaves {minimum}+ low",
    "way.low_too_small": "otherwise: a lower high, to leave {minimum}+ low",
    "way.no_low": "otherwise: no split leaves {minimum}+ low",
}
COPY_WORDS = {"house": "copies to the house", "highest_card": "copies by the highest card"}


def register_analyse(commands: Any) -> None:
    analyse = commands.add_parser(
        "analyse",
        help="the exact house edge of a table setting: odds, EV, edge, hold per hour, house-way rules",
        description="Counts every pair of hands (the player's 4 cards, the house's 4 of the other 48: "
        "52,677,670,500 pairs) and prints the exact odds of win, push and lose, the player's expected value per "
        "unit bet, the house edge and the standard deviation of the setting; the edge and hold per hour of every "
        "commission from 0 to 10 %% under both copy rules; and how often each house-way rule decides the house hand.",
    )
    analyse.add_argument("--commission", default="0.05", help="0 to 0.10 of the win, or a percentage such as 5%%")
    analyse.add_argument("--copy-rule", choices=("house", "highest_card"), default="house")
    analyse.add_argument(
        "--house-way",
        type=Path,
        metavar="FILE",
        help='a posted house-way variant as JSON: {"pair_splits": {"2": ["3+7", "5+6"], "6": [...], …}, '
        '"min_low_points": 4}; pairs left out are never split; keys left out keep the standard house way',
    )
    analyse.add_argument(
        "--player",
        choices=("house-way", "best"),
        default="house-way",
        help="how the player sets: like the house (default), or every hand the way worth most against the house way",
    )
    analyse.add_argument("--rounds-per-hour", type=int, default=30, help="for the hold per hour (default 30)")
    analyse.add_argument("--average-bet", type=int, default=100, help="chips, for the hold per hour (default 100)")
    analyse.add_argument("--json", action="store_true", help="print one JSON object instead of the text report")
    analyse.add_argument("--html", type=Path, metavar="FILE", help="also write a printable HTML report")
    analyse.add_argument("--chart", type=Path, metavar="FILE.png", help="also write the house-edge chart as PNG")
    analyse.add_argument(
        "--simulate",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="also play this many whole 6-seat rounds through the engine and set the sample beside the exact figures",
    )
    analyse.add_argument("--seed", type=int, default=1, help="seed of --simulate (default 1)")
    analyse.set_defaults(func=run_analyse)


# ---------------------------------------------------------------- input


def parse_commission(text: str) -> Decimal:
    from engine.baibuu.settings import Settings, commission_from_json

    value = text.strip()
    percent = value.endswith("%")
    rate = commission_from_json(value.rstrip("%").strip())
    if percent:
        rate /= 100
    return Settings(commission=rate).commission  # validated: 0 to 0.10


def house_way_from_file(path: Path) -> HouseWay:
    """A casino's posted house way from its file (the engine's form, checked on every hand of ranks); a file
    without a name is named after itself."""
    from engine.baibuu.house_way_file import house_way_from_json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise InputError(f"--house-way {path}: not valid JSON ({error}); check the file") from None
    except OSError as error:
        raise InputError(f"--house-way {path}: cannot read it ({error.strerror}); check the path") from None
    if isinstance(data, dict) and "name" not in data:
        data = {"name": path.stem, **data}
    try:
        return house_way_from_json(data)
    except InputError as error:
        raise InputError(f"--house-way {path}: {error}") from None


# ---------------------------------------------------------------- the figures


@dataclass
class Report:
    commission: Decimal
    copy_rule: str
    player: str
    house_way_name: str
    min_low_points: int
    rounds_per_hour: int
    average_bet: int
    counts: Counts
    house_way_counts: Counts
    """The player by the house way (the same as ``counts`` unless ``player`` is best)."""
    rows: list[dict[str, Any]]
    rules: list[RuleFrequency]
    differs: int = 0
    better: list[dict[str, Any]] = field(default_factory=list)
    simulation: Simulation | None = None
    seconds: float = 0.0

    @property
    def edge(self) -> Fraction:
        return self.counts.house_edge(self.commission)


def build_report(args: argparse.Namespace) -> Report:
    from engine.baibuu.analysis import GameCount, rule_frequencies, simulate_rounds
    from engine.baibuu.house_way import STANDARD_HOUSE_WAY
    from engine.baibuu.settings import CopyRule, Settings

    commission = parse_commission(args.commission)
    if args.rounds_per_hour < 1 or args.average_bet < 1:
        raise InputError("--rounds-per-hour and --average-bet are whole numbers of 1 or more")
    if args.simulate < 0:
        raise InputError("--simulate ROUNDS: a whole number of rounds, 0 for none")
    way = house_way_from_file(args.house_way) if args.house_way else STANDARD_HOUSE_WAY
    started = time.perf_counter()
    counts = {rule: GameCount(rule, way) for rule in CopyRule}
    chosen = counts[CopyRule(args.copy_rule)]
    report = Report(
        commission=commission,
        copy_rule=args.copy_rule,
        player=args.player,
        house_way_name=str(args.house_way) if args.house_way else "standard",
        min_low_points=way.min_low_points,
        rounds_per_hour=args.rounds_per_hour,
        average_bet=args.average_bet,
        counts=_player_counts(chosen, args.player, commission),
        house_way_counts=chosen.house_way(),
        rows=[
            _row(counts[rule], rule, rate, args.player, args.rounds_per_hour, args.average_bet)
            for rule in CopyRule
            for rate in COMMISSIONS
        ],
        rules=rule_frequencies(way),
    )
    if args.player == "best":
        best = chosen.best(commission)
        report.differs = best.differs
        gains = sorted(
            best.patterns,
            key=lambda item: (
                (item[1].value(Fraction(commission)) - item[0].choices[0].value(Fraction(commission))) * item[0].hands
            ),
            reverse=True,
        )
        for odds, choice in gains[:12]:
            house = odds.choices[0]
            rate = Fraction(commission)
            report.better.append(
                {
                    "hand": _ranks(odds.pattern),
                    "house_way": f"{_ranks(house.high)} | {_ranks(house.low)}",
                    "best": f"{_ranks(choice.high)} | {_ranks(choice.low)}",
                    "hands": odds.hands,
                    "gain_per_bet": float((choice.value(rate) - house.value(rate)) / odds.house_hands),
                }
            )
    report.seconds = time.perf_counter() - started
    if args.simulate:
        if args.house_way:
            raise InputError("--simulate plays rounds through the engine, which deals the standard house way only")
        if args.player == "best":
            raise InputError("--simulate plays seats by the house way: leave out --player best")
        settings = Settings(commission=commission, copy_rule=CopyRule(args.copy_rule))
        report.simulation = simulate_rounds(settings, args.simulate, args.seed)
    return report


def _player_counts(count: GameCount, player: str, commission: Decimal) -> Counts:
    return count.best(commission).counts if player == "best" else count.house_way()


def _row(count: GameCount, rule: CopyRule, rate: Decimal, player: str, rounds: int, bet: int) -> dict[str, Any]:
    from engine.baibuu.settings import Settings
    from engine.baibuu.settlement import commission_on

    counts = _player_counts(count, player, rate)
    paid = commission_on(bet, Settings(commission=rate))
    return {
        "commission": float(rate),
        "copy_rule": rule.value,
        "player_ev": float(counts.expected_value(rate)),
        "house_edge": float(counts.house_edge(rate)),
        "standard_deviation": counts.standard_deviation(rate),
        "hold_per_hour": float(counts.hold(bet, paid) * rounds),
    }


def _ranks(ranks: tuple[int, ...]) -> str:
    from engine.baibuu.analysis import rank_of

    return " ".join(rank_of(order).text for order in ranks)


def _branch(rule: RuleFrequency, minimum: int) -> str:
    return BRANCHES.get(rule.rule_key, rule.rule_name).format(minimum=minimum)


# ---------------------------------------------------------------- output


def run_analyse(args: argparse.Namespace) -> int:
    report = build_report(args)
    if args.json:
        print(json.dumps(report_json(report), ensure_ascii=False, indent=1))
    else:
        sys.stdout.write(report_text(report))
    if args.chart:
        args.chart.write_bytes(chart_png(report))
        print(f"wrote the chart to {args.chart}", file=sys.stderr)
    if args.html:
        args.html.write_text(report_html(report), encoding="utf-8")
        print(f"wrote the report to {args.html}", file=sys.stderr)
    return 0


def _title(report: Report) -> str:
    player = "sets every hand the best way" if report.player == "best" else "sets by the house way"
    way = "" if report.house_way_name == "standard" else f", house way {report.house_way_name}"
    return f"{_percent(report.commission, 0)} commission, {COPY_WORDS[report.copy_rule]}{way}; the player {player}"


def _percent(value: Fraction | Decimal | float, places: int = 4) -> str:
    return f"{float(value) * 100:.{places}f} %"


def report_text(report: Report) -> str:
    c, rate = report.counts, report.commission
    lines = [
        f"Bài Bửu, exact: {_title(report)}",
        f"every pair of hands counted: {c.pairs:,} (the player's 4 cards, the house's 4 of the other 48)",
        f"  player wins   {_percent(c.share(c.win))}   (with a natural {_percent(c.share(c.natural_win))})",
        f"  push          {_percent(c.share(c.push))}",
        f"  player loses  {_percent(c.share(c.lose))}   (to a house natural {_percent(c.share(c.house_natural))},",
        f"                 a natural beaten by a higher one {_percent(c.share(c.natural_beaten))}, "
        f"mis-set {_percent(c.share(c.mis_set))})",
        f"  player's expected value per unit bet {float(c.expected_value(rate)):+.6f}"
        f"   house edge {_percent(report.edge)}   standard deviation {c.standard_deviation(rate):.4f}",
    ]
    if report.player == "best":
        gives_up = c.expected_value(rate) - report.house_way_counts.expected_value(rate)
        lines += [
            f"  against the best play the house way gives up {_percent(gives_up)} of each bet "
            f"(house edge {_percent(report.house_way_counts.house_edge(rate))} when the player sets by it);",
            f"  the best setting differs on {report.differs:,} of 270,725 hands "
            f"({_percent(Fraction(report.differs, 270725), 2)})",
            "  where it matters most (hand: house way -> best, gain per unit bet):",
            *(
                f"    {row['hand']:<11} {row['house_way']:>7} -> {row['best']:<7} {row['gain_per_bet']:+.4f}"
                for row in report.better
            ),
        ]
    if report.simulation is not None:
        lines += _simulation_lines(report)
    lines += [
        "",
        f"house edge and hold per seat per hour at {report.rounds_per_hour} rounds an hour, {report.average_bet} a bet "
        "(the commission rounded down to the smallest chip, as at the table):",
        "  commission   " + "   ".join(f"{COPY_WORDS[rule]:>27}" for rule in ("house", "highest_card")),
    ]
    for index, rate_row in enumerate(COMMISSIONS):
        cells = []
        for rule in ("house", "highest_card"):
            row = next(r for r in report.rows if r["copy_rule"] == rule and r["commission"] == float(rate_row))
            cells.append(f"{_percent(row['house_edge'], 3):>10} {row['hold_per_hour']:>9.1f}/h")
        mark = " <" if rate_row == rate else ""
        lines.append(f"  {index:>6} %    " + "   ".join(f"{cell:>27}" for cell in cells) + mark)
    lines += ["", "house-way rules (share of the 270,725 house hands each decides):"]
    for rule in report.rules:
        lines.append(f"  {_percent(rule.share, 3):>10}  {_branch(rule, report.min_low_points):<48} e.g. {rule.example}")
    lines.append(f"(counted in {report.seconds:.1f} s)")
    return "\n".join(lines) + "\n"


def _simulation_lines(report: Report) -> list[str]:
    simulation = report.simulation
    assert simulation is not None
    c = report.counts
    exact = {
        "win": float(c.share(c.win)),
        "push": float(c.share(c.push)),
        "lose": float(c.share(c.lose)),
        "ev": float(c.expected_value(report.commission)),
    }
    lines = [
        f"  sampled: {simulation.rounds:,} whole rounds of {simulation.seats} seats through the engine "
        "(99.9 % intervals):"
    ]
    for figure, value in exact.items():
        estimate = simulation.estimate(figure)
        verdict = "agrees" if estimate.holds(value) else "DOES NOT AGREE"
        lines.append(
            f"    {figure:<4} exact {value:+.5f}  sampled {estimate.value:+.5f} "
            f"[{estimate.low:+.5f}, {estimate.high:+.5f}]  {verdict}"
        )
    return lines


def report_json(report: Report) -> dict[str, Any]:
    c, rate = report.counts, report.commission

    def share(count: int) -> float:
        return float(c.share(count))

    data: dict[str, Any] = {
        "setting": {
            "commission": float(rate),
            "copy_rule": report.copy_rule,
            "player": report.player,
            "house_way": report.house_way_name,
        },
        "pairs": c.pairs,
        "counts": dict(
            zip(
                ("pairs", "win", "push", "lose", "natural_win", "natural_beaten", "house_natural", "mis_set"),
                c.fields(),
                strict=True,
            )
        ),
        "probabilities": {
            "win": share(c.win),
            "push": share(c.push),
            "lose": share(c.lose),
            "natural_win": share(c.natural_win),
            "natural_beaten": share(c.natural_beaten),
            "house_natural": share(c.house_natural),
            "mis_set": share(c.mis_set),
        },
        "player_ev": float(c.expected_value(rate)),
        "player_ev_exact": str(c.expected_value(rate)),
        "house_edge": float(report.edge),
        "standard_deviation": c.standard_deviation(rate),
        "table": {"rounds_per_hour": report.rounds_per_hour, "average_bet": report.average_bet, "rows": report.rows},
        "rules": [
            {
                "rule": rule.rule_name,
                "branch": _branch(rule, report.min_low_points),
                "hands": rule.hands,
                "share": float(rule.share),
                "example": rule.example,
            }
            for rule in report.rules
        ],
        "seconds": round(report.seconds, 3),
    }
    if report.player == "best":
        data["best"] = {
            "gives_up": float(c.expected_value(rate) - report.house_way_counts.expected_value(rate)),
            "house_way_edge": float(report.house_way_counts.house_edge(rate)),
            "hands_set_otherwise": report.differs,
            "largest_gains": report.better,
        }
    if report.simulation is not None:
        simulation = report.simulation
        data["simulation"] = {
            "rounds": simulation.rounds,
            "seats": simulation.seats,
            **{
                figure: {"value": e.value, "low": e.low, "high": e.high}
                for figure in ("win", "push", "lose", "ev")
                for e in [simulation.estimate(figure)]
            },
        }
    return data


# ---------------------------------------------------------------- HTML and chart

REPORT_CSS = """
@page { size: A4 portrait; margin: 14mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; color: #000; background: #fff; margin: 0 auto; max-width: 185mm; }
h1 { font-size: 22pt; margin: 0 0 1mm; }
h2 { font-size: 15pt; margin: 6mm 0 2mm; border-bottom: 1.5pt solid #000; break-after: avoid; }
p { font-size: 11pt; margin: 0 0 2mm; }
table { border-collapse: collapse; font-size: 11pt; font-variant-numeric: tabular-nums; break-inside: avoid; }
td, th { border: 0.8pt solid #000; padding: 0.8mm 2.5mm; text-align: right; }
th { background: #eee; }
td.text, th.text { text-align: left; }
tr.chosen td { font-weight: bold; background: #fff3b0; }
img { width: 100%; max-width: 185mm; }
"""


def report_html(report: Report) -> str:
    from html import escape

    c, rate = report.counts, report.commission
    picture = base64.b64encode(chart_png(report)).decode("ascii")
    rows = []
    for index, rate_row in enumerate(COMMISSIONS):
        cells = []
        for rule in ("house", "highest_card"):
            row = next(r for r in report.rows if r["copy_rule"] == rule and r["commission"] == float(rate_row))
            cells.append(f"<td>{_percent(row['house_edge'], 3)}</td><td>{row['hold_per_hour']:,.1f}</td>")
        chosen = ' class="chosen"' if rate_row == rate else ""
        rows.append(f"<tr{chosen}><td>{index} %</td>{''.join(cells)}</tr>")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>Bài Bửu: the game\'s numbers</title>',
        f"<style>{REPORT_CSS}</style></head><body>",
        "<h1>Bài Bửu — the game's numbers</h1>",
        f"<p>{escape(_title(report))}. Exact: every pair of hands counted, {c.pairs:,} pairs (the player's 4 cards, "
        "the house's 4 of the other 48).</p>",
        '<table><tr><th class="text">Player</th><th>Probability</th></tr>',
        f'<tr><td class="text">wins</td><td>{_percent(c.share(c.win))}</td></tr>',
        f'<tr><td class="text">… of which with a natural</td><td>{_percent(c.share(c.natural_win))}</td></tr>',
        f'<tr><td class="text">pushes</td><td>{_percent(c.share(c.push))}</td></tr>',
        f'<tr><td class="text">loses</td><td>{_percent(c.share(c.lose))}</td></tr>',
        f'<tr><td class="text">… of which to a house natural</td><td>{_percent(c.share(c.house_natural))}</td></tr>',
        f'<tr><td class="text">… of which a natural beaten by a higher one</td>'
        f"<td>{_percent(c.share(c.natural_beaten))}</td></tr>",
        f'<tr><td class="text">… of which mis-set</td><td>{_percent(c.share(c.mis_set))}</td></tr>',
        f'<tr><td class="text">expected value per unit bet</td><td>{float(c.expected_value(rate)):+.6f}</td></tr>',
        f'<tr class="chosen"><td class="text">house edge</td><td>{_percent(report.edge)}</td></tr>',
        f'<tr><td class="text">standard deviation</td><td>{c.standard_deviation(rate):.4f}</td></tr>',
        "</table>",
    ]
    if report.player == "best":
        gives_up = c.expected_value(rate) - report.house_way_counts.expected_value(rate)
        parts.append(
            f"<p>Against a player who sets every hand the best way, the house way gives up {_percent(gives_up)} of "
            f"each bet (house edge {_percent(report.house_way_counts.house_edge(rate))} when the player follows the "
            f"house way); the best setting differs on {report.differs:,} of the 270,725 hands.</p>"
        )
    parts += [
        "<h2>Every commission, both copy rules</h2>",
        f"<p>House edge, and hold per seat per hour at {report.rounds_per_hour} rounds an hour and "
        f"{report.average_bet} a bet (the commission rounded down to the smallest chip).</p>",
        f'<img src="data:image/png;base64,{picture}" alt="house edge by commission">',
        "<table><tr><th>Commission</th><th>Edge, copies to the house</th><th>Hold / hour</th>"
        "<th>Edge, highest card</th><th>Hold / hour</th></tr>",
        *rows,
        "</table>",
        "<h2>How often each house-way rule decides</h2>",
        '<table><tr><th class="text">Rule</th><th>Hands of 270,725</th><th>Share</th>'
        '<th class="text">Example</th></tr>',
        *(
            f'<tr><td class="text">{escape(_branch(rule, report.min_low_points))}</td><td>{rule.hands:,}</td>'
            f'<td>{_percent(rule.share, 3)}</td><td class="text">{escape(rule.example)}</td></tr>'
            for rule in report.rules
        ),
        "</table>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LINE_COLOURS = {"house": (178, 34, 34), "highest_card": (30, 90, 170)}


def chart_png(report: Report) -> bytes:
    """House edge (%) by commission (0-10 %), one line a copy rule; the chosen setting ringed. Drawn with Pillow."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    width, height, left, right, top, bottom = 1200, 720, 110, 40, 110, 90
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)

    def font(size: int) -> Any:
        try:
            return ImageFont.truetype(FONT, size)
        except OSError:
            return ImageFont.load_default()

    edges = [row["house_edge"] * 100 for row in report.rows]
    step = _nice_step((max(max(edges), 0.5) - min(0.0, min(edges))) / 6)
    low = math.floor(min(0.0, min(edges)) / step) * step
    high = math.ceil(max(max(edges), 0.5) * 1.05 / step) * step

    def x_at(rate: float) -> float:
        return left + (width - left - right) * rate / 0.10

    def y_at(edge: float) -> float:
        return top + (height - top - bottom) * (high - edge) / (high - low)

    player = "the best way" if report.player == "best" else "by the house way"
    title = f"Bài Bửu: house edge by commission (the player sets {player})"
    draw.text((left, 20), title, fill="black", font=font(30))
    for count in range(round((high - low) / step) + 1):
        tick = low + count * step
        y = y_at(tick)
        draw.line([(left, y), (width - right, y)], fill=(220, 220, 220))
        draw.text((left - 12, y), f"{tick:g} %", fill="black", font=font(20), anchor="rm")
    if low < 0:
        draw.line([(left, y_at(0)), (width - right, y_at(0))], fill=(90, 90, 90), width=2)
    for percent in range(11):
        x = x_at(percent / 100)
        draw.line([(x, height - bottom), (x, height - bottom + 8)], fill="black")
        draw.text((x, height - bottom + 12), f"{percent} %", fill="black", font=font(20), anchor="mt")
    middle = (left + width - right) / 2
    draw.text((middle, height - 30), "commission on a win", fill="black", font=font(22), anchor="mm")
    draw.rectangle([left, top, width - right, height - bottom], outline="black", width=2)
    for index, rule in enumerate(("house", "highest_card")):
        points = [
            (x_at(row["commission"]), y_at(row["house_edge"] * 100)) for row in report.rows if row["copy_rule"] == rule
        ]
        colour = LINE_COLOURS[rule]
        draw.line(points, fill=colour, width=4)
        for x, y in points:
            draw.ellipse([x - 5, y - 5, x + 5, y + 5], fill=colour)
        legend_x = left + 460 * index
        draw.line([(legend_x, 80), (legend_x + 50, 80)], fill=colour, width=4)
        draw.text((legend_x + 60, 80), COPY_WORDS[rule], fill="black", font=font(22), anchor="lm")
    x, y = x_at(float(report.commission)), y_at(float(report.edge) * 100)
    draw.ellipse([x - 14, y - 14, x + 14, y + 14], outline="black", width=3)
    draw.text((x + 18, y - 18), _percent(report.edge, 2), fill="black", font=font(22), anchor="lb")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _nice_step(raw: float) -> float:
    for step in (0.5, 1, 2, 5, 10, 20, 50):
        if step >= raw:
            return float(step)
    return 100.0
