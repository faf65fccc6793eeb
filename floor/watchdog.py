"""``python -m floor.watchdog --postgres FOLDER [--user USER] [--remove FOLDER]…``: stops the PostgreSQL server in
FOLDER at once (and removes the folders) when the process that started it has ended, however it ended.

The starter keeps the write end of this process's standard input; the pipe closes when the starter exits, even
by SIGKILL, which no handler of its own can catch. A starter that cleaned up by itself writes ``done`` first, and
the watchdog leaves quietly. It runs in a session of its own, so a signal to the starter's process group does not
take it too. ``floor demo`` uses it so that its PostgreSQL never outlives it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from floor.pg import LocalServer

DONE = b"done"


def start(server: LocalServer, remove: list[Path]) -> subprocess.Popen[bytes]:
    """A watchdog of ``server`` for the calling process; call ``release`` on it after cleaning up normally."""
    arguments = [sys.executable, "-m", "floor.watchdog", "--postgres", str(server.folder)]
    if server.user is not None:
        arguments += ["--user", server.user]
    for folder in remove:
        arguments += ["--remove", str(folder)]
    return subprocess.Popen(arguments, stdin=subprocess.PIPE, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def release(watchdog: subprocess.Popen[bytes]) -> None:
    """Tell the watchdog its starter cleaned up by itself, and let it go."""
    assert watchdog.stdin is not None
    try:
        watchdog.stdin.write(DONE)
        watchdog.stdin.close()
    except BrokenPipeError:
        pass
    watchdog.wait(10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m floor.watchdog", description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", type=Path, required=True, help="the server's folder (its data in FOLDER/data)")
    parser.add_argument("--user", help="the user the server runs as (when started as root)")
    parser.add_argument("--remove", type=Path, action="append", default=[], help="a folder to remove afterwards")
    args = parser.parse_args(argv)
    said = sys.stdin.buffer.read()  # returns at end of file: the starter has ended (or released us)
    if said == DONE:
        return 0
    LocalServer(args.postgres, 0, args.user).stop("immediate")
    for folder in args.remove:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
