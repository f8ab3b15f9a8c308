"""Graph analyses: trigger loops (E501, also through procedure parameters), unreachable
definitions (W501), unbalanced resources (W502, W503), cards that never enter play (W504) and
definitions nothing reads (W505) — and silence on a finished pack."""

from __future__ import annotations

from test_graph import (ability, card, gain, ir, loc, local, pay, procedure, res, sensible_pack,
                        text, trigger, you)

from rulewright.compiler.analyses import analyse
from rulewright.compiler.graph import build_graph
from rulewright.compiler.model import EffectText, ResourceDef, TrackDef, VariantDef, ZoneDef


def diagnose(pack):
    """Every graph diagnostic of a pack."""
    return analyse(pack, build_graph(pack))


def codes(pack) -> list[tuple[str, str]]:
    """(code, message) of every diagnostic."""
    return [(d.code, d.message) for d in diagnose(pack)]


def with_shard_loop(golem_once: bool = False, chime_once: bool = False):
    """The sensible pack plus a shard resource and two cards that feed each other:
    Golem gains coin when you gain shard, Chime gains shard when you gain coin."""
    pack = sensible_pack()
    pack.resources["shard"] = ResourceDef("shard", "rulebook", loc())
    pack.procedures["buy_artifact"].effect = text(ir.Seq((
        pack.procedures["buy_artifact"].effect.tree, pay(1, res("shard")))))
    pack.cards["stone_golem"] = card("stone_golem", "market", "Golem", line=20, abilities=[
        ability("shard_coin", gain(1, res("coin")), when=trigger("gain", "shard", line=22),
                once_per_round=golem_once)])
    pack.cards["chime"] = card("chime", "market", "Chime", line=30, abilities=[
        ability("coin_shard", gain(1, res("shard")), when=trigger("gain", "coin", line=32),
                once_per_round=chime_once)])
    return pack


# ------------------------------------------------------------------ no false positives


def test_a_sensible_pack_gets_no_diagnostics():
    assert diagnose(sensible_pack()) == []


def test_a_resource_only_read_in_the_score_is_used():
    pack = sensible_pack()
    pack.procedures["resolve_die"].effect = text(ir.Seq((
        pack.procedures["resolve_die"].effect.tree, gain(1, res("favor")))))
    pack.cards["golem"].front.abilities = []  # favor is no longer spent anywhere
    pack.flow.score = text(ir.Binary("+", you("prestige"), you("favor")), grammar="expr")
    assert codes(pack) == []


def test_a_resource_with_a_starting_value_may_only_be_spent():
    pack = sensible_pack()
    pack.resources["ration"] = ResourceDef("ration", "rulebook", loc(), start=3)
    pack.procedures["resolve_die"].effect = text(ir.Seq((
        pack.procedures["resolve_die"].effect.tree, pay(1, res("ration")))))
    assert codes(pack) == []


def test_reachability_is_not_judged_when_some_text_failed_to_parse():
    pack = sensible_pack()
    pack.flow.main = EffectText("setup(;", loc(), tree=None)
    assert diagnose(pack) == []


# ------------------------------------------------------------------ E501 trigger loops


def test_a_trigger_loop_is_an_error_naming_its_path():
    (found,) = [d for d in diagnose(with_shard_loop()) if d.code == "E501"]
    assert found.severity == "error"
    assert found.message == ("trigger loop: Chime 'when gain coin' → gain shard → "
                             "Golem 'when gain shard' → gain coin → Chime")
    assert (found.path, found.line) == ("content/test/cards.yaml", 32)  # Chime's `when:`
    assert "once_per_round" in found.hint


def test_a_once_per_round_ability_breaks_the_loop():
    assert [d for d in diagnose(with_shard_loop(golem_once=True)) if d.code == "E501"] == []
    assert [d for d in diagnose(with_shard_loop(chime_once=True)) if d.code == "E501"] == []


def test_a_loop_through_a_procedure_and_an_emitted_event_is_found_once():
    pack = sensible_pack()
    pack.procedures["echo"] = procedure("echo", ir.Emit("resolved", ()))
    pack.cards["seer"].front.abilities[0] = ability(
        "foresight", ir.Seq((ir.Invoke("echo", ()), ir.Invoke("echo", ()))),
        when=trigger("resolved"))
    (found,) = [d for d in diagnose(pack) if d.code == "E501"]
    assert found.message == ("trigger loop: Seer 'when resolved' → echo → resolved → Seer")


