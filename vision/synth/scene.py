"""One seeded synthetic overhead view of a card table, with every card's corners and how much of it shows.

Cards are laid the way dealers lay them (single cards, rows, spread hands, squared stacks), on felt, wood or cloth,
sometimes with face-down cards, chips and a dealer's hand over them; then the camera: perspective, lens distortion,
lighting (shadow, glare, vignetting, white balance, exposure), blur, noise and JPEG. Same seed, same scene.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from engine.errors import InputError
from vision.synth import textures
from vision.synth.faces import CARD_ASPECT, FACE_SIZE, available_decks, face_mask, load_deck, paste_card

Image = npt.NDArray[np.uint8]
FRAME_SIZE = (1280, 720)
SURFACE_STREAM = 0x5F  # the random stream of a table top chosen by the caller (``render_scene``'s ``surface``)
# A card is labelled when at least this share of its face shows; layouts avoid cards that show a little less, so
# that nothing on the picture is half-way between "a card" and "not a card".
LABEL_MIN_VISIBLE = 0.4
# Where every deck drawn prints a card's index (rank over suit), as shares of the face's width and height: the
# top-left corner and, turned, the bottom-right one. Some decks print all four corners; only these two count.
INDEX_CORNERS = ((0.0, 0.0, 0.2, 0.3), (0.8, 0.7, 1.0, 1.0))


@dataclass(frozen=True)
class PlacedCard:
    card: Card
    corners: npt.NDArray[np.float32]  # 4 x 2, frame pixels: the face's top-left, top-right, bottom-right, bottom-left
    visible: float  # share of the face not covered by other cards, a hand or chips (0..1)
    # The share of each index corner (top-left, bottom-right; ``INDEX_CORNERS``) that shows: not covered by a card,
    # a hand or a chip, and inside the picture (0..1).
    index_shares: tuple[float, float] = (1.0, 1.0)

    @property
    def index_visible(self) -> float:
        return max(self.index_shares)

    @property
    def box(self) -> tuple[float, float, float, float]:
        x1, y1 = self.corners.min(axis=0)
        x2, y2 = self.corners.max(axis=0)
        return (float(x1), float(y1), float(x2), float(y2))

    def box_in_frame(self, size: tuple[int, int]) -> tuple[float, float, float, float]:
        """The whole card's box clipped to a frame of ``size`` (width, height)."""
        x1, y1, x2, y2 = self.box
        return (max(x1, 0.0), max(y1, 0.0), min(x2, float(size[0])), min(y2, float(size[1])))

    @property
    def labelled(self) -> bool:
        return self.visible >= LABEL_MIN_VISIBLE


@dataclass(frozen=True)
class Scene:
    seed: int
    deck: str
    image: Image
    cards: tuple[PlacedCard, ...]  # every face-up card drawn, bottom first

    @property
    def labelled_cards(self) -> list[PlacedCard]:
        return [c for c in self.cards if c.labelled]


def _card_corners(center: npt.ArrayLike, width: float, angle: float) -> npt.NDArray[np.float64]:
    w, h = width, width * CARD_ASPECT
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    c, s = np.cos(angle), np.sin(angle)
    return local @ np.array([[c, s], [-s, c]]) + np.asarray(center, np.float64)


