"""Document synchronisation: open, incremental change, close, and files changed on disk."""
from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

from lsprotocol import types as lsp
from omp_lsp.analysis.check import (
    SOURCE_EXTENSIONS,
    Document,
    TextEdit,
    edits_preprocessor_lines,
    language_for_id,
    language_for_path,
)
from omp_lsp.server.open_documents import OpenDocument
from pygls.workspace import TextDocument

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer

log = logging.getLogger("omp_lsp.server")


def register(server: OmpLanguageServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: OmpLanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        path = ls.path_of(item.uri)
        language = language_for_id(item.language_id, path) or language_for_path(path)
        if language is None:
            return
        previous = ls.open.pop(item.uri, None)
        if previous is not None:
            previous.closed = True
        state = ls.open[item.uri] = OpenDocument(item.uri, path, Document(item.text, language, item.version))
        ls.headers.overlay[path] = state.doc.source   # what files that include it read
        if item.uri in ls.build_pushed and ls.pulls_diagnostics:
            # build diagnostics were pushed while it was closed: from now on they are pulled with
            # the file's own, and a client holding both would show them twice
            ls.build_pushed.discard(item.uri)
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=item.uri, diagnostics=[]))
        ls.start_indexing()   # (done from `initialized`; a client that opens first starts it here)
        ls.schedule(state)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: OmpLanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        state = ls.open.get(uri)
        if state is None:
            log.warning("didChange for a document that is not open: %s", uri)
            return
        _note_version(ls, state, params.text_document.version)
        ls.quiet_for_now()
        preprocessor = False   # an edit of a preprocessor line: files that include this one may read it
        before = state.doc.source
        try:
            for change in params.content_changes:
                if isinstance(change, lsp.TextDocumentContentChangePartial):
                    edit = TextEdit((change.range.start.line, change.range.start.character),
                                    (change.range.end.line, change.range.end.character), change.text)
                else:
                    edit = TextEdit(None, None, change.text)
                old = state.doc.source
                state.doc.apply(edit, ls.encoding, parse=False)   # (the tree follows in ls.take_edits)
                assert state.doc.last_change is not None
                preprocessor |= edits_preprocessor_lines(old, state.doc.source, state.doc.last_change)
                # (the analysis takes it soon, with the edits that come meanwhile: ls.take_edits)
                state.applied(old, state.doc.last_change)
            state.doc.version = params.text_document.version
        except Exception as err:
            log.exception("could not apply the change to %s; applying it to the text as a whole", uri)
            ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, (
                f"omp-lsp: {uri}: could not apply the change ({type(err).__name__}: {err}); "
                "applied it to the text as a whole")))
            text = TextDocument(uri, before.decode("utf-8", "surrogatepass"),
                                position_codec=ls.workspace.position_codec)
            for change in params.content_changes:   # pygls' own editing, not ours that failed
                text.apply_change(change)
            state.doc = Document(text.source, state.doc.language, params.text_document.version)
            state.outdated()   # the log no longer leads to this text
        ls.headers.overlay[state.path] = state.doc.source
        if preprocessor:
            for includer in ls.includers_of(state.path):
                ls.analyse_again(includer)
        ls.schedule(state)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: OmpLanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        state = ls.open.pop(uri, None)
        if state is None:
            return
        state.closed = True
        state.pending = []   # (the texts they hold)
        ls.headers.overlay.pop(state.path, None)
        ls.headers.forget(state.path)
        ls.published.pop(uri, None)
        if not ls.pulls_diagnostics:
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        # The workspace goes back to the file on disk (or forgets it if it is not there): soon,
        # between other messages, and once for the files closed together.
        if os.path.isfile(state.path):
            ls.index_soon(state.path)
        else:
            ls.set_analysis(state.path, None)
            ls.results_soon()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: OmpLanguageServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        """A closed source file changed, appeared or went away on disk: read it again (open documents
        are the editor's: their disk copies do not count) and republish what the change affects. A
        project file or compile_commands.json: the settings are read again."""
        names = {os.path.basename(ls.path_of(event.uri)) for event in params.changes}
        if names & set(SETTINGS_FILES):
            ls.reload_settings_files(compile_commands=COMPILE_COMMANDS in names)
        open_paths = {state.path for state in ls.open.values()}
        changed = False
        for event in params.changes:
            path = ls.path_of(event.uri)
            if path in open_paths or language_for_path(path) is None:
                continue
            ls.headers.forget(path)
            if event.type == lsp.FileChangeType.Deleted:
                changed = path in ls.analyses or changed
                ls.set_analysis(path, None)
            else:
                ls.index_file(path)
                changed = True
            for includer in ls.includers_of(path):   # they read its definitions
                ls.analyse_again(includer)
        if changed:
            ls.update_results()


def _note_version(ls: OmpLanguageServer, state: OpenDocument, version: int) -> None:
    """A version that does not go up (a client that reorders or repeats its messages) is logged,
    once a document. Its edits are still applied, in the order they came: each edits the text the
    client had when it sent it, so the order received is the only one the text can follow; and the
    version given stays the document's (it names the client's text, which the diagnostics are for)."""
    if state.doc.version is not None and version <= state.doc.version:
        key = f"didChange versions out of order: {state.uri}"
        if key not in ls.reported:
            ls.reported.add(key)
            log.warning("%s: version %d after %d; the edits are applied in the order they came",
                        key, version, state.doc.version)


# The files whose settings the server reads (the project file, the compile commands).
COMPILE_COMMANDS = "compile_commands.json"
SETTINGS_FILES = (".omp-lsp.toml", "pyproject.toml", COMPILE_COMMANDS)


async def watch_source_files(ls: OmpLanguageServer) -> None:
    """Ask the client to report changes to the workspace's source files on disk (closed files
    take part in the cross-file rules and propagation) and to its settings files."""
    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace is not None else None
    if watched is None or not watched.dynamic_registration:
        return
    extensions = ",".join(sorted(ext.lstrip(".") for ext in SOURCE_EXTENSIONS))
    options = lsp.DidChangeWatchedFilesRegistrationOptions(
        watchers=[lsp.FileSystemWatcher(glob_pattern=f"**/*.{{{extensions}}}"),
                  lsp.FileSystemWatcher(glob_pattern=f"**/{{{','.join(SETTINGS_FILES)}}}")])
    try:
        await ls.client_register_capability_async(lsp.RegistrationParams(registrations=[lsp.Registration(
            id="omp-lsp-sources", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)]))
    except Exception:   # a client that refuses keeps the files as they were read
        log.exception("could not register file watchers")
