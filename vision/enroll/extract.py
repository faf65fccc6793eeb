"""Finding every card of a face-up spread by its outline and warping each one flat to an upright face.

Capture finds cards with the card reader's own detector (``vision.enroll.find``); this outline segmentation is what
is left when no model can be opened, and it needs a plain table top (felt or wood, not a grey desk or a white table).
The felt is darker or more coloured than a card's white face, so a card is a bright, unsaturated blob. A blob that
is one card (a convex quadrilateral of a card's shape) gives its four corners directly (each side refitted as a
straight line, so rounded corners do not pull them in). A blob of touching cards is split by fitting card-sized
rectangles at its corners: a candidate must lie inside the blob and each of its sides must run either along the
blob's edge or along a visible seam (the step in brightness, the thin shadow between two cards); the best is taken
out and the rest is split again. The card's size comes from the spread's lone cards (median), else from a setting.

Each card is warped to ``FACE_SIZE`` (portrait); both 180° orientations are kept, since which end is "up" is
arbitrary for a symmetric card.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from engine.errors import InputError
from vision.synth.faces import CARD_ASPECT, FACE_SIZE

Image = npt.NDArray[np.uint8]
Quad = npt.NDArray[np.float32]  # 4 x 2: the face's top-left, top-right, bottom-right, bottom-left in frame pixels


@dataclass(frozen=True)
class ExtractSettings:
    """How cards are told from the table. ``card_width`` (pixels, the short side) is only needed when no card of the
    spread lies apart from the others; ``min_card_width`` ignores specks and chips."""

    card_width: float | None = None
    min_card_width: float = 30.0
    aspect_range: tuple[float, float] = (1.2, 1.65)
    seam_support: float = 0.75  # share of a side that must be edge or seam for a fitted card to be accepted
    inside_share: float = 0.93  # share of a fitted card that must be card-coloured

    def __post_init__(self) -> None:
        if self.card_width is not None and self.card_width < self.min_card_width:
            raise InputError(f"card width {self.card_width} px is below the smallest card width "
                             f"{self.min_card_width} px; move the camera closer or give the width in pixels")


@dataclass(frozen=True)
class FoundCard:
    """One card found in a frame: its outline and its face warped flat (and turned 180°)."""

    corners: Quad
    face: Image
    face_turned: Image
    split: bool = False  # true when the card was separated from touching neighbours
    found_by: str = "contour"  # "contour" (this module); "outline", "edge", "rough", "box" (``vision.enroll.find``)
    read: Card | None = None  # what the table's reader read it as, where a reader found it
    confidence: float = 0.0  # the reading's confidence

    @property
    def box(self) -> tuple[float, float, float, float]:
        x1, y1 = self.corners.min(axis=0)
        x2, y2 = self.corners.max(axis=0)
        return (float(x1), float(y1), float(x2), float(y2))

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return (float(c[0]), float(c[1]))


@dataclass
class Extraction:
    """Every card found in one frame, plus regions that looked like cards but could not be taken apart."""

    cards: list[FoundCard]
    unresolved: list[tuple[float, float, float, float]] = field(default_factory=list)  # boxes, frame pixels
    card_width: float = 0.0
    at_edge: list[tuple[float, float, float, float]] = field(default_factory=list)  # cards cut by the frame's edge
    covered: list[tuple[float, float, float, float]] = field(default_factory=list)  # cards mostly under another
    unclear: list[tuple[float, float, float, float]] = field(default_factory=list)  # cards whose corners are unsure
    partial: list[tuple[float, float, float, float]] = field(default_factory=list)  # cut cards kept as partial views

    @property
    def problems(self) -> list[str]:
        def where(box: tuple[float, float, float, float]) -> str:
            x1, y1, x2, y2 = (round(v) for v in box)
            return f"({x1}, {y1})-({x2}, {y2})"

        return ([f"a card at {where(b)} is cut by the edge of the picture: move it in and capture again"
                 for b in self.at_edge]
                + [f"a card at {where(b)} is cut by the edge of the picture: what shows of it is kept as a partial "
                   "view, not as its face; move it in and capture again for its face" for b in self.partial]
                + [f"cards around {where(b)} overlap or touch too closely to be told apart: spread them a finger "
                   "apart and capture again" for b in self.unresolved]
                + [f"a card at {where(b)} is mostly covered by another: lay it so that it shows and capture again"
                   for b in self.covered]
                + [f"a card at {where(b)} lies turned and its corners could not be told: capture it again, on a part "
                   "of the table that sets it off" for b in self.unclear])


def card_mask(frame: Image) -> Image:
    """255 where the frame shows a card's face: its white paper, and the print on it (holes filled)."""
    blurred = cv2.GaussianBlur(frame, (5, 5), 0)
    whiteness = blurred.min(axis=2)  # white: every channel high; green felt or brown wood: one channel low
    level, white = cv2.threshold(whiteness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if level < 60:  # no bright paper at all (an empty table): Otsu would split the felt's own noise
        white[whiteness < 110] = 0
    white = cv2.morphologyEx(white, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # The print (an index, court art) can reach almost to a card's edge and break its white margin. Print is far in
    # colour from the felt and lies next to white paper: add such pixels, then fill what they enclose.
    lab = cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB).astype(np.float32)
    felt = np.median(lab[white == 0], axis=0) if (white == 0).any() else np.zeros(3, np.float32)
    distance = np.linalg.norm(lab - felt, axis=2)
    spread = float(np.percentile(distance[white == 0], 90)) if (white == 0).any() else 0.0
    k = max(5, min(frame.shape[:2]) // 60) | 1
    near_white = cv2.dilate(white, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) > 0
    ink = (distance > max(25.0, 1.5 * spread)) & near_white
    mask = np.where(ink, 255, white).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    return _fill_holes(mask)


def _fill_holes(mask: Image) -> Image:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, thickness=-1)
    return filled


def order_corners(points: npt.ArrayLike) -> Quad:
    """Four points as a portrait face's top-left, top-right, bottom-right, bottom-left: clockwise in the image with
    a short side first (of the two such orders, the one starting nearest the image's top-left)."""
    pts = np.asarray(points, np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))]  # clockwise, y down
    side = [float(np.linalg.norm(pts[(i + 1) % 4] - pts[i])) for i in range(4)]
    start = 0 if side[0] + side[2] <= side[1] + side[3] else 1  # a short side first
    options = [np.roll(pts, -start, axis=0), np.roll(pts, -(start + 2), axis=0)]
    return min(options, key=lambda q: float(q[0].sum()))