def _layout_group(rng: np.random.Generator, kind: str, count: int, width: float) -> list[tuple[np.ndarray, bool]]:
    """Card corners of one group around (0, 0), bottom card first; the flag says whether the card is meant to be
    identifiable (the lower cards of a squared stack are not)."""
    cards: list[tuple[np.ndarray, bool]] = []
    base_angle = rng.uniform(0, 2 * np.pi)
    direction = np.array([np.cos(base_angle), np.sin(base_angle)])
    if kind == "row":  # side by side, touching, apart or overlapping by at most half a card
        step = width * rng.uniform(0.55, 1.25)
        for i in range(count):
            offset = (i - (count - 1) / 2) * step
            cards.append((_card_corners(direction * offset, width, base_angle + rng.normal(0, 0.04)), True))
    elif kind == "fan":  # a spread hand: rotating about a point below the cards
        step = rng.uniform(0.2, 0.35)
        radius = width * rng.uniform(1.8, 2.6)
        for i in range(count):
            a = base_angle + (i - (count - 1) / 2) * step
            center = np.array([np.sin(a), -np.cos(a)]) * radius
            cards.append((_card_corners(center, width, a), True))
    elif kind == "stack":  # squared pile: only the top card can be read
        for i in range(count):
            jitter = rng.normal(0, width * 0.03, 2)
            cards.append((_card_corners(jitter, width, base_angle + rng.normal(0, 0.05)), i == count - 1))
    else:  # single
        cards.append((_card_corners((0.0, 0.0), width, base_angle), True))
    return cards


def _distort(points: npt.NDArray[np.float64], k: float, size: tuple[int, int]) -> npt.NDArray[np.float64]:
    """Where points of the undistorted picture land after the radial lens model used by ``_lens_map``."""
    w, h = size
    centre = np.array([w / 2, h / 2])
    norm = max(w, h) / 2
    p = (points - centre) / norm
    q = p.copy()
    for _ in range(20):  # solve q * (1 + k |q|^2) = p
        q = p / (1 + k * (q**2).sum(axis=1, keepdims=True))
    return q * norm + centre


