"""Safe YAML loading that keeps the file position of every key and value.

Values come back as plain Python data (dicts, lists, str, int, float, bool, None), and any
value can be located by its path of keys and indexes. Problems are returned as diagnostics,
never raised: syntax errors, tabs used for indentation, duplicate keys, non-UTF-8 bytes,
oversized files, too-deep nesting and alias bombs.

Two loaders, one answer. Positions are needed only to report something, so a file first takes
the fast path: libyaml (``CSafeLoader``) composes the node tree in C, one Python walk turns it
into values, and positions are worked out from the nodes' marks only when asked. Whatever the
fast path does not vouch for (anything that would be reported, and a few rare constructs such
as anchors and tabs) is loaded again by the checking loader, which turns the YAML event stream
straight into values plus a parallel tree of positions and reports every problem. Its aliases
share the anchored value instead of copying it, and their expanded size is counted as they
are met, so a "billion laughs" file is rejected after a few hundred events with bounded
memory.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Iterator

import yaml
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from rulewright.file_input import FileRefused, read_regular_file

from .diagnostics import Diagnostic, diagnostic, file_start
from .model import Loc
from .scalar_map import LineIndex, OffsetMap, offset_mapper

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Path = tuple  # a path of mapping keys (str) and sequence indexes (int)

_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_SCALAR_TAGS = {
    _STR, "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp",
}
_TEXT_TAGS = (_STR, "tag:yaml.org,2002:timestamp")  # scalars kept as the text written
_resolver = Resolver()
_constructor = SafeConstructor()
_ScalarNode, _SequenceNode, _MappingNode = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode


@dataclass(frozen=True)
class Limits:
    """Bounds that keep hostile or broken files from exhausting time or memory: the size of
    one file and of a whole pack (its manifest and listed files together), YAML nesting, and
    how many values aliases may expand to."""

    max_bytes: int = 2 * 1024 * 1024
    max_pack_bytes: int = 8 * 1024 * 1024
    max_depth: int = 64
    max_alias_nodes: int = 100_000


@dataclass(frozen=True)
class ScalarSpan:
    """Where a scalar string was written: its YAML style (``None`` plain, ``'``, ``"``,
    ``|``, ``>``), its start and end character indexes in the document text, and the
    column of the block collection around it (needed to replay block scalars)."""

    style: str | None
    start: int
    end: int
    parent_indent: int


@dataclass
class _Pos:
    """Position record of one value: its location, and those of its keys and children."""

    loc: Loc
    children: dict | list | None = None
    key_locs: dict[str, Loc] | None = None
    scalar: ScalarSpan | None = None


class Document:
    """A loaded YAML file: ``data`` (plain values) and the position of every value in it.

    Positions are looked up by path (mapping keys and sequence indexes). Two loaders make
    documents (see :func:`load_yaml_text`): the fast one keeps libyaml's composed node tree and
    works positions out from its marks when asked; the checking one records them as it goes.
    Both give the same answers for the same text."""

    def __init__(self, path: str, text: str, data: Any) -> None:
        self.path = path
        self.text = text
        self.data = data
        self._lines: LineIndex | None = None

    def __repr__(self) -> str:
        return f"Document({self.path!r})"

    @property
    def lines(self) -> LineIndex:
        """Line starts of the text, indexed on first use."""
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines

    # A "place" is the loader's own position record of one value; subclasses say how to
    # find one by path and what it knows.
    def _deepest(self, path: Path) -> tuple[Any, bool]:
        """The place at ``path`` (or of its deepest existing ancestor), and whether the
        whole path exists."""
        raise NotImplementedError

    def _place_loc(self, place: Any) -> Loc:
        raise NotImplementedError

    def _place_key_loc(self, place: Any, key: str) -> Loc | None:
        """The location of mapping key ``key`` of the mapping at ``place`` (None if absent)."""
        raise NotImplementedError

    def _place_scalar(self, place: Any) -> ScalarSpan | None:
        raise NotImplementedError

    def has(self, path: Path) -> bool:
        """Whether a value exists at ``path``."""
        return self._deepest(path)[1]

    def loc(self, path: Path = ()) -> Loc:
        """The location of the value at ``path`` (or of its deepest existing ancestor)."""
        return self._place_loc(self._deepest(path)[0])

    def key_loc(self, path: Path) -> Loc:
        """The location of the key naming the value at ``path``; for a sequence item or a
        path that does not exist, the location of the value (or nearest ancestor)."""
        if path and isinstance(path[-1], str):
            parent, found = self._deepest(path[:-1])
            if found:
                loc = self._place_key_loc(parent, path[-1])
                if loc is not None:
                    return loc
        return self.loc(path)

    def scalar(self, path: Path) -> ScalarSpan | None:
        """How the string at ``path`` was written, or None if it is not a string scalar."""
        place, found = self._deepest(path)
        return self._place_scalar(place) if found else None

    def offset_map(self, path: Path) -> OffsetMap:
        """For the string at ``path``: offset in the loaded string -> (line, column) in file.
        The replay behind it runs on first use, so unused maps cost nothing."""
        return _LazyOffsetMap(self, tuple(path))

    def _build_offset_map(self, path: Path) -> OffsetMap:
        span = self.scalar(path)
        loc = self.loc(path)
        if span is None:
            return lambda offset: (loc.line, loc.column)
        return offset_mapper(self.text, span.style, span.start, span.end, self.value(path),
                             span.parent_indent, self.lines)

    def value(self, path: Path) -> Any:
        """The plain value at ``path`` (KeyError/IndexError if absent)."""
        value = self.data
        for step in path:
            value = value[step]
        return value


class _BuiltDocument(Document):
    """A document from the checking loader: places are the :class:`_Pos` records it built."""

    def __init__(self, path: str, text: str, data: Any, root: _Pos, lines: LineIndex) -> None:
        super().__init__(path, text, data)
        self.root = root
        self._lines = lines

    def _deepest(self, path: Path) -> tuple[_Pos, bool]:
        pos = self.root
        for step in path:
            children = pos.children
            if isinstance(children, dict) and isinstance(step, str) and step in children:
                pos = children[step]
            elif (isinstance(children, list) and isinstance(step, int)
                  and not isinstance(step, bool) and 0 <= step < len(children)):
                pos = children[step]
            else:
                return pos, False
        return pos, True

    def _place_loc(self, place: _Pos) -> Loc:
        return place.loc

    def _place_key_loc(self, place: _Pos, key: str) -> Loc | None:
        return place.key_locs.get(key) if place.key_locs else None

    def _place_scalar(self, place: _Pos) -> ScalarSpan | None:
        return place.scalar


class _ComposedDocument(Document):
    """A document from the fast loader: places are ``(node, parent node)`` pairs of the node
    tree libyaml composed, and locations are worked out from the nodes' marks only when
    asked, exactly as the checking loader records them. Only trees the fast loader accepted
    get here: no aliases, no repeated or merge keys, every block collection non-empty."""

    def __init__(self, path: str, text: str, data: Any, root: yaml.Node) -> None:
        super().__init__(path, text, data)
        self._root = root
        self._marks_of: _Marks | None = None
        self._key_index: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] = {}
        self._places: dict[Path, tuple[yaml.Node, yaml.Node | None]] = {(): (root, None)}

    @property
    def _marks(self) -> _Marks:
        if self._marks_of is None:
            self._marks_of = _Marks(self.text, self.path, self.lines)
        return self._marks_of

    def _pairs(self, mapping: yaml.MappingNode) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        """key -> (key node, value node) of a mapping node, indexed on first use."""
        index = self._key_index.get(id(mapping))
        if index is None:
            index = {key.value: (key, value) for key, value in mapping.value}
            self._key_index[id(mapping)] = index
        return index

    def _deepest(self, path: Path) -> tuple[tuple[yaml.Node, yaml.Node | None], bool]:
        # Places found are remembered by path: the model asks about many siblings and
        # descendants of the same entries (their ids, effects, keys), so each step from a
        # parent is taken once.
        if type(path) is not tuple:
            path = tuple(path)
        place = self._places.get(path)
        if place is not None:
            return place, True
        parent, found = self._deepest(path[:-1])
        if not found:
            return parent, False
        node, step = parent[0], path[-1]
        kind = node.__class__
        if kind is _MappingNode and isinstance(step, str):
            pair = self._pairs(node).get(step)
            if pair is None:
                return parent, False
            child = pair[1]
        elif (kind is _SequenceNode and isinstance(step, int) and not isinstance(step, bool)
              and 0 <= step < len(node.value)):
            child = node.value[step]
        else:
            return parent, False
        place = self._places[path] = (child, node)
        return place, True

    def _node_loc(self, node: yaml.Node) -> Loc:
        if node.__class__ is _ScalarNode:
            return self._marks.scalar_loc(node)
        line, column = self._marks._mark_position(node.start_mark)
        if node.flow_style:
            end = node.end_mark
            return Loc(self.path, line, column, end.line + 1, end.column + 1)
        # a block collection ends where its last item ends (the loader made sure it has one)
        last = node.value[-1]
        end_loc = self._node_loc(last[1] if node.__class__ is _MappingNode else last)
        return Loc(self.path, line, column, end_loc.end_line, end_loc.end_column)

    def _place_loc(self, place) -> Loc:
        return self._node_loc(place[0])

    def _place_key_loc(self, place, key: str) -> Loc | None:
        node = place[0]
        if node.__class__ is not _MappingNode:
            return None
        pair = self._pairs(node).get(key)
        return None if pair is None else self._marks.scalar_loc(pair[0])

    def _place_scalar(self, place) -> ScalarSpan | None:
        node, parent = place
        if node.__class__ is not _ScalarNode or node.tag not in _TEXT_TAGS:
            return None
        marks = self._marks
        parent_indent = -1 if parent is None else marks._mark_position(parent.start_mark)[1] - 1
        return ScalarSpan(node.style or None, marks.mark_index(node.start_mark),
                          marks.mark_index(node.end_mark), parent_indent)


class _LazyOffsetMap:
    """An offset map for one string of a document, built the first time it is called."""

    def __init__(self, document: Document, path: Path) -> None:
        self._document = document
        self._path = path
        self._mapper: OffsetMap | None = None

    def __call__(self, offset: int) -> tuple[int, int]:
        """The 1-based (line, column) in the file of character ``offset`` of the string."""
        if self._mapper is None:
            self._mapper = self._document._build_offset_map(self._path)
        return self._mapper(offset)


class _Stop(Exception):
    """Raised inside the builder to abandon a file after a fatal diagnostic."""


@dataclass
class _Frame:
    value: dict | list
    pos: _Pos
    flow: bool
    anchor: str | None
    size: int = 1
    key: str | None = None
    key_loc: Loc | None = None
    skip_value: bool = False
    have_key: bool = False


class _Marks:
    """Locations of libyaml marks (from events or composed nodes) in one file's text."""

    def __init__(self, text: str, path: str, lines: LineIndex) -> None:
        self.text = text
        self.path = path
        self.lines = lines

    def mark_loc(self, start, end=None) -> Loc:
        end = end or start
        lines = len(self.lines.starts)
        if start.line < lines and end.line < lines:  # the usual case, without the clamping
            return Loc(self.path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)
        return Loc(self.path, *self._mark_position(start), *self._mark_position(end))

    def _mark_position(self, mark) -> tuple[int, int]:
        """A YAML mark as a 1-based (line, column), never past the end of the text (the YAML
        reader puts end-of-stream marks on a line after the last one)."""
        if mark.line >= len(self.lines.starts):
            return self.lines.position(len(self.text))
        return mark.line + 1, mark.column + 1

    def mark_index(self, mark) -> int:
        return self.lines.index(mark.line, mark.column)

    def scalar_loc(self, scalar) -> Loc:
        """The location of a scalar (event or node); a block scalar ends at its last
        character that is not a trailing space or line break."""
        if scalar.style in ("|", ">"):
            end = self.mark_index(scalar.end_mark)
            start = self.mark_index(scalar.start_mark)
            while end > start + 1 and self.text[end - 1] in " \t\n":
                end -= 1
            line, column = self.lines.position(end)
            return Loc(self.path, scalar.start_mark.line + 1, scalar.start_mark.column + 1,
                       line, column)
        return self.mark_loc(scalar.start_mark, scalar.end_mark)


