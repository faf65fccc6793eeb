"""Shifts for the reports: every moment falls in exactly one shift, which begins at one of the configured hours."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from floor.console.data import shift_of

moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC))
starts = st.sets(st.integers(0, 23), min_size=1, max_size=6).map(tuple)


@given(moments, starts)
def test_a_moment_lies_in_the_shift_that_begins_last_before_it(moment: datetime, hours: tuple[int, ...]) -> None:
    start, end = shift_of(moment, hours)
    assert start <= moment < end
    assert start.hour in hours and end.hour in hours and start.minute == start.second == 0
    assert timedelta(0) < end - start <= timedelta(hours=24)
    assert shift_of(end, hours)[0] == end  # the next shift begins where this one ends
    assert shift_of(start, hours) == (start, end)


def test_the_default_shifts() -> None:
    at = datetime(2026, 12, 4, 3, 30, tzinfo=UTC)
    assert shift_of(at, (6, 14, 22)) == (datetime(2026, 12, 3, 22, tzinfo=UTC), datetime(2026, 12, 4, 6, tzinfo=UTC))
