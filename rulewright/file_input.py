"""Reading a file rulewright was handed: only a regular file, and never more than a limit.

Packs, compiled rulesets and game logs all come from people rulewright does not know, so every
file is read through :func:`read_regular_file`: a device (``/dev/zero``), a named pipe, a
socket or a folder is refused before a byte is read, and no read takes more than the limit
plus one byte. :func:`read_json_file` adds strict UTF-8 JSON with bounded numbers and
nesting. The compiler (content files, its cache) and the runtime (rulesets, logs) share it.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any

__all__ = ["FileRefused", "read_regular_file", "read_json_file"]


class FileRefused(Exception):
    """A file that was not read. ``reason`` is ``"not_regular"``, ``"too_large"``,
    ``"unreadable"`` or ``"not_json"``; ``message`` says why in words (it never quotes the
    file); ``line`` and ``column`` (1-based) say where, when a parser knows."""

    def __init__(self, reason: str, message: str, line: int | None = None,
                 column: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.line = line
        self.column = column

    def located(self, path: str) -> str:
        """``path:line:column: message`` (or ``path: message`` when there is no position)."""
        if self.line is None:
            return f"{path}: {self.message}"
        return f"{path}:{self.line}:{self.column}: {self.message}"


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISSOCK, "a socket"))


def _not_regular(mode: int) -> FileRefused | None:
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return FileRefused("not_regular", f"this is {kind}, not a regular file")


def read_regular_file(path: str, limit: int) -> bytes:
    """The bytes of the regular file at ``path`` (links followed), reading at most ``limit``
    + 1 bytes; raises :class:`FileRefused` for anything else.

    The file is looked at before it is opened, opened without blocking (a named pipe with no
    writer cannot stall it) and looked at again once open (it may have been replaced); a
    file over ``limit`` bytes is refused by its size, and one that grows past it while it is
    read is refused too."""
    try:
        refused = _not_regular(os.stat(path).st_mode)
        if refused is not None:
            raise refused
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                             | getattr(os, "O_BINARY", 0))
    except OSError as error:
        raise FileRefused("unreadable", f"cannot read the file: {error.strerror or error}") from None
    chunks: list[bytes] = []
    try:
        info = os.fstat(descriptor)
        refused = _not_regular(info.st_mode)
        if refused is not None:
            raise refused
        if info.st_size > limit:
            raise FileRefused("too_large", f"the file is {info.st_size} bytes; the limit is {limit}")
        wanted = limit + 1
        while wanted > 0:
            chunk = os.read(descriptor, min(wanted, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            wanted -= len(chunk)
    except OSError as error:
        raise FileRefused("unreadable", f"cannot read the file: {error.strerror or error}") from None
    finally:
        os.close(descriptor)
    raw = b"".join(chunks)
    if len(raw) > limit:
        raise FileRefused("too_large", f"the file grew past the limit of {limit} bytes while it was read")
    return raw


class _NumberRefused(ValueError):
    """Raised inside the JSON parser for a number outside what the file may hold."""


def read_json_file(path: str, limit: int, max_int: int) -> Any:
    """The JSON value of the file at ``path``, read as :func:`read_regular_file` reads it;
    raises :class:`FileRefused` for a file that cannot be read and, reason ``"not_json"``,
    for one that is not strict UTF-8 JSON whose numbers are whole numbers within
    ``±max_int`` and whose nesting Python can parse, with the line and column where the
    parser knows them."""
    raw = read_regular_file(path, limit)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise FileRefused("not_json", f"byte 0x{raw[error.start]:02x} is not UTF-8 text "
                          "(JSON files are UTF-8)", line, column) from None

    def whole_number(digits: str) -> int:
        length = len(digits.lstrip("-"))
        if length > len(str(max_int)) or abs(int(digits)) > max_int:
            shown = digits if length <= 30 else f"a number of {length} digits"
            raise _NumberRefused(f"{shown} is larger than this file may hold (at most {max_int} "
                                 "either way)")
        return int(digits)

    def not_whole(text: str) -> Any:
        raise _NumberRefused(f"{text} is not a whole number (this file holds only whole numbers)")

    try:
        return json.loads(text.removeprefix("\ufeff"), parse_int=whole_number,
                          parse_float=not_whole, parse_constant=not_whole)
    except json.JSONDecodeError as error:
        raise FileRefused("not_json", f"not valid JSON: {error.msg}", error.lineno, error.colno) from None
    except _NumberRefused as error:
        raise FileRefused("not_json", str(error)) from None
    except RecursionError:
        raise FileRefused("not_json", "the JSON is nested too deeply") from None
