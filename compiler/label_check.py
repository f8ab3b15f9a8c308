"""W701: a card ability's printed ``label`` says something its effect does not do.

Two things are checked, because a player reads the label and never the effect text:

- *optional or not*: a label that says "may" on an ability that happens on its own (a trigger
  that is not once per round, whose effect has no ``may``), or a label without "may" on such a
  trigger whose effect is optional. Activated abilities and once-per-round triggers are always
  the player's choice, so either wording is fine for them.
- *amounts*: "gain 2 Coins" in the label where the effect gains Coins, but never 2 of them
  (likewise pay/spend and lose).
"""

from __future__ import annotations

import re

from . import ir
from .diagnostics import Diagnostic, diagnostic
from .explain import ability_is_optional, display_name, humanise, wording_of
from .model import AbilityDef, Pack

__all__ = ["check_labels"]

_MAY = re.compile(r"\b(you may|may|optionally)\b", re.I)
_PHRASE = re.compile(r"\b(gain|gains|pay|pays|spend|spends|lose|loses)\s+(\d+)\s+([a-z][a-z' -]*)",
                     re.I)
_VERBS = {"gain": "gain", "gains": "gain", "pay": "pay", "pays": "pay", "spend": "pay",
          "spends": "pay", "lose": "lose", "loses": "lose"}
_STATEMENT_VERBS = {ir.Gain: "gain", ir.Pay: "pay", ir.Lose: "lose"}


def _nouns(pack: Pack) -> list[tuple[str, str]]:
    """(lower-case words, id) for every way a label may name a resource or track, longest
    first so "high council reputation" wins over "high council"."""
    found: dict[str, str] = {}
    for entry_id in [*pack.resources, *pack.tracks]:
        for word in (display_name(entry_id), display_name(entry_id, many=True),
                     humanise(entry_id), entry_id.replace("_", " ")):
            word = word.lower()
            found.setdefault(word, entry_id)
            found.setdefault(word + "s", entry_id)
    return sorted(found.items(), key=lambda item: -len(item[0]))


def _label_amounts(label: str, nouns) -> list[tuple[str, int, str, str]]:
    """(verb, number, id, the words as written) for each "gain 2 Coins" in a label."""
    out = []
    for match in _PHRASE.finditer(label):
        rest = match.group(3).lower()
        for words, entry_id in nouns:
            if rest == words or rest.startswith(words + " ") or rest.startswith(words + ","):
                out.append((_VERBS[match.group(1).lower()], int(match.group(2)), entry_id,
                            match.group(0)[:len(match.group(1)) + len(match.group(2)) + 2
                                           + len(words)]))
                break
    return out


def _effect_amounts(tree: ir.Node, constants: dict[str, int]) -> dict[tuple[str, str], set]:
    """(verb, id) -> the numbers the effect gains, pays or loses of it (None: not fixed)."""
    found: dict[tuple[str, str], set] = {}
    for node in tree.walk():
        verb = _STATEMENT_VERBS.get(type(node))
        if verb is None:
            continue
        for amount in node.amounts:
            if not isinstance(amount.target, ir.Name):
                continue
            count = amount.count
            if isinstance(count, ir.Num):
                number = count.value
            elif isinstance(count, ir.Name) and count.id in constants:
                number = constants[count.id]
            else:
                number = None
            found.setdefault((verb, amount.target.id), set()).add(number)
    return found


def _abilities(pack: Pack):
    for card in pack.cards.values():
        for side in (card.front, card.back):
            if side is not None:
                for ability in side.abilities:
                    yield card, ability


def _optional_effect(ability: AbilityDef) -> bool:
    effect = ability.effect.tree if ability.effect is not None else None
    while isinstance(effect, ir.Seq) and len(effect.items) == 1:
        effect = effect.items[0]
    return isinstance(effect, (ir.May, ir.Paid)) or (
        isinstance(effect, ir.ChooseItem) and effect.optional)


def check_labels(pack: Pack) -> list[Diagnostic]:
    """W701 for every ability whose label and effect disagree."""
    diags: list[Diagnostic] = []
    with wording_of(pack):
        nouns = _nouns(pack)
        for card, ability in _abilities(pack):
            if not ability.label or ability.effect is None or ability.effect.tree is None:
                continue
            where = ability.label_loc or ability.loc
            name = card.name or humanise(card.id)
            says_may = bool(_MAY.search(ability.label))
            chosen = ability.timing == "activated" or (
                ability.timing == "trigger" and ability.once_per_round)
            if not chosen:
                if says_may and not ability_is_optional(ability):
                    diags.append(diagnostic(
                        "W701", where, f"'{name}': the label says 'may', but the ability "
                        "happens on its own", "write `may ...` in the effect, or drop 'may' "
                        "from the label"))
                elif not says_may and _optional_effect(ability):
                    diags.append(diagnostic(
                        "W701", where, f"'{name}': the effect is optional, but the label reads "
                        "as if it always happens", "say 'may' in the label"))
            amounts = _effect_amounts(ability.effect.tree, pack.constants)
            for verb, number, entry_id, words in _label_amounts(ability.label, nouns):
                numbers = amounts.get((verb, entry_id))
                if not numbers or None in numbers or number in numbers:
                    continue
                does = " or ".join(str(n) for n in sorted(numbers))
                many = numbers != {1}
                diags.append(diagnostic(
                    "W701", where, f"'{name}': the label says '{words}', but the effect "
                    f"{verb}s {does} {display_name(entry_id, many=many)}",
                    "make the label and the effect say the same amount"))
    return diags