def test_a_loop_only_through_a_variable_target_is_not_an_error():
    pack = with_shard_loop()
    golem = pack.cards["stone_golem"].front.abilities[0]
    golem.effect = text(ir.ChooseItem("r", ir.ListOf((res("coin"),)),
                                      gain(1, ir.Name("r", kind="local"))))
    assert [d for d in diagnose(pack) if d.code == "E501"] == []


def test_several_loops_are_reported_in_a_stable_order():
    pack = with_shard_loop()
    pack.cards["bell"] = card("bell", "market", "Bell", abilities=[
        ability("ring", gain(1, res("shard")), when=trigger("gain", "coin"))])
    messages = [d.message for d in diagnose(pack) if d.code == "E501"]
    assert messages == [
        "trigger loop: Bell 'when gain coin' → gain shard → Golem 'when gain shard' → "
        "gain coin → Bell",
        "trigger loop: Chime 'when gain coin' → gain shard → Golem 'when gain shard' → "
        "gain coin → Chime"]


# ------------------------------------------------------------------ W501 unreachable


def test_an_unreachable_procedure_is_warned_at_its_definition():
    pack = sensible_pack()
    pack.procedures["orphan"] = procedure("orphan", gain(1, res("coin")), line=40)
    (found,) = diagnose(pack)
    assert (found.code, found.severity, found.path, found.line) == \
        ("W501", "warning", "content/test/procedures.yaml", 40)
    assert "procedure 'orphan' is never used" in found.message


def test_an_unused_space_and_a_never_run_card_effect_are_warned():
    pack = sensible_pack()
    pack.procedures["play_round"].effect = text(ir.UseAbilities())
    pack.cards["golem"].front.effects["setup"] = text(gain(1, res("coin")))
    found = codes(pack)
    assert ("W501", "space 'basic_1' is never used: nothing reachable runs a space's effect, "
                    "places on it or names it") in found
    assert ("W501", "effect 'setup' of Golem is never run: nothing reachable runs "
                    "`run c.setup`") in found


def test_a_trigger_nothing_announces_is_warned():
    pack = sensible_pack()
    pack.cards["seer"].front.abilities.append(
        ability("omen", gain(1, res("coin")), when=trigger("eclipse")))
    assert codes(pack) == [("W501", "ability 'omen' of Seer can never fire: nothing reachable "
                                    "announces 'eclipse'")]


# ------------------------------------------------------------------ W502 / W503 balance


def test_a_resource_gained_but_never_spent_or_read_is_warned():
    pack = sensible_pack()
    pack.resources["shard"] = ResourceDef("shard", "rulebook", loc(50))
    pack.spaces["basic_1"].effect = text(gain(1, res("shard")))
    (found,) = diagnose(pack)
    assert (found.code, found.line) == ("W502", 50)
    assert found.message == "resource 'shard' is gained (by basic_1) but never spent, set or read"


def test_a_resource_spent_but_never_gained_is_warned():
    pack = sensible_pack()
    pack.resources["shard"] = ResourceDef("shard", "rulebook", loc(50))
    pack.cards["golem"].front.abilities.append(
        ability("crush", ir.Paid(pay(2, res("shard")), gain(1, res("prestige")))))
    (found,) = diagnose(pack)
    assert found.code == "W503"
    assert found.message == ("resource 'shard' is spent (by Golem 'crush') but never gained "
                             "and starts at 0")


def test_a_resource_listened_for_counts_as_used():
    pack = sensible_pack()
    pack.resources["shard"] = ResourceDef("shard", "rulebook", loc())
    pack.spaces["basic_1"].effect = text(gain(1, res("shard")))
    pack.cards["seer"].front.abilities.append(
        ability("glint", gain(1, res("coin")), when=trigger("gain", "shard"), once_per_round=True))
    assert codes(pack) == []


# ------------------------------------------------------------------ W504 unused cards


def test_a_card_whose_deck_is_never_used_is_warned():
    pack = sensible_pack()
    pack.zones["vault"] = ZoneDef("vault", "rulebook", loc())
    pack.cards["relic"] = card("relic", "vault", "Ancient Relic", line=60)
    (found,) = diagnose(pack)
    assert (found.code, found.line) == ("W504", 60)
    assert found.message == ("card 'Ancient Relic' can never enter play: nothing reachable "
                             "uses its deck 'vault'")
    pack.reports = ["vault"]
    assert diagnose(pack) == []


