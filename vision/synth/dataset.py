"""Writing synthetic scenes as Ultralytics datasets: 53-class YOLO labels, a 1-class detector view, crops."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.reader_classes import CLASS_INDEX
from vision.reader_crops import square_crop
from vision.synth.faces import require_built_in_decks
from vision.synth.scene import FRAME_SIZE, Scene, render_scene

SCENES_FILE = "scenes.jsonl"


def yolo_label_lines(scene: Scene, class_of: dict | None = None) -> list[str]:
    """One ``class cx cy w h`` line per labelled card; the box is the whole card, clipped to the frame."""
    h, w = scene.image.shape[:2]
    lines = []
    for placed in scene.labelled_cards:
        x1, y1, x2, y2 = placed.box_in_frame((w, h))
        if x2 - x1 < 2 or y2 - y1 < 2:
            continue
        cls = 0 if class_of == {} else CLASS_INDEX[placed.card]
        lines.append(f"{cls} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
    return lines


def write_scenes(out: Path, seeds: Iterable[int], size: tuple[int, int] = FRAME_SIZE,
                 decks: list[str] | None = None) -> Path:
    """Render the scenes of ``seeds`` into ``out/images``, ``out/labels`` (53 classes) and ``out/scenes.jsonl``
    (every card's corners and visible share). Scenes already written are kept (so an interrupted run resumes).
    Without ``decks``, every built-in deck must be installed (``require_built_in_decks``)."""
    if decks is None:
        require_built_in_decks()
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    records_path = out / SCENES_FILE
    done = set()
    if records_path.exists():
        done = {json.loads(line)["seed"] for line in records_path.read_text().splitlines() if line.strip()}
    with records_path.open("a") as records:
        for seed in seeds:
            if seed in done:
                continue
            scene = render_scene(seed, size, decks)
            name = f"scene_{seed:07d}"
            cv2.imwrite(str(out / "images" / f"{name}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            (out / "labels" / f"{name}.txt").write_text("".join(line + "\n" for line in yolo_label_lines(scene)))
            records.write(json.dumps({
                "seed": seed, "image": f"images/{name}.jpg", "deck": scene.deck,
                "cards": [{"card": str(p.card), "corners": np.round(p.corners, 2).tolist(),
                           "visible": round(p.visible, 4), "labelled": p.labelled,
                           "index_shares": [round(v, 4) for v in p.index_shares]} for p in scene.cards],
            }) + "\n")
            records.flush()
    return out


def detector_view(scenes_dir: Path, out: Path) -> Path:
    """The same images with every label turned into class 0 ('card'), for the 1-class detector."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    for image in sorted((scenes_dir / "images").glob("*.jpg")):
        link = out / "images" / image.name
        if not link.exists():
            link.symlink_to(image.resolve())
        rows = (scenes_dir / "labels" / f"{image.stem}.txt").read_text().splitlines()
        (out / "labels" / f"{image.stem}.txt").write_text("".join("0 " + r.split(" ", 1)[1] + "\n" for r in rows if r))
    return out


def write_crops(image: np.ndarray, boxes: Iterable[tuple[str, tuple[float, float, float, float]]], out: Path,
                stem: str, rng: np.random.Generator, copies: int = 1, jitter: float = 0.06) -> int:
    """Classifier crops (``out/<class>/<stem>_<i>.jpg``) of labelled boxes, each box jittered like a detector's."""
    count = 0
    for i, (name, (x1, y1, x2, y2)) in enumerate(boxes):
        (out / name).mkdir(parents=True, exist_ok=True)
        for k in range(copies):
            bw, bh = x2 - x1, y2 - y1
            d = rng.normal(0, jitter, 4) * np.array([bw, bh, bw, bh]) if jitter else np.zeros(4)
            crop = square_crop(image, (x1 + d[0], y1 + d[1], x2 + d[2], y2 + d[3]))
            cv2.imwrite(str(out / name / f"{stem}_{i}_{k}.jpg"), crop, [cv2.IMWRITE_JPEG_QUALITY, 95])
            count += 1
    return count


def _scene_boxes(record: dict, size: tuple[int, int]) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each labelled card of a scene record with its whole-card box, clipped to the frame."""
    w, h = size
    boxes = []
    for card in record["cards"]:
        if card["labelled"]:
            pts = np.array(card["corners"])
            x1, y1 = np.maximum(pts.min(axis=0), 0)
            x2, y2 = np.minimum(pts.max(axis=0), [w, h])
            boxes.append((card["card"], (float(x1), float(y1), float(x2), float(y2))))
    return boxes


def scene_crops(scenes_dir: Path, out: Path, seed: int = 0, copies: int = 1, jitter: float = 0.06) -> int:
    """Classifier crops of every labelled card of the scenes written by ``write_scenes``."""
    rng = np.random.default_rng(seed)
    count = 0
    for line in (scenes_dir / SCENES_FILE).read_text().splitlines():
        record = json.loads(line)
        image = cv2.imread(str(scenes_dir / record["image"]))
        h, w = image.shape[:2]
        count += write_crops(image, _scene_boxes(record, (w, h)), out, Path(record["image"]).stem, rng, copies, jitter)
    return count


def rendered_crops(out: Path, seeds: Iterable[int], done_log: Path, decks: list[str] | None = None,
                   size: tuple[int, int] = FRAME_SIZE, jitter: float = 0.06, prefix: str = "rendered") -> int:
    """Classifier crops of every labelled card of freshly rendered scenes, without keeping the frames (a crop set
    many times larger than the saved scenes costs only the rendering). Resumable: a scene whose crops were written
    is listed in ``done_log`` and not rendered again."""
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for scene in scenes_not_done(seeds, done_log, size, decks):
        h, w = scene.image.shape[:2]
        boxes = [(str(p.card), p.box_in_frame((w, h))) for p in scene.labelled_cards]
        rng = np.random.default_rng(scene.seed)
        count += write_crops(scene.image, boxes, out, f"{prefix}_{scene.seed:07d}", rng, 1, jitter)
    return count


def scenes_not_done(seeds: Iterable[int], done_log: Path, size: tuple[int, int] = FRAME_SIZE,
                    decks: list[str] | None = None) -> Iterator[Scene]:
    """The scenes of ``seeds`` not listed in ``done_log``, rendered one by one; each is listed there once the caller
    asks for the next one (or finishes), so a run stopped half-way redoes only the scene it was on. Without
    ``decks``, every built-in deck must be installed (``require_built_in_decks``)."""
    if decks is None:
        require_built_in_decks()
    done_log.parent.mkdir(parents=True, exist_ok=True)
    done = {int(line) for line in done_log.read_text().split()} if done_log.exists() else set()
    with done_log.open("a") as record:
        for seed in seeds:
            if seed in done:
                continue
            yield render_scene(seed, size, decks)
            record.write(f"{seed}\n")
            record.flush()


def detector_tiles(scenes_dir: Path, out: Path, tile: int = 640, per_scene: int = 2, seed: int = 0,
                   keep_share: float = 0.3, oriented: bool = False) -> Path:
    """Square tiles of the scenes, labelled as one class ('card'), for the 1-class detector; with ``oriented``, each
    card's label is its outline as an oriented box (``oriented_label``), for the outline model.

    The reader shrinks a 1280 x 720 frame by half; the detector trains at 320 px, where a whole 1280 px scene would
    be shrunk four times. A 640 px tile trained at 320 px shows the cards at the size the reader will see them.
    A card keeps its (clipped) box in a tile when at least ``keep_share`` of its box lies inside. A tile is named
    after its scene and where it was cut (``scene_0000007_x320_y40``)."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for line in (scenes_dir / SCENES_FILE).read_text().splitlines():
        record = json.loads(line)
        offsets = tile_offsets(rng, tile, per_scene)
        stem = Path(record["image"]).stem
        if all((out / "labels" / f"{stem}_x{ox}_y{oy}.txt").exists() for ox, oy in offsets):
            continue
        image = cv2.imread(str(scenes_dir / record["image"]))
        h, w = image.shape[:2]
        boxes = [box for _, box in _scene_boxes(record, (w, h))]
        outlines = [np.array(card["corners"], np.float64) for card in record["cards"] if card["labelled"]]
        write_scene_tiles(image, boxes, outlines, out, stem, offsets, tile, keep_share, oriented)
    return out


def tile_offsets(rng: np.random.Generator, tile: int = 640, per_scene: int = 2) -> list[tuple[int, int]]:
    """Where ``per_scene`` square tiles are cut from a frame, drawn at random."""
    return [(int(rng.integers(0, max(FRAME_SIZE[0] - tile, 0) + 1)),
             int(rng.integers(0, max(FRAME_SIZE[1] - tile, 0) + 1))) for _ in range(per_scene)]


def write_scene_tiles(image: npt.NDArray[np.uint8], boxes: list[tuple[float, float, float, float]],
                      outlines: list[npt.NDArray[np.float64]], out: Path, stem: str,
                      offsets: list[tuple[int, int]], tile: int = 640, keep_share: float = 0.3,
                      oriented: bool = False) -> int:
    """One scene's tiles (``out/images/<stem>_x<ox>_y<oy>.jpg`` and their labels), as ``detector_tiles`` cuts them:
    ``boxes`` are the labelled cards' whole-card boxes, ``outlines`` their corners, in the same order."""
    for ox, oy in offsets:
        name = f"{stem}_x{ox}_y{oy}"  # where the tile was cut
        piece = image[oy : oy + tile, ox : ox + tile]
        th, tw = piece.shape[:2]
        lines = []
        for (x1, y1, x2, y2), outline in zip(boxes, outlines, strict=True):
            cx1, cy1 = max(x1 - ox, 0.0), max(y1 - oy, 0.0)
            cx2, cy2 = min(x2 - ox, float(tw)), min(y2 - oy, float(th))
            if cx2 - cx1 < 2 or cy2 - cy1 < 2:
                continue
            if (cx2 - cx1) * (cy2 - cy1) < keep_share * (x2 - x1) * (y2 - y1):
                continue
            if oriented:
                label = oriented_label(outline - np.array([ox, oy]), (tw, th))
                if label is not None:
                    lines.append(label)
                continue
            lines.append(f"0 {(cx1 + cx2) / 2 / tw:.6f} {(cy1 + cy2) / 2 / th:.6f} "
                         f"{(cx2 - cx1) / tw:.6f} {(cy2 - cy1) / th:.6f}")
        cv2.imwrite(str(out / "images" / f"{name}.jpg"), piece, [cv2.IMWRITE_JPEG_QUALITY, 92])
        (out / "labels" / f"{name}.txt").write_text("".join(x + "\n" for x in lines))
    return len(offsets)


def oriented_label(outline: npt.NDArray[np.float64], size: tuple[int, int]) -> str | None:
    """A card's outline (4 corners, pixels of a ``size`` picture) as an Ultralytics oriented-box label line
    (``0 x1 y1 … x4 y4``, normalised): a rectangle turned as the card is, the card itself where it lies inside the
    picture; for a card the picture's edge cuts, the largest such rectangle inside the part that shows."""
    w, h = size
    frame = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    area, inside = cv2.intersectConvexConvex(np.asarray(outline, np.float32), frame)
    if inside is None or area < 4:
        return None
    (_, _), (_, _), degrees = cv2.minAreaRect(np.asarray(outline, np.float32))
    turn = np.deg2rad(degrees)
    axes = np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]])  # rows: the card's two axes
    local = inside.reshape(-1, 2).astype(np.float64) @ axes.T
    u1, v1, u2, v2 = _largest_aligned_rectangle(local)
    corners = np.array([[u1, v1], [u2, v1], [u2, v2], [u1, v2]]) @ axes
    corners = np.clip(corners / np.array([w, h]), 0.0, 1.0)
    return "0 " + " ".join(f"{v:.6f}" for v in corners.reshape(-1))


