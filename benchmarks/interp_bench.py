"""Interpreter vs hand-written Python on the same effects and the same plain-data state.

A small pack is compiled through the real pipeline; its flow is ``setup(); repeat loops
times: { BODY }`` with no decisions, so ``game.new_game(seed)`` runs the whole loop. ``loops``
is a pack constant: the benchmark times the game with ``loops = N`` and with ``loops = 0``
(setup only) and divides the difference by N. The hand-written functions below do the same
operations on a copy of the ``loops = 0`` final state (same dict/list shapes: ``s["values"][0]``,
``s["zones"]["0:bag"]``, ``s["components"][id]["at"]``, the SplitMix64 generator of ``runtime/rng.py``), and
the benchmark checks that both end in the same values, zones and generator state.
"""

from __future__ import annotations

import copy
import time
from pathlib import Path

import yaml

from rulewright.compiled_format import ruleset_hash
from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime import rng
from rulewright.runtime.game import Game

HEADER = "# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n"

# The representative effects, each timed on its own and then all together.
EFFECTS = {
    "gain_cap": "gain 3 coin, 1 influence; pay 2 coin",
    "track": "gain 2 fame; if you.fame >= 6: reset fame",
    "foreach": "for each c in tableau where c.cost >= 2: gain 1 influence",
    "draw_refill": "draw 2 from bag to hand; draw 2 from hand to discard",
    "trigger": "gain 1 favor",
}

RULES = {
    "icons": ["coin"],
    "constants": [{"id": "loops", "source": "illustrative", "value": 1}],
    "resources": [
        {"id": "coin", "source": "illustrative", "scope": "player", "start": 0, "max": 10},
        {"id": "favor", "source": "illustrative", "scope": "player", "start": 0},
        {"id": "influence", "source": "illustrative", "scope": "player", "start": 0},
        {"id": "prestige", "source": "illustrative", "scope": "player", "start": 0},
    ],
    "tracks": [{"id": "fame", "source": "illustrative", "length": 6,
                "rewards": {"2": "gain 1 coin", "4": "gain 2 coin", "6": "gain 1 influence"}}],
    "zones": [
        {"id": "bag", "source": "illustrative", "scope": "player", "visibility": "hidden",
         "refill_from": "discard"},
        {"id": "hand", "source": "illustrative", "scope": "player", "visibility": "owner"},
        {"id": "discard", "source": "illustrative", "scope": "player"},
        {"id": "tableau", "source": "illustrative", "scope": "player", "active": True},
    ],
    "components": [{"id": "card", "source": "illustrative", "base": "card",
                    "props": {"cost": "int"}}],
    "flow": {"main": "MAIN", "score": "you.prestige + you.influence + you.coin + you.fame",
             "tiebreak": [], "evaluation": "you.prestige", "order": "you.favor"},
}

CARDS = [
    {"id": "patron", "name": "Patron", "deck": "tableau", "copies": 1, "props": {"cost": 0},
     "abilities": [{"id": "tithe", "timing": "trigger", "when": "gain favor",
                    "effect": "gain 1 prestige"}]},
    {"id": "relic_a", "name": "Relic A", "deck": "tableau", "copies": 2, "props": {"cost": 1}},
    {"id": "relic_b", "name": "Relic B", "deck": "tableau", "copies": 2, "props": {"cost": 2}},
    {"id": "relic_c", "name": "Relic C", "deck": "tableau", "copies": 2, "props": {"cost": 3}},
    {"id": "token", "name": "Token", "deck": "bag", "copies": 4, "props": {"cost": 0}},
]


def write_bench_pack(root: Path, body: str) -> Path:
    """The micro-benchmark pack whose flow repeats ``body`` ``loops`` times."""
    root.mkdir(parents=True, exist_ok=True)
    rules = dict(RULES, flow=dict(RULES["flow"], main="nothing; repeat loops times: { " + body + " }"))
    files = {
        "pack": {"id": "interp_bench", "name": "Interpreter bench", "version": "0.1.0",
                 "engine": 1, "players": {"min": 2, "max": 2},
                 "files": ["rules.yaml", "cards.yaml"]},
        "rules": {"rules": rules},
        "cards": {"cards": [dict(c, source="illustrative") for c in CARDS]},
    }
    for kind, data in files.items():
        name = "pack.yaml" if kind == "pack" else f"{kind}.yaml"
        (root / name).write_text(HEADER.format(kind=kind) + yaml.safe_dump(data, sort_keys=False))
    return root


# --------------------------------------------------------------------------- hand-written

CAPS = {"coin": 10}
FAME_LENGTH = 6
FAME_REWARDS = {2: ("coin", 1), 4: ("coin", 2), 6: ("influence", 1)}


def _gain(v: dict, name: str, n: int) -> None:
    value = v[name] + n
    cap = CAPS.get(name)
    v[name] = value if cap is None or value <= cap else cap


