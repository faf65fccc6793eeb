"""The console's words, English and Vietnamese, in the kiosk catalogue's shape (key → (English, Vietnamese)), and
Khmer for every key beside them (``TEXTS_KM``).

The floor may not import the kiosk, so the console keeps its own catalogue beside the kiosk's rather than moving
it; the words both screens show (the alerts, game names, devices' health) are the kiosk's words, and
``tests/test_floor_console_i18n.py`` holds the two catalogues to the same text for those keys. The console's own Khmer
uses the glossary's (../shared/spec/glossary.md) and the kiosk's Khmer terms; the test requires every key in all
three languages, and a key missing from a language at run time would fall back to English, never to the key.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "vi", "km")
# Each language's name in its own script: the language button shows the next one's (as on the kiosk).
LANGUAGE_NAMES = {"en": "English", "vi": "Tiếng Việt", "km": "ខ្មែរ"}

SHARED_WITH_KIOSK = ("status.called", "status.table", "status.round", "status.camera", "status.shaker",
                     "status.panel", "status.journal", "health.ok", "health.down", "game.baibuu", "game.samloc",
                     "game.schmier", "bb.outcome.mis-set")
"""Keys whose words must equal the kiosk's (kiosk/i18n.py)."""

TEXTS: dict[str, tuple[str, str]] = {
    # shared with the kiosk's screen
    "status.called": ("SUPERVISOR CALLED", "ĐÃ GỌI GIÁM SÁT"),
    "status.table": ("Table {table}", "Bàn {table}"),
    "status.round": ("Round {round}", "Ván {round}"),
    "status.camera": ("Camera", "Máy quay"),
    "status.shaker": ("Shaker", "Máy lắc"),
    "status.panel": ("Buttons", "Bảng nút"),
    "status.journal": ("Journal", "Nhật ký"),
    "health.ok": ("OK", "Tốt"),
    "health.down": ("OFFLINE", "MẤT KẾT NỐI"),
    "game.baibuu": ("Bài Bửu", "Bài Bửu"),
    "game.samloc": ("Sâm Lốc", "Sâm Lốc"),
    "game.schmier": ("Schmier", "Schmier"),
    "bb.outcome.mis-set": ("MIS-SET", "XẾP SAI"),
    # the console's own
    "app.title": ("Floor console", "Bảng điều khiển sàn"),
    "nav.pit": ("Pit", "Khu bàn"),
    "nav.rounds": ("Rounds", "Các ván"),
    "nav.reports": ("Reports", "Báo cáo"),
    "nav.actions": ("Console log", "Nhật ký bảng điều khiển"),
    "nav.logout": ("Sign out", "Đăng xuất"),
    "login.title": ("Sign in", "Đăng nhập"),
    "login.name": ("User name", "Tên người dùng"),
    "login.password": ("Password", "Mật khẩu"),
    "login.submit": ("Sign in", "Đăng nhập"),
    "login.wrong": ("Wrong user name or password.", "Sai tên người dùng hoặc mật khẩu."),
    "login.locked": ("Too many wrong tries: this account is locked for {minutes} min.",
                     "Sai quá nhiều lần: tài khoản bị khóa {minutes} phút."),
    "csrf.refused": ("The form was refused: it did not come from this console (CSRF check). Reload the page and try "
                     "again.", "Biểu mẫu bị từ chối: không đến từ bảng điều khiển này (kiểm tra CSRF). Tải lại trang "
                     "và thử lại."),
    "role.refused": ("Your role ({role}) may not do this.", "Vai trò của bạn ({role}) không được làm việc này."),
    "pit.title": ("Pit view", "Toàn cảnh khu bàn"),
    "pit.live": ("live", "trực tiếp"),
    "pit.offline": ("reconnecting…", "đang kết nối lại…"),
    "pit.no_tables": ("No table has shipped its journal yet.", "Chưa bàn nào gửi nhật ký."),
    "pit.game": ("Game", "Trò chơi"),
    "pit.step": ("Step", "Bước"),
    "pit.devices": ("Devices", "Thiết bị"),
    "pit.alerts": ("Alerts", "Cảnh báo"),
    "pit.last_event": ("Last heard {ago} ago", "Liên lạc lần cuối {ago} trước"),
    "pit.ack": ("Acknowledge", "Đã xem"),
    "pit.review": ("Rounds", "Các ván"),
    "pit.runs": ("Runs dealer-assist {version}, reader {reader}", "Chạy dealer-assist {version}, mô hình {reader}"),
    "step.idle": ("waiting for a round", "chờ ván mới"),
    "step.dealt": ("dealt", "đã chia"),
    "step.playing": ("playing, step {actions}", "đang chơi, bước {actions}"),
    "step.results_shown": ("results shown", "đã hiện kết quả"),
    "step.settled": ("settled", "đã trả tiền"),
    "step.voided": ("voided", "đã hủy"),
    "alert.called": ("SUPERVISOR CALLED", "ĐÃ GỌI GIÁM SÁT"),
    "alert.journal": ("JOURNAL FAILED ITS CHECK", "NHẬT KÝ KHÔNG ĐẠT KIỂM TRA"),
    "alert.void": ("ROUND {round} VOIDED", "VÁN {round} ĐÃ HỦY"),
    "alert.silent": ("KIOSK SILENT {minutes} MIN", "KIOSK IM LẶNG {minutes} PHÚT"),
    "alert.fork": ("JOURNAL ALTERED OR RESTORED: REFUSED", "NHẬT KÝ BỊ SỬA HOẶC KHÔI PHỤC: TỪ CHỐI"),
    "alert.gap": ("EVENTS MISSING: REFUSED", "THIẾU SỰ KIỆN: TỪ CHỐI"),
    "alert.anchor": ("JOURNAL REWRITTEN AFTER SHIPPING", "NHẬT KÝ BỊ VIẾT LẠI SAU KHI GỬI"),
    "alert.device_refused": ("DEVICE NOT AUTHENTICATED: {serial}", "THIẾT BỊ KHÔNG XÁC THỰC: {serial}"),
    "alert.device_v2": (
        "DEVICE {serial} NOT AUTHENTICATED: PROTOCOL 2 ALLOWED",
        "THIẾT BỊ {serial} KHÔNG XÁC THỰC: CHO PHÉP GIAO THỨC 2",
    ),
    "rounds.title": ("Round review", "Xem lại ván"),
    "rounds.table": ("Table", "Bàn"),
    "rounds.all": ("all", "tất cả"),
    "rounds.outcome": ("Outcome", "Kết quả"),
    "rounds.since": ("From", "Từ ngày"),
    "rounds.until": ("To", "Đến ngày"),
    "rounds.search": ("Search", "Tìm"),
    "rounds.csv": ("CSV export", "Xuất CSV"),
    "rounds.none": ("No round matches.", "Không có ván nào phù hợp."),
    "rounds.round": ("Round", "Ván"),
    "rounds.begun": ("Begun", "Bắt đầu"),
    "rounds.paid": ("Paid", "Đã trả"),
    "rounds.house_net": ("House net", "Nhà cái lời/lỗ"),
    "rounds.replay": ("Replay", "Tính lại"),
    "rounds.flags": ("Flags", "Lưu ý"),
    "rounds.more": ("{count} more rounds: narrow the search.", "Còn {count} ván: hãy thu hẹp tìm kiếm."),
    "outcome.settled": ("settled", "đã trả tiền"),
    "outcome.voided": ("voided", "đã hủy"),
    "outcome.open": ("open", "đang chơi"),
    "review.title": ("Table {table} · round {round}", "Bàn {table} · ván {round}"),
    "review.replayed": ("Replayed through the rules", "Tính lại theo luật"),
    "review.shown": ("Shown to the dealer", "Đã hiện cho người chia"),
    "review.paid": ("Paid", "Đã trả"),
    "review.agrees": ("The replay agrees with what was shown and paid.",
                      "Kết quả tính lại khớp với những gì đã hiện và đã trả."),
    "review.disagrees": ("THE REPLAY DISAGREES with what was recorded.",
                         "KẾT QUẢ TÍNH LẠI KHÔNG KHỚP với những gì đã ghi."),
    "review.not_over": ("The round is not over.", "Ván chưa kết thúc."),
    "review.events": ("Events", "Sự kiện"),
    "review.corrections": ("Corrections", "Sửa bài"),
    "review.frames": ("Evidence frames", "Ảnh bằng chứng"),
    "review.no_frames": ("No reading of this round cites a camera frame.",
                         "Không lần đọc bài nào của ván này có ảnh camera."),
    "review.frame": ("The camera frame the readings beside it were made from",
                     "Ảnh camera dùng để đọc các lá bài bên cạnh"),
    "review.frame_pruned": ("Deleted on the kiosk by its retention settings before it reached the floor (the "
                            "journal records it).",
                            "Đã bị xoá trên kiosk theo cài đặt lưu giữ trước khi được gửi lên (nhật ký có ghi)."),
    "review.frame_pending": ("Not at the floor yet: the kiosk sends it when it can.",
                             "Chưa có trên hệ thống: kiosk sẽ gửi khi có thể."),
    "review.nets": ("Nets", "Thắng thua"),
    "review.seat": ("seat {seat}", "ghế {seat}"),
    "review.none": ("none", "không có"),
    "reports.title": ("Reports", "Báo cáo"),
    "reports.by_table": ("Per table", "Theo bàn"),
    "reports.by_shift": ("Per shift", "Theo ca"),
    "reports.rounds": ("Rounds", "Số ván"),
    "reports.hold": ("Hold", "Tỷ lệ giữ"),
    "reports.house_win": ("House win", "Nhà cái thắng"),
    "reports.total_bet": ("Total bet", "Tổng cược"),
    "reports.voids": ("Voids", "Ván hủy"),
    "reports.corrections": ("Corrections", "Sửa bài"),
    "reports.flagged": ("Flagged cards", "Bài bị đánh dấu"),
    "reports.mis_sets": ("Mis-sets", "Xếp sai"),
    "reports.per_hour": ("Rounds/hour", "Ván/giờ"),
    "reports.shift": ("Shift", "Ca"),
    "reports.chart_rounds": ("Rounds per table", "Số ván theo bàn"),
    "reports.chart_hold": ("Hold per table", "Tỷ lệ giữ theo bàn"),
    "reports.chart_shift": ("Rounds per shift", "Số ván theo ca"),
    "actions.title": ("Console log: every action taken here", "Nhật ký bảng điều khiển: mọi thao tác"),
    "actions.when": ("When", "Lúc"),
    "actions.who": ("Who", "Ai"),
    "actions.what": ("What", "Việc"),
    "actions.detail": ("Detail", "Chi tiết"),
    "pit.alert_age": ("{ago} ago", "{ago} trước"),
    "ago.s": ("{n} s", "{n} giây"),
    "ago.min": ("{n} min", "{n} phút"),
    "ago.h": ("{h} h {min} min", "{h} giờ {min} phút"),
    "ago.never": ("never", "chưa bao giờ"),
    "error.refused": ("The console cannot answer this request.", "Bảng điều khiển không thể trả lời yêu cầu này."),
    "error.no_page": ("There is no such page here: use the menu above.",
                      "Không có trang này: hãy dùng menu ở trên."),
    "review.voided": ("Voided by {by}: {reason}", "Đã hủy bởi {by}: {reason}"),
    # the console's own log: what each recorded action was
    "action.signed_in": ("signed in", "đăng nhập"),
    "action.signed_out": ("signed out", "đăng xuất"),
    "action.sign_in_refused": ("sign-in refused", "đăng nhập bị từ chối"),
    "action.account_locked": ("account locked", "tài khoản bị khóa"),
    "action.account_added": ("account added", "thêm tài khoản"),
    "action.language_changed": ("language changed", "đổi ngôn ngữ"),
    "action.csrf_refused": ("form refused (CSRF)", "biểu mẫu bị từ chối (CSRF)"),
    "action.alert_acknowledged": ("alert acknowledged", "đã xem cảnh báo"),
    "action.rounds_searched": ("rounds searched", "tìm ván"),
    "action.rounds_exported": ("rounds exported (CSV)", "xuất ván (CSV)"),
    "action.round_reviewed": ("round reviewed", "xem lại ván"),
    "action.frame_viewed": ("evidence frame viewed", "xem ảnh bằng chứng"),
    "action.report_viewed": ("report viewed", "xem báo cáo"),
    "action.console_log_viewed": ("console log viewed", "xem nhật ký bảng điều khiển"),
    "review.unknown": ("The floor holds no round {round} of kiosk {kiosk}: search for it on the rounds page.",
                       "Hệ thống không có ván {round} của kiosk {kiosk}: hãy tìm ở trang Các ván."),
}


