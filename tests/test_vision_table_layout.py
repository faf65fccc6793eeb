"""Table layouts: the shipped Bài Bửu layout, zone lookup, and clear errors for a wrong layout file."""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InputError
from vision.layout import LayoutError, Zone, hand_zone, load_layout, parse_layout, render_plan, shipped_layouts

SHIPPED = Path(__file__).resolve().parent.parent / "vision" / "layouts" / "baibuu_7.yaml"
SHIPPED_LAYOUT = load_layout(SHIPPED)


def _data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(SHIPPED.read_text())
    return data


def test_the_shipped_layout_names_every_bai_buu_place_and_the_centre() -> None:
    layout = load_layout("baibuu_7")
    expected = {"house.high", "house.low", "centre"} | {f"seat{p}.{h}" for p in range(2, 8) for h in ("high", "low")}
    assert set(layout.zone_names) == expected
    assert layout.zone("seat3.low").capacity == 2
    assert layout.zone("centre").capacity is None
    assert "baibuu_7" in shipped_layouts()
    assert load_layout(SHIPPED).zone_names == layout.zone_names  # by path too


def test_positions_map_to_zones_as_the_engine_counts_them() -> None:
    assert hand_zone(1, "high") == "house.high"
    assert hand_zone(3, "low") == "seat3.low"
    assert hand_zone(7, "high") == "seat7.high"
    with pytest.raises(InputError, match="position must be 1"):
        hand_zone(8, "low")
    with pytest.raises(InputError, match="'high' or 'low'"):
        hand_zone(3, "middle")


def test_the_seats_run_counter_clockwise_from_the_house() -> None:
    """Seen from above with the house at the top, counter-clockwise runs down the camera's left side first."""
    layout = load_layout()
    xs = [layout.zone(hand_zone(p, "high")).centre[0] for p in range(2, 8)]
    assert xs == sorted(xs)
    house_x = layout.zone("house.high").centre[0]
    assert layout.zone("seat2.high").centre[0] < house_x < layout.zone("seat7.high").centre[0]


def test_every_zone_is_found_by_its_own_points_and_nowhere_else() -> None:
    layout = load_layout()
    for zone in layout.zones:
        x1, y1, x2, y2 = zone.bounds
        assert layout.zone_at(*zone.centre) == zone
        assert layout.zone_at(x1 + 1, y1 + 1) == zone
        assert layout.zone_at(x2 - 1, y2 - 1) == zone
    assert layout.zone_at(5, 500) is None  # the table's edge
    assert layout.zone_at(-50, -50) is None


@given(st.floats(-50, 250), st.floats(-50, 250))
def test_point_in_a_turned_polygon_matches_the_half_plane_test(x: float, y: float) -> None:
    diamond = Zone("d", ((100, 0), (200, 100), (100, 200), (0, 100)))
    expected = abs(x - 100) + abs(y - 100) <= 100
    if abs(abs(x - 100) + abs(y - 100) - 100) > 1e-6:  # points on the edge count either way
        assert diamond.contains(x, y) == expected


def test_unknown_zone_lists_the_zones() -> None:
    with pytest.raises(InputError, match=r"no zone 'seat9.low' in layout 'baibuu_7'; its zones: house.high"):
        load_layout().zone("seat9.low")


def _with(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(_data())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["zones"]["seat3.low"].update(rect=[250, 575, 150, 110]), "zones seat3.high and seat3.low overlap"),
        (lambda d: d["zones"]["centre"].update(rect=[1700, 280, 560, 360]), "zone centre reaches off the 1800×1000"),
        (lambda d: d["zones"].update(corner={"rect": [20, 20, 100, 100]}), "zone corner covers marker 0"),
        (lambda d: d["zones"]["centre"].update(colour="red"), "zone centre: unknown field"),
        (lambda d: d["zones"]["centre"].update(rect=[620, 280, 560]), "rect is [x, y, width, height]"),
        (lambda d: d["zones"]["centre"].update(rect=[620, 280, -5, 10]), "rect width must be a positive number"),
        (lambda d: d["zones"]["seat2.high"].update(capacity=0), "capacity is how many cards"),
        (
            lambda d: d["zones"].update(star={"polygon": [[700, 700], [800, 900], [900, 700], [800, 800]]}),
            "must be convex",
        ),
        (lambda d: d["zones"].update({"Seat 3": {"rect": [700, 900, 10, 10]}}), "zone name 'Seat 3'"),
        (lambda d: d["zones"]["centre"].pop("rect"), "give exactly one of rect or polygon"),
        (lambda d: d.pop("zones"), "missing 'zones'"),
        (lambda d: d.update(tabel={}), "unknown field(s) tabel"),
        (lambda d: d["table"].update(width_mm="wide"), "table.width_mm must be a positive number"),
        (lambda d: d["markers"].update(dictionary="DICT_1X1"), "unknown ArUco dictionary 'DICT_1X1'"),
        (lambda d: d["markers"]["centres_mm"].update({1: [1790, 60]}), "marker 1 at (1790, 60) does not lie wholly"),
        (lambda d: d["markers"]["centres_mm"].update({"one": [100, 60]}), "marker id 'one' is not a whole number"),
    ],
)
def test_a_wrong_layout_names_the_file_and_the_problem(change: Any, message: str) -> None:
    with pytest.raises(LayoutError) as caught:
        parse_layout(_with(change), source="table.yaml")
    assert str(caught.value).startswith("table.yaml: ")
    assert message in str(caught.value)


def test_layout_files_that_cannot_be_read(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("zones:\n  centre: {rect: [1, 2\n")
    with pytest.raises(LayoutError, match="not valid YAML"):
        load_layout(broken)
    with pytest.raises(LayoutError, match=r"no layout named 'baccarat'.*baibuu_7"):
        load_layout("baccarat")
    with pytest.raises(LayoutError, match="no layout file at"):
        load_layout(tmp_path / "missing.yaml")


def test_a_polygon_zone_and_a_custom_layout(tmp_path: Path) -> None:
    data = _with(lambda d: d["zones"].update(discard={"polygon": [[1300, 850], [1450, 820], [1480, 930], [1320, 950]]}))
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    layout = load_layout(path)
    assert layout.zone_at(1390, 890) == layout.zone("discard")


def test_the_plan_drawing_has_the_table_shape() -> None:
    plan = render_plan(load_layout(), px_per_mm=0.5)
    assert plan.shape == (500, 900, 3)


def test_a_card_a_little_past_its_place_still_belongs_there() -> None:
    layout = load_layout()
    high, low = layout.zone("seat3.high"), layout.zone("seat3.low")  # x 250-400 and 420-570, y 575-685
    assert layout.zone_at(240, 630) is None
    assert layout.zone_at(240, 630, margin_mm=15) == high
    assert layout.zone_at(405, 630, margin_mm=15) == high  # in the gap, nearer the high place
    assert layout.zone_at(416, 630, margin_mm=15) == low
    assert layout.zone_at(200, 630, margin_mm=15) is None  # 50 mm out: not in any place
    assert high.distance(240, 630) == pytest.approx(10)
    assert high.distance(240, 565) == pytest.approx(math.hypot(10, 10))


@given(st.floats(0, 1800), st.floats(0, 1000))
def test_distance_is_zero_exactly_inside(x: float, y: float) -> None:
    for zone in SHIPPED_LAYOUT.zones:
        assert (zone.distance(x, y) == 0) == zone.contains(x, y)