class _Builder(_Marks):
    """Turns a YAML event stream into values and positions, checking limits as it goes."""

    def __init__(self, text: str, path: str, limits: Limits) -> None:
        super().__init__(text, path, LineIndex(text))
        self.limits = limits
        self.diags: list[Diagnostic] = []
        self.stack: list[_Frame] = []
        self.anchors: dict[str, tuple[Any, _Pos, int] | None] = {}
        self.alias_nodes = 0
        self.documents = 0
        self.root: tuple[Any, _Pos] | None = None
        self.multiline_scalars: list[tuple[int, int]] = []

    def fail(self, code: str, loc: Loc, message: str, hint: str = "") -> None:
        self.diags.append(diagnostic(code, loc, message, hint))
        raise _Stop

    def report(self, code: str, loc: Loc, message: str, hint: str = "") -> None:
        self.diags.append(diagnostic(code, loc, message, hint))

    def run(self, events) -> None:
        handlers: dict[type, Any] = {}  # event class -> its on_<EventClass> method, or None
        for event in events:
            kind = type(event)
            if kind not in handlers:
                handlers[kind] = getattr(self, "on_" + kind.__name__, None)
            handler = handlers[kind]
            if handler is not None:
                handler(event)

    def on_DocumentStartEvent(self, event) -> None:
        self.documents += 1
        if self.documents > 1:
            self.fail("E107", self.mark_loc(event.start_mark, event.end_mark),
                      "a content file holds one YAML document; found a second one here",
                      "remove the '---' line or split the file in two")

    def on_ScalarEvent(self, event) -> None:
        loc = self.scalar_loc(event)
        frame = self.stack[-1] if self.stack else None
        if frame is not None and isinstance(frame.value, dict) and not frame.have_key:
            self.add(event.value, _Pos(loc), 1, event)
            return
        value = self.scalar_value(event, loc)
        pos = _Pos(loc)
        if isinstance(value, str):
            start = self.mark_index(event.start_mark)
            end = self.mark_index(event.end_mark)
            parent_indent = self.stack[-1].pos.loc.column - 1 if self.stack else -1
            pos.scalar = ScalarSpan(event.style or None, start, end, parent_indent)
            if event.start_mark.line != event.end_mark.line:
                self.multiline_scalars.append((start, end))
        self.register(event.anchor, value, pos, 1)
        self.add(value, pos, 1, event)

    def scalar_value(self, event, loc: Loc) -> Any:
        tag = event.tag
        if tag in (None, "!"):
            implicit = event.implicit if tag is None else (False, False)
            tag = _resolver.resolve(yaml.ScalarNode, event.value, implicit)
        if tag not in _SCALAR_TAGS:
            self.report("E110", loc, f"unsupported YAML tag '{event.tag or tag}'",
                        "content files hold plain text, numbers, true/false, lists and mappings")
            return event.value
        if tag in (_STR, "tag:yaml.org,2002:timestamp"):
            return event.value
        node = yaml.ScalarNode(tag, event.value)
        try:
            return getattr(_constructor, _CONSTRUCTORS[tag])(node)
        except (ValueError, yaml.YAMLError):
            self.report("E202", loc, f"'{event.value}' is not a valid {tag.rsplit(':', 1)[-1]}")
            return event.value

    def register(self, anchor: str | None, value: Any, pos: _Pos, size: int) -> None:
        if anchor is not None:
            self.anchors[anchor] = (value, pos, size)

    def on_AliasEvent(self, event) -> None:
        loc = self.mark_loc(event.start_mark, event.end_mark)
        target = self.anchors.get(event.anchor, "missing")
        if target == "missing":
            self.fail("E101", loc, f"unknown alias '*{event.anchor}'",
                      "define the anchor (&name) before using it")
        if target is None:
            self.fail("E104", loc, f"alias '*{event.anchor}' refers to a value that contains it",
                      "an anchored value cannot include itself")
        value, pos, size = target
        self.alias_nodes += size
        if self.alias_nodes > self.limits.max_alias_nodes:
            self.fail("E104", loc,
                      f"aliases expand to more than {self.limits.max_alias_nodes} values",
                      "this looks like an alias bomb; write the data out or use fewer aliases")
        self.add(value, pos, size, event)

    def open_collection(self, event, value: dict | list) -> None:
        loc = self.mark_loc(event.start_mark, event.end_mark)
        if len(self.stack) >= self.limits.max_depth:
            self.fail("E105", loc,
                      f"lists and mappings are nested more than {self.limits.max_depth} levels deep")
        if event.tag not in (None, "!", _SEQ, _MAP):
            self.report("E110", loc, f"unsupported YAML tag '{event.tag}'",
                        "content files hold plain text, numbers, true/false, lists and mappings")
        children: dict | list = {} if isinstance(value, dict) else []
        pos = _Pos(loc, children, {} if isinstance(value, dict) else None)
        if event.anchor is not None:
            self.anchors[event.anchor] = None
        self.stack.append(_Frame(value, pos, bool(event.flow_style), event.anchor))

    def close_collection(self, event) -> None:
        frame = self.stack.pop()
        loc = frame.pos.loc
        if frame.flow:
            end = event.end_mark
            loc = Loc(loc.path, loc.line, loc.column, end.line + 1, end.column + 1)
        else:
            last = _last_child(frame.pos)
            if last is not None:
                loc = Loc(loc.path, loc.line, loc.column, last.end_line, last.end_column)
        frame.pos.loc = loc
        self.register(frame.anchor, frame.value, frame.pos, frame.size)
        self.add(frame.value, frame.pos, frame.size, event)

    def on_SequenceStartEvent(self, event) -> None:
        self.open_collection(event, [])

    def on_MappingStartEvent(self, event) -> None:
        self.open_collection(event, {})

    def on_SequenceEndEvent(self, event) -> None:
        self.close_collection(event)

    def on_MappingEndEvent(self, event) -> None:
        self.close_collection(event)

    def add(self, value: Any, pos: _Pos, size: int, event) -> None:
        if not self.stack:
            self.root = (value, pos)
            return
        frame = self.stack[-1]
        frame.size += size
        if isinstance(frame.value, list):
            frame.value.append(value)
            frame.pos.children.append(pos)
            return
        if not frame.have_key:
            self.take_key(frame, value, pos, event)
            return
        frame.have_key = False
        if not frame.skip_value:
            frame.value[frame.key] = value
            frame.pos.children[frame.key] = pos
            frame.pos.key_locs[frame.key] = frame.key_loc

    def take_key(self, frame: _Frame, value: Any, pos: _Pos, event) -> None:
        frame.have_key = True
        frame.skip_value = True
        if not isinstance(event, yaml.ScalarEvent):
            self.report("E108", pos.loc, "a mapping key must be plain text, not a list or mapping")
            return
        key = event.value
        if key == "<<" and not event.style:
            self.report("E109", pos.loc, "merge keys (<<) are not supported",
                        "write the fields out in full")
            return
        if key in frame.value:
            first = frame.pos.key_locs[key]
            self.report("E103", pos.loc, f"key '{key}' appears twice in this mapping",
                        f"first defined at line {first.line}, column {first.column}")
            return
        frame.key, frame.key_loc, frame.skip_value = key, pos.loc, False


