"""Deck profiles: the faces of one deck design, captured at the table and confirmed by a person, as versioned files.

Layout under the data folder (``./data`` unless ``DEALER_ASSIST_DATA`` names another)::

    decks/<slug>/draft/draft.json          the capture in progress: every face found, its proposal, its identity
    decks/<slug>/draft/faces/0007.png      face 7 as captured (upright; the turned copy is made when saved)
    decks/<slug>/draft/frames/0002.jpg     the frames captured (their crops train the classifier too)
    decks/<slug>/v001/profile.json         a saved profile: never changed once written
    decks/<slug>/v001/faces/AS.png, AS_turned.png      a card's first view (upright, and turned half a turn)
    decks/<slug>/v001/faces/AS_2.png, AS_2_turned.png  its second view, and so on
    decks/<slug>/v001/frames/…

Every confirmed view of a card is kept: more views of a card are more examples to learn from, not a mistake (a card
cut by the picture's edge is a partial view: an example, never the card's face). A
profile need not hold the whole deck: it holds what was captured and confirmed, and says which cards are missing
(those the reader keeps reading as its base model does). A deck is complete with the 52 cards (and the joker when
the deck asks for it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import JOKER, Card, CardError, parse_card, standard_deck
from engine.clock import Clock
from engine.errors import InputError
from vision.active_model import DATA_ENV, data_folder
from vision.clock import SystemClock

__all__ = ["DATA_ENV", "Completeness", "DeckProfile", "Draft", "DraftFace", "ProfileError", "ProfileView",
           "completeness", "data_folder", "decks_folder", "list_profiles", "load_profile", "profile_versions",
           "save_profile", "slug_of"]

Image = npt.NDArray[np.uint8]
DRAFT = "draft"
PROFILE_FILE = "profile.json"
DRAFT_FILE = "draft.json"


class ProfileError(InputError):
    """A deck profile that cannot be read, saved or used (with what to do about it)."""


def decks_folder(root: Path | None = None) -> Path:
    return (root or data_folder()) / "decks"


def slug_of(name: str) -> str:
    """A folder name for a deck name: ``"Copag blue 2026"`` → ``copag-blue-2026``."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.strip().lower()).strip("-")
    if not slug:
        raise ProfileError(f"a deck name needs letters or digits, not {name!r} (e.g. 'Copag blue 2026')")
    return slug


