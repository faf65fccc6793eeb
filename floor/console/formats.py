"""Numbers, percentages, dates and times as each of the console's languages writes them (CLDR through Babel), in the
casino's time zone, always naming that zone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_skeleton
from babel.numbers import format_decimal, format_percent

from engine.errors import InputError


def time_zone(name: str) -> ZoneInfo:
    """The IANA zone called ``name`` (e.g. Asia/Ho_Chi_Minh), or a clear refusal."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InputError(f"time zone {name!r} is not known: give an IANA name such as Asia/Ho_Chi_Minh, "
                         "Asia/Phnom_Penh or UTC") from None


def zone_label(moment: datetime) -> str:
    """The zone a local moment is in, as people read it: UTC, UTC+07, CET."""
    name = moment.strftime("%Z")
    return f"UTC{name}" if name[:1] in "+-" else name or "UTC"


@dataclass(frozen=True, slots=True)
class Formats:
    """How one page writes numbers and moments: its language and the casino's zone."""

    language: str
    zone: tzinfo = UTC

    def number(self, value: float | int | None, decimals: int = 0) -> str:
        if value is None:
            return "—"
        pattern = "#,##0" + ("." + "0" * decimals if decimals else "")
        return str(format_decimal(value, format=pattern, locale=self.language))

    def signed(self, value: int | None) -> str:
        if value is None:
            return "—"
        return ("+" if value > 0 else "") + self.number(value)

    def percent(self, fraction: float | None, decimals: int = 1) -> str:
        if fraction is None:
            return "—"
        pattern = "#,##0" + ("." + "0" * decimals if decimals else "") + "%"
        return str(format_percent(fraction, format=pattern, locale=self.language))

    def local(self, moment: datetime | str) -> datetime:
        """A moment (or a journal's ISO 8601 text) in the casino's zone; a moment without a zone is UTC."""
        if isinstance(moment, str):
            moment = datetime.fromisoformat(moment)
        return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(self.zone)

    def zone_of(self, moment: datetime | str) -> str:
        """The casino's zone as it stood at ``moment`` (UTC+07)."""
        return zone_label(self.local(moment))

    def date(self, moment: datetime | date | str) -> str:
        """The day, as the language writes it; a calendar day (a filter's) as it is, a moment in the casino's zone."""
        day = moment if isinstance(moment, date) and not isinstance(moment, datetime) else self.local(moment)
        return str(format_skeleton("yMd", datetime.combine(day, datetime.min.time()) if not isinstance(
            day, datetime) else day, locale=self.language))

    def time(self, moment: datetime | str, zone: bool = True) -> str:
        local = self.local(moment)
        text = str(format_skeleton("Hms", local, locale=self.language))
        return f"{text} {zone_label(local)}" if zone else text

    def moment(self, moment: datetime | str | None) -> str:
        """Date, time and zone; a journal's ISO text is read first; empty for none."""
        if moment is None or moment == "":
            return ""
        return f"{self.date(moment)} {self.time(moment)}"

    def shift(self, shift: tuple[datetime, datetime]) -> str:
        """A shift as its day, local hours and zone: 4/12/2026 06:00–14:00 UTC+07."""
        start, end = (self.local(moment) for moment in shift)
        hours = (str(format_skeleton("Hm", moment, locale=self.language)) for moment in (start, end))
        return f"{self.date(start)} {'–'.join(hours)} {zone_label(start)}"