_CONSTRUCTORS = {
    "tag:yaml.org,2002:int": "construct_yaml_int",
    "tag:yaml.org,2002:float": "construct_yaml_float",
    "tag:yaml.org,2002:bool": "construct_yaml_bool",
    "tag:yaml.org,2002:null": "construct_yaml_null",
}


def _last_child(pos: _Pos) -> Loc | None:
    children = pos.children
    if isinstance(children, dict):
        return children[next(reversed(children))].loc if children else (
            list(pos.key_locs.values())[-1] if pos.key_locs else None)
    if isinstance(children, list) and children:
        return children[-1].loc
    return None


def normalise_newlines(text: str) -> str:
    """Every YAML line break (CRLF, CR, NEL, LS, PS) as ``\\n``, and no byte-order mark."""
    if text.startswith("\ufeff"):
        text = text[1:]
    for newline in ("\r\n", "\r", "\x85", "\u2028", "\u2029"):
        text = text.replace(newline, "\n")
    return text


def decode_utf8(raw: bytes, path: str) -> tuple[str | None, list[Diagnostic]]:
    """Decode file bytes as UTF-8; on failure, E002 at the first bad byte's line and column."""
    try:
        return normalise_newlines(raw.decode("utf-8")), []
    except UnicodeDecodeError as error:
        # Count lines as the YAML loader does (a lone CR, NEL, LS and PS break lines too).
        before = normalise_newlines(raw[:error.start].decode("utf-8", errors="replace"))
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        loc = Loc(path, line, column, line, column + 1)
        return None, [diagnostic("E002", loc, f"byte 0x{raw[error.start]:02x} is not valid UTF-8",
                                 "save the file with UTF-8 encoding")]


