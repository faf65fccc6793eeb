"""Enrollment from real photos (issue 53 goal 2): how many of a real deck's cards capture finds.

    .venv/bin/python bench/vision_enroll_real.py [--models DIR] [--json FILE]
    .venv/bin/python bench/vision_enroll_real.py --learn [--data DIR]     # about 15 min more on 2 cores

The photos are `../shared/data/real-unseen-phone/test/images` (a deck no model here trained on, 640 x 640 phone photos
squashed to a square), sorted by file name: the **first half** is captured the way `dealer-assist vision enroll
capture` captures (``vision.enroll.capture.capture_photos``: the reader's detector and outline model, the photos
unsquashed as `vision read` reads them); the second half is only ever read, never captured.

Truth comes from the labels (`test/labels`, YOLO index-corner boxes): a card's index shows in a photo when the photo
has a label of it. A captured face is of card X when one of X's index boxes lies inside the face's outline, near one
of its corners (an index sits in its card's corner). Printed:

- **cards found**: of the distinct cards whose index shows in the first half, how many capture found in at least one
  photo (the aim: at least 90 %), by a whole view or by a partial one (a card cut by the picture's edge: what shows
  of it is kept as an example, never as its face); how many by a whole view; and per photo (a card in a photo found
  there);
- faces of no labelled card (a card whose index shows nowhere, a card's back, something else), photos skipped and
  why, cards pointed out (cut by the picture's edge, mostly covered, corners unsure), and how many of the found
  faces the model proposed right.

With ``--learn`` the captured faces are confirmed by the labels (a face of no labelled card is dropped, as a person
would), the partial deck is saved as a profile under ``--data`` (a fresh folder by default, never the kiosk's), the
product's own learning job runs on it (``vision.enroll.learn.LearnJob``, the kiosk's settings), and the second half
is read and scored by `bench/vision_real.py`'s scoring, with the base model and with the learnt one. The learnt model
stays in that folder, never in `models/`. (The photos are otherwise never trained on; this flag is the one place
where the first half is learnt, as a casino would enroll its own deck.)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.vision_real import UNSEEN_PHONE, SetScore, canonical_unseen  # noqa: E402

AIM = 0.90
CORNER_REACH = 0.45  # an index box's centre lies within this many card widths of one of its card's corners


@dataclass(frozen=True)
class IndexBox:
    card: str
    box: tuple[float, float, float, float]  # photo pixels

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)


def _names(root: Path) -> list[str]:
    import ast

    for line in (root / "data.yaml").read_text().splitlines():
        if line.startswith("names:"):
            return [str(n) for n in ast.literal_eval(line.split(":", 1)[1].strip())]
    raise SystemExit(f"{root / 'data.yaml'} has no one-line 'names:' list")


def photo_halves(root: Path = UNSEEN_PHONE) -> tuple[list[Path], list[Path]]:
    photos = sorted((root / "test" / "images").glob("*.jpg"))
    half = len(photos) // 2
    return photos[:half], photos[half:]


def index_boxes(photo: Path, size: tuple[int, int], root: Path = UNSEEN_PHONE) -> list[IndexBox]:
    """The photo's labelled index corners (cards only: no backs), in its pixels (``size``: width, height)."""
    names = _names(root)
    label = root / "test" / "labels" / (photo.stem + ".txt")
    out = []
    w, h = size
    for row in (label.read_text().splitlines() if label.exists() else []):
        parts = row.split()
        if len(parts) < 5:
            continue
        card = canonical_unseen(names[int(parts[0])])
        if card is None:
            continue
        cx, cy, bw, bh = (float(v) for v in parts[1:5])
        out.append(IndexBox(card, ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)))
    return out


def card_of_face(corners: Any, boxes: list[IndexBox]) -> str | None:
    """The labelled card whose index lies inside the face's outline near one of its corners (the nearest such)."""
    import cv2
    import numpy as np

    quad = np.asarray(corners, np.float32).reshape(4, 2)
    width = min(float(np.linalg.norm(quad[1] - quad[0])), float(np.linalg.norm(quad[2] - quad[1])))
    best: tuple[float, str] | None = None
    for index in boxes:
        centre = index.centre
        if cv2.pointPolygonTest(quad.reshape(-1, 1, 2), centre, False) < 0:
            continue
        reach = float(np.min(np.linalg.norm(quad - np.asarray(centre, np.float32), axis=1)))
        if reach <= CORNER_REACH * width and (best is None or reach < best[0]):
            best = (reach, index.card)
    return None if best is None else best[1]


