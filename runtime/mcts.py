"""Monte Carlo tree search over determinised hidden information (information-set MCTS).

Each iteration asks the state for a *determinisation* — a copy in which everything the deciding
seat cannot see (others' hands, bag and deck order, future dice) is re-randomised — then walks
one shared tree with UCT: whoever is to move in that copy picks among the actions legal there,
untried actions are expanded first, a random rollout plays on (up to a depth cap, after which
the pack's evaluation grades each seat by its margin over the best other seat), and each seat's
result is credited to the moves that seat made. With ``leaf_weight`` w > 0 that result is
blended with the evaluation's grade of the new leaf itself: w × the leaf's grade + (1 − w) ×
the rollout's result (a heuristic blend in the manner of implicit minimax backups, Lanctot et
al. 2014), so a move whose worth the evaluation sees at once (a stronger starting position)
is not lost in the noise of random play after it. Children are keyed by the option's stable key
(``State.option_key``), so "play card 4" is one node across determinisations even when its
index differs. Everything random flows from the agent's rng, so
a fixed seed and an iteration budget give the same choice every time.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from .determinise import actions_by_key

__all__ = ["MCTSAgent", "DEFAULT_ITERATIONS", "DEFAULT_ROLLOUT_DEPTH", "DEFAULT_LEAF_WEIGHT",
           "margin_rewards"]

DEFAULT_ITERATIONS = 40
DEFAULT_ROLLOUT_DEPTH = 10
DEFAULT_EXPLORATION = 0.3
DEFAULT_LEAF_WEIGHT = 0.5


class _Node:
    """Statistics for one move from its parent: visits, total reward of the seat who made it,
    and how often it was available (the information-set UCT denominator)."""

    __slots__ = ("children", "visits", "total", "available")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0


class MCTSAgent:
    """Determinised UCT search with a budget of ``iterations`` or ``seconds`` per decision."""

    name = "mcts"
    imagines = True  # it searches determinised copies: see agents.prepare_game

    def __init__(
        self,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        rollout_depth: int = DEFAULT_ROLLOUT_DEPTH,
        leaf_weight: float = DEFAULT_LEAF_WEIGHT,
    ):
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        if not 0.0 <= leaf_weight <= 1.0:
            raise ValueError(f"leaf_weight is a share between 0 and 1, not {leaf_weight!r}")
        self.leaf_weight = leaf_weight
        self.name = f"mcts:{seconds}s" if seconds is not None else (
            "mcts" if iterations == DEFAULT_ITERATIONS else f"mcts:{iterations}"
        )

    def choose(self, state: Any, rng: random.Random) -> int:
        """The most visited root move after the search budget is spent."""
        root_actions = actions_by_key(state)
        if len(root_actions) == 1:
            return next(iter(root_actions.values()))
        me = state.current_player()
        baseline = float(state.evaluate(me))
        root = _Node()
        deadline = time.monotonic() + self.seconds if self.seconds is not None else None
        done = 0
        while True:
            if deadline is not None:
                if done and time.monotonic() >= deadline:
                    break
            elif done >= self.iterations:
                break
            self._iterate(root, state.determinise(me, rng.getrandbits(63)), me, rng, baseline,
                          root_actions)
            done += 1

        def preference(label: str) -> tuple[int, float]:
            child = root.children.get(label)
            if child is None or child.visits == 0:
                return (0, 0.0)
            return (child.visits, child.total / child.visits)

        top = max(preference(label) for label in root_actions)
        best = [label for label in root_actions if preference(label) == top]
        return root_actions[rng.choice(best)]  # a tie is not won by whichever move is listed first

    def _iterate(self, root: _Node, state: Any, me: int, rng: random.Random,
                 baseline: float, root_labels: dict) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        while not state.is_terminal():
            mover = state.current_player()
            if mover != me and state.in_simultaneous_round():
                # another seat's secret choice, made without seeing ours: not a move of the
                # tree (its statistics would answer a choice that seat cannot see)
                state.apply(rng.choice(state.legal_actions()))
                continue
            actions = actions_by_key(state)
            if node is root:  # only what the true state offers: the imagined one may offer more
                actions = {label: action for label, action in actions.items()
                           if label in root_labels} or actions
            for label in actions:
                child = node.children.get(label)
                if child is not None:
                    child.available += 1
            untried = [label for label in actions if label not in node.children]
            if untried:
                label = rng.choice(untried)
                child = node.children[label] = _Node()
                child.available = 1
                state.apply(actions[label])
                path.append((child, mover))
                break
            label = max(actions, key=lambda lab: self._uct(node.children[lab]))
            node = node.children[label]
            state.apply(actions[label])
            path.append((node, mover))
        leaf = None
        if self.leaf_weight and not state.is_terminal():
            leaf = _graded(state, baseline)
        rewards = self._rollout(state, rng, baseline)
        if leaf is not None:
            w = self.leaf_weight
            rewards = [w * a + (1 - w) * b for a, b in zip(leaf, rewards)]
        for child, mover in path:
            child.visits += 1
            child.total += rewards[mover]

    def _uct(self, child: _Node) -> float:
        if child.visits == 0:
            return math.inf
        return child.total / child.visits + self.exploration * math.sqrt(
            math.log(max(child.available, 1)) / child.visits
        )

    def _rollout(self, state: Any, rng: random.Random, baseline: float) -> list[float]:
        """Random play to the end (real results: 1 per winner), or to the depth cap, where the
        pack's evaluation grades the seats with :func:`margin_rewards` (``baseline``: the
        deciding seat's value when the search began, for a one-seat game)."""
        for _ in range(self.rollout_depth):
            if state.is_terminal():
                return list(state.returns())
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            return list(state.returns())
        return _graded(state, baseline)


def _graded(state: Any, baseline: float) -> list[float]:
    """Every seat's :func:`margin_rewards` from the pack's evaluation of ``state`` (a game
    still running): the grade of a rollout's cut-off and of a new leaf."""
    return margin_rewards([float(state.evaluate(seat)) for seat in range(len(state.returns()))],
                          baseline)


def margin_rewards(values: list[float], baseline: float = 0.0) -> list[float]:
    """Each seat's reward in [0, 1] from the pack's evaluation at a rollout's cut-off.

    A seat's reward is ``0.5 + 0.5 * (v - best) / (|v| + |best|)``, where ``best`` is the best
    other seat's value: 0.5 when level, towards 1 the further ahead, towards 0 the further
    behind, relative to the values' own size (no constant to tune per pack). It rises with the
    seat's own value whatever its place, so a seat already first still prefers the move that
    widens its lead, and a seat last the move that closes the gap. (A grade by rank, from 0 for
    last to 1 for first, is flat for a seat at either end: a search using it could not tell
    good moves from wasted ones whenever it was leading or trailing.) With one seat, ``best``
    is ``baseline``: the seat's value when the search began.
    """
    rewards = []
    for seat, value in enumerate(values):
        others = values[:seat] + values[seat + 1:]
        best = max(others) if others else baseline
        size = abs(value) + abs(best)
        rewards.append(0.5 if size == 0 else 0.5 + 0.5 * (value - best) / size)
    return rewards