_TAB_INDENT = re.compile(r"^( *)\t[ \t]*[^ \t\n#]", re.MULTILINE)
"""A line whose leading spaces and tabs include a tab and are followed by content other than
a comment; group 1 is the spaces before the first tab."""


def _tab_indents(text: str) -> Iterator[tuple[int, int]]:
    """(line index 0-based, column 0-based) of the first tab in a line's leading whitespace,
    for lines that hold content other than a comment."""
    number, counted = 0, 0
    for match in _TAB_INDENT.finditer(text):
        number += text.count("\n", counted, match.start())
        counted = match.start()
        yield number, len(match.group(1))


def _tab_diagnostic(path: str, line0: int, column0: int) -> Diagnostic:
    loc = Loc(path, line0 + 1, column0 + 1, line0 + 1, column0 + 2)
    return diagnostic("E102", loc, "a tab is used for indentation",
                      "YAML indentation must use spaces; replace the tab with spaces")


def _syntax_diagnostic(error: yaml.YAMLError, builder: _Builder) -> Diagnostic:
    mark = getattr(error, "problem_mark", None)
    if mark is not None:
        loc = builder.mark_loc(mark)
        problem = getattr(error, "problem", None) or "invalid YAML"
        context = getattr(error, "context", None)
        hint = ""
        if context and getattr(error, "context_mark", None) is not None:
            hint = f"{context} that started at line {error.context_mark.line + 1}"
        return diagnostic("E101", Loc(loc.path, loc.line, loc.column, loc.line, loc.column + 1),
                          f"YAML syntax error: {problem}", hint)
    position = getattr(error, "position", 0) or 0
    index = len(builder.text.encode("utf-8")[:position].decode("utf-8", errors="ignore"))
    line, column = builder.lines.position(index)
    reason = getattr(error, "reason", None) or str(error)
    return diagnostic("E101", Loc(builder.path, line, column, line, column + 1),
                      f"YAML syntax error: {reason}")