def _largest_aligned_rectangle(polygon: npt.NDArray[np.float64], steps: int = 24) -> tuple[float, float, float, float]:
    """The biggest rectangle with sides along the axes inside a convex polygon (u, v points), to a grid of
    ``steps`` along u: the whole card where it lies inside the picture, its part inside where the edge cuts it (a
    rectangle around that part would stick out of the picture, and clipping its corners would turn it)."""
    # Half a pixel in from either end: where the polygon's end is an edge turned by a rounding error, the span
    # exactly at its end is a single point.
    us = np.linspace(polygon[:, 0].min() + 0.5, polygon[:, 0].max() - 0.5, steps + 1)
    spans = [_vertical_span(polygon, u) for u in us]
    best, best_area = (us[0], spans[0][0], us[-1], spans[0][1]), -1.0
    for i in range(len(us)):
        for j in range(i + 1, len(us)):
            low, high = max(spans[i][0], spans[j][0]), min(spans[i][1], spans[j][1])
            area = (us[j] - us[i]) * (high - low)
            if high > low and area > best_area:
                best, best_area = (us[i], low, us[j], high), area
    return tuple(float(v) for v in best)  # type: ignore[return-value]


def _vertical_span(polygon: npt.NDArray[np.float64], u: float) -> tuple[float, float]:
    """Where the line at ``u`` crosses a convex polygon: its lowest and highest v (its nearest vertex's v when it
    misses by rounding)."""
    crossings = []
    for (ua, va), (ub, vb) in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
        if min(ua, ub) - 1e-6 <= u <= max(ua, ub) + 1e-6:
            crossings.append(va if abs(ub - ua) < 1e-9 else va + (vb - va) * (u - ua) / (ub - ua))
            if abs(ub - ua) < 1e-9:
                crossings.append(vb)
    if not crossings:
        nearest = polygon[np.argmin(np.abs(polygon[:, 0] - u))]
        return float(nearest[1]), float(nearest[1])
    return float(min(crossings)), float(max(crossings))