def warp_face(frame: Image, corners: Quad) -> Image:
    """The card at ``corners`` warped flat to a ``FACE_SIZE`` portrait face."""
    w, h = FACE_SIZE
    target = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), target)
    return cv2.warpPerspective(frame, matrix, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def _line_fit_quad(contour: npt.NDArray[np.int32], quad: Quad) -> Quad:
    """Refine a rough quadrilateral: fit a straight line to the contour points along each side (away from the
    rounded corners) and intersect neighbouring lines."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 1:
            return quad
        u = d / length
        n = np.array([-u[1], u[0]], np.float32)
        rel = pts - a
        along = rel @ u
        across = np.abs(rel @ n)
        near = pts[(along > 0.15 * length) & (along < 0.85 * length) & (across < max(3.0, 0.04 * length))]
        if len(near) < 5:
            lines.append((a, u))
            continue
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)
        lines.append((np.float32([x0, y0]), np.float32([vx, vy])))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float64)
        if abs(np.linalg.det(m)) < 1e-6:
            return quad
        t = np.linalg.solve(m, (p2 - p1).astype(np.float64))
        out.append(p1 + d1 * float(t[0]))
    refined = np.asarray(out, np.float32)
    if float(np.abs(refined - quad).max()) > 0.1 * float(np.linalg.norm(quad[1] - quad[0]) + 1):
        return quad  # the fit went astray (a notch, a chip): keep the rough corners
    return refined


def _single_card_quad(contour: npt.NDArray[np.int32], settings: ExtractSettings) -> Quad | None:
    """The corners when the blob is one card: a convex quadrilateral of a card's shape filling its hull."""
    hull = cv2.convexHull(contour)
    quad = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
    if len(quad) != 4 or not cv2.isContourConvex(quad):
        return None
    area = cv2.contourArea(quad)
    if area <= 0 or cv2.contourArea(contour) < 0.93 * area:
        return None
    ordered = order_corners(quad.reshape(4, 2))
    short = (np.linalg.norm(ordered[1] - ordered[0]) + np.linalg.norm(ordered[2] - ordered[3])) / 2
    long = (np.linalg.norm(ordered[3] - ordered[0]) + np.linalg.norm(ordered[2] - ordered[1])) / 2
    if short < settings.min_card_width or not settings.aspect_range[0] <= long / short <= settings.aspect_range[1]:
        return None
    return order_corners(_line_fit_quad(contour, ordered))


def _side_support(mask: Image, gx: npt.NDArray[np.float32], gy: npt.NDArray[np.float32],
                  a: npt.NDArray[np.float64], b: npt.NDArray[np.float64], inward: npt.NDArray[np.float64],
                  threshold: float) -> float:
    """The share of side a→b that is the blob's edge (outside is not card) or a seam: a step in brightness
    across the side (the gradient along the side's normal), as between two touching cards."""
    h, w = mask.shape
    supported = 0
    samples = np.linspace(0.08, 0.92, 28)
    for t in samples:
        p = a + (b - a) * t
        outside = p - inward * 4
        ox, oy = round(float(outside[0])), round(float(outside[1]))
        if not (0 <= ox < w and 0 <= oy < h) or mask[oy, ox] == 0:
            supported += 1
            continue
        best = 0.0
        for k in (-2, -1, 0, 1, 2):
            q = p + inward * k
            qx, qy = round(float(q[0])), round(float(q[1]))
            if 0 <= qx < w and 0 <= qy < h:
                across = abs(float(gx[qy, qx]) * inward[0] + float(gy[qy, qx]) * inward[1])
                along = abs(float(gx[qy, qx]) * inward[1] - float(gy[qy, qx]) * inward[0])
                if across >= 1.5 * along:
                    best = max(best, across)
        supported += best >= threshold
    return supported / len(samples)


def _snap_sides(quad: Quad, gx: npt.NDArray[np.float32], gy: npt.NDArray[np.float32], reach: int) -> Quad:
    """Move each side of a fitted card along its normal (up to ``reach`` px) to where the step in brightness
    across it is strongest: the seam between two cards, or the card's edge."""
    h, w = gx.shape
    pts = quad.astype(np.float64)
    centre = pts.mean(axis=0)
    lines = []
    for k in range(4):
        a, b = pts[k], pts[(k + 1) % 4]
        u = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
        n = np.array([-u[1], u[0]])
        if float((centre - a) @ n) < 0:
            n = -n  # inward
        samples = a + np.outer(np.linspace(0.15, 0.85, 24), b - a)
        best, best_d = -1.0, 0
        for d in range(-reach, reach + 1):
            q = np.round(samples + n * d).astype(int)
            ok = (q[:, 0] >= 0) & (q[:, 0] < w) & (q[:, 1] >= 0) & (q[:, 1] < h)
            if not ok.all():
                continue
            across = np.abs(gx[q[:, 1], q[:, 0]] * n[0] + gy[q[:, 1], q[:, 0]] * n[1])
            score = float(np.median(across))
            if score > best:
                best, best_d = score, d
        lines.append((a + n * best_d, u))
    out = []
    for k in range(4):
        (p1, d1), (p2, d2) = lines[k - 1], lines[k]
        m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]])
        if abs(np.linalg.det(m)) < 1e-6:
            return quad
        t = np.linalg.solve(m, p2 - p1)
        out.append(p1 + d1 * t[0])
    return np.asarray(out, np.float32)


