"""Trains the corner index reader (``card-corner-index.onnx``, ``vision.corner_index``) on index corners of real deck
designs: one small network, a rank head and a suit head.

    .venv/bin/python -m vision.train_corner_index --out runs/vision/corner-index [--copies 3] [--epochs 10]

The corners are cut from `../shared/data/card-designs` (``vision.synth.design_corners``): its ``train`` split is
learnt, its ``valid`` split chooses the epoch kept. No photo of a table's deck is used, so every real photo set
stays a fair measure. Run it under ``nice``, in the background: about 2 minutes an epoch on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.corner_index import CORNER_CROP, CORNER_INDEX_MODEL, SUITS
from vision.rank_ocr import RANK_TEXTS
from vision.reader_models import to_tensor
from vision.synth.design_corners import design_corner_crops, write_examples
from vision.synth.design_crops import DEFAULT_DESIGNS

GREY_EXTRA = 0.25  # more grey crops than the laid photos give: in grey photos the suit's shape is all there is
# A camera's faults the laid design photos rarely show: out of focus, sensor noise, dead pixels.
BLUR_SHARE = 0.3
NOISE_SHARE = 0.3
SPECKLE_SHARE = 0.15


def build_network(width: int = 32) -> Any:
    """Three stages of two 3×3 convolutions (``width``, twice and four times as many channels), pooled, then two
    heads: the 13 ranks and the four suits."""
    import torch
    from torch import nn

    def stage(inputs: int, outputs: int) -> list[nn.Module]:
        return [
            nn.Conv2d(inputs, outputs, 3, padding=1, bias=False), nn.BatchNorm2d(outputs), nn.ReLU(inplace=True),
            nn.Conv2d(outputs, outputs, 3, padding=1, bias=False), nn.BatchNorm2d(outputs), nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
        ]

    class CornerIndexNetwork(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.trunk = nn.Sequential(*stage(3, width), *stage(width, 2 * width), *stage(2 * width, 4 * width),
                                       nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2))
            self.rank = nn.Linear(4 * width, len(RANK_TEXTS))
            self.suit = nn.Linear(4 * width, len(SUITS))

        def forward(self, crops: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            features = self.trunk(crops)
            return self.rank(features), self.suit(features)

    return CornerIndexNetwork()


def augment(batch: npt.NDArray[np.uint8], rng: np.random.Generator, camera: bool = True) -> npt.NDArray[np.uint8]:
    """Some crops grey, every crop's contrast and brightness changed a little (BGR, N×H×W×3); with ``camera``, some
    blurred, some with sensor noise and some with dead pixels."""
    out = batch.astype(np.float32)
    grey = rng.random(len(out)) < GREY_EXTRA
    out[grey] = out[grey].mean(axis=3, keepdims=True)
    if camera:
        for i in np.flatnonzero(rng.random(len(out)) < BLUR_SHARE):
            out[i] = cv2.GaussianBlur(out[i], (0, 0), float(rng.uniform(0.5, 1.5)))
        noisy = rng.random(len(out)) < NOISE_SHARE
        out[noisy] += rng.normal(0.0, rng.uniform(3, 12), out[noisy].shape)
        for i in np.flatnonzero(rng.random(len(out)) < SPECKLE_SHARE):
            dead = rng.random(out.shape[1:3]) < rng.uniform(0.002, 0.01)
            out[i][dead] = rng.choice([0.0, 255.0], (int(dead.sum()), 1))
    gain = rng.uniform(0.7, 1.3, (len(out), 1, 1, 1))
    offset = rng.uniform(-30, 30, (len(out), 1, 1, 1))
    return np.asarray(np.clip(out * gain + offset, 0, 255), np.uint8)


def load_split(cache: Path, split: str, copies: int, seed: int, designs: Path, limit: int | None,
               ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """The split's crops and labels, cut once and kept in ``cache``."""
    path = cache / f"corners-{split}-{copies}-{seed}-{limit}.npz"
    if path.exists():
        saved = np.load(path)
        return saved["crops"], saved["labels"]
    crops, labels = design_corner_crops(split, copies, seed, designs, limit)
    cache.mkdir(parents=True, exist_ok=True)
    np.savez(path, crops=crops, labels=labels)
    return crops, labels


