"""Writing the rules' node code: what the writer decides about the Python it writes."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rulewright.runtime.exprs import mentions

# pieces of generated code around a fresh name: other fresh names that contain it, letters
# (one not ASCII: \w is Unicode), digits, operators, quotes and brackets
PIECES = ["_x1", "_x12", "_e1", "_ex1", "a", "é", "1", "_", " ", ".", "(", ")", "[", "'", ":="]


@settings(max_examples=400, deadline=None)
@given(name=st.sampled_from(["_x1", "_e1", "_x12"]),
       source=st.lists(st.sampled_from(PIECES), max_size=10).map("".join))
def test_a_fresh_name_is_found_where_it_stands_as_a_word(name, source):
    # the writer drops a binding no later line mentions: it must find each use of the name,
    # and no name that merely contains it (``_x1`` in ``_x12``), as \b<name>\b would
    assert mentions(name, source) == (re.search(rf"\b{name}\b", source) is not None)


def test_a_longer_name_or_an_attribute_is_not_a_mention():
    assert mentions("_x1", "rt.steps += _x1")
    assert mentions("_x1", "_x1")
    assert not mentions("_x1", "_x12 + 1")
    assert not mentions("_x1", "a_x1")
    assert not mentions("_x1", "é_x1")
    assert mentions("_x1", "f(_x1)[0]")
