#!/usr/bin/env python
"""What writing and compiling the rules' node code costs a process, per pack.

    python benchmarks/node_code.py [PACK ...] [--games 100] [--players 4] [--repeats 5] [--json]

rulewright writes each node's Python the first time a game reaches it and compiles it with
Python's ``compile`` (``runtime/statements/__init__.py``, ``NodeCode.generate``). Every process
that plays pays this once: the first games of a command, and each worker of ``simulate
--workers``. This plays ``--games`` random games (a ``random.Random(seed)`` picks each action,
as in ``whole_games.py``) to reach the functions a game uses, then writes every one of them
again, with the compiled-code cache emptied (the best of ``--repeats`` rounds), and compiles
their sources on their own. Reported per pack: the functions, the characters of Python, the
time to write and compile them, Python's compile alone, and the difference: the writing.

Also reported: how many of those characters would be left if each node's code were written
into one function only (``once_characters``). A node that cannot stop is written into every
function that runs it, and one that may stop into every function that embeds it
(``runtime/generate.py``); each line of the written code is the code of one node
(``NodeCode.line_nodes``), so a node's characters are divided by the number of functions
they appear in. The difference is what inlining adds to compile, in every process that
plays; a node then called instead of written in would pay a call each time it runs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(pack: str, players: int):
    """The pack's game for ``players``; raises ValueError for a player count it is not for."""
    from rulewright.compiler.pipeline import compile_pack
    from rulewright.runtime.game import Game

    compiled, _diagnostics = compile_pack(str(ROOT / "content" / pack))
    return Game(compiled, players)


def measure(pack: str, game, games: int, repeats: int) -> dict:
    from rulewright.runtime import statements

    for seed in range(1, games + 1):
        state = game.new_game(seed)
        chooser = random.Random(seed)
        while not state.is_terminal():
            state.apply(chooser.choice(state.legal_actions()))
    code = game.rules.code
    keys = sorted(code.sources)
    sources = [code.sources[key] for key in keys]
    generated = compiled_only = float("inf")
    for _ in range(repeats):
        statements._CODE_CACHE.clear()
        start = time.perf_counter()
        for kind, nid in keys:
            code.generate(kind, nid)
        generated = min(generated, time.perf_counter() - start)
        start = time.perf_counter()
        for (kind, nid), source in zip(keys, sources):
            compile(source, f"<rule node {nid} {kind}>", "exec")
        compiled_only = min(compiled_only, time.perf_counter() - start)
    return {"pack": pack, "functions": len(keys), "characters": sum(map(len, sources)),
            "once_characters": round(written_once(code, keys)),
            "generate_ms": generated * 1000, "compile_ms": compiled_only * 1000}


def written_once(code, keys: list) -> float:
    """The characters of the functions ``keys`` if each node's code appeared in one of them:
    each node's lines (by kind of function) counted once, at their mean length per function."""
    characters: dict = {}
    functions: dict = {}
    for kind, nid in keys:
        owners = code.line_nodes[f"<rule node {nid} {kind}>"]
        # line_nodes gives the header and the lines written, not the closing return
        for number, text in enumerate(code.sources[(kind, nid)].split("\n")):
            part = (owners[number] if number < len(owners) else nid, kind)
            characters[part] = characters.get(part, 0) + len(text) + 1
            functions.setdefault(part, set()).add(nid)
    return sum(count / len(functions[part]) for part, count in characters.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packs", nargs="*", default=["altera", "dice_forge"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="one JSON list of the rows")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    packs = sorted(entry.name for entry in (ROOT / "content").iterdir() if entry.is_dir())
    for pack in args.packs:
        if pack not in packs:
            parser.error(f"no pack content/{pack} (the packs: {', '.join(packs)})")
    rows = []
    for pack in args.packs:
        try:
            game = build(pack, args.players)
        except ValueError as refused:  # a player count the pack is not for
            parser.error(str(refused))
        rows.append(measure(pack, game, args.games, args.repeats))
    if args.json:
        print(json.dumps(rows))
        return 0
    for row in rows:
        print(f"{row['pack']}: {row['functions']} functions, {row['characters']:,} characters; "
              f"written and compiled in {row['generate_ms']:.0f} ms, of which Python's "
              f"compile {row['compile_ms']:.0f} ms and the writing "
              f"{row['generate_ms'] - row['compile_ms']:.0f} ms; "
              f"{row['once_characters']:,} characters if each node's code were written once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
