"""Every text the kiosk shows, by key: the English here, the Vietnamese and the Khmer in the gettext catalogues
(``journal/locale/<language>/LC_MESSAGES/dealer_assist.po``, read at run time by ``journal.catalogues``; table words
from the glossary).

The controller speaks in ``Msg(key, params)``; the screen turns a message into words with ``Catalogue.text``
in the language the dealer picked. A key missing from a language falls back to English, never to the key (a test
fails when one is missing). English counts: a key with a ``.one`` form is worded so when ``count`` is 1.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, CardsText
from engine.phrases import COUNTED_FROM_ZERO, TEMPLATES, Phrase, people_numbers
from journal.catalogues import EnglishAndVietnamese, Translations
from journal.phrase_words import PHRASES_KM, PHRASES_VI
from journal.words import void_words

LANGUAGES = ("en", "vi", "km")
# Each language's name in its own script: the language button shows the next one's.
LANGUAGE_NAMES = {"en": "English", "vi": "Tiếng Việt", "km": "ខ្មែរ"}


@dataclass(frozen=True)
class Msg:
    """A message to show, before translation: a catalogue key and the values it names."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


# key: English, the msgid of the key's entry in the catalogues
ENGLISH: dict[str, str] = {
    # status bar
    "status.camera": "Camera",
    "status.shaker": "Shaker",
    "status.panel": "Buttons",
    "status.journal": "Journal",
    "health.ok": "OK",
    "health.warn": "CHECK",
    "health.down": "OFFLINE",
    "health.off": "not used",
    "status.table": "Table {table}",
    "status.called": "SUPERVISOR CALLED",
    "status.device_refused": "{device} NOT AUTHENTICATED ({serial}): call a supervisor",
    "status.devices_v2": "devices NOT authenticated (protocol 2 allowed)",
    "status.round": "Round {round}",
    "status.dealer": "Dealer {dealer}",
    "status.no_dealer": "NO DEALER SIGNED IN",
    "health.unsynced": "CLOCK NOT SYNCHRONISED",
    # navigation
    "nav.table": "TABLE",
    "nav.camera": "CAMERA",
    "nav.setup": "SET-UP",
    "nav.supervisor": "SUPERVISOR",
    "nav.back": "BACK",
    "nav.dealer": "DEALER {dealer}",
    "nav.dealer_sign_in": "DEALER: SIGN IN",
    # round buttons (the same commands as the button panel)
    "button.shake": "SHAKE",
    "button.reshake": "SHAKE AGAIN",
    "button.manual_dice": "ENTER DICE",
    "button.confirm": "CONFIRM",
    "button.void": "VOID",
    "button.next": "NEXT ROUND",
    "button.cancel": "CANCEL",
    "button.ok": "OK",
    "button.remove_card": "NO CARD HERE",
    # games
    "game.baibuu": "Bài Bửu",
    "game.samloc": "Sâm Lốc",
    "game.schmier": "Schmier",
    # Bài Bửu round prompts
    "bb.title": "Bài Bửu",
    "bb.prompt.shake": "Press SHAKE to start the round",
    "bb.prompt.shaking": "Shaking the dice…",
    "bb.prompt.shake_stopped": "No dice yet: SHAKE AGAIN, or shake by hand and ENTER DICE",
    "bb.prompt.deal": "Deal: first stack to position {first}. Then open the house stack",
    "bb.prompt.house": "Open the house hand on the felt",
    "bb.prompt.house_set": "Set the house hand as shown, then CONFIRM",
    "bb.prompt.house_ok": "House hand set right. CONFIRM, then open the seats",
    "bb.prompt.seats": "Open every seat's high and low hand, then CONFIRM",
    "bb.prompt.results": "Pay the results, then CONFIRM",
    "bb.prompt.closed": "Round closed. NEXT ROUND when ready",
    "bb.prompt.voided": "Round voided: {reason}. NEXT ROUND when ready",
    "bb.dice": "Dice {a} · {b} · {c} = {total}",
    "bb.dice.manual": "entered by hand",
    "bb.first": "First stack → position {first}",
    "bb.house_stack": "House gets stack {stack}",
    "bb.position": "{n}",
    "bb.house": "HOUSE",
    "bb.house_hand": "House hand",
    "bb.house_way": "House way",
    "bb.high": "HIGH",
    "bb.low": "LOW",
    "bb.on_felt": "On the felt",
    "bb.set_ok": "SET RIGHT ✔",
    "bb.set_wrong": "WRONG SET: put {high} high and {low} low",
    "bb.seat": "Seat {seat}",
    "bb.bet": "Bet {bet}",
    "bb.outcome.win": "WIN",
    "bb.outcome.push": "PUSH",
    "bb.outcome.lose": "LOSE",
    "bb.outcome.mis-set": "MIS-SET",
    "bb.outcome.natural": "NATURAL",
    "bb.pay": "pay {amount}",
    "bb.take": "take {amount}",
    "bb.back": "return bet",
    "bb.commission": "commission {amount}",
    "bb.to_pay": "pay",
    "bb.to_take": "take",
    "bb.house_pays": "House pays",
    "bb.house_takes": "House takes",
    "bb.waiting_cards": "waiting for {count} cards",
    "bb.sitting_out": "sitting out",
    "bb.limits": "Limits {low}–{high}",
    "bb.round_total": "This round: bets {bets}, paid {paid}, taken {taken}, commission {commission}",
    "bb.last_rounds": "House, last rounds: {results}",
    # two-card hands and the house-way rules (names of the posted rules)
    "hand.points": "{n} points",
    "hand.pair": "pair of {rank}",
    "hand.kong": "Kong (A+9)",
    "hand.pictures": "two pictures",
    "rule.natural": "natural",
    "rule.two pairs": "two pairs",
    "rule.one pair": "one pair",
    "rule.Kong or two pictures": "Kong or two pictures",
    "rule.otherwise": "otherwise",
    "rule.line": "{line}",
    # reading problems
    "read.low_confidence": "unsure: tap to check",
    "read.duplicate": "seen twice: tap to fix",
    "read.too_many": "{count} cards in a {expected}-card place",
    "read.too_few": "{count} of {expected} cards",
    "read.corrected": "corrected by hand",
    "read.partly_covered": "partly covered",
    "read.last_round": "same cards as last round: look at the felt",
    "read.same_card_twice": "{card} is on the felt twice: check the reads",
    # alerts
    "alert.shaker_offline": "Shaker offline: SHAKE AGAIN, or shake by hand and ENTER DICE",
    "alert.shaker_timeout": "No dice result from the shaker: SHAKE AGAIN or ENTER DICE",
    "alert.dice_fault": "Bad dice read ({reason}): SHAKE AGAIN or ENTER DICE",
    "alert.journal": "Journal problem: {error}. Call the supervisor",
    "alert.not_now": "{what} is not possible now: {why}",
    "alert.illegal": "{error}",
    "alert.unknown_command": "unknown command {command}",
    "dice_fault.invalid_value": "a die read outside 1 to 6",
    "dice_fault.missing_die": "fewer than three dice read",
    "dice_fault.sensor_fault": "the sensor could not read the dice",
    "dice_fault.jammed": "the shaker is jammed",
    "dice_fault.dome_open": "the dome was open",
    "dice_fault.busy": "the shaker was busy",
    "dice_fault.interrupted": "the shaker restarted in the middle of the shake",
    "alert.house_incomplete": "The house hand needs 4 cards on the felt",
    "alert.house_wrong_set": "Set the house hand the house way first",
    "alert.seats_incomplete": "Seat {seat}: {problem}",
    "alert.read_problem": "Check the cards marked in orange",
    "alert.last_round": "Same cards as last round where marked: look at the felt, then CONFIRM again to accept them",
    "alert.resumed": "Resumed round {round} from the journal",
    # manual dice
    "dice.title": "Enter the three dice",
    "dice.die": "Die {n}",
    # void
    "void.title": "Void the round: why?",
    "void.misdeal": "Misdeal",
    "void.dice": "Dice off the table",
    "void.exposed": "Card exposed",
    "void.dispute": "Player dispute",
    "void.device": "Device fault",
    "void.crash": "Kiosk restarted",
    # picker
    "picker.title": "Which card is it?",
    "picker.read": "The camera read {card}: which card is it?",
    "picker.place": "{place}, card {n}",
    "picker.guesses": "Likeliest:",
    # set-up
    "setup.title": "Table set-up",
    "setup.pin": "Supervisor PIN",
    "setup.pin_wrong": "Wrong PIN",
    "setup.game": "Game",
    "setup.table_id": "Table",
    "setup.seats": "Seats in use",
    "setup.min_bet": "Minimum bet",
    "setup.max_bet": "Maximum bet",
    "setup.default_bet": "Bet per seat",
    "setup.commission": "Commission %",
    "setup.copy_rule": "Copy (tie) goes to",
    "setup.copy.house": "the house",
    "setup.copy.highest_card": "highest card",
    "setup.direction": "Dice count",
    "setup.direction.counter_clockwise": "counter-clockwise",
    "setup.direction.clockwise": "clockwise",
    "setup.save": "SAVE",
    "setup.sl.players": "Players",
    "setup.sl.bet": "Bet level",
    "setup.sl.timer": "Turn timer",
    "setup.sl.seconds": "{seconds} s",
    "setup.sl.mode": "Mode",
    "setup.sl.quad_beats_pair_of_twos": "Quad beats a pair of 2s",
    "setup.sm.trump_anytime": "Trump any time",
    "setup.sm.show_dealer_trump_discards": "Dealer's trump discards face up",
    "setup.sm.target": "Game to {target}",
    "setup.yes": "YES",
    "setup.no": "NO",
    "setup.saved": "Saved and journaled",
    "setup.edge": "House edge {edge} % · player wins {win} %, pushes {push} %, loses {lose} %",
    "setup.edge_rounded": " (at {bet} a bet the commission rounds down to {paid}: {edge} %)",
    "setup.edge_counting": "House edge: counting …",
    "setup.round_open": "Finish or void the open round first",
    "setup.sign_in_first": "Not signed in: sign in as a supervisor first",
    "setup.refused": "Not saved",
    "setup.refused.no_seats": "Not saved: choose at least one seat",
    "setup.refused.max_under_min": "Not saved: the maximum bet {max} is under the minimum bet {min}",
    "setup.refused.min_chip": "Not saved: the minimum bet {min} is not a whole number of the smallest chip ({chip})",
    "setup.refused.bet_under_min": "Not saved: the bet per seat {bet} is under the minimum bet {min}",
    "setup.refused.bet_over_max": "Not saved: the bet per seat {bet} is over the maximum bet {max}",
    "setup.refused.bet_chip": "Not saved: the bet per seat {bet} is not a whole number of the smallest chip ({chip})",
    # supervisor
    "sup.title": "Supervisor",
    "sup.recall": "RECALL: last {count} rounds",
    "sup.frame": "#{round} {what}",
    "sup.frame_house": "house",
    "sup.frame_seats": "seats",
    "sup.frame_hold": "KEEP FOR A DISPUTE",
    "sup.frame_held": "KEPT FOR A DISPUTE",
    "sup.frame_close": "CLOSE",
    "sup.frame_zoom_in": "ZOOM +",
    "sup.frame_zoom_out": "ZOOM −",
    "sup.held": "Frames {reason}, by {by}",
    "sup.frame_title": "{caption}: the camera frame of {count} readings, as kept",
    "sup.verify": "VERIFY JOURNAL",
    "sup.verify_ok": "Journal sound: {events} events, chain intact",
    "sup.verify_bad": "JOURNAL ALTERED OR DAMAGED: {error}",
    "sup.void_open": "VOID OPEN ROUND",
    "sup.no_open": "No round is open",
    "sup.devices": "Devices",
    "sup.device_unused": "{device}: not used",
    "sup.journal_line": "Journal: {health} · {detail}",
    "sup.journal_events": "{events} events",
    "device.connecting": "connecting",
    "sup.device_line": ("{device}: {health} {detail} · port {port} · retries {retries}, CRC errors {crc}, duplicates "
        "{duplicates}, "
        "timeouts {timeouts}, reconnects {reconnects}, dice faults {faults}, old frames refused {refused}, "
        "not authenticated {unauthenticated}"),
    "device.up": "firmware {firmware}",
    "device.port.simulated": "simulated on this kiosk",
    "camera.source.synthetic": "synthetic table ({layout})",
    "camera.source.device": "camera {number}",
    "device.down": "link lost, reconnecting",
    "device.fault": "fault {code}",
    "device.fault.wrong_device": "another device answered on this port",
    "device.fault.refused": "the device refused a command",
    "device.fault.not_authenticated": "not authenticated: nothing it sends is taken; call a supervisor",
    "device.fault.unauthenticated_allowed": "protocol 2, NOT authenticated (allowed by the config)",
    "device.fault.protocol": "the device speaks another protocol version",
    "device.fault.echo": "the port sends our own commands back: check the cable",
    "device.fault.driver_error": "the device driver failed",
    "device.state": "state {state}",
    "device.state.ready": "ready",
    "device.state.shaking": "shaking",
    "device.state.dome_open": "dome open",
    "device.state.jammed": "jammed",
    "device.state.sensor_fault": "sensor fault",
    "sup.house_net": "house {net}",
    "sup.replay_ok": "replay agrees",
    "sup.replay_bad": "REPLAY DISAGREES: {error}",
    "sup.lock": "LOCK",
    "sup.recall_mark": "RECALL",
    "sup.status.open": "OPEN",
    "sup.status.settled": "SETTLED",
    "sup.status.voided": "VOIDED",
    "sup.flag": "FLAG",
    "sup.evidence": "evidence",
    "evidence.not_pruned": "evidence frames could not be pruned: {error}",
    "evidence.over_cap": ("evidence frames take {mb} MB, over the {cap} MB cap: the rest belong to open or disputed "
                          "rounds"),
    "sup.round_line": "#{round} {time} {game} {status}: {summary}",
    # signing in (each supervisor as themself)
    "signin.choose": "Touch your supervisor ID",
    "signin.as": "Signed in: {who} · locks in {left} without a touch",
    "signin.wrong": "Wrong PIN: {left} more before sign-in locks",
    "signin.locked": "Too many wrong PINs: sign-in locked for {seconds} s",
    "signin.first_button": "SET UP THE FIRST SUPERVISOR",
    "signin.first_why": "This kiosk has no supervisor yet: the first one picks an ID and a PIN before play",
    "signin.first_id": "Your supervisor ID (digits, such as your badge number)",
    "signin.first_pin": "Choose a PIN (4 to 12 digits)",
    "signin.first_again": "The same PIN again",
    "signin.first_differs": "The two PINs differ: choose the PIN again",
    # the dealer signing in at the table (ID = badge number, then PIN)
    "dealer.id": "Dealer: your ID (badge number)",
    "dealer.pin": "Dealer {dealer}: your PIN",
    "dealer.sign_out": "SIGN OUT {dealer}",
    # the journal failed its check
    "gate.stopped": "Play is stopped: the reason is below",
    "stop.title": "PLAY STOPPED: THE JOURNAL FAILED ITS CHECK",
    "stop.what": ("Nothing can be played or changed on this kiosk. Keep the journal files as evidence; a supervisor "
                  "signs in to see the recall, verify the journal and check the devices."),
    "stop.sign_in": "SUPERVISOR SIGN-IN",
    # camera
    "camera.title": "Live camera",
    "camera.none": "No camera frame yet",
    "zone.house.high": "House high",
    "zone.house.low": "House low",
    "zone.seat.high": "Seat {seat} high",
    "zone.seat.low": "Seat {seat} low",
    # the camera when it cannot read the table (its English detail, with retry timings, stays in the log)
    "camera.source_lost": "{source}: {why}; check the cable or stream",
    "camera.source_finished": "{source}: the recording ended",
    "camera.source_closed": "{source}: closed",
    "camera.source_starting": "{source}: starting",
    "camera.why.cannot_open": "cannot open",
    "camera.why.no_frame": "no frame",
    "camera.read_error": "Card reader unavailable: the cards cannot be read. Call the supervisor",
    "camera.fallback": "No card reader: the felt is read by where the cards were placed",
    "camera.no_frame": "No frame from the camera yet",
    "camera.not_calibrated": "Not calibrated: the four table markers must be in view",
    "camera.calibration_size": ("The camera's picture size differs from its calibration: set it back or calibrate "
                                "again"),
    "camera.flag.unsure": "unsure",
    "camera.flag.covered": "covered",
    "camera.flag.twice": "twice",
    "camera.problem": "The camera's view of the table cannot be read: check the camera",
    # Sâm Lốc / Schmier
    "sl.title": "Sâm Lốc",
    "sl.mode.normal": "standard rules",
    "sl.mode.sam_ngheo_giau": "sâm nghèo and sâm giàu win outright",
    "sl.prompt.start": "Seat {player} leads: deal 10 cards to each player, then press START",
    "sl.prompt.show": "The hand is over: the losers lay their cards face up in their places; check, then CONFIRM",
    "sl.prompt.held": "HELD for a supervisor: a rule was broken (below)",
    "sl.timer_lays": ("Seat {player}'s time ran out: lay his lowest single (highest under báo 1) in the centre, "
                      "then PLAY"),
    "sl.shows": "Seat {player} shows",
    "sl.claim_instant": "TỚI TRẮNG",
    "sl.choose_seat": "Which seat?",
    "sl.sitting_out": "sits out",
    "sl.violations": "Held for a supervisor:",
    "sl.refused.too_few": "fewer than 2 players hold the bet {bet}: no hand can be dealt",
    "sl.refused.nothing_to_show": "no cards are shown now",
    "sl.refused.show_unsure": "the camera is unsure of a card shown: pick it on the screen",
    "sl.refused.show_count": ("seat {player} shows {count} cards, not {expected}: look at the felt; CONFIRM again "
                              "records them as they lie"),
    "sl.refused.held": "held for a supervisor: a supervisor signs in to release it, or VOID",
    "sl.refused.sits_out": "seat {player} sits out this hand",
    "sl.refused.old_hand": "round {round} was dealt by the kiosk: VOID it to go on",
    "sl.prompt.results": "Pay as shown, then CONFIRM",
    "sl.player": "Seat {player}",
    "sl.passed": "passed",
    "sl.on_table": "On the table",
    "sl.table": "Bet {bet} · timer {timer} s · {mode}",
    "sl.turn": "Turn: seat {player}",
    "sl.timer": "{seconds} s",
    "sl.play": "PLAY CARDS",
    "sl.pass": "PASS",
    "sl.declare_sam": "BÁO SÂM",
    "sl.no_sam": "NO SÂM",
    "sl.balance": "Seat {player}: {balance}",
    "sl.cards_left": "{count} cards",
    "sl.payment": "seat {payer} → seat {payee}: {amount} · {reason}",
    "sl.refused.finish_first": "finish this hand first",
    "sl.refused.no_cards": "no cards to play: lay them in the centre, or pick them on the screen",
    "sl.refused.camera_unsure": "the camera is unsure of the cards in the centre: pick them on the screen",
    "sl.refused.nothing_to_confirm": "nothing to confirm now",
    "sl.refused.no_hand_open": "no hand is open",
    "sl.refused.confirm_or_void": "CONFIRM or VOID the hand first",
    "sl.refused.not_playing": "no hand is being played: press START",
    "sm.title": "Schmier",
    "sm.refused.lay_one": "lay one card in the centre, or pick it on the screen",
    "sm.refused.camera_unsure": "the camera is unsure of the card in the centre: pick it on the screen",
    "sm.prompt.deal": "Seat {seat} deals: 6 cards each, 17 kept; then press START",
    "sm.prompt.discard_count": "Seat {seat}: how many cards were discarded face down?",
    "sm.takes_up": "TAKES UP {count}",
    "sm.refused.not_play": "not the time to lay a card: seat {seat} is to bid, name trump or discard",
    "sm.prompt.bidding": "Seat {seat}: bid or pass",
    "sm.prompt.trump": "Seat {seat} won the bid: name trump",
    "sm.prompt.discard": "Seat {seat}: pick the cards to discard (none is fine)",
    "sm.prompt.dealer_discard": "Dealer {seat}: take up the kept cards, keep 6",
    "sm.prompt.play": "Seat {seat} to play: lay the card in the centre",
    "sm.prompt.results": "The six points are in: CONFIRM",
    "sm.discard": "DISCARD {count}",
    "sm.suit": "{suit}",
    "sm.seat": "Seat {seat} · team {team}",
    "sm.dealer": "dealer",
    "sm.high_bid": "Bid {amount} by seat {seat}",
    "sm.last_trick": "Last trick {trick}: {cards} → seat {seat}",
    "sm.trick_play": "{seat}:{card}",  # a card in the trick and its seat (from 1)
    "sm.to": "to {target}",
    "sm.winner": "Team {team} wins the game",
    "sm.bid": "BID {amount}",
    "sm.pass": "PASS",
    "sm.trump": "Trump: {suit}",
    "sm.score": "Team {team}: {score}",
    "sm.trick": "Trick {n}",
    "sm.play": "PLAY CARD",
    # the house-way chart posted at the table (dealer-assist baibuu table --format html --language …)
    "chart.title": "Bài Bửu — house way",
    "chart.note": ("The house sets its four cards by the first rule that applies. Points: A = 1, 2–9 face value, 10 J "
        "Q K = 0; "
        "pictures are J Q K. Every hand below reads cards: HIGH | low. Suits never matter."),
    "chart.pair": "Pair",
    "chart.split_when": "Split when the other two are (Z = 10, J, Q or K)",
    "chart.split_with": "split with {patterns}",
    "chart.never_split": "never split",
    "chart.section": "{title} ({count} hands)",
    "chart.section.natural": "Naturals",
    "chart.section.two pairs": "Two pairs",
    "chart.section.one pair": "One pair",
    "chart.section.Kong or two pictures": "Kong or two pictures",
    "chart.section.otherwise": "Everything else",
    "chart.rule.natural": ("Natural: four of a kind as two pairs; three of a kind with the pair high and the other two "
        "low."),
    "chart.rule.two pairs": "Two pairs: the higher pair high, the lower pair low.",
    "chart.rule.one pair": ("One pair: keep the pair high and the other two low, except the splits in the pair table "
        "(one pair card with "
        "each other card, the better hand high). 4-4, 5-5, 10-10, J-J, Q-Q, K-K, A-A: never split."),
    "chart.rule.Kong or two pictures": ("Kong (A+9) or two pictures: never broken, kept high, the other two low. Two "
        "pictures and a Kong: the "
        "pictures high. Three pictures: the two highest high."),
    "chart.rule.otherwise": ("Otherwise: of the three splits, the highest high hand that leaves 4 or more low; if none "
        "does, the highest "
        "high. Ties: the higher low, then the split keeping the highest card high."),
    # deck enrollment (supervisor)
    "enroll.title": "Deck enrollment",
    # a deck's name as first offered: Latin letters or digits, as the deck's folder is named from them
    "enroll.default_name": "House deck",
    "enroll.capture": "Capture spread",
    "enroll.save": "Save deck",
    "enroll.learn": "Learn",
    "enroll.activate": "Check & use",
    "enroll.activated": "Now reading with {name}: {before} → {after} of {cards} cards right",
    "enroll.close": "Close",
    "enroll.hint": "Spread the cards face up, apart, under the camera; then capture.",
    "enroll.found": "{n} cards found",
    "enroll.saved": "Saved {ref}: learn it next",
    "enroll.learning": "Learning in the background; the table keeps playing",
    "enroll.no_frame": "No camera picture yet",
    "enroll.between_rounds": "Close the round first: a new model starts between rounds",
    "enroll.pick": "Face #{n}: which card?",
    "enroll.missing": "missing {count}: {cards}",
    "enroll.twice": "more than once: {cards} (fix the wrong ones by card)",
    "enroll.unnamed": "faces not named yet: {count}",
    "enroll.look": "proposed with low confidence ({count}): {faces} (confirm or fix)",
    "enroll.cut": ("cards cut by the picture's edge or touching ({count}): move them in, a finger apart, and capture "
                   "again"),
    "enroll.no_cards": "No card found in this picture: spread the cards face up on the felt, apart from each other",
    "enroll.bad_name": "A deck name needs Latin letters or digits, such as A1",
    "enroll.failed.capture": ("The cards could not be cut out of this picture: spread them face up, a finger apart, "
                              "and capture again"),
    "enroll.failed.save": "The deck could not be saved",
    "enroll.failed.learn": "Learning could not start",
    "enroll.failed.check": ("The new reading could not be checked on the cards under the camera: spread the deck face "
                            "up and try again"),
    "enroll.state.not started": "not started",
    "enroll.state.running": "learning",
    "enroll.state.done": "done",
    "enroll.state.failed": "failed",
    "enroll.state.stopped": "stopped",
    "enroll.stage.not started": "not started",
    "enroll.stage.scenes": "making practice pictures",
    "enroll.stage.crops": "cutting out the cards",
    "enroll.stage.train": "training",
    "enroll.stage.export": "saving the new reading",
    "enroll.stage.done": "done",
    "enroll.eta": "about {min} min {s} s left",
    "enroll.epoch": "pass {epoch} of {epochs}",
    "common.centre": "Centre",
    "common.start": "START",
    "common.settlement": "Settlement",
    "common.payment": "{payer} pays {payee} {amount}: {reason}",
    # the replay commands (dealer-assist samloc replay / schmier replay --language vi|km); seats from 1
    "sl.cli.header": ("Sâm Lốc, {players} players, bet {bet}, turn timer {timer} s, {mode}; seat {player} would "
                      "lead"),
    "sl.cli.seat_cards": "seat {player}: {cards}",
    "sl.cli.result": "result: {result} (collecting: {winners})",
    "sl.cli.result.win": "won",
    "sl.cli.result.instant_win": "instant win",
    "sl.cli.result.sam_success": "sâm made",
    "sl.cli.result.sam_fail": "sâm failed",
    "sl.cli.result.thoi_finish": "out on a 2 (stinky)",
    "sl.cli.nobody": "nobody",
    "sl.cli.seat": "seat {player}",
    "sl.cli.pays": "seat {payer} pays seat {payee} {amount}: {reason}",
    "sl.cli.net": "seat {player} {net}",
    "sl.cli.nets": "nets: {nets}",
    "sl.cli.next": "next hand: seat {player} leads",
    "sm.cli.header": "Schmier hand: seat {seat} deals; scores going in: {scores}",
    "sm.cli.team_score": "team {team} {score}",
    "sm.cli.thrown_in": "all passed: the cards are thrown in and the same dealer deals again",
    "sm.cli.point": "{title}: {who}: {reason}",
    "sm.cli.point.high": "High",
    "sm.cli.point.low": "Low",
    "sm.cli.point.right_bauer": "Right bauer",
    "sm.cli.point.left_bauer": "Left bauer",
    "sm.cli.point.joker": "Joker",
    "sm.cli.point.game": "Game",
    "sm.cli.team": "team {team}",
    "sm.cli.nobody": "nobody",
    "sm.cli.made": "bid: seat {seat} (team {team}) bid {bid} and took {taken}: made it",
    "sm.cli.set": "bid: seat {seat} (team {team}) bid {bid} and took {taken}: went set, minus {bid}",
    "sm.cli.hand": "hand: {points}",
    "sm.cli.scores": "scores: {scores}",
    "sm.cli.winner": "game over: team {team} wins with {score}",
    "sm.cli.tied": "tied at {score} without the bidding team: another hand is played",
    "sl.cli.table_header": ("Sâm Lốc table record, {players} players, bet {bet}, turn timer {timer} s, {mode}; seat "
                            "{player} would lead"),
    "sl.cli.rebuilt": "the hands as dealt, rebuilt from what each seat played and showed:",
    "sl.cli.rebuilt_unknown": "seat {player}: not known (it played and showed nothing)",
    "sm.cli.table_header": "Schmier table record: seat {seat} deals; scores going in: {scores}",
    "cli.violation": "VIOLATION ({kind}): {message}",
    "cli.held": "HELD for a supervisor: {count} rules broken; nothing is paid until a supervisor has looked",
}

