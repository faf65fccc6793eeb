"""Table surfaces, things that cover cards (a dealer's hand, chips) and camera effects, all drawn from a seeded RNG."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Rng = np.random.Generator

# Felt colours seen on card tables (BGR): greens, blues, reds, a brown and a grey.
FELT_COLOURS = ((40, 110, 30), (30, 90, 20), (60, 130, 50), (110, 70, 20), (130, 90, 40), (40, 40, 140),
                (30, 30, 100), (40, 70, 100), (80, 80, 80), (60, 100, 70))


def smooth_noise(rng: Rng, size: tuple[int, int], scale: float) -> npt.NDArray[np.float32]:
    """Noise in -1..1 varying over about ``scale`` pixels, ``size`` = (width, height)."""
    w, h = size
    gw, gh = max(2, int(w / scale) + 2), max(2, int(h / scale) + 2)
    grid = rng.standard_normal((gh, gw)).astype(np.float32)
    noise = cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(noise / 2.0, -1.0, 1.0)


def felt(rng: Rng, size: tuple[int, int]) -> Image:
    w, h = size
    base = np.array(FELT_COLOURS[rng.integers(len(FELT_COLOURS))], np.float32)
    base *= rng.uniform(0.75, 1.25, 3).astype(np.float32)
    fine = rng.standard_normal((h, w)).astype(np.float32) * rng.uniform(3, 10)
    blotch = smooth_noise(rng, size, rng.uniform(80, 300)) * rng.uniform(5, 20)
    image = base[None, None, :] + (fine + blotch)[:, :, None]
    return np.clip(image, 0, 255).astype(np.uint8)


def wood(rng: Rng, size: tuple[int, int]) -> Image:
    w, h = size
    base = np.array((40, 80, 130), np.float32) * rng.uniform(0.6, 1.3)
    ys = np.mgrid[0:h, 0:w][0].astype(np.float32)
    warp = smooth_noise(rng, size, 200) * rng.uniform(10, 40)
    grain = np.sin((ys + warp) / rng.uniform(3, 9)) * 0.5 + 0.5
    grain = grain * rng.uniform(15, 35) + smooth_noise(rng, size, 60) * 10
    image = base[None, None, :] + grain[:, :, None] * np.array([0.6, 0.8, 1.0], np.float32)
    if rng.random() < 0.5:
        image = cv2.rotate(cv2.resize(image, (h, w)), cv2.ROTATE_90_CLOCKWISE)
    return np.clip(image, 0, 255).astype(np.uint8)


def cloth(rng: Rng, size: tuple[int, int]) -> Image:
    """A woven or patterned cloth: a checked or striped weave in two colours."""
    w, h = size
    c1 = rng.integers(20, 230, 3).astype(np.float32)
    c2 = np.clip(c1 + rng.normal(0, 40, 3), 0, 255).astype(np.float32)
    ys, xs = np.mgrid[0:h, 0:w]
    period = int(rng.integers(6, 40))
    pattern = ((xs // period + ys // period) % 2) if rng.random() < 0.5 else ((xs // period) % 2)
    image = np.where(pattern[:, :, None] == 1, c1, c2) + rng.standard_normal((h, w, 1)).astype(np.float32) * 6
    return np.clip(cv2.GaussianBlur(image, (3, 3), 0), 0, 255).astype(np.uint8)


def stone(rng: Rng, size: tuple[int, int]) -> Image:
    """A grey stone or concrete top: speckled grain over cloudy patches."""
    w, h = size
    base = rng.uniform(90, 200) * rng.uniform(0.85, 1.1, 3).astype(np.float32)
    speckle = rng.standard_normal((h, w)).astype(np.float32) * rng.uniform(8, 25)
    clouds = smooth_noise(rng, size, rng.uniform(30, 120)) * rng.uniform(15, 40)
    image = base[None, None, :] + (speckle + clouds)[:, :, None]
    return np.clip(cv2.GaussianBlur(image, (3, 3), 0), 0, 255).astype(np.uint8)


def paper(rng: Rng, size: tuple[int, int]) -> Image:
    """A white top (paper, a white table): nearly the card stock's own colour, so a card's edge shows little."""
    w, h = size
    base = rng.uniform(215, 245) * rng.uniform(0.95, 1.03, 3).astype(np.float32)
    shade = smooth_noise(rng, size, 300) * 8 + rng.standard_normal((h, w)).astype(np.float32) * 2
    return np.clip(base[None, None, :] + shade[:, :, None], 0, 255).astype(np.uint8)


# Every table top a scene can be drawn on; the training scenes draw felt, wood and cloth (``table_surface``).
SURFACES: dict[str, Callable[[Rng, tuple[int, int]], Image]] = {
    "felt": felt, "wood": wood, "cloth": cloth, "stone": stone, "paper": paper}


def table_surface(rng: Rng, size: tuple[int, int]) -> Image:
    kind = rng.choice(["felt", "felt", "felt", "wood", "cloth"])
    image = felt(rng, size) if kind == "felt" else wood(rng, size) if kind == "wood" else cloth(rng, size)
    if rng.random() < 0.5:
        draw_layout_lines(rng, image)
    return image


def draw_layout_lines(rng: Rng, image: Image) -> None:
    """Printed table markings: betting boxes, arcs and words, in a pale or golden ink."""
    h, w = image.shape[:2]
    ink = (200, 220, 230) if rng.random() < 0.5 else (60, 180, 220)
    thickness = int(rng.integers(1, 4))
    for _ in range(int(rng.integers(1, 7))):
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        bw, bh = int(rng.integers(60, 260)), int(rng.integers(60, 200))
        if rng.random() < 0.6:
            cv2.rectangle(image, (x, y), (x + bw, y + bh), ink, thickness, cv2.LINE_AA)
        else:
            cv2.ellipse(image, (x, y), (bw, bh), float(rng.uniform(0, 180)), 0, float(rng.uniform(90, 360)), ink,
                        thickness, cv2.LINE_AA)
    if rng.random() < 0.5:
        text = str(rng.choice(["HOUSE", "SEAT 3", "HIGH", "LOW", "BANKER", "PLAYER", "DEALER"]))
        cv2.putText(image, text, (int(rng.integers(0, w - 200)), int(rng.integers(40, h))),
                    cv2.FONT_HERSHEY_SIMPLEX, float(rng.uniform(0.8, 2.0)), ink, 2, cv2.LINE_AA)


def hand_mask(rng: Rng, size: tuple[int, int], center: tuple[float, float], scale: float) -> Image:
    """A dealer's hand seen from above: a palm with four or five fingers, as a 0/255 mask."""
    w, h = size
    mask = np.zeros((h, w), np.uint8)
    angle = rng.uniform(0, 2 * np.pi)
    cx, cy = center
    palm = (scale * rng.uniform(0.45, 0.6), scale * rng.uniform(0.55, 0.7))
    cv2.ellipse(mask, (int(cx), int(cy)), (int(palm[0]), int(palm[1])), float(np.degrees(angle)), 0, 360, 255, -1)
    direction = np.array([np.cos(angle + np.pi / 2), np.sin(angle + np.pi / 2)])
    across = np.array([-direction[1], direction[0]])
    for i in range(int(rng.integers(4, 6))):
        offset = (i - 1.5) * palm[0] * 0.5
        base = np.array([cx, cy]) + direction * palm[1] * 0.8 + across * offset
        tip = base + direction * scale * rng.uniform(0.5, 0.9) + across * rng.normal(0, scale * 0.1)
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in tip), 255,
                 max(2, int(scale * rng.uniform(0.16, 0.22))), cv2.LINE_AA)
    # the forearm leaving the picture
    arm_end = np.array([cx, cy]) - direction * scale * 4
    cv2.line(mask, (int(cx), int(cy)), tuple(int(v) for v in arm_end), 255, int(palm[0] * 1.6), cv2.LINE_AA)
    return mask


