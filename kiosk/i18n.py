"""Every text the kiosk shows, in one catalogue: English, Vietnamese and Khmer (table words from the glossary; the
Khmer words are in ``kiosk.i18n_km``).

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
from journal.phrase_words import PHRASES_KM, PHRASES_VI
from journal.words import void_words
from kiosk.i18n_km import TEXTS_KM

LANGUAGES = ("en", "vi", "km")
# Each language's name in its own script: the language button shows the next one's.
LANGUAGE_NAMES = {"en": "English", "vi": "Tiếng Việt", "km": "ខ្មែរ"}


@dataclass(frozen=True)
class Msg:
    """A message to show, before translation: a catalogue key and the values it names."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


# key: (English, Vietnamese)
TEXTS: dict[str, tuple[str, str]] = {
    # status bar
    "status.camera": ("Camera", "Máy quay"),
    "status.shaker": ("Shaker", "Máy lắc"),
    "status.panel": ("Buttons", "Bảng nút"),
    "status.journal": ("Journal", "Nhật ký"),
    "health.ok": ("OK", "Tốt"),
    "health.warn": ("CHECK", "KIỂM TRA"),
    "health.down": ("OFFLINE", "MẤT KẾT NỐI"),
    "health.off": ("not used", "không dùng"),
    "status.table": ("Table {table}", "Bàn {table}"),
    "status.called": ("SUPERVISOR CALLED", "ĐÃ GỌI GIÁM SÁT"),
    "status.device_refused": (
        "{device} NOT AUTHENTICATED ({serial}): call a supervisor", "{device} KHÔNG XÁC THỰC ({serial}): gọi giám sát"
    ),
    "status.devices_v2": (
        "devices NOT authenticated (protocol 2 allowed)", "thiết bị KHÔNG xác thực (cho phép giao thức 2)"
    ),
    "status.round": ("Round {round}", "Ván {round}"),
    "status.dealer": ("Dealer {dealer}", "Người chia {dealer}"),
    "status.no_dealer": ("NO DEALER SIGNED IN", "CHƯA CÓ NGƯỜI CHIA ĐĂNG NHẬP"),
    "health.unsynced": ("CLOCK NOT SYNCHRONISED", "ĐỒNG HỒ CHƯA ĐỒNG BỘ"),
    # navigation
    "nav.table": ("TABLE", "BÀN"),
    "nav.camera": ("CAMERA", "MÁY QUAY"),
    "nav.setup": ("SET-UP", "CÀI ĐẶT"),
    "nav.supervisor": ("SUPERVISOR", "GIÁM SÁT"),
    "nav.back": ("BACK", "QUAY LẠI"),
    "nav.dealer": ("DEALER {dealer}", "NGƯỜI CHIA {dealer}"),
    "nav.dealer_sign_in": ("DEALER: SIGN IN", "NGƯỜI CHIA: ĐĂNG NHẬP"),
    # round buttons (the same commands as the button panel)
    "button.shake": ("SHAKE", "LẮC"),
    "button.reshake": ("SHAKE AGAIN", "LẮC LẠI"),
    "button.manual_dice": ("ENTER DICE", "NHẬP XÚC XẮC"),
    "button.confirm": ("CONFIRM", "XÁC NHẬN"),
    "button.void": ("VOID", "HỦY VÁN"),
    "button.next": ("NEXT ROUND", "VÁN MỚI"),
    "button.cancel": ("CANCEL", "BỎ QUA"),
    "button.ok": ("OK", "ĐỒNG Ý"),
    "button.remove_card": ("NO CARD HERE", "KHÔNG CÓ LÁ"),
    # games
    "game.baibuu": ("Bài Bửu", "Bài Bửu"),
    "game.samloc": ("Sâm Lốc", "Sâm Lốc"),
    "game.schmier": ("Schmier", "Schmier"),
    # Bài Bửu round prompts
    "bb.title": ("Bài Bửu", "Bài Bửu"),
    "bb.prompt.shake": ("Press SHAKE to start the round", "Nhấn LẮC để bắt đầu ván"),
    "bb.prompt.shaking": ("Shaking the dice…", "Đang lắc xúc xắc…"),
    "bb.prompt.shake_stopped": (
        "No dice yet: SHAKE AGAIN, or shake by hand and ENTER DICE",
        "Chưa có xúc xắc: LẮC LẠI, hoặc lắc tay rồi NHẬP XÚC XẮC",
    ),
    "bb.prompt.deal": (
        "Deal: first stack to position {first}. Then open the house stack",
        "Chia: chồng đầu cho vị trí {first}. Rồi mở bài nhà cái",
    ),
    "bb.prompt.house": ("Open the house hand on the felt", "Mở bài nhà cái trên bàn"),
    "bb.prompt.house_set": (
        "Set the house hand as shown, then CONFIRM",
        "Xếp bài nhà cái như hình, rồi XÁC NHẬN",
    ),
    "bb.prompt.house_ok": (
        "House hand set right. CONFIRM, then open the seats",
        "Nhà cái xếp đúng. XÁC NHẬN, rồi mở bài các ghế",
    ),
    "bb.prompt.seats": (
        "Open every seat's high and low hand, then CONFIRM",
        "Mở tay cao và tay thấp từng ghế, rồi XÁC NHẬN",
    ),
    "bb.prompt.results": ("Pay the results, then CONFIRM", "Trả tiền theo kết quả, rồi XÁC NHẬN"),
    "bb.prompt.closed": ("Round closed. NEXT ROUND when ready", "Ván đã đóng. Nhấn VÁN MỚI"),
    "bb.prompt.voided": ("Round voided: {reason}. NEXT ROUND when ready", "Ván đã hủy: {reason}. Nhấn VÁN MỚI"),
    "bb.dice": ("Dice {a} · {b} · {c} = {total}", "Xúc xắc {a} · {b} · {c} = {total}"),
    "bb.dice.manual": ("entered by hand", "nhập tay"),
    "bb.first": ("First stack → position {first}", "Chồng đầu → vị trí {first}"),
    "bb.house_stack": ("House gets stack {stack}", "Nhà cái nhận chồng {stack}"),
    "bb.position": ("{n}", "{n}"),
    "bb.house": ("HOUSE", "NHÀ CÁI"),
    "bb.house_hand": ("House hand", "Bài nhà cái"),
    "bb.house_way": ("House way", "Cách xếp nhà cái"),
    "bb.high": ("HIGH", "TAY CAO"),
    "bb.low": ("LOW", "TAY THẤP"),
    "bb.on_felt": ("On the felt", "Trên bàn"),
    "bb.set_ok": ("SET RIGHT ✔", "XẾP ĐÚNG ✔"),
    "bb.set_wrong": (
        "WRONG SET: put {high} high and {low} low",
        "XẾP SAI: đặt {high} tay cao, {low} tay thấp",
    ),
    "bb.seat": ("Seat {seat}", "Ghế {seat}"),
    "bb.bet": ("Bet {bet}", "Cược {bet}"),
    "bb.outcome.win": ("WIN", "THẮNG"),
    "bb.outcome.push": ("PUSH", "HÒA"),
    "bb.outcome.lose": ("LOSE", "THUA"),
    "bb.outcome.mis-set": ("MIS-SET", "XẾP SAI"),
    "bb.outcome.natural": ("NATURAL", "BÀI TỰ NHIÊN"),
    "bb.pay": ("pay {amount}", "trả {amount}"),
    "bb.take": ("take {amount}", "thu {amount}"),
    "bb.back": ("return bet", "trả lại cược"),
    "bb.commission": ("commission {amount}", "hoa hồng {amount}"),
    "bb.to_pay": ("pay", "trả"),
    "bb.to_take": ("take", "thu"),
    "bb.house_pays": ("House pays", "Nhà cái trả"),
    "bb.house_takes": ("House takes", "Nhà cái thu"),
    "bb.waiting_cards": ("waiting for {count} cards", "chờ {count} lá"),
    "bb.sitting_out": ("sitting out", "không chơi"),
    "bb.limits": ("Limits {low}–{high}", "Giới hạn {low}–{high}"),
    "bb.round_total": (
        "This round: bets {bets}, paid {paid}, taken {taken}, commission {commission}",
        "Ván này: cược {bets}, trả {paid}, thu {taken}, hoa hồng {commission}",
    ),
    "bb.last_rounds": ("House, last rounds: {results}", "Nhà cái, các ván trước: {results}"),
    # two-card hands and the house-way rules (names of the posted rules)
    "hand.points": ("{n} points", "{n} điểm"),
    "hand.pair": ("pair of {rank}", "đôi {rank}"),
    "hand.kong": ("Kong (A+9)", "công nhỏ (A+9)"),
    "hand.pictures": ("two pictures", "công lớn"),
    "rule.natural": ("natural", "bài tự nhiên"),
    "rule.two pairs": ("two pairs", "hai đôi"),
    "rule.one pair": ("one pair", "một đôi"),
    "rule.Kong or two pictures": ("Kong or two pictures", "công"),
    "rule.otherwise": ("otherwise", "còn lại"),
    "rule.line": ("{line}", "Luật {name}: {line}"),
    # reading problems
    "read.low_confidence": ("unsure: tap to check", "chưa chắc: chạm để sửa"),
    "read.duplicate": ("seen twice: tap to fix", "trùng lá: chạm để sửa"),
    "read.too_many": ("{count} cards in a {expected}-card place", "{count} lá ở chỗ {expected} lá"),
    "read.too_few": ("{count} of {expected} cards", "{count}/{expected} lá"),
    "read.corrected": ("corrected by hand", "đã sửa tay"),
    "read.partly_covered": ("partly covered", "bị che"),
    "read.last_round": ("same cards as last round: look at the felt", "giống bài ván trước: xem lại trên bàn"),
    "read.same_card_twice": ("{card} is on the felt twice: check the reads", "{card} xuất hiện hai lần: kiểm tra lại"),
    # alerts
    "alert.shaker_offline": (
        "Shaker offline: SHAKE AGAIN, or shake by hand and ENTER DICE",
        "Máy lắc mất kết nối: LẮC LẠI, hoặc lắc tay rồi NHẬP XÚC XẮC",
    ),
    "alert.shaker_timeout": (
        "No dice result from the shaker: SHAKE AGAIN or ENTER DICE",
        "Máy lắc không trả kết quả: LẮC LẠI hoặc NHẬP XÚC XẮC",
    ),
    "alert.dice_fault": (
        "Bad dice read ({reason}): SHAKE AGAIN or ENTER DICE",
        "Đọc xúc xắc lỗi ({reason}): LẮC LẠI hoặc NHẬP XÚC XẮC",
    ),
    "alert.journal": ("Journal problem: {error}. Call the supervisor", "Lỗi nhật ký: {error}. Gọi giám sát"),
    "alert.not_now": ("{what} is not possible now: {why}", "Không thể {what} lúc này: {why}"),
    "alert.illegal": ("{error}", "{error}"),
    "alert.unknown_command": ("unknown command {command}", "lệnh không rõ {command}"),
    "dice_fault.invalid_value": ("a die read outside 1 to 6", "một viên xúc xắc đọc ra ngoài 1 đến 6"),
    "dice_fault.missing_die": ("fewer than three dice read", "đọc được ít hơn ba viên xúc xắc"),
    "dice_fault.sensor_fault": ("the sensor could not read the dice", "cảm biến không đọc được xúc xắc"),
    "dice_fault.jammed": ("the shaker is jammed", "máy lắc bị kẹt"),
    "dice_fault.dome_open": ("the dome was open", "nắp đang mở"),
    "dice_fault.busy": ("the shaker was busy", "máy lắc đang bận"),
    "dice_fault.interrupted": (
        "the shaker restarted in the middle of the shake", "máy lắc khởi động lại giữa lúc lắc"
    ),
    "alert.house_incomplete": ("The house hand needs 4 cards on the felt", "Bài nhà cái cần đủ 4 lá trên bàn"),
    "alert.house_wrong_set": ("Set the house hand the house way first", "Xếp bài nhà cái đúng cách trước"),
    "alert.seats_incomplete": ("Seat {seat}: {problem}", "Ghế {seat}: {problem}"),
    "alert.read_problem": ("Check the cards marked in orange", "Kiểm tra các lá viền cam"),
    "alert.last_round": (
        "Same cards as last round where marked: look at the felt, then CONFIRM again to accept them",
        "Bài giống ván trước ở chỗ đánh dấu: xem lại trên bàn, rồi XÁC NHẬN lần nữa để chấp nhận",
    ),
    "alert.resumed": ("Resumed round {round} from the journal", "Tiếp tục ván {round} từ nhật ký"),
    # manual dice
    "dice.title": ("Enter the three dice", "Nhập ba xúc xắc"),
    "dice.die": ("Die {n}", "Xúc xắc {n}"),
    # void
    "void.title": ("Void the round: why?", "Hủy ván: lý do?"),
    "void.misdeal": ("Misdeal", "Chia sai"),
    "void.dice": ("Dice off the table", "Xúc xắc rơi"),
    "void.exposed": ("Card exposed", "Lộ bài"),
    "void.dispute": ("Player dispute", "Tranh chấp"),
    "void.device": ("Device fault", "Lỗi thiết bị"),
    "void.crash": ("Kiosk restarted", "Máy khởi động lại"),
    # picker
    "picker.title": ("Which card is it?", "Lá nào?"),
    "picker.read": ("The camera read {card}: which card is it?", "Máy quay đọc {card}: lá nào?"),
    "picker.place": ("{place}, card {n}", "{place}, lá {n}"),
    "picker.guesses": ("Likeliest:", "Có thể là:"),
    # set-up
    "setup.title": ("Table set-up", "Cài đặt bàn"),
    "setup.pin": ("Supervisor PIN", "Mã PIN giám sát"),
    "setup.pin_wrong": ("Wrong PIN", "Sai mã PIN"),
    "setup.game": ("Game", "Trò chơi"),
    "setup.table_id": ("Table", "Bàn"),
    "setup.seats": ("Seats in use", "Ghế đang chơi"),
    "setup.min_bet": ("Minimum bet", "Cược tối thiểu"),
    "setup.max_bet": ("Maximum bet", "Cược tối đa"),
    "setup.default_bet": ("Bet per seat", "Cược mỗi ghế"),
    "setup.commission": ("Commission %", "Hoa hồng %"),
    "setup.copy_rule": ("Copy (tie) goes to", "Bài bằng nhau"),
    "setup.copy.house": ("the house", "nhà cái ăn"),
    "setup.copy.highest_card": ("highest card", "lá cao nhất"),
    "setup.direction": ("Dice count", "Chiều đếm"),
    "setup.direction.counter_clockwise": ("counter-clockwise", "ngược chiều kim đồng hồ"),
    "setup.direction.clockwise": ("clockwise", "chiều kim đồng hồ"),
    "setup.save": ("SAVE", "LƯU"),
    "setup.sl.players": ("Players", "Số người chơi"),
    "setup.sl.bet": ("Bet level", "Mức cược"),
    "setup.sl.timer": ("Turn timer", "Thời gian lượt"),
    "setup.sl.seconds": ("{seconds} s", "{seconds} giây"),
    "setup.sl.mode": ("Mode", "Chế độ"),
    "setup.sl.quad_beats_pair_of_twos": ("Quad beats a pair of 2s", "Tứ quý chặt đôi heo"),
    "setup.sm.trump_anytime": ("Trump any time", "Được đánh chủ bất cứ lúc nào"),
    "setup.sm.show_dealer_trump_discards": ("Dealer's trump discards face up", "Lá chủ nhà cái bỏ để ngửa"),
    "setup.sm.target": ("Game to {target}", "Trận đến {target}"),
    "setup.yes": ("YES", "CÓ"),
    "setup.no": ("NO", "KHÔNG"),
    "setup.saved": ("Saved and journaled", "Đã lưu và ghi nhật ký"),
    "setup.edge": (
        "House edge {edge} % · player wins {win} %, pushes {push} %, loses {lose} %",
        "Lợi thế nhà cái {edge} % · người chơi thắng {win} %, hòa {push} %, thua {lose} %",
    ),
    "setup.edge_rounded": (
        " (at {bet} a bet the commission rounds down to {paid}: {edge} %)",
        " (cược {bet} thì hoa hồng làm tròn xuống {paid}: {edge} %)",
    ),
    "setup.edge_counting": ("House edge: counting …", "Lợi thế nhà cái: đang tính …"),
    "setup.round_open": ("Finish or void the open round first", "Kết thúc hoặc hủy ván đang mở trước"),
    "setup.sign_in_first": ("Not signed in: sign in as a supervisor first",
                            "Chưa đăng nhập: hãy đăng nhập giám sát trước"),
    "setup.refused": ("Not saved", "Chưa lưu: bàn không nhận cài đặt này"),
    "setup.refused.no_seats": ("Not saved: choose at least one seat", "Chưa lưu: chọn ít nhất một ghế"),
    "setup.refused.max_under_min": ("Not saved: the maximum bet {max} is under the minimum bet {min}",
                                    "Chưa lưu: cược tối đa {max} nhỏ hơn cược tối thiểu {min}"),
    "setup.refused.min_chip": ("Not saved: the minimum bet {min} is not a whole number of the smallest chip ({chip})",
                               "Chưa lưu: cược tối thiểu {min} không chia hết cho phỉnh nhỏ nhất ({chip})"),
    "setup.refused.bet_under_min": ("Not saved: the bet per seat {bet} is under the minimum bet {min}",
                                    "Chưa lưu: cược mỗi ghế {bet} nhỏ hơn cược tối thiểu {min}"),
    "setup.refused.bet_over_max": ("Not saved: the bet per seat {bet} is over the maximum bet {max}",
                                   "Chưa lưu: cược mỗi ghế {bet} lớn hơn cược tối đa {max}"),
    "setup.refused.bet_chip": ("Not saved: the bet per seat {bet} is not a whole number of the smallest chip ({chip})",
                               "Chưa lưu: cược mỗi ghế {bet} không chia hết cho phỉnh nhỏ nhất ({chip})"),
    # supervisor
    "sup.title": ("Supervisor", "Giám sát"),
    "sup.recall": ("RECALL: last {count} rounds", "XEM LẠI: {count} ván gần nhất"),
    "sup.frame": ("#{round} {what}", "#{round} {what}"),
    "sup.frame_house": ("house", "nhà cái"),
    "sup.frame_seats": ("seats", "các ghế"),
    "sup.frame_hold": ("KEEP FOR A DISPUTE", "GIỮ LẠI (TRANH CHẤP)"),
    "sup.frame_held": ("KEPT FOR A DISPUTE", "ĐÃ GIỮ (TRANH CHẤP)"),
    "sup.frame_close": ("CLOSE", "ĐÓNG"),
    "sup.frame_zoom_in": ("ZOOM +", "PHÓNG TO +"),
    "sup.frame_zoom_out": ("ZOOM −", "THU NHỎ −"),
    "sup.held": ("Frames {reason}, by {by}", "Ảnh bằng chứng {reason}, bởi {by}"),
    "sup.frame_title": (
        "{caption}: the camera frame of {count} readings, as kept",
        "{caption}: ảnh máy quay của {count} lần đọc, như đã lưu",
    ),
    "sup.verify": ("VERIFY JOURNAL", "KIỂM TRA NHẬT KÝ"),
    "sup.verify_ok": ("Journal sound: {events} events, chain intact", "Nhật ký nguyên vẹn: {events} sự kiện"),
    "sup.verify_bad": ("JOURNAL ALTERED OR DAMAGED: {error}", "NHẬT KÝ BỊ SỬA HOẶC HỎNG: {error}"),
    "sup.void_open": ("VOID OPEN ROUND", "HỦY VÁN ĐANG MỞ"),
    "sup.no_open": ("No round is open", "Không có ván đang mở"),
    "sup.devices": ("Devices", "Thiết bị"),
    "sup.device_unused": ("{device}: not used", "{device}: không dùng"),
    "sup.journal_line": ("Journal: {health} · {detail}", "Nhật ký: {health} · {detail}"),
    "sup.journal_events": ("{events} events", "{events} sự kiện"),
    "device.connecting": ("connecting", "đang kết nối"),
    "sup.device_line": (
        "{device}: {health} {detail} · port {port} · retries {retries}, CRC errors {crc}, duplicates {duplicates}, "
        "timeouts {timeouts}, reconnects {reconnects}, dice faults {faults}, old frames refused {refused}, "
        "not authenticated {unauthenticated}",
        "{device}: {health} {detail} · cổng {port} · gửi lại {retries}, lỗi mã kiểm tra {crc}, trùng {duplicates}, "
        "quá giờ {timeouts}, kết nối lại {reconnects}, lỗi xúc xắc {faults}, khung cũ bị từ chối {refused}, "
        "không xác thực {unauthenticated}",
    ),
    "device.up": ("firmware {firmware}", "phần mềm {firmware}"),
    "device.port.simulated": ("simulated on this kiosk", "mô phỏng trên máy này"),
    "camera.source.synthetic": ("synthetic table ({layout})", "bàn mô phỏng ({layout})"),
    "camera.source.device": ("camera {number}", "máy quay {number}"),
    "device.down": ("link lost, reconnecting", "mất kết nối, đang kết nối lại"),
    "device.fault": ("fault {code}", "lỗi {code}"),
    "device.fault.wrong_device": ("another device answered on this port", "thiết bị khác trả lời trên cổng này"),
    "device.fault.refused": ("the device refused a command", "thiết bị từ chối một lệnh"),
    "device.fault.not_authenticated": (
        "not authenticated: nothing it sends is taken; call a supervisor",
        "không xác thực: không nhận gì từ thiết bị; gọi giám sát",
    ),
    "device.fault.unauthenticated_allowed": (
        "protocol 2, NOT authenticated (allowed by the config)", "giao thức 2, KHÔNG xác thực (cấu hình cho phép)"
    ),
    "device.fault.protocol": ("the device speaks another protocol version", "thiết bị dùng phiên bản giao thức khác"),
    "device.fault.echo": (
        "the port sends our own commands back: check the cable", "cổng gửi lại chính lệnh của ta: kiểm tra dây cáp"
    ),
    "device.fault.driver_error": ("the device driver failed", "trình điều khiển thiết bị bị lỗi"),
    "device.state": ("state {state}", "trạng thái {state}"),
    "device.state.ready": ("ready", "sẵn sàng"),
    "device.state.shaking": ("shaking", "đang lắc"),
    "device.state.dome_open": ("dome open", "nắp đang mở"),
    "device.state.jammed": ("jammed", "bị kẹt"),
    "device.state.sensor_fault": ("sensor fault", "lỗi cảm biến"),
    "sup.house_net": ("house {net}", "nhà cái {net}"),
    "sup.replay_ok": ("replay agrees", "phát lại khớp"),
    "sup.replay_bad": ("REPLAY DISAGREES: {error}", "PHÁT LẠI KHÔNG KHỚP: {error}"),
    "sup.lock": ("LOCK", "KHÓA"),
    "sup.recall_mark": ("RECALL", "XEM LẠI"),
    "sup.status.open": ("OPEN", "ĐANG MỞ"),
    "sup.status.settled": ("SETTLED", "ĐÃ TRẢ"),
    "sup.status.voided": ("VOIDED", "ĐÃ HỦY"),
    "sup.flag": ("FLAG", "CHÚ Ý"),
    "sup.evidence": ("evidence", "bằng chứng"),
    "evidence.not_pruned": ("evidence frames could not be pruned: {error}", "không xoá được ảnh bằng chứng: {error}"),
    "evidence.over_cap": ("evidence frames take {mb} MB, over the {cap} MB cap: the rest belong to open or disputed "
                          "rounds", "ảnh bằng chứng chiếm {mb} MB, vượt giới hạn {cap} MB: phần còn lại thuộc các ván "
                          "đang mở hoặc đang tranh chấp"),
    "sup.round_line": ("#{round} {time} {game} {status}: {summary}", "#{round} {time} {game} {status}: {summary}"),
    # signing in (each supervisor as themself)
    "signin.choose": ("Touch your supervisor ID", "Chạm mã giám sát của bạn"),
    "signin.as": ("Signed in: {who} · locks in {left} without a touch",
                  "Đã đăng nhập: {who} · tự khóa sau {left} nếu không chạm"),
    "signin.wrong": ("Wrong PIN: {left} more before sign-in locks", "Sai mã PIN: còn {left} lần trước khi bị khóa"),
    "signin.locked": ("Too many wrong PINs: sign-in locked for {seconds} s",
                      "Sai mã PIN quá nhiều: khóa {seconds} giây"),
    "signin.first_button": ("SET UP THE FIRST SUPERVISOR", "TẠO GIÁM SÁT ĐẦU TIÊN"),
    "signin.first_why": ("This kiosk has no supervisor yet: the first one picks an ID and a PIN before play",
                         "Máy chưa có giám sát: người đầu tiên chọn mã và PIN trước khi chơi"),
    "signin.first_id": ("Your supervisor ID (digits, such as your badge number)",
                        "Mã giám sát của bạn (chữ số, ví dụ số thẻ)"),
    "signin.first_pin": ("Choose a PIN (4 to 12 digits)", "Chọn mã PIN (4 đến 12 chữ số)"),
    "signin.first_again": ("The same PIN again", "Nhập lại mã PIN"),
    "signin.first_differs": ("The two PINs differ: choose the PIN again", "Hai mã PIN khác nhau: chọn lại"),
    # the dealer signing in at the table (ID = badge number, then PIN)
    "dealer.id": ("Dealer: your ID (badge number)", "Người chia: mã của bạn (số thẻ)"),
    "dealer.pin": ("Dealer {dealer}: your PIN", "Người chia {dealer}: mã PIN"),
    "dealer.sign_out": ("SIGN OUT {dealer}", "ĐĂNG XUẤT {dealer}"),
    # the journal failed its check
    "gate.stopped": ("Play is stopped: the reason is below", "Đã ngừng chơi: lý do ở dưới"),
    "stop.title": ("PLAY STOPPED: THE JOURNAL FAILED ITS CHECK", "NGỪNG CHƠI: NHẬT KÝ KHÔNG QUA KIỂM TRA"),
    "stop.what": ("Nothing can be played or changed on this kiosk. Keep the journal files as evidence; a supervisor "
                  "signs in to see the recall, verify the journal and check the devices.",
                  "Không thể chơi hay thay đổi gì trên máy này. Giữ nguyên tệp nhật ký làm bằng chứng; giám sát "
                  "đăng nhập để xem lại các ván, kiểm tra nhật ký và thiết bị."),
    "stop.sign_in": ("SUPERVISOR SIGN-IN", "GIÁM SÁT ĐĂNG NHẬP"),
    # camera
    "camera.title": ("Live camera", "Máy quay trực tiếp"),
    "camera.none": ("No camera frame yet", "Chưa có hình từ máy quay"),
    "zone.house.high": ("House high", "Nhà cái tay cao"),
    "zone.house.low": ("House low", "Nhà cái tay thấp"),
    "zone.seat.high": ("Seat {seat} high", "Ghế {seat} tay cao"),
    "zone.seat.low": ("Seat {seat} low", "Ghế {seat} tay thấp"),
    # the camera when it cannot read the table (its English detail, with retry timings, stays in the log)
    "camera.source_lost": ("{source}: {why}; check the cable or stream",
                           "{source}: {why}; kiểm tra dây cáp hoặc đường truyền hình"),
    "camera.source_finished": ("{source}: the recording ended", "{source}: đoạn phim đã hết"),
    "camera.source_closed": ("{source}: closed", "{source}: đã đóng"),
    "camera.source_starting": ("{source}: starting", "{source}: đang khởi động"),
    "camera.why.cannot_open": ("cannot open", "không mở được"),
    "camera.why.no_frame": ("no frame", "không có hình"),
    "camera.read_error": ("Card reader unavailable: the cards cannot be read. Call the supervisor",
                          "Không dùng được bộ đọc bài: không đọc được lá bài. Gọi giám sát"),
    "camera.fallback": ("No card reader: the felt is read by where the cards were placed",
                        "Không có bộ đọc bài: bàn được đọc theo chỗ đặt lá bài"),
    "camera.no_frame": ("No frame from the camera yet", "Chưa có hình từ máy quay"),
    "camera.not_calibrated": ("Not calibrated: the four table markers must be in view",
                              "Chưa hiệu chỉnh: bốn dấu mốc của bàn phải nằm trong khung hình"),
    "camera.calibration_size": ("The camera's picture size differs from its calibration: set it back or calibrate "
                                "again", "Cỡ hình của máy quay khác lúc hiệu chỉnh: đặt lại hoặc hiệu chỉnh lại"),
    "camera.flag.unsure": ("unsure", "chưa chắc"),
    "camera.flag.covered": ("covered", "bị che"),
    "camera.flag.twice": ("twice", "trùng"),
    "camera.problem": ("The camera's view of the table cannot be read: check the camera",
                       "Không đọc được hình bàn từ máy quay: kiểm tra máy quay"),
    # Sâm Lốc / Schmier
    "sl.title": ("Sâm Lốc", "Sâm Lốc"),
    "sl.mode.normal": ("standard rules", "luật thường"),
    "sl.mode.sam_ngheo_giau": ("sâm nghèo and sâm giàu win outright", "có sâm nghèo, sâm giàu"),
    "sl.prompt.start": ("Seat {player} leads: deal 10 cards to each player, then press START",
                        "Ghế {player} đánh trước: chia mỗi người 10 lá, rồi nhấn BẮT ĐẦU"),
    "sl.prompt.show": ("The hand is over: the losers lay their cards face up in their places; check, then CONFIRM",
                       "Hết ván: người thua lật bài ở chỗ mình; kiểm tra, rồi XÁC NHẬN"),
    "sl.prompt.held": ("HELD for a supervisor: a rule was broken (below)",
                       "TẠM GIỮ chờ giám sát: có luật bị phạm (bên dưới)"),
    "sl.timer_lays": ("Seat {player}'s time ran out: lay his lowest single (highest under báo 1) in the centre, "
                      "then PLAY",
                      "Ghế {player} hết giờ: đặt lá lẻ nhỏ nhất của người đó (lớn nhất khi báo 1) vào giữa, rồi ĐÁNH"),
    "sl.shows": ("Seat {player} shows", "Ghế {player} lật bài"),
    "sl.claim_instant": ("TỚI TRẮNG", "TỚI TRẮNG"),
    "sl.choose_seat": ("Which seat?", "Ghế nào?"),
    "sl.sitting_out": ("sits out", "nghỉ ván"),
    "sl.violations": ("Held for a supervisor:", "Tạm giữ chờ giám sát:"),
    "sl.refused.too_few": ("fewer than 2 players hold the bet {bet}: no hand can be dealt",
                           "ít hơn 2 người đủ cược {bet}: không chia được ván"),
    "sl.refused.nothing_to_show": ("no cards are shown now", "chưa đến lúc lật bài"),
    "sl.refused.show_unsure": ("the camera is unsure of a card shown: pick it on the screen",
                               "máy quay chưa chắc một lá lật: chọn lá trên màn hình"),
    "sl.refused.show_count": ("seat {player} shows {count} cards, not {expected}: look at the felt; CONFIRM again "
                              "records them as they lie",
                              "ghế {player} lật {count} lá, không phải {expected}: xem lại bàn; XÁC NHẬN lần nữa để "
                              "ghi như đang có"),
    "sl.refused.held": ("held for a supervisor: a supervisor signs in to release it, or VOID",
                        "đang tạm giữ: giám sát đăng nhập để giải phóng, hoặc HỦY VÁN"),
    "sl.refused.sits_out": ("seat {player} sits out this hand", "ghế {player} nghỉ ván này"),
    "sl.refused.old_hand": ("round {round} was dealt by the kiosk: VOID it to go on",
                            "ván {round} do máy chia: HỦY VÁN để tiếp tục"),
    "sl.prompt.results": ("Pay as shown, then CONFIRM", "Trả tiền như hình, rồi XÁC NHẬN"),
    "sl.player": ("Seat {player}", "Ghế {player}"),
    "sl.passed": ("passed", "bỏ lượt"),
    "sl.on_table": ("On the table", "Trên bàn"),
    "sl.table": ("Bet {bet} · timer {timer} s · {mode}", "Cược {bet} · {timer} giây · {mode}"),
    "sl.turn": ("Turn: seat {player}", "Lượt: ghế {player}"),
    "sl.timer": ("{seconds} s", "{seconds} giây"),
    "sl.play": ("PLAY CARDS", "ĐÁNH"),
    "sl.pass": ("PASS", "BỎ LƯỢT"),
    "sl.declare_sam": ("BÁO SÂM", "BÁO SÂM"),
    "sl.no_sam": ("NO SÂM", "KHÔNG BÁO"),
    "sl.balance": ("Seat {player}: {balance}", "Ghế {player}: {balance}"),
    "sl.cards_left": ("{count} cards", "{count} lá"),
    "sl.payment": (
        "seat {payer} → seat {payee}: {amount} · {reason}",
        "ghế {payer} → ghế {payee}: {amount} · {reason}",
    ),
    "sl.refused.finish_first": ("finish this hand first", "kết thúc ván này trước"),
    "sl.refused.no_cards": (
        "no cards to play: lay them in the centre, or pick them on the screen",
        "chưa có lá để đánh: đặt lá vào giữa bàn, hoặc chọn trên màn hình",
    ),
    "sl.refused.camera_unsure": (
        "the camera is unsure of the cards in the centre: pick them on the screen",
        "máy quay chưa chắc các lá giữa bàn: chọn lá trên màn hình",
    ),
    "sl.refused.nothing_to_confirm": ("nothing to confirm now", "chưa có gì để xác nhận"),
    "sl.refused.no_hand_open": ("no hand is open", "không có ván đang mở"),
    "sl.refused.confirm_or_void": ("CONFIRM or VOID the hand first", "XÁC NHẬN hoặc HỦY VÁN trước"),
    "sl.refused.not_playing": ("no hand is being played: press START", "chưa có ván đang chơi: nhấn BẮT ĐẦU"),
    "sm.title": ("Schmier", "Schmier"),
    "sm.refused.lay_one": (
        "lay one card in the centre, or pick it on the screen",
        "đặt một lá vào giữa bàn, hoặc chọn trên màn hình",
    ),
    "sm.refused.camera_unsure": (
        "the camera is unsure of the card in the centre: pick it on the screen",
        "máy quay chưa chắc lá giữa bàn: chọn lá trên màn hình",
    ),
    "sm.prompt.deal": ("Seat {seat} deals: 6 cards each, 17 kept; then press START",
                       "Ghế {seat} chia: mỗi người 6 lá, giữ 17 lá; rồi nhấn BẮT ĐẦU"),
    "sm.prompt.discard_count": ("Seat {seat}: how many cards were discarded face down?",
                                "Ghế {seat}: bỏ úp mấy lá?"),
    "sm.takes_up": ("TAKES UP {count}", "LẤY {count} LÁ"),
    "sm.refused.not_play": ("not the time to lay a card: seat {seat} is to bid, name trump or discard",
                            "chưa đến lúc đánh: ghế {seat} đang gọi, chọn chủ hoặc bỏ bài"),
    "sm.prompt.bidding": ("Seat {seat}: bid or pass", "Ghế {seat}: gọi hoặc bỏ"),
    "sm.prompt.trump": ("Seat {seat} won the bid: name trump", "Ghế {seat} thắng gọi: chọn chủ"),
    "sm.prompt.discard": (
        "Seat {seat}: pick the cards to discard (none is fine)",
        "Ghế {seat}: chọn lá bỏ (có thể không)",
    ),
    "sm.prompt.dealer_discard": (
        "Dealer {seat}: take up the kept cards, keep 6",
        "Nhà cái {seat}: lấy bài, giữ 6 lá",
    ),
    "sm.prompt.play": ("Seat {seat} to play: lay the card in the centre", "Ghế {seat} đánh: đặt lá vào giữa bàn"),
    "sm.prompt.results": ("The six points are in: CONFIRM", "Đã tính sáu điểm: XÁC NHẬN"),
    "sm.discard": ("DISCARD {count}", "BỎ {count}"),
    "sm.suit": ("{suit}", "{suit}"),
    "sm.seat": ("Seat {seat} · team {team}", "Ghế {seat} · đội {team}"),
    "sm.dealer": ("dealer", "chia bài"),
    "sm.high_bid": ("Bid {amount} by seat {seat}", "Gọi {amount} bởi ghế {seat}"),
    "sm.last_trick": ("Last trick {trick}: {cards} → seat {seat}", "Nước trước {trick}: {cards} → ghế {seat}"),
    "sm.trick_play": ("{seat}:{card}", "{seat}:{card}"),  # a card in the trick and its seat (from 1)
    "sm.to": ("to {target}", "đến {target}"),
    "sm.winner": ("Team {team} wins the game", "Đội {team} thắng"),
    "sm.bid": ("BID {amount}", "GỌI {amount}"),
    "sm.pass": ("PASS", "BỎ"),
    "sm.trump": ("Trump: {suit}", "Chủ: {suit}"),
    "sm.score": ("Team {team}: {score}", "Đội {team}: {score}"),
    "sm.trick": ("Trick {n}", "Nước {n}"),
    "sm.play": ("PLAY CARD", "ĐÁNH"),
    # the house-way chart posted at the table (dealer-assist baibuu table --format html --language …)
    "chart.title": ("Bài Bửu — house way", "Bài Bửu — cách xếp bài của nhà cái"),
    "chart.note": (
        "The house sets its four cards by the first rule that applies. Points: A = 1, 2–9 face value, 10 J Q K = 0; "
        "pictures are J Q K. Every hand below reads cards: HIGH | low. Suits never matter.",
        "Nhà cái xếp bốn lá theo luật đầu tiên áp dụng được. Điểm: A = 1, 2–9 theo số, 10 J Q K = 0; lá hình là "
        "J Q K. Mỗi bài dưới đây đọc là: bài: TAY CAO | tay thấp. Chất không bao giờ tính.",
    ),
    "chart.pair": ("Pair", "Đôi"),
    "chart.split_when": (
        "Split when the other two are (Z = 10, J, Q or K)",
        "Tách khi hai lá kia là (Z = 10, J, Q hoặc K)",
    ),
    "chart.split_with": ("split with {patterns}", "tách với {patterns}"),
    "chart.never_split": ("never split", "không bao giờ tách"),
    "chart.section": ("{title} ({count} hands)", "{title} ({count} bài)"),
    "chart.section.natural": ("Naturals", "Bài tự nhiên"),
    "chart.section.two pairs": ("Two pairs", "Hai đôi"),
    "chart.section.one pair": ("One pair", "Một đôi"),
    "chart.section.Kong or two pictures": ("Kong or two pictures", "Công nhỏ hoặc công lớn"),
    "chart.section.otherwise": ("Everything else", "Còn lại"),
    "chart.rule.natural": (
        "Natural: four of a kind as two pairs; three of a kind with the pair high and the other two low.",
        "Bài tự nhiên: tứ quý xếp thành hai đôi; sám cô thì đôi ở tay cao, hai lá còn lại ở tay thấp.",
    ),
    "chart.rule.two pairs": (
        "Two pairs: the higher pair high, the lower pair low.",
        "Hai đôi: đôi lớn ở tay cao, đôi nhỏ ở tay thấp.",
    ),
    "chart.rule.one pair": (
        "One pair: keep the pair high and the other two low, except the splits in the pair table (one pair card with "
        "each other card, the better hand high). 4-4, 5-5, 10-10, J-J, Q-Q, K-K, A-A: never split.",
        "Một đôi: giữ đôi ở tay cao, hai lá còn lại ở tay thấp, trừ các trường hợp tách trong bảng đôi (mỗi lá của "
        "đôi đi với một lá kia, tay tốt hơn ở tay cao). 4-4, 5-5, 10-10, J-J, Q-Q, K-K, A-A: không bao giờ tách.",
    ),
    "chart.rule.Kong or two pictures": (
        "Kong (A+9) or two pictures: never broken, kept high, the other two low. Two pictures and a Kong: the "
        "pictures high. Three pictures: the two highest high.",
        "Công nhỏ (A+9) hoặc công lớn: không bao giờ tách, ở tay cao, hai lá còn lại ở tay thấp. Công lớn và công "
        "nhỏ: hai lá hình ở tay cao. Ba lá hình: hai lá cao nhất ở tay cao.",
    ),
    "chart.rule.otherwise": (
        "Otherwise: of the three splits, the highest high hand that leaves 4 or more low; if none does, the highest "
        "high. Ties: the higher low, then the split keeping the highest card high.",
        "Còn lại: trong ba cách xếp, lấy tay cao lớn nhất mà tay thấp còn từ 4 điểm; nếu không có, lấy tay cao lớn "
        "nhất. Bằng nhau: tay thấp lớn hơn, rồi cách giữ lá cao nhất ở tay cao.",
    ),
    # deck enrollment (supervisor)
    "enroll.title": ("Deck enrollment", "Học bộ bài mới"),
    # a deck's name as first offered: Latin letters or digits, as the deck's folder is named from them
    "enroll.default_name": ("House deck", "A1"),
    "enroll.capture": ("Capture spread", "Chụp bài"),
    "enroll.save": ("Save deck", "Lưu bộ bài"),
    "enroll.learn": ("Learn", "Học"),
    "enroll.activate": ("Check & use", "Kiểm tra & dùng"),
    "enroll.activated": ("Now reading with {name}: {before} → {after} of {cards} cards right",
                  "Đang đọc bằng {name}: {before} → {after} trên {cards} lá đúng"),
    "enroll.close": ("Close", "Đóng"),
    "enroll.hint": ("Spread the cards face up, apart, under the camera; then capture.",
             "Trải bài ngửa, rời nhau, dưới máy quay; rồi chụp."),
    "enroll.found": ("{n} cards found", "Tìm thấy {n} lá"),
    "enroll.saved": ("Saved {ref}: learn it next", "Đã lưu {ref}: tiếp theo là học"),
    "enroll.learning": ("Learning in the background; the table keeps playing", "Đang học; bàn vẫn chơi bình thường"),
    "enroll.no_frame": ("No camera picture yet", "Chưa có hình từ máy quay"),
    "enroll.between_rounds": ("Close the round first: a new model starts between rounds",
                              "Kết thúc ván trước: mô hình mới bắt đầu giữa hai ván"),
    "enroll.pick": ("Face #{n}: which card?", "Lá #{n}: lá nào?"),
    "enroll.missing": ("missing {count}: {cards}", "còn thiếu {count}: {cards}"),
    "enroll.twice": ("more than once: {cards} (fix the wrong ones by card)",
                     "trùng nhiều lần: {cards} (sửa các lá sai)"),
    "enroll.unnamed": ("faces not named yet: {count}", "lá chưa đặt tên: {count}"),
    "enroll.look": ("proposed with low confidence ({count}): {faces} (confirm or fix)",
                    "đề xuất chưa chắc ({count}): {faces} (xác nhận hoặc sửa)"),
    "enroll.cut": ("cards cut by the picture's edge or touching ({count}): move them in, a finger apart, and capture "
                   "again", "lá bị mép hình cắt hoặc chạm nhau ({count}): đặt vào trong, cách nhau một ngón tay, rồi "
                   "chụp lại"),
    "enroll.no_cards": ("No card found in this picture: spread the cards face up on the felt, apart from each other",
                        "Không thấy lá bài nào trong hình: trải bài ngửa trên bàn, rời nhau"),
    "enroll.bad_name": ("A deck name needs Latin letters or digits, such as A1",
                        "Tên bộ bài cần có chữ cái Latinh hoặc chữ số, ví dụ A1"),
    "enroll.failed.capture": ("The cards could not be cut out of this picture: spread them face up, a finger apart, "
                              "and capture again", "Không tách được lá bài trong hình: trải bài ngửa, cách nhau một "
                              "ngón tay, rồi chụp lại"),
    "enroll.failed.save": ("The deck could not be saved", "Không lưu được bộ bài"),
    "enroll.failed.learn": ("Learning could not start", "Không bắt đầu học được"),
    "enroll.failed.check": ("The new reading could not be checked on the cards under the camera: spread the deck face "
                            "up and try again",
                            "Không kiểm tra được trên bài dưới máy quay: trải bài ngửa rồi thử lại"),
    "enroll.state.not started": ("not started", "chưa bắt đầu"),
    "enroll.state.running": ("learning", "đang học"),
    "enroll.state.done": ("done", "xong"),
    "enroll.state.failed": ("failed", "thất bại"),
    "enroll.state.stopped": ("stopped", "đã dừng"),
    "enroll.stage.not started": ("not started", "chưa bắt đầu"),
    "enroll.stage.scenes": ("making practice pictures", "tạo hình luyện tập"),
    "enroll.stage.crops": ("cutting out the cards", "cắt lá bài"),
    "enroll.stage.train": ("training", "huấn luyện"),
    "enroll.stage.export": ("saving the new reading", "lưu cách đọc mới"),
    "enroll.stage.done": ("done", "xong"),
    "enroll.eta": ("about {min} min {s} s left", "còn khoảng {min} phút {s} giây"),
    "enroll.epoch": ("pass {epoch} of {epochs}", "lượt {epoch}/{epochs}"),
    "common.centre": ("Centre", "Giữa bàn"),
    "common.start": ("START", "BẮT ĐẦU"),
    "common.settlement": ("Settlement", "Thanh toán"),
    "common.payment": ("{payer} pays {payee} {amount}: {reason}", "{payer} trả {payee} {amount}: {reason}"),
    # the replay commands (dealer-assist samloc replay / schmier replay --language vi|km); seats from 1
    "sl.cli.header": ("Sâm Lốc, {players} players, bet {bet}, turn timer {timer} s, {mode}; seat {player} would "
                      "lead", "Sâm Lốc, {players} người, cược {bet}, {timer} giây mỗi lượt, {mode}; ghế {player} "
                      "đánh trước"),
    "sl.cli.seat_cards": ("seat {player}: {cards}", "ghế {player}: {cards}"),
    "sl.cli.result": ("result: {result} (collecting: {winners})", "kết quả: {result} (người thu: {winners})"),
    "sl.cli.result.win": ("won", "thắng"),
    "sl.cli.result.instant_win": ("instant win", "tới trắng"),
    "sl.cli.result.sam_success": ("sâm made", "ăn sâm"),
    "sl.cli.result.sam_fail": ("sâm failed", "đền sâm"),
    "sl.cli.result.thoi_finish": ("out on a 2 (stinky)", "thối"),
    "sl.cli.nobody": ("nobody", "không ai"),
    "sl.cli.seat": ("seat {player}", "ghế {player}"),
    "sl.cli.pays": ("seat {payer} pays seat {payee} {amount}: {reason}",
                    "ghế {payer} trả ghế {payee} {amount}: {reason}"),
    "sl.cli.net": ("seat {player} {net}", "ghế {player} {net}"),
    "sl.cli.nets": ("nets: {nets}", "thắng thua: {nets}"),
    "sl.cli.next": ("next hand: seat {player} leads", "ván sau: ghế {player} đánh trước"),
    "sm.cli.header": ("Schmier hand: seat {seat} deals; scores going in: {scores}",
                      "Ván Schmier: ghế {seat} chia bài; điểm trước ván: {scores}"),
    "sm.cli.team_score": ("team {team} {score}", "đội {team} {score}"),
    "sm.cli.thrown_in": ("all passed: the cards are thrown in and the same dealer deals again",
                         "mọi người đều bỏ: bỏ bài, người chia cũ chia lại"),
    "sm.cli.point": ("{title}: {who}: {reason}", "{title}: {who}: {reason}"),
    "sm.cli.point.high": ("High", "Cao"),
    "sm.cli.point.low": ("Low", "Thấp"),
    "sm.cli.point.right_bauer": ("Right bauer", "Bauer phải"),
    "sm.cli.point.left_bauer": ("Left bauer", "Bauer trái"),
    "sm.cli.point.joker": ("Joker", "Phăng teo"),
    "sm.cli.point.game": ("Game", "Điểm bài"),
    "sm.cli.team": ("team {team}", "đội {team}"),
    "sm.cli.nobody": ("nobody", "không đội nào"),
    "sm.cli.made": ("bid: seat {seat} (team {team}) bid {bid} and took {taken}: made it",
                    "gọi: ghế {seat} (đội {team}) gọi {bid} và được {taken}: đạt"),
    "sm.cli.set": ("bid: seat {seat} (team {team}) bid {bid} and took {taken}: went set, minus {bid}",
                   "gọi: ghế {seat} (đội {team}) gọi {bid} và được {taken}: không đạt, trừ {bid}"),
    "sm.cli.hand": ("hand: {points}", "ván này: {points}"),
    "sm.cli.scores": ("scores: {scores}", "tổng điểm: {scores}"),
    "sm.cli.winner": ("game over: team {team} wins with {score}", "hết trận: đội {team} thắng với {score}"),
    "sm.cli.tied": ("tied at {score} without the bidding team: another hand is played",
                    "hòa {score} mà không có đội gọi: chơi thêm một ván"),
    "sl.cli.table_header": ("Sâm Lốc table record, {players} players, bet {bet}, turn timer {timer} s, {mode}; seat "
                            "{player} would lead",
        "Biên bản bàn Sâm Lốc, {players} người, cược {bet}, {timer} giây mỗi lượt, {mode}; ghế {player} đánh trước"),
    "sl.cli.rebuilt": ("the hands as dealt, rebuilt from what each seat played and showed:",
        "bài đã chia, dựng lại từ các lá mỗi ghế đã đánh và đã lật:"),
    "sl.cli.rebuilt_unknown": ("seat {player}: not known (it played and showed nothing)",
        "ghế {player}: không rõ (không đánh và không lật lá nào)"),
    "sm.cli.table_header": ("Schmier table record: seat {seat} deals; scores going in: {scores}",
        "Biên bản bàn Schmier: ghế {seat} chia bài; điểm trước ván: {scores}"),
    "cli.violation": ("VIOLATION ({kind}): {message}",
        "VI PHẠM ({kind}): {message}"),
    "cli.held": ("HELD for a supervisor: {count} rules broken; nothing is paid until a supervisor has looked",
        "TẠM GIỮ chờ giám sát: {count} luật bị phạm; chưa trả gì cho đến khi giám sát xem xét"),
}

PHRASES: dict[str, dict[str, str]] = {"vi": PHRASES_VI, "km": PHRASES_KM}

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
        pair = TEXTS.get(key)
        if pair is None:
            raise KeyError(f"no text {key!r} in the catalogue")
        if self.language == "km":
            template = TEXTS_KM.get(key) or pair[0]
        else:
            template = pair[LANGUAGES.index(self.language)] or pair[0]
        if self.language == "en" and _is_one(params, key):
            template = ENGLISH_ONE[key]
        translated = {name: self._param(value) for name, value in params.items()}
        if key == "bb.prompt.voided":  # the reason's code (or the panel's words, as journaled), worded
            reason = str(params.get("reason", ""))
            translated["reason"] = self.text(f"void.{reason}") if f"void.{reason}" in TEXTS else self.phrase(
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
