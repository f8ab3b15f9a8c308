"""Tuning's pieces: ranges, targets and the imbalance a search minimises."""

import pytest

from rulewright.runtime.stats import rate
from rulewright.runtime.tune import imbalance, parse_range, target_names, target_rows


def test_ranges_are_whole_numbers_low_to_high():
    r = parse_range("rune_chime.craft_cost=2..5")
    assert (r.name, r.low, r.high, r.size) == ("rune_chime.craft_cost", 2, 5, 4)
    for bad in ("rounds=5", "rounds=8..5", "rounds=a..b", "=1..2"):
        with pytest.raises(ValueError):
            parse_range(bad)


def test_imbalance_is_the_distance_from_fair_beyond_chance():
    fair = [rate(50, 100), rate(50, 100)]
    assert imbalance(fair, 0.5) == 0.0
    assert imbalance(fair, 0.5, beyond_chance=False) == 0.0
    off = [rate(70, 100), rate(30, 100)]
    # 20 points off each, less the binomial noise 0.7 * 0.3 / 99 on each row
    assert imbalance(off, 0.5) == pytest.approx(100 * (0.04 - 0.21 / 99) ** 0.5)
    assert imbalance(off, 0.5, beyond_chance=False) == pytest.approx(20.0)
    slightly = [rate(52, 100), rate(48, 100)]  # within chance: no imbalance left
    assert imbalance(slightly, 0.5) == 0.0 < imbalance(slightly, 0.5, beyond_chance=False)


def test_targets_are_the_seats_or_an_identity_by_its_plural():
    summary = {"win_rate_by_seat": [{"seat": 0}], "win_rate_by_identity": {"house": {"sun": {"value": "sun"}}}}
    assert target_rows(summary, "fair-seats") == [{"seat": 0}]
    assert target_rows(summary, "fair-houses") == [{"value": "sun"}]
    assert target_rows(summary, "fair-house") == [{"value": "sun"}]
    with pytest.raises(KeyError):
        target_rows(summary, "fair-colours")
    assert target_names(["house"]) == ["fair-seats", "fair-houses"]
