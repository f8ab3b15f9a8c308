"""What may be written at the cursor: names and keywords in effect text, keys and values in YAML.

Inside an effect string the grammar says what may come next: Lark's interactive parser, fed
the text before the cursor, lists the terminals it accepts, which gives the keywords to offer
and whether a name may stand there. Which names, the resolver says: the text is completed with
a stand-in name at the cursor (followed by the rest of the text, or else by the shortest ending
the grammar allows), parsed and resolved, and the kinds the resolver expects at the stand-in
(resources and tracks after ``gain 1``, zones after ``from``, ...) and the local names in scope
there are offered. After ``x.`` come properties, after ``run x.`` named effects, where a
statement calls, procedures, where an expression calls, functions.

Outside effect text, the file's JSON Schema says which keys a mapping may have and which values
an enum allows, and fields that name definitions (``deck:``, die faces, modifier keys, ...) offer
the pack's names of that kind (the fields the compiler's reference check reads).
"""

from __future__ import annotations

import functools
import os
import re
from collections import deque
from copy import copy
from dataclasses import dataclass
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedInput, UnexpectedToken

from . import ir
from .builtins import BUILTINS
from .describe import summary
from .loader import MANIFEST
from .model import EffectText, Loc
from .names import INTRINSIC_PROPERTIES, KIND_WORDS
from .parser import MAX_LENGTH, EffectSyntaxError, grammar, parse
from .resolve import AMOUNT_KINDS, EffectSite, name_uses
from .schema_check import CONTENT_KINDS, load_schema
from .workspace import PackFile, Snapshot, field_pattern
from .yaml_loader import Document, load_yaml_bytes, normalise_newlines

__all__ = ["Completion", "complete"]

_WORD_BEFORE = re.compile(r"[a-z_][a-z0-9_]*\Z")
_WORD_AFTER = re.compile(r"[a-z0-9_]*")
_KEYWORD = re.compile(r"[a-z][a-z-]*\Z")
_MAX_ENDING = 8  # tokens: the longest ending tried after the stand-in name
_MAX_TRIES = 2000  # tokens fed to the parser looking for that ending


@dataclass(frozen=True)
class Completion:
    """One thing that may be written at the cursor: ``label``, its ``kind`` (a name kind such
    as ``resource``, or ``local``, ``keyword``, ``property``, ``effect``, ``event``, ``builtin``,
    ``key``, ``value``), a one-line ``detail``, the text to insert when it differs from the
    label, and ``rank`` (lower is listed first)."""

    label: str
    kind: str
    detail: str
    insert_text: str = ""
    rank: int = 1


def complete(snapshot: Snapshot | None, path: str, text: str, line: int,
             column: int) -> list[Completion]:
    """What may be written at (line, column) of the buffer ``text`` of file ``path``, using
    the names of ``snapshot`` (the pack's last compile that loaded)."""
    document = _load(text, path)
    if document is not None and snapshot is not None:
        relative = os.path.relpath(os.path.abspath(path), snapshot.root).replace(os.sep, "/")
        buffer = PackFile(relative, os.path.normpath(os.path.abspath(path)), document.text,
                          document, None)
        at = buffer.path_at(line, column) or _scalar_before(buffer, line, column)
        value = document.value(at) if at is not None else None
        if isinstance(value, str):
            site = snapshot.site_at(relative, at)
            if site is None or not _same_entry(snapshot, relative, at, document):
                site = _site_like(snapshot, relative, at, document)
            if site is not None:
                where = _offset_at(document, at, value, line, column)
                return [] if where is None else _complete_effect(snapshot, site, value, *where)
    return _complete_yaml(snapshot, path, text, line, column)


# ---------------------------------------------------------------- effect text


def _scalar_before(buffer: PackFile, line: int, column: int) -> tuple | None:
    """The string the cursor is just after, in the white space YAML leaves out of it: the
    spaces that end a plain scalar on its line, or the indented lines after a block scalar's
    last word (the designer has just typed them)."""
    found = None
    for loc, path in buffer.scalars():
        if (loc.line, loc.column) > (line, column):
            break
        if (loc.end_line, loc.end_column) > (line, column):
            continue
        scalar = buffer.document.scalar(path)
        between = buffer.text_at(Loc(loc.path, loc.end_line, loc.end_column, line, column))
        found = None
        if scalar is None or between.strip():
            continue
        if (scalar.style is None and loc.end_line == line) \
                or (scalar.style in ("|", ">") and column - 1 > scalar.parent_indent):
            found = path
    return found


