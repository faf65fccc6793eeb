"""Every screen drawn in a real window under Xvfb in English, Vietnamese and Khmer, at 1280×800 and 1920×1080: the
words a dealer sees, measured on the widgets themselves. No English in Khmer or Vietnamese mode, no card named by
its code (AD) instead of its suit (A♦), no character the fonts cannot draw (an empty box), no touch target under
the kiosk's 72 px. One fresh kiosk process per size draws all screens in all languages; screenshots go to
artifacts/screenshots/languages/.
"""
# ruff: noqa: F811 - the Xvfb `display` fixture is imported from test_kiosk_ui

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SHOTS = REPO / "artifacts" / "screenshots" / "languages"
THIS = Path(__file__).resolve()

pytestmark = [pytest.mark.ui, pytest.mark.slow]

sys.path.insert(0, str(THIS.parent))
from test_kiosk_ui import display  # noqa: E402,F401 - display: the Xvfb fixture


def draw_every_screen(display: str, tmp_path: Path, size: str, driver: str) -> dict[str, Any]:
    out = tmp_path / f"{size}.json"
    env = dict(
        os.environ,
        DISPLAY=display,
        KIVY_NO_ARGS="1",
        KIOSK_TEST_OUT=str(out),
        KIOSK_SHOTS=str(SHOTS),
        KIVY_HOME=str(tmp_path / "kivy-home"),
        PYTHONPATH=str(REPO),
    )
    command = [sys.executable, "-m", "kiosk.testing", "--data", str(tmp_path / "data"), "--size", size,
               "--driver", f"{THIS}:{driver}", "--reader", "placed"]
    process = subprocess.run(command, cwd=REPO, env=env, capture_output=True, timeout=240)
    output = (process.stdout + process.stderr).decode(errors="replace")
    assert out.exists(), f"the driver wrote no result (exit {process.returncode}):\n{output[-4000:]}"
    result: dict[str, Any] = json.loads(out.read_text())
    assert not result.get("failed"), f"{result['failed']}\n{output[-3000:]}"
    return result


