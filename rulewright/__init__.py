"""rulewright: a declarative rules compiler for dice and card board games.

The distribution maps three top-level folders of the checkout onto subpackages:
``compiler/`` is :mod:`rulewright.compiler`, ``runtime/`` is :mod:`rulewright.runtime`
and ``schemas/`` is :mod:`rulewright.schemas` (JSON Schemas shipped as package data).
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
