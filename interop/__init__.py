"""rulewright packs in other people's game libraries: OpenSpiel and PettingZoo (extra ``rl``).

``import rulewright.interop.openspiel`` registers every pack as the OpenSpiel game
``python_rulewright``; ``rulewright.interop.pettingzoo.env(pack, players)`` makes a PettingZoo
AEC environment. Both stand on the runtime's public State API alone: the action numbering
(:mod:`.action_ids`) and the observation tensor (:mod:`.observation`) are derived from the
compiled ruleset, so every pack gets them with no code of its own. docs/interop.md explains
the layout, the ids and how chance is handled.
"""
