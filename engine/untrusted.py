"""JSON and YAML text from outside (round and hand files, the kiosk config, layouts, calibrations), parsed safely.

Python's parsers trust what they read: 100,000 nested brackets exhaust the recursion limit, a 5,000-digit number
raises a ``ValueError`` about ``sys.set_int_max_str_digits``, a repeated key silently replaces the first one,
YAML turns ``2026-13-45`` into a crash and a few aliases (``&a [*a, *a, …]``) into billions of values. Here each of
those becomes an ``InputError`` naming the file, where in it, and what to do, and what comes back is plain JSON
values (dict, list, str, int, float, bool, None) within the limits below, so the reader only checks meaning.

Parsing is a pure function of the text (no I/O); PyYAML is imported only when YAML text is parsed, so the game
rules keep needing nothing but the standard library.
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from typing import Any

from engine.errors import InputError

MAX_DEPTH = 32
"""Our files nest five or six levels deep; far deeper nesting is a damaged or hostile file."""
MAX_VALUES = 200_000
"""Values in one file, counting every use of a YAML alias; our largest files hold a few thousand."""
LARGEST_INT = 2**63 - 1
"""Every number we store must fit SQLite's 64-bit INTEGER; nothing a table counts comes near it."""
_MAX_NUMBER_TEXT = 64
"""Longer number texts are refused before conversion (a 64-bit number is at most 64 binary digits)."""


class _Oversized:
    """A number too long to convert, kept until the walk can say where it was."""

    def __init__(self, text: str) -> None:
        self.text = text


class _RepeatedKey(dict[Any, Any]):
    """A JSON object that named one key twice (Python would keep only the last)."""

    def __init__(self, pairs: list[tuple[Any, Any]], key: Any) -> None:
        super().__init__(pairs)
        self.key = key


def _json_int(text: str) -> int | _Oversized:
    return _Oversized(text) if len(text) > _MAX_NUMBER_TEXT else int(text)


def _json_object(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key, _ in pairs:
        if key in seen:
            return _RepeatedKey(pairs, key)
        seen.add(key)
    return dict(pairs)


def _decode(source: str | bytes, where: str) -> str:
    if isinstance(source, str):
        return source.removeprefix("\ufeff")
    try:
        return source.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{where}: not UTF-8 text (a stray byte at offset {error.start}); save the file as UTF-8"
        ) from None


def _too_deep(where: str) -> InputError:
    return InputError(f"{where}: nested more than {MAX_DEPTH} levels deep; this is not a file of ours, check it")


def parse_json(source: str | bytes, where: str) -> Any:
    """The JSON value of ``source`` (bytes are read as UTF-8), checked by ``checked``; ``where`` names the file."""
    text = _decode(source, where)
    try:
        value = json.loads(text, parse_int=_json_int, parse_constant=float, object_pairs_hook=_json_object)
    except json.JSONDecodeError as error:
        raise InputError(
            f"{where}: not valid JSON ({error.msg} at line {error.lineno}, column {error.colno}); check the file"
        ) from None
    except RecursionError:
        raise _too_deep(where) from None
    return checked(value, where)


def parse_yaml(source: str | bytes, where: str) -> Any:
    """The YAML value of ``source`` (safe tags only), checked by ``checked``; an empty document is None."""
    import yaml

    text = _decode(source, where)
    if _flow_depth(text) > 4 * MAX_DEPTH:
        raise _too_deep(where)  # before PyYAML, whose time grows with the square of the depth of [[[…
    try:
        value = yaml.load(text, Loader=_guarded_loader())
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = f" at line {mark.line + 1}" if mark is not None else ""
        problem = error.problem or error.context or "unreadable"
        if not isinstance(error, yaml.constructor.ConstructorError):  # a constructor's problem says what to do
            problem += "; check the indentation and quotes"
        raise InputError(f"{where}: not valid YAML{line}: {problem}") from None
    except yaml.YAMLError as error:
        raise InputError(f"{where}: not valid YAML ({str(error).splitlines()[0]}); check the file") from None
    except RecursionError:
        raise _too_deep(where) from None
    return checked(value, where)


# A quote left open runs to the end of the text, so every match consumes what it tried: linear time.
_QUOTED_OR_COMMENT = re.compile(r""""(?:[^"\\]|\\.)*"?|'(?:[^']|'')*'?|#[^\n]*""", re.DOTALL)


