"""Dice Forge written by hand in plain Python, the yardstick for rulewright's whole games.

The same game as ``content/dice_forge`` (its rulebook, its published faces, its Heroic Feats,
its reading of every rule), written the way a developer would write one game: dataclasses for
the Heroes and their dice, dicts for the Sanctuary and the Islands, and the turn as generator
functions that ``yield`` a :class:`Decision` whenever a player must choose. Nothing of
rulewright is used except its random generator (:mod:`rulewright.runtime.rng`), so that with
the same seed both games roll the same faces.

Because the two are played in lockstep (``tests/test_dice_forge_by_hand.py``), every decision
offers exactly the pack's options in the pack's order:

- a choice with a single option is taken without asking; options that cannot be carried out
  are left out (a face the Hero cannot afford, a feat whose effect has nothing to act on);
- identical components are one option (one per Sanctuary pool, one per Heroic Feat stack);
- the order is the order of the components on the table: the Sanctuary's pools and the
  Islands' stacks in the order the pack lists them, the Hero's dice light then dark, the faces
  of an offering in the order they were taken, reinforcement cards in the order they were won.

    game = new_game(4, seed=1)
    while not game.is_terminal():
        game.apply(random.choice(game.legal_actions()))
    game.scores(), game.winners()
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from rulewright.runtime import rng

# ----------------------------------------------------------------------------- the game's data
# From content/dice_forge: rules.yaml (reserves, set-up table), dice.yaml (dice and faces),
# heroic_feats.yaml (cards) and spaces.yaml (portals).

TERMINAL = -1
"""What :meth:`DiceForge.current_player` returns once the game is over."""

# "If you have reached the maximum on a particular reserve track, any additional resources
# gained are lost." Glory has no maximum.
RESERVE_MAX = {"gold": 12, "sun": 6, "moon": 6}
CHEST_ROOM = {"gold": 4, "sun": 3, "moon": 3}
"""How much more each Blacksmith's Chest lets a reserve hold."""
RESOURCES = ("gold", "sun", "moon", "glory")

# "Setup Configurations": rounds and die faces per Sanctuary pool per player count.
ROUNDS = {2: 9, 3: 10, 4: 9}
FACES_PER_POOL = {2: 2, 3: 4, 4: 4}
FIRST_PLAYER_GOLD = 3
"""Player 1 starts with 3 Gold, player 2 with 2, player 3 with 1, player 4 with none."""
EXTRA_ACTION_SUN = 2
HAMMER_LAP = 15
"""Spaces of the Hammer track; each Hammer token rides it twice, one token after another."""
HAMMER_GLORY = (15, 10)
"""Glory for finishing a Hammer's second lap and its first (by position % 30 == 0 or not)."""

LIGHT_DIE = [("gold",), ("gold",), ("gold",), ("gold",), ("gold",), ("sun",)]
DARK_DIE = [("gold",), ("gold",), ("gold",), ("gold",), ("moon",), ("glory", "glory")]


@dataclass(frozen=True)
class Pool:
    """One kind of die face of the Sanctuary: its pool, its Gold cost, its icons and how many
    of it the pool holds (4 of one kind, or 1 of each of a mixed pool's four kinds)."""
    face: str
    pool: int
    cost: int
    icons: tuple[str, ...]
    count: int = 4


