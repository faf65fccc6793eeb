"""Soak: the kiosk on autoplay in a real window for a long time, measured as it goes.

Starts ``dealer-assist kiosk --autoplay`` (the embedded default: simulated shaker and panel on ptys, the rendered
felt read by the shipped card reader, a fresh journal) in a real Kivy window under Xvfb, with a driver inside the
kiosk that every interval prints one line: resident memory (and its anonymous part), open files, threads, journal
and evidence size, rounds closed, and the reading latency over the interval (a frame asked of the camera → its
readings ready for the table, median / 95th percentile / worst). The demo croupier plays at a dealer's pace on the
real clock, or ``--pace N`` times faster (its waits on the clock divided by N; its waits for the camera's frames are
not, so it never outruns the reader): the kiosk's own clock is real, so a minute is a minute, but a minute holds N
times the rounds. ``--rounds`` stops after that many rounds closed.

Usage: python bench/soak.py [--minutes 240] [--every-minutes 60] [--pace 1] [--rounds N] [--data DIR]
(needs xvfb-run; under no display it starts its own). Run it under nice: it takes a core.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve()
COLUMNS = ("min", "rss_mb", "anon_mb", "files", "threads", "journal_mb", "evidence_mb", "rounds", "read_p50_ms",
           "read_p95_ms", "read_max_ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=240.0, help="how long to play (240)")
    parser.add_argument("--every-minutes", type=float, default=60.0, help="one line every so often (60)")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="the croupier plays this many times a dealer's pace (1)")
    parser.add_argument("--rounds", type=int, default=0, help="stop after this many rounds closed (0: play --minutes)")
    parser.add_argument("--evidence-cap", type=float, metavar="MB",
                        help="play under a config whose evidence.max_mb is this (default: the built-in 2000 MB)")
    parser.add_argument("--data", type=Path, help="the kiosk's data folder (default: a fresh temporary one)")
    args = parser.parse_args()
    data = args.data or Path(tempfile.mkdtemp(prefix="dealer-assist-soak-"))
    out = data.parent / (data.name + "-soak.jsonl")
    out.unlink(missing_ok=True)
    env = dict(os.environ, SOAK_OUT=str(out), SOAK_EVERY_S=str(args.every_minutes * 60),
               SOAK_DURATION_S=str(args.minutes * 60), SOAK_ROUNDS=str(args.rounds), PYTHONPATH=str(REPO),
               KIVY_NO_ARGS="1", YOLO_OFFLINE="1")
    command = [sys.executable, "-m", "kiosk.cli", "kiosk", "--autoplay", "--data", str(data), "--seed", "11",
               "--demo-pace", str(args.pace),
               "--driver", f"{THIS}:drive"]
    if args.evidence_cap is not None:  # the retention's size cap, met within the run
        config = data.parent / (data.name + "-kiosk.yaml")
        config.write_text(f"evidence:\n  max_mb: {args.evidence_cap:g}\n")
        command += ["--config", str(config)]
    if not os.environ.get("DISPLAY"):
        if shutil.which("xvfb-run") is None:
            print("needs a display: install xvfb (apt-get install xvfb) or run under one")
            return 2
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", *command]
    until = f"{args.rounds} rounds or {args.minutes:g} min" if args.rounds else f"{args.minutes:g} min"
    print(f"soak: {until} of autoplay in a real window at {args.pace:g}× a dealer's pace, a line every "
          f"{args.every_minutes:g} min; data {data}", flush=True)
    print("  ".join(f"{c:>11}" for c in COLUMNS), flush=True)
    kiosk = subprocess.Popen(command, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    shown = 0
    rows: list[dict[str, Any]] = []
    while True:
        finished = kiosk.poll() is not None
        if out.exists():
            lines = out.read_text().splitlines()
            for line in lines[shown:]:
                row = json.loads(line)
                if "held_by" in row or "python_holds" in row:
                    what, pairs = next(iter(row.items()))
                    print(f"{what.replace('_', ' ')} (MB): " + ", ".join(f"{n} {mb}" for n, mb in pairs))
                    continue
                rows.append(row)
                print("  ".join(f"{row[c]:>11}" for c in COLUMNS), flush=True)
            shown = len(lines)
        if finished:
            break
        time.sleep(2)
    output = kiosk.stdout.read().decode(errors="replace") if kiosk.stdout else ""
    if kiosk.returncode != 0 or not rows:
        print(f"the kiosk stopped with status {kiosk.returncode}:\n{output[-3000:]}")
        return 1
    summarise(rows)
    return 0


def summarise(rows: list[dict[str, Any]]) -> None:
    """Growth from the first line after warm-up (the second) to the last."""
    if len(rows) < 3:
        print("too short a run to tell growth after warm-up (3 lines or more)")
        return
    warm, last = rows[1], rows[-1]
    minutes = last["min"] - warm["min"]
    for name in ("rss_mb", "anon_mb", "files", "threads"):
        print(f"{name}: {warm[name]} after warm-up ({warm['min']} min) → {last[name]} at {last['min']} min "
              f"({last[name] - warm[name]:+g} in {minutes:g} min)")
    print(f"rounds: {last['rounds']} in {last['min']} min; reading p50 {warm['read_p50_ms']} → "
          f"{last['read_p50_ms']} ms, p95 {warm['read_p95_ms']} → {last['read_p95_ms']} ms")


# ---- inside the kiosk process ----------------------------------------------------------------------------------
def _status(field: str) -> int:
    """A number from /proc/self/status (kB for sizes)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def _size_mb(*paths: Path) -> float:
    total = 0
    for path in paths:
        if path.is_file():
            total += path.stat().st_size
        elif path.is_dir():
            total += sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return round(total / 1e6, 1)


