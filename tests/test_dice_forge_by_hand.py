"""The hand-written Dice Forge (benchmarks/dice_forge_by_hand.py) plays exactly content/dice_forge.

Both games are played at once with the same seed and the same random choices. At every
decision they must agree on who decides, how many options there are, what each option means
(the engine's labels, normalised to the hand-written game's words) and everything on the
table as the engine's public view shows it: reserves, Hammer tracks, pawns, every face of
every die and the faces showing, the faces offered and forged, each pile of Heroic Feats, the
Sanctuary, the Islands and the relics. At the end: the same scores, winners and final table. This is what makes the
hand-written game a fair yardstick for the whole-game benchmark (benchmarks/whole_games.py).

The default run plays 20 seeds per player count; ``pytest -m slow`` plays 100.
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from rulewright.compiler.pipeline import compile_pack
from rulewright.runtime.game import Game

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))  # the benchmarks are scripts, not a package

import dice_forge_by_hand as by_hand  # noqa: E402

LABEL_WORDS = {
    "next: apply_light_die()": "light_die first",
    "next: apply_dark_die()": "dark_die first",
    "next: lose_light_die()": "light_die lost first",
    "next: lose_dark_die()": "dark_die lost first",
    "make_an_offering()": "make an offering",
    "perform_a_heroic_feat()": "perform a heroic feat",
    "pass_the_action()": "pass",
    "take_a_face()": "take another face",
    "stop_taking_faces()": "stop taking faces",
    "pay 2 sun -> perform_an_extra_action()": "pay 2 sun for an extra action",
}
"""The pack's procedure calls as the hand-written game words them."""
HAMMER = re.compile(r"pay (\d+) gold -> gain \1 hammer")
ITEM = re.compile(r"[a-z]: (?P<what>[^#\[]+?)(?:#\S+)?(?P<icons> \[.*\])?")
ABILITY = re.compile(r"(use [^:]+): .*")


def normalise_label(label: str) -> str:
    """An engine action label in the hand-written game's words: procedure calls as phrases,
    items without their copy number (``f: face_gold3#2 [gold, gold, gold]`` is
    ``face_gold3 [gold, gold, gold]``), abilities without their rules text."""
    if label in LABEL_WORDS:
        return LABEL_WORDS[label]
    if match := HAMMER.fullmatch(label):
        return f"put {match.group(1)} gold on the Hammer"
    if match := ITEM.fullmatch(label):
        return match.group("what") + (match.group("icons") or "")
    if match := ABILITY.fullmatch(label):
        return match.group(1)
    return label


@pytest.fixture(scope="module")
def compiled():
    ruleset, diagnostics = compile_pack(str(ROOT / "content" / "dice_forge"), use_cache=False)
    assert ruleset is not None, [d.message for d in diagnostics]
    return ruleset


def _component(shown: str) -> tuple[str, list[str]]:
    """``face_gold3 [gold, gold, gold]`` (as ``view`` shows a die or face) -> name and icons."""
    name, _, icons = shown.partition(" [")
    return name, icons.rstrip("]").split(", ")


def engine_table(state, card_ids: dict[str, str]) -> dict:
    """What the engine's public view shows, in the shape of ``DiceForge.observation()``: every
    face of each die (``die_faces``) and the faces up."""
    view = state.view(0)
    heroes = []
    for player in view["players"]:
        values, zones = player["values"], player["zones"]
        heroes.append({
            **{name: values[name] for name in ("gold", "sun", "moon", "glory", "hammer", "portal")},
            "dice": {die["die"]: die["faces"] for die in player["die_faces"]["dice"]},
            "up": dict(_component(die) for die in zones["dice"]),
            "offering": [_component(face)[0] for face in zones["offering"]],
            "forged": [_component(face)[0] for face in zones["forged"]],
            **{pile: [card_ids[name] for name in zones[pile]]
               for pile in ("pile_instant", "pile_permanent", "pile_reinforcement")},
        })
    return {
        "round": view["shared"]["round_no"],
        "active": view["shared"]["active"],
        "heroes": heroes,
        "sanctuary": dict(Counter(_component(face)[0] for face in view["zones"]["sanctuary"])),
        "islands": dict(Counter(card_ids[name] for name in view["zones"]["islands"])),
        "relics": len(view["zones"]["relics"]),
        "occupants": {portal: seats[0] for portal, seats in view["occupancy"].items() if seats},
    }


def random_choice(descriptions: list[str], chooser: random.Random) -> int:
    """Any option, uniformly."""
    return chooser.randrange(len(descriptions))


SMITH_FIRST = ("The Blacksmith's Hammer", "perform a heroic feat", "pay 2 sun for an extra action")


def smith_choice(descriptions: list[str], chooser: random.Random) -> int:
    """Performs the Blacksmith's Hammer whenever it may and puts every Gold on a Hammer: the
    Hammers' laps run out, which random play seldom reaches."""
    for wanted in SMITH_FIRST:
        if wanted in descriptions:
            return descriptions.index(wanted)
    for option in descriptions:
        if option.startswith("put ") and option.endswith("Gold on the Hammer"):
            return descriptions.index(option)
    return chooser.randrange(len(descriptions))


def play_in_lockstep(compiled: dict, players: int, seed: int, choose=random_choice) -> Counter:
    """Play one game in both implementations, ``choose`` picking each action from the
    options' descriptions; returns how often a few rare situations came up."""
    card_ids = {card.get("name") or cid: cid for cid, card in compiled["cards"].items()}
    engine = Game(compiled, players).new_game(seed)
    hand = by_hand.new_game(players, seed)
    chooser = random.Random(seed)
    seen = Counter()
    while not engine.is_terminal():
        where = f"{players} players, seed {seed}, decision {seen['decisions']}"
        assert not hand.is_terminal(), where
        assert hand.current_player() == engine.current_player(), where
        actions = engine.legal_actions()
        assert hand.legal_actions() == actions, where
        descriptions = hand.option_descriptions()
        assert descriptions == [normalise_label(engine.action_label(a)) for a in actions], where
        assert hand.observation() == engine_table(engine, card_ids), where
        hero = hand.heroes[hand.current_player()]
        if hero.owns("blacksmiths_hammer") and not hero.hammer_room():
            seen["every Hammer ridden to its end"] += 1
        action = choose(descriptions, chooser)
        engine.apply(action)
        hand.apply(action)
        seen["decisions"] += 1
    where = f"{players} players, seed {seed}, the end"
    assert hand.is_terminal(), where
    assert hand.current_player() == engine.current_player(), where
    assert hand.scores() == engine.scores(), where
    assert hand.winners() == engine.winners(), where
    assert hand.observation() == engine_table(engine, card_ids), where
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_decision_by_decision(compiled, players):
    for seed in range(20):
        assert play_in_lockstep(compiled, players, seed)["decisions"] > 50


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_agree_decision_by_decision_on_100_seeds(compiled, players):
    for seed in range(20, 120):
        play_in_lockstep(compiled, players, seed)


def test_gold_goes_to_the_reserve_once_every_hammer_is_done(compiled):
    """A Hero whose Hammers have ridden both laps is asked nothing about Gold any more; both
    games agree through the laps' Glory. Two-player games where the Hammer is performed
    whenever possible and every Gold is put on it get there."""
    seen = Counter()
    for seed in range(10):
        seen += play_in_lockstep(compiled, 2, seed, choose=smith_choice)
    assert seen["every Hammer ridden to its end"] > 0
