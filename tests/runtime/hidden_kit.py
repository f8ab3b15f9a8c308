"""What one seat may not see, worked out from the other seats' own views (each seat's view
shows what it holds), for tests that check a screen or a transcript keeps it hidden."""

from __future__ import annotations

import json


def hidden_names(state, seat: int) -> set[str]:
    """Names of cards another seat holds where ``seat`` sees only a count, and that are not in
    sight anywhere on ``seat``'s side of the table."""
    mine = state.view(seat)
    in_sight = json.dumps(mine)
    cards = {card["name"] for card in state.game.compiled["cards"].values()}
    names = set()
    for other in range(state.game.num_players):
        if other == seat:
            continue
        theirs = state.view(other)["players"][other]["zones"]
        for zone, shown in mine["players"][other]["zones"].items():
            if isinstance(shown, dict) and isinstance(theirs.get(zone), list):
                names |= {name for name in theirs[zone] if name in cards}
    return {name for name in names if f'"{name}"' not in in_sight}