def _fit_at_corners(contour: npt.NDArray[np.int32], remaining: Image, gx: npt.NDArray[np.float32],
                    gy: npt.NDArray[np.float32], width: float, settings: ExtractSettings) -> Quad | None:
    """The best card-sized rectangle anchored at one of the blob's right-angled corners, or None."""
    poly = cv2.approxPolyDP(contour, max(2.0, 0.04 * width), True).reshape(-1, 2).astype(np.float64)
    n = len(poly)
    magnitude = np.abs(gx[remaining > 0]) + np.abs(gy[remaining > 0])
    threshold = max(12.0, float(np.percentile(magnitude, 60)) if magnitude.size else 12.0)
    best: tuple[float, Quad] | None = None
    height = width * CARD_ASPECT
    for i in range(n):
        p, prev, nxt = poly[i], poly[i - 1], poly[(i + 1) % n]
        u, v = nxt - p, prev - p
        lu, lv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
        if lu < 0.3 * width or lv < 0.3 * width:
            continue
        u, v = u / lu, v / lv
        if abs(float(u @ v)) > 0.26:  # not a right angle (within about 15°)
            continue
        if u[0] * v[1] - u[1] * v[0] == 0:
            continue
        for scale in (0.9, 0.95, 1.0, 1.05, 1.1):
            for du, dv in ((width, height), (height, width)):
                du, dv = du * scale, dv * scale
                rect = np.array([p, p + u * du, p + u * du + v * dv, p + v * dv])
                poly_mask = np.zeros_like(remaining)
                cv2.fillConvexPoly(poly_mask, np.round(rect).astype(np.int32), 255)
                area = int((poly_mask > 0).sum())
                if area == 0:
                    continue
                inside = int(((poly_mask > 0) & (remaining > 0)).sum()) / area
                if inside < settings.inside_share:
                    continue
                centre = rect.mean(axis=0)
                supports = []
                for k in range(4):
                    a, b = rect[k], rect[(k + 1) % 4]
                    mid = (a + b) / 2
                    inward = centre - mid
                    inward /= max(float(np.linalg.norm(inward)), 1e-6)
                    supports.append(_side_support(remaining, gx, gy, a, b, inward, threshold))
                score = min(supports) + 0.25 * inside
                if min(supports) >= settings.seam_support and (best is None or score > best[0]):
                    best = (score, order_corners(rect))
    return None if best is None else best[1]