@dataclass
class CaptureFigures:
    photos: int = 0
    shown: set[str] = field(default_factory=set)  # distinct cards whose index shows
    found: set[str] = field(default_factory=set)  # by any view, a partial one (a card cut by the edge) too
    found_whole: set[str] = field(default_factory=set)  # by a whole view: a face of the card
    shown_in_photos: int = 0  # (photo, card) pairs
    found_in_photos: int = 0
    faces: int = 0
    faces_of_no_card: int = 0
    proposed_right: int = 0
    pointed_out: Counter[str] = field(default_factory=Counter)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    found_by: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    aspect: tuple[float, float] = (1.0, 1.0)

    def lines(self) -> list[str]:
        share = len(self.found) / max(len(self.shown), 1)
        per_photo = self.found_in_photos / max(self.shown_in_photos, 1)
        whole = len(self.found_whole) / max(len(self.shown), 1)
        missed = sorted(self.shown - self.found)
        return [
            f"capture of the first half: {self.photos} photos, {self.seconds:.0f} s "
            f"({self.seconds / max(self.photos, 1):.2f} s a photo); squashed photos read "
            + (f"stretched {self.aspect[0]:.2f} x {self.aspect[1]:.2f}" if self.aspect != (1.0, 1.0)
               else "as they are"),
            f"cards found: {len(self.found)} of the {len(self.shown)} distinct cards whose index shows ({share:.1%}; "
            f"aim {AIM:.0%}: {'met' if share >= AIM else 'not met'}); missed: {' '.join(missed) or 'none'}",
            f"of them with a whole face: {len(self.found_whole)} ({whole:.1%}; the rest only as partial views: cut by "
            "the picture's edge)",
            f"per photo: {self.found_in_photos} of {self.shown_in_photos} cards whose index shows ({per_photo:.1%})",
            f"faces captured: {self.faces} ({', '.join(f'{k} {v}' for k, v in sorted(self.found_by.items()))}); "
            f"of no labelled card: {self.faces_of_no_card}; proposed right: {self.proposed_right} of "
            f"{self.faces - self.faces_of_no_card}",
            f"pointed out: {', '.join(f'{k} {v}' for k, v in sorted(self.pointed_out.items())) or 'none'}; "
            f"photos skipped: {len(self.skipped)}"
            + "".join(f"\n  - {Path(p).name}: {why}" for p, why in self.skipped),
        ]


def capture_first_half(root: Path, models: Path | None, photos: list[Path]) -> tuple[Any, CaptureFigures]:
    """The first half captured into a draft under ``root`` (as the CLI does), scored against the labels."""
    from vision.active_model import active_model
    from vision.enroll.capture import Proposer, capture_photos
    from vision.enroll.find import open_finder
    from vision.enroll.profile import Draft
    from vision.image_files import read_image
    from vision.photo_batch import is_square

    finder, why = open_finder(models or active_model().folder)
    if finder is None:
        raise SystemExit(f"no model to find the cards with: {why}")
    draft = Draft.open("real unseen phone first half", root)
    figures = CaptureFigures(photos=len(photos))
    start = time.perf_counter()
    batch = capture_photos(draft, photos, Proposer(reader=finder.reader), finder=finder)
    figures.seconds = time.perf_counter() - start
    figures.aspect = batch.aspect
    figures.skipped = batch.skipped
    truth_of_face: dict[int, str | None] = {}
    for photo, (_name, result) in zip(photos, batch.results, strict=True):
        frame = read_image(photo)
        h, w = frame.shape[:2]
        boxes = index_boxes(photo, (w, h))
        shown = {b.card for b in boxes}
        figures.shown |= shown
        figures.shown_in_photos += len(shown)
        wide, tall = batch.aspect if is_square(frame) else (1.0, 1.0)
        found_here: set[str] = set()
        for face in result.added:
            corners = [[x / wide, y / tall] for x, y in face.corners]  # back in the photo's own pixels
            card = card_of_face(corners, boxes)
            truth_of_face[face.index] = card
            figures.faces += 1
            figures.found_by[face.found_by or "?"] += 1
            if card is None:
                figures.faces_of_no_card += 1
                continue
            found_here.add(card)
            if face.found_by != "cut":
                figures.found_whole.add(card)
            figures.proposed_right += str(face.proposed) == card
        figures.found |= found_here
        figures.found_in_photos += len(found_here & shown)
        for problem in result.problems:
            kind = ("cut, kept as a partial view" if "partial view" in problem
                    else "cut by the edge" if "edge of the picture" in problem
                    else "mostly covered" if "covered" in problem
                    else "corners unsure" if "corners" in problem else "other")
            figures.pointed_out[kind] += 1
    return (draft, truth_of_face), figures


