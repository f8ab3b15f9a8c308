"""The registries the statement modules fill: templates by op, internal agenda steps, and the
helpers generated code may call (``runtime/statements/__init__.py`` checks them when it is
imported)."""

from __future__ import annotations

from typing import Callable

from ...language import INTERNAL_STEPS, OPS
from .. import exprs

class Template:
    """One statement's implementation: ``run``, and ``resume``/``feasible`` where it has them."""

    def __init__(self, op: str, run: Callable):
        self.op = op
        self.run = run
        self.resume_fn: Callable | None = None
        self.feasible_fn: Callable | None = None
        self.__doc__ = run.__doc__

    def resume(self, fn: Callable) -> Callable:
        """Register what the chosen option of this asking statement does."""
        self.resume_fn = fn
        return fn

    def feasible(self, fn: Callable) -> Callable:
        """Register when this statement can be carried out (a ``return`` of a bool)."""
        self.feasible_fn = fn
        return fn


class Internal:
    """An agenda step that is not a node (``rulewright/language.py``'s ``INTERNAL_STEPS``):
    ``step(rt, env, aux) -> stopped`` and, if it can ask, ``resume(rt, env, aux, value)``."""

    def __init__(self, name: str, step: Callable):
        self.name = name
        self.step = step
        self.resume_fn: Callable | None = None

    def resume(self, fn: Callable) -> Callable:
        """Register what the chosen option of this step's decision does."""
        self.resume_fn = fn
        return fn


TEMPLATES: dict[str, Template] = {}
INTERNAL: dict[str, Internal] = {}
HELPERS: dict[str, object] = {}
"""The names generated code may call besides ``rt`` and ``env``: the expression helpers and
each statement module's run-time helpers (registered with :func:`helper`)."""


def statement(op: str) -> Callable[[Callable], Template]:
    """Register ``run(w, node, nid)`` as the template of ``op``."""
    if op not in OPS:
        raise ImportError(f"template for unknown statement {op!r}")
    if op in TEMPLATES:
        raise ImportError(f"statement {op!r} implemented twice")

    def register(run: Callable) -> Template:
        template = TEMPLATES[op] = Template(op, run)
        return template
    return register


def internal(name: str) -> Callable[[Callable], Internal]:
    """Register ``step(rt, env, aux)`` as the agenda step ``name``."""
    if name not in INTERNAL_STEPS or name in INTERNAL:
        raise ImportError(f"internal step {name!r} unknown or implemented twice")

    def register(step: Callable) -> Internal:
        entry = INTERNAL[name] = Internal(name, step)
        return entry
    return register


def helper(fn: Callable) -> Callable:
    """Make ``fn`` callable from generated code as ``_<its name>``."""
    HELPERS["_" + fn.__name__] = fn
    return fn


HELPERS.update(exprs._HELPERS)
HELPERS["_RuleError"] = exprs.RuleError
HELPERS["_ONCE"] = (0,)
