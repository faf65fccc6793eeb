"""``dealer-assist vision enroll …``: teach the card reader the casino's own deck.

    enroll capture "Copag blue 2026" spread1.jpg spread2.jpg   faces found, proposals by the active model
    enroll status "Copag blue 2026"                           the grid, views of each card, what is missing
    enroll confirm "Copag blue 2026" --set 7=QH --drop 12 --save
    enroll learn copag-blue-2026                              background job; --foreground shows a progress bar
    enroll progress copag-blue-2026
    enroll verify copag-blue-2026 check1.jpg check2.jpg       per-card accuracy, new model vs active one
    enroll activate copag-blue-2026 check1.jpg check2.jpg --by sup-12   only if better; journaled
    enroll list                                               profiles, models (active marked), jobs
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from engine.cards import CardError, parse_card
from engine.errors import InputError


def register(vision_subparsers: Any) -> None:
    enroll = vision_subparsers.add_parser("enroll", help="teach the reader the casino's own deck (capture, confirm, "
                                                         "learn, verify, activate)")
    sub = enroll.add_subparsers(dest="enroll_command", metavar="STEP")
    enroll.set_defaults(func=lambda _a: enroll.print_help() or 2)

    cap = sub.add_parser("capture", help="find the cards in photos of the spread deck and add them to its draft")
    cap.add_argument("name", help='the deck\'s name, e.g. "Copag blue 2026"')
    cap.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    cap.add_argument("--joker", action="store_true", help="this deck's profile needs the joker (Schmier)")
    cap.add_argument("--models", type=Path, default=None,
                     help="model that finds the cards and proposes identities (default: the active one)")
    cap.add_argument("--like", default=None, metavar="PROFILE",
                     help="propose identities by the faces of a saved profile (a new batch of a known design)")
    cap.add_argument("--card-width", type=float, default=None,
                     help="card width in pixels, when every card touches (only without a model: the outline way)")
    cap.add_argument("--squashed", choices=["auto", "no"], default="auto",
                     help="auto: square photos may be camera frames squashed to a square; they are read and captured "
                          "stretched back where that reads surer, as 'vision read' reads them (default); no: as they "
                          "are")
    cap.set_defaults(func=_capture)

    st = sub.add_parser("status", help="the captured faces by identity, and what is missing or twice")
    st.add_argument("name")
    st.set_defaults(func=_status)

    co = sub.add_parser("confirm", help="fix faces by card, drop faces, save the profile")
    co.add_argument("name")
    co.add_argument("--set", action="append", default=[], metavar="N=CARD", help="face N is CARD (e.g. 7=QH)")
    co.add_argument("--drop", action="append", default=[], type=int, metavar="N", help="face N is not a card")
    co.add_argument("--joker", choices=["yes", "no"], default=None, help="whether the profile needs the joker")
    co.add_argument("--save", action="store_true",
                    help="save the profile (its next version): every named view; a partial deck as it is")
    co.set_defaults(func=_confirm)

    le = sub.add_parser("learn", help="fine-tune the classifier and the index reader on a profile (in the background)")
    le.add_argument("profile", help="profile name or slug, optionally @vN")
    le.add_argument("--foreground", action="store_true", help="run here, with a progress bar")
    le.add_argument("--scenes", type=int, default=None, help="synthetic scenes to render (default 300)")
    le.add_argument("--epochs", type=int, default=None, help="the classifier's training epochs (default 6)")
    le.add_argument("--index-epochs", type=int, default=None,
                    help="the index reader's epochs on the deck's corners (default 4; 0: keep the active model's)")
    le.add_argument("--threads", type=int, default=None, help="CPU threads (default 2)")
    le.set_defaults(func=_learn)

    pr = sub.add_parser("progress", help="how far the learning job of a profile is")
    pr.add_argument("profile")
    pr.add_argument("--wait", action="store_true", help="follow the job until it ends")
    pr.set_defaults(func=_progress)

    for name, handler, text in (("verify", _verify, "check the new model and the active one on a second spread"),
                                ("activate", _activate, "verify, then activate the new model unless it reads worse")):
        p = sub.add_parser(name, help=text)
        p.add_argument("profile")
        p.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="photos of a second spread of the deck")
        p.add_argument("--model", type=Path, default=None, help="the new model folder (default: the newest learnt "
                                                                 "for this profile)")
        if name == "activate":
            p.add_argument("--by", required=True, help="the supervisor who activates it")
            p.add_argument("--journal", type=Path, default=None, help="journal file (default: data/journal.sqlite3)")
            p.add_argument("--key", type=Path, default=None, help="journal key (default: data/kiosk.key)")
            p.add_argument("--kiosk-id", default=None)
            p.add_argument("--table-id", default=None)
        p.set_defaults(func=handler)

    ls = sub.add_parser("list", help="deck profiles, models (the active one marked) and learning jobs")
    ls.set_defaults(func=_list)


def _read_images(paths: list[Path]) -> list[Any]:
    from vision.image_files import read_image

    return [read_image(path) for path in paths]


def _capture(args: argparse.Namespace) -> int:
    from vision.active_model import active_model, describe_active
    from vision.enroll.capture import Proposer, capture_photos
    from vision.enroll.extract import ExtractSettings
    from vision.enroll.find import open_finder
    from vision.enroll.profile import Draft
    from vision.photo_batch import aspect_name

    settings = ExtractSettings(card_width=args.card_width)
    draft = Draft.open(args.name, with_joker=True if args.joker else None)
    model_dir = args.models or active_model().folder
    finder, why = open_finder(model_dir)
    if finder is not None:
        print("finding the cards with model folder " + (f"{model_dir} (--models)" if args.models
                                                          else describe_active(active_model())))
    else:
        print(f"no model to find the cards with ({why}): cards are found by their outline, which needs a plain "
              "table top")
    proposer: Any = None
    if args.like:
        from vision.enroll.capture import FaceProposer
        from vision.enroll.profile import load_profile

        proposer = FaceProposer(load_profile(args.like).faces())
    elif finder is not None:
        proposer = Proposer(reader=finder.reader)
    else:
        print("no identities proposed: name every face by hand")

    def report(photo: str, result: Any) -> None:
        if result.skipped:
            print(f"{photo}: skipped, {result.skipped}")
        else:
            print(f"{photo}: {len(result.added)} card{'s' if len(result.added) != 1 else ''} found")
        for problem in result.problems:
            print(f"  ! {problem}")
        sys.stdout.flush()

    batch = capture_photos(draft, args.images, proposer, finder=finder, settings=settings,
                           unsquash=args.squashed == "auto", report=report)
    if batch.aspect != (1.0, 1.0):
        print(f"the square photos were read and captured stretched {aspect_name(batch.aspect)}, as "
              "'vision read' reads them (--squashed no: as they are)")
    taken = len(batch.results) - len(batch.skipped)
    print(f"{batch.added} card{'s' if batch.added != 1 else ''} from {taken} of {len(batch.results)} photos")
    if batch.skipped:
        print(f"skipped {len(batch.skipped)} photo{'s' if len(batch.skipped) != 1 else ''}:")
        for photo, why in batch.skipped:
            print(f"  - {photo}: {why}")
    _print_check(draft)
    return 0


def _print_check(draft: Any) -> None:
    from vision.enroll.confirm import ConfirmController

    controller = ConfirmController(draft)
    check = controller.check
    cards = len(check.views)
    print(f"deck {draft.name!r}: {len(draft.faces)} face{'s' if len(draft.faces) != 1 else ''}, {cards} "
          f"card{'s' if cards != 1 else ''} named")
    if check.views:
        print(f"  {check.views_line()}")
    for line in controller.problems():
        print(f"  - {line}")
    if check.complete:
        print("  complete: check the grid ('enroll status'), then 'enroll confirm … --save'")
    elif controller.can_save:
        print("  'enroll confirm … --save' saves what there is (the missing cards stay with the base model), or "
              "capture more")


def _status(args: argparse.Namespace) -> int:
    from vision.enroll.confirm import OK, ConfirmController
    from vision.enroll.profile import Draft, list_profiles

    draft = Draft.open(args.name)
    if not draft.faces:
        saved = [p for p in list_profiles() if p.startswith(draft.folder.parent.name + "@")]
        raise InputError(f"nothing captured for {args.name!r}" + (f" (saved: {', '.join(saved)})" if saved else "")
                         + "; run 'dealer-assist vision enroll capture'")
    controller = ConfirmController(draft)
    row: list[str] = []
    for tile in controller.tiles():
        mark = "" if tile.state == OK else {"look": "?", "unnamed": "…"}.get(tile.state, "")
        views = f"×{tile.views}" if tile.views > 1 else ""
        row.append(f"#{tile.index:<3} {tile.label:>3}{mark:<1}{views:<3} {tile.confidence:4.0%}")
        if len(row) == 6:
            print("   ".join(row))
            row = []
    if row:
        print("   ".join(row))
    _print_check(draft)
    return 0


def _confirm(args: argparse.Namespace) -> int:
    from vision.enroll.confirm import ConfirmController
    from vision.enroll.profile import Draft

    draft = Draft.open(args.name)
    if not draft.faces:
        raise InputError(f"nothing captured for {args.name!r}; run 'dealer-assist vision enroll capture' first")
    controller = ConfirmController(draft)
    if args.joker is not None:
        controller.set_joker(args.joker == "yes")
    for text in args.set:
        number, _, card_text = text.partition("=")
        try:
            card = parse_card(card_text)
            index = int(number)
        except (CardError, ValueError) as error:
            raise InputError(f"--set {text!r}: write the face number and the card, e.g. 7=QH ({error})") from None
        controller.fix(index, card)
    for index in args.drop:
        controller.fix(index, None)
    if args.save:
        unnamed = controller.check.unidentified
        profile = controller.save()
        print(f"saved {profile.ref} ({len(profile.cards)} cards, {len(profile.views)} views) in {profile.folder}")
        if profile.missing:
            print(f"  missing {len(profile.missing)}: {' '.join(str(c) for c in profile.missing)} (they stay with "
                  "the base model; capture them and save again to learn them too)")
        if unnamed:
            print(f"  left out: {unnamed} face{'s' if unnamed != 1 else ''} not named")
        print(f"next: dealer-assist vision enroll learn {profile.ref}")
        return 0
    _print_check(draft)
    return 0


def _learn(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from vision.enroll.learn import LearnJob, LearnSettings, format_status, start_in_background
    from vision.enroll.profile import load_profile

    profile = load_profile(args.profile)
    job = LearnJob(profile)
    settings = job.settings if (job.folder / "settings.json").exists() else LearnSettings()
    changes = {k: v for k, v in (("scenes", args.scenes), ("epochs", args.epochs),
                                 ("index_epochs", args.index_epochs), ("threads", args.threads)) if v is not None}
    settings = replace(settings, **changes)
    if not args.foreground:
        job = start_in_background(profile.ref, settings)
        print(f"learning {profile.ref} in the background (the active model keeps reading the table)")
        print(f"follow it: dealer-assist vision enroll progress {profile.ref}   (log: {job.folder / 'job.log'})")
        return 0
    job = LearnJob(profile, settings)
    model = job.run()
    print(format_status(job.status()))
    print(f"next: dealer-assist vision enroll activate {profile.ref} <photos of a second spread> --by <supervisor>")
    return 0 if model else 1


def _progress(args: argparse.Namespace) -> int:
    from vision.enroll.learn import LearnJob, format_status
    from vision.enroll.profile import load_profile

    job = LearnJob(load_profile(args.profile))
    while True:
        status = job.status()
        text = format_status(status)
        if not args.wait or status.get("state") not in ("running",):
            print(text)
            return 0 if status.get("state") in ("done", "running") else 1
        sys.stdout.write("\r" + text.splitlines()[0].ljust(90))
        sys.stdout.flush()
        time.sleep(2.0)


def _candidate(profile: Any, model: Path | None) -> Path:
    from vision.enroll.registry import list_models

    if model is not None:
        if not (model / "reader.json").exists():
            raise InputError(f"{model} is not a card-reader model folder (no reader.json)")
        return model
    learnt = [folder for _name, folder, info in list_models() if info.get("profile") == profile.ref]
    if not learnt:
        raise InputError(f"no model has been learnt for {profile.ref} yet; run 'dealer-assist vision enroll learn "
                         f"{profile.ref}' and wait for it to finish")
    return learnt[-1]


def _verify_both(args: argparse.Namespace) -> tuple[Any, Path, Any, Any]:
    from vision.enroll.find import open_finder
    from vision.enroll.profile import load_profile
    from vision.enroll.registry import active_model, describe
    from vision.enroll.verify import active_reader, model_reader, spread_truth, verify_reader

    profile = load_profile(args.profile)
    candidate = _candidate(profile, args.model)
    frames = _read_images(args.images)
    finder, _why = open_finder(active_model().folder)  # where the cards lie, on any table top; their faces name them
    truth = spread_truth(frames, profile, finder=finder)
    for problem in truth.problems:
        print(f"  ! {problem}")
    if truth.unknown:
        print(f"  ! {len(truth.unknown)} face(s) like no card of {profile.ref}: left out of the check")
    active = active_model()
    old = verify_reader(active_reader(active.folder), frames, truth, describe(active.folder))
    new = verify_reader(model_reader(candidate), frames, truth, describe(candidate))
    for report, label in ((old, "active"), (new, "new")):
        wrong = ", ".join(f"{c.card}→{c.read or 'nothing'}" for c in report.wrong()[:10])
        print(f"{label:>6} {report.model}: {report.right}/{len(report.checks)} cards right "
              f"({report.accuracy:.1%})" + (f"; wrong: {wrong}" if wrong else ""))
    out = candidate / "verification.json"
    if not out.exists():
        out.write_text(json.dumps({"profile": profile.ref, "active": old.to_json(), "new": new.to_json()}, indent=1))
    return profile, candidate, old, new


def _verify(args: argparse.Namespace) -> int:
    _profile, _candidate_folder, old, new = _verify_both(args)
    print("the new model reads the deck at least as well: activate it with 'enroll activate'" if new.right >= old.right
          else "the new model reads worse than the active one")
    return 0


def _activate(args: argparse.Namespace) -> int:
    from kiosk.enroll_journal import record_switch
    from vision.enroll.verify import decide_and_activate

    profile, candidate, old, new = _verify_both(args)
    journal = _open_journal(args)
    try:
        active, switch = decide_and_activate(candidate, profile, old, new, by=args.by,
                                             record=lambda s: record_switch(journal, s))
    finally:
        journal.close(reason=None)
    print(f"active model: {active.name} ({active.hash}), journaled: {switch.reason}")
    return 0


def _open_journal(args: argparse.Namespace) -> Any:
    from journal import Journal, JournalReader
    from journal.paths import default_journal_path, default_key_path

    path = args.journal or default_journal_path()
    key = args.key or default_key_path()
    kiosk_id, table_id = args.kiosk_id, args.table_id
    if (kiosk_id is None or table_id is None) and path.exists():
        reader = JournalReader.open(path, key)
        try:
            last = reader.last_entry()
        finally:
            reader.close()
        if last is not None:
            kiosk_id, table_id = kiosk_id or last.kiosk_id, table_id or last.table_id
    if not kiosk_id or not table_id:
        raise InputError("give --kiosk-id and --table-id: there is no journal yet to take them from")
    journal = Journal.open(path, key, kiosk_id=kiosk_id, table_id=table_id)
    recovery = journal.recover()
    if not recovery.sound:
        journal.close(reason=None)
        raise InputError(f"the journal {path} is not sound ({recovery.problem}): nothing was switched")
    return journal


def _list(_args: argparse.Namespace) -> int:
    from vision.enroll.learn import jobs_folder
    from vision.enroll.profile import list_profiles
    from vision.enroll.registry import active_model, list_models

    print("deck profiles: " + (", ".join(list_profiles()) or "none yet"))
    active = active_model()
    print(f"active model: {active.name} {active.hash}" + (f" (for {active.profile}, since {active.since})"
                                                          if active.profile else ""))
    for name, _folder, info in list_models():
        mark = "*" if name == active.name else " "
        print(f" {mark} {name}: for {info.get('profile', '?')}, learnt {info.get('created', '?')}")
    jobs = sorted(jobs_folder().glob("*/status.json")) if jobs_folder().is_dir() else []
    for status_path in jobs:
        status = json.loads(status_path.read_text())
        print(f"   job {status_path.parent.name}: {status.get('state')} at {status.get('stage')} "
              f"({float(status.get('progress', 0)):.0%})")
    return 0