SANCTUARY = [
    Pool("face_gold3", 1, 2, ("gold", "gold", "gold")),
    Pool("face_moon1", 2, 2, ("moon",)),
    Pool("face_gold4", 3, 3, ("gold", "gold", "gold", "gold")),
    Pool("face_sun1", 4, 3, ("sun",)),
    Pool("face_gold6", 5, 4, ("gold",) * 6, 1),
    Pool("face_gold_sun_moon", 5, 4, ("gold_sun_moon",), 1),
    Pool("face_glory1_sun1", 5, 4, ("glory", "sun"), 1),
    Pool("face_gold2_moon1", 5, 4, ("gold", "gold", "moon"), 1),
    Pool("face_gold3_or_glory2", 6, 5, ("gold3_or_glory2",)),
    Pool("face_moon2", 7, 6, ("moon", "moon")),
    Pool("face_sun2", 8, 8, ("sun", "sun")),
    Pool("face_glory3", 9, 8, ("glory", "glory", "glory")),
    Pool("face_glory4", 10, 12, ("glory", "glory", "glory", "glory"), 1),
    Pool("face_glory2_moon2", 10, 12, ("glory", "glory", "moon", "moon"), 1),
    Pool("face_gold2_sun2_moon2", 10, 12, ("gold2_sun2_moon2",), 1),
    Pool("face_all_four", 10, 12, ("gold", "sun", "moon", "glory"), 1),
]
POOLS = {pool.face: pool for pool in SANCTUARY}
RELICS = {"triple_face": Pool("triple_face", 0, 0, ("triple",)),
          "mirror_face": Pool("mirror_face", 0, 0, ("mirror",))}
"""The Temple Gardens' special faces (four of each), forged by the Helmet of Invisibility and
the Mirror of the Abyss; not sold in the Sanctuary."""
RELIC_COPIES = 4

CHOICE_FACES = {
    "gold_sun_moon": (("gold", 1), ("sun", 1), ("moon", 1)),
    "gold3_or_glory2": (("gold", 3), ("glory", 2)),
    "gold2_sun2_moon2": (("gold", 2), ("sun", 2), ("moon", 2)),
}
"""Icons that give one of several gains, the Hero's choice: (resource, amount) per option."""


@dataclass(frozen=True)
class Feat:
    """A stack of identical Heroic Feat cards: its island, its cost, its Glory and its pile."""
    card: str
    name: str
    island: str
    sun: int
    moon: int
    glory: int
    kind: str  # "instant" (pile 1), "permanent" (pile 2) or "reinforcement" (pile 3)


FEATS = [
    Feat("blacksmiths_hammer", "The Blacksmith's Hammer", "island_1", 0, 1, 0, "instant"),
    Feat("blacksmiths_chest", "The Blacksmith's Chest", "island_1", 0, 1, 2, "instant"),
    Feat("silver_hind", "The Silver Hind", "island_2", 0, 2, 2, "reinforcement"),
    Feat("satyrs", "Satyrs", "island_2", 0, 3, 6, "instant"),
    Feat("ferryman", "Ferryman", "island_3", 0, 4, 12, "instant"),
    Feat("helmet_of_invisibility", "Helmet of Invisibility", "island_3", 0, 5, 4, "instant"),
    Feat("cancer", "Cancer", "island_4", 0, 6, 8, "instant"),
    Feat("hydra", "Hydra", "island_4", 5, 5, 26, "instant"),
    Feat("sphinx", "Sphinx", "island_4", 6, 0, 10, "instant"),
    Feat("gorgon", "Gorgon", "island_5", 4, 0, 14, "instant"),
    Feat("mirror_of_the_abyss", "Mirror of the Abyss", "island_5", 5, 0, 10, "instant"),
    Feat("guardians_owl", "The Guardian's Owl", "island_6", 2, 0, 4, "reinforcement"),
    Feat("minotaur", "Minotaur", "island_6", 3, 0, 8, "instant"),
    Feat("the_elder", "The Elder", "island_7", 1, 0, 0, "reinforcement"),
    Feat("wild_spirits", "Wild Spirits", "island_7", 1, 0, 2, "instant"),
]
FEATS_BY_CARD = {feat.card: feat for feat in FEATS}
ELDER_PRICE = 3
ELDER_GLORY = 4
SPHINX_BLESSINGS = 4
WILD_SPIRITS = {"gold": 3, "moon": 3}

# ----------------------------------------------------------------------------- the table