def _write_json(path: Path, data: Any) -> None:
    """Write whole or not at all: a crash leaves the previous file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w") as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError as error:
        raise ProfileError(f"no {what} at {path}") from error
    except (OSError, ValueError, RecursionError) as error:
        raise ProfileError(f"the {what} {path} is damaged ({error}); capture the deck again") from error


def _card_or_none(text: object, where: str) -> Card | None:
    if text is None:
        return None
    try:
        return parse_card(str(text))
    except CardError as error:
        raise ProfileError(f"{where}: {error}") from error


def _read_image(path: Path) -> Image:
    image = cv2.imread(str(path))
    if image is None:
        raise ProfileError(f"cannot read the face image {path}; the profile is damaged, capture the deck again")
    return image


@dataclass(frozen=True)
class Completeness:
    """Which cards of the deck a set of identified faces holds, how many views of each, and what it lacks."""

    missing: tuple[Card, ...]
    views: dict[Card, int]  # card → how many faces carry it (1 or more)
    unidentified: int  # faces no one has named yet
    joker: bool

    @property
    def duplicates(self) -> dict[Card, int]:
        """The cards seen more than once (more examples of them, not a mistake)."""
        return {card: n for card, n in self.views.items() if n > 1}

    @property
    def complete(self) -> bool:
        """Every card of the deck named, every face named."""
        return not self.missing and not self.unidentified

    @property
    def savable(self) -> bool:
        """At least one face is named: a partial deck is saved as it is (its missing cards stay with the base
        model)."""
        return bool(self.views)

    def problems(self) -> list[str]:
        lines = []
        if self.missing:
            lines.append(f"missing {len(self.missing)}: {' '.join(str(c) for c in self.missing)}")
        if self.unidentified:
            lines.append(f"{self.unidentified} face{'s' if self.unidentified != 1 else ''} not named yet")
        return lines

    def views_line(self) -> str:
        """How many views of each card there are, e.g. "views: 8D ×3, AS ×2; 40 cards once"."""
        more = sorted(self.duplicates.items(), key=lambda kv: kv[0].sort_key())
        once = sum(1 for n in self.views.values() if n == 1)
        if not self.views:
            return "views: none yet"
        parts = ", ".join(f"{c} ×{n}" for c, n in more)
        once_text = f"{once} card{'s' if once != 1 else ''} once"
        if not parts:
            return f"views: every card once ({once_text})"
        return f"views: {parts}; {once_text}" if once else f"views: {parts}"


def completeness(identities: list[Card | None], with_joker: bool = False) -> Completeness:
    wanted = [*standard_deck(), JOKER] if with_joker else list(standard_deck())
    counts = Counter(c for c in identities if c is not None)
    return Completeness(
        missing=tuple(c for c in wanted if counts[c] == 0),
        views=dict(sorted(counts.items(), key=lambda kv: kv[0].sort_key())),
        unidentified=sum(1 for c in identities if c is None),
        joker=counts[JOKER] > 0,
    )


@dataclass
class DraftFace:
    """One face found while capturing: the model's proposal and the identity a person gave or accepted."""

    index: int
    frame: str  # the frame file it came from (frames/NNNN.jpg)
    corners: list[list[float]]
    proposed: Card | None
    confidence: float
    card: Card | None = None  # the identity: None until proposed-and-accepted or set by a person
    confirmed: bool = False
    # How its corners were found: "outline" (the reader's outline model), "edge" (the card's edge inside the
    # detector's box), "rough" (an outline not card-shaped), "box" (the detector's box), "contour" (the card's outline
    # on a plain table, without a model): ``vision.enroll.find``.
    found_by: str = ""

    @property
    def identity(self) -> Card | None:
        return self.card

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "frame": self.frame, "corners": self.corners,
                "proposed": None if self.proposed is None else str(self.proposed),
                "confidence": round(self.confidence, 4), "card": None if self.card is None else str(self.card),
                "confirmed": self.confirmed, "found_by": self.found_by}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DraftFace:
        try:
            return cls(int(data["index"]), str(data["frame"]), [[float(v) for v in p] for p in data["corners"]],
                       _card_or_none(data.get("proposed"), "draft face"), float(data.get("confidence", 0.0)),
                       _card_or_none(data.get("card"), "draft face"), bool(data.get("confirmed", False)),
                       str(data.get("found_by", "")))
        except (KeyError, TypeError, ValueError) as error:
            raise ProfileError(f"a face in the draft is malformed ({error}); capture the deck again") from error


@dataclass
class Draft:
    """The capture in progress for one deck name (``decks/<slug>/draft``), saved after every change."""

    name: str
    folder: Path
    with_joker: bool = False
    faces: list[DraftFace] = field(default_factory=list)
    frames: int = 0

    @classmethod
    def open(cls, name: str, root: Path | None = None, with_joker: bool | None = None) -> Draft:
        """The draft of ``name``: resumed when one exists, else a new, empty one."""
        folder = decks_folder(root) / slug_of(name) / DRAFT
        path = folder / DRAFT_FILE
        if path.exists():
            data = _read_json(path, "capture draft")
            draft = cls(str(data.get("name", name)), folder, bool(data.get("with_joker", False)),
                        [DraftFace.from_json(f) for f in data.get("faces", [])], int(data.get("frames", 0)))
            if with_joker is not None:
                draft.with_joker = with_joker
            return draft
        return cls(name, folder, bool(with_joker))

    def save(self) -> None:
        _write_json(self.folder / DRAFT_FILE, {"name": self.name, "with_joker": self.with_joker,
                                               "frames": self.frames, "faces": [f.to_json() for f in self.faces]})

    def face_path(self, index: int) -> Path:
        return self.folder / "faces" / f"{index:04d}.png"

    def face_image(self, index: int) -> Image:
        return _read_image(self.face_path(index))

    def add_frame(self, frame: Image) -> str:
        """Keep a captured frame; returns its name within the draft."""
        self.frames += 1
        name = f"frames/{self.frames:04d}.jpg"
        (self.folder / "frames").mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(self.folder / name), frame, [cv2.IMWRITE_JPEG_QUALITY, 95]):
            raise ProfileError(f"cannot write {self.folder / name}: is the disk full or read-only?")
        return name

    def add_face(self, frame_name: str, corners: npt.ArrayLike, face: Image, proposed: Card | None,
                 confidence: float, found_by: str = "") -> DraftFace:
        index = max((f.index for f in self.faces), default=0) + 1
        self.face_path(index).parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(self.face_path(index)), face):
            raise ProfileError(f"cannot write {self.face_path(index)}: is the disk full or read-only?")
        item = DraftFace(index, frame_name, np.asarray(corners, np.float64).round(2).tolist(), proposed,
                         float(confidence), card=proposed, found_by=found_by)
        self.faces.append(item)
        return item

    def face(self, index: int) -> DraftFace:
        for item in self.faces:
            if item.index == index:
                return item
        raise ProfileError(f"there is no face {index} in the capture of {self.name!r}; "
                           f"faces are numbered {', '.join(str(f.index) for f in self.faces[:5])}…")

    def completeness(self) -> Completeness:
        return completeness([f.identity for f in self.faces], self.with_joker)

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


