"""``rulewright lsp``: the Language Server Protocol server an editor runs over stdio (pygls).

It speaks the protocol and nothing else: the pack a file belongs to is compiled by
:class:`~compiler.workspace.Workspace` with the open buffers in place of the files, and every
answer comes from its snapshot (diagnostics, definitions, references, document symbols,
rename), from :mod:`compiler.completion` and from :mod:`compiler.describe` (hover). This module
converts between the protocol's positions (0-based, counted in the client's code units) and the
compiler's (1-based, in characters), and decides when to compile: a change is published after a
short pause in typing (:data:`DEBOUNCE_SECONDS`), and a request that needs current positions
compiles first if anything changed. Files outside a pack get nothing and no error.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import traceback
from typing import Sequence
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .completion import Completion, complete
from .describe import describe
from .diagnostics import Diagnostic
from .model import Loc
from .schema_check import write_schemas
from .workspace import RenameRefused, Snapshot, Workspace
from .yaml_loader import normalise_newlines

__all__ = ["RulewrightServer", "serve", "DEBOUNCE_SECONDS", "WRITE_SCHEMAS_COMMAND"]

DEBOUNCE_SECONDS = 0.15
"""How long the text must rest after a change before the pack is compiled and published."""

WRITE_SCHEMAS_COMMAND = "rulewright.writeSchemas"
"""The command a code action runs to write the JSON Schemas where a modeline expects them."""

_SEVERITY = {"error": types.DiagnosticSeverity.Error,
             "warning": types.DiagnosticSeverity.Warning,
             "note": types.DiagnosticSeverity.Information}

_COMPLETION_KIND = {
    "local": types.CompletionItemKind.Variable, "player": types.CompletionItemKind.Variable,
    "players": types.CompletionItemKind.Variable, "resource": types.CompletionItemKind.Variable,
    "var": types.CompletionItemKind.Variable, "track": types.CompletionItemKind.Variable,
    "zone": types.CompletionItemKind.Module, "constant": types.CompletionItemKind.Constant,
    "icon": types.CompletionItemKind.EnumMember, "enum": types.CompletionItemKind.Enum,
    "enum_value": types.CompletionItemKind.EnumMember,
    "component_type": types.CompletionItemKind.Interface,
    "die": types.CompletionItemKind.Struct, "card": types.CompletionItemKind.Class,
    "space": types.CompletionItemKind.Struct, "procedure": types.CompletionItemKind.Function,
    "builtin": types.CompletionItemKind.Function, "keyword": types.CompletionItemKind.Keyword,
    "property": types.CompletionItemKind.Property, "effect": types.CompletionItemKind.Method,
    "event": types.CompletionItemKind.Event, "key": types.CompletionItemKind.Property,
    "value": types.CompletionItemKind.Value, "variant": types.CompletionItemKind.Module,
}

_SYMBOL_KIND = {
    "resource": types.SymbolKind.Variable, "var": types.SymbolKind.Variable,
    "track": types.SymbolKind.Field, "zone": types.SymbolKind.Namespace,
    "constant": types.SymbolKind.Constant, "icon": types.SymbolKind.EnumMember,
    "enum": types.SymbolKind.Enum, "enum_value": types.SymbolKind.EnumMember,
    "component_type": types.SymbolKind.Interface, "die": types.SymbolKind.Struct,
    "card": types.SymbolKind.Class, "space": types.SymbolKind.Struct,
    "procedure": types.SymbolKind.Function, "variant": types.SymbolKind.Package,
    "ability": types.SymbolKind.Method,
}

_LOCATION_IN_HINT = re.compile(r"(?P<path>[^\s:]+\.ya?ml):(?P<line>\d+):(?P<column>\d+)")
_MODELINE = re.compile(r"#\s*yaml-language-server:\s*\$schema=(?P<target>\S+)")


def _lines(text: str) -> list[str]:
    """The lines of ``text`` as the compiler counts them."""
    return normalise_newlines(text).split("\n")


class RulewrightServer(LanguageServer):
    """The rulewright language server: a pygls server holding one :class:`Workspace`."""

    def __init__(self) -> None:
        super().__init__("rulewright", _version())
        self.packs = Workspace()
        self._pending: dict[str, asyncio.Task] = {}
        self._published: dict[str, set[str]] = {}

    # ---------------------------------------------------------------- files and positions

    def buffer_text(self, path: str) -> str | None:
        """The text the editor has for ``path`` (None if it is not open)."""
        return self.packs.buffers.get(os.path.normpath(path))

    def file_lines(self, path: str, snapshot: Snapshot | None = None) -> list[str]:
        """The lines of ``path``: its buffer, else the snapshot's copy, else the disk."""
        text = self.buffer_text(path)
        if text is None and snapshot is not None and snapshot.file(path) is not None:
            text = snapshot.file(path).text
        if text is None:
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            except OSError:
                text = ""
        return _lines(text)

    def to_range(self, lines: Sequence[str], line: int, column: int, end_line: int,
                 end_column: int) -> types.Range:
        """A protocol range from 1-based, character-counted positions."""
        return types.Range(start=self._to_position(lines, line, column),
                           end=self._to_position(lines, end_line, end_column))

    def _to_position(self, lines: Sequence[str], line: int, column: int) -> types.Position:
        codec = self.workspace.position_codec
        if not 1 <= line <= len(lines):
            return types.Position(line=max(line - 1, 0), character=0)
        text = lines[line - 1]
        return types.Position(line=line - 1,
                              character=codec.client_num_units(text[:max(column - 1, 0)]))

    def from_position(self, lines: Sequence[str], position: types.Position) -> tuple[int, int]:
        """A 1-based, character-counted (line, column) from a protocol position."""
        if position.line >= len(lines):
            return len(lines), len(lines[-1]) + 1 if lines else 1
        text = lines[position.line]
        units, column = 0, 0
        codec = self.workspace.position_codec
        while column < len(text) and units < position.character:
            units += codec.client_num_units(text[column])
            column += 1
        return position.line + 1, column + 1

    def location(self, loc: Loc, snapshot: Snapshot) -> types.Location:
        """A protocol location for a compiler location."""
        path = os.path.normpath(loc.path)
        lines = self.file_lines(path, snapshot)
        return types.Location(uri=from_fs_path(path),
                              range=self.to_range(lines, loc.line, loc.column, loc.end_line,
                                                  loc.end_column))

    # ---------------------------------------------------------------- compiling and publishing

    def root_of(self, uri: str) -> tuple[str | None, str | None]:
        """``(path, pack root)`` of a document (each None when there is none)."""
        path = _fs_path(uri)
        if path is None:
            return None, None
        return path, self.packs.pack_root(path)

    def schedule(self, root: str) -> None:
        """Compile and publish the pack at ``root`` once the text has rested."""
        pending = self._pending.pop(root, None)
        if pending is not None:
            pending.cancel()
        self._pending[root] = asyncio.get_running_loop().create_task(self._publish_later(root))

    async def _publish_later(self, root: str) -> None:
        await asyncio.sleep(DEBOUNCE_SECONDS)
        self._pending.pop(root, None)
        self.publish(root)

    def current(self, root: str) -> Snapshot | None:
        """A current snapshot of the pack (compiling if anything changed), or None if the
        compiler failed (the failure is logged, never raised into the protocol)."""
        try:
            return self.packs.snapshot(root)
        except Exception:  # noqa: BLE001 - a compiler bug must not take the editor's server down
            self.window_log_message(types.LogMessageParams(
                type=types.MessageType.Error,
                message="rulewright: the compiler failed:\n" + traceback.format_exc()))
            return None

    def loaded_for(self, root: str, path: str) -> Snapshot | None:
        """While the pack does not load (another file is half written), its last compile
        that loaded, if ``path`` has not changed since: its positions still hold there."""
        loaded = self.packs.latest_loaded(root)
        known = loaded.file(path) if loaded is not None else None
        text = self.buffer_text(path)
        if known is None or (text is not None and normalise_newlines(text) != known.text):
            return None
        return loaded

    def publish(self, root: str) -> None:
        """Publish the diagnostics of every file of the pack that is open, has diagnostics,
        or had some last time."""
        snapshot = self.current(root)
        if snapshot is None:
            return
        paths = {f.path for f in snapshot.files.values() if self.buffer_text(f.path) is not None}
        paths |= {p for p in snapshot.diagnostics if snapshot.file(p) is not None}
        previous = self._published.get(root, set())
        blocking = _files_with_errors(snapshot) if snapshot.pack is None else []
        for path in sorted(paths | previous):
            found = [self.to_lsp_diagnostic(d, snapshot)
                     for d in snapshot.diagnostics.get(path, [])]
            found += self._modeline_notes(path, snapshot)
            if blocking and not snapshot.diagnostics.get(path) and snapshot.file(path):
                found.append(self._not_checked(blocking, snapshot))
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=from_fs_path(path), diagnostics=found))
        self._published[root] = paths

    def to_lsp_diagnostic(self, d: Diagnostic, snapshot: Snapshot) -> types.Diagnostic:
        """A compiler diagnostic as the protocol's: exact range, severity, code, and the hint
        in the message (a location it names becomes related information)."""
        path = os.path.normpath(d.path)
        lines = self.file_lines(path, snapshot)
        end_line, end_column = d.end_line, d.end_column
        if (end_line, end_column) <= (d.line, d.column):  # an empty span: mark one character
            end_line, end_column = d.line, d.column + 1
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        related = []
        for match in _LOCATION_IN_HINT.finditer(d.hint):
            line, column = int(match["line"]), int(match["column"])
            other = os.path.normpath(os.path.join(snapshot.root, match["path"])) \
                if not os.path.isabs(match["path"]) else match["path"]
            loc = Loc(other, line, column, line, column + 1)
            related.append(types.DiagnosticRelatedInformation(
                location=self.location(loc, snapshot), message="first defined here"))
        return types.Diagnostic(
            range=self.to_range(lines, d.line, d.column, end_line, end_column),
            severity=_SEVERITY[d.severity], code=d.code, source="rulewright", message=message,
            related_information=related or None)

    def _not_checked(self, blocking: list[str], snapshot: Snapshot) -> types.Diagnostic:
        shown = ", ".join(os.path.relpath(p, snapshot.root) for p in blocking)
        return types.Diagnostic(
            range=types.Range(start=types.Position(line=0, character=0),
                              end=types.Position(line=0, character=1)),
            severity=types.DiagnosticSeverity.Information, source="rulewright",
            message=f"effects and names are not checked until the errors in {shown} are fixed")

    def _modeline_notes(self, path: str, snapshot: Snapshot) -> list[types.Diagnostic]:
        """A note on a ``# yaml-language-server: $schema=`` line whose schema file does not
        exist (the pack was copied out of the repository that ships the schemas)."""
        lines = self.file_lines(path, snapshot)
        for number, text in enumerate(lines[:5], start=1):
            match = _MODELINE.search(text)
            if match is None:
                continue
            target = _schema_path(match["target"], os.path.dirname(path))
            if target is None or os.path.exists(target):
                return []
            folder = os.path.dirname(target)
            return [types.Diagnostic(
                range=self.to_range(lines, number, match.start("target") + 1, number,
                                    match.end("target") + 1),
                severity=types.DiagnosticSeverity.Information, source="rulewright",
                code="schemas",
                message=f"the editor cannot check this file against its schema: "
                        f"{match['target']} does not exist here\n"
                        f"hint: write the schemas there with: rulewright schemas {folder}",
                data={"folder": folder})]
        return []


