"""Reading a file rulewright was handed: only a regular file, and never more than a limit.

Packs, compiled rulesets and game logs all come from people rulewright does not know, so every
file is read through :func:`read_regular_file`: a device (``/dev/zero``), a named pipe, a
socket or a folder is refused before a byte is read, and no read takes more than the limit
plus one byte. The compiler (content files) and the runtime (rulesets and logs) share it.
"""

from __future__ import annotations

import os
import stat

__all__ = ["FileRefused", "read_regular_file"]


class FileRefused(Exception):
    """A file that was not read. ``reason`` is ``"not_regular"``, ``"too_large"`` or
    ``"unreadable"``; ``message`` says why in words (it never quotes the file)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


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

