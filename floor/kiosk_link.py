"""What the kiosk process uses of the floor: the shipper in a background thread and the floor as an anchor sink
beside the anchor file. Imports nothing of the kiosk (the kiosk imports this)."""

from __future__ import annotations

from pathlib import Path

from engine.phrases import join
from floor.anchors import FloorAnchors
from floor.shipper import Shipper, ShipperThread
from journal.anchors import Anchor, AnchorError, AnchorSink, Signer
from journal.words import phrase_of


class BothAnchors:
    """Every anchor to each sink (the anchor file and the floor); one that fails does not stop the others."""

    def __init__(self, *sinks: AnchorSink) -> None:
        self.sinks = sinks

    @property
    def where(self) -> str:
        return " and ".join(sink.where for sink in self.sinks)

    def send(self, anchor: Anchor, sign: Signer) -> None:
        problems = []
        for sink in self.sinks:
            try:
                sink.send(anchor, sign)
            except AnchorError as error:
                problems.append(phrase_of(error))
        if problems:
            raise AnchorError(join("; ", problems))  # each sink's phrase kept: the kiosk's screen words them


def floor_anchors(dsn: str, file_sink: AnchorSink | None) -> AnchorSink:
    floor = FloorAnchors(dsn)
    return floor if file_sink is None else BothAnchors(file_sink, floor)


def start_shipping(journal_path: str | Path, dsn: str) -> ShipperThread:
    """Start shipping the kiosk's journal in the background; ``thread.shipper.status()`` says how it goes and
    ``thread.stop()`` ends it. Never raises for an unreachable floor: it retries by itself."""
    thread = ShipperThread(Shipper(journal_path, dsn))
    thread.start()
    return thread
