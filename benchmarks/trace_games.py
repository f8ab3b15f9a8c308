#!/usr/bin/env python
"""What players see in random games, as a fingerprint to compare two versions of the engine.

    python benchmarks/trace_games.py OUT.jsonl [--seeds N]      # record
    python benchmarks/trace_games.py --compare A.jsonl B.jsonl   # compare two records

For every pack, variant and player count of the shipped packs (and the reference fixture),
``--seeds`` seeded random games (the agent seeded like the game) are played; each game's line
holds a sha256 over the sequence of (seat, labels of every option) at each decision and the final
scores and winners, plus the decision count, and a sha256 of the whole final state
(``State.to_json``), which ``--compare`` also checks where both records have it. Two engines that give the same lines play the same
games as far as anyone at the table can tell, whatever their state layouts and digests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.game import Game

ROOT = Path(__file__).resolve().parent.parent

CONFIGS = [
    ("content/altera", None, [3, 4]), ("content/altera", "two_players", [2]),
    ("content/altera", "five_six_players", [5, 6]),
    ("content/altera", "solo_easy", [1]), ("content/altera", "solo_normal", [1]),
    ("content/altera", "solo_hard", [1]), ("content/altera", "solo_extra_hard", [1]),
    ("content/dice_forge", None, [2, 3, 4]),
    ("content/eterea", None, [2, 3, 4]), ("content/astoria", None, [2, 3, 4, 5, 6]),
    ("tests/fixtures/reference_pack", None, [3, 4]),
    ("tests/fixtures/reference_pack", "two_player", [2]),
]


def trace(game: Game, seed: int) -> dict:
    """One random game's fingerprint."""
    state = game.new_game(seed)
    chooser = random.Random(seed)
    digest = hashlib.sha256()
    decisions = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        labels = [state.action_label(a) for a in legal]
        digest.update(json.dumps([state.current_player(), labels]).encode())
        state.apply(chooser.choice(legal))
        decisions += 1
    digest.update(json.dumps([state.scores(), state.winners()]).encode())
    final = hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()
    return {"decisions": decisions, "scores": state.scores(), "winners": state.winners(),
            "trace": digest.hexdigest(), "final": final}


def record(out: str, seeds: int) -> int:
    rows = []
    for pack, variant, counts in CONFIGS:
        compiled, _diagnostics = compile_pack(str(ROOT / pack), use_cache=False)
        for players in counts:
            game = Game(compiled, players, variant)
            for seed in range(seeds):
                rows.append(dict(trace(game, seed), pack=pack, variant=variant,
                                 players=players, seed=seed))
    Path(out).write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    print(f"{len(rows)} games recorded in {out}")
    return 0


def compare(a: str, b: str) -> int:
    def load(path):
        rows = [json.loads(line) for line in Path(path).read_text().splitlines()]
        return {(r["pack"], r["variant"] or "", r["players"], r["seed"]): r for r in rows}
    left, right = load(a), load(b)
    differ = [k for k in sorted(left) if k in right and left[k]["trace"] != right[k]["trace"]]
    missing = sorted(set(left) ^ set(right))
    # the whole final state too, where both records have it (same state format only)
    states = [k for k in sorted(left) if k in right and k not in differ
              and "final" in left[k] and "final" in right[k]
              and left[k]["final"] != right[k]["final"]]
    for key in differ[:10]:
        print("differs:", key)
    for key in states[:10]:
        print("final state differs:", key)
    same = len(set(left) & set(right)) - len(differ)
    print(f"{same} games identical, {len(differ)} different, {len(missing)} in one file only; "
          f"{len(states)} of the identical ones end in a different state")
    return 1 if differ or missing or states else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", help="record to this file")
    parser.add_argument("--seeds", type=int, default=35, help="games per configuration")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"))
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if not args.out:
        parser.error("give OUT.jsonl or --compare A B")
    return record(args.out, args.seeds)


if __name__ == "__main__":
    raise SystemExit(main())