def _files_with_errors(snapshot: Snapshot) -> list[str]:
    return sorted(p for p, ds in snapshot.diagnostics.items()
                  if any(d.severity == "error" for d in ds))


def _schema_path(target: str, folder: str) -> str | None:
    """The file a modeline's schema reference names (None for a web address)."""
    parsed = urlparse(target)
    if parsed.scheme == "file":
        return unquote(parsed.path)
    if parsed.scheme and len(parsed.scheme) > 1:
        return None
    return os.path.normpath(os.path.join(folder, target))


def _fs_path(uri: str) -> str | None:
    path = to_fs_path(uri) if uri.startswith("file:") else None
    return os.path.normpath(path) if path else None


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("rulewright")
    except PackageNotFoundError:
        return "0"


# ---------------------------------------------------------------- the protocol's features

server = RulewrightServer()


def _opened_or_changed(ls: RulewrightServer, uri: str) -> None:
    path, root = ls.root_of(uri)
    if path is None:
        return
    ls.packs.set_buffer(path, ls.workspace.get_text_document(uri).source)
    if root is not None:
        ls.schedule(root)


@server.feature(types.INITIALIZED)
def initialized(ls: RulewrightServer, params: types.InitializedParams) -> None:
    """Ask the editor to report changes to YAML files on disk (a checkout, another program),
    if it can: files of a pack that are not open count too."""
    workspace = ls.client_capabilities.workspace
    watching = workspace.did_change_watched_files if workspace else None
    if watching is not None and watching.dynamic_registration:
        ls.client_register_capability(types.RegistrationParams(registrations=[
            types.Registration(
                id="rulewright-yaml-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[types.FileSystemWatcher(glob_pattern="**/*.{yaml,yml}")]))]))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def watched_files_changed(ls: RulewrightServer,
                          params: types.DidChangeWatchedFilesParams) -> None:
    """Files changed on disk: check the packs they belong to again."""
    roots = {ls.root_of(change.uri)[1] for change in params.changes}
    for root in sorted(r for r in roots if r is not None):
        ls.schedule(root)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulewrightServer, params: types.DidOpenTextDocumentParams) -> None:
    """A file was opened: check its pack with the buffer's text."""
    _opened_or_changed(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulewrightServer, params: types.DidChangeTextDocumentParams) -> None:
    """A buffer changed: check its pack again once typing pauses."""
    _opened_or_changed(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulewrightServer, params: types.DidSaveTextDocumentParams) -> None:
    """A buffer was saved (the pack reads the same text either way)."""
    _opened_or_changed(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulewrightServer, params: types.DidCloseTextDocumentParams) -> None:
    """A buffer was closed: the file on disk counts again."""
    path, root = ls.root_of(params.text_document.uri)
    if path is None:
        return
    ls.packs.close_buffer(path)
    if root is not None:
        ls.schedule(root)


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=[".", " "]))
def completion(ls: RulewrightServer,
               params: types.CompletionParams) -> types.CompletionList | None:
    """Names and keywords valid at the cursor in effect text; keys and values elsewhere."""
    path, root = ls.root_of(params.text_document.uri)
    if path is None:
        return None
    text = ls.workspace.get_text_document(params.text_document.uri).source
    snapshot = ls.packs.latest_loaded(root) if root is not None else None
    if root is not None and snapshot is None:
        ls.current(root)
        snapshot = ls.packs.latest_loaded(root)
    line, column = ls.from_position(_lines(text), params.position)
    items = complete(snapshot, path, text, line, column)
    return types.CompletionList(is_incomplete=False, items=[_item(i) for i in items])


def _item(item: Completion) -> types.CompletionItem:
    return types.CompletionItem(
        label=item.label, kind=_COMPLETION_KIND.get(item.kind, types.CompletionItemKind.Text),
        detail=item.detail, insert_text=item.insert_text or None,
        sort_text=f"{item.rank}{item.label}")


def _name_under_cursor(ls: RulewrightServer, uri: str, position: types.Position,
                       current_only: bool = False) -> tuple[Snapshot, str, Loc] | None:
    """The snapshot, the defined or used name at the cursor, and where it is. While the pack
    does not load, the last compile that did answers for files unchanged since, unless
    ``current_only`` (a rename must see every file as it is now)."""
    path, root = ls.root_of(uri)
    if root is None:
        return None
    snapshot = ls.current(root)
    if snapshot is not None and snapshot.pack is None:
        snapshot = None if current_only else ls.loaded_for(root, path)
    if snapshot is None:
        return None
    line, column = ls.from_position(ls.file_lines(path, snapshot), position)
    found = snapshot.name_at(path, line, column)
    if found is None:
        return None
    name, loc = found
    return snapshot, name, loc


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: RulewrightServer, params: types.HoverParams) -> types.Hover | None:
    """The definition of the name at the cursor, in words."""
    found = _name_under_cursor(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    snapshot, name, loc = found
    text = describe(snapshot, name)
    if not text:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
                       range=ls.location(loc, snapshot).range)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulewrightServer,
               params: types.DefinitionParams) -> list[types.Location] | None:
    """Where the name at the cursor is defined (every entry of that name)."""
    found = _name_under_cursor(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    snapshot, name, _ = found
    return [ls.location(s.loc, snapshot) for s in snapshot.definitions(name)] or None


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
def references(ls: RulewrightServer,
               params: types.ReferenceParams) -> list[types.Location] | None:
    """Every use of the name at the cursor, in effect text and data fields."""
    found = _name_under_cursor(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    snapshot, name, _ = found
    places = [u.loc for u in snapshot.references(name)]
    if params.context.include_declaration:
        places = [s.loc for s in snapshot.definitions(name)] + places
    return [ls.location(loc, snapshot) for loc in places]


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: RulewrightServer,
                    params: types.DocumentSymbolParams) -> list[types.DocumentSymbol] | None:
    """The entries of the file, by kind, with the entries inside them."""
    path, root = ls.root_of(params.text_document.uri)
    if root is None:
        return None
    snapshot = ls.current(root)
    if snapshot is None or snapshot.file(path) is None:
        return None
    lines = ls.file_lines(path, snapshot)

    def symbol(entry, children=()) -> types.DocumentSymbol:
        whole = entry.entry
        return types.DocumentSymbol(
            name=entry.name, detail=entry.kind.replace("_", " "),
            kind=_SYMBOL_KIND.get(entry.kind, types.SymbolKind.Object),
            range=ls.to_range(lines, whole.line, whole.column, whole.end_line, whole.end_column),
            selection_range=ls.to_range(lines, entry.loc.line, entry.loc.column,
                                        entry.loc.end_line, entry.loc.end_column),
            children=[symbol(child) for child in children] or None)

    return [symbol(entry, inside) for entry, inside in snapshot.file_symbols(path)]


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(ls: RulewrightServer,
                   params: types.PrepareRenameParams) -> types.Range | None:
    """The id at the cursor, if it is one the pack defines."""
    found = _name_under_cursor(ls, params.text_document.uri, params.position, current_only=True)
    if found is None or not found[0].definitions(found[1]):
        return None
    snapshot, _, loc = found
    return ls.location(loc, snapshot).range


@server.feature(types.TEXT_DOCUMENT_RENAME)
def rename(ls: RulewrightServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    """Rename the id at the cursor everywhere in the pack (refused, with the reason shown,
    when that would change what the pack means)."""
    found = _name_under_cursor(ls, params.text_document.uri, params.position, current_only=True)
    if found is None:
        _, root = ls.root_of(params.text_document.uri)
        snapshot = ls.current(root) if root is not None else None
        if snapshot is not None and snapshot.pack is None:
            ls.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Error, message="rulewright: cannot rename: the pack "
                "does not load; fix its errors first, so that every use is known"))
        return None
    snapshot, name, _ = found
    try:
        edits = snapshot.rename(name, params.new_name)
    except RenameRefused as refusal:
        ls.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Error, message=f"rulewright: cannot rename: {refusal}"))
        return None
    changes = {}
    for path, places in edits.items():
        lines = ls.file_lines(path, snapshot)
        changes[from_fs_path(path)] = [
            types.TextEdit(range=ls.to_range(lines, loc.line, loc.column, loc.end_line,
                                             loc.end_column), new_text=new_text)
            for loc, new_text in places]
    return types.WorkspaceEdit(changes=changes)


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION)
def code_action(ls: RulewrightServer, params: types.CodeActionParams
                ) -> list[types.CodeAction | types.Command] | None:
    """For a modeline whose schema is missing: write the schemas where it looks (a quick
    fix, or a plain command for a client without code action literals)."""
    capability = ls.client_capabilities.text_document
    literals = bool(capability and capability.code_action
                    and capability.code_action.code_action_literal_support)
    actions: list[types.CodeAction | types.Command] = []
    for d in params.context.diagnostics:
        if d.source == "rulewright" and d.code == "schemas" and isinstance(d.data, dict):
            folder = d.data.get("folder")
            if isinstance(folder, str):
                title = f"Write rulewright's JSON Schemas to {folder}"
                command = types.Command(title=title, command=WRITE_SCHEMAS_COMMAND,
                                        arguments=[folder])
                actions.append(types.CodeAction(
                    title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[d],
                    command=command) if literals else command)
    return actions or None


@server.command(WRITE_SCHEMAS_COMMAND)
def write_schemas_command(ls: RulewrightServer, folder: str) -> None:
    """Write the JSON Schemas into ``folder`` (an absolute path, as the quick fix gives it),
    then check the open packs again."""
    if not os.path.isabs(folder):
        ls.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Error,
            message=f"rulewright: the schemas folder must be an absolute path, not {folder!r}"))
        return
    try:
        written = write_schemas(folder)
    except OSError as error:
        ls.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Error,
            message=f"rulewright: cannot write the schemas to {folder}: {error.strerror or error}"))
        return
    ls.window_show_message(types.ShowMessageParams(
        type=types.MessageType.Info,
        message=f"rulewright: wrote {len(written)} schemas to {folder}"))
    for root in {ls.packs.pack_root(p) for p in ls.packs.buffers} - {None}:
        ls.publish(root)


class _OneLine(logging.Formatter):
    """A log record on one line: a malformed message from the editor is reported, not
    dumped as a traceback on stderr."""

    def format(self, record: logging.LogRecord) -> str:
        lines = record.getMessage().splitlines() or [""]
        text = f"rulewright lsp: {lines[0]}"  # pygls puts tracebacks on the following lines
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text += f" ({type(error).__name__}: {error})"
        return " ".join(text.split())


def serve() -> None:
    """Run the server on stdin and stdout until the editor shuts it down."""
    handler = logging.StreamHandler()
    handler.setFormatter(_OneLine())
    pygls_log = logging.getLogger("pygls")
    pygls_log.setLevel(logging.ERROR)
    pygls_log.addHandler(handler)
    pygls_log.propagate = False
    server.start_io()
