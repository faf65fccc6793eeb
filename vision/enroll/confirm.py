"""Confirm: the controller a screen drives to check a captured deck (plain Python; the kiosk renders its state).

The faces show in a grid sorted by identity (♠ ♥ ♦ ♣, ace to king, then the joker, then faces nobody has named), each
tile marked when it needs a look: proposed with low confidence, or unnamed. Touching a tile and picking a card fixes it
(the kiosk's card picker); a face that is not a card at all is dropped. Several faces of one card are several views
of it, more examples to learn from (each tile says how many views its card has). Missing cards are listed. The deck
is saved as the next version of its profile as soon as one face is named: a partial deck keeps what it has, and
its missing cards stay with the base model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.cards import Card
from engine.clock import Clock
from vision.enroll.profile import Completeness, DeckProfile, Draft, ProfileError, save_profile

OK = "ok"
LOOK = "look"  # proposed under the confidence threshold: the dealer should look at it
DUPLICATE = "duplicate"  # no longer given: more faces of one card are more views of it (``Tile.views``)
UNNAMED = "unnamed"
LOW_CONFIDENCE = 0.6


@dataclass(frozen=True)
class Tile:
    index: int
    card: Card | None
    proposed: Card | None
    confidence: float
    confirmed: bool
    state: str
    face: Path
    views: int = 1  # how many faces carry this tile's card (0 for an unnamed face)

    @property
    def label(self) -> str:
        return self.card.pretty if self.card is not None else "?"


class ConfirmController:
    """Confirming one deck's capture. Every change is saved to the draft at once (a restart loses nothing)."""

    def __init__(self, draft: Draft, low_confidence: float = LOW_CONFIDENCE) -> None:
        self.draft = draft
        self.low_confidence = low_confidence
        self._listeners: list[Callable[[], None]] = []

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every change (the screen redraws)."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        self.draft.save()
        for listener in self._listeners:
            listener()

    @property
    def check(self) -> Completeness:
        return self.draft.completeness()

    def tiles(self) -> list[Tile]:
        check = self.check
        tiles = []
        for face in self.draft.faces:
            if face.card is None:
                state = UNNAMED
            elif not face.confirmed and face.confidence < self.low_confidence:
                state = LOOK
            else:
                state = OK
            tiles.append(Tile(face.index, face.card, face.proposed, face.confidence, face.confirmed, state,
                              self.draft.face_path(face.index), check.views.get(face.card, 0) if face.card else 0))
        tiles.sort(key=lambda t: (t.card is None, t.card.sort_key() if t.card else (0, 0),
                                  t.card is not None and t.card.is_joker, t.index))
        return tiles

    def fix(self, index: int, card: Card | None) -> None:
        """The dealer says face ``index`` is ``card``; None drops the face (not a card, or a spoiled capture)."""
        face = self.draft.face(index)
        if card is None:
            self.draft.faces.remove(face)
        else:
            face.card = card
            face.confirmed = True
        self._changed()

    def confirm_all(self) -> None:
        """The dealer has looked at the grid and accepts every identity shown."""
        for face in self.draft.faces:
            if face.card is not None:
                face.confirmed = True
        self._changed()

    def set_joker(self, wanted: bool) -> None:
        """Whether this deck's profile must have a joker (Schmier decks do)."""
        self.draft.with_joker = wanted
        self._changed()

    def problems(self) -> list[str]:
        lines = self.check.problems()
        look = [t for t in self.tiles() if t.state == LOOK]
        if look:
            lines.append(f"{len(look)} face{'s' if len(look) != 1 else ''} proposed with low confidence: "
                         + " ".join(f"#{t.index}={t.label}" for t in look[:12]) + " (confirm or fix)")
        return lines

    @property
    def can_save(self) -> bool:
        """At least one face is named (a partial deck is saved as it is)."""
        return self.check.savable

    def save(self, clock: Clock | None = None) -> DeckProfile:
        """Accept every identity shown and save the named faces as the profile's next version; faces nobody named
        are left out (``DeckProfile.missing`` lists the cards it lacks)."""
        if not self.can_save:
            raise ProfileError("the deck cannot be saved yet: no face is named; name the faces first")
        self.confirm_all()
        return save_profile(self.draft, clock)