def _resident_by_mapping(top: int = 14) -> list[tuple[str, int]]:
    """Resident MB by what is mapped (a library, the heap, anonymous memory), largest first, from
    /proc/self/smaps."""
    held: dict[str, int] = {}
    name = ""
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
            name = head[5] if len(head) > 5 else "[anonymous]"
            name = Path(name).name if name.startswith("/") else name
        elif head and head[0] == "Rss:":
            held[name] = held.get(name, 0) + int(head[1])
    return [(n, round(kb / 1024)) for n, kb in sorted(held.items(), key=lambda x: -x[1])[:top]]


def _rounds_closed(runtime: Any) -> int:
    return sum(1 for _ in runtime.journal.entries(kinds=["round_settled", "round_voided"]))


def drive(app: Any) -> Iterator[float]:
    """The kiosk plays by itself (--autoplay); this only watches, every tick, and writes a line every interval."""
    runtime = app.runtime
    out = Path(os.environ["SOAK_OUT"])
    every = float(os.environ["SOAK_EVERY_S"])
    duration = float(os.environ["SOAK_DURATION_S"])
    rounds_wanted = int(os.environ.get("SOAK_ROUNDS", "0"))
    closed = 0
    start = time.monotonic()
    count_due = start
    due = start + every
    last_frame = -1
    latencies: list[float] = []
    data = runtime.data_dir
    while True:
        camera = runtime.camera.state()
        if camera.frame_number != last_frame and camera.taken_at is not None:
            last_frame = camera.frame_number
            latencies.append(runtime.clock.monotonic_ns() / 1e9 - camera.taken_at)
        now = time.monotonic()
        if rounds_wanted > 0 and now >= count_due:
            closed = _rounds_closed(runtime)
            count_due = now + 30
        done = now - start >= duration or (rounds_wanted > 0 and closed >= rounds_wanted)
        if now >= due or done:
            closed = _rounds_closed(runtime)
            ms = sorted(x * 1000 for x in latencies) or [0.0]
            row = {
                "min": round((now - start) / 60, 1), "rss_mb": round(_status("VmRSS") / 1024),
                "anon_mb": round(_status("RssAnon") / 1024), "files": len(os.listdir("/proc/self/fd")),
                "threads": _status("Threads"),
                "journal_mb": _size_mb(*data.glob("journal.sqlite3*")), "evidence_mb": _size_mb(data / "evidence"),
                "rounds": closed, "read_p50_ms": round(statistics.median(ms)),
                "read_p95_ms": round(ms[int(0.95 * (len(ms) - 1))]), "read_max_ms": round(ms[-1]),
            }
            with out.open("a") as handle:
                handle.write(json.dumps(row) + "\n")
            latencies.clear()
            due += every
            if done:
                with out.open("a") as handle:
                    handle.write(json.dumps({"held_by": _resident_by_mapping()}) + "\n")
                    if tracemalloc.is_tracing():  # PYTHONTRACEMALLOC=1: what Python and NumPy hold, by file
                        stats = tracemalloc.take_snapshot().statistics("filename")[:14]
                        held = [(str(s.traceback[0].filename).split("site-packages/")[-1], round(s.size / 2**20))
                                for s in stats]
                        handle.write(json.dumps({"python_holds": held}) + "\n")
                app.stop()
                return
        yield 0.05


if __name__ == "__main__":
    sys.exit(main())