def _load(text: str, path: str) -> Document | None:
    """The buffer as a document, within the loader's size limit (None if it does not load)."""
    return load_yaml_bytes(text.encode("utf-8", "surrogatepass"), path)[0]


def _entry(document: Document, path: tuple) -> tuple[int, dict | None]:
    """The innermost entry (a mapping with an ``id``) around ``path``, and how deep it is."""
    for cut in range(len(path) - 1, 0, -1):
        try:
            entry = document.value(path[:cut])
        except (KeyError, IndexError, TypeError):
            return cut, None
        if isinstance(entry, dict) and "id" in entry:
            return cut, entry
    return 0, None


def _same_entry(snapshot: Snapshot, relative: str, path: tuple, document: Document) -> bool:
    """Whether ``path`` in the buffer is in the entry it was in when the snapshot was made
    (entries inserted above it move it)."""
    (cut, now), (cut_then, then) = _entry(document, path), \
        _entry(snapshot.files[relative].document, path)
    return cut == cut_then and (now or {}).get("id") == (then or {}).get("id")


def _site_like(snapshot: Snapshot, relative: str, path: tuple,
               document: Document) -> EffectSite | None:
    """For an effect the last compile has not seen (in a new entry): the site of the same
    field of another entry, with the new entry's own procedure parameters."""
    pack_file = snapshot.files.get(relative)
    site = snapshot.site_of_field(pack_file.kind if pack_file else None, field_pattern(path))
    if site is None:
        return None
    bound = site.bound
    _, entry = _entry(document, path)
    if entry is not None and isinstance(entry.get("params"), list):
        bound = frozenset(p for p in entry["params"] if isinstance(p, str))
    text = EffectText(document.value(path), site.text.loc, site.rule)
    return EffectSite(text, site.rule, bound, None, site.role)


def _offset_at(document: Document, path: tuple, value: str, line: int,
               column: int) -> tuple[int, str] | None:
    """Where the cursor is in the loaded string: ``(offset, extra)``, ``extra`` being a space
    when the cursor stands in white space the loaded string has lost (after a plain scalar's
    last word). None when the cursor is not inside the string (on its closing quote), or the
    string is longer than effect text may be."""
    if len(value) > MAX_LENGTH:
        return None
    lines = document.lines
    cursor = lines.index(line - 1, column - 1)
    mapping = document.offset_map(path)
    best_offset, best_index = None, None
    for offset in range(len(value) + 1):
        found_line, found_column = mapping(offset)
        index = lines.index(found_line - 1, found_column - 1)
        if index > cursor:
            break
        best_offset, best_index = offset, index
    if best_offset is None:
        return None
    if best_index == cursor:
        return best_offset, ""
    gap = document.text[best_index:cursor]
    if gap.strip():
        return None
    if best_offset < len(value) and value[best_offset].isspace():
        return best_offset + 1, ""  # in a line break YAML folded into this space
    return best_offset, " "


def _complete_effect(snapshot: Snapshot, site: EffectSite, value: str, offset: int,
                     extra: str) -> list[Completion]:
    prefix = value[:offset] + extra
    rest = "" if extra else value[offset:]
    word = _WORD_BEFORE.search(prefix)
    before = prefix[:word.start()] if word else prefix
    after = rest[_WORD_AFTER.match(rest).end():]
    try:
        cursor = grammar().parse_interactive(before, start=site.rule)
        cursor.exhaust_lexer()
    except UnexpectedInput:
        return []  # the text before the cursor does not parse: nothing sensible to offer
    accepts = cursor.accepts()
    items = _keywords(cursor, accepts, site.rule)
    if "NAME" in accepts:
        items += _names(snapshot, site, cursor, before, after)
    return items


def _keywords(cursor, accepts: set[str], start: str) -> list[Completion]:
    terminals = _terminals()
    out = []
    for name in sorted(accepts):
        terminal = terminals.get(name)
        if terminal is not None and terminal.pattern.type == "str" \
                and _KEYWORD.match(terminal.pattern.value):
            shape = _shape_here(cursor, name, start)
            out.append(Completion(terminal.pattern.value, "keyword",
                                  f"keyword: {shape}" if shape else "keyword", rank=2))
    return out


