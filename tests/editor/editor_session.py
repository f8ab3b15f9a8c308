"""A language client that drives ``rulewright lsp`` over stdio as an editor does (pygls).

Test support, not a test: ``EditorSession`` starts the server as a child process, sends
``initialize``, opens and changes buffers with full-text changes, waits for the diagnostics
the server publishes, and sends requests. Everything the server writes to stderr is kept, so a
test can check that no traceback was printed.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

WAIT_SECONDS = 60.0  # a generous bound on a slow, shared machine; never reached when it works


def uri(path: Path | str) -> str:
    """The file URI of a path."""
    return from_fs_path(str(path))


class EditorSession:
    """One editor connected to one ``rulewright lsp`` process."""

    def __init__(self) -> None:
        self.client = LanguageClient("rulewright-tests", "1")
        self.published: dict[str, list[list[types.Diagnostic]]] = {}
        self.messages: list[str] = []
        self.registrations: list[types.Registration] = []
        self.stderr = b""
        self._versions: dict[str, int] = {}
        self._arrived = asyncio.Condition()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            async with self._arrived:
                self.published.setdefault(params.uri, []).append(params.diagnostics)
                self._arrived.notify_all()

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def on_message(params: types.ShowMessageParams) -> None:
            self.messages.append(params.message)

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(params: types.LogMessageParams) -> None:
            self.messages.append(params.message)

        @self.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def on_register(params: types.RegistrationParams) -> None:
            self.registrations.extend(params.registrations)

    async def start(self, folder: Path, watches_files: bool = False) -> types.InitializeResult:
        """Start the server and initialize it with ``folder`` as the workspace (an editor
        that can watch files for the server if ``watches_files``)."""
        await self.client.start_io(sys.executable, "-m", "rulewright.runtime.cli", "lsp")
        self._stderr_task = asyncio.create_task(self._drain_stderr())
        capabilities = types.ClientCapabilities()
        if watches_files:
            capabilities = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(
                did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                    dynamic_registration=True)))
        result = await self.client.initialize_async(types.InitializeParams(
            capabilities=capabilities, root_uri=uri(folder),
            workspace_folders=[types.WorkspaceFolder(uri=uri(folder), name=folder.name)]))
        self.client.initialized(types.InitializedParams())
        return result

    def file_changed_on_disk(self, path: Path) -> None:
        """Tell the server that ``path`` changed on disk (as an editor watching files does)."""
        self.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(path), type=types.FileChangeType.Changed)]))

    async def _drain_stderr(self) -> None:
        stream = self.client._server.stderr
        while chunk := await stream.read(65536):
            self.stderr += chunk

    def seen(self, path: Path) -> int:
        """How many times diagnostics were published for ``path`` so far."""
        return len(self.published.get(uri(path), []))

    async def diagnostics(self, path: Path, after: int) -> list[types.Diagnostic]:
        """The first diagnostics published for ``path`` after the ``after``-th."""
        async with self._arrived:
            await asyncio.wait_for(self._arrived.wait_for(lambda: self.seen(path) > after),
                                   WAIT_SECONDS)
            return self.published[uri(path)][after]

    def open(self, path: Path, text: str | None = None) -> None:
        """Open ``path`` in the editor (its text on disk unless ``text`` is given)."""
        self._versions[uri(path)] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri(path), language_id="yaml", version=1,
                text=path.read_text(encoding="utf-8") if text is None else text)))

    def change(self, path: Path, text: str) -> None:
        """Replace the whole buffer of ``path`` with ``text`` (unsaved)."""
        version = self._versions[uri(path)] = self._versions.get(uri(path), 1) + 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    def close(self, path: Path) -> None:
        """Close the buffer of ``path`` (the file on disk counts again)."""
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path))))

    async def stop(self) -> None:
        """Shut the server down as an editor does: ``shutdown``, then ``exit``."""
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()
        await self._stderr_task


def _offset(text: str, position: types.Position) -> int:
    """The index in ``text`` of a protocol position (UTF-16 code units, the default)."""
    start = 0
    for _ in range(position.line):
        start = text.index("\n", start) + 1
    units = 0
    index = start
    while units < position.character:
        units += 2 if ord(text[index]) > 0xFFFF else 1
        index += 1
    return index


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """``text`` with the edits of a WorkspaceEdit applied, as an editor applies them."""
    spans = sorted(((_offset(text, e.range.start), _offset(text, e.range.end), e.new_text)
                    for e in edits), reverse=True)
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text