@dataclass
class Die:
    """A Divine Die: six faces, each a tuple of icons, one of them up."""
    name: str
    faces: list[tuple[str, ...]]
    up: int = 0

    @property
    def top(self) -> tuple[str, ...]:
        """The icons of the face showing."""
        return self.faces[self.up]

    def describe(self) -> str:
        """The die as a player sees it on the Inventory: its name and its up face."""
        return f"{self.name} {icons_text(self.top)}"


@dataclass
class Hero:
    """A player: reserves, dice, pawn, the faces being offered and forged, the feat piles."""
    seat: int
    reserves: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RESOURCES, 0))
    hammer: int = 0
    portal: str | None = None  # None: the Hero's own starting portal
    light: Die = field(default_factory=lambda: Die("light_die", list(LIGHT_DIE)))
    dark: Die = field(default_factory=lambda: Die("dark_die", list(DARK_DIE)))
    offering: list[str] = field(default_factory=list)
    forged: list[str] = field(default_factory=list)
    piles: dict[str, list[str]] = field(default_factory=lambda: {
        "instant": [], "permanent": [], "reinforcement": []})

    @property
    def dice(self) -> tuple[Die, Die]:
        """The Light Die and the Dark Die, in the order they are rolled and offered."""
        return (self.light, self.dark)

    def owns(self, card: str) -> int:
        """How many copies of a Pile 1 (instant) card the Hero has."""
        return self.piles["instant"].count(card)

    def reserve_max(self, resource: str) -> int | None:
        """The most a reserve holds; each Blacksmith's Chest makes room for more."""
        if resource not in RESERVE_MAX:
            return None
        return RESERVE_MAX[resource] + CHEST_ROOM[resource] * self.owns("blacksmiths_chest")

    def hammer_room(self) -> int:
        """How far the Hero's Hammer tokens can still go (two laps each)."""
        return 2 * HAMMER_LAP * self.owns("blacksmiths_hammer") - self.hammer


@dataclass
class Decision:
    """A question to one player: pick one of ``options`` (``describe`` puts one in words)."""
    player: int
    options: list
    describe: Callable[[Any], str]


def icons_text(icons: tuple[str, ...]) -> str:
    """A face's icons in brackets: ``[gold, gold, moon]``."""
    return f"[{', '.join(icons)}]"


def sanctuary_for(players: int) -> dict[str, int]:
    """How many faces of each kind the Sanctuary holds: each pool keeps FACES_PER_POOL faces,
    a mixed pool its kinds listed last."""
    left = {pool.face: pool.count for pool in SANCTUARY}
    for number in {pool.pool for pool in SANCTUARY}:
        kinds = [pool for pool in SANCTUARY if pool.pool == number]
        surplus = sum(pool.count for pool in kinds) - FACES_PER_POOL[players]
        for pool in kinds:
            taken = min(surplus, left[pool.face])
            left[pool.face] -= taken
            surplus -= taken
    return left


def new_game(players: int, seed: int) -> "DiceForge":
    """A set-up game for 2 to 4 players, run to its first decision."""
    return DiceForge(players, seed)


Play = Generator[Decision, Any, Any]
"""A part of the game that may ask players: ``answer = yield decision``."""