def _shape_here(cursor, keyword: str, start: str) -> str:
    """The constructs ``keyword`` can begin at the cursor, read out; "" when it begins none
    here (an operator such as ``and``)."""
    fitting = []
    reachable = _reachable_rules(start)
    for origin, leading, shape in _keyword_shapes().get(keyword, ()):
        if origin not in reachable or shape in fitting:
            continue
        trial = cursor.copy(deepcopy_values=False)
        try:
            for name in leading:
                trial.feed_token(Token(name, _samples()[name]))
        except UnexpectedToken:
            continue
        fitting.append(shape)
    return " | ".join(sorted(fitting, key=len)[:2])


@functools.cache
def _reachable_rules(start: str) -> frozenset[str]:
    """The grammar rules text parsed from entry rule ``start`` can contain."""
    expansions: dict[str, list] = {}
    for rule in grammar().rules:
        expansions.setdefault(rule.origin.name, []).append(rule.expansion)
    seen, pending = {start}, [start]
    while pending:
        for expansion in expansions.get(pending.pop(), ()):
            for symbol in expansion:
                if not symbol.is_term and symbol.name not in seen:
                    seen.add(symbol.name)
                    pending.append(symbol.name)
    return frozenset(seen)


@functools.cache
def _terminals() -> dict:
    return {t.name: t for t in grammar().terminals}


_SYMBOL_WORDS = {"NAME": "name", "INT": "number", "STRING": '"text"', "closed": "statement",
                 "open": "statement", "stmt": "statement", "seq": "statements",
                 "option": "statement", "disj": "expr", "conj": "expr", "neg": "expr",
                 "cmp": "expr", "sum": "expr", "product": "expr", "unary": "expr",
                 "postfix": "expr", "atom": "expr", "amounts": "N name, ...",
                 "named_args": "field: expr, ..."}
"""How a grammar symbol reads in a keyword's one-line shape."""


@functools.cache
def _keyword_shapes() -> dict[str, list[tuple[str, tuple[str, ...], str]]]:
    """Keyword terminal -> each grammar rule it starts: the rule's name, the terminals it
    begins with, and the rule read out (``draw expr from expr to expr``), a keyword's
    one-line description."""
    terminals = _terminals()
    shapes: dict[str, list[tuple[str, tuple[str, ...], str]]] = {}
    for rule in grammar().rules:
        expansion = rule.expansion
        if not expansion or not expansion[0].is_term:
            continue
        first = terminals.get(expansion[0].name)
        if first is None or first.pattern.type != "str":
            continue
        words, leading = [], []
        for symbol in expansion:
            terminal = terminals.get(symbol.name) if symbol.is_term else None
            if terminal is not None and terminal.pattern.type == "str":
                words.append(terminal.pattern.value)
            elif symbol.name.startswith("__"):
                words.append("...")
            else:
                words.append(_SYMBOL_WORDS.get(symbol.name, symbol.name.lstrip("_")))
            if symbol.is_term and len(leading) == len(words) - 1:
                leading.append(symbol.name)
        shapes.setdefault(expansion[0].name, []).append(
            (rule.origin.name, tuple(leading), " ".join(words)))
    return shapes


def _names(snapshot: Snapshot, site: EffectSite, cursor, before: str,
           after: str) -> list[Completion]:
    """The names that may stand at the cursor, by what the resolver expects there: the text
    is read with a stand-in name at the cursor, followed by the rest of the text or else by
    the shortest ending the grammar allows, as a call (``name(...)``) and as a name."""
    probe = "rulewright_cursor"
    while probe in before or probe in after:
        probe += "_"
    role, items = _reading(snapshot, site, before + probe + after, probe)
    if role is not None:
        return items
    called = _ending(cursor, probe, ("LPAR",))
    call_role, calls = _reading(snapshot, site, " ".join([before + probe, *called]), probe) \
        if called is not None else (None, [])
    if call_role == "procedure":
        return calls  # where a statement begins, a name is a procedure call
    ending = _ending(cursor, probe, ())
    _, names = _reading(snapshot, site, " ".join([before + probe, *ending]), probe) \
        if ending is not None else (None, [])
    return names + calls


def _reading(snapshot: Snapshot, site: EffectSite, text: str,
             probe: str) -> tuple[str | None, list[Completion]]:
    """The role of ``probe`` in ``text`` (see :func:`_role`; None when the text does not
    parse or the stand-in is not a name read there) and what may stand in its place."""
    try:
        tree = parse(text, site.rule)
    except EffectSyntaxError:
        return None, []
    role = _role(tree, probe)
    if role is None:
        return None, []
    if role != "name":
        return role, _names_for_role(snapshot, role)
    probe_site = EffectSite(EffectText(text, site.text.loc, site.rule, tree=tree),
                            site.rule, site.bound, site.ability, site.role)
    for use in name_uses(snapshot.table, probe_site):
        if use.id == probe:
            return role, _names_in_scope(snapshot, use.scope - {probe}, use.kinds)
    return None, []