def _lens_map(k: float, size: tuple[int, int]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    norm = max(w, h) / 2
    qx, qy = (xs - w / 2) / norm, (ys - h / 2) / norm
    f = 1 + k * (qx**2 + qy**2)
    return (qx * f * norm + w / 2).astype(np.float32), (qy * f * norm + h / 2).astype(np.float32)


def render_scene(seed: int, size: tuple[int, int] = FRAME_SIZE, decks: list[str] | None = None,
                 surface: str | None = None) -> Scene:
    """Render the scene of ``seed``; ``decks`` limits the deck designs drawn from (default: all available).
    ``surface`` (one of ``textures.SURFACES``) draws the same scene, cards, hands and light, on that table top."""
    if surface is not None and surface not in textures.SURFACES:
        raise InputError(f"unknown table surface {surface!r}; one of {', '.join(textures.SURFACES)}")
    rng = np.random.default_rng(seed)
    deck_names = decks or available_decks()
    deck_name = str(deck_names[int(rng.integers(len(deck_names)))])
    faces = load_deck(deck_name)
    pool: list[Card] = list(faces)
    order = rng.permutation(len(pool))
    pool = [pool[i] for i in order]
    w, h = size
    image = textures.table_surface(rng, size)
    if surface is not None:  # its own random stream, so that everything drawn after it is the default scene's
        image = textures.SURFACES[surface](np.random.default_rng((seed, SURFACE_STREAM)), size)
    width = float(rng.uniform(75, 150)) * w / 1280

    # Place groups where they do not collide with earlier ones (a rough test on bounding circles).
    planned: list[tuple[np.ndarray, bool]] = []
    circles: list[tuple[np.ndarray, float]] = []
    for _ in range(int(rng.integers(1, 8))):
        kind = str(rng.choice(["single", "single", "row", "row", "fan", "stack"]))
        count = {"single": 1, "row": int(rng.integers(2, 6)), "fan": int(rng.integers(2, 6)),
                 "stack": int(rng.integers(2, 5))}[kind]
        if len(planned) + count > len(pool):
            break
        group = _layout_group(rng, kind, count, width)
        points = np.concatenate([g for g, _ in group])
        centre_local = points.mean(axis=0)
        radius = float(np.linalg.norm(points - centre_local, axis=1).max())
        if 1.6 * radius + 4 >= min(w, h):  # the group does not fit in the picture
            continue
        for _attempt in range(30):
            centre = rng.uniform([radius * 0.8, radius * 0.8], [w - radius * 0.8, h - radius * 0.8])
            moved = points - centre_local + centre
            inside = (moved.min(axis=0) >= 2).all() and (moved.max(axis=0) <= [w - 3, h - 3]).all()
            apart = all(np.linalg.norm(centre - c) > radius + r + 4 for c, r in circles)
            if inside and apart:
                circles.append((centre, radius))
                planned += [(g - centre_local + centre, ok) for g, ok in group]
                break

    # Paint cards bottom to top, remembering which card owns each pixel.
    owner = np.full((h, w), -1, np.int16)
    areas: list[int] = []
    cards: list[tuple[Card, np.ndarray]] = []
    back = _card_back(rng)
    for corners, identifiable in planned:
        if not identifiable and rng.random() < 0.3:  # a face-down card under a stack
            mask = paste_card(image, back, corners)
            owner[mask > 127] = -1
            continue
        card = pool[len(cards)]
        mask = paste_card(image, faces[card], corners, shade=float(rng.uniform(0.85, 1.05)))
        owner[mask > 127] = len(cards)
        areas.append(int((mask > 127).sum()))
        cards.append((card, corners))
    for _ in range(int(rng.integers(0, 3)) if rng.random() < 0.3 else 0):  # lone face-down cards: not cards to read
        centre = rng.uniform([width, width], [w - width, h - width])
        mask = paste_card(image, back, _card_corners(centre, width, rng.uniform(0, 2 * np.pi)))
        owner[mask > 127] = -1

    cover = np.zeros((h, w), np.uint8)
    if rng.random() < 0.35 and cards:  # the dealer's hand reaching over a card
        target = cards[int(rng.integers(len(cards)))][1].mean(axis=0) + rng.normal(0, width * 0.5, 2)
        hand = textures.hand_mask(rng, size, (float(target[0]), float(target[1])), width * rng.uniform(0.8, 1.2))
        textures.draw_hand(rng, image, hand)
        cover |= hand
    for _ in range(int(rng.integers(0, 6)) if rng.random() < 0.5 else 0):
        if cards and rng.random() < 0.5:
            target = cards[int(rng.integers(len(cards)))][1][int(rng.integers(4))] + rng.normal(0, width * 0.2, 2)
        else:
            target = rng.uniform([0, 0], [w, h])
        textures.draw_chip(rng, image, cover, (float(target[0]), float(target[1])), width * rng.uniform(0.25, 0.35))
    owner[cover > 127] = -1

    placed_visible = [float((owner == i).sum()) / max(areas[i], 1) for i in range(len(cards))]
    index_pixels = [index_pixels_showing(owner, i, corners) for i, (_, corners) in enumerate(cards)]

    image = textures.apply_lighting(rng, image)
    all_corners = np.stack([c for _, c in cards]) if cards else np.zeros((0, 4, 2))
    camera: list[tuple[str, object]] = []  # the steps that move a point of the laid table to the picture
    if rng.random() < 0.7:  # the camera is not quite overhead
        jitter = 0.06 * min(w, h)
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        dst = (src + rng.uniform(-jitter, jitter, (4, 2))).astype(np.float32)
        matrix = cv2.getPerspectiveTransform(src, dst)
        image = cv2.warpPerspective(image, matrix, size, borderMode=cv2.BORDER_REFLECT)
        camera.append(("perspective", matrix))
    if rng.random() < 0.6:  # wide-angle webcam lens
        k = float(rng.uniform(-0.12, 0.08))
        camera.append(("lens", k))
        map_x, map_y = _lens_map(k, size)
        image = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    image = textures.apply_sensor(rng, image)
    all_corners = _through_camera(all_corners.reshape(-1, 2).astype(np.float64), camera, size).reshape(-1, 4, 2)

    index_shares = [_shares_in_picture(corners_pixels, camera, size) for corners_pixels in index_pixels]
    placed = tuple(PlacedCard(card, all_corners[i].astype(np.float32), placed_visible[i], index_shares[i])
                   for i, (card, _) in enumerate(cards))
    return Scene(seed=seed, deck=deck_name, image=image, cards=placed)


def index_pixels_showing(owner: npt.NDArray[np.int16], card: int,
                         corners: npt.NDArray[np.float64]) -> list[tuple[npt.NDArray[np.float64], int]]:
    """Per index corner of card ``card`` (laid at ``corners``, before the camera): the pixels of it the card still
    owns in ``owner`` (not covered there by a later card, a hand or a chip) and how many pixels the corner has."""
    fw, fh = FACE_SIZE
    to_frame = cv2.getPerspectiveTransform(np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]),
                                           np.asarray(corners, np.float32))
    found = []
    for x1, y1, x2, y2 in INDEX_CORNERS:
        rect = np.float32([[x1 * fw, y1 * fh], [x2 * fw, y1 * fh], [x2 * fw, y2 * fh], [x1 * fw, y2 * fh]])
        quad = cv2.perspectiveTransform(rect.reshape(-1, 1, 2), to_frame).reshape(-1, 2)
        shift = np.floor(quad.min(axis=0)).astype(int) - 1  # draw the corner on a patch around it
        span = np.ceil(quad.max(axis=0)).astype(int) - shift + 2
        patch = np.zeros((span[1], span[0]), np.uint8)
        cv2.fillConvexPoly(patch, np.round(quad - shift).astype(np.int32), 1)
        ys, xs = np.nonzero(patch)
        xs, ys = xs + shift[0], ys + shift[1]
        on_table = (xs >= 0) & (ys >= 0) & (xs < owner.shape[1]) & (ys < owner.shape[0])
        owned = np.zeros(len(xs), bool)
        owned[on_table] = owner[ys[on_table], xs[on_table]] == card
        found.append((np.stack([xs[owned], ys[owned]], axis=1).astype(np.float64), len(xs)))
    return found