def score_second_half(models: Path, photos: list[Path], label: str) -> SetScore:
    """The second half read as `vision read` reads it, scored as `bench/vision_real.py` scores a set."""
    from bench.vision_real import unseen_phone_photos
    from vision.image_files import read_image
    from vision.photo_batch import read_photos
    from vision.reader import CardReader

    truth = {p.name: cards for p, cards in unseen_phone_photos()}
    reader = CardReader(models)
    start = time.perf_counter()
    batch = read_photos(reader, range(len(photos)), lambda k: read_image(photos[k]))
    score = SetScore(label)
    score.seconds = time.perf_counter() - start
    for k, detections in batch.readings:
        score.add(truth[photos[k].name], [d.to_json() for d in detections])
    return score


def learn_and_score(root: Path, draft: Any, truth_of_face: dict[int, str | None], base: Path,
                    second: list[Path]) -> list[str]:
    from engine.cards import parse_card
    from vision.enroll.confirm import ConfirmController
    from vision.enroll.learn import LearnJob, LearnSettings, format_status

    controller = ConfirmController(draft)
    for face in list(draft.faces):  # the labels confirm each face, as a person would; faces of no card are dropped
        card = truth_of_face.get(face.index)
        controller.fix(face.index, parse_card(card) if card else None)
    profile = controller.save()
    lines = [f"saved {profile.ref}: {len(profile.cards)} cards, {len(profile.views)} views; missing "
             f"{len(profile.missing)}: {' '.join(str(c) for c in profile.missing)}"]
    print(lines[0])
    sys.stdout.flush()
    job = LearnJob(profile, LearnSettings(), root, base_model=base)
    start = time.perf_counter()
    model = job.run()
    lines.append(f"learnt in {(time.perf_counter() - start) / 60:.1f} min: {model}")
    lines.append(format_status(job.status()).splitlines()[0])
    for folder, label in ((base, "second half, base model"), (model, "second half, enrolled model")):
        lines.append(score_second_half(folder, second, label).line())
        print(lines[-1])
        sys.stdout.flush()
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=None,
                        help="model folder that finds the cards (default: the active one, as capture)")
    parser.add_argument("--learn", action="store_true",
                        help="confirm the faces by the labels, save the partial deck, learn it (about 15 min on 2 "
                             "cores) and score the second half before and after")
    parser.add_argument("--data", type=Path, default=None,
                        help="data folder for the draft, profile and learnt model (default: a fresh temporary one)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    first, second = photo_halves()
    with tempfile.TemporaryDirectory(prefix="enroll-real-") as tmp:
        root = args.data or Path(tmp)
        (draft, truth_of_face), figures = capture_first_half(root, args.models, first)
        lines = figures.lines()
        print("\n".join(lines))
        sys.stdout.flush()
        if args.learn:
            from vision.active_model import active_model

            lines += learn_and_score(root, draft, truth_of_face, args.models or active_model().folder, second)
        if args.json:
            args.json.write_text(json.dumps({
                "photos": figures.photos, "cards_shown": sorted(figures.shown), "cards_found": sorted(figures.found),
                "found_share": len(figures.found) / max(len(figures.shown), 1),
                "shown_in_photos": figures.shown_in_photos, "found_in_photos": figures.found_in_photos,
                "cards_found_whole": sorted(figures.found_whole), "faces": figures.faces,
                "faces_of_no_card": figures.faces_of_no_card,
                "proposed_right": figures.proposed_right, "pointed_out": dict(figures.pointed_out),
                "skipped": figures.skipped, "lines": lines}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