def _flow_depth(text: str) -> int:
    """How deep YAML's flow brackets nest, about (brackets in plain text count too: only a bound, never a verdict)."""
    depth = deepest = 0
    for bracket in re.findall(r"[\[\]{}]", _QUOTED_OR_COMMENT.sub("", text)):
        depth = depth + 1 if bracket in "[{" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    return deepest


@cache
def _guarded_loader() -> type[Any]:
    import yaml
    from yaml.constructor import ConstructorError, SafeConstructor

    class GuardedLoader(yaml.SafeLoader):
        """PyYAML's safe loader that refuses repeated keys, over-long numbers and impossible dates with a line."""

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge" or not isinstance(key_node, yaml.ScalarNode):
                    continue
                key = self.construct_object(key_node, deep=False)
                if key in seen:
                    raise ConstructorError(
                        None, None, f"the key {key!r} is given twice (keep one)", key_node.start_mark
                    )
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    def construct_int(loader: Any, node: Any) -> int | _Oversized:
        text = str(loader.construct_scalar(node))
        if len(text) > _MAX_NUMBER_TEXT:
            return _Oversized(text)
        return int(SafeConstructor.construct_yaml_int(loader, node))

    def construct_timestamp(loader: Any, node: Any) -> Any:
        try:
            return SafeConstructor.construct_yaml_timestamp(loader, node)
        except (ValueError, OverflowError) as error:
            problem = f"{node.value!r} looks like a date but is not one ({error}); put it in quotes if it is text"
            raise ConstructorError(None, None, problem, node.start_mark) from None

    GuardedLoader.add_constructor("tag:yaml.org,2002:int", construct_int)
    GuardedLoader.add_constructor("tag:yaml.org,2002:timestamp", construct_timestamp)
    return GuardedLoader


def checked(value: Any, where: str) -> Any:
    """``value`` itself once every part of it is a plain JSON value within the limits; else an ``InputError``
    naming ``where``, the place inside (``seats.2.bet``) and what to do."""
    count = 0
    stack: list[tuple[Any, tuple[object, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise InputError(f"{where}: more than {MAX_VALUES:,} values; this is not a file of ours, check it")
        if len(path) > MAX_DEPTH:
            raise _too_deep(where)
        problem = _problem(item)
        if problem:
            place = _place(path)
            raise InputError(f"{where}: {place + ': ' if place else ''}{problem}")
        if isinstance(item, dict):
            for key, child in item.items():
                key_problem = _problem(key, as_key=True)
                if key_problem:
                    place = _place(path)
                    raise InputError(f"{where}: {place + ': ' if place else ''}key {key_problem}")
                stack.append((child, (*path, key)))
        elif isinstance(item, list):
            stack.extend((child, (*path, index)) for index, child in enumerate(item))
    return value


def _problem(item: Any, *, as_key: bool = False) -> str | None:
    if isinstance(item, _Oversized):
        digits = item.text.lstrip("+-")
        return f"a number of {len(digits):,} digits ({digits[:12]}…) is larger than any value a table uses; check it"
    if isinstance(item, _RepeatedKey):
        return f"the key {item.key!r} is given twice (keep one)"
    if item is None or isinstance(item, bool):
        return None
    if isinstance(item, int):
        if abs(item) > LARGEST_INT:
            return f"{item} is larger than any value a table uses (at most {LARGEST_INT:,}); check it"
        return None
    if isinstance(item, float):
        return None if math.isfinite(item) else f"{item} is not a number a table uses; give a finite number"
    if isinstance(item, str):
        try:
            item.encode("utf-8")
        except UnicodeEncodeError:
            return f"{item!r} holds a lone surrogate escape (\\ud800-\\udfff), which is not text"
        return None
    if not as_key and isinstance(item, dict | list):
        return None
    kind = _KINDS.get(type(item).__name__, f"a {type(item).__name__}")
    shown = str(item) if kind.startswith("a date") else repr(item)
    return f"{shown} is read as {kind}; put it in quotes if it is text"


_KINDS = {"date": "a date", "datetime": "a date and time", "bytes": "binary data", "set": "a set"}


def _place(path: tuple[object, ...]) -> str:
    text = "".join(f"[{part}]" if isinstance(part, int) and not isinstance(part, bool) else f".{part}" for part in path)
    text = text.removeprefix(".")
    return text if len(text) <= 80 else text[:77] + "…"
