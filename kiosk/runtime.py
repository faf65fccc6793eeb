"""The kiosk wired up: config → journal, devices, camera, the round controller, the demo croupier.

``KioskRuntime.tick()`` is the one place where outside events reach the controllers: device events from the
serial queue, the camera's stable reads, the shaker timeout. The runtime knows the three games only as
``TableController``s (``kiosk.controller.table``), each behind the gate that stops play while the journal has
failed its check; ``controller`` is the one of the game the table plays now. The Kivy app calls ``tick()`` 20 times
a second; tests and the benchmark call it directly.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.clock import Clock
from engine.phrases import join
from journal import Journal, JournalError
from journal.clock import SystemClock
from journal.errors import JournalCorrupted, JournalKeyError, JournalVersionError
from journal.events import Event, JournalChecked, Note, SettingsChanged, SupervisorAdded
from journal.store import Recovery
from journal.words import phrase_of
from kiosk.adapters import Camera, Devices
from kiosk.config import KioskConfig, write_config
from kiosk.controller.games import TableParts, make_tables
from kiosk.controller.table import DiceTable, GatedTable, TableController
from kiosk.controller.view import DeviceHealth, Health, Refused
from kiosk.i18n import Catalogue, Msg
from kiosk.journal_place import (
    anchor_sink,
    anchors_problem,
    device_keys_path,
    is_production,
    key_path,
    placement_problems,
    recover_anchored,
    start_floor_shipping,
)
from kiosk.memory import TRIM_EVERY_S, return_freed_memory
from kiosk.releases import ReleaseWatch
from kiosk.supervisors import DEALER_EVENTS, SignInAnswer, SignInDesk, hash_pin, pin_problem, supervisor_id_problem

STOPPED_JOURNAL = "while-stopped"
"""Folder (in the data folder) of the journal that records supervisors' actions while the kiosk's journal is
refused: who signed in, who checked it. The refused journal itself is never written to (it is evidence)."""


CLOCK_CHECK_EVERY_S = 30.0
"""How often the clock's synchronisation and the release made current are looked at."""

PRUNE_EVERY_S = 600.0
"""How often the evidence retention settings are applied while the kiosk runs (and once at start)."""