class DiceForge:
    """One game of Dice Forge, paused at a decision until :meth:`apply` answers it."""

    def __init__(self, players: int, seed: int):
        if players not in ROUNDS:
            raise ValueError(f"Dice Forge is for 2-4 players, not {players}")
        self.num_players = players
        self.random_state = rng.seed_state(seed)
        self.heroes = [Hero(seat) for seat in range(players)]
        self.rounds = ROUNDS[players]
        self.round_no = 0
        self.active = 0
        self.sanctuary = sanctuary_for(players)
        self.islands = {feat.card: players for feat in FEATS}  # "cards per stack 4/3/2"
        self.relics = dict.fromkeys(RELICS, RELIC_COPIES)
        self.occupants: dict[str, int] = {}  # portal -> seat
        self._play = self.play()
        self._pending: Decision | None = next(self._play, None)

    # ------------------------------------------------------------------ the game API

    def current_player(self) -> int:
        """The seat that must decide, or TERMINAL (-1) once the game is over."""
        return TERMINAL if self._pending is None else self._pending.player

    def legal_actions(self) -> list[int]:
        """The pending decision's option numbers (empty once the game is over)."""
        return [] if self._pending is None else list(range(len(self._pending.options)))

    def option_descriptions(self) -> list[str]:
        """The pending decision's options in words, in action order."""
        if self._pending is None:
            return []
        return [self._pending.describe(option) for option in self._pending.options]

    def apply(self, action: int) -> None:
        """Answer the pending decision with option number ``action`` and play on."""
        if self._pending is None:
            raise ValueError("the game is over")
        if not 0 <= action < len(self._pending.options):
            raise ValueError(f"action {action} is not legal here")
        answer = self._pending.options[action]
        try:
            self._pending = self._play.send(answer)
        except StopIteration:
            self._pending = None

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._pending is None

    def scores(self) -> list[int]:
        """Each Hero's Glory (with the Heroic Feats' Glory once the game has ended)."""
        return [hero.reserves["glory"] for hero in self.heroes]

    def winners(self) -> list[int]:
        """The seats with the most Glory ("all tied players win"); empty until the end."""
        if not self.is_terminal():
            return []
        best = max(self.scores())
        return [seat for seat, score in enumerate(self.scores()) if score == best]

    def observation(self) -> dict:
        """Everything on the table, as plain data: reserves, dice, pawns, faces, cards."""
        return {
            "round": self.round_no,
            "active": self.active,
            "heroes": [{
                **hero.reserves,
                "hammer": hero.hammer,
                "portal": hero.portal,
                "dice": {die.name: [list(face) for face in die.faces] for die in hero.dice},
                "up": {die.name: list(die.top) for die in hero.dice},
                "offering": list(hero.offering),
                "forged": list(hero.forged),
                **{f"pile_{kind}": list(cards) for kind, cards in hero.piles.items()},
            } for hero in self.heroes],
            "sanctuary": {face: n for face, n in self.sanctuary.items() if n},
            "islands": {card: n for card, n in self.islands.items() if n},
            "relics": sum(self.relics.values()),
            "occupants": dict(sorted(self.occupants.items())),
        }

    # ------------------------------------------------------------------ asking

    def ask(self, player: int, options: list, describe: Callable[[Any], str]) -> Play:
        """Ask ``player`` to pick one of ``options``; a lone option is taken without asking."""
        if len(options) == 1:
            return options[0]
        return (yield Decision(player, options, describe))

    # ------------------------------------------------------------------ the flow

    def play(self) -> Play:
        """Set-up, the rounds, final scoring."""
        self.set_up()
        for self.round_no in range(1, self.rounds + 1):
            # "During each round, each player takes one turn as the active player,
            # starting with the first player."
            for hero in self.heroes:
                yield from self.take_turn(hero)
        self.final_scoring()

    def set_up(self) -> None:
        """Gold for each player according to the turn order: 3/2/1/0."""
        for hero in self.heroes:
            hero.reserves["gold"] = FIRST_PLAYER_GOLD - hero.seat

    def take_turn(self, hero: Hero) -> Play:
        """Steps I to IV of the active player's turn."""
        self.active = hero.seat
        # "in a two-player game, perform this step twice"
        for _ in range(2 if self.num_players == 2 else 1):
            yield from self.all_players_blessed()
        yield from self.call_reinforcements(hero)
        yield from self.take_an_action(hero)
        yield from self.extra_action(hero)

    def all_players_blessed(self) -> Play:
        """I. All players receive a divine blessing at once: everyone rolls, then each applies
        their faces, in turn order from the active player."""
        order = [self.heroes[(self.active + offset) % self.num_players]
                 for offset in range(self.num_players)]
        for hero in order:
            for die in hero.dice:
                self.roll(die)
        for hero in order:
            yield from self.apply_rolled_dice(hero)

    # ------------------------------------------------------------------ blessings and gains

    def roll(self, die: Die) -> None:
        """Roll a die: one draw of the game's generator."""
        self.random_state, die.up = rng.below(self.random_state, len(die.faces))

    def divine_blessing(self, hero: Hero) -> Play:
        """Roll both dice, then apply the two faces in the order of the Hero's choice
        (not asked when the faces are the same: either order gives the same)."""
        for die in hero.dice:
            self.roll(die)
        yield from self.apply_rolled_dice(hero)

    def apply_rolled_dice(self, hero: Hero) -> Play:
        """Apply the two faces showing, in the order of the Hero's choice."""
        order = [hero.light, hero.dark]
        if hero.light.top != hero.dark.top:
            first = yield Decision(hero.seat, order, lambda die: f"{die.name} first")
            order = [first, hero.dark if first is hero.light else hero.light]
        for die in order:
            other = hero.dark if die is hero.light else hero.light
            # the x3 face makes the other die's face count three times
            yield from self.gain_face(hero, die.top, 3 if "triple" in other.top else 1)

    def minor_blessing(self, hero: Hero) -> Play:
        """Choose one of your dice, roll it and apply its face (an x3 face gives nothing)."""
        die = yield from self.ask(hero.seat, list(hero.dice), Die.describe)
        self.roll(die)
        yield from self.gain_face(hero, die.top, 1)

    def gain_face(self, hero: Hero, icons: tuple[str, ...], times: int) -> Play:
        """Gain what a face shows, ``times`` times; a mirror face then copies a rolled face of
        an opponent's die."""
        yield from self.gain_icons(hero, icons, times)
        for _ in range(icons.count("mirror")):
            copied = yield from self.rolled_face_to_copy(hero)
            if copied is not None:
                yield from self.gain_icons(hero, copied.top, times)

    def gain_icons(self, hero: Hero, icons: tuple[str, ...], times: int) -> Play:
        """Each resource icon one of its kind, then each choice icon one of the gains it
        offers."""
        for resource in RESOURCES:
            if resource in icons:
                yield from self.gain(hero, resource, times * icons.count(resource))
        for icon, gains in CHOICE_FACES.items():
            for _ in range(icons.count(icon) if icon in icons else 0):
                options = [(resource, amount * times) for resource, amount in gains]
                resource, amount = yield from self.ask(
                    hero.seat, options, lambda gain: f"gain {gain[1]} {gain[0]}")
                yield from self.gain(hero, resource, amount)

    def rolled_face_to_copy(self, hero: Hero) -> Play:
        """An opponent's die showing a face other than a mirror, the player's pick (None if
        there is none): first the opponent, then the die."""
        opponents = [other for other in self.heroes if other is not hero
                     and any("mirror" not in die.top for die in other.dice)]
        if not opponents:
            return None
        other = yield from self.ask(hero.seat, opponents, lambda o: f"player {o.seat + 1}")
        dice = [die for die in other.dice if "mirror" not in die.top]
        return (yield from self.ask(hero.seat, dice, Die.describe))

    def gain(self, hero: Hero, resource: str, amount: int) -> Play:
        """Add to a reserve up to its maximum (the rest is lost); Gold may go on a Hammer."""
        if resource == "gold":
            yield from self.gain_gold(hero, amount)
        else:
            self.add(hero, resource, amount)

    def add(self, hero: Hero, resource: str, amount: int) -> None:
        """Put resources in a reserve, up to its maximum."""
        ceiling = hero.reserve_max(resource)
        total = hero.reserves[resource] + max(amount, 0)
        hero.reserves[resource] = total if ceiling is None else min(total, ceiling)

    def gain_gold(self, hero: Hero, gold: int) -> Play:
        """With room on a Hammer the Hero puts the Gold in the reserve, on the Hammer (what
        does not fit goes to the reserve), or one Gold on the Hammer, deciding again about the
        rest."""
        while gold > 0 and hero.hammer_room() > 0:
            options = ["reserve", "hammer"] + (["one"] if gold > 1 else [])
            where = yield Decision(hero.seat, options, lambda o, k=gold: {
                "reserve": f"put {k} Gold in the reserve", "hammer": f"put {k} Gold on the Hammer",
                "one": "put 1 Gold on the Hammer, then decide about the rest"}[o])
            if where == "reserve":
                break
            put = min(gold, hero.hammer_room()) if where == "hammer" else 1
            self.advance_hammer(hero, put)
            gold -= put
        self.add(hero, "gold", gold)

    def advance_hammer(self, hero: Hero, spaces: int) -> None:
        """Move the Hammer token; each lap's last space gives its Glory."""
        for _ in range(spaces):
            hero.hammer += 1
            if hero.hammer % HAMMER_LAP == 0:
                hero.reserves["glory"] += HAMMER_GLORY[(hero.hammer // HAMMER_LAP) % 2]

    # ------------------------------------------------------------------ step II

    def call_reinforcements(self, hero: Hero) -> Play:
        """II. Each Pile 3 card's effect once, in the order of the player's choice."""
        cards = hero.piles["reinforcement"]
        used = [False] * len(cards)
        while True:
            usable = [i for i, card in enumerate(cards) if not used[i]
                      and (card != "the_elder" or hero.reserves["gold"] >= ELDER_PRICE)]
            if not usable:
                return
            choice = yield Decision(hero.seat, [None] + usable, lambda i: (
                "done" if i is None else f"use {FEATS_BY_CARD[cards[i]].name}"))
            if choice is None:
                return
            used[choice] = True
            yield from self.reinforcement(hero, cards[choice])

    def reinforcement(self, hero: Hero, card: str) -> Play:
        """The effect of a Pile 3 card."""
        if card == "silver_hind":
            yield from self.minor_blessing(hero)
        elif card == "guardians_owl":
            resource = yield Decision(hero.seat, ["gold", "sun", "moon"], lambda r: f"gain 1 {r}")
            yield from self.gain(hero, resource, 1)
        elif card == "the_elder":
            hero.reserves["gold"] -= ELDER_PRICE
            yield from self.gain(hero, "glory", ELDER_GLORY)

    # ------------------------------------------------------------------ steps III and IV

    def take_an_action(self, hero: Hero) -> Play:
        """III. The active player may make an offering or perform a heroic feat."""
        actions = self.possible_actions(hero) + ["pass"]
        action = yield from self.ask(hero.seat, actions, ACTION_WORDS.get)
        yield from self.perform(hero, action)

    def extra_action(self, hero: Hero) -> Play:
        """IV. Once per turn, spend 2 Sun Shards for another action: offered when some face is
        affordable or some feat would be after paying."""
        sun, moon = hero.reserves["sun"], hero.reserves["moon"]
        if sun < EXTRA_ACTION_SUN:
            return
        if not (self.affordable_faces(hero) or any(
                self.islands[feat.card] and feat.sun + EXTRA_ACTION_SUN <= sun and feat.moon <= moon
                for feat in FEATS)):
            return
        wanted = yield Decision(hero.seat, [False, True], lambda yes: (
            f"pay {EXTRA_ACTION_SUN} sun for an extra action" if yes else "decline"))
        if not wanted:
            return
        hero.reserves["sun"] -= EXTRA_ACTION_SUN
        actions = self.possible_actions(hero)
        if actions:
            action = yield from self.ask(hero.seat, actions, ACTION_WORDS.get)
            yield from self.perform(hero, action)

    def possible_actions(self, hero: Hero) -> list[str]:
        """The actions the Hero can carry out now: an offering, a heroic feat."""
        return [action for action, possible in (("offering", self.affordable_faces(hero)),
                                                ("feat", self.performable_feats(hero)))
                if possible]

    def perform(self, hero: Hero, action: str) -> Play:
        """Carry out an action (passing does nothing)."""
        if action == "offering":
            yield from self.make_an_offering(hero)
        elif action == "feat":
            yield from self.perform_a_heroic_feat(hero)

    # ------------------------------------------------------------------ A) the offering

    def affordable_faces(self, hero: Hero) -> list[Pool]:
        """The pools with a face left that the Hero can pay for and has not taken from yet."""
        gold = hero.reserves["gold"]
        return [pool for pool in SANCTUARY if self.sanctuary[pool.face] and pool.cost <= gold
                and pool.face not in hero.offering]

    def make_an_offering(self, hero: Hero) -> Play:
        """Take one or more strictly different faces, paying each, then forge them all in
        the order of the player's choice."""
        yield from self.take_a_face(hero)
        while self.affordable_faces(hero):
            more = yield Decision(hero.seat, [True, False],
                                  lambda yes: "take another face" if yes else "stop taking faces")
            if not more:
                break
            yield from self.take_a_face(hero)
        while hero.offering:
            face = yield from self.ask(hero.seat, list(hero.offering), describe_face)
            yield from self.forge(hero, POOLS[face])
            hero.offering.remove(face)

    def take_a_face(self, hero: Hero) -> Play:
        """Take a face from an affordable pool and pay its cost."""
        pool = yield from self.ask(hero.seat, self.affordable_faces(hero), describe_pool)
        hero.reserves["gold"] -= pool.cost
        self.sanctuary[pool.face] -= 1
        hero.offering.append(pool.face)

    def forge(self, hero: Hero, pool: Pool) -> Play:
        """Forge a face of ``pool``: the player picks the die, then the face it replaces; the
        new face ends up. The caller then takes the face from where it lay (the offering, the
        Sanctuary, the relics): it stays there, for all to see, while the player decides."""
        die = yield Decision(hero.seat, list(hero.dice), Die.describe)
        index = yield Decision(hero.seat, list(range(len(die.faces))),
                               lambda i: f"replace face {i + 1} {icons_text(die.faces[i])}")
        die.faces[index] = pool.icons
        die.up = index
        hero.forged.append(pool.face)

    # ------------------------------------------------------------------ B) the heroic feat

    def performable_feats(self, hero: Hero) -> list[Feat]:
        """The stacks with a card left that the Hero can pay for, whose effect can be done."""
        sun, moon = hero.reserves["sun"], hero.reserves["moon"]
        return [feat for feat in FEATS
                if self.islands[feat.card] and feat.sun <= sun and feat.moon <= moon]

    def perform_a_heroic_feat(self, hero: Hero) -> Play:
        """Pay the card's cost, move to its island's portal (ousting whoever is there), apply
        its effect, then take it from the stack and file it in its pile."""
        feat = yield from self.ask(hero.seat, self.performable_feats(hero), lambda f: f.name)
        hero.reserves["sun"] -= feat.sun
        hero.reserves["moon"] -= feat.moon
        yield from self.move_to_portal(hero, feat.island)
        yield from self.feat_effect(hero, feat)
        self.islands[feat.card] -= 1
        hero.piles[feat.kind].append(feat.card)

    def move_to_portal(self, hero: Hero, portal: str) -> Play:
        """"If his pawn is already there, he doesn't need to move it"; an ousted Hero goes
        back to their starting portal and receives a divine blessing."""
        if hero.portal == portal:
            return
        ousted = self.occupants.get(portal)
        if hero.portal is not None:
            del self.occupants[hero.portal]
        self.occupants[portal] = hero.seat
        hero.portal = portal
        if ousted is not None:
            other = self.heroes[ousted]
            other.portal = None
            yield from self.divine_blessing(other)

    def feat_effect(self, hero: Hero, feat: Feat) -> Play:
        """The effect of a Heroic Feat card, "if any"."""
        relic = {"helmet_of_invisibility": "triple_face", "mirror_of_the_abyss": "mirror_face"}
        if feat.card in relic and self.relics[relic[feat.card]]:
            yield from self.forge(hero, RELICS[relic[feat.card]])
            self.relics[relic[feat.card]] -= 1
        elif feat.card == "satyrs":
            yield from self.satyrs(hero)
        elif feat.card == "cancer":
            for _ in range(2):
                yield from self.divine_blessing(hero)
        elif feat.card == "sphinx":
            die = yield from self.ask(hero.seat, list(hero.dice), Die.describe)
            for _ in range(SPHINX_BLESSINGS):
                self.roll(die)
                yield from self.gain_face(hero, die.top, 1)
        elif feat.card == "minotaur":
            yield from self.minotaur(hero)
        elif feat.card == "wild_spirits":
            for resource, amount in WILD_SPIRITS.items():
                yield from self.gain(hero, resource, amount)

    def satyrs(self, hero: Hero) -> Play:
        """The others roll their dice; the Hero applies two of the rolled faces, the first
        chosen first, as a divine blessing (an x3 face triples the other)."""
        others = [other for other in self.heroes if other is not hero]
        for other in others:
            for die in other.dice:
                self.roll(die)
        describe = lambda o: f"player {o.seat + 1}"  # noqa: E731
        chosen: list[Die] = []
        for _ in range(2):
            other = yield from self.ask(hero.seat, others, describe)
            dice = [die for die in other.dice if all(die is not c for c in chosen)]
            chosen.append((yield from self.ask(hero.seat, dice, Die.describe)))
        first, second = chosen
        yield from self.gain_face(hero, first.top, 3 if "triple" in second.top else 1)
        yield from self.gain_face(hero, second.top, 3 if "triple" in first.top else 1)

    def minotaur(self, hero: Hero) -> Play:
        """Each other Hero, in turn order after the active one, rolls both dice and loses what
        they show, in the order of their choice."""
        for offset in range(1, self.num_players):
            other = self.heroes[(hero.seat + offset) % self.num_players]
            for die in other.dice:
                self.roll(die)
            order = [other.light, other.dark]
            if other.light.top != other.dark.top:
                first = yield Decision(other.seat, order, lambda die: f"{die.name} lost first")
                order = [first, other.dark if first is other.light else other.light]
            for die in order:
                times = 3 if "triple" in (other.dark if die is other.light else other.light).top else 1
                yield from self.lose_icons(other, die.top, times)
                for _ in range(die.top.count("mirror")):
                    copied = yield from self.rolled_face_to_copy(other)
                    if copied is not None:
                        yield from self.lose_icons(other, copied.top, times)

    def lose_icons(self, hero: Hero, icons: tuple[str, ...], times: int) -> Play:
        """What a face would give, lost instead (a reserve stops at 0); of a choice face the
        Hero picks what to lose."""
        for resource in RESOURCES:
            if resource in icons:
                self.lose(hero, resource, times * icons.count(resource))
        for icon, gains in CHOICE_FACES.items():
            for _ in range(icons.count(icon) if icon in icons else 0):
                options = [(resource, amount * times) for resource, amount in gains]
                resource, amount = yield from self.ask(
                    hero.seat, options, lambda loss: f"lose {loss[1]} {loss[0]}")
                self.lose(hero, resource, amount)

    @staticmethod
    def lose(hero: Hero, resource: str, amount: int) -> None:
        """Take resources from a reserve, down to 0."""
        hero.reserves[resource] = max(hero.reserves[resource] - amount, 0)

    # ------------------------------------------------------------------ the end

    def final_scoring(self) -> None:
        """Each Hero adds the Glory of their Heroic Feat cards to their reserve."""
        for hero in self.heroes:
            hero.reserves["glory"] += sum(FEATS_BY_CARD[card].glory
                                          for cards in hero.piles.values() for card in cards)


ACTION_WORDS = {"offering": "make an offering", "feat": "perform a heroic feat", "pass": "pass"}


def describe_pool(pool: Pool) -> str:
    """A Sanctuary face as options name it: ``face_gold3 [gold, gold, gold]``."""
    return f"{pool.face} {icons_text(pool.icons)}"


def describe_face(face: str) -> str:
    """A face of the offering, by its pool's name."""
    return describe_pool(POOLS[face])