@functools.cache
def _samples() -> dict[str, str]:
    """A text for each terminal, to write an ending with."""
    out = {"NAME": "rulewright_filler", "INT": "1", "STRING": '"x"'}
    for name, terminal in _terminals().items():
        if terminal.pattern.type == "str":
            out.setdefault(name, terminal.pattern.value)
    return out


@functools.cache
def _continuations() -> frozenset[str]:
    """The terminals that extend a finished expression (operators, ``.``, ``(``, ``in``):
    an ending never needs them to close what is open, so the search leaves them out."""
    cursor = grammar().parse_interactive("x", start="expr")
    cursor.exhaust_lexer()
    return frozenset(cursor.accepts() - {"$END"})


def _ending(cursor, probe: str, first: tuple[str, ...]) -> list[str] | None:
    """The fewest tokens, starting with ``first``, that complete the parse after ``probe``:
    a breadth-first search over the parser's states (nothing is built) that leaves out the
    terminals that only extend an expression."""
    start = cursor.copy(deepcopy_values=False)
    conf = copy(start.parser_state.parse_conf)
    conf.callbacks = {}
    start.parser_state.parse_conf = conf
    samples = _samples()
    try:
        start.feed_token(Token("NAME", probe))
        for name in first:
            start.feed_token(Token(name, samples[name]))
    except UnexpectedToken:
        return None
    avoid = _continuations()
    queue = deque([(start, tuple(samples[name] for name in first))])
    seen = {tuple(start.parser_state.state_stack)}
    tried = 0
    while queue and tried < _MAX_TRIES:
        state, tokens = queue.popleft()
        choices = state.choices()
        if "$END" in choices:
            try:
                state.copy(deepcopy_values=False).feed_token(Token("$END", ""))
                return list(tokens)
            except UnexpectedToken:
                pass
        if len(tokens) >= _MAX_ENDING:
            continue
        for name in sorted(choices):
            if name in avoid or name not in samples:
                continue
            step = state.copy(deepcopy_values=False)
            tried += 1
            try:
                step.feed_token(Token(name, samples[name]))
            except UnexpectedToken:
                continue
            key = tuple(step.parser_state.state_stack)
            if key not in seen:
                seen.add(key)
                queue.append((step, tokens + (samples[name],)))
    return None


def _role(tree: ir.Node, probe: str) -> str | None:
    """What the stand-in name is in ``tree``: a ``name`` read, a ``property``, an ``effect``
    run, a ``procedure`` called, a ``function`` called, an ``event``, a ``trigger_target``."""
    for node in tree.walk():
        if isinstance(node, ir.Attr) and node.name == probe:
            return "property"
        if isinstance(node, ir.Run) and node.effect == probe:
            return "effect"
        if isinstance(node, ir.Invoke) and node.name == probe:
            return "procedure"
        if isinstance(node, ir.Call) and node.func == probe:
            return "function"
        if isinstance(node, ir.Emit) and node.event == probe:
            return "event"
        if isinstance(node, ir.Trigger) and probe in (node.event, node.target):
            return "trigger_target" if node.target == probe else "event"
        if isinstance(node, ir.Name) and node.id == probe:
            return "name"
    return None


def _global(snapshot: Snapshot, name: str, kind: str, rank: int = 1) -> Completion:
    return Completion(name, kind, summary(snapshot, name) or KIND_WORDS.get(kind, kind), rank=rank)


def _names_in_scope(snapshot: Snapshot, scope: frozenset[str],
                    kinds: frozenset[str] | None) -> list[Completion]:
    table = snapshot.table
    items = [Completion(name, "local", "a local name", rank=0) for name in sorted(scope)]
    for name, kind in sorted(table.kinds.items()):
        if (kinds is None and kind != "procedure") or (kinds is not None and kind in kinds):
            items.append(_global(snapshot, name, kind, rank=0 if kinds is not None else 1))
    return items