def _through_camera(points: npt.NDArray[np.float64], camera: list[tuple[str, object]],
                    size: tuple[int, int]) -> npt.NDArray[np.float64]:
    """Where points (N x 2) of the laid table land in the picture after the camera's steps."""
    for step, value in camera:
        if not len(points):
            break
        if step == "perspective":
            points = cv2.perspectiveTransform(points.reshape(-1, 1, 2), value).reshape(-1, 2)
        else:
            points = _distort(points, float(value), size)  # type: ignore[arg-type]
    return points


def _shares_in_picture(corners_pixels: list[tuple[npt.NDArray[np.float64], int]], camera: list[tuple[str, object]],
                       size: tuple[int, int]) -> tuple[float, float]:
    """Per index corner, the share of its pixels that show and land inside the picture after the camera."""
    shares = []
    for points, total in corners_pixels:
        moved = _through_camera(points, camera, size)
        inside = (moved[:, 0] >= 0) & (moved[:, 1] >= 0) & (moved[:, 0] < size[0]) & (moved[:, 1] < size[1])
        shares.append(float(inside.sum()) / max(total, 1))
    return (shares[0], shares[1])


def _card_back(rng: np.random.Generator) -> Image:
    """A card back: a coloured pattern inside a white border."""
    w, h = FACE_SIZE
    back = np.full((h, w, 3), 250, np.uint8)
    colour = (150, 40, 30) if rng.random() < 0.5 else (40, 30, 160)
    margin = w // 12
    cv2.rectangle(back, (margin, margin), (w - margin, h - margin), colour, -1)
    step = int(rng.integers(10, 25))
    for x in range(-h, w, step):
        cv2.line(back, (x, margin), (x + h, h), (230, 230, 230), 1, cv2.LINE_AA)
        cv2.line(back, (x + h, margin), (x, h), (230, 230, 230), 1, cv2.LINE_AA)
    cv2.rectangle(back, (0, 0), (w - 1, h - 1), (250, 250, 250), margin)
    back[face_mask() == 0] = 250
    return back