def draw_hand(rng: Rng, image: Image, mask: Image) -> None:
    skin = np.array([rng.uniform(60, 170), rng.uniform(90, 190), rng.uniform(140, 235)], np.float32)
    if rng.random() < 0.3:  # a sleeve or a glove
        skin = rng.uniform(20, 240, 3).astype(np.float32)
    shading = 1.0 + smooth_noise(rng, (image.shape[1], image.shape[0]), 40)[:, :, None] * 0.15
    a = cv2.GaussianBlur(mask, (5, 5), 0).astype(np.float32)[:, :, None] / 255.0
    image[:] = np.clip(image * (1 - a) + skin * shading * a, 0, 255).astype(np.uint8)


def draw_chip(rng: Rng, image: Image, mask: Image, center: tuple[float, float], radius: float) -> None:
    """A casino chip from above: a coloured disc with edge spots and an inner ring; marks its pixels in ``mask``."""
    colour = tuple(int(v) for v in rng.integers(0, 256, 3))
    c = (int(center[0]), int(center[1]))
    r = int(radius)
    cv2.circle(image, c, r, colour, -1, cv2.LINE_AA)
    cv2.circle(mask, c, r, 255, -1)
    for k in range(6):
        a0 = k * 60 + float(rng.uniform(0, 10))
        cv2.ellipse(image, c, (r - 2, r - 2), 0, a0, a0 + 20, (245, 245, 245), max(2, r // 4))
    cv2.circle(image, c, int(r * 0.62), (235, 235, 235), max(1, r // 12), cv2.LINE_AA)


def apply_lighting(rng: Rng, image: Image) -> Image:
    """Shadows, glare, vignetting, white balance and exposure."""
    h, w = image.shape[:2]
    light = np.ones((h, w), np.float32)
    if rng.random() < 0.5:  # a soft shadow (an arm, the dealer's head)
        shadow = np.zeros((h, w), np.uint8)
        pts = rng.uniform([0, 0], [w, h], (int(rng.integers(3, 6)), 2)).astype(np.int32)
        cv2.fillPoly(shadow, [cv2.convexHull(pts)], 255)
        k = int(rng.integers(15, 61)) | 1
        light -= cv2.GaussianBlur(shadow, (k, k), 0).astype(np.float32) / 255.0 * rng.uniform(0.2, 0.5)
    if rng.random() < 0.7:  # vignetting
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xs - w / 2) / (w / 2)) ** 2 + ((ys - h / 2) / (h / 2)) ** 2
        light *= 1.0 - rng.uniform(0.0, 0.3) * r2 / 2
    out = image.astype(np.float32) * light[:, :, None]
    if rng.random() < 0.5:  # glare from a lamp
        glare = np.zeros((h, w), np.float32)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        cv2.ellipse(glare, (int(cx), int(cy)), (int(rng.uniform(20, 150)), int(rng.uniform(10, 80))),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        k = int(rng.integers(21, 81)) | 1
        out += cv2.GaussianBlur(glare, (k, k), 0)[:, :, None] * rng.uniform(60, 200)
    out *= rng.uniform(0.85, 1.15, 3).astype(np.float32)[None, None, :]  # white balance
    out *= rng.uniform(0.6, 1.35)  # exposure
    gamma = rng.uniform(0.8, 1.25)
    out = 255.0 * (np.clip(out, 0, 255) / 255.0) ** gamma
    return np.clip(out, 0, 255).astype(np.uint8)


def apply_sensor(rng: Rng, image: Image) -> Image:
    """Blur (focus or motion), sensor noise and JPEG compression."""
    out = image
    roll = rng.random()
    if roll < 0.3:
        sigma = rng.uniform(0.5, 1.6)
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    elif roll < 0.45:
        length = int(rng.integers(3, 8))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    sigma_noise = rng.uniform(0, 8)
    if sigma_noise > 0.5:
        noisy = out.astype(np.float32) + rng.standard_normal(out.shape).astype(np.float32) * sigma_noise
        out = np.clip(noisy, 0, 255).astype(np.uint8)
    quality = int(rng.integers(50, 96))
    ok, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        out = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return out


def salt_and_pepper(image: Image, share: float, seed: int) -> Image:
    """``image`` with ``share`` of its pixels turned black or white (half each), drawn from ``seed``: impulse noise,
    which no training scene has."""
    noisy = image.copy()
    draw = np.random.default_rng(seed).random(image.shape[:2])
    noisy[draw < share / 2] = 0
    noisy[draw > 1 - share / 2] = 255
    return noisy


def squashed_to_square(image: Image) -> Image:
    """``image`` squashed to a square, its width shrunk to its height, as some exports of camera frames are."""
    height = image.shape[0]
    return np.asarray(cv2.resize(image, (height, height), interpolation=cv2.INTER_AREA), np.uint8)


def dim_light(image: Image, light: float, seed: int) -> Image:
    """``image`` as a webcam sees it with ``light`` of the light (0.25: a quarter): the sensor catches fewer photons
    (shot noise grows against the signal, read noise stays), then its gain brings the frame part of the way back
    (at most 4 times, to half the lost brightness), and it is sent as a JPEG. Dim light the training scenes'
    exposure (0.6-1.35) never reaches."""
    rng = np.random.default_rng(seed)
    linear = (image.astype(np.float32) / 255.0) ** 2.2 * light
    full_well = 400.0  # photons at full brightness: shot noise sqrt(n)
    photons = linear * full_well
    caught = photons + rng.standard_normal(image.shape).astype(np.float32) * np.sqrt(photons + 4.0)
    gain = min(4.0, 0.5 + 0.5 / light)
    out = 255.0 * np.clip(caught / full_well * gain, 0.0, 1.0) ** (1 / 2.2)
    encoded = cv2.imencode(".jpg", out.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 70])[1]
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), np.uint8)