def _names_for_role(snapshot: Snapshot, role: str) -> list[Completion]:
    table = snapshot.table
    if role == "property":
        out = []
        for name in sorted(table.properties):
            kind = table.kind_of(name)
            if kind in ("resource", "track", "var", "zone"):
                detail = f"a player's {kind}"
            elif name in INTRINSIC_PROPERTIES:
                detail = "a property every component has"
            else:
                detail = "a property"
            out.append(Completion(name, "property", detail, rank=0))
        return out
    if role == "effect":
        return [Completion(name, "effect", "a named effect of a card or space", rank=0)
                for name in sorted(table.effect_names)]
    if role == "procedure":
        return [Completion(name, "procedure",
                           f"{name}({', '.join(params)}) " + summary(snapshot, name), rank=0)
                for name, params in sorted(table.procedures.items())]
    if role == "function":
        out = [Completion(name, "builtin", f"{b.signature}: {b.doc}", rank=0)
               for name, b in sorted(BUILTINS.items())]
        out += [Completion(name, "procedure", f"{name}({', '.join(params)}) "
                           + summary(snapshot, name), rank=0)
                for name, params in sorted(table.functions.items())]
        return out
    if role == "event":
        return [Completion(name, "event", "an event" + (f" with {', '.join(sorted(fields))}"
                                                        if fields else ""), rank=0)
                for name, fields in sorted(table.events.items())]
    return [_global(snapshot, name, kind, rank=0) for name, kind in sorted(table.kinds.items())
            if kind in AMOUNT_KINDS]


# ---------------------------------------------------------------- YAML keys and values

_KEY_PROBE = "rulewright_key"
_VALUE_PROBE = "rulewright_value"
_BLOCK_KEY = re.compile(r"(?P<lead>\s*(?:-\s+)*)(?P<word>[a-z_]*)\Z")
_BLOCK_VALUE = re.compile(r"(?P<lead>\s*(?:-\s+)*[A-Za-z_][\w-]*:\s+)(?P<word>[\w-]*)\Z")
_ITEM_VALUE = re.compile(r"(?P<lead>\s*-\s+)(?P<word>[\w-]*)\Z")


def _complete_yaml(snapshot: Snapshot | None, path: str, text: str, line: int,
                   column: int) -> list[Completion]:
    """Keys and values the schema allows at the cursor (and names, in fields that name a
    definition)."""
    lines = normalise_newlines(text).split("\n")
    if not 1 <= line <= len(lines):
        return []
    current = lines[line - 1]
    before = current[:column - 1]
    after_word = re.match(r"[\w-]*", current[column - 1:]).group()
    rest = current[column - 1 + len(after_word):]
    probe = _probe_line(before, rest)
    if probe is None:
        return []
    replaced, at_key = probe
    probed = "\n".join(lines[:line - 1] + [replaced] + lines[line:])
    document = _load(probed, path)
    if document is None:
        return []
    found = _find_probe(document.data, ())
    if found is None:
        return []
    where, _ = found
    kind = _file_kind(path, document)
    if at_key:
        return _keys(snapshot, kind, document, where[:-1])
    return _values(snapshot, kind, where)


def _probe_line(before: str, rest: str) -> tuple[str, bool] | None:
    """The current line with the word at the cursor replaced by a stand-in key or value, and
    whether it is a key; None when the cursor is in neither place."""
    flow = _open_flow(before)
    if flow is not None:
        opener, inside = flow
        piece = re.split(r"[,{\[]", inside)[-1]
        word = re.search(r"[\w-]*\Z", piece).group()
        head = before[:len(before) - len(word)]
        if opener == "{" and ":" not in piece:
            return head + f"{_KEY_PROBE}: 0" + rest, True
        return head + _VALUE_PROBE + rest, False
    if rest.strip() and not rest.lstrip().startswith("#"):
        return None
    match = _BLOCK_VALUE.match(before) or _ITEM_VALUE.match(before)
    if match and (match.re is _BLOCK_VALUE or match.group("word")):
        return match.group("lead") + _VALUE_PROBE, False
    match = _BLOCK_KEY.match(before)
    if match:
        return match.group("lead") + f"{_KEY_PROBE}: 0", True
    return None


def _open_flow(before: str) -> tuple[str, str] | None:
    """The innermost flow collection open at the end of ``before`` (outside quotes): its
    opening bracket and the text after it."""
    stack: list[int] = []
    quote = None
    for index, char in enumerate(before):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or before[index - 1] == " "):
            break
        elif char in "{[":
            stack.append(index)
        elif char in "}]" and stack:
            stack.pop()
    if not stack:
        return None
    return before[stack[-1]], before[stack[-1] + 1:]