# ---- the driver (runs inside the kiosk process) -------------------------------------------------------------------
def _visible(app: Any) -> tuple[list[str], list[dict[str, Any]], list[str], list[str]]:
    """The texts of every label on the window (dialogs included), every touch target with its size, and the texts
    cut off by their label (taller than it even at the smallest size the label draws)."""
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label
    from kivy.uix.textinput import TextInput

    from kiosk.ui.widgets import TextLabel

    texts: list[str] = []
    clipped: list[str] = []
    shrunk: list[str] = []
    targets: list[dict[str, Any]] = []
    for top in Window.children:  # the first is the topmost: an open dialog, whose targets are the only ones to touch
        for widget in top.walk():
            if widget.opacity == 0 or widget.width <= 1 or widget.height <= 1:
                continue
            if widget is app.language_button:  # the next language's name, in its own script, on purpose
                continue
            if isinstance(widget, Label) and widget.text.strip():
                texts.append(re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", widget.text))
                if isinstance(widget, TextLabel) and widget.font_size < widget.full_size - 0.5:
                    shrunk.append(f"{widget.text[:50]!r} {widget.full_size:.0f} -> {widget.font_size:.0f} px")
                if isinstance(widget, TextLabel) and widget.texture_size[1] > widget.height + 2:
                    clipped.append(f"{widget.text[:50]!r} {widget.texture_size[1]:.0f} px high in {widget.height:.0f}")
                elif isinstance(widget, TextLabel) and widget.text_size[1] is not None:  # drawn cut to its box
                    natural = _natural_height(widget)
                    if natural > widget.height + 2:
                        clipped.append(f"{widget.text[:50]!r} {natural:.0f} px high, cut to {widget.height:.0f}")
            if (
                isinstance(widget, (ButtonBehavior, TextInput))
                and top is Window.children[0]
                and getattr(widget, "tappable", True)
            ):
                width, height = getattr(widget, "hit_size", widget.size)  # a small card takes taps around it
                targets.append({"what": type(widget).__name__, "text": getattr(widget, "text", "")[:40],
                                "width": round(width), "height": round(height)})
    return texts, targets, clipped, shrunk


def _natural_height(label: Any) -> float:
    """How high a label's text is when drawn in its width with no height limit (a label with a fixed text box, such
    as a top-aligned one, draws only what fits and its texture does not show the rest): laid out again by the same
    text provider with the same options, the label itself untouched."""
    drawn = label._label
    options = {name: value for name, value in drawn.options.items() if name != "text"}
    options["text_size"] = (label.width, None)
    again = type(drawn)(text=label.text, **options)
    again.refresh()
    return float(again.texture.size[1]) if again.texture is not None else 0.0


def _look(p: Any, name: str) -> Iterator[float]:
    yield 0.2
    language = p.app.catalogue.language
    shot = p.app.screenshot(os.environ["KIOSK_SHOTS"], f"{name}-{language}")
    texts, targets, clipped, shrunk = _visible(p.app)
    banner = p.app.banner.text if p.app.banner.opacity and p.app.banner.height > 0 else ""
    p.result["screens"].append({"name": name, "language": language, "shot": shot, "texts": texts,
                                "targets": targets, "banner": banner, "clipped": clipped,
                                "shrunk": shrunk})


def _set_language(app: Any, language: str) -> None:
    while app.catalogue.language != language:
        app.language_button.trigger_action(0)


def _sign_in(p: Any, screen: Any, name: str) -> Iterator[float]:
    if screen.unlock_button.disabled:  # signed in already
        return
    screen.unlock_button.trigger_action(0)
    yield 0.3
    for key in "2468":
        screen.dialog.keys[key].trigger_action(0)
    yield from _look(p, name + "-pin")
    screen.dialog.keys["OK"].trigger_action(0)
    yield 0.3


def _card_taps(table: Any) -> dict[str, bool]:
    """Where a touch lands around a seat's small cards: beside the drawing, and just past the midpoint of two cards."""
    first, second = next(iter(table.seat_tiles.values())).high.place.cards[:2]
    x, y = first.to_window(first.x, first.center_y)
    margin = (first.hit_size[0] - first.width) / 2
    (x1, _), (x2, _) = first.to_window(*first.center), second.to_window(*second.center)
    middle = (x1 + x2) / 2

    def lands(card: Any, point: tuple[float, float]) -> bool:
        return bool(card.collide_point(*card.to_widget(*point, relative=False)))

    return {
        "left of the first card's drawing": margin > 1 and lands(first, (x - margin + 1, y)),
        "a little left of the middle, first": lands(first, (middle - 2, y)) and not lands(second, (middle - 2, y)),
        "a little right of the middle, second": lands(second, (middle + 2, y)) and not lands(first, (middle + 2, y)),
    }


def drive_every_screen(app: Any, games: bool = True) -> Iterator[float]:
    sys.path.insert(0, str(THIS.parent))
    from test_kiosk_ui import Probe, play_house_and_seats  # the round driver's own helpers

    p = Probe(app)
    p.result["screens"] = []
    p.result["factor"] = app.scale.factor
    p.result["size"] = p.size
    yield from p.until(
        "both devices up", lambda: all(app.runtime.devices.links[n].health.value == "ok" for n in ("shaker", "panel"))
    )
    app.runtime.devices.press("CALL")  # the panel's CALL: a banner until a supervisor signs in
    yield from p.until("the supervisor called", lambda: app.runtime.supervisor_called)
    for language in ("en", "vi", "km"):
        _set_language(app, language)
        yield from _look(p, "table-called")
    table = p.table
    if games:  # a round to its results (the larger size draws the screens around it only: the test stays short)
        app.runtime.devices.press("SHAKE")
        yield from p.until("the dice", lambda: p.controller.phase.value == "house")
        yield from play_house_and_seats(p)
        _rare_recall_states(app)
    for language in ("en", "vi", "km"):
        _set_language(app, language)
        if games:
            yield from _look(p, "table-results")
            p.result.setdefault("card_taps", _card_taps(table))
            tile = next(iter(table.seat_tiles.values()))
            tile.result.trigger_action(0)
            yield from _look(p, "results-why")
            tile.dialog.ok.trigger_action(0)
            table.buttons["void"].trigger_action(0)
            yield from _look(p, "void")
            table.dialog.dismiss(animation=False)
        app.nav_buttons["camera"].trigger_action(0)
        yield from _look(p, "camera")
        app.nav_buttons["supervisor"].trigger_action(0)
        sup = app.screens["supervisor"]
        yield from _sign_in(p, sup, "supervisor")
        sup.verify_button.trigger_action(0)
        yield from _look(p, "supervisor")
        if games:  # the recall's road, and a frame zoomed into
            p.result.setdefault("road", {})[language] = [tile.text for tile in sup.road.tiles]
            frames = sup.recall_frames
            frames.enlarge(next(thumb for thumb in frames.thumbs if thumb.image is not None))
            dialog = frames.dialog
            yield 0.2  # laid out
            dialog.zoom_in.trigger_action(0)
            dialog.zoom_in.trigger_action(0)
            yield from _look(p, "frame-zoomed")
            zoomed = dialog.zoomed.scale
            for _ in range(3):
                dialog.zoom_out.trigger_action(0)
            p.result.setdefault("zoom", {})[language] = [round(zoomed, 2), round(dialog.zoomed.scale, 2)]
            dialog.close_button.trigger_action(0)
        app.nav_buttons["setup"].trigger_action(0)
        if games:  # a round is open: SAVE is refused, and says why in the screen's language
            setup = app.screens["setup"]
            yield from _sign_in(p, setup, "setup")
            setup.save_button.trigger_action(0)
        yield from _look(p, "setup")
        sup.lock()
        app.nav_buttons["table"].trigger_action(0)
        yield 0.2
    if games:
        table.buttons["confirm"].trigger_action(0)
        yield from p.until("closed", lambda: p.controller.phase.value == "closed")
        for language in ("en", "vi", "km"):
            _set_language(app, language)
            yield from _look(p, "table-closed")
        setup = app.screens["setup"]
        for game in ("samloc", "schmier"):
            app.nav_buttons["setup"].trigger_action(0)
            yield from _sign_in(p, setup, "setup")
            setup.value_buttons["game"].trigger_action(0)
            setup.save_button.trigger_action(0)
            yield 0.3
            app.nav_buttons["table"].trigger_action(0)
            yield 0.3
            for language in ("en", "vi", "km"):
                _set_language(app, language)
                yield from _look(p, f"table-{game}")
            shown = app.manager.current_screen
            assert shown.name == f"table-{game}", f"the table shows {shown.name} after choosing {game}: {setup.message}"
            shown.buttons["start"].trigger_action(0)  # a hand in play, as a dealer
            yield 0.5
            for language in ("en", "vi", "km"):
                _set_language(app, language)
                yield from _look(p, f"table-{game}-playing")
            app.runtime.controller.command("void", reason="misdeal")  # the set-up changes games between hands only
            yield 0.3
            setup.lock()
    p.finish()


def _rare_recall_states(app: Any) -> None:
    """What the supervisor's recall then shows besides the usual: a flag (the dice journaled twice in the round), a
    frame thumbnail with no picture (pruned by the retention settings, as journaled), and the round's evidence kept
    for a dispute (as KEEP FOR A DISPUTE journals it)."""
    from journal.events import DiceRolled, EvidencePruned
    from journal.retention import hold
    from journal.words import HOLD_DISPUTE

    journal = app.runtime.journal
    round_id = journal.open_round_id
    journal.append(DiceRolled(dice=(1, 2, 3), shake=99))
    cited = [e.payload["frame"] for e in journal.entries(round_id=round_id, kinds=["cards_read"]) if e.payload["frame"]]
    journal.append(EvidencePruned((cited[0],), (round_id,), "older than 30 days"))
    journal.evidence.path(cited[0]).unlink()
    hold(journal, round_id, by="S7", reason=HOLD_DISPUTE)


def drive_bai_buu_screens(app: Any) -> Iterator[float]:
    yield from drive_every_screen(app, games=False)


# ---- the checks ----------------------------------------------------------------------------------------------------
# Data shown as it is in every language: a port's or a file's path.
def _without_known(text: str) -> str:
    return re.sub(r"\S*/\S*", "", text)


def _check(result: dict[str, Any]) -> None:
    from test_kiosk_card_words import CARD_CODE
    from test_kiosk_languages import english_words

    from kiosk.ui.shaped_text import missing_glyphs

    minimum = 72 * result["factor"] - 0.5
    problems: list[str] = []
    seen_languages = {screen["language"] for screen in result["screens"]}
    assert seen_languages == {"en", "vi", "km"}
    names = [screen["name"] for screen in result["screens"]]
    if "table-closed" in names:  # the full run (1280×800) plays hands of the other games too
        assert "table-samloc-playing" in names and "table-schmier-playing" in names
    called = {screen["language"]: screen["banner"] for screen in result["screens"] if screen["name"] == "table-called"}
    assert called == {"en": "SUPERVISOR CALLED", "vi": "ĐÃ GỌI GIÁM SÁT", "km": "បានហៅអ្នកត្រួតពិនិត្យ"}
    assert all(not screen["banner"] for screen in result["screens"] if screen["name"] == "supervisor")
    # the table's own display (no alert showing): limits, this round's totals, then the house's last rounds
    table_lines = {(screen["name"], screen["language"]): " ".join(screen["texts"]) for screen in result["screens"]}
    if ("table-closed", "en") in table_lines:
        assert "Limits 10–1000" in table_lines[("table-results", "en")]
        results_texts = next(screen["texts"] for screen in result["screens"] if screen["name"] == "table-results")
        assert any(re.fullmatch(r"HIGH\n(\d points?|pair of \w+|Kong|two pictures)", text) for text in results_texts)
        assert "This round: bets 60, paid " in table_lines[("table-results", "en")]
        assert re.search(r"House, last rounds: #1 [+-]\d+", table_lines[("table-closed", "en")])
        assert "កម្រិតភ្នាល់ 10–1000" in table_lines[("table-closed", "km")]
    if ("table-closed", "en") in table_lines:  # the recall's flag and its pruned frame, in each language
        for language, flag, pruned, held in (
                ("en", "FLAG: the shaker's dice", "pruned 20", "Frames kept for a dispute, by S7"),
                ("vi", "CHÚ Ý: xúc xắc", "đã xoá 20", "Ảnh bằng chứng giữ lại cho tranh chấp, bởi S7"),
                ("km", "ប្រយ័ត្ន: ឌីស", "បានលុប 20", "រូបភស្តុតាងរក្សាទុកសម្រាប់ជម្លោះ ដោយ S7")):
            shown = table_lines[("supervisor", language)]
            assert flag in shown and pruned in shown and held in shown, (language, shown)
            assert "dealer-assist-sim" not in shown, "a device named by its pseudo-terminal's path"  # by what it is
    if "table-closed" in names:  # SAVE while a round is open: refused in the screen's language
        from kiosk.i18n import Catalogue

        for screen in result["screens"]:
            if screen["name"] == "setup":
                assert Catalogue(screen["language"]).text("setup.round_open") in screen["texts"], screen["texts"]
    for screen in result["screens"]:  # the PIN pad's OK key in the screen's words ("OK" is too short for the check)
        if screen["name"].endswith("-pin"):
            from kiosk.i18n import Catalogue

            assert Catalogue(screen["language"]).text("button.ok") in screen["texts"], screen["texts"]
    if "zoom" in result:  # ZOOM + twice, then ZOOM − back to the whole frame; the road shows the open round
        assert result["zoom"] == {language: [2.25, 1.0] for language in ("en", "vi", "km")}
        assert result["road"]["en"] == ["#1\nOPEN"] and result["road"]["km"] == ["#1\nកំពុងបើក"]
    if "card_taps" in result:  # a seat's 50 px cards take taps over 72 px, a shared strip going to the nearer card
        assert all(result["card_taps"].values()), result["card_taps"]
    for screen in result["screens"]:
        where = f"{screen['name']} ({screen['language']})"
        for text in screen["texts"]:
            boxes = missing_glyphs(text)
            if boxes:
                problems.append(f"{where}: no glyph for {sorted(boxes)} in {text!r}")
            if CARD_CODE.search(_without_known(text)):
                problems.append(f"{where}: a card named by its code, not its suit, in {text!r}")
            english = english_words(_without_known(text))
            if screen["language"] != "en" and english:
                problems.append(f"{where}: English {english} in {text!r}")
        problems += [f"{where}: text cut off: {line}" for line in screen["clipped"]]
        if screen["language"] == "km":  # Khmer's rows are made taller for its marks, its text kept at full size
            problems += [f"{where}: text shrunk to fit: {line}" for line in screen["shrunk"]]
        for target in screen["targets"]:
            if min(target["width"], target["height"]) < minimum:
                problems.append(f"{where}: {target['what']} {target['text']!r} is {target['width']}×"
                                f"{target['height']} px, under {minimum:.0f}")
    report = sorted(set(problems))
    (SHOTS / f"problems-{result['size']}.txt").write_text("\n".join(report) + "\n")
    assert not report, "\n".join(report)


def test_every_screen_in_three_languages_at_1280x800(display: str, tmp_path: Path) -> None:
    _check(draw_every_screen(display, tmp_path, "1280x800", "drive_every_screen"))


def test_the_screens_around_the_table_in_three_languages_at_1920x1080(display: str, tmp_path: Path) -> None:
    _check(draw_every_screen(display, tmp_path, "1920x1080", "drive_bai_buu_screens"))
