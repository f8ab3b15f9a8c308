"""Every statement of the effect language, implemented once, and the code generated from them.

Each op of ``rulewright/language.py`` has exactly one template here, registered with
:func:`statement`: ``run`` writes what the node does (``runtime/generate.py`` explains the
calling convention); an asking op also has ``resume`` (what the chosen option does), and an op
whose feasibility depends on the state has ``feasible``. The templates are the only
implementation of each statement: the agenda machine runs the functions generated from them,
whether a node was reached through a frame or written inline into its parent's function. A
missing, doubled or unknown template fails when this package is imported.

:class:`NodeCode` holds one ruleset's generated functions, made the first time each is needed.
"""

from __future__ import annotations

from typing import Callable

from ...language import INTERNAL_STEPS, OPS
from .. import exprs
from ..analysis import CHECKED
from ..generate import FEASIBLE_DEPTH, Writer, source_of
from .registry import HELPERS, INTERNAL, TEMPLATES, Internal, Template, helper, internal, statement

__all__ = ["statement", "internal", "helper", "Template", "Internal", "TEMPLATES", "INTERNAL",
           "NodeCode", "HELPERS"]


from . import choices, components, control, events, resources  # noqa: E402,F401  (they register)
from . import attachments, leaving, pools, requirements  # noqa: E402,F401  (they register)
from . import dice_sets, seats  # noqa: E402,F401  (they register)


def _check_templates() -> None:
    problems = [f"statement {op!r} has no template" for op in OPS if op not in TEMPLATES]
    problems += [f"internal step {name!r} has no implementation" for name in INTERNAL_STEPS
                 if name not in INTERNAL]
    for op, template in TEMPLATES.items():
        if OPS[op].asks and template.resume_fn is None:
            problems.append(f"asking statement {op!r} has no resume")
        if not OPS[op].asks and template.resume_fn is not None:
            problems.append(f"statement {op!r} never asks but has a resume")
        if (op in CHECKED) != (template.feasible_fn is not None):
            problems.append(f"statement {op!r}: a feasible template exactly when its "
                            f"feasibility is checked at run time (runtime/analysis.py)")
    if problems:
        raise ImportError("; ".join(problems))


_check_templates()

_CODE_CACHE: dict[str, object] = {}
_CODE_CACHE_SIZE = 20_000


class NodeCode:
    """One ruleset's generated functions by node: ``run[nid]``, ``resume[nid]``,
    ``feasible[nid]``; each is written and compiled the first time it is called."""

    def __init__(self, rules):
        self.rules = rules
        count = len(rules.nodes)
        self.run: list[Callable] = [self._stub("run", nid) for nid in range(count)]
        self.resume: list[Callable] = [self._stub("resume", nid) for nid in range(count)]
        self.feasible: list[Callable] = [self._stub("feasible", nid) for nid in range(count)]
        self.sources: dict[tuple[str, int], str] = {}
        self.line_nodes: dict[str, list[int]] = {}
        """Per generated code's file name: the node each of its lines comes from."""

    def template(self, op: str) -> Template:
        """The template of statement ``op``."""
        return TEMPLATES[op]

    def _stub(self, kind: str, nid: int) -> Callable:
        def first_call(*args):
            fn = self.generate(kind, nid)
            getattr(self, kind)[nid] = fn
            return fn(*args)
        first_call.__name__ = f"generate_{kind}_{nid}"
        return first_call

    def generate(self, kind: str, nid: int) -> Callable:
        """Write, compile and return node ``nid``'s ``kind`` function."""
        node = self.rules.nodes[nid]
        template = TEMPLATES[node["op"]]
        w = Writer(self, nid)
        if kind == "run":
            template.run(w, node, nid)
            source = source_of(w, f"def run_node_{nid}(rt, env, aux):", "return False")
        elif kind == "resume":
            if template.resume_fn is None:
                raise exprs.RuleError(f"node {nid} ({node['op']}) asked nothing to resume")
            template.resume_fn(w, node, nid)
            source = source_of(w, f"def resume_node_{nid}(rt, env, aux, value):",
                               "return False")
        else:
            w.checking = True
            if template.feasible_fn is None or self.rules.analysis.always_feasible[nid]:
                w.line("return True")
            else:
                with w.block(f"if depth > {FEASIBLE_DEPTH}:"):
                    w.line("return True")
                template.feasible_fn(w, node, nid)
            source = source_of(w, f"def feasible_node_{nid}(rt, env, depth):", None)
        filename = f"<rule node {nid} {kind}>"
        code = _CODE_CACHE.get(filename + source)
        if code is None:
            if len(_CODE_CACHE) >= _CODE_CACHE_SIZE:
                _CODE_CACHE.clear()
            code = _CODE_CACHE[filename + source] = compile(source, filename, "exec")
        namespace = dict(HELPERS)
        namespace.update(w.gen.constants)
        namespace.update(w.names)
        namespace.update({"_run": self.run, "_resume": self.resume,
                          "_feasible": self.feasible})
        exec(code, namespace)
        fn = namespace[f"{kind}_node_{nid}"]
        self.sources[(kind, nid)] = source
        self.line_nodes[filename] = [nid, nid] + w.line_nodes
        return fn

    def dump(self) -> str:
        """The source of every function generated so far, by node."""
        return "\n".join(f"# node {nid} ({kind})\n{src}"
                         for (kind, nid), src in sorted(self.sources.items(),
                                                        key=lambda kv: (kv[0][1], kv[0][0])))