def proposal_crops(out: Path, seeds: Iterable[int], done_log: Path, reader_dir: Path | None = None,
                   hard_visible: float = 0.75, hard_copies: int = 2, jitter: float = 0.03,
                   prefix: str = "proposal") -> int:
    """Classifier crops cut around the shipped detector's own boxes on freshly rendered scenes, each named after the
    labelled card it overlaps (IoU >= 0.5): the crops the classifier is given when it reads, partly covered cards
    boxed the way the detector boxes them. A card showing less than ``hard_visible`` of its face (fans, a hand or a
    chip over it) is written ``hard_copies`` more times with a little jitter: these are the cards still misread.
    Resumable like ``rendered_crops``."""
    from vision.detection import iou
    from vision.reader import CardReader
    from vision.reader_models import DEFAULT_MODEL_DIR

    reader = CardReader(reader_dir or DEFAULT_MODEL_DIR, threads=1)
    count = 0
    for scene in scenes_not_done(seeds, done_log):
        boxes, _ = reader.detect(scene.image)
        rng = np.random.default_rng(scene.seed)
        matched = []  # (card, detector box, share of its face showing)
        for box in (tuple(float(v) for v in b) for b in boxes):
            best = max(scene.labelled_cards, key=lambda p: iou(box, p.box), default=None)
            if best is not None and iou(box, best.box) >= 0.5:
                matched.append((str(best.card), box, best.visible))
        stem = f"{prefix}_{scene.seed:07d}"
        count += write_crops(scene.image, [(n, b) for n, b, _ in matched], out, stem, rng, 1, 0.0)
        hard = [(n, b) for n, b, visible in matched if visible < hard_visible]
        count += write_crops(scene.image, hard, out, f"{stem}_hard", rng, hard_copies, jitter)
    return count
