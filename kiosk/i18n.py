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
from engine.schmier.scoring import CARD_NAMES as SCHMIER_CARD_NAMES
from journal.words import void_words
from kiosk.i18n_km import PHRASES_KM, TEXTS_KM

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
    "status.clock_unsynced": ("{time} (clock not synchronised)", "{time} (đồng hồ chưa đồng bộ)"),
    # navigation
    "nav.table": ("TABLE", "BÀN"),
    "nav.camera": ("CAMERA", "MÁY QUAY"),
    "nav.setup": ("SET-UP", "CÀI ĐẶT"),
    "nav.supervisor": ("SUPERVISOR", "GIÁM SÁT"),
    "nav.back": ("BACK", "QUAY LẠI"),
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
    "signin.as": ("Signed in: {who} (locks after 2 minutes without a touch)",
                  "Đã đăng nhập: {who} (tự khóa sau 2 phút không chạm)"),
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

# The engines' own phrases (house-way lines, settlement reasons, Sâm Lốc refusals and log lines; keys in
# ``engine.phrases.TEMPLATES``), in Vietnamese; English is the engine's text itself. Bài Bửu words as in the
# glossary: tay cao/thấp, đôi, công.
PHRASES_VI: dict[str, str] = {
    "hand.with_cards": "{value} ({cards})",
    "hand.pair_of": "đôi {rank}",
    "hand.points": "{n} điểm",
    "hand.one_point": "{n} điểm",
    "hand.kong": "công nhỏ",
    "hand.two_pictures": "công lớn",
    "natural.four": "bài tự nhiên tứ quý {rank}",
    "natural.three": "bài tự nhiên sám cô {rank}",
    "way.natural_four": "{natural}: xếp thành hai đôi",
    "way.natural_three": "{natural}: đôi ở tay cao, hai lá còn lại ở tay thấp",
    "way.two_pairs": "hai đôi: đôi {high} ở tay cao, đôi {low} ở tay thấp",
    "way.pair_never_split": "đôi {rank}: không bao giờ tách, đôi ở tay cao",
    "way.pair_kept": "đôi {rank} với {others}: giữ đôi ở tay cao",
    "way.pair_split": "đôi {rank} với {others}: tách đôi",
    "way.three_pictures": "ba lá hình: hai lá cao nhất, {cards}, ở tay cao",
    "way.pictures_and_kong": "công lớn và công nhỏ: hai lá hình {cards} ở tay cao",
    "way.two_pictures": "công lớn {cards}: không bao giờ tách, ở tay cao",
    "way.kong": "công nhỏ A+9: không bao giờ tách, ở tay cao",
    "way.no_low": "không cách nào để tay thấp từ {minimum} điểm: lấy tay cao lớn nhất, {high}",
    "way.highest_high": "tay cao lớn nhất mà tay thấp còn từ {minimum} điểm: tay cao {high}, tay thấp {low}",
    "way.low_too_small": "tay thấp sẽ chỉ còn {would_be} < {minimum}: lấy tay cao {high}",
    "place.high": "tay cao",
    "place.low": "tay thấp",
    "reason.versus": "{place}: {seat} so với {house} của nhà cái",
    "reason.seat_wins": "{versus}: ghế thắng",
    "reason.house_wins": "{versus}: nhà cái thắng",
    "reason.copy_seat_card_higher": "{versus}: bằng nhau, lá cao nhất của ghế lớn hơn: ghế thắng",
    "reason.copy_house_card_higher": "{versus}: bằng nhau, lá cao nhất của nhà cái lớn hơn: nhà cái thắng",
    "reason.copy_cards_equal": "{versus}: bằng nhau, lá cao nhất cũng bằng: nhà cái ăn",
    "reason.copy_house_wins": "{versus}: bằng nhau, nhà cái ăn",
    "reason.natural_beaten": "{seat} thua {house} lớn hơn của nhà cái: nhà cái thắng",
    "reason.natural_beats_house": "{seat} thắng {house} của nhà cái: ghế thắng",
    "reason.natural_beats_any": "{seat} thắng mọi bài không phải bài tự nhiên: ghế thắng",
    "reason.mis_set": "xếp sai: tay thấp {low} lớn hơn tay cao {high}: nhà cái thắng",
    "reason.house_natural": "{house} của nhà cái thắng mọi bài không phải bài tự nhiên lớn hơn",
    # Bài Bửu: why an action is refused
    "baibuu.who.house": "nhà cái",
    "baibuu.who.house_hand": "bài nhà cái",
    "baibuu.who.seat": "ghế {seat}",
    "baibuu.who.seats_hand": "bài ghế {seat}",
    # Schmier: why each of the six points went where it did (cards named by their symbols)
    "schmier.point.high": "ghế {seat} (đội {team}) đánh lá {card} ở nước {trick}",
    "schmier.point.low": "ghế {seat} (đội {team}) đánh lá {card} ở nước {trick}, ghế {taker} ăn nước đó",
    "schmier.point.fell": "lá {card} rơi ở nước {trick} (ghế {seat} đánh), ghế {taker} ăn (đội {team})",
    "schmier.point.listing": "đội {team_a} {a}, đội {team_b} {b}, đội {team_c} {c}",
    "schmier.point.tie_two": "không đội nào: đội {team_a} và đội {team_b} hòa {top} điểm bài ({listing})",
    "schmier.point.tie_three": "không đội nào: đội {team_a}, đội {team_b} và đội {team_c} hòa {top} điểm bài "
    "({listing})",
    "schmier.point.most": "đội {team} được nhiều điểm bài nhất ({listing})",
    # Bài Bửu: the round's log lines (the supervisor's recall)
    "baibuu.direction.counter_clockwise": "ngược chiều kim đồng hồ",
    "baibuu.direction.clockwise": "cùng chiều kim đồng hồ",
    "baibuu.record.dice_house": "xúc xắc {dice} = {total}: chồng đầu cho nhà cái, nhà cái lấy chồng {stack} (đếm "
    "{direction} từ nhà cái)",
    "baibuu.record.dice_position": "xúc xắc {dice} = {total}: chồng đầu cho ghế {position}, nhà cái lấy chồng {stack} "
    "(đếm {direction} từ nhà cái)",
    "baibuu.record.dice_by_hand": "{dice} (xúc xắc nhập tay)",
    "baibuu.record.house_revealed": "bài nhà cái {cards}: cách xếp nhà cái là tay cao {high}, tay thấp {low} ({rule})",
    "baibuu.record.house_set": "nhà cái xếp {hand}: đúng cách xếp nhà cái",
    "baibuu.record.house_set_not_the_way": "nhà cái xếp {hand}: SAI cách xếp nhà cái, phải là tay cao {high}, tay thấp "
    "{low} ({rule}); xếp lại bài nhà cái trước khi tính tiền ghế nào",
    "baibuu.record.seat_set": "ghế {seat} cược {bet}, {hand}: {result}",
    "baibuu.set_hand": "tay cao {high}, tay thấp {low}",
    "baibuu.outcome.wins": "ghế {seat} thắng: {money}",
    "baibuu.outcome.natural": "ghế {seat} thắng bằng bài tự nhiên: {money}",
    "baibuu.outcome.push": "ghế {seat} hòa: {money}",
    "baibuu.outcome.loses": "ghế {seat} thua: {money}",
    "baibuu.outcome.mis_set": "ghế {seat} xếp sai và thua: {money}",
    "baibuu.money.less_commission": "+{net} ({bet} trừ {commission} hoa hồng)",
    "baibuu.money.bet_returned": "trả lại tiền cược",
    "baibuu.illegal.already_rolled": "ván này đã lắc xúc xắc rồi ({dice})",
    "baibuu.illegal.roll_first": "lắc xúc xắc trước: xúc xắc chỉ chồng nào là của nhà cái",
    "baibuu.illegal.house_open": "bài nhà cái đã mở: {cards}",
    "baibuu.illegal.house_four": "bài nhà cái có 4 lá, máy quay đọc được {count}: {cards}",
    "baibuu.illegal.open_house_first": "mở bài nhà cái trước",
    "baibuu.illegal.seats_settling": "các ghế đang được tính với bài nhà cái như đã xếp",
    "baibuu.illegal.house_other_cards": "bài nhà cái là {house}, nhưng đã xếp {set}: dùng đúng bốn lá đó",
    "baibuu.illegal.house_mis_set": (
        "bài nhà cái xếp sai: tay thấp {low} lớn hơn tay cao {high}; xếp theo cách nhà cái: tay cao {way_high}, "
        "tay thấp {way_low}"
    ),
    "baibuu.illegal.set_house_first": "xếp bài nhà cái trước: mọi ghế đều so với bài nhà cái",
    "baibuu.illegal.seat_not_in_use": "ghế {seat} không chơi ở bàn này (các ghế đang chơi: {seats})",
    "baibuu.illegal.seat_settled": "ghế {seat} đã được tính ván này",
    "baibuu.illegal.seen_before": "ghế {seat}: {cards} đã thấy ở tay khác trong ván này; kiểm tra lại lá đọc",
    "baibuu.illegal.not_finished_house": "ván chưa xong: bài nhà cái chưa xếp",
    "baibuu.illegal.not_finished_seats": "ván chưa xong: còn chờ ghế {seats}",
    "baibuu.illegal.wrong_stack": "{who} được chia {stack}, không phải {cards}: kiểm tra lá đọc hoặc các chồng bài",
    "baibuu.illegal.card_twice": "{what}: một lá xuất hiện hai lần ({cards}); kiểm tra lá đọc",
    "baibuu.illegal.no_joker": "{what}: Bài Bửu không chơi lá phăng teo",
    "baibuu.illegal.two_and_two": "{what}: xếp 2 lá tay cao và 2 lá tay thấp, đang có {high} cao và {low} thấp",
    # lists of phrases (any engine)
    "list.comma": "{first}, {rest}",
    "list.semicolon": "{first}; {rest}",
    # Sâm Lốc: combinations, refusals, the log and the payment reasons. Seats are "ghế {n}" as on the screen;
    # table words from the glossary: lá lẻ, đôi, sám cô, tứ quý, sảnh, bỏ lượt, báo sâm, ăn/đền sâm, chặt heo,
    # chặt chồng, thối, báo một, đền làng, tới trắng. Ranks are the letters on the cards (A, J, Q, K).
    **{f"samloc.rank.{rank}": rank for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")},
    **{f"samloc.ranks.{rank}": rank for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")},
    "samloc.suit.spades": "bích",
    "samloc.suit.hearts": "cơ",
    "samloc.suit.diamonds": "rô",
    "samloc.suit.clubs": "chuồn",
    "samloc.kind.single": "lá lẻ",
    "samloc.kind.pair": "đôi",
    "samloc.kind.triple": "sám cô",
    "samloc.kind.quad": "tứ quý",
    "samloc.kind.straight": "sảnh",
    "samloc.combo.single": "lá {rank} {suit}",
    "samloc.combo.pair": "đôi {ranks}",
    "samloc.combo.triple": "sám cô {ranks}",
    "samloc.combo.quad": "tứ quý {ranks}",
    "samloc.combo.straight": "sảnh {ranks}",
    "samloc.beat.only_higher_straight": "{top} chỉ chặn được bằng sảnh {length} lá cao hơn",
    "samloc.beat.only_quad_on_two": "heo lẻ (một lá 2) chỉ chặt được bằng tứ quý",
    "samloc.beat.only_quad_on_twos": "đôi heo (đôi 2) chỉ chặt được bằng tứ quý",
    "samloc.beat.only_higher_kind": "{top} chỉ chặn được bằng {kind} cao hơn",
    "samloc.beat.equal_ranks": "{play} không chặn được {top}: bài bằng nhau không chặn được nhau",
    "samloc.beat.lower": "{play} không chặn được {top}",
    "samloc.log.declares_sam": "ghế {seat} báo sâm: đánh trước và phải hết bài mà không bị chặn",
    "samloc.log.plays": "ghế {seat} đánh {cards} ({combo})",
    "samloc.log.plays_on_timeout": "ghế {seat} hết giờ: tự động đánh {cards} ({combo})",
    "samloc.log.passes": "ghế {seat} bỏ lượt",
    "samloc.log.passes_on_timeout": "ghế {seat} hết giờ: tự động bỏ lượt",
    "samloc.instant.straight": "sảnh 10 lá",
    "samloc.instant.four_twos": "tứ quý heo (bốn lá 2)",
    "samloc.instant.two_quads": "hai tứ quý",
    "samloc.instant.one_colour": "đồng màu (mười lá cùng màu)",
    "samloc.instant.five_pairs": "năm đôi",
    "samloc.instant.three_triples": "ba sám cô",
    "samloc.instant.sam_ngheo": "sâm nghèo (không có 10, J, Q, K)",
    "samloc.instant.sam_giau": "sâm giàu (không có 3 đến 9)",
    "samloc.instant.wins": "ghế {seat} tới trắng: {name} ({cards})",
    "samloc.illegal.hand_over": "ván đã kết thúc; không thể đánh tiếp",
    "samloc.illegal.hand_not_over": "ván chưa kết thúc",
    "samloc.illegal.no_seat": "không có ghế {seat}: chỉ có ghế 1 đến {last}",
    "samloc.illegal.passed": "ghế {seat} đã bỏ lượt vòng này; được đánh lại khi có vòng mới",
    "samloc.illegal.not_turn": "đang là lượt của ghế {turn}, không phải ghế {seat}",
    "samloc.illegal.sam_declared": "ghế {seat} đã báo sâm; chỉ một người được báo sâm",
    "samloc.illegal.sam_too_late": "chỉ được báo sâm sau khi chia bài, trước khi đánh lá đầu tiên",
    "samloc.illegal.same_card_twice": "một lá được chọn hai lần trong cùng một nước đánh",
    "samloc.illegal.no_cards": "phải đánh ít nhất một lá; không đánh thì bỏ lượt",
    "samloc.illegal.not_holding": "ghế {seat} không có lá {cards}",
    "samloc.illegal.not_a_combination": (
        "{cards} không phải bộ hợp lệ: đánh lá lẻ, đôi, sám cô, tứ quý hoặc sảnh từ 3 đến 10 lá liên tiếp"
    ),
    "samloc.illegal.must_lead": "ghế {seat} đánh đầu vòng này, không được bỏ lượt: phải đánh",
    "samloc.illegal.below_bet": "ghế {seat} chỉ còn {coins}, ít hơn mức cược {bet}: ngồi ngoài ván này",
    "samloc.illegal.not_over": "ván chưa kết thúc: đến lượt ghế {seat}",
    "samloc.effect.bao1_broken": (
        "phạm luật báo một: ghế {seat} không đánh lá lẻ cao nhất ({highest}) khi ghế {announced} còn một lá; "
        "nếu ghế {announced} hết bài trong vòng này, ghế {seat} đền làng"
    ),
    "samloc.effect.bao1": "báo một: ghế {seat} còn một lá; ghế {duty} phải đánh lá lẻ cao nhất",
    "samloc.effect.sam_blocked": "ghế {seat} chặn được người báo sâm: đền sâm, ghế {declarer} trả cho mọi người",
    "samloc.effect.sam_out_on_two": "ghế {seat} hết bài bằng lá 2: đền sâm, phải trả cho mọi người",
    "samloc.effect.sam_succeeds": "ghế {seat} hết bài không bị chặn: ăn sâm, mọi người trả cho ghế {seat}",
    "samloc.effect.out_on_two": "ghế {seat} hết bài bằng lá 2: thối, trả cho mọi người khác",
    "samloc.effect.goes_out": "ghế {seat} hết bài và thắng ván",
    "samloc.effect.chop": (
        "ghế {seat} chặt heo {cards} của ghế {victim}: {value}×cược ({amount}), trả khi hết vòng"
    ),
    "samloc.effect.overkill": (
        "ghế {seat} chặt chồng ghế {victim}: tổng {value}×cược ({amount}), ghế {victim} trả ghế {seat}"
    ),
    "samloc.effect.new_round": "mọi người khác bỏ lượt: ghế {seat} đánh vòng mới",
    "samloc.effect.chop_settled": "tính tiền {reason}: ghế {victim} trả ghế {chopper} {amount}",
    "samloc.reason.chop": "chặt heo",
    "samloc.reason.overkill": "chặt chồng ({count} lần)",
    "samloc.reason.instant_win": "tới trắng: {name}",
    "samloc.reason.sam": "ăn sâm",
    "samloc.reason.sam_failed": "đền sâm",
    "samloc.reason.out_on_two": "hết bài bằng lá 2 (thối)",
    "samloc.reason.pays_for_everyone": "báo một, đền làng: {reason} của ghế {seat}",
    "samloc.reason.cards_left": "còn {count} lá",
    "samloc.reason.never_played": "chưa đánh lá nào (tính {count} lá)",
    "samloc.reason.thoi": "thối: còn giữ {cards}",
    # Schmier: the log of a hand (table words: gọi, bỏ, chủ)
    "schmier.log.bids": "ghế {seat} gọi {amount}",
    "schmier.log.passes": "ghế {seat} bỏ",
    "schmier.log.names_trump": "ghế {seat} chọn chủ {suit} {symbol}",
    "schmier.log.keeps_all": "ghế {seat} giữ cả 6 lá",
    "schmier.log.discards": "ghế {seat} bỏ {count} lá: {cards}",
    "schmier.log.plays": "ghế {seat} đánh {card}",
    "schmier.suit.spades": "bích",
    "schmier.suit.hearts": "cơ",
    "schmier.suit.diamonds": "rô",
    "schmier.suit.clubs": "chuồn",
    "schmier.effect.thrown_in": "mọi người đều bỏ: bỏ bài, ghế {seat} chia lại",
    "schmier.effect.wins_bidding": "ghế {seat} (đội {team}) thắng gọi với {amount}",
    "schmier.effect.to_discard": "đến lượt ghế {seat} bỏ bài",
    "schmier.effect.gets": "nhận {cards}",
    "schmier.effect.took_up": "người chia bài lấy {count} lá để dành",
    "schmier.effect.face_up": "lá chủ bị bỏ, lật ngửa: {cards}",
    "schmier.effect.leads": "ghế {seat} đánh trước",
    "schmier.effect.leads_trick": "đánh đầu nước {trick}",
    "schmier.effect.wins_trick": "ghế {seat} (đội {team}) ăn nước {trick}",
    "schmier.effect.hand_scored": "tính điểm ván: {listing}",
    # hands followed at the table (table records): refusals, the log, the violations found at the end
    "samloc.illegal.table_only": (
        "{kind} chỉ có trong biên bản bàn (bài chưa biết đến cuối ván); ván này do máy chia, máy tự "
        "kiểm tới trắng và biết mọi lá"
    ),
    "samloc.illegal.timer_lays": (
        "ghế {seat} hết giờ khi đánh trước: đồng hồ đánh lá lẻ {which} của ghế đó, {card}, không "
        "phải {cards}"
    ),
    "samloc.illegal.timer_passes": "ghế {seat} hết giờ khi được bỏ lượt: ghế đó bỏ lượt, không đánh lá nào",
    "samloc.log.claims_instant": "ghế {seat} báo tới trắng: lật đủ 10 lá",
    "samloc.log.shows": "ghế {seat} lật {cards}",
    "samloc.log.shows_none": "ghế {seat} không lật lá nào",
    "samloc.table.already_played": "lá {card} đã được ghế {seat} đánh",
    "samloc.table.claim_too_late": "tới trắng phải báo ngay sau khi chia, trước khi báo sâm hay đánh lá đầu",
    "samloc.table.claimed_twice": "ghế {seat} đã báo tới trắng rồi",
    "samloc.table.name_the_card": "ghế {seat} hết giờ khi đánh trước: nhập lá người chia đã đánh thay",
    "samloc.table.show_too_early": "chỉ lật bài khi ván đã xong; đang là lượt ghế {turn}",
    "samloc.table.shown_twice": "ghế {seat} đã lật bài rồi",
    "samloc.table.too_many": "ghế {seat} còn {count} lá, không phải {cards}",
    "samloc.violation.bao1": (
        "ghế {seat} đánh {card} khi còn {highest} và ghế {announced} còn một lá (báo một: phải đánh "
        "lá lẻ cao nhất); ghế {announced} không về trong vòng đó: không phải trả thêm"
    ),
    "samloc.violation.bao1_pays": (
        "ghế {seat} đánh {card} khi còn {highest} và ghế {announced} còn một lá (báo một: phải đánh "
        "lá lẻ cao nhất); ghế {announced} về trong vòng đó: ghế {seat} đền làng"
    ),
    "samloc.violation.card_twice": "lá {card} xuất hiện hai lần trong ván ({where}): một bộ bài chỉ có mỗi lá một lần",
    "samloc.violation.hand_size": (
        "bài của ghế {seat} có {count} lá ({played} đã đánh, {shown} đã lật): mỗi người được chia "
        "10 lá"
    ),
    "samloc.violation.instant_false": "ghế {seat} báo tới trắng nhưng các lá đã lật ({cards}) không tới trắng",
    "samloc.violation.instant_unclaimed": (
        "ghế {seat} được chia bài tới trắng ({name}: {cards}) nhưng không báo: không được trả"
    ),
    "samloc.violation.not_rebuilt": "ván dựng lại không nhận nước {index} của ghế {seat}: {error}",
    "samloc.violation.played_by": "ghế {seat} đã đánh",
    "samloc.violation.shown_by": "ghế {seat} đã lật",
    "samloc.violation.timer_card": (
        "ghế {seat} hết giờ khi đánh trước: đã đánh {laid}, đồng hồ phải đánh lá lẻ {which}, {card}"
    ),
    "samloc.word.highest": "cao nhất",
    "samloc.word.lowest": "thấp nhất",
    # Schmier: why an action is refused, and who the hand waits for
    "schmier.phase.bidding": "gọi bài",
    "schmier.phase.trump": "chọn chủ",
    "schmier.phase.discard": "bỏ bài",
    "schmier.phase.dealer_discard": "người chia bỏ bài",
    "schmier.phase.play": "đánh bài",
    "schmier.phase.hand_over": "hết ván",
    "schmier.phase.game_over": "hết trận",
    "schmier.phase.thrown_in": "bỏ bài chia lại",
    "schmier.waiting.bidding": "ghế {seat} gọi hoặc bỏ",
    "schmier.waiting.trump": "ghế {seat} chọn chủ",
    "schmier.waiting.discard": "ghế {seat} bỏ bài",
    "schmier.waiting.dealer_discard": "ghế {seat} lấy các lá để dành rồi bỏ còn 6 lá",
    "schmier.waiting.play": "ghế {seat} đánh",
    "schmier.waiting.nobody": "không ai: ván đang ở bước {phase}",
    "schmier.illegal.not_now": "chưa được: ván đang ở bước {phase}, chờ {waiting}",
    "schmier.illegal.not_turn": "chưa đến lượt ghế {seat}: chờ {waiting}",
    "schmier.illegal.names_trump": "ghế {bidder} thắng gọi và chọn chủ, không phải ghế {seat}",
    "schmier.illegal.not_over": "ván chưa xong: chờ {waiting}",
    "schmier.illegal.bid_range": "gọi {amount} không hợp lệ: chỉ gọi từ {low} đến {high}",
    "schmier.illegal.bid_higher": "phải gọi cao hơn {high} của ghế {seat}: gọi {next} trở lên, hoặc bỏ",
    "schmier.illegal.bid_most": "ghế {seat} đã gọi {high}, mức cao nhất: hãy bỏ",
    "schmier.illegal.count_only": (
        "ghế {seat} bỏ bài chỉ được đếm: điều đó thuộc biên bản bàn; ván này biết bài đã chia, hãy "
        "nhập các lá"
    ),
    "schmier.log.discards_face_down": "ghế {seat} úp bỏ {count} lá",
    "schmier.point.not_played": "không đội nào: lá {card} không được đánh",
    "schmier.table.already_played": "lá {card} đã được ghế {seat} đánh",
    "schmier.table.count_the_discard": "bàn không thấy các lá bỏ (úp): nhập số lá ghế {seat} đã bỏ",
    "schmier.table.dealer_count": "người chia lấy {kept} lá để dành và bỏ {kept} lá để giữ 6 lá, không phải {count}",
    "schmier.table.gets": "nhận {count} lá để dành",
    "schmier.table.too_many": "ghế {seat} được bỏ 0 đến {most} lá, không phải {count}",
    "schmier.violation.revoke": (
        "ghế {seat} đánh {card} ở nước {trick} khi đang có {held} (đánh ở nước {later}): phải theo "
        "{suit}"
    ),
    "schmier.violation.trump_discarded": "không ai đánh {card}, lá chủ không ai được bỏ: lá đó đã bị bỏ",
    "schmier.word.trump": "chủ",
    "logs.zone.house_high": "nhà cái tay cao",
    "logs.zone.house_low": "nhà cái tay thấp",
    "logs.zone.seat_high": "ghế {seat} tay cao",
    "logs.zone.seat_low": "ghế {seat} tay thấp",
    "logs.zone.centre": "giữa bàn",
    "logs.zone.pile": "chồng bài đánh ra",
    "logs.who.dealer": "người chia bài",
    "logs.void.misdeal": "Chia sai",
    "logs.void.dice": "Xúc xắc rơi",
    "logs.void.exposed": "Lộ bài",
    "logs.void.dispute": "Tranh chấp",
    "logs.void.device": "Lỗi thiết bị",
    "logs.void.crash": "Máy khởi động lại",
    "logs.void.panel": "người chia bài nhấn HỦY VÁN trên bảng nút",
    "logs.hold.dispute": "giữ lại cho tranh chấp",
    "verify.damaged": "tệp cơ sở dữ liệu bị hỏng ({error})",
    "verify.damaged_integrity": "tệp cơ sở dữ liệu bị hỏng (kiểm tra toàn vẹn SQLite: {detail})",
    "verify.format": "định dạng nhật ký là {version}, cần {expected}",
    "verify.trigger": "khóa ghi {name} chặn sửa sự kiện đã bị xoá hoặc bị sửa",
    "verify.missing": "bị mất",
    "verify.duplicated": "bị lặp",
    "verify.gap": "sự kiện {seq} {what} (chuỗi tiếp tục ở sự kiện {next}): có dòng bị xoá hoặc chèn thêm",
    "verify.unreadable": "sự kiện {seq} bị sửa (có byte không đọc được)",
    "verify.out_of_order": "sự kiện {seq} không nối tiếp sự kiện {previous} "
                           "(các dòng bị đổi thứ tự, thay thế hoặc xoá)",
    "verify.altered": "sự kiện {seq} bị sửa (nội dung không còn khớp mã băm)",
    "verify.rewritten": "sự kiện {seq} có nội dung máy không bao giờ ghi, với mã băm "
                        "làm bằng khóa của máy: nhật ký đã bị người có khóa viết lại",
    "verify.seal": "dấu niêm phong ở sự kiện cuối của nhật ký bị mất hoặc bị giả",
    "verify.cut": "nhật ký được niêm phong ở sự kiện {sealed} nhưng kết thúc ở sự "
                  "kiện {last}: các sự kiện cuối bị cắt hoặc được thêm không có khóa",
    "verify.event_trouble": "sự kiện {seq}: {trouble}",
    "verify.frame_missing": "ảnh bằng chứng {frame}… không còn trong {folder} và không có sự kiện xoá "
                            "nào giải thích (cài đặt lưu giữ ghi nhật ký mọi ảnh nó xoá)",
    "verify.frame_altered": "ảnh bằng chứng {path} bị sửa (nội dung không còn khớp mã băm)",
    # why the journal cannot be opened, and why it does not continue its anchors (journal/words.py)
    "open.refusal": "nhật ký không qua kiểm tra: {problem}. Đã dừng chơi. Gọi giám sát: giữ tệp nhật ký làm bằng "
                    "chứng, chạy `dealer-assist logs verify` và bắt đầu nhật ký mới; nhật ký không bao giờ được tự sửa",
    "open.cannot_open": "{path} không mở được như một nhật ký ({error})",
    "open.cannot_read": "không đọc được {path} ({error})",
    "open.cannot_read_events": "không đọc được các sự kiện ({error})",
    "open.not_a_journal": "{path} không phải nhật ký của máy (chưa có định dạng nhật ký)",
    "open.newer": "nhật ký {path} do bản `dealer-assist` mới hơn ghi (định dạng {version}; bản này đọc đến "
                  "{supported}): hãy cập nhật phần mềm. Nhật ký không bị động đến",
    "open.wrong_key": "tệp khóa không thuộc nhật ký {path}: dùng khóa mà máy này đã ghi nhật ký (không thể kiểm tra "
                      "nhật ký bằng khóa của máy khác)",
    "open.key_missing": "khóa của nhật ký không có ở {path}: nếu đã chuyển đi, hãy cho biết chỗ mới (`--key`, "
                        "`journal.key` trong cấu hình máy, hoặc `DEALER_ASSIST_KEY`); nếu không, khôi phục từ bản sao "
                        "lưu khóa của máy. Không có khóa thì không thể kiểm tra hay ghi tiếp nhật ký (khóa mới sẽ "
                        "không khớp)",
    "open.key_unreadable": "không đọc được tệp khóa {path}: chạy bằng người dùng của máy",
    "open.key_is_folder": "đường dẫn khóa {path} là một thư mục: hãy chỉ ra chính tệp khóa",
    "open.key_shared": "người khác có thể đọc hoặc ghi tệp khóa {path} (quyền {mode}): chỉ để người dùng của máy "
                       "dùng, bằng `chmod 600 {path}`",
    "open.key_not_hex": "tệp khóa {path} không phải khóa nhật ký (cần 64 chữ số thập lục phân)",
    "open.key_size": "tệp khóa {path} có {size} byte, khóa nhật ký có {expected}",
    "open.key_no_folder": "thư mục của khóa {folder} không tồn tại: gắn ổ chứa khóa hoặc tạo thư mục (chỉ người dùng "
                          "của máy được đọc)",
    "anchor.no_file": "không có tệp mốc ở {path}: kiểm tra --anchors (`journal.anchors` của máy)",
    "anchor.unreadable": "không đọc được tệp mốc {path} ({error})",
    "anchor.line_altered": "dòng {line} của tệp mốc {path} bị sửa hoặc được ghi bằng khóa của máy khác",
    "anchor.line_out_of_place": "dòng {line} của tệp mốc {path} không nối tiếp {after}: có dòng mốc bị xoá, đảo thứ "
                                "tự hoặc chép vào",
    "anchor.after_line": "dòng {line}",
    "anchor.after_start": "đầu tệp",
    "anchor.not_ours": "không mốc nào trong {count} mốc thuộc nhật ký này (mốc cuối: {last}): đây không phải nhật ký "
                       "máy đang ghi, hoặc nó được bắt đầu lại mà không qua máy",
    "anchor.rolled_back": "BỊ QUAY LẠI: {anchor}{more} vượt quá cuối nhật ký ở sự kiện {end}: nhật ký đã bị thay bằng "
                          "bản cũ hơn, bị cắt ngắn, hoặc mất tệp `-wal`{agreed}",
    "anchor.forked": "BỊ RẼ NHÁNH: ở sự kiện {seq} mã băm của nhật ký là {digest}…, {anchor} ghi {hash}…: các sự kiện "
                     "đến {seq} đã bị viết lại (bằng khóa), hoặc đây là nhật ký khác{agreed}",
    "anchor.more": " (và {count} mốc sau đó)",
    "anchor.agreed": "; nó khớp mọi mốc đến {anchor}",
    "anchor.not_continued": "nhật ký không nối tiếp các mốc của nó",
    "anchor.name": "{label} (sự kiện {seq})",
    "anchor.name_why": "{label} (sự kiện {seq}, {why})",
    "anchor.name_at": "{label} (sự kiện {seq} lúc {time})",
    "anchor.name_at_why": "{label} (sự kiện {seq} lúc {time}, {why})",
    "anchor.line": "dòng mốc {line}",
    "anchor.checkpoint": "điểm kiểm {number} ({text})",
    "anchor.why.started": "máy khởi động",
    "anchor.why.stopped": "máy dừng",
    "anchor.why.settled": "ván {round} đã thanh toán",
    "anchor.why.voided": "ván {round} đã hủy",
    "anchor.folder_gone": "thư mục của tệp mốc {folder} không tồn tại: gắn ổ chứa mốc (hoặc tạo thư mục)",
    "anchor.cannot_write": "không ghi được tệp mốc {path} ({error})",
    "anchor.others": "{count} mốc thuộc một nhật ký khác của máy này (mốc cuối: {last}); chúng không được đối chiếu "
                     "với nhật ký này",
    "anchor.torn": "mốc không trọn vẹn (lần ghi bị cắt ngang), và không thiếu mốc nào quanh chúng: dòng {lines}",
    "place.key_beside_journal": "`journal.key`: khóa của nhật ký {key} nằm trong thư mục của nhật ký: ai chép thư mục "
                                "đó có thể viết lại nhật ký và tính lại mọi mã băm; đặt `journal.key` là một tệp trên "
                                "ổ khác mà chỉ người dùng của máy đọc được (`chmod 600`)",
    "place.key_shared": "người khác có thể đọc hoặc ghi khóa `journal.key` {key}: `chmod 600 {key}`",
    "place.anchors_beside_journal": "`journal.anchors` {anchors} nằm trong thư mục của nhật ký: mốc nằm cạnh nhật ký "
                                    "bị quay lại cùng nó; hãy đặt nó trên ổ khác",
    "anchor.floor_unreachable": "vừa rồi không liên lạc được máy chủ của sòng; mốc của ván sau sẽ thử lại",
    "anchor.floor_refused": "máy chủ của sòng không nhận mốc ({error})",
    "anchor.floor_mismatch": "máy chủ của sòng giữ sự kiện {seq} khác với nhật ký này: nhật ký đã bị viết lại hoặc "
                             "thay thế sau khi gửi đi; máy chủ đã báo động",
    "signin.problem.pin_format": "mã PIN gồm {low} đến {high} chữ số (màn hình có bàn phím số)",
    "signin.problem.pin_guessable": "mã PIN một chữ số lặp lại hoặc các số liền nhau bị đoán đầu tiên: chọn mã khác",
    "signin.problem.id_format": "mã giám sát gồm 1 đến 16 chữ cái, chữ số, - hoặc "
                                "_ (ví dụ S1 hoặc 4711), không bắt đầu bằng - hoặc _",
    "replay.refused_action": "nước {index}: {error}",
    # the journal's review and the logs CLI (journal/words.py): flags, replay verdicts, evidence frames
    "review.hand.house": "nhà cái",
    "review.hand.seat": "ghế {seat}",
    "review.flag.same_hand": "bài {hand} {cards} giống bài {earlier} của ván {round}: lá bài của ván đó còn trên bàn?",
    "review.flag.dice_twice": "xúc xắc của máy lắc được ghi {count} lần trong ván này ({dice}): đã lắc lại sau khi "
                              "xúc xắc được ghi",
    "review.flag.paid_unshown": "đã trả tiền mà không có ghi nhận kết quả đã hiện cho người chia bài",
    "review.replay.not_installed": "chưa cài bộ luật {game} ({module})",
    "review.replay.refused": "bộ luật không nhận ván này: {error}",
    "review.replay.failed": "bộ luật bị lỗi ở ván này: {error}",
    "review.replay.unsettled": "bộ luật không tính tiền được ván này: {error}",
    "review.replay.unfinished": "các nước đã ghi không kết thúc ván",
    "review.replay.differs_shown": "kết quả phát lại khác kết quả đã hiện cho người chia bài",
    "review.replay.differs_paid": "kết quả phát lại khác số tiền đã trả",
    "evidence.status.kept": "còn giữ",
    "evidence.status.pruned": "đã xoá {day} ({reason}; sự kiện {seq})",
    "evidence.status.missing": "MẤT (không có sự kiện xoá nào giải thích)",
    "evidence.status.altered": "BỊ SỬA",
    "evidence.prune.older": "cũ hơn {days} ngày",
    "evidence.prune.cap": "vượt giới hạn {mb} MB",
    "logs.round_title": "Ván {round} · {game} · bàn {table} · máy {kiosk}",
    "logs.begun": "bắt đầu {at} · {outcome}",
    "logs.begun_ended": "bắt đầu {at} · {outcome} lúc {ended}",
    "logs.outcome.settled": "đã trả",
    "logs.outcome.voided": "đã hủy",
    "logs.outcome.open": "đang mở",
    "logs.voided_by": "{outcome} bởi {by}: {reason}",
    "logs.flag": "CHÚ Ý",
    "logs.violation": "VI PHẠM (tạm giữ chờ giám sát)",
    "logs.recall": "XEM LẠI",
    "logs.recall_mark": "XEM LẠI {number}/{count}: ván {round}, không phải ván đang chơi",
    "logs.recall_none": "XEM LẠI: nhật ký chưa có ván nào",
    "logs.events": "Sự kiện",
    "logs.col.seq": "STT",
    "logs.col.time": "Giờ (UTC)",
    "logs.col.event": "Sự kiện",
    "logs.col.what": "Nội dung",
    "logs.result_title": "Kết quả: đã hiện cho người chia bài · đã trả · phát lại từ các sự kiện",
    "logs.col.party": "Bên",
    "logs.col.shown": "Đã hiện",
    "logs.col.paid": "Đã trả",
    "logs.col.replayed": "Phát lại",
    "logs.party.seat": "ghế {seat}",
    "logs.party.house": "nhà cái",
    "logs.pays": "{payer} trả {payee} {amount}: {reason}",
    "logs.replay_failed": "Phát lại thất bại:",
    "logs.unfinished": "Phát lại: các nước đã ghi không kết thúc ván",
    "logs.unfinished_settled": "(nhưng vẫn đã trả tiền)",
    "logs.agrees": "Kết quả phát lại khớp với {what}",
    "logs.agrees.shown": "kết quả đã hiện",
    "logs.agrees.paid": "số tiền đã trả",
    "logs.agrees.both": "kết quả đã hiện và số tiền đã trả",
    "logs.agrees.recorded": "những gì đã ghi",
    "logs.differs": "Kết quả phát lại KHÁC những gì đã ghi (các dòng màu đỏ)",
    "logs.frames_none": "Ảnh bằng chứng: không có (các lần đọc này được ghi không kèm ảnh)",
    "logs.frames": "Ảnh bằng chứng (ảnh máy quay của mỗi lần đọc; SHA-256, trạng thái, lần đọc):",
    "logs.frames_written": "đã ghi {count} tệp vào {folder} (giữ {kept}/{frames} ảnh, mỗi ảnh như đã lưu và có khung "
                           "lần đọc)",
    "logs.sound": "NGUYÊN VẸN",
    "logs.not_sound": "KHÔNG NGUYÊN VẸN",
    "logs.sound_detail": "{events} sự kiện, mọi mắt xích và dấu niêm phong đều đúng; khóa ghi còn nguyên; {evidence}",
    "logs.evidence": "{kept} ảnh bằng chứng không bị sửa",
    "logs.evidence_pruned": "{kept} ảnh bằng chứng không bị sửa, {pruned} ảnh đã xoá theo cài đặt lưu giữ (có ghi "
                            "nhật ký)",
    "logs.not_anchored": "Chưa đối chiếu mốc:",
    "logs.not_anchored_why": "riêng chuỗi không cho thấy nhật ký bị thay bằng bản cũ, bị cắt bớt, hay bị viết lại "
                             "bằng khóa; thêm --anchors TỆP hoặc --checkpoint DÒNG",
    "logs.note": "Ghi chú:",
    "logs.anchored": "KHỚP MỐC",
    "logs.anchored_detail": "nhật ký nối tiếp cả {count} mốc đã đưa{last}. Các sự kiện sau mốc cuối chỉ được mốc kế "
                            "tiếp chứng minh",
    "logs.anchored_last": "; mốc cuối: sự kiện {seq}",
    "logs.anchored_last_why": "; mốc cuối: sự kiện {seq} ({why})",
    "logs.not_anchored_bad": "KHÔNG KHỚP MỐC",
    "logs.first_bad": "(sự kiện hỏng đầu tiên: {seq})",
    "logs.keep_evidence": "Giữ tệp này làm bằng chứng; máy không cho chơi trên nhật ký này.",
    "logs.keep_evidence_anchors": "Giữ tệp này và các mốc làm bằng chứng; máy không cho chơi trên nhật ký này.",
}
PHRASES: dict[str, dict[str, str]] = {"vi": PHRASES_VI, "km": PHRASES_KM}
for _card, _name in SCHMIER_CARD_NAMES.items():  # a Schmier card named by its symbols in Vietnamese and Khmer
    PHRASES_VI[_name.key] = PHRASES_KM[_name.key] = _card.pretty

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
