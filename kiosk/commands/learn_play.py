"""``dealer-assist vision learn-from-play``: the reader learns the casino's deck from the rounds dealers confirmed.

    vision learn-from-play --by sup-12                      the kept rounds, in the background (low priority)
    vision learn-from-play --by sup-12 --rounds 200 --foreground
    vision learn-from-play --no-activate --data /srv/kiosk  learn and check only

It lives in the kiosk because it reads the journal and writes the model switch to it (vision imports only the
engine). Steps: the labelled examples of the settled rounds whose evidence frames are still kept
(``journal.play_examples``); every fifth round kept out to check on; the active model's any-deck face and index
readers fine-tuned on the rest into ``<data>/models/play-NNN/`` (``vision.enroll.from_play``); both models read
the kept-out rounds' frames, and the new one is activated, as enrollment activates (``reader_model_changed`` written
first), unless it reads fewer of their cards right. The kiosk never imports the learning: it would start this
command as a subprocess.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.cards import parse_card
from engine.errors import InputError

JOBS = "play-jobs"


def register(vision_subparsers: Any) -> None:
    p = vision_subparsers.add_parser(
        "learn-from-play", help="fine-tune the reader on the rounds dealers confirmed (their evidence frames), check "
                                "it on rounds kept out and activate it if it reads them at least as well")
    p.add_argument("--data", type=Path, default=None,
                   help="the kiosk's data folder: journal, evidence, models (default: DEALER_ASSIST_DATA or ./data)")
    p.add_argument("--journal", type=Path, default=None, help="journal file (default: DATA/journal.sqlite3)")
    p.add_argument("--key", type=Path, default=None, help="journal key (default: DEALER_ASSIST_KEY or DATA/kiosk.key)")
    p.add_argument("--rounds", type=int, default=None,
                   help="learn from the newest N settled rounds that give examples (default: every one still kept)")
    p.add_argument("--base", type=Path, default=None, help="the model folder to start from (default: the active one)")
    p.add_argument("--by", default=None, help="the supervisor who starts it (needed to activate)")
    p.add_argument("--no-activate", action="store_true", help="learn and check, but leave the active model")
    p.add_argument("--foreground", action="store_true", help="run here instead of in the background")
    p.add_argument("--epochs", type=int, default=None, help="the face reader's epochs (default 5)")
    p.add_argument("--index-epochs", type=int, default=None, help="the index reader's epochs (default 5)")
    p.add_argument("--minutes", type=float, default=None, help="time box for the training (default 20)")
    p.add_argument("--threads", type=int, default=None, help="CPU threads (default 2)")
    p.add_argument("--quick", action="store_true", help="a smoke run: one tiny epoch of each")
    p.set_defaults(func=_learn_from_play)


def _data(args: argparse.Namespace) -> Path:
    from journal.paths import data_folder

    return Path(args.data) if args.data is not None else data_folder()


def _learn_from_play(args: argparse.Namespace) -> int:
    if not args.no_activate and not args.by:
        raise InputError("say who starts it: --by SUPERVISOR (or --no-activate to learn and check only)")
    if args.rounds is not None and args.rounds < 1:
        raise InputError("--rounds counts settled rounds: give 1 or more")
    data = _data(args)
    journal_path = args.journal or data / "journal.sqlite3"
    if not journal_path.exists():
        raise InputError(f"there is no journal at {journal_path}: give the kiosk's data folder (--data) or --journal")
    if not args.foreground:
        return _start_in_background(args, data)
    from vision.enroll.learn import require_training_stack

    require_training_stack()
    return _run(args, data)


def _start_in_background(args: argparse.Namespace, data: Path) -> int:
    """The same command with ``--foreground`` in a separate, low-priority process; returns at once."""
    jobs = data / JOBS
    jobs.mkdir(parents=True, exist_ok=True)
    number = 1 + max((int(p.stem.split("-")[-1]) for p in jobs.glob("play-*.log") if p.stem.split("-")[-1].isdigit()),
                     default=0)
    log_path = jobs / f"play-{number:03d}.log"
    argv = [sys.executable, "-m", "kiosk.cli", "vision", "learn-from-play", "--foreground", "--data", str(data)]
    for option in ("journal", "key", "rounds", "base", "by", "epochs", "index_epochs", "minutes", "threads"):
        value = getattr(args, option)
        if value is not None:
            argv += [f"--{option.replace('_', '-')}", str(value)]
    argv += ["--no-activate"] * bool(args.no_activate) + ["--quick"] * bool(args.quick)
    with log_path.open("a") as log:
        subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
                         preexec_fn=lambda: os.nice(10), cwd=Path(__file__).resolve().parents[2])
    print(f"learning from play in the background (the active model keeps reading the table); log: {log_path}")
    return 0


def _run(args: argparse.Namespace, data: Path) -> int:
    from journal import JournalReader
    from journal.paths import KEY_ENV
    from journal.play_examples import play_examples
    from vision.enroll.from_play import Example, PlaySettings, check_on_examples, learn_from_play, split_check
    from vision.enroll.registry import active_model, describe, new_model_folder, write_model_info

    journal_path = args.journal or data / "journal.sqlite3"
    key = args.key or Path(os.environ.get(KEY_ENV) or data / "kiosk.key")
    with JournalReader.open(journal_path, key) as reader:
        found = play_examples(reader, args.rounds)
    print(found.summary())
    examples = [Example(e.path, tuple(float(v) for v in e.box), parse_card(e.card), e.round_id,  # type: ignore[arg-type]
                        e.read_as) for e in found.examples]
    check_rounds = split_check(found.rounds)
    learn = [e for e in examples if e.round_id not in check_rounds]
    check = [e for e in examples if e.round_id in check_rounds]
    active = active_model(data)
    base = args.base or active.folder
    settings = PlaySettings.quick() if args.quick else PlaySettings()
    changes = {k: v for k, v in (("epochs", args.epochs), ("index_epochs", args.index_epochs),
                                 ("minutes", args.minutes), ("threads", args.threads)) if v is not None}
    settings = replace(settings, **changes)
    target = new_model_folder("play", data)
    print(f"learning from {len(learn)} cards of {len(found.rounds) - len(check_rounds)} rounds, starting from "
          f"{describe(base)}; {len(check)} cards of {len(check_rounds)} rounds kept out to check on")
    info = {"base_model": describe(base), "journal": str(journal_path), "by": args.by or ""}
    model = learn_from_play(learn, base, target, data / JOBS / target.name, settings, check,
                            report=lambda stage: print(f"  {stage}", flush=True), info=info)
    write_model_info(model, {"learnt_from": "play", "deck": active.profile, **info,
                             "rounds": found.rounds, "examples": len(learn)})
    print(f"new model: {model}")
    if not check:
        print("not activated: two or more rounds are needed to keep one out and check the new model on it")
        return 1
    old, new = check_on_examples(check, model, active.folder)
    for report, label in ((old, "active"), (new, "new")):
        wrong = ", ".join(f"{c.card}→{c.read or 'nothing'}" for c in report.wrong()[:10])
        print(f"{label:>6} {report.model}: {report.right}/{len(report.checks)} cards of the kept-out rounds right "
              f"({report.accuracy:.1%})" + (f"; wrong: {wrong}" if wrong else ""))
    if args.no_activate:
        print("not activated (--no-activate)")
        return 0
    return _activate(model, active.profile, old, new, args.by, journal_path, key, data)


def _activate(model: Path, profile: str, old: Any, new: Any, by: str, journal_path: Path, key: Path,
              data: Path) -> int:
    from journal import Journal, JournalError, JournalReader
    from kiosk.enroll_journal import record_switch
    from vision.enroll.verify import ActivationRefused, decide_and_activate

    if new.right < old.right:
        print(f"not activated: the new model read {new.right} of {len(new.checks)} cards right, the active one "
              f"{old.right}")
        return 1
    with JournalReader.open(journal_path, key) as reader:
        last = reader.last_entry()
    if last is None:
        raise InputError(f"the journal {journal_path} is empty: nothing to record the switch after")
    try:
        journal = Journal.open(journal_path, key, kiosk_id=last.kiosk_id, table_id=last.table_id)
    except JournalError as error:
        print(f"not activated: the switch cannot be written to the journal ({error}); the model stays at {model}")
        return 1
    try:
        if not journal.recover().sound:
            print(f"not activated: the journal {journal_path} is not sound; the model stays at {model}")
            return 1
        active, switch = decide_and_activate(model, profile, old, new, by=by, root=data,
                                             record=lambda s: record_switch(journal, s))
    except ActivationRefused as error:
        print(f"not activated: {error}")
        return 1
    finally:
        journal.close(reason=None)
    print(f"active model: {active.name} ({active.hash}), journaled: {switch.reason}")
    return 0
