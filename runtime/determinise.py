"""Determinisation: a copy of a game as one seat might believe it to be, made from that seat's
information only.

What a seat sees is what :func:`runtime.views.view` shows it: public zones (which components,
in which order, which face up), its own owner-only zones, the contents (not the order) of its
own hidden zones, public values and its own values. Everything else is drawn again:

1. **Components it cannot see** are pooled by where they started the game (one deck of cards,
   another deck, the dice supply: an unseen card is never dealt into a place only another
      kind can be) and by what their backs show (``back:``), and dealt again, at random, into
   the places it cannot see, keeping how many each place holds. The pool is put in
   a canonical order (by component id) before it is shuffled, so the sample does not depend on
   how the unseen components happen to lie in the true state. Its own hidden zones keep their
   contents in a new random order; every die whose face it cannot see is rolled again.
2. **A simultaneous round being collected** (``simultaneously for each``) is played again from
   the state of its first choice (drawn again as above) up to where it is now: the seat's own
   choices as it made them; another seat's choices as made only as far as their effect showed
   to the seat (a public resource spent); every other choice at random. Of up to
   :data:`MAX_REPLAYS` replays, the first that looks to the seat as the true state does is
   used (else the last that reached the same point). So no other seat's secret choice reaches
   the copy, and it does not matter whether the seat chooses first or last. This needs the
   round's first state and who saw each choice, which the games of a :class:`Game` keep once
   :func:`keep_round_starts` has been called on it (``agents.prepare_game`` does, for agents
   that imagine; keeping costs a copy of the state per round and a view per seat per choice
   in it, so games played by random agents do not).
   What the rules in progress hold by component id (the pending options, bindings) follows
   the place: after a redeal it names the component now in that place.
3. **The pack's facts**: a pack may declare ``flow.consistent``, a condition (with the seat as
   ``you``) that every imagined state must satisfy — e.g. a failed accusation rules out that
   the accused seat holds the role. Samples that break it are drawn again, up to
   :data:`MAX_SAMPLES` times; if none satisfies it, the last sample is used.
4. **Chance to come** is drawn from a fresh generator seeded by the caller.

The result is a function of the seat's view, the seed and (inside a simultaneous round) the
seat's own choices: two states that look the same to the seat give the same copy
(``tests/test_conformance.py`` checks this on every pack). What a bot does *not* know:
where a card it once saw went after it left its sight (it is dealt again with the rest). What
it does know that it might not: a value another seat holds secretly (``visibility: owner``)
that outlives the simultaneous round it was chosen in — the rules the round ran cannot say what
else it could be. Keep a secret that lasts as a component in a hidden place (a card face down),
which bots do deal again, or reveal it by the end of its round.
"""

from __future__ import annotations

import json
import marshal

from . import rng
from .views import view

__all__ = ["determinise", "keep_round_starts", "actions_by_key", "MAX_SAMPLES", "MAX_REPLAYS",
           "MAX_REPLAY"]

MAX_SAMPLES = 50
"""Samples drawn at most to satisfy the pack's ``flow.consistent``."""

MAX_REPLAYS = 20
"""Times at most a simultaneous round is played again to find a sample that looks to the seat
exactly as the true state does."""

MAX_REPLAY = 10_000
"""Decisions a simultaneous round may take when it is played again (a bound, never reached by
a round that ends)."""


def keep_round_starts(game) -> None:
    """From now on, every simultaneous round of ``game`` keeps a copy of the state it started
    in, so that :func:`determinise` can play it again without the others' pending choices."""
    game.keep_round_starts = True


def actions_by_key(state) -> dict:
    """Legal actions by their stable option key: the same option in an imagined copy has the
    same key, wherever it is listed (how a bot maps its choice between the true state and the
    copies it searches); two options with one key are told apart by their order."""
    by_key: dict = {}
    for action in state.legal_actions():
        key, n = state.option_key(action), 1
        while key in by_key:
            n += 1
            key = (key, n)
        by_key[key] = action
    return by_key


def determinise(state, player: int, seed: int, seen: dict | None = None) -> tuple:
    """A copy of ``state`` as ``player`` might believe it to be (see the module doc), and
    ``player``'s view of ``state`` if it was needed (``seen``: that view, if the caller knows
    it already; else None)."""
    generator = rng.seed_state(seed)
    rules = state.game.rules
    twin = None
    for _ in range(MAX_SAMPLES):
        generator, twin, seen = _sample(state, player, generator, seen)
        if rules.consistent is None or rules.consistent(twin.machine, {"you": player}):
            break
    twin.data["rng"] = rng.next64(generator)[1]
    return twin, seen