TEXTS_VI = Translations("vi", "kiosk", ENGLISH)
TEXTS_KM = Translations("km", "kiosk", ENGLISH)
TRANSLATIONS: dict[str, Translations] = {"vi": TEXTS_VI, "km": TEXTS_KM}
TEXTS: Mapping[str, tuple[str, str]] = EnglishAndVietnamese(ENGLISH, TEXTS_VI)
"""key → (English, Vietnamese), the shape screens and tests have always looked texts up in."""

PHRASES: dict[str, Mapping[str, str]] = {"vi": PHRASES_VI, "km": PHRASES_KM}

# English for one of a thing (Vietnamese and Khmer do not inflect a noun by number).
ENGLISH_ONE: dict[str, str] = {
    "bb.waiting_cards": "waiting for 1 card",
    "sl.cards_left": "1 card",
    "sup.recall": "RECALL: the last round",
    "sup.frame_title": "{caption}: the camera frame of 1 reading, as kept",
}


class Catalogue:
    """The texts in the language the dealer picked."""

    def __init__(self, language: str = "en") -> None:
        self.language = "en"
        self.set_language(language)

    def set_language(self, language: str) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}: the kiosk speaks {', '.join(LANGUAGES)}")
        self.language = language

    def toggle(self) -> str:
        self.set_language(LANGUAGES[(LANGUAGES.index(self.language) + 1) % len(LANGUAGES)])
        return self.language

    def text(self, key: str | Msg, **params: Any) -> str:
        if isinstance(key, Msg):
            params = {**key.params, **params}
            key = key.key
        params = table_numbers(key, params)
        english = ENGLISH.get(key)
        if english is None:
            raise KeyError(f"no text {key!r} in the catalogue")
        language = TRANSLATIONS.get(self.language)
        template = (language.get(key) if language is not None else None) or english
        if self.language == "en" and _is_one(params, key):
            template = ENGLISH_ONE[key]
        translated = {name: self._param(value) for name, value in params.items()}
        if key == "bb.prompt.voided":  # the reason's code (or the panel's words, as journaled), worded
            reason = str(params.get("reason", ""))
            translated["reason"] = self.text(f"void.{reason}") if f"void.{reason}" in ENGLISH else self.phrase(
                void_words(reason))
        return template.format(**translated)

    def phrase(self, text: str) -> str:
        """An engine's text in the dealer's language: a ``Phrase`` with a translation is worded anew (its values
        too); English, or a plain string, is shown as the engine wrote it."""
        if not isinstance(text, Phrase):
            return text
        template = PHRASES.get(self.language, {}).get(text.key)
        if self.language == "en" and _is_one(text.params, text.key):
            template = ENGLISH_ONE[text.key]
        params = table_numbers(text.key, text.params)
        if template is None:  # English: worded anew too, so its seats are numbered as the table numbers them
            template = TEMPLATES.get(text.key)
        if template is None:
            return str(text)
        return template.format(**{name: self._param(value) for name, value in params.items()})

    def _param(self, value: Any) -> Any:
        # A message may carry another message (a problem inside an alert) or an engine's phrase: translate it too.
        # Cards are shown as every screen shows them (7♥), never as the codes a record keeps (7H).
        if isinstance(value, Msg):
            return self.text(value)
        if isinstance(value, Phrase):
            return self.phrase(value)
        if isinstance(value, (Card, CardsText)):
            return value.pretty
        return value


# Sâm Lốc and Schmier count seats and teams from 0 inside (the engines, the journal); the table numbers them from 1.
_COUNTED_FROM_ZERO = ("sl.", "sm.", *COUNTED_FROM_ZERO)


def table_numbers(key: str, params: Mapping[str, Any]) -> Mapping[str, Any]:
    """The values of a Sâm Lốc or Schmier text with its seats and teams numbered from 1, as the table numbers them."""
    return people_numbers(key, params, _COUNTED_FROM_ZERO)


def language_button_text(language: str) -> str:
    """The language button's words: the name of the language a tap switches to, in its own script."""
    return LANGUAGE_NAMES[LANGUAGES[(LANGUAGES.index(language) + 1) % len(LANGUAGES)]]


def _is_one(params: Mapping[str, Any], key: str) -> bool:
    return key in ENGLISH_ONE and params.get("count") == 1


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}
