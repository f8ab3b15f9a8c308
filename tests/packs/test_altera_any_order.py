"""Altera's rewards "in any order": the order a multi-part reward is written in reaches every
outcome that any other order reaches, so no order question is needed.

Action Spaces: "When you activate an action space, gain all listed resources and actions in any
order." FAQ: "Can I gain rewards in any order I want? Yes. Any time you gain multiple rewards
simultaneously—whether from activating an action space, moving up a Reputation track, or any
other source—you may gain them in whatever order you prefer."

The pack writes each multi-part Guild space and Clash Reward in one order (gains before what
they could pay for) and asks the order only where no order reaches everything (`in any order`).
This checks the claim: a second copy of the pack is compiled with the parts of every such reward
in the reverse order, and on tables where the player is short of Coins, Shards, Favors and
Influence and one step below a Reputation reward, every outcome the reversed order reaches (all
decisions explored) must be one the pack's order reaches.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from rulewright.runtime.machine import Machine

from altera_kit import PACK, show, table
from packkit import compile_ok, move, player_values, zone

PROFILES = (0, 1, 2)
"""Coins, Shards, Favors and Influence the player holds before the reward."""


def parts(effect: str) -> list[str]:
    """The top-level statements of an effect (``a; b; in any order { c | d }``)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(effect):
        depth += ch == "{"
        depth -= ch == "}"
        if ch == ";" and depth == 0:
            out.append(effect[start:i].strip())
            start = i + 1
    out.append(effect[start:].strip())
    return [p for p in out if p]


def written_in_one_order(cards: list[dict]) -> dict[str, tuple[str, str]]:
    """Every Guild space and Clash Reward of several parts: id -> (card id, effect)."""
    found = {}
    for card in cards:
        if len(parts(card["effects"]["clash"])) > 1:
            found[f"{card['id']} clash"] = (card["id"], card["effects"]["clash"])
        for space in card["spaces"]:
            if len(parts(space["effect"])) > 1:
                found[space["id"]] = (card["id"], space["effect"])
    return found


@pytest.fixture(scope="module")
def rulesets(tmp_path_factory):
    """The pack as shipped, the pack with every multi-part reward reversed, and those rewards."""
    cards = yaml.safe_load((PACK / "guild_cards.yaml").read_text())["cards"]
    rewards = written_in_one_order(cards)
    text = (PACK / "guild_cards.yaml").read_text()
    for effect in sorted({effect for _card, effect in rewards.values()}):
        reversed_effect = "; ".join(reversed(parts(effect)))
        text, count = re.subn(f'"{re.escape(effect)}"', f'"{reversed_effect}"', text)
        assert count >= 1, effect
    root = tmp_path_factory.mktemp("reversed") / "altera"
    shutil.copytree(PACK, root)
    (root / "guild_cards.yaml").write_text(text)
    return compile_ok(PACK), compile_ok(root), rewards


_TABLES: dict = {}


def guild_of(card_id: str) -> str:
    """A Guild card's Guild: its id starts with it (artisan_forge_hall)."""
    return card_id.split("_", 1)[0]


def a_table(compiled, card_id: str, profile: int):
    """Seat 0 at the first Deployment, the card face up, `profile` of each currency, every
    Guild track one step below its Craft Artifact reward and the High Council one below its
    Coin and Shard, two cheap Artifacts on display and an Arc Golem to upgrade."""
    key = id(compiled)
    if key not in _TABLES:
        _TABLES[key] = table(compiled, 3, seed=3)
    state = _TABLES[key].clone()
    show(state, card_id, f"{guild_of(card_id)}_card")
    for comp in list(zone(state, "artifact_display")):
        move(state, comp, "box")
    defs = {c: d["def"] for c, d in state.data["components"].items()}
    for wanted, where in (("shard_well", "artifact_display"), ("arc_golem", "artifact_display"),
                          ("arc_golem", "tableau")):
        comp = next(c for c, d in defs.items() if d == wanted
                    and state.data["components"][c]["at"] not in ("g:artifact_display", "0:tableau"))
        move(state, comp, where, 0 if where == "tableau" else None)
    player_values(state, 0).update(coin=profile, shard=profile, favor=profile, influence=profile,
                                   artisan_rep=3, merchant_rep=3, alchemist_rep=3, council_rep=5)
    return state


def outcomes(state, node: int, env: dict) -> set[str]:
    """Every end of running ``node`` for seat 0, over all the decisions it asks."""
    data = state.data
    data["pending"], data["over"], data["result"] = None, False, None
    data["agenda"] = [[node, env, None]]
    state._run()
    ends, todo = set(), [state]
    while todo:
        current = todo.pop()
        if current.data["pending"] is None:
            d = current.data
            ends.add(json.dumps([d["values"], d["shared"], d["zones"], d["components"],
                                 d["occupants"]], sort_keys=True))
            continue
        for action in current.legal_actions():
            child = current.clone()
            child.apply(action)
            todo.append(child)
    return ends


def run_reward(compiled, reward: str, card_id: str, profile: int) -> set[str]:
    state = a_table(compiled, card_id, profile)
    rt = Machine(state.game.rules, state.data)
    card_comp = zone(state, f"{guild_of(card_id)}_card")[0]
    if reward.endswith(" clash"):
        node, env = rt.run_target(card_comp, "clash", {}, {"you": 0})
    else:
        die = zone(state, "pool", 0)[0]
        node, env = rt.run_target(f"{card_comp}/{reward}", "effect", {"die": die}, {"you": 0})
    return outcomes(state, node, env)


def test_every_multi_part_reward_is_written_in_an_order_that_reaches_every_outcome(rulesets):
    shipped, reversed_pack, rewards = rulesets
    assert len(rewards) > 100
    short = []
    for reward, (card_id, _effect) in sorted(rewards.items()):
        for profile in PROFILES:
            missing = run_reward(reversed_pack, reward, card_id, profile) \
                - run_reward(shipped, reward, card_id, profile)
            if missing:
                short.append(f"{reward} with {profile} of each currency")
    assert short == []


@pytest.mark.parametrize("reward, card_id, profile", [
    ("merchant_guild_bank_2", "merchant_guild_bank", 1),                  # gain 1 coin
    ("merchant_merchant_princes_hall_2", "merchant_merchant_princes_hall", 0),   # 2 coin
    ("alchemist_transmutation_circle_3", "alchemist_transmutation_circle", 1),  # 1 shard
    ("alchemist_celestial_orrery_2", "alchemist_celestial_orrery", 0),    # 2 shard
])
def test_a_craft_can_be_paid_with_what_the_same_space_gives(rulesets, reward, card_id, profile):
    """"gain all listed resources and actions in any order": a player short by exactly what the
    space gives (the Shard Well costs 2) crafts with it. The other order (the pack's old one,
    the Craft first) cannot, which the comparison above would catch."""
    shipped, reversed_pack, _rewards = rulesets

    def crafted(ends):
        return {any(c.startswith("shard_well") for c in json.loads(end)[2]["0:tableau"])
                for end in ends}

    assert crafted(run_reward(shipped, reward, card_id, profile)) == {True, False}
    assert crafted(run_reward(reversed_pack, reward, card_id, profile)) == {False}
