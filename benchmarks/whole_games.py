#!/usr/bin/env python
"""Whole games: rulewright's random-playout speed as a fraction of a hand-written game's.

    python benchmarks/whole_games.py [--json] [--quick] [--players 2,3,4] [--repeats N]
                                     [--seconds S] [--against-python PY --against-root DIR]

Dice Forge is played by rulewright (``content/dice_forge``, compiled once, one
``Game(compiled, players)`` per player count, ``new_game(seed)`` per game) and by
``benchmarks/dice_forge_by_hand.py``, which plays exactly the same decisions (checked by
``tests/test_dice_forge_by_hand.py``). Every game is a random playout: a ``random.Random(seed)``
picks each action among the legal ones, so with the same seed both play the same game. The
two take turns in batches of at least ``--seconds`` of CPU time each (``time.process_time``),
``--repeats`` times, the first to play alternating; each side's games/s is the median over its
batches and the ratio is rulewright's median over the hand-written game's. Altera 4-player
random games are timed the same way, for rulewright alone (there is no hand-written Altera).
Because the batches are interleaved in one process, the machine's speed and load cancel out
of the ratio; the games/s themselves depend on the machine.

With ``--against-python`` and ``--against-root`` (another checkout and its virtual
environment's Python, for instance the commit before a change), Altera is also timed in both
checkouts by the clock: each runs in a process of its own (``playouts.py``) that plays a batch
when asked, the two in turns as above, after one untimed batch each (node code is written on
first use), and the ratio of their median games/s is reported.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import dice_forge_by_hand  # noqa: E402
from playouts import timed_batch  # noqa: E402
from run import machine  # noqa: E402
from rulewright.compiler.pipeline import compile_pack  # noqa: E402
from rulewright.runtime.game import Game  # noqa: E402

FULL = {"repeats": 5, "seconds": 1.0}
QUICK = {"repeats": 2, "seconds": 0.05}
ALTERA_PLAYERS = 4


def summary(batches: list[dict]) -> dict:
    """Medians over batches, with the batches themselves (without their game lengths)."""
    return {"games_per_s": statistics.median(b["games_per_s"] for b in batches),
            "decisions_per_s": statistics.median(b["decisions_per_s"] for b in batches),
            "decisions_per_game": sum(b["decisions"] for b in batches)
            / sum(b["games"] for b in batches),
            "batches": [{k: v for k, v in b.items() if k != "lengths"} for b in batches]}


def same_game_lengths(first: list[dict], second: list[dict]) -> bool:
    """Whether the games both sides played with the same seed took as many decisions (every
    batch starts at the same seed): a cheap check that they played the same games."""
    longest = {}
    for batch in first + second:
        if len(batch["lengths"]) > len(longest.get("lengths", ())):
            longest = batch
    return all(batch["lengths"] == longest["lengths"][:len(batch["lengths"])]
               for batch in first + second)


def interleaved(contenders: dict[str, Callable[[int], object]], repeats: int,
                seconds: float, log) -> dict[str, list[dict]]:
    """Time each contender in ``repeats`` rounds of one batch each, rotating who goes first;
    the batches per contender."""
    names = list(contenders)
    batches: dict[str, list[dict]] = {name: [] for name in names}
    for repeat in range(repeats):
        shift = repeat % len(names)
        for name in names[shift:] + names[:shift]:
            batch = timed_batch(contenders[name], 1, seconds)
            log(f"  {name}: {batch['games']} games, {batch['games_per_s']:.1f} games/s")
            batches[name].append(batch)
    return batches


def compiled_pack(name: str) -> dict:
    compiled, diagnostics = compile_pack(str(ROOT / "content" / name))
    if compiled is None:
        errors = "; ".join(d.message for d in diagnostics if d.severity == "error")
        raise SystemExit(f"content/{name} does not compile: {errors}")
    return compiled


def run(players_list: list[int], repeats: int, seconds: float, log) -> dict:
    dice_forge = compiled_pack("dice_forge")
    rows = []
    for players in players_list:
        log(f"Dice Forge, {players} players")
        game = Game(dice_forge, players)
        batches = interleaved({
            "hand_written": lambda seed, n=players: dice_forge_by_hand.new_game(n, seed),
            "rulewright": game.new_game,
        }, repeats, seconds, log)
        hand, engine = summary(batches["hand_written"]), summary(batches["rulewright"])
        rows.append({"players": players, "hand_written": hand, "rulewright": engine,
                     "ratio": engine["games_per_s"] / hand["games_per_s"],
                     "same_game_lengths": same_game_lengths(*batches.values())})
    log(f"Altera, {ALTERA_PLAYERS} players")
    altera = Game(compiled_pack("altera"), ALTERA_PLAYERS)
    altera_batches = interleaved({"rulewright": altera.new_game}, repeats, seconds, log)
    return {"dice_forge": rows,
            "altera": {"players": ALTERA_PLAYERS,
                       "rulewright": summary(altera_batches["rulewright"])}}


def asked(server: subprocess.Popen, seconds: float, side: tuple[str, str]) -> dict:
    """One batch of ``seconds`` played by a ``playouts.py`` process."""
    server.stdin.write(f"{seconds}\n")
    server.stdin.flush()
    line = server.stdout.readline()
    if not line:
        raise SystemExit(f"the playouts of {' '.join(side)} stopped")
    return json.loads(line)


def against(other_python: str, other_root: str, repeats: int, seconds: float, log) -> dict:
    """Altera's 4-player random games/s in this checkout and in ``other_root``, each played by
    its own Python in a ``playouts.py`` process, batch for batch in turns."""
    script = str(HERE / "playouts.py")
    sides = {"this": (sys.executable, str(ROOT)), "other": (other_python, other_root)}
    servers = {}
    try:
        for name, (python, root) in sides.items():
            try:
                servers[name] = subprocess.Popen([python, script, root, "altera",
                                                  str(ALTERA_PLAYERS)], stdin=subprocess.PIPE,
                                                 stdout=subprocess.PIPE, text=True)
            except OSError as error:
                raise SystemExit(f"cannot run {python}: {error.strerror}") from None
        for name, server in servers.items():
            if not server.stdout.readline():
                raise SystemExit(f"the playouts of {' '.join(sides[name])} did not start")
            asked(server, seconds, sides[name])  # untimed: first games write their nodes' code
        batches: dict[str, list[dict]] = {name: [] for name in servers}
        names = list(servers)
        for repeat in range(repeats):
            for name in names[repeat % 2:] + names[:repeat % 2]:
                done = asked(servers[name], seconds, sides[name])
                log(f"  Altera, {name} checkout: {done['games']} games, "
                    f"{done['games_per_s']:.1f} games/s")
                batches[name].append(done)
    finally:
        for server in servers.values():
            server.kill()  # idle between batches: nothing of it is lost
            server.wait(timeout=60)
            server.stdin.close()
            server.stdout.close()
    this, other = summary(batches["this"]), summary(batches["other"])
    return {"players": ALTERA_PLAYERS, "other_root": other_root, "this": this, "other": other,
            "ratio": this["games_per_s"] / other["games_per_s"],
            "same_game_lengths": same_game_lengths(batches["this"], batches["other"])}


def print_table(command: str, settings: dict, result: dict) -> None:
    print(command)
    print(f"random playouts, CPU time (time.process_time), median of {settings['repeats']} "
          f"interleaved batches of at least {settings['seconds']} s each")
    print()
    print("Dice Forge   hand-written             rulewright               rulewright /   same")
    print("players      games/s  decisions/s     games/s  decisions/s     hand-written   games")
    for row in result["dice_forge"]:
        hand, engine = row["hand_written"], row["rulewright"]
        print(f"{row['players']:>7}  {hand['games_per_s']:>11.1f}  {hand['decisions_per_s']:>11.0f}"
              f"  {engine['games_per_s']:>10.1f}  {engine['decisions_per_s']:>11.0f}"
              f"  {row['ratio']:>15.3f}   {'yes' if row['same_game_lengths'] else 'NO'}")
    altera = result["altera"]["rulewright"]
    print()
    print(f"Altera, {result['altera']['players']} players, rulewright: "
          f"{altera['games_per_s']:.1f} games/s, {altera['decisions_per_s']:.0f} decisions/s")
    if "altera_against" in result:
        pair = result["altera_against"]
        print(f"Altera, {pair['players']} players, each checkout in a process of its own: "
              f"this one {pair['this']['games_per_s']:.1f} games/s, {pair['other_root']} "
              f"{pair['other']['games_per_s']:.1f} games/s; this / that = {pair['ratio']:.2f}")
        if not pair["same_game_lengths"]:
            print(f"  (the two deal different games from the same seeds: "
                  f"{pair['this']['decisions_per_game']:.0f} and "
                  f"{pair['other']['decisions_per_game']:.0f} decisions per game)")


def player_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected player counts like 2,3,4, got {text!r}") from None
    if not counts or any(n not in (2, 3, 4) for n in counts):
        raise argparse.ArgumentTypeError(f"Dice Forge is for 2 to 4 players, got {text!r}")
    return counts


def positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if value <= 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
        return value
    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quick", action="store_true",
                        help="tiny batches, for a smoke test (numbers not meant to be quoted)")
    parser.add_argument("--players", type=player_counts, default=[2, 3, 4],
                        help="Dice Forge player counts, comma-separated (default 2,3,4)")
    parser.add_argument("--repeats", type=positive(int), help="batches per contender")
    parser.add_argument("--seconds", type=positive(float),
                        help="CPU seconds per batch, at least")
    parser.add_argument("--against-python", help="the Python of another checkout")
    parser.add_argument("--against-root", help="that checkout's folder")
    args = parser.parse_args(argv)
    if (args.against_python is None) != (args.against_root is None):
        parser.error("give both --against-python and --against-root, or neither")
    if args.against_root and not (Path(args.against_root) / "content" / "altera").is_dir():
        parser.error(f"{args.against_root} has no content/altera")
    settings = dict(QUICK if args.quick else FULL)
    if args.repeats:
        settings["repeats"] = args.repeats
    if args.seconds:
        settings["seconds"] = args.seconds
    given = sys.argv[1:] if argv is None else argv
    command = " ".join(["python benchmarks/whole_games.py", *given])

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    result = run(args.players, settings["repeats"], settings["seconds"], log)
    if args.against_python:
        result["altera_against"] = against(args.against_python, args.against_root,
                                           settings["repeats"], settings["seconds"], log)
    if args.json:
        print(json.dumps({"command": command, "machine": machine(), "settings": settings,
                          **result}, indent=2))
    else:
        print_table(command, settings, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
