"""The corner look: an unfamiliar deck's readings checked against the cards its index corners name.

The whole-card readings of a deck the models never saw are doubted (their index patches are cut by the card's
shape and read by a network that learnt drawn decks). The corner reader (``vision.corner_reader``) finds index
corners wherever they show and reads each rank with a pretrained OCR model: a second, independent look. Where the
two agree on rank and suit (the suit checked by the ink's colour too), the reading stands unflagged; where a sure
corner inside a reading's box reads another rank, the reading takes that rank and keeps its suit (the OCR's rank is
the surer; the reading's suit, from face and index together, the surer of the suits), still flagged: two looks
disagreed, and marked ``duplicate`` too where another box reads the card it was renamed to (unless one box lies
inside the other: the card boxed twice, the two readings made one). A sure corner no
reading claims is a card of its own (flagged ``partly_covered``: only its corner was seen). Corners count only when
the rank is sure (the OCR and the corner index reader together) and so is the suit.

Where the corner index reader read it (``vision.corner_index``: a network of its own that learnt real designs'
corners), a sure corner is the surer look altogether: a reading it contradicts takes the corner's card, rank and
suit, and one it confirms is cleared even in a grey picture. With the index reader's suit instead (a model folder
without the corner index reader), only the rank is taken, and the ink's colour must confirm the suit.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Sequence

from engine.cards import Card
from vision.corner_reader import CornerReading
from vision.detection import (
    DUPLICATE,
    LOW_CONFIDENCE,
    PARTLY_COVERED,
    Detection,
    box_area,
    covered_share,
    one_card_twice,
    union_box,
)
from vision.reader_classes import card_of_class_name


def sure_corners(corners: Sequence[CornerReading], rank_sure: float, suit_sure: float) -> list[CornerReading]:
    return [c for c in corners if c.rank_sure >= rank_sure and c.suit_sure >= suit_sure and c.card[:-1]]


def corners_inside(detection: Detection, corners: Sequence[CornerReading], share: float) -> list[CornerReading]:
    """The corners lying at least ``share`` inside the reading's box."""
    return [c for c in corners if covered_share(c.box, detection.box) >= share]


def merge_renamed_twins(readings: list[Detection], renamed: set[Card], inside_share: float) -> list[Detection]:
    """Two readings of a card the corner look renamed a reading to, one box ``inside_share`` inside the other, made
    one: the card boxed twice (a whole card and a part of it), now read alike. The one reading takes the union box,
    the surer confidence and both readings' flags."""
    out = list(readings)
    merged = True
    while merged:
        merged = False
        for i, j in itertools.combinations(range(len(out)), 2):
            a, b = out[i], out[j]
            if a.card != b.card or a.card not in renamed or not one_card_twice(a.box, b.box, inside_share):
                continue
            larger = a if box_area(a.box) >= box_area(b.box) else b
            out[i] = dataclasses.replace(larger, box=union_box(a.box, b.box),
                                         confidence=max(a.confidence, b.confidence), flags=a.flags | b.flags)
            del out[j]
            merged = True
            break
    return out


def apply_corner_look(detections: Sequence[Detection], corners: Sequence[CornerReading], *, rank_sure: float,
                      suit_sure: float, inside: float, new_cards: bool, same_card: float = 1.0) -> list[Detection]:
    """``detections`` checked against the sure ``corners`` (see the module's text)."""
    sure = sure_corners(corners, rank_sure, suit_sure)
    claimed: set[int] = set()
    out = []
    renamed: set[Card] = set()
    for detection in detections:
        mine = corners_inside(detection, sure, inside)
        claimed.update(id(c) for c in mine)
        ranks = {c.card[:-1] for c in mine}
        if len(ranks) != 1:  # no sure corner, or corners of two cards (the box takes in a neighbour)
            out.append(detection)
            continue
        rank, reading = ranks.pop(), str(detection.card)
        surest_corner = max(mine, key=lambda c: c.sure)
        surest = surest_corner.sure
        # rank and suit both seen again, the suit by the ink's colour or by the corner index reader (a network of its
        # own, on the corner alone): two independent looks agree. (The index reader's suit, the fallback, is read much
        # as the reading's is, so their errors go together: it needs the ink too.)
        if any(c.card == reading and (c.ink_told or c.by_corner_index) for c in mine):
            out.append(dataclasses.replace(detection, confidence=max(detection.confidence, surest),
                                           flags=detection.flags - {LOW_CONFIDENCE}))
            continue
        if surest_corner.by_corner_index:
            # the corner, read by the OCR and the corner index reader, is the surer look (the whole-card readings of a
            # deck never seen are the doubted ones): the reading takes its card, still flagged (two looks disagreed)
            card = card_of_class_name(surest_corner.card)
        elif reading != "JK" and rank == reading[:-1]:  # only the suits disagree: the reading stands, doubted
            out.append(detection)
            continue
        else:
            # the OCR reads another rank: it is the surer of the two; the suit stays the reading's (read from the
            # face and the index together), unless the reading named no suit
            card = card_of_class_name(rank + reading[-1] if reading != "JK" else surest_corner.card)
        renamed.add(card)
        out.append(dataclasses.replace(detection, card=card, confidence=min(detection.confidence, surest),
                                       flags=detection.flags | {LOW_CONFIDENCE}))
    out = merge_renamed_twins(out, renamed, same_card)
    # a rename that names a card another box reads too: one deck holds it once, so both are in doubt
    copies = Counter(d.card for d in out)
    out = [dataclasses.replace(d, flags=d.flags | {DUPLICATE}) if d.card in renamed and copies[d.card] > 1 else d
           for d in out]
    if new_cards:
        named = {d.card for d in out}
        for corner in sure:
            card = card_of_class_name(corner.card)
            if id(corner) in claimed or card in named:
                continue
            named.add(card)
            out.append(Detection(card, min(max(corner.sure, 0.0), 1.0), corner.box, None,
                                 frozenset({PARTLY_COVERED})))
    return out