# ---------------------------------------------------------------- the fast path

@functools.cache
def _fast_loading() -> bool:
    """Whether the fast path can be used: it needs libyaml's composer, which recurses in C once
    per nesting level, so only a libyaml that refuses deep nesting itself (as 0.2.5 and later
    do) is trusted with hostile files. Probed once, with the event parser (which keeps its own
    stack, so the probe cannot exhaust the C stack whatever the version)."""
    if _Loader is yaml.SafeLoader:
        return False
    try:
        for _ in yaml.parse("[" * 20_000, Loader=_Loader):
            pass
    except yaml.YAMLError as error:
        return "nesting depth" in str(error)
    return False

_MAYBE_UNUSUAL = re.compile(
    r"\t|&[^\s,\[\]{}]|(?:^|[-?:,\[{])[ ]*!(?:[<\s,]|$)|^%", re.MULTILINE)
"""Text the fast loader leaves to the checking one: any tab; anything that may be an anchor
(``&`` and a name character; without one, an alias is a syntax error); anything that may be
the non-specific tag ``!`` (which the composer resolves like an untagged scalar, but the
checking loader keeps as text): a ``!`` followed by a space, ``<``, ``,`` or the line end
where a node can start (a line's start, or after ``-``, ``?``, ``:``, ``,``, ``[`` or ``{``
and spaces); a line starting with ``%`` (a directive). Prose can match too; that only costs
the slower load."""


