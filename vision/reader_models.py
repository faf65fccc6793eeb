"""Running the reader's two networks: ONNX Runtime (the kiosk; no torch) or PyTorch from the Ultralytics checkpoints
(evaluation). Both use the same pre- and post-processing, so they read the same."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import InputError

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
REPO_ROOT = Path(__file__).resolve().parent.parent
# The shipped models; DEALER_ASSIST_VISION_MODELS points the reader at another folder (a deck of the casino's own).
DEFAULT_MODEL_DIR = Path(os.environ.get("DEALER_ASSIST_VISION_MODELS") or REPO_ROOT / "models")
MANIFEST = "reader.json"
DETECTOR = "card-detector"
CLASSIFIER = "card-classifier"
INDEX_READER = "card-index"  # optional: reads a card's index corners (vision.reader_index)
OUTLINE_MODEL = "card-outline"  # optional: each card's outline as an oriented box (vision.reader_outline)
STRAIGHT_CLASSIFIER = "card-straight"  # optional: reads cards straightened by their outlines (the straight look)
# optional: an index reader trained on hundreds of deck designs, for decks the card classifier never saw (index
# first, vision.reader_familiar); without it the index reader serves both
ANY_DECK_INDEX_READER = "card-index-any"
# optional: the card classifier fine-tuned on hundreds of procedural deck designs, the face reader of a deck the card
# classifier never saw (index first, vision.reader_familiar); without it the card classifier reads every deck
ANY_DECK_CLASSIFIER = "card-classifier-any"
# optional: boxes index corners (rank over suit) wherever they show, for the corner look (vision.corner_reader)
CORNER_DETECTOR = "card-corner"


@dataclass(frozen=True)
class ModelManifest:
    """``models/reader.json``: input sizes and the classifier's class names in its output order."""

    detector_imgsz: int
    classifier_imgsz: int
    class_names: tuple[str, ...]
    detector_max_imgsz: int = 640
    index_imgsz: int = 0  # 0: the folder has no index reader
    index_names: tuple[str, ...] = ()
    any_index_names: tuple[str, ...] = ()  # the any-deck index reader's classes (empty: none in the folder)
    index_deck: str = ""  # the deck profile the index reader learnt (an enrolled model's; empty: many designs)
    corner_imgsz: int = 0  # 0: the folder has no index-corner detector

    def detector_input_size(self, height: int, width: int) -> int:
        """The detector's square input for a frame: cards should reach it at about the size they were trained at
        (real photos of 640 px read at 320), so a big frame is shrunk at most by half, up to ``detector_max_imgsz``.
        """
        wanted = -(-max(height, width) // 2 // 32) * 32
        return int(min(self.detector_max_imgsz, max(self.detector_imgsz, wanted)))

    @classmethod
    def load(cls, folder: Path) -> ModelManifest:
        path = folder / MANIFEST
        try:
            data = json.loads(path.read_text())
            index = data.get("index") or {}
            any_index = (data.get("index_any") or {}) if index else {}  # read only beside an index reader
            if any_index and int(any_index.get("imgsz", 0)) != int(index.get("imgsz", 0)):
                raise InputError(f"{path}: the any-deck index reader must read patches of the index reader's size")
            for key, role, what in (("straight", STRAIGHT_CLASSIFIER, "straight classifier"),
                                    ("classifier_any", ANY_DECK_CLASSIFIER, "any-deck face reader")):
                other = data.get(key)
                if other is not None and list(other["names"]) != list(data["classifier"]["names"]):
                    raise InputError(f"{path}: the {what}'s classes are not the card classifier's, in the same "
                                     "order; export the two from runs on the same classes, or remove "
                                     f"{role}.onnx and its entry")
            return cls(int(data["detector"]["imgsz"]), int(data["classifier"]["imgsz"]),
                       tuple(str(n) for n in data["classifier"]["names"]),
                       int(data["detector"].get("max_imgsz", data["detector"]["imgsz"])),
                       int(index.get("imgsz", 0)), tuple(str(n) for n in index.get("names", ())),
                       tuple(str(n) for n in any_index.get("names", ())), str(index.get("deck", "")),
                       int((data.get("corner") or {}).get("imgsz", 0)))
        except FileNotFoundError as error:
            raise InputError(f"no card-reader model in {folder} (missing {MANIFEST}); run 'dealer-assist vision "
                             "export' after training, or point --models at a folder that has one") from error
        except InputError:
            raise
        except (KeyError, TypeError, ValueError, RecursionError) as error:
            raise InputError(f"{path} is not a valid card-reader manifest ({error})") from error


def letterbox(image: Image, size: int, stride: int = 0) -> tuple[Image, float, tuple[float, float]]:
    """Resize keeping the shape so the longer side is ``size``, padded with grey to a ``size`` square, or with
    ``stride`` only up to the next multiple of ``stride`` on each side; returns the scale and the padding."""
    h, w = image.shape[:2]
    scale = min(size / h, size / w)
    nw, nh = round(w * scale), round(h * scale)
    out_w, out_h = (-(-nw // stride) * stride, -(-nh // stride) * stride) if stride else (size, size)
    pad_x, pad_y = (out_w - nw) / 2, (out_h - nh) / 2
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR) if (nw, nh) != (w, h) else image
    top, left = round(pad_y - 0.1), round(pad_x - 0.1)
    out = cv2.copyMakeBorder(resized, top, out_h - nh - top, left, out_w - nw - left, cv2.BORDER_CONSTANT,
                             value=(114, 114, 114))
    return out, scale, (float(left), float(top))


def to_tensor(images: list[Image]) -> Floats:
    """BGR uint8 images (all one size) → float32 NCHW RGB in 0..1 (OpenCV's blob maker: a few times faster than
    numpy's stack, cast and transpose, the same numbers)."""
    return np.asarray(cv2.dnn.blobFromImages(images, 1.0 / 255.0, swapRB=True), np.float32)


def decode_detections(raw: Floats, conf: float, iou: float) -> tuple[Floats, Floats]:
    """Boxes (N x 4, xyxy, network input pixels) and scores from either output layout of a 1-class detector:
    end-to-end ``(1, K, 6)`` rows ``x1 y1 x2 y2 score class``, or raw ``(1, 5, A)`` ``cx cy w h score`` + NMS."""
    out = raw[0]
    if out.ndim == 2 and out.shape[-1] == 6:
        keep = out[:, 4] >= conf
        return out[keep, :4].astype(np.float32), out[keep, 4].astype(np.float32)
    preds = out.T  # A x (4 + nc)
    scores = preds[:, 4:].max(axis=1)
    keep = scores >= conf
    preds, scores = preds[keep], scores[keep]
    boxes = np.empty((len(preds), 4), np.float32)
    boxes[:, 0] = preds[:, 0] - preds[:, 2] / 2
    boxes[:, 1] = preds[:, 1] - preds[:, 3] / 2
    boxes[:, 2] = preds[:, 0] + preds[:, 2] / 2
    boxes[:, 3] = preds[:, 1] + preds[:, 3] / 2
    if len(boxes) == 0:
        return boxes, scores.astype(np.float32)
    xywh = [[float(b[0]), float(b[1]), float(b[2] - b[0]), float(b[3] - b[1])] for b in boxes]
    idx = np.array(cv2.dnn.NMSBoxes(xywh, scores.tolist(), conf, iou), dtype=np.int64).reshape(-1)
    order = idx[np.argsort(-scores[idx])]
    return boxes[order], scores[order].astype(np.float32)


class Backend(Protocol):
    name: str

    def detect_raw(self, batch: Floats) -> Floats: ...

    def classify(self, batch: Floats) -> Floats: ...

    def read_index(self, batch: Floats) -> Floats: ...

    def read_any_index(self, batch: Floats) -> Floats: ...

    @property
    def has_any_index_reader(self) -> bool: ...

    def outline_raw(self, batch: Floats) -> Floats: ...

    @property
    def has_index_reader(self) -> bool: ...

    @property
    def has_outline_model(self) -> bool: ...

    def classify_straight(self, batch: Floats) -> Floats: ...

    def classify_any(self, batch: Floats) -> Floats: ...

    @property
    def has_any_classifier(self) -> bool: ...


class OnnxBackend:
    """ONNX Runtime on the CPU: what the kiosk runs."""

    name = "onnxruntime"

    def __init__(self, folder: Path, threads: int = 2) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Waiting threads sleep instead of spinning: the kiosk shares its CPU with the UI and the camera.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._det = self._open(ort, folder / f"{DETECTOR}.onnx", options)
        self._cls = self._open(ort, folder / f"{CLASSIFIER}.onnx", options)
        index, outline = folder / f"{INDEX_READER}.onnx", folder / f"{OUTLINE_MODEL}.onnx"
        self._idx = self._open(ort, index, options) if index.exists() else None
        any_index = folder / f"{ANY_DECK_INDEX_READER}.onnx"
        self._any = self._open(ort, any_index, options) if any_index.exists() and self._idx is not None else None
        self._out = self._open(ort, outline, options) if outline.exists() else None
        straight = folder / f"{STRAIGHT_CLASSIFIER}.onnx"
        self._straight = self._open(ort, straight, options) if straight.exists() else self._cls
        any_face = folder / f"{ANY_DECK_CLASSIFIER}.onnx"
        self._any_cls = self._open(ort, any_face, options) if any_face.exists() else None

    @staticmethod
    def _open(ort: Any, path: Path, options: Any) -> Any:
        if not path.exists():
            raise InputError(f"missing model file {path}; run 'dealer-assist vision export'")
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def detect_raw(self, batch: Floats) -> Floats:
        return np.asarray(self._det.run(None, {self._det.get_inputs()[0].name: batch})[0], np.float32)

    def classify(self, batch: Floats) -> Floats:
        return self._run_classifier(self._cls, batch)

    def classify_straight(self, batch: Floats) -> Floats:
        """Cards straightened by their outlines, read by the straight classifier (the card classifier without one)."""
        return self._run_classifier(self._straight, batch)

    @property
    def has_any_classifier(self) -> bool:
        return self._any_cls is not None

    def classify_any(self, batch: Floats) -> Floats:
        """Crops read by the any-deck face reader (the card classifier where the folder has none)."""
        return self._run_classifier(self._cls if self._any_cls is None else self._any_cls, batch)

    @property
    def has_index_reader(self) -> bool:
        return self._idx is not None

    def read_index(self, batch: Floats) -> Floats:
        if self._idx is None:
            raise InputError("this model folder has no index reader (card-index.onnx)")
        return self._run_classifier(self._idx, batch)

    @property
    def has_any_index_reader(self) -> bool:
        return self._any is not None

    def read_any_index(self, batch: Floats) -> Floats:
        """The any-deck index reader's output (the index reader's when the folder has none)."""
        return self.read_index(batch) if self._any is None else self._run_classifier(self._any, batch)

    @property
    def has_outline_model(self) -> bool:
        return self._out is not None

    def outline_raw(self, batch: Floats) -> Floats:
        if self._out is None:
            raise InputError("this model folder has no outline model (card-outline.onnx)")
        return np.asarray(self._out.run(None, {self._out.get_inputs()[0].name: batch})[0], np.float32)

    @staticmethod
    def _run_classifier(session: Any, batch: Floats) -> Floats:
        name = session.get_inputs()[0].name
        static = session.get_inputs()[0].shape[0]
        if isinstance(static, int) and static > 0:  # a static batch size: run one at a time
            return np.concatenate([np.asarray(session.run(None, {name: batch[i : i + 1]})[0], np.float32)
                                   for i in range(len(batch))]) if len(batch) else np.zeros((0, 0), np.float32)
        return np.asarray(session.run(None, {name: batch})[0], np.float32)


class TorchBackend:
    """The Ultralytics checkpoints run by PyTorch, fed exactly what the ONNX models are fed."""

    name = "pytorch"

    def __init__(self, folder: Path, threads: int = 2) -> None:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # (only if torch is not loaded yet) see bench/vision.py
        import torch
        from ultralytics import YOLO

        torch.set_num_threads(threads)
        self._torch = torch
        self._det = self._load(YOLO, folder / f"{DETECTOR}.pt")
        self._cls = self._load(YOLO, folder / f"{CLASSIFIER}.pt")
        index, outline = folder / f"{INDEX_READER}.pt", folder / f"{OUTLINE_MODEL}.pt"
        self._idx = self._load(YOLO, index) if index.exists() else None
        any_index = folder / f"{ANY_DECK_INDEX_READER}.pt"
        self._any = self._load(YOLO, any_index) if any_index.exists() and self._idx is not None else None
        self._out = self._load(YOLO, outline) if outline.exists() else None
        straight = folder / f"{STRAIGHT_CLASSIFIER}.pt"
        self._straight = self._load(YOLO, straight) if straight.exists() else self._cls
        any_face = folder / f"{ANY_DECK_CLASSIFIER}.pt"
        self._any_cls = self._load(YOLO, any_face) if any_face.exists() else None

    @staticmethod
    def _load(yolo: Any, path: Path) -> Any:
        if not path.exists():
            raise InputError(f"missing model file {path}; train the reader or copy the shipped models")
        model = yolo(str(path)).model.float().eval()
        for module in model.modules():  # the one-to-many head + NMS, as exported to ONNX and as Ultralytics
            if getattr(module, "one2one_cv2", None) is not None:  # predicts; set before fusing, which drops the
                module.end2end = False  # head not chosen
        return model.fuse() if hasattr(model, "fuse") else model

    def _forward(self, model: Any, batch: Floats) -> Floats:
        with self._torch.inference_mode():
            out = model(self._torch.from_numpy(batch))
        if isinstance(out, (tuple, list)):
            out = out[0]
        if isinstance(out, dict):
            out = next(iter(out.values()))
        return np.asarray(out.cpu().numpy(), np.float32)

    def detect_raw(self, batch: Floats) -> Floats:
        return self._forward(self._det, batch)

    def classify(self, batch: Floats) -> Floats:
        if len(batch) == 0:
            return np.zeros((0, 0), np.float32)
        return self._forward(self._cls, batch)

    def classify_straight(self, batch: Floats) -> Floats:
        if len(batch) == 0:
            return np.zeros((0, 0), np.float32)
        return self._forward(self._straight, batch)

    @property
    def has_any_classifier(self) -> bool:
        return self._any_cls is not None

    def classify_any(self, batch: Floats) -> Floats:
        if len(batch) == 0:
            return np.zeros((0, 0), np.float32)
        return self._forward(self._cls if self._any_cls is None else self._any_cls, batch)

    @property
    def has_index_reader(self) -> bool:
        return self._idx is not None

    def read_index(self, batch: Floats) -> Floats:
        if self._idx is None:
            raise InputError("this model folder has no index reader (card-index.pt)")
        if len(batch) == 0:
            return np.zeros((0, 0), np.float32)
        return self._forward(self._idx, batch)

    @property
    def has_any_index_reader(self) -> bool:
        return self._any is not None

    def read_any_index(self, batch: Floats) -> Floats:
        """The any-deck index reader's output (the index reader's when the folder has none)."""
        if self._any is None or len(batch) == 0:
            return self.read_index(batch)
        return self._forward(self._any, batch)

    @property
    def has_outline_model(self) -> bool:
        return self._out is not None

    def outline_raw(self, batch: Floats) -> Floats:
        if self._out is None:
            raise InputError("this model folder has no outline model (card-outline.pt)")
        return self._forward(self._out, batch)


def open_backend(kind: str, folder: Path = DEFAULT_MODEL_DIR, threads: int = 2) -> Backend:
    if kind in ("onnx", "onnxruntime"):
        return OnnxBackend(folder, threads)
    if kind in ("torch", "pytorch", "ultralytics"):
        return TorchBackend(folder, threads)
    raise InputError(f"unknown inference backend {kind!r}; use 'onnx' or 'torch'")
