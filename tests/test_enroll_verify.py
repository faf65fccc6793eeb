"""Verify and activate: a second spread checked against the profile; a new model only if it reads as many cards right;
the switch in the journal, and which model read each round."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cards import standard_deck
from kiosk.enroll_journal import model_of_round, record_model_in_use, record_switch
from vision.detection import Detection
from vision.enroll.capture import FaceProposer, capture_frame
from vision.enroll.confirm import ConfirmController
from vision.enroll.extract import find_cards
from vision.enroll.matching import FaceMatcher
from vision.enroll.profile import Draft
from vision.enroll.registry import active_model, model_hash
from vision.enroll.spread import render_spread
from vision.enroll.verify import ActivationRefused, decide_and_activate, spread_truth, verify_reader
from vision.synth.faces import available_decks, load_deck

DECK = "nicu-white" if "nicu-white" in available_decks() else "five-card-draw"
OTHER = "standard" if "standard" in available_decks() else "five-card-draw"
CARDS = list(standard_deck())


def matcher_reader(faces):
    """A reader that knows one deck design by its pictures: reads that design, misreads others."""
    matcher = FaceMatcher(faces, min_score=0.0)

    def read(frame):
        out = []
        for found in find_cards(frame).cards:
            match = matcher.match(found.face)
            out.append(Detection(match.card, max(0.0, min(1.0, match.score)), found.box))
        return out

    return read


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    root = tmp_path_factory.mktemp("data")
    faces = load_deck(DECK)
    draft = Draft.open("House deck", root)
    for seed, half in ((31, CARDS[:26]), (32, CARDS[26:])):
        capture_frame(draft, render_spread(faces, half, seed=seed).image, FaceProposer(faces))
    profile = ConfirmController(draft).save()
    check = [render_spread(faces, CARDS[:18], seed=41, tilt_degrees=90).image,
             render_spread(faces, CARDS[18:36], seed=42, perspective=0.04).image,
             render_spread(faces, CARDS[36:], seed=43).image]
    return root, faces, profile, check


def _fake_model(root: Path, name: str, content: bytes) -> Path:
    """A model folder with the reader's three files (the activation only hashes and points at them)."""
    folder = root / "models" / name
    folder.mkdir(parents=True)
    (folder / "reader.json").write_text(json.dumps({"name": name}))
    (folder / "card-detector.onnx").write_bytes(b"detector")
    (folder / "card-classifier.onnx").write_bytes(content)
    return folder


def test_the_profile_gives_the_truth_of_a_second_spread(setup):
    _root, _faces, profile, check = setup
    truth = spread_truth(check, profile)
    assert sorted(str(t.card) for t in truth.cards) == sorted(str(c) for c in CARDS)
    assert not truth.unknown


def test_per_card_accuracy_of_a_reader_that_knows_the_deck_and_of_one_that_does_not(setup):
    _root, _faces, profile, check = setup
    truth = spread_truth(check, profile)
    good = verify_reader(matcher_reader(profile.faces()), check, truth, "enrolled")
    poor = verify_reader(matcher_reader(load_deck(OTHER)), check, truth, "other design")
    assert good.accuracy == 1.0 and set(good.per_card().values()) == {1.0}
    assert poor.accuracy < 0.95
    assert len(poor.wrong()) == len(poor.checks) - poor.right
    assert poor.to_json()["cards"] == 52