class _Unusual(Exception):
    """The fast loader met something the checking loader would report, or that it does not
    vouch for; the file is loaded again by the checking loader."""


def _load_fast(text: str, path: str, limits: Limits) -> Document | None:
    """Load the common, valid case fast, or return None to leave the file to the checking
    loader (whose diagnostics are then the answer).

    libyaml composes the node tree in C (marks included, nesting capped by libyaml itself);
    one Python walk turns it into plain values and refuses whatever the checking loader would
    report: unsupported tags, invalid numbers, non-text or merge (``<<``) keys, repeated keys,
    nesting deeper than the limit, an empty file. Aliases and tabs never get this far (see
    ``_MAYBE_UNUSUAL``); syntax errors and second documents fail the compose. Positions are
    not computed here: the document works them out from the nodes when asked."""
    if not _fast_loading() or _MAYBE_UNUSUAL.search(text):
        return None
    try:
        root = yaml.compose(text, Loader=_Loader)
    except Exception:  # noqa: BLE001 - whatever it is, the checking loader reports or raises it
        return None
    if root is None:
        return None
    try:
        data = _plain_values(root, limits.max_depth)
    except _Unusual:
        return None
    if data is None:
        return None
    return _ComposedDocument(path, text, data, root)


def _plain_values(root: yaml.Node, max_depth: int) -> Any:
    """The plain value of a composed node tree, as the checking loader would build it (see
    :func:`_load_fast`); raises :class:`_Unusual` instead of anything it would report."""
    constructed: dict[tuple[str, str], Any] = {}  # (tag, text) -> value, for non-text scalars

    def scalar(node: yaml.ScalarNode) -> Any:
        tag = node.tag
        if tag in _TEXT_TAGS:
            return node.value
        key = (tag, node.value)
        if key in constructed:
            return constructed[key]
        method = _CONSTRUCTORS.get(tag)
        if method is None:
            raise _Unusual
        try:
            value = getattr(_constructor, method)(node)
        except (ValueError, yaml.YAMLError):
            raise _Unusual from None
        constructed[key] = value
        return value

    def collection(node: yaml.Node, depth: int) -> Any:
        if depth >= max_depth or node.tag not in (_SEQ, _MAP):
            raise _Unusual
        items = node.value
        if not items and not node.flow_style:
            raise _Unusual  # no location rule for an empty block collection
        if node.__class__ is _SequenceNode:
            return [item.value if item.__class__ is _ScalarNode and item.tag == _STR
                    else scalar(item) if item.__class__ is _ScalarNode
                    else collection(item, depth + 1) for item in items]
        out: dict[str, Any] = {}
        for key_node, value_node in items:
            if key_node.__class__ is not _ScalarNode:
                raise _Unusual
            key = key_node.value
            if key in out or (key == "<<" and not key_node.style):
                raise _Unusual
            if value_node.__class__ is _ScalarNode:
                out[key] = value_node.value if value_node.tag == _STR else scalar(value_node)
            else:
                out[key] = collection(value_node, depth + 1)
        return out

    if root.__class__ is _ScalarNode:
        return scalar(root)
    return collection(root, 0)