def _find_probe(value: Any, path: tuple) -> tuple[tuple, bool] | None:
    if isinstance(value, dict):
        for key, child in value.items():
            if key == _KEY_PROBE:
                return path + (key,), True
            found = _find_probe(child, path + (key,))
            if found:
                return found
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found = _find_probe(child, path + (index,))
            if found:
                return found
    elif value == _VALUE_PROBE:
        return path, False
    return None


def _file_kind(path: str, document: Document) -> str | None:
    if os.path.basename(path) == MANIFEST:
        return "pack"
    if isinstance(document.data, dict):
        kinds = [k for k in document.data if k in CONTENT_KINDS]
        if len(kinds) == 1:
            return kinds[0]
    return None


def _schemas_at(kind: str, path: tuple) -> list[dict]:
    """Every subschema of ``kind``'s schema that applies at YAML ``path``."""
    current = [load_schema(kind)]
    for step in path:
        following = []
        for schema in _alternatives(current):
            if isinstance(step, int):
                if isinstance(schema.get("items"), dict):
                    following.append(schema["items"])
            elif step in schema.get("properties", {}):
                following.append(schema["properties"][step])
            elif isinstance(schema.get("additionalProperties"), dict):
                following.append(schema["additionalProperties"])
        current = following
    return _alternatives(current)


def _alternatives(schemas: list[dict]) -> list[dict]:
    """``schemas`` with the branches of their allOf, oneOf, anyOf, then and else."""
    out: list[dict] = []
    pending = list(schemas)
    while pending:
        schema = pending.pop(0)
        if not isinstance(schema, dict) or any(schema is s for s in out):
            continue
        out.append(schema)
        for keyword in ("allOf", "oneOf", "anyOf"):
            pending.extend(schema.get(keyword, []))
        for keyword in ("then", "else"):
            if isinstance(schema.get(keyword), dict):
                pending.append(schema[keyword])
    return out


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 100 else text[:97].rstrip() + "..."


def _keys(snapshot: Snapshot | None, kind: str | None, document: Document,
          mapping: tuple) -> list[Completion]:
    if kind is None:
        if mapping:
            return []
        return [Completion(k, "key", f"a {k} file", insert_text=f"{k}:", rank=0)
                for k in CONTENT_KINDS]
    try:
        present = set(document.value(mapping))
    except (KeyError, IndexError, TypeError):
        present = set()
    items: dict[str, Completion] = {}
    for schema in _schemas_at(kind, mapping):
        for key, sub in schema.get("properties", {}).items():
            if key not in present and key not in items:
                items[key] = Completion(key, "key", _first_sentence(sub.get("description", "")),
                                        insert_text=f"{key}: ", rank=0)
    names_kind = _named_keys(snapshot, kind, mapping)
    if names_kind is not None:
        for name in snapshot.names_of_kind(names_kind):
            if name not in present:
                items.setdefault(name, _global(snapshot, name, names_kind, rank=0))
    return list(items.values())


def _values(snapshot: Snapshot | None, kind: str | None, where: tuple) -> list[Completion]:
    if kind is None:
        return []
    items: dict[str, Completion] = {}
    for schema in _schemas_at(kind, where):
        description = _first_sentence(schema.get("description", ""))
        options = list(schema.get("enum", [])) + ([schema["const"]] if "const" in schema else [])
        for option in options:
            if isinstance(option, str):
                items.setdefault(option, Completion(option, "value", description, rank=0))
        types = schema.get("type")
        if types == "boolean" or (isinstance(types, list) and "boolean" in types):
            for option in ("true", "false"):
                items.setdefault(option, Completion(option, "value", description, rank=0))
    for name, name_kind in _named_values(snapshot, kind, where):
        items.setdefault(name, _global(snapshot, name, name_kind, rank=0))
    return list(items.values())


def _named_keys(snapshot: Snapshot | None, kind: str, mapping: tuple) -> str | None:
    if snapshot is None:
        return None
    field = snapshot.named_field(kind, field_pattern(mapping) + ("<key>",))
    return field[0] if field else None


def _named_values(snapshot: Snapshot | None, kind: str,
                  where: tuple) -> list[tuple[str, str]]:
    if snapshot is None:
        return []
    field = snapshot.named_field(kind, field_pattern(where))
    if field is None:
        return []
    named, seen = field
    if named == "enum_value":  # the values of the enum the names seen there belong to
        return [(value, named) for values in snapshot.pack.enums.values()
                if seen & set(values) for value in values]
    return [(name, named) for name in snapshot.names_of_kind(named)]
