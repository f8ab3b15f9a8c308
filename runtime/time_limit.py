"""A wall-clock time limit for one game, enforced even inside one long decision-free stretch.

A game can spend minutes between two decisions (an effect that loops without asking anything
until the step budget stops it), so checking the clock at decisions is not enough. A
:class:`GameClock` arms a timer thread that, when the time is up, raises
:class:`TimeLimitExceeded` in the thread playing the game (``PyThreadState_SetAsyncExc``):
Python delivers it at the next bytecode wherever the game is, in the main thread, a process
pool worker or a Dask worker thread alike. It is a ``BaseException`` so no ``except
Exception`` in the engine or an agent can swallow it. A single C call (one huge arithmetic
operation) finishes before it is delivered; the engine's value limits keep those short.
"""

from __future__ import annotations

import ctypes
import threading
import time
from contextlib import contextmanager
from typing import Iterator

__all__ = ["TimeLimitExceeded", "GameClock"]


class TimeLimitExceeded(BaseException):
    """The game ran past its time limit (raised inside the thread playing it)."""


_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
_set_async_exc.argtypes = (ctypes.c_ulong, ctypes.py_object)


class GameClock:
    """``with GameClock(seconds):`` raises :class:`TimeLimitExceeded` in this thread once
    ``seconds`` of wall-clock time have passed inside the block, not counting time spent in
    :meth:`paused` (a person thinking). ``seconds=None`` is no limit."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._armed = False
        self._fired = False
        self._left = seconds
        self._since = 0.0
        self._thread = 0

    def __enter__(self) -> "GameClock":
        self._thread = threading.get_ident()
        self._start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop()
        with self._lock:
            if self._fired:  # fired as the block ended: take back the undelivered exception
                _set_async_exc(self._thread, ctypes.py_object())

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Time inside this block does not count towards the limit."""
        self._stop()
        try:
            yield
        finally:
            self._start()

    def _start(self) -> None:
        if self._left is None:
            return
        with self._lock:
            self._armed = True
            self._since = time.monotonic()
            self._timer = threading.Timer(max(self._left, 0.0), self._fire)
            self._timer.daemon = True
            self._timer.start()

    def _stop(self) -> None:
        if self._left is None:
            return
        with self._lock:
            self._armed = False
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._left -= time.monotonic() - self._since

    def _fire(self) -> None:
        with self._lock:
            if self._armed:
                self._armed = False
                self._fired = True
                _set_async_exc(self._thread, ctypes.py_object(TimeLimitExceeded))