def load_yaml_text(text: str, path: str, limits: Limits = Limits()) -> tuple[Document | None, list[Diagnostic]]:
    """Load YAML source ``text`` (shown as ``path`` in diagnostics) into a :class:`Document`.
    Returns ``(None, diagnostics)`` when the file cannot be loaded at all.

    Positions are needed only to report something, so the usual, valid file takes the fast
    path (:func:`_load_fast`: libyaml builds the tree in C, positions are worked out later from
    its marks, on demand); any file it does not vouch for is loaded by the checking loader,
    whose diagnostics are then returned. Either way the document and diagnostics are the
    same."""
    text = normalise_newlines(text)
    document = _load_fast(text, path, limits)
    if document is not None:
        return document, []
    return _load_checked(text, path, limits)


def _load_checked(text: str, path: str, limits: Limits) -> tuple[Document | None, list[Diagnostic]]:
    """The checking loader: one pass over libyaml's events that records every position and
    reports every problem (``text`` has its newlines normalised)."""
    builder = _Builder(text, path, limits)
    try:
        builder.run(yaml.parse(text, Loader=_Loader))
    except _Stop:
        return None, builder.diags
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        error_line = mark.line if mark is not None else len(builder.lines.starts)
        tabs = [tab for tab in _tab_indents(text) if tab[0] <= error_line]
        if tabs:
            return None, builder.diags + [_tab_diagnostic(path, *tabs[0])]
        return None, builder.diags + [_syntax_diagnostic(error, builder)]
    tab_diags = [
        _tab_diagnostic(path, line0, column0)
        for line0, column0 in _tab_indents(text)
        if not _inside_any(builder.lines.index(line0, column0), builder.multiline_scalars)
    ]
    diags = builder.diags + tab_diags
    if builder.root is None or builder.root[0] is None:
        diags.append(diagnostic("E106", file_start(path), "the file is empty",
                                "a content file needs its top-level key, e.g. 'cards:'"))
        return None, diags
    data, root = builder.root
    return _BuiltDocument(path, text, data, root, builder.lines), diags