# Khmer for every key: the kiosk's words (kiosk/i18n_km.py) for the keys both screens share, and the console's own
# in the glossary's and the kiosk's Khmer terms.
TEXTS_KM: dict[str, str] = {
    "status.called": "បានហៅអ្នកត្រួតពិនិត្យ",
    "status.table": "តុ {table}",
    "status.round": "ជុំ {round}",
    "status.camera": "កាមេរ៉ា",
    "status.shaker": "ម៉ាស៊ីនក្រឡុក",
    "status.panel": "ប៊ូតុង",
    "status.journal": "កំណត់ហេតុ",
    "health.ok": "ល្អ",
    "health.down": "ដាច់",
    "game.baibuu": "Bài Bửu",
    "game.samloc": "សឹមឡុក",
    "game.schmier": "Schmier",
    "bb.outcome.mis-set": "រៀបខុស",
    "alert.called": "បានហៅអ្នកត្រួតពិនិត្យ",
    # the console's own, in the kiosk's Khmer words (តុ, ជុំ, កំណត់ហេតុ, ផ្ទះ, ភ្នាល់, លុបចោល, បានទូទាត់ …)
    "app.title": "ផ្ទាំងគ្រប់គ្រងជាន់ល្បែង",
    "nav.pit": "តំបន់តុ",
    "nav.rounds": "ជុំ",
    "nav.reports": "របាយការណ៍",
    "nav.actions": "កំណត់ហេតុផ្ទាំងគ្រប់គ្រង",
    "nav.logout": "ចាកចេញ",
    "login.title": "ចូល",
    "login.name": "ឈ្មោះអ្នកប្រើ",
    "login.password": "ពាក្យសម្ងាត់",
    "login.submit": "ចូល",
    "login.wrong": "ឈ្មោះអ្នកប្រើ ឬពាក្យសម្ងាត់ខុស។",
    "login.locked": "ខុសច្រើនដងពេក៖ គណនីនេះចាក់សោ {minutes} នាទី។",
    "csrf.refused": "ទម្រង់ត្រូវបានបដិសេធ៖ វាមិនមកពីផ្ទាំងគ្រប់គ្រងនេះទេ (ការពិនិត្យ CSRF)។ ផ្ទុកទំព័រឡើងវិញ "
    "រួចសាកម្ដងទៀត។",
    "role.refused": "តួនាទីរបស់អ្នក ({role}) មិនអាចធ្វើការនេះបានទេ។",
    "pit.title": "ទិដ្ឋភាពតំបន់តុ",
    "pit.live": "ផ្ទាល់",
    "pit.offline": "កំពុងភ្ជាប់ឡើងវិញ…",
    "pit.no_tables": "មិនទាន់មានតុណាផ្ញើកំណត់ហេតុរបស់វានៅឡើយទេ។",
    "pit.game": "ល្បែង",
    "pit.step": "ជំហាន",
    "pit.devices": "ឧបករណ៍",
    "pit.alerts": "ការព្រមាន",
    "pit.last_event": "ទាក់ទងចុងក្រោយ {ago} មុន",
    "pit.ack": "បានឃើញ",
    "pit.review": "ជុំ",
    "pit.runs": "ដំណើរការ dealer-assist {version}, ម៉ូដែលអាន {reader}",
    "step.idle": "រង់ចាំជុំថ្មី",
    "step.dealt": "បានចែក",
    "step.playing": "កំពុងលេង ជំហានទី {actions}",
    "step.results_shown": "បានបង្ហាញលទ្ធផល",
    "step.settled": "បានទូទាត់",
    "step.voided": "បានលុបចោល",
    "alert.journal": "កំណត់ហេតុមិនឆ្លងការពិនិត្យ",
    "alert.void": "ជុំ {round} បានលុបចោល",
    "alert.device_refused": "ឧបករណ៍មិនបានផ្ទៀងផ្ទាត់៖ {serial}",
    "alert.device_v2": "ឧបករណ៍ {serial} មិនបានផ្ទៀងផ្ទាត់៖ អនុញ្ញាតពិធីការ 2",
    "alert.silent": "kiosk ស្ងាត់ {minutes} នាទី",
    "alert.fork": "កំណត់ហេតុត្រូវបានកែ ឬស្ដារឡើងវិញ៖ បានបដិសេធ",
    "alert.gap": "បាត់ព្រឹត្តិការណ៍៖ បានបដិសេធ",
    "alert.anchor": "កំណត់ហេតុត្រូវបានសរសេរឡើងវិញ ក្រោយពេលផ្ញើ",
    "rounds.title": "មើលជុំឡើងវិញ",
    "rounds.table": "តុ",
    "rounds.all": "ទាំងអស់",
    "rounds.outcome": "លទ្ធផល",
    "rounds.since": "ពី",
    "rounds.until": "ដល់",
    "rounds.search": "ស្វែងរក",
    "rounds.csv": "នាំចេញ CSV",
    "rounds.none": "គ្មានជុំណាត្រូវនឹងការស្វែងរកទេ។",
    "rounds.round": "ជុំ",
    "rounds.begun": "ចាប់ផ្ដើម",
    "rounds.paid": "បានសង",
    "rounds.house_net": "ផ្ទះ ចំណេញ/ខាត",
    "rounds.replay": "ការលេងឡើងវិញ",
    "rounds.flags": "ប្រយ័ត្ន",
    "rounds.more": "ជុំ {count} ទៀត៖ បង្រួមការស្វែងរក។",
    "outcome.settled": "បានទូទាត់",
    "outcome.voided": "បានលុបចោល",
    "outcome.open": "កំពុងបើក",
    "review.title": "តុ {table} · ជុំ {round}",
    "review.replayed": "លេងឡើងវិញតាមច្បាប់",
    "review.shown": "បានបង្ហាញដល់អ្នកចែកកាត",
    "review.paid": "បានសង",
    "review.agrees": "ការលេងឡើងវិញត្រូវគ្នានឹងអ្វីដែលបានបង្ហាញ និងបានសង។",
    "review.disagrees": "ការលេងឡើងវិញមិនត្រូវគ្នា នឹងអ្វីដែលបានកត់ត្រា។",
    "review.not_over": "ជុំមិនទាន់ចប់ទេ។",
    "review.events": "ព្រឹត្តិការណ៍",
    "review.corrections": "ការកែ",
    "review.frames": "រូបភស្តុតាង",
    "review.no_frames": "គ្មានការអានណាមួយនៃជុំនេះ យោងរូបកាមេរ៉ាទេ។",
    "review.frame": "រូបកាមេរ៉ា ដែលការអាននៅក្បែរវាបានអានចេញពី",
    "review.frame_pruned": "បានលុបនៅលើ kiosk តាមការកំណត់រក្សាទុករបស់វា មុនពេលមកដល់ទីនេះ (កំណត់ហេតុកត់ត្រាវា)។",
    "review.frame_pending": "មិនទាន់មកដល់ទីនេះទេ៖ kiosk នឹងផ្ញើវា ពេលអាចធ្វើបាន។",
    "review.nets": "ឈ្នះ / ចាញ់",
    "review.seat": "កៅអី {seat}",
    "review.none": "គ្មាន",
    "reports.title": "របាយការណ៍",
    "reports.by_table": "តាមតុ",
    "reports.by_shift": "តាមវេនការងារ",
    "reports.rounds": "ចំនួនជុំ",
    "reports.hold": "អត្រាផ្ទះរក្សា",
    "reports.house_win": "ផ្ទះឈ្នះ",
    "reports.total_bet": "ភ្នាល់សរុប",
    "reports.voids": "ជុំលុបចោល",
    "reports.corrections": "ការកែ",
    "reports.flagged": "កាតប្រយ័ត្ន",
    "reports.mis_sets": "រៀបខុស",
    "reports.per_hour": "ជុំ/ម៉ោង",
    "reports.shift": "វេនការងារ",
    "reports.chart_rounds": "ចំនួនជុំតាមតុ",
    "reports.chart_hold": "អត្រាផ្ទះរក្សាតាមតុ",
    "reports.chart_shift": "ចំនួនជុំតាមវេនការងារ",
    "actions.title": "កំណត់ហេតុផ្ទាំងគ្រប់គ្រង៖ គ្រប់សកម្មភាពដែលបានធ្វើនៅទីនេះ",
    "actions.when": "ពេល",
    "actions.who": "អ្នកណា",
    "actions.what": "អ្វី",
    "actions.detail": "ព័ត៌មានលម្អិត",
    "pit.alert_age": "{ago} មុន",
    "ago.s": "{n} វិនាទី",
    "ago.min": "{n} នាទី",
    "ago.h": "{h} ម៉ោង {min} នាទី",
    "ago.never": "មិនដែល",
    "error.refused": "ផ្ទាំងគ្រប់គ្រងមិនអាចឆ្លើយសំណើនេះបានទេ។",
    "error.no_page": "គ្មានទំព័រនេះនៅទីនេះទេ៖ សូមប្រើម៉ឺនុយខាងលើ។",
    "review.voided": "បានលុបចោលដោយ {by}៖ {reason}",
    "action.signed_in": "បានចូល",
    "action.signed_out": "បានចាកចេញ",
    "action.sign_in_refused": "ការចូលត្រូវបានបដិសេធ",
    "action.account_locked": "គណនីត្រូវបានចាក់សោ",
    "action.account_added": "បានបន្ថែមគណនី",
    "action.language_changed": "បានប្ដូរភាសា",
    "action.csrf_refused": "ទម្រង់ត្រូវបានបដិសេធ (CSRF)",
    "action.alert_acknowledged": "បានឃើញការព្រមាន",
    "action.rounds_searched": "បានស្វែងរកជុំ",
    "action.rounds_exported": "បាននាំចេញជុំ (CSV)",
    "action.round_reviewed": "បានមើលជុំឡើងវិញ",
    "action.frame_viewed": "បានមើលរូបភស្តុតាង",
    "action.report_viewed": "បានមើលរបាយការណ៍",
    "action.console_log_viewed": "បានមើលកំណត់ហេតុផ្ទាំងគ្រប់គ្រង",
    "review.unknown": "ជាន់ល្បែងគ្មានជុំ {round} នៃ kiosk {kiosk} ទេ៖ សូមស្វែងរកវានៅទំព័រជុំ។",
}


