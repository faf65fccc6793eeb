"""The first read of a table after start, with and without the reader's warm-up (vision/warm_up.py).

Each trial is a fresh process, as a kiosk starting: it loads the shipped model, then (warm) reads the warm-up
frame as the kiosk's camera does on its first frame, then times the first read of a table frame showing cards
(other cards than the warm-up's), and a second read of it for the steady cost.
Usage: python bench/warm_start.py [--trials N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

TRIAL = """
import json, sys, time
sys.path.insert(0, {repo!r})
import vision
from vision.reader import default_reader
from vision.warm_up import warm_up, warm_up_frame
import vision.warm_up as w
default_reader()  # the model files loaded, as at the kiosk's start
warm = {warm}
warm_s = warm_up(vision.read) if warm else 0.0
w.FACES = ("H14", "S13", "C12", "D11", "H10", "C8", "S6", "D3")  # a table of other cards
frame = warm_up_frame()
started = time.perf_counter(); first = vision.read(frame); first_s = time.perf_counter() - started
started = time.perf_counter(); vision.read(frame); again_s = time.perf_counter() - started
print(json.dumps({{"warm_s": warm_s, "first_s": first_s, "again_s": again_s, "cards": len(first)}}))
"""


def trial(warm: bool) -> dict[str, float]:
    code = TRIAL.format(repo=str(REPO), warm=warm)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    for warm in (False, True):
        runs = [trial(warm) for _ in range(args.trials)]
        first = statistics.median(run["first_s"] for run in runs) * 1000
        again = statistics.median(run["again_s"] for run in runs) * 1000
        cards = {run["cards"] for run in runs}
        line = f"{'warmed at start' if warm else 'cold start     '}: first table read {first:.0f} ms median, "
        line += f"the next {again:.0f} ms ({args.trials} fresh processes, {'/'.join(map(str, cards))} cards read)"
        if warm:
            line += f"; the warm-up itself {statistics.median(run['warm_s'] for run in runs):.2f} s"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
