"""Table calibration: ArUco markers at the table's corners give a homography from frame pixels to table millimetres.

Table coordinates: millimetres from the table's top-left corner as the layout file draws it, x to the right, y
down (away from the house side). Each marker is printed square to the sheet and laid with the sheet's top edge
toward the table's top edge; when all markers are seen, a marker laid turned by a quarter is still matched right.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import InputError
from engine.untrusted import parse_json

FloatArray = npt.NDArray[np.float64]
CALIBRATION_FORMAT = 1

ARUCO_DICTIONARIES = {
    name: getattr(cv2.aruco, name) for name in dir(cv2.aruco) if name.startswith("DICT_") and name.upper() == name
}


class CalibrationError(InputError):
    """Markers missing or inconsistent, or a calibration file that cannot be used."""


@dataclass(frozen=True, slots=True)
class MarkerSpec:
    """The ArUco markers of a table: their dictionary, printed side, and where each marker's centre lies (mm)."""

    dictionary: str
    size_mm: float
    centres_mm: Mapping[int, tuple[float, float]]

    def __post_init__(self) -> None:
        if self.dictionary not in ARUCO_DICTIONARIES:
            raise CalibrationError(
                f"unknown ArUco dictionary {self.dictionary!r}: use one of OpenCV's, e.g. DICT_4X4_50"
            )
        if not (self.size_mm > 0 and math.isfinite(self.size_mm)):
            raise CalibrationError(f"marker size must be a positive number of millimetres, got {self.size_mm}")
        if len(self.centres_mm) < 1:
            raise CalibrationError("the table needs at least one marker (four, one at each corner, is the norm)")
        limit = self.aruco_dictionary().bytesList.shape[0]
        for marker_id in self.centres_mm:
            if not 0 <= marker_id < limit:
                raise CalibrationError(f"marker id {marker_id} is not in {self.dictionary} (ids 0..{limit - 1})")

    def aruco_dictionary(self) -> Any:
        return cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARIES[self.dictionary])

    def corners_mm(self, marker_id: int) -> FloatArray:
        """The marker's four corners in table mm, in ArUco's order (top-left, top-right, bottom-right, bottom-left)."""
        cx, cy = self.centres_mm[marker_id]
        h = self.size_mm / 2.0
        return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]], dtype=np.float64)


