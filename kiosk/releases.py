"""Versions of the kiosk side by side, so that a floor can take a new one table by table and step back in one command.

::

    PREFIX/releases/0.1.0/bin/dealer-assist     one folder a version (a virtual environment, or a launcher)
    PREFIX/releases/0.2.0/bin/dealer-assist
    PREFIX/current -> releases/0.2.0            what the unit starts (swapped atomically)
    PREFIX/releases/ACTIVATED                   every switch, one line: time, version, why

A new version is checked by its own ``dealer-assist kiosk doctor --self-check`` (the config, the key and anchors,
the fonts, the card reader's models loaded) before ``current`` points at it; the running kiosk sees ``current``
move and restarts into it only between rounds (``ReleaseWatch``), systemd starting it again (``Restart=always``).
The last ``keep`` versions activated stay on disk for ``rollback``.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.errors import InputError

RELEASES_ENV = "DEALER_ASSIST_RELEASES"
CURRENT = "current"
LOG = "ACTIVATED"
KEEP = 3
_VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+_-]{0,40}")


class ReleaseError(InputError):
    """A release that cannot be installed, checked or switched to; the message says what to do."""


SelfCheck = Callable[[Path], tuple[bool, str]]
"""Runs a release's own check; (passed, what it printed)."""


@dataclass(frozen=True)
class Releases:
    prefix: Path

    @property
    def folder(self) -> Path:
        return self.prefix / "releases"

    @property
    def current_link(self) -> Path:
        return self.prefix / CURRENT

    def path(self, version: str) -> Path:
        if not _VERSION.fullmatch(version):
            raise ReleaseError(f"version {version!r}: letters, digits and . + _ - (such as 0.2.0)")
        return self.folder / version

    def installed(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.name for p in self.folder.iterdir() if (p / "bin" / "dealer-assist").exists())

    def current(self) -> str | None:
        if not self.current_link.is_symlink():
            return None
        return Path(os.readlink(self.current_link)).name

    def history(self) -> list[str]:
        """The versions activated, oldest first (a version activated twice appears twice)."""
        log = self.folder / LOG
        if not log.exists():
            return []
        return [line.split("\t")[1] for line in log.read_text().splitlines() if line.count("\t") >= 2]

    # ---- adding a version -----------------------------------------------------------------------------------
    def add_folder(self, source: Path, version: str) -> Path:
        """A prepared release folder (its ``bin/dealer-assist`` runs from wherever it lies), copied in."""
        if not (source / "bin" / "dealer-assist").is_file():
            raise ReleaseError(f"{source} is not a release: it has no bin/dealer-assist")
        target = self.path(version)
        if target.exists():
            raise ReleaseError(f"version {version} is installed already ({target}); activate it with "
                               f"`dealer-assist kiosk update --version {version}`")
        self.folder.mkdir(parents=True, exist_ok=True)
        staging = self.folder / f".{version}.new"
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(source, staging, symlinks=True)
        staging.rename(target)
        return target

    def add_wheel(self, wheel: Path, find_links: Path | None) -> Path:
        """A new virtual environment for the version the wheel's name gives, with the wheel installed in it."""
        match = re.fullmatch(r"dealer_assist-([^-]+)-.*\.whl", wheel.name)
        if match is None:
            raise ReleaseError(f"{wheel.name} is not a dealer-assist wheel (dealer_assist-VERSION-….whl)")
        target = self.path(match.group(1))
        if target.exists():
            raise ReleaseError(f"version {match.group(1)} is installed already ({target})")
        # built where it will run: a virtual environment cannot be moved (its scripts name their interpreter)
        try:
            subprocess.run(["python3", "-m", "venv", str(target)], check=True)
            pip = [str(target / "bin" / "pip"), "install", "--quiet"]
            if find_links is not None:
                pip += ["--no-index", "--find-links", str(find_links)]
            subprocess.run([*pip, str(wheel)], check=True)
        except (OSError, subprocess.CalledProcessError) as error:
            shutil.rmtree(target, ignore_errors=True)
            raise ReleaseError(f"could not install {wheel.name} into {target} ({error}); nothing was changed") from None
        return target

    # ---- switching -----------------------------------------------------------------------------------------
    def activate(self, version: str, self_check: SelfCheck, why: str) -> str:
        """Point ``current`` at ``version`` once its self-check passed; what the check printed."""
        target = self.path(version)
        if not (target / "bin" / "dealer-assist").exists():
            raise ReleaseError(f"version {version} is not installed under {self.folder} "
                               f"(installed: {', '.join(self.installed()) or 'none'})")
        passed, output = self_check(target)
        if not passed:
            raise ReleaseError(f"version {version} failed its self-check; the kiosk stays on "
                               f"{self.current() or 'what it runs'}:\n{output.rstrip()}")
        self._point_current_at(version)
        with (self.folder / LOG).open("a") as log:
            log.write(f"{datetime.now(UTC).isoformat(timespec='seconds')}\t{version}\t{why}\n")
        return output

    def previous(self) -> str | None:
        """The version that ran before the current one (and is still installed)."""
        current = self.current()
        installed = set(self.installed())
        for version in reversed(self.history()):
            if version != current and version in installed:
                return version
        return None

    def prune(self, keep: int = KEEP) -> list[str]:
        """Delete the versions beyond the ``keep`` last activated (never the current one); the versions deleted."""
        recent: list[str] = []
        for version in reversed(self.history()):
            if version not in recent:
                recent.append(version)
        kept = set(recent[:keep]) | {self.current() or ""}
        removed = [v for v in self.installed() if v not in kept and v in recent]
        for version in removed:
            shutil.rmtree(self.folder / version)
        return removed

    def _point_current_at(self, version: str) -> None:
        link = self.current_link
        temporary = link.with_name(CURRENT + ".new")
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        temporary.symlink_to(Path("releases") / version)
        temporary.replace(link)  # rename(2): the unit sees the old target or the new one, never none


def run_self_check(data: Path, config: Path | None, timeout_s: float = 600) -> SelfCheck:
    """The release's own ``dealer-assist kiosk doctor --self-check`` on this kiosk's data and config."""

    def check(release: Path) -> tuple[bool, str]:
        command = [str(release / "bin" / "dealer-assist"), "kiosk", "doctor", "--self-check", "--data", str(data)]
        if config is not None:
            command += ["--config", str(config)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, check=False)
        except subprocess.TimeoutExpired:
            return False, f"the self-check did not finish within {timeout_s:.0f} s"
        except OSError as error:
            return False, f"the release could not be run: {error}"
        return done.returncode == 0, done.stdout + done.stderr

    return check


class ReleaseWatch:
    """In the running kiosk: has ``current`` moved to another version since this kiosk started?"""

    def __init__(self, prefix: Path | None) -> None:
        self.releases = Releases(prefix) if prefix is not None else None
        self.started_on = self.releases.current() if self.releases is not None else None

    @classmethod
    def from_environment(cls) -> ReleaseWatch:
        named = os.environ.get(RELEASES_ENV)
        return cls(Path(named) if named else None)

    def moved_to(self) -> str | None:
        """The version ``current`` points at now, when it is not the one this kiosk started on."""
        if self.releases is None or self.started_on is None:
            return None
        now = self.releases.current()
        return now if now is not None and now != self.started_on else None