def _inside_any(index: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= index < end for start, end in spans)


def load_yaml_bytes(raw: bytes, path: str, limits: Limits = Limits()) -> tuple[Document | None, list[Diagnostic]]:
    """Check size and encoding of file bytes, then load them as YAML."""
    if len(raw) > limits.max_bytes:
        return None, [diagnostic("E003", file_start(path),
                                 f"the file is {len(raw)} bytes; the limit is {limits.max_bytes}",
                                 "split it into several files listed in pack.yaml")]
    text, diags = decode_utf8(raw, path)
    if text is None:
        return None, diags
    return load_yaml_text(text, path, limits)


_REFUSAL_CODES = {"not_regular": "E006", "too_large": "E003", "unreadable": "E001"}
_REFUSAL_HINTS = {"not_regular": "list only the pack's own YAML files",
                  "too_large": "split it into several files listed in pack.yaml"}


def refusal_diagnostic(refused: FileRefused, loc: Loc, subject: str = "") -> Diagnostic:
    """A file that was not read, as a diagnostic at ``loc``: E006 not a regular file, E003 too
    large, E001 unreadable; ``subject`` (e.g. ``'cards.yaml' ``) starts the message."""
    message = f"{subject}cannot be used: {refused.message}" if subject else refused.message
    return diagnostic(_REFUSAL_CODES[refused.reason], loc, message,
                      _REFUSAL_HINTS.get(refused.reason, ""))


def load_yaml_file(file_path: str, display_path: str | None = None,
                   limits: Limits = Limits()) -> tuple[Document | None, list[Diagnostic]]:
    """Read and load a YAML file; diagnostics name it ``display_path`` (default: its path).
    Only a regular file is read, and never more than ``limits.max_bytes`` + 1 bytes of it."""
    shown = display_path or file_path
    try:
        raw = read_regular_file(file_path, limits.max_bytes)
    except FileRefused as refused:
        return None, [refusal_diagnostic(refused, file_start(shown))]
    return load_yaml_bytes(raw, shown, limits)