# How a view's corners were found, best first: the face warped from the outline model's or the card's own edge is
# the card; one warped from the detector's box is the card only as far as the box fits it.
FOUND_BY_ORDER = {"outline": 0, "edge": 0, "contour": 0, "": 1, "rough": 2, "box": 2, "cut": 3}
PARTIAL = "cut"  # a partial view: what showed of a card cut by the picture's edge (never a face)


@dataclass(frozen=True)
class ProfileView:
    """One confirmed view of a card: its face image and where it lay in which capture frame."""

    card: Card
    face: str  # faces/AS.png, faces/AS_2.png … (the turned copy beside it: faces/AS_turned.png)
    frame: str  # frames/NNNN.jpg
    corners: list[list[float]]
    found_by: str = ""

    @property
    def partial(self) -> bool:
        """What showed of a card cut by the picture's edge: an example of the card, not its face."""
        return self.found_by == PARTIAL

    def to_json(self) -> dict[str, Any]:
        return {"card": str(self.card), "face": self.face, "frame": self.frame, "corners": self.corners,
                "found_by": self.found_by}


@dataclass(frozen=True)
class DeckProfile:
    """A saved deck: every confirmed view of each card it holds (both orientations), the frames they came from, and
    which cards of the deck it lacks."""

    name: str
    slug: str
    version: int
    folder: Path
    created: str
    cards: tuple[Card, ...]  # the cards it holds, each once, in deck order
    sources: dict[str, dict[str, Any]]  # card text → its first view's {"frame": …, "corners": [[x, y] × 4]}
    views: tuple[ProfileView, ...] = ()  # every view, each card's first view first
    with_joker: bool = False

    @property
    def ref(self) -> str:
        """``<slug>@v<version>``: how the journal and the model registry name this profile."""
        return f"{self.slug}@v{self.version}"

    @property
    def missing(self) -> tuple[Card, ...]:
        """The cards of the deck this profile lacks (the reader reads them as its base model does)."""
        wanted = [*standard_deck(), JOKER] if self.with_joker else list(standard_deck())
        held = set(self.cards)
        return tuple(c for c in wanted if c not in held)

    @property
    def partial_only(self) -> tuple[Card, ...]:
        """The cards seen only cut by the picture's edge: learnt from what showed, without a face of their own."""
        whole = {view.card for view in self.views if not view.partial}
        return tuple(c for c in self.cards if c not in whole)

    def face(self, card: Card, turned: bool = False) -> Image:
        """The card's first view (a whole one where the card has one)."""
        return _read_image(self.folder / "faces" / f"{card}{'_turned' if turned else ''}.png")

    def faces(self) -> dict[Card, Image]:
        """Each card's face: its first view, of the cards seen whole (``partial_only`` have none)."""
        partial = set(self.partial_only)
        return {card: self.face(card) for card in self.cards if card not in partial}

    def view_faces(self) -> list[tuple[Card, Image]]:
        """Every view's face, each card's first view first."""
        return [(view.card, _read_image(self.folder / view.face)) for view in self.views]

    def views_of(self, card: Card) -> list[ProfileView]:
        return [view for view in self.views if view.card == card]

    def frames(self) -> list[Path]:
        return sorted((self.folder / "frames").glob("*.jpg"))

    @classmethod
    def load(cls, folder: Path) -> DeckProfile:
        data = _read_json(folder / PROFILE_FILE, "deck profile")
        try:
            cards = tuple(parse_card(c) for c in data["cards"])
            sources = {str(k): dict(v) for k, v in data["sources"].items()}
            if "views" in data:
                views = tuple(ProfileView(parse_card(v["card"]), str(v["face"]), str(v["frame"]),
                                          [[float(x) for x in p] for p in v["corners"]], str(v.get("found_by", "")))
                              for v in data["views"])
            else:  # a profile saved before views were kept: one view of each card
                views = tuple(ProfileView(card, f"faces/{card}.png", str(sources[str(card)]["frame"]),
                                          [[float(x) for x in p] for p in sources[str(card)]["corners"]])
                              for card in cards)
            return cls(str(data["name"]), str(data["slug"]), int(data["version"]), folder, str(data["created"]),
                       cards, sources, views, bool(data.get("with_joker", data.get("joker", False))))
        except (KeyError, TypeError, ValueError, CardError) as error:
            raise ProfileError(f"the deck profile {folder / PROFILE_FILE} is malformed ({error})") from error