def accuracy(network: Any, crops: npt.NDArray[np.uint8], labels: npt.NDArray[np.int64]) -> tuple[float, float]:
    """The shares of ``crops`` whose rank, and whose suit, the network names right."""
    import torch

    network.eval()
    right = np.zeros(2)
    with torch.no_grad():
        for start in range(0, len(crops), 512):
            ranks, suits = network(torch.from_numpy(to_tensor(list(crops[start:start + 512]))))
            truth = labels[start:start + 512]
            right += [(ranks.argmax(1).numpy() == truth[:, 0]).sum(), (suits.argmax(1).numpy() == truth[:, 1]).sum()]
    rank, suit = right / max(len(crops), 1)
    return float(rank), float(suit)


def train(out: Path, copies: int, epochs: int, seed: int, designs: Path, limit: int | None, threads: int,
          cache: Path, width: int = 32, camera: bool = True) -> dict[str, Any]:
    import torch

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    train_crops, train_labels = load_split(cache, "train", copies, seed, designs, limit)
    valid_crops, valid_labels = load_split(cache, "valid", 2, seed + 1, designs, limit)
    out.mkdir(parents=True, exist_ok=True)
    shown = rng.permutation(len(train_crops))[:96]
    write_examples(out / "train-examples.png", train_crops[shown], train_labels[shown], 96)
    network = build_network(width)
    steps = epochs * ((len(train_crops) + 63) // 64)
    optimiser = torch.optim.AdamW(network.parameters(), lr=2e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    loss_of = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    history: list[dict[str, float]] = []
    best = -1.0
    for epoch in range(epochs):
        began = time.monotonic()
        network.train()
        order = rng.permutation(len(train_crops))
        total = 0.0
        for start in range(0, len(order), 64):
            chosen = order[start:start + 64]
            ranks, suits = network(torch.from_numpy(to_tensor(list(augment(train_crops[chosen], rng, camera)))))
            truth = torch.from_numpy(train_labels[chosen])
            loss = loss_of(ranks, truth[:, 0]) + loss_of(suits, truth[:, 1])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss) * len(chosen)
        rank, suit = accuracy(network, valid_crops, valid_labels)
        history.append({"epoch": epoch + 1, "loss": round(total / len(order), 4), "valid_rank": round(rank, 4),
                        "valid_suit": round(suit, 4), "seconds": round(time.monotonic() - began, 1)})
        print(json.dumps(history[-1]), flush=True)
        if rank + suit > best:
            best = rank + suit
            torch.save(network.state_dict(), out / "best.pt")
    network.load_state_dict(torch.load(out / "best.pt"))
    export(network, out / CORNER_INDEX_MODEL)
    kept = max(history, key=lambda h: h["valid_rank"] + h["valid_suit"])
    summary = {"train_crops": len(train_crops), "valid_crops": len(valid_crops), "width": width, "camera": camera,
               "kept": kept, "history": history}
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def export(network: Any, path: Path) -> None:
    import torch

    network.eval()
    width, height = CORNER_CROP
    torch.onnx.export(network, (torch.zeros(1, 3, height, width),), str(path), input_names=["crops"],
                      output_names=["ranks", "suits"],
                      dynamic_axes={"crops": {0: "n"}, "ranks": {0: "n"}, "suits": {0: "n"}},
                      opset_version=17, dynamo=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("runs/vision/corner-index"))
    parser.add_argument("--copies", type=int, default=3, help="times each design image is laid")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--designs", type=Path, default=DEFAULT_DESIGNS)
    parser.add_argument("--limit", type=int, default=None, help="the first N design images only (a smoke run)")
    parser.add_argument("--width", type=int, default=32, help="the first stage's channels (the others 2× and 4×)")
    parser.add_argument("--no-camera-faults", dest="camera", action="store_false",
                        help="train without the blur, sensor noise and dead pixels")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=Path(".cache/vision/corner-index"),
                        help="where the cut crops are kept")
    args = parser.parse_args(argv)
    for name in ("copies", "epochs", "threads", "width"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be 1 or more (got {getattr(args, name)})")
    if not (args.designs / "cards.csv").exists():
        parser.error(f"{args.designs} has no cards.csv: point --designs at the card-designs folder")
    summary = train(args.out, args.copies, args.epochs, args.seed, args.designs, args.limit, args.threads, args.cache,
                    args.width, args.camera)
    kept = summary["kept"]
    print(f"kept epoch {kept['epoch']}: rank {kept['valid_rank']:.3f}, suit {kept['valid_suit']:.3f} on card-designs' "
          f"valid corners; model: {args.out / CORNER_INDEX_MODEL}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
