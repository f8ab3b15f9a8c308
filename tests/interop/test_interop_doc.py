"""docs/interop.md cannot rot: each Python example runs, from the repository's root, and its
figures (ids and tensor sizes) are those of the shipped packs."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (pip install -e '.[rl]')")

from interop_kit import ROOT  # noqa: E402

from rulewright.interop import openspiel  # noqa: E402

DOC = ROOT / "docs" / "interop.md"
EXAMPLE = re.compile(r"```python\n(.*?)```", re.S)


def examples() -> list[str]:
    return EXAMPLE.findall(DOC.read_text(encoding="utf-8"))


def test_the_page_has_an_example_for_each_library():
    text = "\n".join(examples())
    for name in ("pyspiel.load_game", "mcts.MCTSBot", "pettingzoo.env", "gymnasium.env",
                 "layout.sections"):
        assert name in text, name


@pytest.mark.parametrize("index", range(len(examples())))
def test_each_example_runs(index, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    exec(compile(examples()[index], f"{DOC.name} example {index + 1}", "exec"), {})
    assert capsys.readouterr().out  # every example prints what it shows


def test_the_figures_the_page_quotes_are_the_packs():
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    dice_forge = openspiel.load_game(str(ROOT / "content" / "dice_forge"), 2)
    altera = openspiel.load_game(str(ROOT / "content" / "altera"), 3)
    quoted = (f"Dice Forge has {dice_forge.num_distinct_actions()} ids with 2 players, Altera "
              f"{altera.num_distinct_actions()} with 3")
    assert quoted in text
    assert (f"Dice Forge's tensor has {dice_forge.observation_tensor_size():,} numbers with 2 "
            f"players, Altera's {altera.observation_tensor_size():,} with 3") in text
