"""Map a character offset inside a loaded YAML string back to its line and column in the file.

YAML rewrites strings as it loads them: quotes and escapes disappear, line breaks fold into
spaces, block scalars lose their indentation. To point an effect-text error at the right place,
this module replays that rewriting over the source text (following the YAML 1.1 scanner rules
PyYAML and libyaml implement) and records, for every character of the value, the index of the
source character it came from. The replay is checked against the value the loader produced;
if they ever disagree, every offset maps to the start of the scalar (never a wrong place deep
inside it).

Input text must use ``\\n`` line breaks only (``compiler/yaml_loader.py`` normalises them).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Callable

OffsetMap = Callable[[int], tuple[int, int]]

_END = "\0"
_ESCAPE_REPLACEMENTS = {
    "0": "\0", "a": "\x07", "b": "\x08", "t": "\x09", "\t": "\x09", "n": "\x0a",
    "v": "\x0b", "f": "\x0c", "r": "\x0d", "e": "\x1b", " ": " ", '"': '"', "/": "/",
    "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_ESCAPE_CODES = {"x": 2, "u": 4, "U": 8}
STYLE_NAMES = {None: "plain", "": "plain", "'": "single", '"': "double", "|": "literal", ">": "folded"}


class LineIndex:
    """Converts between character indexes in a text and 1-based (line, column) positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        position = text.find("\n")
        while position != -1:
            self.starts.append(position + 1)
            position = text.find("\n", position + 1)

    def position(self, index: int) -> tuple[int, int]:
        """The 1-based (line, column) of the character at ``index``."""
        index = max(0, min(index, len(self.text)))
        line = bisect_right(self.starts, index)
        return line, index - self.starts[line - 1] + 1

    def index(self, line0: int, column0: int) -> int:
        """The character index of a 0-based (line, column) position, as YAML marks give."""
        if line0 >= len(self.starts):
            return len(self.text)
        return min(self.starts[line0] + column0, len(self.text))


