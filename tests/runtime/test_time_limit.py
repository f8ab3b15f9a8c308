"""The per-game clock: it stops code that never reaches a decision, in any thread, and a block
that ends in time is never interrupted afterwards."""

from __future__ import annotations

import threading
import time

import pytest

from rulewright.runtime.time_limit import GameClock, TimeLimitExceeded


def spin_forever():
    while True:
        pass


def test_a_busy_loop_is_stopped_at_its_limit():
    started = time.perf_counter()
    with pytest.raises(TimeLimitExceeded):
        with GameClock(0.3):
            spin_forever()
    assert 0.25 < time.perf_counter() - started < 5


def test_an_except_exception_in_the_game_cannot_swallow_it():
    def stubborn():
        while True:
            try:
                spin_forever()
            except Exception:  # noqa: BLE001 - what engine code might do
                pass

    with pytest.raises(TimeLimitExceeded):
        with GameClock(0.2):
            stubborn()


def test_it_works_in_a_worker_thread_as_dask_runs_games():
    outcome = []

    def worker():
        try:
            with GameClock(0.2):
                spin_forever()
        except TimeLimitExceeded:
            outcome.append("stopped")

    thread = threading.Thread(target=worker, daemon=True)
    thread.start()
    thread.join(10)
    assert outcome == ["stopped"]


def test_paused_time_does_not_count():
    with GameClock(0.3) as clock:
        with clock.paused():
            time.sleep(0.6)
        time.sleep(0.05)


def test_blocks_that_end_in_time_leave_nothing_behind():
    stopped = 0
    for size in range(300):  # blocks about as long as their limit (how many end first varies)
        try:
            with GameClock(0.0005):
                sum(range(100 * size))
        except TimeLimitExceeded:
            stopped += 1
    time.sleep(0.1)
    assert stopped < 300
    total = sum(range(100_000))  # a stray exception would be raised around here
    assert total == 4_999_950_000


def test_no_limit_is_no_timer():
    with GameClock(None) as clock:
        with clock.paused():
            pass
    assert clock._timer is None
