"""Run many games between agents — serially, in local processes or on a Dask cluster.

Every game is a pure function of (compiled ruleset, game seed, agents per seat): game ``i``
of a run with seed ``S`` is dealt from ``derive_seed(S, i)`` and its agents are the agent list
rotated by ``i`` (so each agent plays each seat). Results are ordered by game index, so a run's
output does not depend on how many workers played it or in which order they finished.

Games are made lazily and handed to workers in chunks of consecutive games, smaller as the run
nears its end (the same chunks for a process pool and a Dask cluster), a few chunks per pool
process in flight: a run's memory does not grow with the number of games asked for, only with
the records of the games played. With ``workers`` W > 1 the calling process is one of the W:
it plays a chunk whenever the pool of W - 1 has enough in flight.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import itertools
import json
import multiprocessing
import pickle
import re
import signal
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from rulewright.runtime.logs import GameFailed, play_logged_game, write_log
from rulewright.runtime.metrics import ScoreTimeline
from rulewright.runtime.restrict import make_seat_agent
from rulewright.runtime.summary import summarise

__all__ = [
    "SimulationResult",
    "GameNotBuilt",
    "ClusterUnavailableError",
    "derive_seed",
    "seat_agents",
    "load_game",
    "play_one",
    "play_chunk",
    "chunk_size",
    "game_tasks",
    "check_cluster_address",
    "simulate",
]

GameFactory = Callable[[dict, int, "str | None"], Any]
Progress = Callable[[int, int, dict], None]
Task = tuple  # (game index, game seed, agent names per seat)
POOL_ATTEMPTS = 3
IN_FLIGHT_PER_WORKER = 3
"""Chunks per worker submitted ahead: enough that a worker never waits for the next one."""
MAX_CHUNK = 16
"""The most games in one chunk: fewer per-game round trips to the workers (chunks shrink to
a single game as the run nears its end: :func:`chunk_size`)."""


class GameNotBuilt(ValueError):
    """The game factory refused the ruleset, player count or variant (the refusal is this
    exception's ``__cause__``), before any game was played."""


class ClusterUnavailableError(RuntimeError):
    """``cluster=`` was asked for but Dask is not installed or the scheduler cannot be reached."""


def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed``: the first 8 bytes of sha256."""
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def seat_agents(agents: Sequence[str], players: int, index: int) -> list[str]:
    """Agent names per seat for game ``index``: the list cycled to ``players`` and rotated by
    ``index`` so over a run every agent plays every seat equally often."""
    cycle = [agents[i % len(agents)] for i in range(max(players, len(agents)))]
    shift = index % len(cycle)
    rotated = cycle[shift:] + cycle[:shift]
    return rotated[:players]


def load_game(compiled: dict, players: int, variant: str | None = None, *,
              checked: bool = False) -> Any:
    """The default game factory: the runtime interpreter's ``Game.from_compiled``
    (``checked``: see :class:`~runtime.game.Game`)."""
    from rulewright.runtime.game import Game

    return Game.from_compiled(compiled, players, variant, checked=checked)


@dataclass(frozen=True)
class _RunSetup:
    """Everything a worker needs besides the compiled ruleset (small and picklable)."""

    token: str
    players: int
    variant: str | None
    factory: GameFactory
    log_dir: str | None
    pack_source: str | None
    time_limit: float | None = None


_GAMES: dict[tuple, Any] = {}
_WORKER_COMPILED: dict | None = None


def _game_for(setup: _RunSetup, compiled: dict) -> Any:
    """Build the game once per process (lowering a pack is not free) and reuse it."""
    key = (setup.token, setup.players, setup.variant)
    if key not in _GAMES:
        _GAMES.clear()
        _GAMES[key] = setup.factory(compiled, setup.players, setup.variant)
    return _GAMES[key]


def _run_token(compiled: dict, factory: GameFactory) -> str:
    """Identifies (ruleset, factory) so worker processes reuse the game they built."""
    digest = hashlib.sha256(json.dumps(compiled, sort_keys=True, default=str).encode())
    digest.update(pickle.dumps(factory))
    return digest.hexdigest()


def play_one(setup: _RunSetup, compiled: dict, index: int, seed: int, agents: list[str]) -> dict:
    """Play game ``index`` and return its record. A game that fails — the engine, an agent
    or the time limit — becomes a record with ``error`` (what failed) and ``failure`` (the
    decision, seat and phase, as its log says); with a log folder its log is written too, so
    ``rulewright replay`` can reproduce the failure."""
    started = time.perf_counter()
    record: dict[str, Any] = {"index": index, "seed": seed, "agents": list(agents)}
    log = None
    try:
        game = _game_for(setup, compiled)
        if getattr(game, "count_points", None) is False:
            game.count_points = True  # the runtime's games can say where points come from
        timeline = ScoreTimeline(game.num_players)
        played = play_logged_game(
            game, seed, [make_seat_agent(name) for name in agents], pack_source=setup.pack_source,
            on_action=timeline.before_action, names=agents, time_limit=setup.time_limit,
            final_digest=setup.log_dir is not None,  # the log is kept only in a log folder
        )
        log = played.log
        state = played.state
        stats = state.stats()
        returns = state.returns()
        record.update(
            identity=stats.get("identity") or [{} for _ in agents],
            scores=list(state.scores()),
            winners=[seat for seat, r in enumerate(returns) if r >= 1.0],
            rounds=stats.get("rounds", 0),
            decisions=stats.get("decisions", len(played.log["actions"])),
            usage=stats.get("usage") or [{} for _ in agents],
            eliminated=stats.get("eliminated", []),
            points_by_source=stats.get("points_by_source"),
            **timeline.record(),
            error=None,
        )
    except GameFailed as failed:
        log = failed.log
        record["error"] = failed.log["error"]["message"]
        record["failure"] = dict(failed.log["error"])
    except Exception as exc:  # noqa: BLE001 - a game that cannot even start must not lose the run
        record["error"] = f"{type(exc).__name__}: {exc}"
    if setup.log_dir is not None and log is not None:
        write_log(log, Path(setup.log_dir) / f"game-{index:06d}.json")
    record["duration"] = time.perf_counter() - started
    return record


def chunk_size(games: int, workers: int) -> int:
    """How many consecutive games go to a worker at a time when ``games`` are left to hand
    out (see :data:`MAX_CHUNK`): smaller as the run nears its end, so the workers finish
    together."""
    return max(1, min(MAX_CHUNK, games // (max(workers, 1) * 4)))


def game_tasks(seed: int, agents: Sequence[str], players: int, games: int) -> Iterator[Task]:
    """The run's games in index order, made one at a time as they are wanted."""
    names = list(agents)
    for index in range(games):
        yield index, derive_seed(seed, index), seat_agents(names, players, index)


def chunked(tasks: Iterator[Task], games: int, workers: int) -> Iterator[list[Task]]:
    """The run's ``games`` tasks in consecutive lists of :func:`chunk_size` of the games left."""
    left = games
    while left > 0:
        chunk = list(itertools.islice(tasks, chunk_size(left, workers)))
        if not chunk:
            return
        left -= len(chunk)
        yield chunk


def play_chunk(setup: _RunSetup, compiled: dict, chunk: list[Task]) -> list[dict]:
    """Play a chunk of games in order (the unit a worker is given); their records."""
    return [play_one(setup, compiled, *task) for task in chunk]


def _init_pool_worker(setup: _RunSetup, compiled: dict) -> None:
    """Pool initializer: keep the ruleset in the worker and, with the default factory, build
    its game without checking it again (the parent built its own game from this very ruleset,
    so it has passed the check) unless it came with the fork (:func:`pool_context`); Ctrl-C is
    the parent's to handle."""
    global _WORKER_COMPILED
    _WORKER_COMPILED = compiled
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup.factory is load_game and (setup.token, setup.players, setup.variant) not in _GAMES:
        try:
            _GAMES[(setup.token, setup.players, setup.variant)] = load_game(
                compiled, setup.players, setup.variant, checked=True)
        except Exception:  # noqa: BLE001 - play_one builds it again and records why it fails
            pass


def _play_in_pool(setup: _RunSetup, chunk: list[Task]) -> list[dict]:
    assert _WORKER_COMPILED is not None
    return play_chunk(setup, _WORKER_COMPILED, chunk)


@dataclass
class SimulationResult:
    """The games of a run (ordered by index) plus what is needed to read them."""

    pack: str
    pack_hash: str | None
    players: int
    variant: str | None
    seed: int
    agents: list[str]
    games: list[dict]
    interrupted: bool = False
    timing: dict = field(default_factory=dict)

    @property
    def summary(self) -> dict:
        """The balance statistics (see :func:`rulewright.runtime.summary.summarise`)."""
        return summarise(self.games, self.players)

    @property
    def errors(self) -> list[dict]:
        """Records of games that ended in an engine error."""
        return [g for g in self.games if g.get("error")]

    def to_json(self, summary: dict | None = None) -> dict:
        """One JSON object; everything wall-clock dependent is under ``timing``/``duration``.
        ``summary``: the statistics to give, when the caller has worked them out already
        (default :attr:`summary`)."""
        return {
            "pack": self.pack,
            "pack_hash": self.pack_hash,
            "players": self.players,
            "variant": self.variant,
            "seed": self.seed,
            "agents": list(self.agents),
            "interrupted": self.interrupted,
            "games": self.games,
            "summary": self.summary if summary is None else summary,
            "timing": self.timing,
        }


def simulate(
    compiled: dict,
    players: int,
    games: int,
    seed: int = 0,
    agents: Sequence[str] = ("random",),
    variant: str | None = None,
    workers: int = 1,
    cluster: str | None = None,
    log_dir: str | Path | None = None,
    progress: Progress | None = None,
    game_factory: GameFactory = load_game,
    pack_source: str | None = None,
    time_limit: float | None = None,
    game: Any = None,
) -> SimulationResult:
    """Play ``games`` games and collect their records.

    ``workers`` > 1 plays in this process and a pool of ``workers - 1`` (started as
    :func:`pool_context` says; a pool whose process died is restarted and the lost games
    resubmitted); ``cluster`` is ``"local"`` (a Dask LocalCluster with ``workers`` processes)
    or a scheduler address. ``progress(done, total, record)`` is called
    as games finish. Ctrl-C stops the run and keeps finished games (``interrupted=True``).
    ``game_factory(compiled, players, variant)`` builds the game (the interpreter by default);
    it is built once here too, so a bad player count or variant fails before any work starts
    (:class:`GameNotBuilt`, the factory's refusal as its cause), unless the caller has built
    it already and passes it as ``game`` (made by ``game_factory(compiled, players,
    variant)``, so not built twice).
    ``time_limit`` (seconds) stops any game that runs longer, as a failed game.
    """
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    if not agents:
        raise ValueError("at least one agent is needed")
    for name in agents:
        make_seat_agent(name)
    try:
        probe = game if game is not None else game_factory(compiled, players, variant)
    except Exception as exc:  # noqa: BLE001 - whatever the factory refuses with
        raise GameNotBuilt(str(exc)) from exc
    token = _run_token(compiled, game_factory)
    if log_dir is not None:
        Path(log_dir).mkdir(parents=True, exist_ok=True)
    setup = _RunSetup(
        token=token, players=players, variant=variant, factory=game_factory,
        log_dir=str(log_dir) if log_dir is not None else None, pack_source=pack_source,
        time_limit=time_limit,
    )
    _GAMES.clear()
    _GAMES[(token, players, variant)] = probe
    tasks = game_tasks(seed, agents, players, games)
    chunks = chunked(tasks, games, workers)
    records: dict[int, dict] = {}

    def finished(record: dict) -> None:
        records[record["index"]] = record
        if progress is not None:
            progress(len(records), games, record)

    started = time.perf_counter()
    interrupted = False
    try:
        if cluster is not None:
            _run_on_dask(cluster, max(workers, 1), setup, compiled, chunks, finished)
        elif workers > 1:
            _run_in_pool(workers, setup, compiled, chunks, finished)
        else:
            for index, game_seed, names in tasks:
                finished(play_one(setup, compiled, index, game_seed, names))
    except KeyboardInterrupt:
        interrupted = True
    wall = time.perf_counter() - started
    return SimulationResult(
        pack=probe.pack_id,
        pack_hash=probe.pack_hash,
        players=players,
        variant=getattr(probe, "variant", variant),  # the one chosen for this player count
        seed=seed,
        agents=list(agents),
        games=[records[i] for i in sorted(records)],
        interrupted=interrupted,
        timing={
            "wall_seconds": wall,
            "games_per_second": len(records) / wall if wall > 0 else 0.0,
            "workers": workers,
            "cluster": cluster,
        },
    )


def _run_in_pool(workers: int, setup: _RunSetup, compiled: dict, chunks: Iterator[list[Task]],
                 finished: Callable) -> None:
    """Play ``chunks`` on ``workers`` processes: this one and a pool of ``workers - 1``,
    a few chunks per pool process in flight at a time (so a huge run neither floods memory
    nor delays Ctrl-C). This process plays a chunk whenever the pool has enough; a chunk
    lost to a dead pool process is played again on a new pool, up to POOL_ATTEMPTS times,
    then its games are recorded as lost."""
    attempts: dict[int, int] = {}  # first game index of a lost chunk -> times lost
    retry: deque = deque()
    children = workers - 1
    pending = True
    while pending:
        pool = cf.ProcessPoolExecutor(
            max_workers=children,
            mp_context=pool_context(),  # asked again for a pool started again: a thread may run now
            initializer=_init_pool_worker, initargs=(setup, compiled),
        )
        in_flight: dict = {}
        lost: list = []

        def collect(done) -> None:
            for future in sorted(done, key=lambda f: in_flight[f][0][0]):
                chunk = in_flight.pop(future)
                try:
                    records = future.result()
                except cf.process.BrokenProcessPool:
                    first = chunk[0][0]
                    attempts[first] = attempts.get(first, 0) + 1
                    if attempts[first] < POOL_ATTEMPTS:
                        lost.append(chunk)
                    else:
                        for task in chunk:
                            finished(_lost_record(task, "a worker process died while playing it"))
                    continue
                for record in records:
                    finished(record)

        try:
            while True:
                while not lost and len(in_flight) < IN_FLIGHT_PER_WORKER * children:
                    chunk = retry.popleft() if retry else next(chunks, None)
                    if chunk is None:
                        break
                    in_flight[pool.submit(_play_in_pool, setup, chunk)] = chunk
                chunk = None if lost or retry else next(chunks, None)
                if chunk is not None:  # game by game, so each record counts for progress and Ctrl-C
                    for task in chunk:
                        finished(play_one(setup, compiled, *task))
                    collect([f for f in in_flight if f.done()])
                    continue
                if not in_flight:
                    break
                done, _ = cf.wait(in_flight, return_when=cf.FIRST_COMPLETED)
                collect(done)
        except BaseException:
            for future in in_flight:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
        retry.extendleft(sorted(lost, key=lambda c: c[0][0], reverse=True))
        pending = bool(lost)


def pool_context() -> multiprocessing.context.BaseContext:
    """How a local pool starts its processes: ``fork`` on Linux when this process runs no other
    thread, else ``spawn``. A forked pool process starts as a copy of this one, with the modules
    imported, the game built and the node code written so far: none of that is done again
    (0.2-0.3 s a process). With another thread running, a fork may copy a lock that thread
    holds and hang, and macOS and Windows cannot fork safely, so those get ``spawn`` (a new
    interpreter that imports rulewright and builds the game itself). Either way each game is
    a pure function of its seed: the records are the same."""
    if sys.platform == "linux" and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _lost_record(task: tuple, why: str) -> dict:
    index, seed, names = task
    return {"index": index, "seed": seed, "agents": names, "error": why, "duration": 0.0}


def check_cluster_address(address: str) -> str:
    """``address`` if it can name a Dask scheduler (``local``, ``host:port`` or
    ``scheme://host:port`` with tcp, tls, ws, wss, ucx or inproc); ValueError saying what is
    wrong otherwise, before anything tries to connect."""
    if address == "local":
        return address
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme not in _DASK_SCHEMES:
        raise ValueError(f"'{address}' is not a Dask scheduler address: unknown scheme "
                         f"'{scheme}' (use 'local' or e.g. tcp://host:8786)")
    if scheme == "inproc":
        return address
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")
    if not colon or not port.isdigit() or not 0 < int(port) < 65536 \
            or not _HOST.fullmatch(host):
        raise ValueError(f"'{address}' is not a Dask scheduler address (use 'local' or "
                         "HOST:PORT, e.g. tcp://scheduler.example:8786)")
    return address


_DASK_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
_HOST = re.compile(r"[A-Za-z0-9._-]{1,253}|[0-9A-Fa-f:]{2,39}")


def _run_on_dask(cluster: str, workers: int, setup: _RunSetup, compiled: dict,
                 chunks: Iterator[list[Task]], finished: Callable) -> None:
    """Play ``chunks`` on Dask: ``"local"`` starts a LocalCluster, anything else is an address
    (checked first)."""
    try:
        check_cluster_address(cluster)
    except ValueError as exc:
        raise ClusterUnavailableError(str(exc)) from None
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ClusterUnavailableError(
            "--cluster needs Dask: pip install -e '.[cluster]' in the rulewright checkout (dask[distributed])"
        ) from None
    local = None
    try:
        if cluster == "local":
            local = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = Client(local)
        else:
            try:
                client = Client(cluster, timeout="10s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise ClusterUnavailableError(f"cannot reach the Dask scheduler at {cluster}: {exc}") from None
        with client:
            [remote_compiled] = client.scatter([compiled], broadcast=True)
            window = IN_FLIGHT_PER_WORKER * max(workers, sum(client.nthreads().values()))
            in_flight: dict = {}
            running = as_completed()

            def submit_next() -> None:
                chunk = next(chunks, None)
                if chunk is not None:
                    future = client.submit(play_chunk, setup, remote_compiled, chunk, retries=2,
                                           pure=False)
                    in_flight[future] = chunk
                    running.add(future)

            for _ in range(window):
                submit_next()
            try:
                for future in running:
                    chunk = in_flight.pop(future)
                    try:
                        records = future.result()
                    except Exception as exc:  # e.g. KilledWorker after the retries
                        records = [_lost_record(task, f"{type(exc).__name__}: {exc}") for task in chunk]
                    for record in records:
                        finished(record)
                    submit_next()
            except BaseException:
                client.cancel(list(in_flight))
                raise
    finally:
        if local is not None:
            local.close()
