"""The game a library asks for by name: a pack folder or compiled ruleset, a player count and
a variant, loaded once per process for each version of the pack.

A pack folder is compiled (through the compile cache when it is on); a ``.json`` file is read
as the command line reads one. A pack that does not compile, a file that is not a ruleset and a
player count or variant the pack does not play are refused with :class:`PackError`, whose
message is one line (a pack's first error at its file, line and column).
"""

from __future__ import annotations

from pathlib import Path

from rulewright.compiled_format import ruleset_hash
from rulewright.compiler.loader import pack_digest
from rulewright.rulesets import RulesetRefused, read_ruleset
from rulewright.runtime.determinise import keep_round_starts
from rulewright.runtime.game import Game
from rulewright.runtime.players import player_count_problem
from rulewright.runtime.ruleset_check import RulesetError

__all__ = ["PackError", "load_ruleset", "load_rulewright_game"]

_GAMES: dict[tuple, Game] = {}
"""Games already built, by (content hash, claimed hash, players, variant): a library that loads the same game
many times (unpickling, one environment per worker) builds it once."""
_RULESETS: dict[str, dict] = {}
"""Compiled rulesets by the digest of the pack files they were compiled from."""


class PackError(ValueError):
    """A pack, ruleset, player count or variant that cannot make a game (one-line message)."""


def load_ruleset(pack: str) -> dict:
    """The compiled ruleset of ``pack``: a pack folder (compiled) or a compiled ``.json`` file
    (``rulewright/rulesets.py``); a pack folder compiled once per process and version."""
    target = Path(pack)
    digest = pack_digest(str(target)) if (target / "pack.yaml").is_file() else None
    if digest is not None and digest in _RULESETS:
        return _RULESETS[digest]
    try:
        compiled = read_ruleset(pack)
    except RulesetRefused as refused:
        raise PackError(refused.message) from None
    if digest is not None:
        _RULESETS[digest] = compiled
    return compiled


def load_rulewright_game(pack: str, players: int, variant: str | None = None) -> Game:
    """The rulewright game of ``pack`` for ``players`` in ``variant`` (None: the pack's own
    choice for that count), built once per process and ruleset."""
    compiled = load_ruleset(pack)
    if not isinstance(compiled, dict) or not isinstance(compiled.get("pack"), dict):
        raise PackError(f"{pack}: not a compiled ruleset")
    problem = player_count_problem(compiled, players, variant)
    if problem:
        raise PackError(problem)
    # the content's own hash, recomputed, and the one it claims: a file claiming the hash of
    # a ruleset already loaded gets its own check, not that ruleset's game
    key = (ruleset_hash(compiled), compiled.get("hash"), players, variant)
    game = _GAMES.get(key)
    if game is None:
        try:
            game = Game(compiled, players, variant)
        except RulesetError as err:
            raise PackError(f"{pack}: {err}") from None
        except ValueError as err:
            raise PackError(str(err)) from None
        # a seat's belief (resample_from_infostate) replays a simultaneous round from its start,
        # so no other seat's pending secret choice reaches it: the games must keep round starts
        keep_round_starts(game)
        _GAMES[key] = game
    return game
