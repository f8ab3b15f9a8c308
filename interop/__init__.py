"""rulewright packs in other people's game libraries: OpenSpiel, PettingZoo and Gymnasium
(extra ``rl``).

``import rulewright.interop.openspiel`` registers every pack as the OpenSpiel game
``python_rulewright``; ``rulewright.interop.pettingzoo.env(pack, players)`` makes a PettingZoo
AEC environment and ``rulewright.interop.gymnasium.env(pack, players, seat)`` a Gymnasium
environment of one seat, rulewright's agents playing the others. All stand on the runtime's
public State API alone: the action numbering (:mod:`.action_ids`) and the observation tensor
(:mod:`.observation`) are derived from the compiled ruleset, so every pack gets them with no
code of its own. docs/interop.md explains the layout, the ids and how chance is handled.
"""

from rulewright.extras import install_hint

__all__ = ["without_extra"]


def without_extra(missing: ModuleNotFoundError, adapter: str) -> ModuleNotFoundError:
    """The error to raise when ``adapter`` (a module name) is imported without the ``rl``
    extra: one line naming the missing library and how to install it."""
    return ModuleNotFoundError(f"{adapter} needs {missing.name}, which is not installed: "
                               f"{install_hint('rl')}", name=missing.name)