def test_activation_unless_it_reads_worse_and_the_switch_is_journaled(setup, tmp_path):
    from journal import Journal, JournalReader, ManualClock

    root, _faces, profile, check = setup
    truth = spread_truth(check, profile)
    good = verify_reader(matcher_reader(profile.faces()), check, truth, "new")
    poor = verify_reader(matcher_reader(load_deck(OTHER)), check, truth, "old")
    assert active_model(root).name == "shipped"
    weak = _fake_model(root, "house-deck-001", b"weak")
    strong = _fake_model(root, "house-deck-002", b"strong")

    clock = ManualClock()
    journal = Journal.open(tmp_path / "j.sqlite3", tmp_path / "k.key", kiosk_id="K1", table_id="T1", clock=clock)
    journal.recover()
    recorded = []

    def record(switch):
        record_switch(journal, switch)
        recorded.append(switch)

    with pytest.raises(ActivationRefused, match="reads worse"):  # worse than the active model: refused
        decide_and_activate(weak, profile, good, poor, by="sup-1", record=record, root=root)
    assert active_model(root).name == "shipped" and not recorded

    first_round = journal.begin_round("baibuu", {"x": 1}, {"deal": []})
    journal.void_round(first_round, by="sup-1", reason="test round")
    active, switch = decide_and_activate(strong, profile, poor, good, by="sup-1", record=record, root=root)
    assert active.name == "house-deck-002" and active.hash == model_hash(strong)
    assert active_model(root).folder == strong and active_model(root).profile == profile.ref
    assert (switch.right_before, switch.right_after, switch.cards_checked) == (poor.right, good.right, 52)
    second_round = journal.begin_round("baibuu", {"x": 1}, {"deal": []})
    journal.void_round(second_round, by="sup-1", reason="test round")
    journal.close()

    reader = JournalReader.open(tmp_path / "j.sqlite3", tmp_path / "k.key")
    entries = list(reader.entries(kinds=["reader_model_changed"]))
    assert len(entries) == 1
    payload = entries[0].payload
    assert payload["model"] == model_hash(strong) and payload["profile"] == "house-deck@v1"
    assert payload["right_after"] == 52 and payload["by"] == "sup-1"
    assert model_of_round(reader, first_round) is None  # read by the model the kiosk started with
    assert model_of_round(reader, second_round)["model"] == model_hash(strong)
    assert reader.verify().ok
    reader.close()

    # A restarted kiosk records its model only when the journal does not already name it.
    journal = Journal.open(tmp_path / "j.sqlite3", tmp_path / "k.key", kiosk_id="K1", table_id="T1", clock=clock)
    journal.recover()
    assert not record_model_in_use(journal, root)
    (root / "models" / "active.json").unlink()  # someone set the shipped model back by hand
    assert record_model_in_use(journal, root)
    journal.close()

    # a tie goes to the new model: it learnt the deck on the table, and the spread cannot tell the two apart
    active, _switch = decide_and_activate(weak, profile, good, good, by="sup-1", record=None, root=root)
    assert active.name == "house-deck-001" and active_model(root).folder == weak


def test_a_switch_the_journal_refuses_does_not_happen(setup):
    root, _faces, profile, check = setup
    truth = spread_truth(check, profile)
    good = verify_reader(matcher_reader(profile.faces()), check, truth, "new")
    poor = verify_reader(matcher_reader(load_deck(OTHER)), check, truth, "old")
    before = active_model(root)
    candidate = _fake_model(root, "house-deck-009", b"another")

    def refuse(switch):
        raise OSError("disk full")

    with pytest.raises(OSError):
        decide_and_activate(candidate, profile, poor, good, by="sup-1", record=refuse, root=root)
    assert active_model(root).folder == before.folder


@pytest.mark.parametrize(("surface", "at_least"), [("stone", 47), ("paper", 33)])
def test_the_truth_of_a_spread_on_any_table_top_comes_with_the_readers_detector(setup, surface, at_least):
    """The reader's detector says where the cards lie, the profile's faces which they are. On a white table the
    outline way takes the table for card paper; there the card's edge shows little, its face comes out less exact
    and fewer cards are named right (measured 36 of 52; on felt and wood 51, on a grey stone 49)."""
    import numpy as np

    from engine.errors import InputError
    from vision.enroll.find import CardFinder
    from vision.reader import CardReader
    from vision.reader_models import DEFAULT_MODEL_DIR

    _root, faces, profile, _check = setup
    spreads = [render_spread(faces, CARDS[k:k + 18], seed=44 + k, surface=surface) for k in (0, 18, 36)]
    frames = [s.image for s in spreads]
    if surface == "paper":
        with pytest.raises(InputError, match="touches another"):
            spread_truth(frames, profile)
    truth = spread_truth(frames, profile, finder=CardFinder(CardReader(DEFAULT_MODEL_DIR)))
    right = 0
    for t in truth.cards:
        spread = spreads[t.frame]
        centre = np.array([(t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2])
        right += t.card == spread.cards[int(np.argmin([np.linalg.norm(centre - c.mean(axis=0))
                                                      for c in spread.corners]))]
    assert len(truth.cards) + len(truth.unknown) == 52  # every card found
    assert right >= at_least
