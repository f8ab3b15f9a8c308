"""What others see of hidden cards: their backs ("you choose the card but only from the back
of the Artefacts in the hand of the targeted player")."""

from __future__ import annotations

from rulewright.compiler.pipeline import compile_pack

from packkit import labels, move, new_game, pick, run_procedure, write_pack, zone

RULES = {
    "enums": {"colour": ["white", "red", "blue"]},
    "zones": [{"id": "hand", "source": "illustrative", "scope": "player", "visibility": "owner"}],
    "components": [{"id": "artefact", "source": "illustrative", "base": "card", "decks": ["deck"],
                    "props": {"colour": "colour", "power": "int"}, "back": ["colour"]}],
}
CARDS = [
    {"id": "red_lamp", "deck": "deck", "props": {"colour": "red", "power": 1}},
    {"id": "red_crown", "deck": "deck", "props": {"colour": "red", "power": 3}},
    {"id": "blue_orb", "deck": "deck", "props": {"colour": "blue", "power": 2}},
]
WAIT = "choose { gain 1 coin | gain 1 favor }"
STEAL = {"steal": "choose p in players where p != you: choose c in p.hand: move c to hand",
         "own_pick": "choose c in hand: move c to deck"}


def _game(tmp_path, main=WAIT, seed=1, dealt_to=1):
    """A two-seat game; the three cards dealt to seat ``dealt_to``'s hand (None: left in the deck)."""
    state = new_game(tmp_path, main, players=2, seed=seed, rules=RULES, cards=CARDS,
                     procedures=STEAL)
    if dealt_to is not None:
        for comp in list(zone(state, "deck")):
            move(state, comp, "hand", dealt_to)
    return state


def _stolen(tmp_path, seed=1):
    state = _game(tmp_path, seed=seed)
    run_procedure(state, "steal", seat=0)
    return state


def test_another_seats_hand_shows_the_backs_sorted_and_its_own_shows_the_cards(tmp_path):
    state = _game(tmp_path)
    theirs = state.view(0)["players"][1]["zones"]["hand"]
    assert theirs == {"count": 3, "backs": [{"colour": "blue"}, {"colour": "red"}, {"colour": "red"}]}
    mine = state.view(1)["players"][1]["zones"]["hand"]
    assert sorted(mine) == ["blue_orb", "red_crown", "red_lamp"]


def test_a_face_down_pile_shows_the_back_of_its_top_card(tmp_path):
    state = _game(tmp_path, dealt_to=None)
    deck = state.view(0)["zones"]["deck"]
    top = state.data["components"][zone(state, "deck")[-1]]["def"]
    assert deck["count"] == 3
    assert deck["top"] == {"colour": "blue" if top == "blue_orb" else "red"}


def test_stealing_from_a_hand_offers_backs_not_names(tmp_path):
    state = _stolen(tmp_path)
    options = labels(state)
    assert options == ["c: a card with a blue back from player 2's hand",
                       "c: a card with a red back from player 2's hand"]
    assert not any(name in " ".join(options) for name in ("lamp", "crown", "orb"))
    keys = {state.option_key(a) for a in state.legal_actions()}
    assert not any("lamp" in k or "crown" in k for k in keys)
    pick(state, "red back")
    taken = [state.data["components"][c]["def"] for c in zone(state, "hand", 0)]
    assert len(taken) == 1 and taken[0] in ("red_lamp", "red_crown")


def test_which_red_card_is_taken_is_drawn_at_random(tmp_path):
    taken = set()
    for seed in range(1, 12):
        state = _stolen(tmp_path / str(seed), seed)
        pick(state, "red back")
        taken.add(state.data["components"][zone(state, "hand", 0)[0]]["def"])
    assert taken == {"red_lamp", "red_crown"}


def test_an_owner_picks_from_their_own_hand_by_name(tmp_path):
    state = _game(tmp_path, dealt_to=0)
    run_procedure(state, "own_pick", seat=0)
    assert sorted(labels(state)) == ["c: blue_orb", "c: red_crown", "c: red_lamp"]


def test_a_back_prop_must_be_declared(tmp_path):
    rules = {**RULES, "components": [dict(RULES["components"][0], back=["colur"])]}
    root = write_pack(tmp_path / "pack", "gain 1 coin", rules=rules, cards=CARDS)
    compiled, diagnostics = compile_pack(str(root), use_cache=False)
    assert compiled is None
    assert any(d.code == "E301" and "did you mean 'colour'" in d.message for d in diagnostics)
