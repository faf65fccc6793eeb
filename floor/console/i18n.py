"""The console's words, English and Vietnamese, in the kiosk catalogue's shape (key → (English, Vietnamese)), and
Khmer where the kiosk has the word.

The floor may not import the kiosk, so the console keeps its own catalogue beside the kiosk's rather than moving
it; the words both screens show (the alerts, game names, devices' health) are the kiosk's words, and
``tests/test_floor_console_i18n.py`` holds the two catalogues to the same text for those keys. In Khmer only those
shared words are translated (the console's own words have no Khmer yet); a key missing from a language falls back
to English, never to the key.
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
    "status.camera": ("Camera", "Camera"),
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
    "step.idle": ("waiting for a round", "chờ ván mới"),
    "step.dealt": ("dealt", "đã chia"),
    "step.playing": ("playing ({actions} steps)", "đang chơi ({actions} bước)"),
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
}


# Khmer: the kiosk's words (kiosk/i18n_km.py) for the keys both screens share.
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


def next_language(language: str) -> str:
    return LANGUAGES[(LANGUAGES.index(language) + 1) % len(LANGUAGES)] if language in LANGUAGES else "en"
