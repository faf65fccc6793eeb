"""The recall's road: the recalled rounds in a row, oldest first, as a baccarat road shows a shoe's results, each a
tile coloured by what the house did (took: green, paid: red, even: blue, voided: grey, still open: yellow) with the
round's number and the house's net."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from kiosk.i18n import Catalogue
from kiosk.ui import theme
from kiosk.ui.widgets import TextLabel, paint_background

TILE_WIDTH = 92


@dataclass(frozen=True)
class RoadRound:
    round_id: int
    outcome: str
    """``settled``, ``voided`` or ``open``, as the recall's summary says."""
    house_net: int | None


def tile_colour(road: RoadRound) -> theme.RGBA:
    if road.outcome == "voided":
        return theme.BUTTON_COLOURS["disabled"]
    if road.outcome != "settled" or road.house_net is None:
        return theme.PROMPT
    if road.house_net > 0:
        return theme.GOOD
    return theme.ALERT if road.house_net < 0 else theme.OUTCOME_COLOURS["push"]


class RecallRoad(BoxLayout):
    """One tile per recalled round, oldest on the left; nothing while the screen is locked."""

    def __init__(self, scale: theme.Scale, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", spacing=scale.px(4), size_hint_y=None, height=0, **kwargs)
        self.scale = scale
        self.tiles: list[TextLabel] = []
        self.shown: tuple[tuple[RoadRound, ...], str] | None = None

    def show(self, rounds: Sequence[RoadRound], catalogue: Catalogue) -> None:
        shown = (tuple(rounds), catalogue.language)
        if shown == self.shown:  # the screen refreshes at every tick: draw again only what changed
            return
        self.shown = shown
        self.clear_widgets()
        self.tiles = []
        for road in rounds:
            if road.outcome == "settled" and road.house_net is not None:
                what = f"{road.house_net:+d}"
            else:
                what = catalogue.text(f"sup.status.{road.outcome}") if road.outcome in ("open", "voided") else ""
            tile = TextLabel(text=f"#{road.round_id}\n{what}", font_size=self.scale.font(16), bold=True,
                             halign="center", color=theme.CARD_BLACK, size_hint_x=None,
                             width=self.scale.px(TILE_WIDTH))
            paint_background(tile, tile_colour(road), radius=self.scale.px(6))
            tile.road = road  # type: ignore[attr-defined]
            self.add_widget(tile)
            self.tiles.append(tile)
        self.height = self.scale.px(58) if self.tiles else 0  # two lines, Khmer included

    def clear(self) -> None:
        self.show((), Catalogue())