class _Trace:
    """The characters of a replayed value and, for each, the source index it came from."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.chars: list[str] = []
        self.sources: list[int] = []

    def peek(self, index: int) -> str:
        return self.text[index] if 0 <= index < len(self.text) else _END

    def column(self, index: int) -> int:
        return index - (self.text.rfind("\n", 0, index) + 1)

    def emit(self, chars: str, source: int) -> None:
        for char in chars:
            self.chars.append(char)
            self.sources.append(source)

    def copy(self, start: int, end: int) -> None:
        for index in range(start, end):
            self.chars.append(self.text[index])
            self.sources.append(index)

    def value(self) -> str:
        return "".join(self.chars)


def _trace_plain(trace: _Trace, start: int, end: int) -> None:
    text = trace.text
    lines: list[tuple[int, int]] = []
    line_start = start
    while True:
        newline = text.find("\n", line_start, end)
        line_end = end if newline == -1 else newline
        lines.append((line_start, line_end))
        if newline == -1:
            break
        line_start = newline + 1
    last = len(lines) - 1
    empties: list[int] = []
    previous_end = None
    for number, (a, b) in enumerate(lines):
        if number > 0:
            while a < b and text[a] in " \t":
                a += 1
        if number < last:
            while b > a and text[b - 1] in " \t":
                b -= 1
        if a == b and number not in (0, last):
            empties.append(a)
            continue
        if previous_end is not None:
            if empties:
                for empty in empties:
                    trace.emit("\n", empty)
            else:
                trace.emit(" ", previous_end)
        trace.copy(a, b)
        previous_end = b
        empties = []


def _trace_quoted(trace: _Trace, start: int, double: bool) -> None:
    quote = '"' if double else "'"
    index = start + 1

    def breaks(index: int) -> int:
        while True:
            while trace.peek(index) in " \t":
                index += 1
            if trace.peek(index) == "\n":
                trace.emit("\n", index)
                index += 1
            else:
                return index

    def non_spaces(index: int) -> int:
        while True:
            run = index
            while trace.peek(run) not in "'\"\\\0 \t\n":
                run += 1
            trace.copy(index, run)
            index = run
            char = trace.peek(index)
            if not double and char == "'" and trace.peek(index + 1) == "'":
                trace.emit("'", index)
                index += 2
            elif (double and char == "'") or (not double and char in '"\\'):
                trace.emit(char, index)
                index += 1
            elif double and char == "\\":
                escaped = trace.peek(index + 1)
                if escaped in _ESCAPE_REPLACEMENTS:
                    trace.emit(_ESCAPE_REPLACEMENTS[escaped], index)
                    index += 2
                elif escaped in _ESCAPE_CODES:
                    width = _ESCAPE_CODES[escaped]
                    digits = trace.text[index + 2:index + 2 + width]
                    trace.emit(chr(int(digits, 16)), index)
                    index += 2 + width
                elif escaped == "\n":
                    index = breaks(index + 2)
                else:
                    raise ValueError("unknown escape")
            else:
                return index

    def spaces(index: int) -> int:
        run = index
        while trace.peek(run) in " \t":
            run += 1
        if trace.peek(run) == "\n":
            before = len(trace.chars)
            after = breaks(run + 1)
            if len(trace.chars) == before:
                trace.emit(" ", run)
            return after
        trace.copy(index, run)
        return run

    index = non_spaces(index)
    while trace.peek(index) not in (quote, _END):
        index = spaces(index)
        index = non_spaces(index)


def _trace_block(trace: _Trace, start: int, folded: bool, parent_indent: int) -> None:
    peek, column = trace.peek, trace.column
    index = start + 1
    chomping: bool | None = None
    increment: int | None = None
    for _ in range(2):
        char = peek(index)
        if char in "+-" and chomping is None:
            chomping = char == "+"
            index += 1
        elif char in "123456789" and increment is None:
            increment = int(char)
            index += 1
    while peek(index) == " ":
        index += 1
    if peek(index) == "#":
        while peek(index) not in "\0\n":
            index += 1
    if peek(index) == "\n":
        index += 1

    def scan_breaks(index: int, indent: int) -> tuple[list[int], int]:
        found: list[int] = []
        while column(index) < indent and peek(index) == " ":
            index += 1
        while peek(index) == "\n":
            found.append(index)
            index += 1
            while column(index) < indent and peek(index) == " ":
                index += 1
        return found, index

    min_indent = max(parent_indent + 1, 1)
    if increment is None:
        pending: list[int] = []
        max_indent = 0
        while peek(index) in " \n":
            if peek(index) == "\n":
                pending.append(index)
            elif column(index) + 1 > max_indent:
                max_indent = column(index) + 1
            index += 1
        indent = max(min_indent, max_indent)
    else:
        indent = min_indent + increment - 1
        pending, index = scan_breaks(index, indent)

    line_break: int | None = None
    while column(index) == indent and peek(index) != _END:
        for position in pending:
            trace.emit("\n", position)
        leading_non_space = peek(index) not in " \t"
        line_end = index
        while peek(line_end) not in "\0\n":
            line_end += 1
        trace.copy(index, line_end)
        index = line_end
        line_break = index if peek(index) == "\n" else None
        if line_break is not None:
            index += 1
        pending, index = scan_breaks(index, indent)
        if column(index) == indent and peek(index) != _END:
            if folded and line_break is not None and leading_non_space and peek(index) not in " \t":
                if not pending:
                    trace.emit(" ", line_break)
            elif line_break is not None:
                trace.emit("\n", line_break)
        else:
            break
    if chomping is not False and line_break is not None:
        trace.emit("\n", line_break)
    if chomping is True:
        for position in pending:
            trace.emit("\n", position)


def trace_scalar(text: str, style: str | None, start: int, end: int,
                 parent_indent: int = -1) -> tuple[str, list[int]]:
    """Replay how YAML loads the scalar written at ``text[start:end]`` in ``style``
    (``None``/``''`` plain, ``'`` single-quoted, ``"`` double-quoted, ``|`` literal, ``>``
    folded). Returns the value and, per character, the index of its source character.
    ``parent_indent`` is the 0-based column of the enclosing block collection."""
    trace = _Trace(text)
    if style in (None, ""):
        _trace_plain(trace, start, end)
    elif style in ("'", '"'):
        _trace_quoted(trace, start, style == '"')
    elif style in ("|", ">"):
        _trace_block(trace, start, style == ">", parent_indent)
    else:
        raise ValueError(f"unknown scalar style {style!r}")
    return trace.value(), trace.sources


def content_start(text: str, style: str | None, start: int) -> int:
    """Where a scalar's content begins: after an opening quote, or on the line after a block
    scalar's header."""
    if style in ("'", '"'):
        return start + 1
    if style in ("|", ">"):
        newline = text.find("\n", start)
        return len(text) if newline == -1 else newline + 1
    return start


def offset_mapper(text: str, style: str | None, start: int, end: int, value: str,
                  parent_indent: int = -1, lines: LineIndex | None = None) -> OffsetMap:
    """A function from a character offset in the loaded ``value`` to the 1-based
    (line, column) in the file of the character it came from. ``len(value)`` maps just past
    the last character. If the replay does not reproduce ``value`` exactly, every offset maps
    to the scalar's start."""
    lines = lines or LineIndex(text)
    try:
        replayed, sources = trace_scalar(text, style, start, end, parent_indent)
    except (ValueError, IndexError):
        replayed, sources = None, []
    if replayed != value:
        anchor = lines.position(start)
        return lambda offset: anchor
    empty_at = content_start(text, style, start)

    def to_position(offset: int) -> tuple[int, int]:
        if not sources:
            return lines.position(empty_at)
        if offset < 0:
            return lines.position(sources[0])
        if offset >= len(sources):
            return lines.position(sources[-1] + 1)
        return lines.position(sources[offset])

    return to_position