class KioskRuntime:
    def __init__(
        self,
        config: KioskConfig,
        data_dir: Path,
        *,
        clock: Clock | None = None,
        autoplay: bool = False,
        read: Any = None,
        config_path: Path | None = None,
        demo_seed: int | None = None,
        demo_pace: float = 1.0,
    ) -> None:
        self.config = config
        self.config_path = config_path
        self.clock: Clock = clock or SystemClock()
        self.catalogue = Catalogue(config.language)
        self.game = config.game
        data_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir = data_dir
        self._stopped_journal: Journal | None = None
        self.journal_readable = True
        """False when the journal could not even be opened: recall has nothing to read."""
        try:
            self.journal = Journal.open(
                data_dir / "journal.sqlite3",
                key_path(config, data_dir), anchors=anchor_sink(config),
                kiosk_id=config.kiosk_id,
                table_id=config.table_id,
                clock=self.clock,
            )
            self.recovery = recover_anchored(self.journal)  # a journal rolled back or rewritten shows only there
        except (JournalCorrupted, JournalKeyError, JournalVersionError) as error:
            # the kiosk opens on its stop screen with the reason, so a supervisor can sign in and look
            self.journal = self.stopped_journal()
            self.journal_readable = False
            self.recovery = Recovery(False, 0, phrase_of(error))  # the journal's phrase: worded on screen
        self.blocked: Msg | None = None
        if not self.recovery.sound:
            self.blocked = Msg("sup.verify_bad", {"error": self.recovery.problem or "unknown problem"})
        self.journal_place = placement_problems(config, data_dir)[0] if is_production(config) else []
        """What a production config must not do with the key and anchors (``--check`` refuses it); shown."""
        self.shipping = start_floor_shipping(config, data_dir) if self.journal_readable else None
        """The journal shipped to the floor in the background (``journal.floor``): ``.shipper.status()``."""
        self.desk = SignInDesk(lambda: self.config.supervisors, self.clock, self.record_supervisor)
        if self.blocked is None:  # a restart does not wipe out a lock-out: the journal has the wrong tries
            self.desk.resume(wrong_tries_in_a_row(self.journal))
        self.dealers = SignInDesk(lambda: self.config.dealers, self.clock, self.record_supervisor,
                                  idle_lock_s=float("inf"), events=DEALER_EVENTS)
        """The dealer at the table (ID and PIN on the screen): the journal writes their ID into every round."""
        if self.blocked is None:  # the dealer the journal last signed in deals on after a restart
            self.dealers.who = self.journal.dealer or None
            self.dealers.resume(wrong_tries_in_a_row(self.journal, "dealer"))
        if self.blocked is None and _model_shipped():
            self._record_model_in_use()
        if self.blocked is None:
            self._record_release()
        self.devices = Devices(config, device_keys_path(config, data_dir))
        self.camera = Camera(config, self.clock, read)
        self.controllers: dict[str, TableController] = make_tables(
            TableParts(config, self.journal, self.clock, self.devices.shake, self.camera.forget)
        )
        self.dice_table: DiceTable = next(t for t in self.controllers.values() if isinstance(t, DiceTable))
        """The Bài Bửu table, played now or not: the shaker's results and the set-up screen's changes go to it."""
        self.tables = {game: GatedTable(table, lambda: self.blocked) for game, table in self.controllers.items()}
        """Every game's table behind the journal gate: what the screens and the panel reach."""
        open_round = self.recovery.open_round
        if open_round is not None and open_round.game in self.tables:
            self.tables[open_round.game].resume(open_round)
            if self.blocked is None:
                self.game = open_round.game
        self.demo: Any = None
        if self.camera.synthetic:
            from kiosk.demo import DemoCroupier

            press = self.devices.press if autoplay and self.devices.sim is not None else None
            self.demo = DemoCroupier(self.dice_table, self.camera.source, self.clock.monotonic, press, seed=demo_seed,
                                     pace=demo_pace)
        self.card_demos: dict[str, Any] = {}
        """With ``autoplay`` on the synthetic felt: the croupier of each card game (``kiosk.demo_cards``)."""
        if self.camera.synthetic and autoplay:
            from kiosk.demo_cards import CardCroupier

            self.card_demos = {game: CardCroupier(game, self.tables[game], self.camera.source, self.clock.monotonic,
                                                  seed=demo_seed) for game in ("samloc", "schmier")}
        self._camera_frame = -1
        self._prune_due = self.clock.monotonic()  # evidence retention: at start, then every PRUNE_EVERY_S
        self.clock_synchronised: bool | None = None
        """The system clock's NTP state as last asked (``kiosk.clock_sync``); False shows on the status bar."""
        self._clock_check_due = self.clock.monotonic()
        self._trim_due = self.clock.monotonic() + TRIM_EVERY_S
        self.release_watch = ReleaseWatch.from_environment()
        self.restart_for: str | None = None
        """A new release made current (``kiosk update`` / ``rollback``) that this kiosk stops for, between rounds,
        for systemd to start it again on the new one."""
        self.evidence_note: str | None = None
        self.evidence_words: Msg | None = None
        """``evidence_note`` as the supervisor's screen words it, in its language."""
        self.supervisor_called = False
        self.camera.start()

    @property
    def controller(self) -> TableController:
        """The controller of the game the table plays now."""
        return self.controllers[self.game]

    @property
    def table(self) -> GatedTable:
        """The table of the game played now, behind the journal gate."""
        return self.tables[self.game]

    # ---- the loop ----------------------------------------------------------------------------------------
    def tick(self) -> None:
        from hardware import ButtonPressed, DeviceFault, DiceFault, DiceRolled

        self.desk.expire()
        for event in self.devices.drain():
            if self.blocked is not None:
                continue
            if isinstance(event, DeviceFault):
                self._record_device_trust(event)
                continue
            if isinstance(event, DiceRolled) and event.source == "shaker":
                self.dice_table.on_dice(event.shake_id, event.values)
            elif isinstance(event, DiceFault) and event.source == "shaker":
                self.dice_table.on_dice_fault(event.shake_id, event.reason.value, event.message)
            elif isinstance(event, ButtonPressed) and event.source == "panel":
                if event.button.value == "CALL":
                    self.call_supervisor()
                else:
                    self.table.on_button(event.button.value)
        camera = self.camera.state()
        if camera.frame_number != self._camera_frame:
            self._camera_frame = camera.frame_number
            # taken_at: Bài Bửu counts only what was read after its round's shake
            self.table.on_table(camera.reads, frame=camera.frame, taken_at=camera.taken_at)
        self.table.tick()
        if self.clock.monotonic() >= self._prune_due:
            self.prune_evidence()
        if self.clock.monotonic() >= self._clock_check_due:
            self.check_clock_and_release()
        if self.clock.monotonic() >= self._trim_due and not any(t.round_open for t in self.controllers.values()):
            self._trim_due = self.clock.monotonic() + TRIM_EVERY_S
            return_freed_memory()  # between rounds: the freed pages of the last round's frames go back
        if self.demo is not None and self.game == "baibuu":  # the dice croupier presses the panel: his table only
            self.demo.tick()
        croupier = self.card_demos.get(self.game)
        if croupier is not None and self.blocked is None:
            croupier.tick()

    def _record_device_trust(self, fault: Any) -> None:
        """A device refused as not authenticated, or one taken on protocol 2 by the config: on record (the floor
        raises it on the pit view). The link reports each refusal once until the device comes up authenticated."""
        from journal.events import DeviceRefused, DevicesUnauthenticated

        if fault.code == "NOT_AUTHENTICATED":
            self.journal.append(DeviceRefused(device=fault.source, serial=fault.serial or "?", reason=fault.message))
        elif fault.code == "UNAUTHENTICATED_ALLOWED":
            self.journal.append(DevicesUnauthenticated(device=fault.source, serial=fault.serial or "?"))

    def check_clock_and_release(self) -> None:
        from kiosk.clock_sync import clock_synchronised

        self._clock_check_due = self.clock.monotonic() + CLOCK_CHECK_EVERY_S
        self.clock_synchronised = clock_synchronised()
        moved = self.release_watch.moved_to()
        if moved is not None and self.restart_for is None and not any(
                table.round_open for table in self.controllers.values()):
            self.restart_for = moved

    def prune_evidence(self) -> None:
        """Delete the evidence frames the retention settings no longer keep (journaled first); note a folder that
        stays over its size cap because its frames belong to open or disputed rounds."""
        from journal.retention import Retention, prune

        self._prune_due = self.clock.monotonic() + PRUNE_EVERY_S
        if self.blocked is not None:
            return  # a refused journal is evidence as it stands: nothing is deleted
        settings = self.config.evidence
        try:
            done = prune(self.journal, Retention(settings.retention_days, settings.max_mb))
        except (JournalError, OSError) as error:
            self.evidence_note = f"evidence frames could not be pruned: {error}"
            self.evidence_words = Msg("evidence.not_pruned", {"error": str(error)})
            return
        self.evidence_note = (
            f"evidence frames take {done.total_bytes / 1e6:.0f} MB, over the {settings.max_mb:g} MB cap: "
            "the rest belong to open or disputed rounds" if done.over_cap else None
        )
        self.evidence_words = Msg("evidence.over_cap", {"mb": f"{done.total_bytes / 1e6:.0f}",
                                                        "cap": f"{settings.max_mb:g}"}) if done.over_cap else None

    def _record_model_in_use(self) -> None:
        """Which card-reader model reads this table, on record (when it changed since the journal last said)."""
        from engine.errors import InputError

        with contextlib.suppress(ImportError, InputError, OSError):  # no model to name: the camera's health says so
            from kiosk.enroll_journal import record_model_in_use

            record_model_in_use(self.journal)

    def _record_release(self) -> None:
        """Which release and which model files (SHA-256) this start runs with, on record at every start, beside the
        last start's (``settings_changed``: a kind every older release reads, so that a rollback reads the journal)."""
        from kiosk.model_hashes import SOFTWARE_SETTING, software_in_use

        before = None
        for entry in self.journal.entries(kinds=[SettingsChanged.KIND]):
            if entry.payload.get("setting") == SOFTWARE_SETTING:
                before = entry.payload.get("after")
        with contextlib.suppress(JournalError):
            self.journal.append(SettingsChanged(SOFTWARE_SETTING, before, software_in_use(self.data_dir), "kiosk"))

    def table_screen(self) -> str:
        """The screen the kiosk opens on: the table, or the stop screen while the journal is refused."""
        if self.blocked is not None:
            return "stopped"
        if not self.config.supervisors:  # the first supervisor is set up before anything is played
            return "supervisor"
        return "table-" + self.game

    def switch_game(self, game: str, by: str) -> None:
        """Table set-up: play another game from the next round (refused while a round is open)."""
        from engine.errors import InputError

        if game not in self.controllers:
            raise InputError(f"the kiosk's table screens play {', '.join(self.controllers)}, not {game}")
        if self.controller.round_open:
            raise Refused(Msg("setup.round_open"))
        if game != self.game:
            self.journal.append(SettingsChanged(setting="game", before=self.game, after=game, by=by))
            self.game = game
            self.config = replace(self.config, game=game)
            if self.config_path is not None:
                write_config(self.config, self.config_path)

    def set_table_id(self, table_id: str, by: str) -> None:
        """Table set-up: this kiosk now stands at another table (between rounds); journaled and saved."""
        from engine.errors import InputError

        table_id = table_id.strip()
        if not table_id:
            raise InputError("a table needs a name such as T1")
        if table_id == self.config.table_id:
            return
        if self.controller.round_open:
            raise Refused(Msg("setup.round_open"))
        self.journal.append(SettingsChanged(setting="table_id", before=self.config.table_id, after=table_id, by=by))
        self.journal.table_id = table_id
        self.config = replace(self.config, table_id=table_id)
        if self.config_path is not None:
            write_config(self.config, self.config_path)

    def health(self) -> DeviceHealth:
        camera = self.camera.state()
        shaker, panel = self.devices.links["shaker"], self.devices.links["panel"]
        warning = self.journal.anchor_problem or "; ".join(self.journal_place)
        journal = Health.DOWN if self.blocked is not None else Health.WARN if warning else Health.OK
        return DeviceHealth(
            camera=camera.health,
            shaker=shaker.health,
            panel=panel.health,
            journal=journal,
            details=(
                ("camera", camera.detail),
                ("shaker", shaker.detail),
                ("panel", panel.detail),
                ("journal", self.recovery.problem or warning or f"{self.journal.count()} events"),
            ),
        )

    def journal_words(self) -> Msg | str:
        """The journal light's detail as the supervisor's screen words it: why it is not OK (the journal's, an anchor
        sink's or the placement's phrase), else how many events it holds."""
        problem = self.recovery.problem or self.journal.anchor_problem
        if problem:
            return problem
        if self.journal_place:
            return join("; ", self.journal_place)
        return Msg("sup.journal_events", {"events": self.journal.count()})

    def call_supervisor(self) -> None:
        """The panel's CALL button: on record, and on the status bar until a supervisor signs in."""
        if not self.supervisor_called:
            self.journal.append(Note(text="the dealer called the supervisor", by="dealer"))
        self.supervisor_called = True

    def supervisor_arrived(self) -> None:
        self.supervisor_called = False

    # ---- who the supervisor is -----------------------------------------------------------------------------
    def stopped_journal(self) -> Journal:
        """The journal of what supervisors do while the kiosk's own journal is refused (opened when first needed)."""
        if self._stopped_journal is None:
            folder = self.data_dir / STOPPED_JOURNAL
            journal = Journal.open(
                folder / "journal.sqlite3",
                folder / "kiosk.key",
                kiosk_id=self.config.kiosk_id,
                table_id=self.config.table_id,
                clock=self.clock,
            )
            journal.recover().raise_if_unsound()
            journal.append(Note(text="the kiosk's journal was refused; supervisors' actions are recorded here",
                                by="kiosk"))
            self._stopped_journal = journal
        return self._stopped_journal

    def record_supervisor(self, event: Event) -> None:
        """A supervisor's action on record: in the kiosk's journal, or while that is refused, beside it."""
        if self.blocked is None:
            self.journal.append(event)
        else:
            self.stopped_journal().append(event)

    def dealer_sign_in(self, dealer: str, pin: str) -> SignInAnswer:
        """A dealer signs in at the table (the one before them, if any, is journaled as relieved)."""
        return self.dealers.sign_in(dealer, pin)

    def dealer_sign_out(self) -> None:
        """The dealer leaves the table with nobody taking over: the next rounds name no dealer until one signs in."""
        self.dealers.sign_out()

    @property
    def dealer(self) -> str | None:
        """The dealer signed in at the table now (None: nobody; rounds then name no dealer)."""
        return self.dealers.who

    @property
    def supervisor(self) -> str:
        """Who a supervisor action is recorded as: the supervisor signed in now."""
        who = self.desk.current()
        if who is None:
            raise Refused(Msg("setup.sign_in_first"))
        return who

    def add_first_supervisor(self, supervisor: str, pin: str) -> None:
        """The first supervisor of a kiosk that has none: saved in the config (a new one in the data folder when
        the kiosk started without a file), on record, and signed in."""
        from engine.errors import InputError

        if self.config.supervisors:
            raise InputError("this kiosk has its supervisors: the others are added by `--add-supervisor`")
        problem = supervisor_id_problem(supervisor) or pin_problem(pin)
        if problem:
            raise InputError(problem)
        self.config = replace(self.config, supervisors={supervisor: hash_pin(pin)})
        if self.config_path is None:
            self.config_path = self.data_dir / "kiosk.yaml"
        write_config(self.config, self.config_path)
        self.record_supervisor(SupervisorAdded(supervisor, by=supervisor))
        self.desk.sign_in(supervisor, pin)

    def verify_journal(self) -> Msg:
        """VERIFY JOURNAL on the supervisor screen: the check, on record with who asked."""
        by = self.supervisor
        if not self.journal_readable:
            problem = self.recovery.problem or "unknown problem"
            self.record_supervisor(JournalChecked(by, sound=False, events=0, problem=problem))
            return Msg("sup.verify_bad", {"error": problem})
        report = self.journal.verify()
        anchored = anchors_problem(self.journal) if report.ok else None
        if anchored is not None:  # the chain checks out, but the journal does not continue the kiosk's anchors
            report = replace(report, ok=False, problem=anchored)
        self.record_supervisor(JournalChecked(by, sound=report.ok, events=report.events, problem=report.problem or ""))
        if report.ok:
            return Msg("sup.verify_ok", {"events": report.events})
        return Msg("sup.verify_bad", {"error": report.problem})

    def time_text(self) -> str:
        return self.clock.now().astimezone().strftime("%H:%M")

    def status_text(self) -> str:
        t = self.catalogue.text
        parts = [t("game." + self.game), t("status.table", table=self.config.table_id)]
        if self.supervisor_called:
            parts.insert(0, t("status.called"))
        for refusal in self.devices.refusals.values():
            parts.insert(0, t("status.device_refused", device=Msg(f"status.{refusal.device}"), serial=refusal.serial))
        if self.devices.unauthenticated_in_use:
            parts.insert(0, t("status.devices_v2"))
        if self.config.dealers:
            parts.append(t("status.dealer", dealer=self.dealer) if self.dealer else t("status.no_dealer"))
        if self.controller.round_id is not None:
            parts.append(t("status.round", round=self.controller.round_id))
        if self.clock_synchronised is not False:  # else the time is on the status bar's clock light
            parts.append(self.time_text())
        return " · ".join(parts)

    # ---- set-up and supervisor -----------------------------------------------------------------------------
    def set_up_values(self) -> dict[str, Any]:
        """What the set-up screen starts from: the Bài Bửu table's settings (as JSON) and its default bet."""
        return {**self.dice_table.table_settings.to_json(), "default_bet": self.dice_table.default_bet}

    def apply_settings(self, settings_json: dict[str, Any], default_bet: int, by: str) -> None:
        """Table set-up: validate, apply from the next round, journal every change, save the config file."""
        from engine.baibuu import settings_from_json

        worded = set_up_problem(settings_json, default_bet)
        if worded is not None:
            raise Refused(worded)
        new_settings = settings_from_json(settings_json)  # what the screen cannot make wrong, in English
        problem = new_settings.check_bet(default_bet)
        if problem:
            from engine.errors import InputError

            raise InputError(f"default bet: {problem}")
        before = self.dice_table.table_settings.to_json()
        self.dice_table.apply_settings(new_settings, default_bet)
        after = new_settings.to_json()
        for key in sorted(set(before) | set(after)):
            if before.get(key) != after.get(key):
                self.journal.append(
                    SettingsChanged(setting=f"baibuu.{key}", before=before.get(key), after=after.get(key), by=by)
                )
        if default_bet != self.config.default_bet:
            self.journal.append(
                SettingsChanged(setting="default_bet", before=self.config.default_bet, after=default_bet, by=by)
            )
        self.config = replace(self.config.with_game_settings("baibuu", after), default_bet=default_bet)
        if self.config_path is not None:
            write_config(self.config, self.config_path)

    def game_set_up_values(self, game: str) -> dict[str, Any]:
        """What the set-up screen starts from for Sâm Lốc or Schmier: the table's settings as JSON (Sâm Lốc's with
        its number of players)."""
        return dict(self.controllers[game].settings_json())  # type: ignore[attr-defined]

    def apply_game_settings(self, game: str, settings_json: dict[str, Any], by: str) -> None:
        """Table set-up of Sâm Lốc or Schmier: validated by the engine, applied from the next hand, every change
        journaled by the supervisor who made it (``samloc.bet`` …), saved to the config file. Sâm Lốc's number of
        players changes only between hands (it starts a new table: every balance back to the starting one)."""
        from engine.games import load

        table = self.controllers[game]
        before = self.game_set_up_values(game)
        changed = {key: value for key, value in settings_json.items() if before.get(key) != value}
        if not changed:
            return
        load(game).settings_from_json({**before, **settings_json})  # refused in the engine's words when wrong
        if "players" in changed and table.round_open:
            raise Refused(Msg("setup.round_open"))
        with self.journal.step():
            for key in sorted(changed):
                self.journal.append(SettingsChanged(setting=f"{game}.{key}", before=before.get(key),
                                                    after=changed[key], by=by))
        table.apply_settings({**before, **settings_json})  # type: ignore[attr-defined]
        saved = {**self.config.games.get(game, {}), **changed}
        self.config = self.config.with_game_settings(game, saved)
        if self.config_path is not None:
            write_config(self.config, self.config_path)

    def close(self) -> None:
        if self.shipping is not None:
            self.shipping.stop()
        self.camera.close()
        self.devices.close()
        with contextlib.suppress(JournalError):
            self.journal.close()
        if self._stopped_journal is not None and self._stopped_journal is not self.journal:
            with contextlib.suppress(JournalError):
                self._stopped_journal.close()

    def make_screens(self, scale: Any) -> list[Any]:
        from kiosk.ui.screen_baibuu import BaiBuuScreen
        from kiosk.ui.screen_camera import CameraScreen
        from kiosk.ui.screen_samloc import SamLocScreen
        from kiosk.ui.screen_schmier import SchmierScreen
        from kiosk.ui.screen_setup import SetupScreen
        from kiosk.ui.screen_supervisor import StoppedScreen, SupervisorScreen

        if self.blocked is not None:  # no table, no set-up: nothing to play or change until the journal is fixed
            return [StoppedScreen(self, scale), CameraScreen(self, scale), SupervisorScreen(self, scale)]
        return [
            BaiBuuScreen(self.tables["baibuu"], self.catalogue, scale),
            SamLocScreen(self.tables["samloc"], self.catalogue, scale, runtime=self),
            SchmierScreen(self.tables["schmier"], self.catalogue, scale, runtime=self),
            CameraScreen(self, scale),
            SetupScreen(self, scale),
            SupervisorScreen(self, scale),
        ]


