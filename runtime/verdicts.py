"""Verdicts in the designer's words, from a balance summary: what differs, by how much, how sure.

``verdicts(summary, names, restricted)`` turns the corrected marks of ``stats.summarise`` (and
of restricted play) into sentences such as "Gilded Envoy wins 64% (53–74%) against a fair 29%:
too strong", biggest effect first; says "no significant difference found in N games" when
nothing is marked; explains the fair share and the correction used; and says what difference
these games could detect and how many games a smaller one needs.
"""

from __future__ import annotations

from rulewright.runtime.definitions import display
from rulewright.runtime.stats import rate

__all__ = ["percent", "seat_note", "span", "verdicts"]


def percent(x: float) -> str:
    """A rate as a whole percentage: ``64%``."""
    return f"{100 * x:.0f}%"


def span(row: dict) -> str:
    """A rate with its interval: ``64% (53–74%)``."""
    return f"{percent(row['rate'])} ({100 * row['low']:.0f}–{percent(row['high'])})"


def _points(x: float) -> str:
    return f"{100 * x:+.0f} points"


def _baseline(summary: dict) -> str:
    share, players = summary["fair_share"], summary["players"]
    if players == 1:
        return (f"Solo: the player wins {span(summary['win_rate_by_seat'][0])} of {summary['completed']} "
                f"games; everything below is judged against that average.")
    text = (f"Fair share {100 * share:.1f}%: the games had {summary['mean_winners']:.2f} winners on average "
            f"(ties share the victory), so an equal seat wins {summary['mean_winners']:.2f} / {players}.")
    nobody = summary.get("no_winner", 0)
    if nobody:
        text += (f" Nobody won {nobody} of the {summary['completed']} games: "
                 f"{span(rate(nobody, summary['completed']))}.")
    return text


def _judgement(kind: str, above: bool, solo: bool) -> str:
    if solo:
        return "stronger than average" if above else "weaker than average"
    if kind == "seat":
        return "an advantage" if above else "a disadvantage"
    if kind == "agent":
        return "better play wins more" if above else "weaker play wins less"
    return "too strong" if above else "too weak"


def _rate_finding(kind: str, subject: str, row: dict, share: float, solo: bool) -> dict:
    against = f"the average {percent(share)}" if solo else f"a fair {percent(share)}"
    above = row["mark"] == "above"
    return {
        "kind": kind,
        "subject": subject,
        "effect": row["rate"] - share,
        "text": f"{subject} wins {span(row)} against {against}: {_judgement(kind, above, solo)}.",
    }


def _usage_finding(stat: str, name: str, row: dict) -> dict:
    d = row["difference"]
    used, unused = row["win_rate_used"], row["win_rate_unused"]
    text = (f"{name} ({stat}): seats that did win {span(used)}, the others {percent(unused['rate'])}, "
            f"{_points(d['value'])} ({100 * d['low']:+.0f} to {100 * d['high']:+.0f}): ")
    if row["mark"] == "above":
        text += f"too strong, or what winners do anyway (--restrict {row['component']} tells which)."
    else:
        text += "too weak, or what losing seats are left with."
    return {"kind": "usage", "subject": f"{name} ({stat})", "effect": d["value"], "text": text}


def _restricted_finding(name: str, row: dict) -> dict:
    d = row["difference"]
    share = row["fair_share"]
    if row["mark"] == "below":
        meaning = f"{name} matters"
    else:
        meaning = f"{name} is a trap: seats do better without it"
    return {
        "kind": "restricted",
        "subject": name,
        "effect": row["effect"],
        "text": (f"Never taking {name}, a seat wins {span(row['restricted'])} against a fair {percent(share)} "
                 f"(others in those games {percent(row['others']['rate'])}; {_points(d['value'])}): {meaning}."),
    }