def find_markers(image: npt.NDArray[np.uint8], spec: MarkerSpec) -> dict[int, FloatArray]:
    """The markers of ``spec`` seen in a BGR or grey image: id → 4×2 corner pixels (ArUco order)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(spec.aruco_dictionary(), parameters)
    corners, ids, _rejected = detector.detectMarkers(grey)
    found: dict[int, FloatArray] = {}
    if ids is None:
        return found
    for marker_corners, marker_id in zip(corners, ids.ravel(), strict=True):
        key = int(marker_id)
        if key in spec.centres_mm and key not in found:
            found[key] = np.asarray(marker_corners, dtype=np.float64).reshape(4, 2)
    return found


@dataclass(frozen=True)
class Calibration:
    """A homography from frame pixels to table millimetres, for frames of one size."""

    homography: FloatArray  # 3×3, pixels → mm
    image_size: tuple[int, int]  # (width, height) of the frames it was made from
    markers_found: tuple[int, ...]
    error_mm: float  # mean distance between where the markers' corners are and where the homography puts them

    def __post_init__(self) -> None:
        h = np.asarray(self.homography, dtype=np.float64)
        if h.shape != (3, 3) or not np.all(np.isfinite(h)) or abs(np.linalg.det(h)) < 1e-12:
            raise CalibrationError("the calibration's homography is not an invertible 3×3 matrix: calibrate again")
        object.__setattr__(self, "homography", h)
        object.__setattr__(self, "_inverse", np.linalg.inv(h))

    @property
    def inverse(self) -> FloatArray:
        """The homography from table millimetres to frame pixels."""
        inverse: FloatArray = object.__getattribute__(self, "_inverse")
        return inverse

    def to_table(self, points_px: Sequence[Sequence[float]] | FloatArray) -> FloatArray:
        """Frame pixels (N×2) → table millimetres (N×2)."""
        return _apply(self.homography, points_px)

    def to_pixels(self, points_mm: Sequence[Sequence[float]] | FloatArray) -> FloatArray:
        """Table millimetres (N×2) → frame pixels (N×2)."""
        return _apply(self.inverse, points_mm)

    def check_frame(self, width: int, height: int) -> None:
        """Raise ``CalibrationError`` when frames of this size cannot use this calibration."""
        if (width, height) != self.image_size:
            w, h = self.image_size
            raise CalibrationError(
                f"the calibration was made on {w}×{h} frames but the camera gives {width}×{height}: "
                "set the camera back to that size or run `dealer-assist vision calibrate` again"
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": CALIBRATION_FORMAT,
            "image_size": list(self.image_size),
            "homography_px_to_mm": [[float(v) for v in row] for row in self.homography],
            "markers_found": list(self.markers_found),
            "error_mm": round(float(self.error_mm), 3),
        }

    @classmethod
    def from_json(cls, data: Any, *, source: str = "calibration") -> Calibration:
        if not isinstance(data, dict):
            raise CalibrationError(f"{source}: not a calibration (expected a JSON object)")
        if data.get("format") != CALIBRATION_FORMAT:
            raise CalibrationError(
                f"{source}: unknown calibration format {data.get('format')!r} (this kiosk reads format "
                f"{CALIBRATION_FORMAT}): run `dealer-assist vision calibrate` again"
            )
        try:
            width, height = (int(v) for v in data["image_size"])
            homography = np.array(data["homography_px_to_mm"], dtype=np.float64)
            markers = tuple(int(v) for v in data.get("markers_found", ()))
            error = float(data.get("error_mm", 0.0))
        except (KeyError, TypeError, ValueError) as error_:
            raise CalibrationError(
                f"{source}: missing or malformed field ({error_}): run `dealer-assist vision calibrate` again"
            ) from None
        if width <= 0 or height <= 0:
            raise CalibrationError(f"{source}: image size {width}×{height} is not a frame size")
        try:
            return cls(homography, (width, height), markers, error)
        except CalibrationError as error_:
            raise CalibrationError(f"{source}: {error_}") from None

    def save(self, path: str | Path) -> None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(target.name + ".tmp")
        temporary.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        temporary.replace(target)  # never leave a half-written calibration behind

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        source = Path(path)
        try:
            text = source.read_bytes()
        except FileNotFoundError:
            raise CalibrationError(
                f"no calibration at {source}: run `dealer-assist vision calibrate` with the table in view"
            ) from None
        try:
            data = parse_json(text, str(source))
        except InputError as error:
            raise CalibrationError(f"{error}, or run `dealer-assist vision calibrate` again") from None
        return cls.from_json(data, source=str(source))


def _apply(matrix: npt.NDArray[Any], points: Sequence[Sequence[float]] | FloatArray) -> FloatArray:
    array = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    if array.size == 0:
        return np.zeros((0, 2), dtype=np.float64)
    result = np.asarray(cv2.perspectiveTransform(array, matrix), dtype=np.float64).reshape(-1, 2)
    return result


def _describe_ids(ids: Sequence[int]) -> str:
    ids = sorted(ids)
    if len(ids) == 1:
        return f"marker {ids[0]}"
    return "markers " + ", ".join(str(i) for i in ids[:-1]) + f" and {ids[-1]}"


def calibrate(
    image: npt.NDArray[np.uint8],
    spec: MarkerSpec,
    *,
    min_markers: int = 4,
    max_error_mm: float = 10.0,
) -> Calibration:
    """Find the table's markers in one frame and fit the pixel → mm homography.

    Raises ``CalibrationError`` naming the missing markers, or saying that the markers disagree (one moved, the
    sheet printed at the wrong scale, a wrong layout file).
    """
    if image.ndim not in (2, 3) or image.shape[0] < 8 or image.shape[1] < 8:
        raise CalibrationError("the calibration frame is not an image")
    found = find_markers(image, spec)
    needed = min(min_markers, len(spec.centres_mm))
    missing = sorted(set(spec.centres_mm) - set(found))
    if len(found) < needed:
        seen = f"only {_describe_ids(list(found))} seen" if found else f"no {spec.dictionary} marker seen"
        raise CalibrationError(
            f"{_describe_ids(missing)} not found ({seen}, {needed} needed): make sure every table corner is in "
            "the camera's view, uncovered, flat and lit without glare, then calibrate again"
        )
    ids = sorted(found)
    pixel_corners = [_oriented(found[i], spec.corners_mm(i), found, spec) for i in ids]
    src = np.concatenate(pixel_corners)
    dst = np.concatenate([spec.corners_mm(i) for i in ids])
    homography, _mask = cv2.findHomography(src, dst, 0)
    if homography is None:
        raise CalibrationError("the markers' corners do not define a table plane: calibrate again")
    fitted = _apply(homography, src)
    distances = np.linalg.norm(fitted - dst, axis=1)
    error = float(distances.mean())
    if error > max_error_mm:
        per_marker = distances.reshape(-1, 4).mean(axis=1)
        worst = ids[int(np.argmax(per_marker))]
        raise CalibrationError(
            f"the markers do not agree with the layout (mean error {error:.1f} mm, worst marker {worst}): check "
            "that no marker moved, that the sheet was printed at 100 % scale and that the layout file is this table's"
        )
    return Calibration(
        np.asarray(homography, dtype=np.float64), (int(image.shape[1]), int(image.shape[0])), tuple(ids), error
    )


def _oriented(
    pixel_corners: FloatArray, expected_mm: FloatArray, found: Mapping[int, FloatArray], spec: MarkerSpec
) -> FloatArray:
    """The marker's pixel corners, turned to match the table if the marker was laid rotated.

    With four or more markers their centres alone fix a homography that does not depend on how each marker is
    turned; each marker's corners are then rolled to the order that agrees with it best.
    """
    if len(found) < 4:
        return pixel_corners
    ids = sorted(found)
    centres_px = np.array([found[i].mean(axis=0) for i in ids], dtype=np.float64)
    centres_mm = np.array([spec.centres_mm[i] for i in ids], dtype=np.float64)
    rough, _mask = cv2.findHomography(centres_px, centres_mm, 0)
    if rough is None:
        return pixel_corners
    best = min(range(4), key=lambda k: float(np.linalg.norm(_apply(rough, np.roll(pixel_corners, k, 0)) - expected_mm)))
    return np.roll(pixel_corners, best, axis=0)


def marker_image(spec: MarkerSpec, marker_id: int, pixels: int) -> npt.NDArray[np.uint8]:
    """One marker as a square grey image (black on white, no quiet zone)."""
    image = np.asarray(cv2.aruco.generateImageMarker(spec.aruco_dictionary(), marker_id, pixels), dtype=np.uint8)
    return image


def marker_sheet(spec: MarkerSpec, path: str | Path, *, dpi: int = 300) -> list[Path]:
    """Write printable A4 pages with every marker at its true size, labelled with its id and where it goes.

    PNG or PDF by the file's suffix; one page per four markers (``sheet.pdf``, or ``sheet-2.png`` … for PNG).
    """
    from PIL import Image, ImageDraw, ImageFont

    target = Path(path)
    if target.suffix.lower() not in (".pdf", ".png"):
        raise CalibrationError(f"{target}: the marker sheet is written as .pdf or .png")
    px_per_mm = dpi / 25.4
    page_w, page_h = round(210 * px_per_mm), round(297 * px_per_mm)
    side = round(spec.size_mm * px_per_mm)
    if spec.size_mm > 90:
        raise CalibrationError(f"markers of {spec.size_mm:g} mm do not fit four to an A4 page: use 90 mm or less")
    try:
        font: Any = ImageFont.truetype("DejaVuSans.ttf", max(12, round(3.5 * px_per_mm)))
    except OSError:
        font = ImageFont.load_default()
    ids = sorted(spec.centres_mm)
    pages: list[Image.Image] = []
    for start in range(0, len(ids), 4):
        page = Image.new("L", (page_w, page_h), 255)
        draw = ImageDraw.Draw(page)
        for slot, marker_id in enumerate(ids[start : start + 4]):
            cx = page_w * (0.25 + 0.5 * (slot % 2))
            cy = page_h * (0.25 + 0.5 * (slot // 2))
            x0, y0 = round(cx - side / 2), round(cy - side / 2)
            page.paste(Image.fromarray(marker_image(spec, marker_id, side)), (x0, y0))
            cut = round(10 * px_per_mm)  # a white quiet zone of 10 mm inside the cut line
            draw.rectangle((x0 - cut, y0 - cut, x0 + side + cut, y0 + side + cut), outline=160, width=2)
            mx, my = spec.centres_mm[marker_id]
            label = f"marker {marker_id}: {spec.size_mm:g} mm, {spec.dictionary}\ncentre at x={mx:g}, y={my:g} mm"
            draw.multiline_text((x0 - cut, y0 + side + cut + 8), label, fill=0, font=font, spacing=6)
            draw.text(
                (x0 - cut, y0 - cut - round(7 * px_per_mm)), "↑ this edge toward the house side", fill=0, font=font
            )
        pages.append(page)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.suffix.lower() == ".pdf":
        pages[0].save(target, save_all=True, append_images=pages[1:], resolution=dpi)
        return [target]
    written = []
    for number, page in enumerate(pages, start=1):
        page_path = target if number == 1 else target.with_name(f"{target.stem}-{number}{target.suffix}")
        page.save(page_path, dpi=(dpi, dpi))
        written.append(page_path)
    return written