def find_cards(frame: Image, settings: ExtractSettings | None = None) -> Extraction:
    """Every card in a BGR frame of a face-up spread, each warped flat, in reading order (rows, then columns)."""
    settings = settings or ExtractSettings()
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise InputError("a capture frame must be a colour (BGR) 8-bit image, as OpenCV reads it")
    mask = card_mask(frame)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_area = settings.min_card_width**2 * CARD_ASPECT * 0.5
    contours = [c for c in contours if cv2.contourArea(c) >= min_area]

    singles: list[tuple[Quad, bool]] = []
    groups = []
    for contour in contours:
        quad = _single_card_quad(contour, settings)
        if quad is not None:
            singles.append((quad, False))
        else:
            groups.append(contour)
    widths = [float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2 for q, _ in singles]
    width = settings.card_width or (float(np.median(widths)) if widths else 0.0)
    if width and singles and settings.card_width is None:
        # A blob far bigger than the lone cards is several cards squared into a rectangle: split it below.
        area = width * width * CARD_ASPECT
        keep = []
        for quad, flag in singles:
            if cv2.contourArea(quad) > 1.6 * area:
                groups.append(np.round(quad).astype(np.int32).reshape(-1, 1, 2))
            else:
                keep.append((quad, flag))
        singles = keep

    unresolved: list[tuple[float, float, float, float]] = []
    edge: list[tuple[float, float, float, float]] = []
    if groups and not width:
        raise InputError("every card of this spread touches another, so the card size is unknown: lay one card "
                         "apart from the others, or give the card width in pixels (--card-width)")
    if groups:
        gray = cv2.cvtColor(cv2.GaussianBlur(frame, (3, 3), 0), cv2.COLOR_BGR2GRAY).astype(np.float32)
        gx, gy = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
        card_area = width * width * CARD_ASPECT
        for contour in groups:
            remaining = np.zeros_like(mask)
            cv2.drawContours(remaining, [contour], -1, 255, thickness=-1)
            for _ in range(64):
                parts, _ = cv2.findContours(remaining, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
                parts = [c for c in parts if cv2.contourArea(c) >= 0.5 * card_area]
                if not parts:
                    break
                part = max(parts, key=cv2.contourArea)
                quad = _single_card_quad(part, settings) if cv2.contourArea(part) < 1.4 * card_area else None
                if quad is None:
                    quad = _fit_at_corners(part, remaining, gx, gy, width, settings)
                    if quad is not None:  # each side onto its seam or edge
                        quad = order_corners(_snap_sides(quad, gx, gy, max(3, round(0.08 * width))))
                if quad is None:
                    x, y, w, h = cv2.boundingRect(part)
                    unresolved.append((float(x), float(y), float(x + w), float(y + h)))
                    cv2.drawContours(remaining, [part], -1, 0, thickness=-1)
                    continue
                singles.append((quad, True))
                cut = np.zeros_like(remaining)
                cv2.fillConvexPoly(cut, np.round(quad).astype(np.int32), 255)
                cut = cv2.dilate(cut, np.ones((3, 3), np.uint8))
                remaining[cut > 0] = 0
                remaining = cv2.morphologyEx(remaining, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))

    found = []
    h, w = frame.shape[:2]
    for quad, split in singles:
        if (quad < 2).any() or (quad[:, 0] > w - 3).any() or (quad[:, 1] > h - 3).any():
            x1, y1 = quad.min(axis=0)
            x2, y2 = quad.max(axis=0)
            edge.append((float(x1), float(y1), float(x2), float(y2)))
            continue
        face = warp_face(frame, quad)
        found.append(FoundCard(quad, face, cv2.rotate(face, cv2.ROTATE_180), split))
    row = max(width, 1.0) * CARD_ASPECT
    found.sort(key=lambda c: (round(c.centre[1] / row), c.centre[0]))
    return Extraction(found, unresolved, width, edge)
