"""Updates a floor can trust: versions side by side under PREFIX/releases, `current` switched only after the new
version's own self-check, rolled back in one command, the last N kept; the running kiosk restarts into a new version
only between rounds, and every start journals its version and each model file's SHA-256."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from journal import JournalReader
from kiosk.clock_sync import clock_synchronised
from kiosk.config import load_config
from kiosk.model_hashes import SOFTWARE_SETTING, file_sha256
from kiosk.runtime import KioskRuntime
from vision.placed_reader import PlacedReader
from vision.reader_models import DEFAULT_MODEL_DIR

REPO = Path(__file__).resolve().parent.parent
PREFIX = "/opt/dealer-assist"


def release(folder: Path, version: str, check_passes: bool) -> Path:
    """A release folder whose `dealer-assist kiosk doctor --self-check` passes or fails, noting how it was asked."""
    (folder / "bin").mkdir(parents=True)
    (folder / "VERSION").write_text(version + "\n")
    script = folder / "bin" / "dealer-assist"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$@" >> "$(dirname "$0")/../asked"\n'
        f'echo "{"OK" if check_passes else "FAIL"} models: release {version}"\n'
        f"exit {0 if check_passes else 1}\n"
    )
    script.chmod(0o755)
    return folder


def kiosk(dealer_assist: list[str], env: dict[str, str], root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*dealer_assist, "kiosk", *args, "--root", str(root)], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=60)


def current(root: Path) -> str:
    return os.readlink(root / PREFIX.lstrip("/") / "current")


def test_update_checks_the_new_version_first_and_rollback_goes_back(tmp_path: Path, dealer_assist: list[str],
                                                                    cli_env: dict[str, str]) -> None:
    root = tmp_path / "root"
    releases = root / PREFIX.lstrip("/") / "releases"
    for version in ("0.1.0", "0.2.0"):
        done = kiosk(dealer_assist, cli_env, root, "update", str(release(tmp_path / version, version, True)))
        assert done.returncode == 0, done.stderr
    assert current(root) == "releases/0.2.0"
    assert "OK models: release 0.2.0" in done.stdout and "now on 0.2.0 (was 0.1.0)" in done.stdout
    # the release checked itself on this kiosk's data and config
    assert (releases / "0.2.0/asked").read_text().split() == [
        "kiosk", "doctor", "--self-check", "--data", f"{root}/var/lib/dealer-assist"]

    broken = kiosk(dealer_assist, cli_env, root, "update", str(release(tmp_path / "0.3.0", "0.3.0", False)))
    assert broken.returncode == 2
    assert "version 0.3.0 failed its self-check; the kiosk stays on 0.2.0" in broken.stderr
    assert "FAIL models: release 0.3.0" in broken.stderr
    assert current(root) == "releases/0.2.0"

    back = kiosk(dealer_assist, cli_env, root, "rollback")
    assert back.returncode == 0, back.stderr
    assert "rolled back to 0.1.0 (was 0.2.0)" in back.stdout and current(root) == "releases/0.1.0"
    assert (releases / "0.1.0/asked").read_text().count("--self-check") == 2  # checked again before going back

    # forward again to the installed 0.2.0, then a 0.4.0 with two kept: 0.1.0 (and the refused 0.3.0) remain?
    again = kiosk(dealer_assist, cli_env, root, "update", "--version", "0.2.0")
    assert again.returncode == 0 and current(root) == "releases/0.2.0"
    newest = kiosk(dealer_assist, cli_env, root, "update", str(release(tmp_path / "0.4.0", "0.4.0", True)),
                   "--keep", "2")
    assert newest.returncode == 0, newest.stderr
    assert "removed 0.1.0" in newest.stdout
    assert sorted(p.name for p in releases.iterdir() if p.is_dir()) == ["0.2.0", "0.3.0", "0.4.0"]
    log = [line.split("\t")[1:] for line in (releases / "ACTIVATED").read_text().splitlines()]
    assert log == [["0.1.0", "update from nothing"], ["0.2.0", "update from 0.1.0"], ["0.1.0", "rollback from 0.2.0"],
                   ["0.2.0", "update from 0.1.0"], ["0.4.0", "update from 0.2.0"]]

    nothing = kiosk(dealer_assist, cli_env, tmp_path / "empty", "rollback")
    assert nothing.returncode == 2 and "no earlier version is installed" in nothing.stderr


def pump(runtime: KioskRuntime, condition: Callable[[], bool], timeout: float = 20) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        runtime.tick()
        if condition():
            return True
        time.sleep(0.02)
    return False


@pytest.mark.slow
def test_the_kiosk_restarts_into_a_new_release_only_between_rounds_and_journals_what_it_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prefix = tmp_path / "opt"
    for version in ("0.1.0", "0.2.0"):
        release(prefix / "releases" / version, version, True)
    (prefix / "current").symlink_to("releases/0.1.0")
    monkeypatch.setenv("DEALER_ASSIST_RELEASES", str(prefix))
    holder: dict[str, PlacedReader] = {}
    runtime = KioskRuntime(load_config(None), tmp_path / "data",
                           read=lambda frame: holder["r"](frame) if "r" in holder else [], demo_seed=2)
    holder["r"] = PlacedReader(runtime.camera.source)
    try:
        links = runtime.devices.links
        assert pump(runtime, lambda: links["shaker"].health.value == "ok" and links["panel"].health.value == "ok")
        runtime.devices.press("SHAKE")
        assert pump(runtime, lambda: runtime.controller.round_open)
        (prefix / "current.new").symlink_to("releases/0.2.0")
        (prefix / "current.new").replace(prefix / "current")  # `kiosk update` made 0.2.0 current mid-round
        runtime.check_clock_and_release()
        assert runtime.restart_for is None  # the round plays on, on the release it began on
        runtime.devices.press("VOID")
        assert pump(runtime, lambda: not runtime.controller.round_open)
        runtime.check_clock_and_release()
        assert runtime.restart_for == "0.2.0"
        # the kiosk knows when the clock is not synchronised (as this machine's may not be): the status bar's light
        unsynced = clock_synchronised() is False
        assert runtime.clock_synchronised is not unsynced
    finally:
        runtime.close()
    with JournalReader.open(tmp_path / "data/journal.sqlite3", tmp_path / "data/kiosk.key") as reader:
        started = [e.payload for e in reader.entries(kinds=["settings_changed"])
                   if e.payload["setting"] == SOFTWARE_SETTING]
    assert len(started) == 1 and started[0]["before"] is None and started[0]["by"] == "kiosk"
    software = started[0]["after"]
    assert isinstance(software, dict) and software["version"] == "0.1.0"
    models = software["models"]
    assert isinstance(models, dict)
    assert models["card-detector.onnx"] == file_sha256(DEFAULT_MODEL_DIR / "card-detector.onnx")
    assert set(models) == {p.name for p in DEFAULT_MODEL_DIR.glob("*.onnx")}
    assert json.dumps(software)  # plain JSON, as the floor receives it
