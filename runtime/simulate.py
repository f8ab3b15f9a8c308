"""Run many games between agents — serially, in local processes or on a Dask cluster.

Every game is a pure function of (compiled ruleset, game seed, agents per seat): game ``i``
of a run with seed ``S`` is dealt from ``derive_seed(S, i)`` and its agents are the agent list
rotated by ``i`` (so each agent plays each seat). Results are ordered by game index, so a run's
output does not depend on how many workers played it or in which order they finished.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import multiprocessing
import pickle
import signal
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from rulewright.runtime.agents import make_agent
from rulewright.runtime.logs import GameFailed, play_logged_game, write_log
from rulewright.runtime.stats import summarise

__all__ = [
    "SimulationResult",
    "ClusterUnavailableError",
    "derive_seed",
    "seat_agents",
    "load_game",
    "play_one",
    "simulate",
]

GameFactory = Callable[[dict, int, "str | None"], Any]
Progress = Callable[[int, int, dict], None]
POOL_ATTEMPTS = 3
IN_FLIGHT_PER_WORKER = 4


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


def load_game(compiled: dict, players: int, variant: str | None = None) -> Any:
    """The default game factory: the runtime interpreter's ``Game.from_compiled``."""
    from rulewright.runtime.game import Game

    return Game.from_compiled(compiled, players, variant)


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
        played = play_logged_game(
            game, seed, [make_agent(name) for name in agents], pack_source=setup.pack_source,
            names=agents, time_limit=setup.time_limit,
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


def _init_pool_worker(compiled: dict) -> None:
    """Pool initializer: keep the ruleset in the worker; Ctrl-C is the parent's to handle."""
    global _WORKER_COMPILED
    _WORKER_COMPILED = compiled
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_in_pool(setup: _RunSetup, index: int, seed: int, agents: list[str]) -> dict:
    assert _WORKER_COMPILED is not None
    return play_one(setup, _WORKER_COMPILED, index, seed, agents)


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
        """The balance statistics (see :func:`rulewright.runtime.stats.summarise`)."""
        return summarise(self.games, self.players)

    @property
    def errors(self) -> list[dict]:
        """Records of games that ended in an engine error."""
        return [g for g in self.games if g.get("error")]

    def to_json(self) -> dict:
        """One JSON object; everything wall-clock dependent is under ``timing``/``duration``."""
        return {
            "pack": self.pack,
            "pack_hash": self.pack_hash,
            "players": self.players,
            "variant": self.variant,
            "seed": self.seed,
            "agents": list(self.agents),
            "interrupted": self.interrupted,
            "games": self.games,
            "summary": self.summary,
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
) -> SimulationResult:
    """Play ``games`` games and collect their records.

    ``workers`` > 1 uses a spawn-context process pool (a pool whose worker died is restarted
    and the lost games resubmitted); ``cluster`` is ``"local"`` (a Dask LocalCluster with
    ``workers`` processes) or a scheduler address. ``progress(done, total, record)`` is called
    as games finish. Ctrl-C stops the run and keeps finished games (``interrupted=True``).
    ``game_factory(compiled, players, variant)`` builds the game (the interpreter by default);
    it is built once here too, so a bad player count or variant fails before any work starts.
    ``time_limit`` (seconds) stops any game that runs longer, as a failed game.
    """
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    if not agents:
        raise ValueError("at least one agent is needed")
    for name in agents:
        make_agent(name)
    probe = game_factory(compiled, players, variant)
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
    tasks = [(i, derive_seed(seed, i), seat_agents(list(agents), players, i)) for i in range(games)]
    records: dict[int, dict] = {}

    def finished(record: dict) -> None:
        records[record["index"]] = record
        if progress is not None:
            progress(len(records), games, record)

    started = time.perf_counter()
    interrupted = False
    try:
        if cluster is not None:
            _run_on_dask(cluster, max(workers, 1), setup, compiled, tasks, finished)
        elif workers > 1:
            _run_in_pool(workers, setup, compiled, tasks, finished)
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


def _run_in_pool(workers: int, setup: _RunSetup, compiled: dict, tasks: list, finished: Callable) -> None:
    """Play ``tasks`` on a process pool, a few per worker in flight at a time (so a huge run
    neither floods memory nor delays Ctrl-C); games lost to a dead worker are retried on a new
    pool, up to POOL_ATTEMPTS times each."""
    attempts = {index: 0 for index, _, _ in tasks}
    queue = deque(tasks)
    context = multiprocessing.get_context("spawn")
    while queue:
        pool = cf.ProcessPoolExecutor(
            max_workers=min(workers, len(queue)), mp_context=context,
            initializer=_init_pool_worker, initargs=(compiled,),
        )
        in_flight: dict = {}
        lost: list = []
        try:
            while (queue and not lost) or in_flight:
                while queue and not lost and len(in_flight) < IN_FLIGHT_PER_WORKER * workers:
                    task = queue.popleft()
                    in_flight[pool.submit(_play_in_pool, setup, *task)] = task
                done, _ = cf.wait(in_flight, return_when=cf.FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: in_flight[f][0]):
                    task = in_flight.pop(future)
                    try:
                        record = future.result()
                    except cf.process.BrokenProcessPool:
                        attempts[task[0]] += 1
                        if attempts[task[0]] < POOL_ATTEMPTS:
                            lost.append(task)
                        else:
                            finished(_lost_record(task, "a worker process died while playing it"))
                        continue
                    finished(record)
        except BaseException:
            for future in in_flight:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
        queue.extendleft(sorted(lost, reverse=True))


def _lost_record(task: tuple, why: str) -> dict:
    index, seed, names = task
    return {"index": index, "seed": seed, "agents": names, "error": why, "duration": 0.0}


def _run_on_dask(cluster: str, workers: int, setup: _RunSetup, compiled: dict, tasks: list,
                 finished: Callable) -> None:
    """Play ``tasks`` on Dask: ``"local"`` starts a LocalCluster, anything else is an address."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ClusterUnavailableError(
            "--cluster needs Dask: pip install 'rulewright[cluster]' (dask[distributed])"
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
            except (OSError, TimeoutError) as exc:
                raise ClusterUnavailableError(f"cannot reach the Dask scheduler at {cluster}: {exc}") from None
        with client:
            [remote_compiled] = client.scatter([compiled], broadcast=True)
            window = IN_FLIGHT_PER_WORKER * max(workers, sum(client.nthreads().values()))
            queue = deque(tasks)
            in_flight: dict = {}

            def submit_next() -> None:
                task = queue.popleft()
                future = client.submit(play_one, setup, remote_compiled, *task, retries=2, pure=False)
                in_flight[future] = task
                running.add(future)

            running = as_completed()
            while queue and len(in_flight) < window:
                submit_next()
            try:
                for future in running:
                    task = in_flight.pop(future)
                    try:
                        record = future.result()
                    except Exception as exc:  # e.g. KilledWorker after the retries
                        record = _lost_record(task, f"{type(exc).__name__}: {exc}")
                    finished(record)
                    if queue:
                        submit_next()
            except BaseException:
                client.cancel(list(in_flight))
                raise
    finally:
        if local is not None:
            local.close()