def text(language: str, key: str, **params: Any) -> str:
    """``key`` in ``language`` with ``params`` filled in; English when that language lacks it."""
    pair = TEXTS.get(key)
    if pair is None:
        raise KeyError(f"the console catalogue has no text {key!r}")
    if language == "km":
        template = TEXTS_KM.get(key) or pair[0]
    else:
        template = pair[LANGUAGES.index(language) if language in ("en", "vi") else 0] or pair[0]
    return template.format(**params) if params else template


def word(language: str, prefix: str, name: str) -> str:
    """``prefix + name`` in the language when the catalogue has it, else ``name`` as it is (a kind of record a
    newer console wrote, say)."""
    return text(language, prefix + name) if prefix + name in TEXTS else name


def ago(language: str, seconds: int | None) -> str:
    """How long ago, in the language's words: 5 s, 4 min, 2 h 10 min (5 giây, 4 phút …)."""
    if seconds is None:
        return text(language, "ago.never")
    if seconds < 60:
        return text(language, "ago.s", n=seconds)
    if seconds < 3600:
        return text(language, "ago.min", n=seconds // 60)
    return text(language, "ago.h", h=seconds // 3600, min=seconds % 3600 // 60)


def next_language(language: str) -> str:
    return LANGUAGES[(LANGUAGES.index(language) + 1) % len(LANGUAGES)] if language in LANGUAGES else "en"