def wrong_tries_in_a_row(journal: Journal, who: str = "supervisor") -> int:
    """Wrong PINs recorded since the last sign-in (0 when the last try signed someone in): of supervisors, or of
    dealers (``who="dealer"``)."""
    tries = list(journal.entries(kinds=[f"{who}_sign_in_failed", f"{who}_signed_in"]))
    last = tries[-1] if tries else None
    if last is None or last.kind != f"{who}_sign_in_failed":
        return 0
    failures = last.payload.get("failures")
    return failures if isinstance(failures, int) and failures > 0 else 0


def _model_shipped() -> bool:
    return (Path(__file__).resolve().parent.parent / "models" / "reader.json").exists()


def set_up_problem(settings_json: dict[str, Any], default_bet: int) -> Msg | None:
    """Why the set-up screen's choices cannot be saved, worded by the catalogue (the engine says it in English):
    the problems the screen's own controls can make. None when there is none of those."""
    from engine.baibuu import Settings

    standard = Settings()
    seats = settings_json.get("seats", standard.seats)
    chip = settings_json.get("smallest_chip", standard.smallest_chip)
    low = settings_json.get("min_bet", standard.min_bet)
    high = settings_json.get("max_bet", standard.max_bet)
    if not isinstance(seats, list | tuple) or not all(isinstance(n, int) for n in (chip, low, default_bet)):
        return None
    if isinstance(chip, bool) or chip < 1:
        return None
    if not seats:
        return Msg("setup.refused.no_seats")
    if low % chip:
        return Msg("setup.refused.min_chip", {"min": low, "chip": chip})
    if isinstance(high, int) and high < low:
        return Msg("setup.refused.max_under_min", {"max": high, "min": low})
    if default_bet < low:
        return Msg("setup.refused.bet_under_min", {"bet": default_bet, "min": low})
    if isinstance(high, int) and default_bet > high:
        return Msg("setup.refused.bet_over_max", {"bet": default_bet, "max": high})
    if default_bet % chip:
        return Msg("setup.refused.bet_chip", {"bet": default_bet, "chip": chip})
    return None