def _move(s: dict, comp_id: str, key: str) -> None:
    comp = s["components"][comp_id]
    s["zones"][comp["at"]].remove(comp_id)
    s["zones"][key].append(comp_id)
    comp["at"] = key


def hw_gain_cap(s: dict, cards: dict) -> None:
    v = s["values"][0]
    _gain(v, "coin", 3)
    _gain(v, "influence", 1)
    if v["coin"] < 2:
        raise ValueError("cannot pay")
    v["coin"] -= 2


def hw_track(s: dict, cards: dict) -> None:
    v = s["values"][0]
    for _ in range(2):
        position = v["fame"]
        if position >= FAME_LENGTH:
            break
        position += 1
        v["fame"] = position
        reward = FAME_REWARDS.get(position)
        if reward is not None:
            _gain(v, reward[0], reward[1])
    if v["fame"] >= 6:
        v["fame"] = 0


def hw_foreach(s: dict, cards: dict) -> None:
    v = s["values"][0]
    comps = s["components"]
    for comp_id in s["zones"]["0:tableau"]:
        if cards[comps[comp_id]["def"]]["front"]["props"]["cost"] >= 2:
            v["influence"] += 1


def hw_draw_refill(s: dict, cards: dict) -> None:
    z = s["zones"]
    bag = z["0:bag"]
    for _ in range(2):
        if not bag:
            for comp_id in list(z["0:discard"]):
                _move(s, comp_id, "0:bag")
            s["rng"] = rng.shuffle(s["rng"], bag)
            if not bag:
                break
        _move(s, bag[-1], "0:hand")
    hand = z["0:hand"]
    for _ in range(2):
        if not hand:
            break
        _move(s, hand[-1], "0:discard")


def hw_trigger(s: dict, cards: dict) -> None:
    v = s["values"][0]
    v["favor"] += 1
    comps = s["components"]
    for comp_id in s["zones"]["0:tableau"]:
        comp = comps[comp_id]
        if comp["def"] == "patron" and not comp["trashed"]:
            v["prestige"] += 1


HAND_WRITTEN = {"gain_cap": [hw_gain_cap], "track": [hw_track], "foreach": [hw_foreach],
                "draw_refill": [hw_draw_refill], "trigger": [hw_trigger]}
HAND_WRITTEN["all"] = [f for name in EFFECTS for f in HAND_WRITTEN[name]]


def _with_loops(compiled: dict, loops: int) -> dict:
    """The ruleset with constant ``loops`` changed: another ruleset, so it gets its own hash."""
    out = dict(compiled)
    out["constants"] = dict(compiled["constants"], loops=loops)
    out["hash"] = ruleset_hash(out)
    return out


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def bench_effect(workdir: Path, name: str, body: str, loops: int, repeat: int) -> dict:
    """Time one effect body through the interpreter and by hand; ``loops`` iterations."""
    root = write_bench_pack(workdir / f"interp_{name}", body)
    compiled, diagnostics = compile_pack(str(root), use_cache=False)
    if compiled is None:
        raise RuntimeError(f"interpreter bench pack '{name}' does not compile: "
                           + "; ".join(d.message for d in diagnostics if d.severity == "error"))
    full = Game.from_compiled(_with_loops(compiled, loops), 2)
    empty = Game.from_compiled(_with_loops(compiled, 0), 2)
    t_full = _best(lambda: full.new_game(1), repeat)
    t_empty = _best(lambda: empty.new_game(1), repeat)
    interp = max(t_full - t_empty, 1e-9)

    base = empty.new_game(1).data
    cards = compiled["cards"]
    funcs = HAND_WRITTEN[name]

    def hand():
        s = copy.deepcopy(base)
        t0 = time.perf_counter()
        for _ in range(loops):
            for f in funcs:
                f(s, cards)
        return time.perf_counter() - t0, s

    hand_times = []
    result = None
    for _ in range(repeat):
        elapsed, result = hand()
        hand_times.append(elapsed)
    t_hand = max(min(hand_times), 1e-9)
    done = full.new_game(1).data
    same = (done["values"] == result["values"] and done["zones"] == result["zones"]
            and done["rng"] == result["rng"])
    return {"effect": name, "body": body, "loops": loops,
            "interpreter_s": interp, "hand_written_s": t_hand,
            "interpreter_us_per_loop": interp / loops * 1e6,
            "hand_written_us_per_loop": t_hand / loops * 1e6,
            "ratio": interp / t_hand,
            "same_result": same}


def run_interpreter_bench(workdir: Path, loops: int, repeat: int) -> dict:
    rows = [bench_effect(workdir, name, body, loops, repeat) for name, body in EFFECTS.items()]
    rows.append(bench_effect(workdir, "all", "; ".join(EFFECTS.values()), loops, repeat))
    overall = rows[-1]
    return {"loops": loops, "repeat": repeat, "rows": rows, "ratio": overall["ratio"],
            "target_ratio": 2.0}
