"""Which player counts a compiled ruleset plays, in words: the pack's own range and what its
variants add, for the message a person gets when they ask for another count."""

from __future__ import annotations

__all__ = ["player_count_problem"]


def _counts(pair) -> str:
    return f"{pair[0]}" if pair[0] == pair[1] else f"{pair[0]}-{pair[1]}"


def player_count_problem(compiled: dict, players: int, variant: str | None) -> str | None:
    """A sentence saying which player counts the pack and its variants support, when
    ``players`` is not one of them (None when it is, or when ``variant`` is unknown: the
    game's own message names the known variants)."""
    pack = compiled.get("pack") or {}
    low, high = pack.get("players", [1, 99])
    variants = compiled.get("variants") or {}
    name = pack.get("id", "this pack")
    if variant is not None:
        if variant not in variants:
            return None
        pair = variants[variant]["players"]
        if pair[0] <= players <= pair[1]:
            return None
        return f"{name} in variant {variant} is for {_counts(pair)} players, not {players}"
    fits = low <= players <= high or any(
        v["auto"] and v["players"][0] <= players <= v["players"][1] for v in variants.values())
    if fits:
        return None
    by_count: dict[str, list[str]] = {}
    for vid, v in sorted(variants.items()):
        pair = tuple(v["players"])
        if not (low <= pair[0] and pair[1] <= high):
            by_count.setdefault(_counts(pair), []).append(vid)
    text = f"{name} is for {_counts((low, high))} players, not {players}"
    if by_count:
        text += "; with a variant: " + ", ".join(
            f"{count} ({', '.join(vids)})" for count, vids in sorted(
                by_count.items(), key=lambda item: int(item[0].split("-")[0])))
    return text
