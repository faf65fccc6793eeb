"""Table layout: a YAML file naming the places on the felt (zones) in table millimetres, and the corner markers.

A layout file looks like this (``vision/layouts/baibuu_7.yaml`` is the shipped one)::

    name: baibuu_7
    table: {width_mm: 1800, height_mm: 1000}
    markers: {dictionary: DICT_4X4_50, size_mm: 80, centres_mm: {0: [60, 60], 1: [1740, 60], ...}}
    zones:
      house.high: {rect: [740, 120, 150, 110], capacity: 2}     # x, y, width, height in mm
      seat3.low: {polygon: [[x, y], ...], capacity: 2}          # any convex polygon
      centre: {rect: [620, 290, 560, 350]}                      # no capacity: any number of cards

Bài Bửu places are named by position as the engine counts them: the house is position 1 (``house.high``,
``house.low``) and the six seats are positions 2–7 (``seat2.high`` … ``seat7.low``); ``centre`` takes the plays of
Sâm Lốc and Schmier. Other names are allowed (lower case, digits, ``.`` and ``_``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.errors import InputError
from engine.untrusted import parse_yaml
from vision.calibration import Calibration, MarkerSpec

Point = tuple[float, float]
# (frame, text, baseline origin, OpenCV font scale, BGR colour) -> the rectangle drawn over (x1, y1, x2, y2)
TextDrawer = Callable[[Any, str, tuple[int, int], float, Any], tuple[int, int, int, int]]
LAYOUTS_DIR = Path(__file__).resolve().parent / "layouts"
DEFAULT_LAYOUT = "baibuu_7"
HANDS = ("high", "low")
HOUSE_POSITION = 1
SEAT_POSITIONS = range(2, 8)
CENTRE = "centre"

_ZONE_NAME = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$")
_TOP_KEYS = {"name", "table", "markers", "zones", "description"}
_ZONE_KEYS = {"rect", "polygon", "capacity", "label"}


class LayoutError(InputError):
    """A layout file that cannot be used; the message names the file, the field and what to write instead."""


def hand_zone(position: int, hand: str) -> str:
    """The zone name of a Bài Bửu hand: position 1 is the house, 2–7 the seats; hand is ``high`` or ``low``."""
    if hand not in HANDS:
        raise InputError(f"hand must be 'high' or 'low', got {hand!r}")
    if position == HOUSE_POSITION:
        return f"house.{hand}"
    if position in SEAT_POSITIONS:
        return f"seat{position}.{hand}"
    raise InputError(f"position must be 1 (the house) to 7, got {position}")


@dataclass(frozen=True, slots=True)
class Zone:
    """One named place on the felt: a convex polygon in table mm, with how many cards it holds (None: any)."""

    name: str
    polygon: tuple[Point, ...]
    capacity: int | None = None
    label: str = ""

    def contains(self, x: float, y: float) -> bool:
        """True when the point lies inside the polygon or on its edge."""
        inside = False
        points = self.polygon
        for i, (x1, y1) in enumerate(points):
            x2, y2 = points[(i + 1) % len(points)]
            if _on_segment(x, y, x1, y1, x2, y2):
                return True
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside

    def distance(self, x: float, y: float) -> float:
        """How far the point lies outside the polygon in mm (0 inside or on the edge)."""
        if self.contains(x, y):
            return 0.0
        points = self.polygon
        return min(_segment_distance(x, y, *points[i], *points[(i + 1) % len(points)]) for i in range(len(points)))

    @property
    def centre(self) -> Point:
        xs, ys = zip(*self.polygon, strict=True)
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        xs, ys = zip(*self.polygon, strict=True)
        return (min(xs), min(ys), max(xs), max(ys))


def _segment_distance(x: float, y: float, x1: float, y1: float, x2: float, y2: float) -> float:
    dx, dy = x2 - x1, y2 - y1
    length_squared = dx * dx + dy * dy
    t = 0.0 if length_squared == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / length_squared))
    return math.hypot(x - (x1 + t * dx), y - (y1 + t * dy))


def _on_segment(x: float, y: float, x1: float, y1: float, x2: float, y2: float) -> bool:
    cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
    if abs(cross) > 1e-9 * max(1.0, math.hypot(x2 - x1, y2 - y1)):
        return False
    return min(x1, x2) - 1e-9 <= x <= max(x1, x2) + 1e-9 and min(y1, y2) - 1e-9 <= y <= max(y1, y2) + 1e-9


@dataclass(frozen=True)
class Layout:
    name: str
    width_mm: float
    height_mm: float
    markers: MarkerSpec
    zones: tuple[Zone, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {zone.name: zone for zone in self.zones})

    @property
    def zone_names(self) -> tuple[str, ...]:
        return tuple(zone.name for zone in self.zones)

    def zone(self, name: str) -> Zone:
        by_name: dict[str, Zone] = object.__getattribute__(self, "_by_name")
        try:
            return by_name[name]
        except KeyError:
            raise InputError(
                f"no zone {name!r} in layout {self.name!r}; its zones: {', '.join(self.zone_names)}"
            ) from None

    def zone_at(self, x: float, y: float, margin_mm: float = 0.0) -> Zone | None:
        """The zone holding this table point (mm); failing that, the nearest zone within ``margin_mm`` of it (a
        card pushed a little past its printed place still belongs there); None when it lies in no zone."""
        for zone in self.zones:
            if zone.contains(x, y):
                return zone
        if margin_mm <= 0:
            return None
        distance, nearest = min((zone.distance(x, y), i) for i, zone in enumerate(self.zones))
        return self.zones[nearest] if distance <= margin_mm else None


def load_layout(name_or_path: str | Path = DEFAULT_LAYOUT) -> Layout:
    """A layout from a YAML file, or a shipped one by name (``baibuu_7``)."""
    path = Path(name_or_path)
    if not path.suffix and not path.exists():
        path = LAYOUTS_DIR / f"{name_or_path}.yaml"
        if not path.exists():
            shipped = ", ".join(shipped_layouts())
            raise LayoutError(f"no layout named {str(name_or_path)!r}: give a YAML file or one of: {shipped}")
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        raise LayoutError(
            f"no layout file at {path}: give the path of a layout YAML file, or one of: {', '.join(shipped_layouts())}"
        ) from None
    try:
        data = parse_yaml(text, str(path))
    except InputError as error:
        raise LayoutError(str(error)) from None
    return parse_layout(data, source=str(path))


def shipped_layouts() -> list[str]:
    return sorted(p.stem for p in LAYOUTS_DIR.glob("*.yaml"))


def parse_layout(data: Any, *, source: str = "layout") -> Layout:
    """Validate a layout read from YAML; every error names the file and the field."""

    def fail(message: str) -> LayoutError:
        return LayoutError(f"{source}: {message}")

    if not isinstance(data, dict):
        raise fail("a layout is a mapping with name, table, markers and zones")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise fail(f"unknown field(s) {', '.join(sorted(map(str, unknown)))}; allowed: {', '.join(sorted(_TOP_KEYS))}")
    for key in ("table", "markers", "zones"):
        if key not in data:
            raise fail(f"missing '{key}'")
    name = str(data.get("name") or Path(source).stem)

    table = data["table"]
    if not isinstance(table, dict):
        raise fail("table: write {width_mm: …, height_mm: …}")
    width = _positive(table.get("width_mm"), "table.width_mm", fail)
    height = _positive(table.get("height_mm"), "table.height_mm", fail)

    markers_data = data["markers"]
    if not isinstance(markers_data, dict):
        raise fail("markers: write {dictionary: DICT_4X4_50, size_mm: 80, centres_mm: {0: [x, y], …}}")
    centres_data = markers_data.get("centres_mm")
    if not isinstance(centres_data, dict) or not centres_data:
        raise fail("markers.centres_mm: map each marker id to its centre [x, y] in mm")
    centres: dict[int, Point] = {}
    for key, value in centres_data.items():
        try:
            marker_id = int(key)
        except (TypeError, ValueError):
            raise fail(f"markers.centres_mm: marker id {key!r} is not a whole number") from None
        centres[marker_id] = _point(value, f"markers.centres_mm.{key}", fail)
    size = _positive(markers_data.get("size_mm"), "markers.size_mm", fail)
    try:
        markers = MarkerSpec(str(markers_data.get("dictionary", "DICT_4X4_50")), size, centres)
    except InputError as error:
        raise fail(f"markers: {error}") from None
    for marker_id, (mx, my) in centres.items():
        half = size / 2
        if mx - half < 0 or my - half < 0 or mx + half > width or my + half > height:
            raise fail(
                f"marker {marker_id} at ({mx:g}, {my:g}) does not lie wholly on the {width:g}×{height:g} mm table"
            )

    zones_data = data["zones"]
    if not isinstance(zones_data, dict) or not zones_data:
        raise fail("zones: map each zone name to {rect: [x, y, width, height]} or {polygon: [[x, y], …]}")
    zones = [_zone(str(zone_name), spec, fail) for zone_name, spec in zones_data.items()]
    for zone in zones:
        x1, y1, x2, y2 = zone.bounds
        if x1 < 0 or y1 < 0 or x2 > width or y2 > height:
            raise fail(f"zone {zone.name} reaches off the {width:g}×{height:g} mm table")
        for marker_id in centres:
            if _overlap_area(zone.polygon, tuple(map(tuple, markers.corners_mm(marker_id)))) > 0:
                raise fail(f"zone {zone.name} covers marker {marker_id}: cards there would hide the marker")
    for i, first in enumerate(zones):
        for second in zones[i + 1 :]:
            if _overlap_area(first.polygon, second.polygon) > 1.0:
                raise fail(f"zones {first.name} and {second.name} overlap: a card there would belong to both")
    return Layout(name, width, height, markers, tuple(zones))


def _positive(value: Any, field: str, fail: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
        raise fail(f"{field} must be a positive number of millimetres, got {value!r}")
    return float(value)


def _point(value: Any, field: str, fail: Any) -> Point:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value)
    ):
        raise fail(f"{field} must be a point [x, y] in mm, got {value!r}")
    return (float(value[0]), float(value[1]))


def _zone(name: str, spec: Any, fail: Any) -> Zone:
    if not _ZONE_NAME.match(name):
        raise fail(f"zone name {name!r}: use lower case letters, digits, '_' and '.', e.g. seat3.low")
    if not isinstance(spec, dict):
        raise fail(f"zone {name}: write {{rect: [x, y, width, height]}} or {{polygon: [[x, y], …]}}")
    unknown = set(spec) - _ZONE_KEYS
    if unknown:
        raise fail(f"zone {name}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
    if ("rect" in spec) == ("polygon" in spec):
        raise fail(f"zone {name}: give exactly one of rect or polygon")
    if "rect" in spec:
        rect = spec["rect"]
        if not isinstance(rect, list | tuple) or len(rect) != 4:
            raise fail(f"zone {name}: rect is [x, y, width, height] in mm, got {rect!r}")
        x, y = _point(rect[:2], f"zone {name} rect x, y", fail)
        w = _positive(rect[2], f"zone {name} rect width", fail)
        h = _positive(rect[3], f"zone {name} rect height", fail)
        polygon: tuple[Point, ...] = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    else:
        raw = spec["polygon"]
        if not isinstance(raw, list) or len(raw) < 3:
            raise fail(f"zone {name}: a polygon needs at least 3 points [[x, y], …]")
        polygon = tuple(_point(p, f"zone {name} polygon point {i + 1}", fail) for i, p in enumerate(raw))
        if _polygon_area(polygon) < 1.0 or not _is_convex(polygon):
            raise fail(f"zone {name}: the polygon must be convex with its points in order around it")
    capacity = spec.get("capacity")
    if capacity is not None and (isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1):
        raise fail(f"zone {name}: capacity is how many cards the place holds (a whole number ≥ 1), got {capacity!r}")
    return Zone(name, polygon, capacity, str(spec.get("label", "")))


def _polygon_area(points: Sequence[Point]) -> float:
    area = 0.0
    for i, (x1, y1) in enumerate(points):
        x2, y2 = points[(i + 1) % len(points)]
        area += x1 * y2 - x2 * y1
    return abs(area) / 2.0


def _is_convex(points: Sequence[Point]) -> bool:
    signs = set()
    n = len(points)
    for i in range(n):
        (x1, y1), (x2, y2), (x3, y3) = points[i], points[(i + 1) % n], points[(i + 2) % n]
        cross = (x2 - x1) * (y3 - y2) - (y2 - y1) * (x3 - x2)
        if abs(cross) > 1e-9:
            signs.add(cross > 0)
    return len(signs) == 1


def _overlap_area(first: Sequence[Point], second: Sequence[Sequence[float]]) -> float:
    import cv2

    a = np.array(first, dtype=np.float32).reshape(-1, 1, 2)
    b = np.array(second, dtype=np.float32).reshape(-1, 1, 2)
    if _polygon_area(list(map(tuple, a.reshape(-1, 2)))) > 0 and not _ccw(a):
        a = a[::-1].copy()
    if not _ccw(b):
        b = b[::-1].copy()
    area, _points = cv2.intersectConvexConvex(a, b)
    return float(area)


def _ccw(points: npt.NDArray[np.float32]) -> bool:
    flat = points.reshape(-1, 2)
    x, y = flat[:, 0].astype(np.float64), flat[:, 1].astype(np.float64)
    return float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) > 0


# ---------------------------------------------------------------------------------------------------------------
# Drawing


ZONE_COLOUR = (255, 200, 0)  # BGR: light blue
ZONE_BUSY_COLOUR = (0, 200, 255)  # amber: a zone whose cards need a look
TEXT_COLOUR = (255, 255, 255)


def draw_layout(
    frame: npt.NDArray[np.uint8],
    layout: Layout,
    calibration: Calibration,
    *,
    captions: Mapping[str, str] | None = None,
    attention: Sequence[str] = (),
    label_rects: list[tuple[int, int, int, int]] | None = None,
    names: Mapping[str, str] | None = None,
    draw_text: TextDrawer | None = None,
) -> npt.NDArray[np.uint8]:
    """Draw the zones over a camera frame (in place, and returned): outline, name and an optional caption; where
    each label went is added to ``label_rects`` when given (so that the cards' captions can keep off them).

    ``names`` words the zones for a screen (its language: "Seat 3 high" for ``seat3.high``), drawn with
    ``draw_text`` when given (OpenCV's own font has only ASCII)."""
    import cv2

    scale = max(frame.shape[0], frame.shape[1]) / 1280.0
    thickness = max(1, round(2 * scale))
    for zone in layout.zones:
        pixels = calibration.to_pixels(np.array(zone.polygon))
        colour = ZONE_BUSY_COLOUR if zone.name in attention else ZONE_COLOUR
        cv2.polylines(frame, [np.round(pixels).astype(np.int32)], True, colour, thickness, cv2.LINE_AA)
        x, y = pixels[:, 0].min(), pixels[:, 1].min()
        size = 0.45 * scale
        caption = captions.get(zone.name) if captions else None
        name = names.get(zone.name, zone.name) if names else zone.name
        if draw_text is not None:  # the name just above the zone, the cards on a line of their own above it
            rect = draw_text(frame, name, (int(x) + 3, int(y) - 4), size, colour)
            rects = [rect]
            if caption:
                rects.append(draw_text(frame, caption, (int(x) + 3, rect[1] - 4), size, colour))
            if label_rects is not None:
                label_rects.extend(rects)
            continue
        text = name + (f"  {caption}" if caption else "")
        if caption and _text_size(text, size)[0] > pixels[:, 0].max() - x:
            # Wider than its zone, the line would run over the next zone's name: the cards go on a line of their own.
            _width, height, depth = _text_size(caption, size)
            line = height + depth + 2
            _label(frame, caption, (int(x) + 3, int(y) - 4 - line), size, colour, label_rects)
            text = name
        _label(frame, text, (int(x) + 3, int(y) - 4), size, colour, label_rects)
    return frame


def _text_size(text: str, size: float) -> tuple[int, int, int]:
    """Width, height above the baseline and depth below it of a label's text."""
    import cv2

    (width, height), baseline = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, max(1, round(size * 2)))
    return int(width), int(height), int(baseline)


def _label(frame: npt.NDArray[np.uint8], text: str, origin: tuple[int, int], size: float, colour: Any,
           rects: list[tuple[int, int, int, int]] | None = None) -> None:
    import cv2

    x, y = origin
    y = max(y, 12)
    thickness = max(1, round(size * 2))
    if rects is not None:
        width, height, depth = _text_size(text, size)
        rects.append((x, y - height, x + width, y + depth))
    cv2.putText(frame, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size, (0, 0, 0), thickness + 2, cv2.LINE_AA)
    cv2.putText(frame, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size, colour, thickness, cv2.LINE_AA)


def render_plan(layout: Layout, *, px_per_mm: float = 0.6) -> npt.NDArray[np.uint8]:
    """A top-down drawing of the table: felt, markers and zones, as a BGR image (for ``vision layout``)."""
    import cv2

    from vision.calibration import marker_image

    width, height = round(layout.width_mm * px_per_mm), round(layout.height_mm * px_per_mm)
    plan = np.zeros((height, width, 3), dtype=np.uint8)
    plan[:] = (40, 110, 30)
    side = max(8, round(layout.markers.size_mm * px_per_mm))
    for marker_id in layout.markers.centres_mm:
        x0, y0 = np.round(layout.markers.corners_mm(marker_id)[0] * px_per_mm).astype(int)
        marker = cv2.cvtColor(marker_image(layout.markers, marker_id, side), cv2.COLOR_GRAY2BGR)
        plan[y0 : y0 + side, x0 : x0 + side] = marker[: height - y0, : width - x0]
    for zone in layout.zones:
        pixels = np.round(np.array(zone.polygon) * px_per_mm).astype(np.int32)
        cv2.polylines(plan, [pixels], True, ZONE_COLOUR, 2, cv2.LINE_AA)
        cx, cy = zone.centre
        text = zone.name + (f" ({zone.capacity})" if zone.capacity else "")
        (tw, _th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.45, 1)
        _label(plan, text, (round(cx * px_per_mm - tw / 2), round(cy * px_per_mm) + 5), 0.45, TEXT_COLOUR)
    return plan