def verdicts(summary: dict, names: dict[str, str] | None = None, restricted: dict | None = None) -> dict:
    """The verdicts of a summary: ``{baseline, findings, nothing, correction, power}``.

    ``findings`` are the marked rows as sentences (each ``{kind, subject, effect, text}``),
    largest effect first; ``nothing`` is the sentence for a run without findings (else None);
    ``restricted`` is ``restrict.summarise_restricted``'s table, if restricted play ran.
    """
    share = summary["fair_share"]
    solo = summary["players"] == 1
    findings = []
    for row in summary["win_rate_by_seat"]:
        if row.get("mark"):
            findings.append(_rate_finding("seat", f"Seat {row['seat']}", row, share, solo))
    for deck, rows in summary["win_rate_by_identity"].items():
        for value, row in rows.items():
            if row.get("mark"):
                findings.append(_rate_finding("identity", display(value, names), row, share, solo))
    for agent, row in summary["win_rate_by_agent"].items():
        if row.get("mark"):
            findings.append(_rate_finding("agent", f"The {display(agent, names)} agent", row, share, solo))
    for stat, rows in summary["usage"].items():
        for row in rows:
            if row.get("mark"):
                findings.append(_usage_finding(stat, display(row["component"], names), row))
    for row in (restricted or {}).get("rows", []):
        if row.get("mark"):
            findings.append(_restricted_finding(display(row["id"], names), row))
    findings.sort(key=lambda f: -abs(f["effect"]))

    correction = summary["correction"]
    correction_text = (
        f"Marks: {correction['name']} correction over {correction['comparisons']} comparisons "
        + ("(at most a 5% chance of any false mark)" if correction["method"] == "holm"
           else "(about 5% of the marks may be false)")
        + (f"; a row needs at least {correction['fewest_games']} games to tell either way."
           if 0.0 < share < 1.0 else "; every game ended the same way, so no row can differ from it.")
    )
    nothing = None
    if not findings and summary["completed"]:
        nothing = f"No significant difference found in {summary['completed']} games."
    return {
        "baseline": _baseline(summary),
        "findings": findings,
        "nothing": nothing,
        "correction": correction_text,
        "power": _power_sentences(summary),
        "seats": seat_note(summary),
    }


def seat_note(summary: dict) -> str | None:
    """The line under the seat table when some seat's 95% interval lies wholly above or below
    the fair share (uncorrected, unlike the marks: it says where to look, not what is proven);
    None when none does, or in a solo game (one seat is its own baseline)."""
    share = summary["fair_share"]
    if summary["players"] == 1 or not summary["completed"]:
        return None
    outside = [r for r in summary["win_rate_by_seat"]
               if r["games"] and (r["low"] > share or r["high"] < share)]
    if not outside:
        return None
    said = "; ".join(f"seat {r['seat']} wins {span(r)}, wholly {'above' if r['low'] > share else 'below'}"
                     for r in outside)
    by_chance = 1 - 0.95 ** summary["players"]
    return (f"Seats look unequal: {said} the fair {percent(share)} (95% intervals). "
            "Agents take every seat equally often, so look at what the rules tie to the seat itself: "
            "who plays or chooses first or last, set-up or tie-breaks by seat, and whether the order "
            "of play follows seat numbers. The interval is not corrected: with "
            f"{summary['players']} seats, about {percent(by_chance)} of runs show one seat like this by "
            "chance alone (the verdicts above are corrected).")


def _power_sentences(summary: dict) -> list[str]:
    power = summary["power"]
    planned = f"±{100 * power['planned_difference']:.0f} points"
    out = []
    for group in power["groups"]:
        what = "a seat" if group["group"] == "seat" else f"each {group['group']}"
        per_row = f"{group['games_per_row']:.0f} games" + ("" if group["group"] == "seat" else " each")
        if group["detectable"] is None:
            found = f"{per_row} are too few to find even the largest difference"
        else:
            found = f"with {per_row}, {what} must be ±{100 * group['detectable']:.0f} points off the fair share to be found"
        need = (f"; {planned} needs about {group['games_needed']:,} games" if group["games_needed"] else "")
        sentence = f"{found} ({100 * power['power']:.0f}% power){need}."
        out.append(sentence[0].upper() + sentence[1:])
    return out
