"""Golden playthroughs: a seeded game's actions, their labels and the state digests, diffed.

Any change to a pack or to the engine that changes how a game unfolds shows up here as a
readable diff (which decision, which label). When the change is intended, regenerate with
``RULEWRIGHT_UPDATE_GOLDEN=1 python -m pytest tests/test_playthroughs.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.game import Game

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden"
CASES = [("altera", ROOT / "content" / "altera", 3, 7),
         ("reference", ROOT / "tests" / "fixtures" / "reference_pack", 2, 5)]


def playthrough(pack: Path, players: int, seed: int) -> dict:
    """A random-agent game (agent seeded like the game) recorded decision by decision."""
    compiled, diagnostics = compile_pack(str(pack), use_cache=False)
    assert compiled is not None, [d.message for d in diagnostics]
    state = Game.from_compiled(compiled, players).new_game(seed)
    chooser = random.Random(seed)
    steps = []
    while not state.is_terminal():
        action = chooser.choice(state.legal_actions())
        steps.append({"player": state.current_player(), "action": action,
                      "label": state.action_label(action)})
        state.apply(action)
        steps[-1]["digest"] = state.digest()[:16]
    return {"pack": compiled["pack"]["id"], "players": players, "seed": seed,
            "steps": steps, "scores": state.scores(), "winners": state.winners(),
            "final_digest": state.digest()}


@pytest.mark.parametrize("name,pack,players,seed", CASES, ids=[c[0] for c in CASES])
def test_playthrough_matches_golden_file(name, pack, players, seed):
    path = GOLDEN / f"{name}-{players}p-seed{seed}.json"
    actual = playthrough(pack, players, seed)
    if os.environ.get("RULEWRIGHT_UPDATE_GOLDEN") == "1" or not path.exists():
        path.write_text(json.dumps(actual, indent=1) + "\n")
    expected = json.loads(path.read_text())
    for index, (want, got) in enumerate(zip(expected["steps"], actual["steps"])):
        assert got == want, f"decision {index} differs from {path.name}"
    assert len(actual["steps"]) == len(expected["steps"])
    assert actual["scores"] == expected["scores"]
    assert actual["final_digest"] == expected["final_digest"]