def _sample(state, player: int, generator: int, seen):
    """One imagined state, the generator after drawing it, and ``player``'s true view (worked
    out once, when a replayed round needs checking against it)."""
    secret = state._data["secret"]
    start = secret["start"] if secret is not None else None
    if start is None:
        twin = state.clone()
        return _redraw(twin, player, generator, own=True), twin, seen
    if seen is None:
        seen = view(state, player, compared=True)
    reached = None  # the last sample that came back to where the round is
    first = marshal.dumps(start)  # each replay starts from its own copy of the round's start
    for _ in range(MAX_REPLAYS):
        twin = state.__class__(state.game, marshal.loads(first))
        generator = _redraw(twin, player, generator, own=False)
        generator, replayed = _replay(twin, player, secret["actions"], generator,
                                      state.current_player())
        if replayed:
            generator = _redraw(twin, player, generator, own=True)
            reached = twin
            if view(twin, player, compared=True) == seen:
                break
    if reached is None:  # no replay came back to where the round is: imagine from the state as is
        reached = state.clone()
        generator = _redraw(reached, player, generator, own=True)
    return generator, reached, seen


def _replay(twin, player: int, actions: list, generator: int, target: int) -> tuple[int, bool]:
    """Play a simultaneous round again from its first choice, up to where it is now (seat
    ``target`` to choose, after every seat that chose before it):
    ``player``'s own choices as made, each meeting the chance it met; another seat's choices
    up to the last one whose effect ``player`` saw (it spent a public resource, say) as made,
    since ``player`` saw where they led; every other choice of the others at random, meeting
    fresh chance. False if the round went otherwise than it did for ``player``."""
    queues: dict = {}
    for action in actions:
        queues.setdefault(action[0], []).append(action)
    known = {seat: len(queue) if seat == player else
             max((n + 1 for n, action in enumerate(queue) if player in action[4]), default=0)
             for seat, queue in queues.items()}
    earlier = set()  # the seats that chose before ``target`` first did
    for action in actions:
        if action[0] == target:
            break
        earlier.add(action[0])
    acted = set()
    generator, twin.data["rng"] = rng.next64(generator)
    for _ in range(MAX_REPLAY):
        if twin.is_terminal() or not twin.in_simultaneous_round():
            return generator, False
        seat = twin.current_player()
        if seat == target and not known.get(seat) and earlier <= acted:
            return generator, True
        acted.add(seat)
        if known.get(seat):
            recorded = queues[seat].pop(0)
            known[seat] -= 1
            index = _option_index(twin, recorded[3])
            if index is not None:
                twin.data["rng"] = recorded[2]
                twin.apply(index)
                generator, twin.data["rng"] = rng.next64(generator)
                continue
            # not offered here: the option named what this sample drew otherwise (a die's
            # face it cannot see, say); choose at random and let the view decide
        legal = twin.legal_actions()
        generator, index = rng.below(generator, len(legal))
        twin.apply(legal[index])
    return generator, False


def _option_index(twin, key: str):
    """The index of the legal option of ``twin`` whose key (JSON) is ``key``, or None."""
    for index in range(len(twin.legal_actions())):
        if json.dumps(twin.option_key(index)) == key:
            return index
    return None


def _renamed(value, renamed: dict):
    """``value`` with every component id in ``renamed`` replaced by its new one."""
    cls = value.__class__
    if cls is str:
        return renamed.get(value, value)
    if cls is list:
        return [_renamed(item, renamed) for item in value]
    if cls is dict:
        return {key: _renamed(item, renamed) for key, item in value.items()}
    return value


def _redraw(twin, player: int, generator: int, own: bool) -> int:
    """Deal again what ``player`` cannot see in ``twin`` (in place); with ``own``, put its own
    hidden zones in a new order too. Returns the generator."""
    d = twin.data
    rules = twin.game.rules
    machine = twin.machine
    comps = d["components"]
    start_place = rules.start_place
    backs = rules.back_props  # a card's back is seen: it is only dealt where that back lies
    me = str(player)
    places: dict = {}   # starting place -> [(zone key, position)] it cannot see
    pooled: dict = {}   # starting place -> [component id]
    reroll = []
    for key, owner, visibility in rules.zones_by_key:
        if visibility == "public" or (visibility == "owner" and owner == me):
            continue
        held = d["zones"][key]
        if visibility == "hidden" and owner == me:  # its contents are known, not their order
            if not own:
                continue
            held.sort()
            generator = rng.shuffle(generator, held)
            reroll.extend(held)
            continue
        for position, comp_id in enumerate(held):
            kind = start_place.get(comp_id)
            if backs:
                kind = (kind, json.dumps(machine.back_of(comp_id), sort_keys=True))
            places.setdefault(kind, []).append((key, position))
            pooled.setdefault(kind, []).append(comp_id)
    renamed = {}
    for kind in sorted(pooled, key=str):
        pool = sorted(pooled[kind])
        generator = rng.shuffle(generator, pool)
        for (key, position), comp_id in zip(places[kind], pool):
            was = d["zones"][key][position]
            if was != comp_id:
                renamed[was] = comp_id
            d["zones"][key][position] = comp_id
            comps[comp_id]["at"] = key
        reroll.extend(pool)
    if renamed:  # what the rules in progress hold by id means the component in that place now
        d["pending"] = _renamed(d["pending"], renamed)
        d["agenda"][:] = _renamed(d["agenda"], renamed)
    for comp_id in reroll:
        comp = comps[comp_id]
        if comp["kind"] == "die":
            faces = machine.faces(comp_id)
            if faces:
                generator, comp["face"] = rng.below(generator, len(faces))
    return generator