def test_the_parts_of_an_unused_card_are_not_warned_again():
    pack = sensible_pack()
    pack.zones["vault"] = ZoneDef("vault", "rulebook", loc())
    pack.cards["relic"] = card("relic", "vault", effects={"setup": text(gain(1, res("coin")))},
                               abilities=[ability("omen", gain(1, res("coin")),
                                                  when=trigger("eclipse"))])
    assert [c for c, _ in codes(pack)] == ["W504"]


# ------------------------------------------------------------------ E501 through parameters


def with_give(back: str | None):
    """Lantern gives points when you gain coin, through ``give(r): gain 1 r``; Compass gives
    ``back`` (a resource name) when you gain points, or nothing."""
    pack = sensible_pack()
    pack.resources["points"] = ResourceDef("points", "rulebook", loc())
    pack.flow.score = text(you("points"), grammar="expr")
    pack.procedures["give"] = procedure("give", gain(1, local("r")), params=["r"], line=40)
    pack.procedures["reward"] = procedure("reward", ir.Invoke("give", (local("what"),)),
                                          params=["what"], line=44)
    pack.cards["lantern"] = card("lantern", "market", "Lantern", line=50, abilities=[
        ability("shine", ir.Invoke("reward", (res("points"),)), when=trigger("gain", "coin",
                                                                             line=52))])
    if back is not None:
        pack.cards["compass"] = card("compass", "market", "Compass", line=60, abilities=[
            ability("guide", ir.Invoke("give", (res(back),)), when=trigger("gain", "points",
                                                                           line=62))])
    return pack


def test_a_loop_through_a_procedure_parameter_is_an_error():
    """`when gain coin: give(points)`, `when gain points: give(coin)`, `give(r): gain 1 r`:
    each call gains what it passes, so the two triggers fire each other forever (here also
    through a second procedure that passes its parameter on)."""
    loops = [(c, m) for c, m in codes(with_give("coin")) if c == "E501"]
    assert loops == [("E501", "trigger loop: Compass 'when gain points' → gain coin → Lantern "
                              "'when gain coin' → gain points → Compass")]


def test_a_procedure_parameter_that_closes_no_loop_is_no_error():
    assert not [c for c, _ in codes(with_give("favor")) if c == "E501"]
    assert not [c for c, _ in codes(with_give(None)) if c == "E501"]


# ------------------------------------------------------------------ W505 unused definitions


def test_a_resource_track_zone_or_constant_nothing_reads_is_warned():
    pack = sensible_pack()
    pack.resources["gems"] = ResourceDef("gems", "rulebook", loc(70))
    pack.tracks["fame"] = TrackDef("fame", "rulebook", loc(71), length=5)
    pack.zones["vault"] = ZoneDef("vault", "rulebook", loc(72))
    pack.constants["hand_size"] = 5
    pack.constant_locs["hand_size"] = loc(73, "content/test/rules.yaml")
    assert sorted((d.line, d.message) for d in diagnose(pack)) == [
        (70, "resource 'gems' is never used: no effect gains, pays, sets or reads it"),
        (71, "track 'fame' is never used: no effect gains, pays, sets or reads it"),
        (72, "zone 'vault' is never used: no effect draws from, moves to or names it"),
        (73, "constant 'hand_size' is never read: no effect or resource cap names it")]


def test_what_a_cap_a_report_or_a_printed_prop_names_is_used():
    pack = sensible_pack()
    pack.constants["purse"] = 12
    pack.constant_locs["purse"] = loc(73, "content/test/rules.yaml")
    pack.resources["coin"].max = "purse"
    pack.zones["vault"] = ZoneDef("vault", "rulebook", loc(72))
    pack.reports = ["vault"]
    pack.zones["graveyard"] = ZoneDef("graveyard", "rulebook", loc(74))
    pack.cards["golem"].front.props["rests_in"] = "graveyard"
    assert diagnose(pack) == []


def test_a_constant_only_variants_change_is_still_unread():
    pack = sensible_pack()
    pack.constants["ghosts"] = 0
    pack.constant_locs["ghosts"] = loc(75, "content/test/rules.yaml")
    pack.variants["duel"] = VariantDef("duel", "rulebook", loc(), constants={"ghosts": 1})
    (found,) = diagnose(pack)
    assert found.message == ("constant 'ghosts' is never read: no effect or resource cap names "
                             "it (variants or modifiers change it, to no effect)")
