"""The kiosk's config file: defaults, validation with clear messages, the command's --check and --write-config."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kiosk.config import ConfigError, config_from_data, load_config, write_config
from kiosk.supervisors import pin_matches

PIN_9753 = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHRzYWx0$66R5BB5nH4fFmFfIBkydfiJjMrNPTX9xy1RTvz7sLdc"


def test_the_built_in_default_is_the_embedded_demo() -> None:
    config = load_config(None)
    devices = (config.devices.shaker, config.devices.panel, config.camera.source)
    assert devices == ("simulated", "simulated", "synthetic")
    assert config.supervisors == {}  # no default PIN: the demo makes its own, a kiosk asks for its first supervisor
    assert config.game_settings("baibuu").min_bet == 10


def test_a_written_config_reads_back_the_same(tmp_path: Path) -> None:
    config = config_from_data(
        {"table_id": "B7", "supervisors": {"S1": PIN_9753}, "games": {"baibuu": {"commission": 0.03}}}
    )
    write_config(config, tmp_path / "kiosk.yaml")
    again = load_config(tmp_path / "kiosk.yaml")
    assert again.table_id == "B7" and pin_matches(again.supervisors["S1"], "9753")
    assert again.camera.keep_still  # on by default
    write_config(config_from_data({"camera": {"keep_still": False}}), tmp_path / "every-frame.yaml")
    assert not load_config(tmp_path / "every-frame.yaml").camera.keep_still
    assert str(again.game_settings("baibuu").commission) == "0.03"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"tabel_id": "T1"}, "unknown key tabel_id"),
        ({"game": "poker"}, "game 'poker'"),
        ({"language": "fr"}, "language 'fr'"),
        ({"supervisor_pin": "9753"}, "supervisor_pin is no longer accepted"),
        ({"supervisor_pin_sha256": "g" * 64}, "supervisor_pin_sha256 is no longer accepted"),  # not even hex
        ({"supervisors": {"S1": "0f" * 32}}, "supervisors.S1: not an Argon2id PIN hash"),
        ({"supervisors": {"S1": "$argon2id$v=19$m=65536,t=3,p=4$abc$def"}}, "supervisors.S1: an Argon2id PIN hash wi"),
        ({"supervisors": {"S 1": PIN_9753}}, "supervisors.S 1: a supervisor ID is 1 to 16"),
        ({"supervisors": ["S1"]}, "supervisors: a mapping of supervisor ID to PIN hash"),
        ({"devices": {"baud": 1234}}, "devices.baud 1234"),
        ({"devices": {"shaker": ""}}, "devices.shaker"),
        ({"games": {"baibuu": {"commission": 0.5}}}, "games.baibuu: commission 0.5"),
        ({"default_bet": 5}, "default_bet: bet 5 is under the table minimum of 10"),
        ({"camera": {"zoom": 2}}, "unknown key camera.zoom"),
        ({"camera": {"source": "0", "reader": "placement"}}, "reads only the synthetic table"),
        ({"camera": {"keep_still": "no"}}, "camera.keep_still 'no': true or false"),
    ],
)
def test_a_wrong_config_is_refused_naming_the_key_and_what_is_allowed(data: dict, words: str) -> None:
    with pytest.raises(ConfigError, match=words.replace("(", r"\(").replace(".", r"\.")):
        config_from_data(data, "kiosk.yaml")


def test_the_kiosk_command_checks_and_writes_configs(tmp_path: Path, dealer_assist: list[str], cli_env) -> None:
    path = tmp_path / "kiosk.yaml"
    done = subprocess.run(
        [*dealer_assist, "kiosk", "--write-config", str(path)], env=cli_env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and path.exists()
    done = subprocess.run(
        [*dealer_assist, "kiosk", "--config", str(path), "--check"],
        env=cli_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "OK: table T1, game baibuu" in done.stdout
    path.write_text("devices:\n  baud: 7\n")
    done = subprocess.run(
        [*dealer_assist, "kiosk", "--config", str(path), "--check"],
        env=cli_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().startswith("dealer-assist: ") and "devices.baud 7" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("keep", [True, False])
def test_camera_keep_still_reaches_the_table_reader(keep: bool, tmp_path: Path) -> None:
    from kiosk.runtime import KioskRuntime

    config = config_from_data({"camera": {"keep_still": keep, "reader": "placement"}})
    runtime = KioskRuntime(config, tmp_path / "data", demo_seed=1)
    try:
        assert runtime.camera.reader.still.settings.enabled is keep
    finally:
        runtime.close()