def profile_versions(name_or_slug: str, root: Path | None = None) -> list[int]:
    return _versions_in(decks_folder(root) / slug_of(name_or_slug))


def _versions_in(folder: Path) -> list[int]:
    if not folder.is_dir():
        return []
    return sorted(int(p.name[1:]) for p in folder.iterdir()
                  if re.fullmatch(r"v\d{3,}", p.name) and (p / PROFILE_FILE).exists())


def load_profile(ref: str, root: Path | None = None) -> DeckProfile:
    """A profile by ``name``, ``slug`` (its newest version) or ``slug@vN``."""
    name, _, version_text = ref.partition("@")
    versions = profile_versions(name, root)
    if not versions:
        known = ", ".join(list_profiles(root)) or "none yet"
        raise ProfileError(f"no deck profile {name!r}; saved profiles: {known}. Capture and confirm one first "
                           "('dealer-assist vision enroll capture')")
    if version_text:
        try:
            version = int(version_text.lstrip("v"))
        except ValueError as error:
            raise ProfileError(f"{ref!r}: a version is written like 'copag-blue@v2'") from error
        if version not in versions:
            raise ProfileError(f"deck {name!r} has no version {version}; it has {', '.join(map(str, versions))}")
    else:
        version = versions[-1]
    return DeckProfile.load(decks_folder(root) / slug_of(name) / f"v{version:03d}")


def list_profiles(root: Path | None = None) -> list[str]:
    folder = decks_folder(root)
    if not folder.is_dir():
        return []
    return [f"{d.name}@v{v}" for d in sorted(folder.iterdir()) if d.is_dir() for v in profile_versions(d.name, root)]


def save_profile(draft: Draft, clock: Clock | None = None) -> DeckProfile:
    """Save the draft's named faces as the deck's next version (``v001``, ``v002`` …): every view of every card
    named, a partial deck as it is (``DeckProfile.missing`` says what it lacks); faces nobody named are left out.
    Refuses a draft without a single named face."""
    named = [f for f in draft.faces if f.identity is not None]
    if not named:
        raise ProfileError(f"nothing of the deck {draft.name!r} can be saved: no face is named yet; name the faces "
                           "('enroll confirm … --set N=CARD') or capture with a model that proposes them")
    slug = slug_of(draft.name)
    base = draft.folder.parent
    version = (_versions_in(base) or [0])[-1] + 1
    final = base / f"v{version:03d}"
    staging = base / f".v{version:03d}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "faces").mkdir(parents=True)
    sources: dict[str, dict[str, Any]] = {}
    views: list[ProfileView] = []
    seen: Counter[Card] = Counter()
    order = sorted(named, key=lambda f: (f.identity.sort_key() if f.identity else (99, 99),
                                         FOUND_BY_ORDER.get(f.found_by, 1), f.index))
    for item in order:
        card = item.identity
        assert card is not None
        seen[card] += 1
        stem = f"{card}" if seen[card] == 1 else f"{card}_{seen[card]}"
        face = draft.face_image(item.index)
        for name, image in ((f"{stem}.png", face), (f"{stem}_turned.png", cv2.rotate(face, cv2.ROTATE_180))):
            if not cv2.imwrite(str(staging / "faces" / name), image):
                raise ProfileError(f"cannot write {staging / 'faces' / name}: is the disk full or read-only?")
        views.append(ProfileView(card, f"faces/{stem}.png", item.frame, item.corners, item.found_by))
        if seen[card] == 1:
            sources[str(card)] = {"frame": item.frame, "corners": item.corners}
    cards = list(dict.fromkeys(view.card for view in views))
    shutil.copytree(draft.folder / "frames", staging / "frames")
    now = (clock or SystemClock()).now()
    wanted = [*standard_deck(), JOKER] if draft.with_joker else list(standard_deck())
    _write_json(staging / PROFILE_FILE, {
        "name": draft.name, "slug": slug, "version": version, "created": now.isoformat(timespec="seconds"),
        "cards": [str(c) for c in cards], "joker": JOKER in cards, "with_joker": draft.with_joker,
        "missing": [str(c) for c in wanted if c not in set(cards)], "sources": sources,
        "views": [v.to_json() for v in views],
    })
    os.replace(staging, final)
    return DeckProfile.load(final)
