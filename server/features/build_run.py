"""Build and run on host and device, from the editor (codegen): the commands `omp-lsp.buildAndRun`
and `omp-lsp.showOffloadEntries` (argument: a document URI), offered as a code action on a file
with a main program. Nothing builds or runs but on this explicit request. While it works, a
work-done progress shows; the result (the JSON of `omp-lsp run --format json`) is returned, a
summary shown, the full report logged, and the build's diagnostics published with the file's
until the next build that succeeds. A newer request for the same file cancels the one running, as
`$/cancelRequest` does (server/protocol.py cancels the command's coroutine with its request), and
so does the user cancelling the progress (window/workDoneProgress/cancel: answered the same);
`shutdown`, `exit`, SIGTERM and the client leaving stop every build at once (codegen/supervision.py).
"""
from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any, cast

from lsprotocol import types as lsp
from omp_lsp.analysis.check import LineIndex
from omp_lsp.codegen import supervision
from omp_lsp.codegen.build_and_run import Report, build_and_run
from omp_lsp.codegen.places import main_program
from omp_lsp.codegen.toolchains import discover, found_names, pick
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer

from ..escaping import file_uri
from ..progress import begin_progress, end_progress, on_cancel
from ..protocol import OmpProtocol
from ..run_command import LANGUAGES, entry_flags, report_json, write_text

if TYPE_CHECKING:
    from omp_lsp.server.lsp import OmpLanguageServer
    from omp_lsp.server.open_documents import OpenDocument

log = logging.getLogger("omp_lsp.server")

BUILD_AND_RUN = "omp-lsp.buildAndRun"
SHOW_OFFLOAD_ENTRIES = "omp-lsp.showOffloadEntries"
# A source action (VS Code: "Source Action..."; Neovim lists every action): it concerns the file.
SOURCE_KIND = "source.buildAndRun"
_SEVERITIES = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
               "information": lsp.DiagnosticSeverity.Information}


class BuildAndRunOff(JsonRpcException):
    """The answer to `omp-lsp.buildAndRun` with the `buildAndRun` setting false. RequestFailed
    (-32803) is the LSP's code for a valid request the server declines, its message for the
    user; not InvalidRequest (-32600: a malformed message) nor InternalError (-32603: a fault)."""
    CODE = lsp.LSPErrorCodes.RequestFailed.value
    MESSAGE = ("omp-lsp: build and run is turned off (the buildAndRun setting is false: the editor's "
               "workspace trust or setting, or the project file)")


def action(ls: OmpLanguageServer, state: OpenDocument) -> lsp.CodeAction | None:
    """The "Build and run" code action, for a file that holds a main program (none when build and
    run is turned off)."""
    if not ls.config.build_and_run:
        return None
    analysis = ls.analyses.get(state.path)
    if analysis is None or analysis.context is None or main_program(analysis.context.model) is None:
        return None
    return lsp.CodeAction("Build and run on host and device", kind=SOURCE_KIND,
                          command=lsp.Command("Build and run on host and device", BUILD_AND_RUN, arguments=[state.uri]))


def register(server: OmpLanguageServer) -> None:
    running: dict[str, threading.Event] = {}   # path -> the cancel switch of its build in progress
    reports: dict[str, Report] = {}            # path -> its last report

    @server.feature(lsp.EXIT)
    async def exit_(ls: OmpLanguageServer, params: None) -> None:
        """`exit`: the builds under way (if `shutdown` did not stop them) stop, and their
        commands answer, before the server ends (else it would wait for their runs' timeouts,
        and their cancelled requests log tracebacks)."""
        stop_builds()
        for _ in range(250):   # (up to 5 s; their threads return at once)
            if not running:
                return
            await asyncio.sleep(0.02)

    # (pygls reads a command handler's type hints to convert its arguments: they must resolve at
    # run time, where OmpLanguageServer cannot be imported from here)
    @server.command(BUILD_AND_RUN)
    async def build_and_run_command(ls: LanguageServer, *arguments: Any) -> dict[str, Any] | None:
        ls = cast("OmpLanguageServer", ls)
        if not ls.config.build_and_run:   # (before its arguments: nothing of the request is used)
            raise BuildAndRunOff()
        uri = _uri_argument(BUILD_AND_RUN, arguments)
        state = ls.open.get(uri)
        if state is None:
            ls.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Error, f"omp-lsp: {uri} is not open"))
            return None
        language = LANGUAGES.get(state.doc.language)
        if language is None or supervision.stopping():
            return None
        previous = running.get(state.path)
        if previous is not None:
            previous.set()   # a newer build of the same file: the older one stops
        cancel = running[state.path] = threading.Event()
        request = ls.protocol.msg_id   # (the executeCommand's: its step runs in the request's context)
        token = await _progress_begin(ls, f"omp-lsp: building and running {state.path.rsplit('/', 1)[-1]}")
        if token is not None and request is not None:
            protocol = cast(OmpProtocol, ls.protocol)
            on_cancel(ls, token, lambda: protocol.cancel_request(request))
        try:
            report = await asyncio.to_thread(_build_live_text, state.path, state.doc.source, language,
                                             ls.config.toolchain, ls.options.openmp_version, _flags(ls, state.path),
                                             cancel)
        except asyncio.CancelledError:   # (the server ends, the client gone): the build stops too
            cancel.set()
            raise
        finally:
            if running.get(state.path) is cancel:
                del running[state.path]
            _progress_end(ls, token)
        if cancel.is_set() or supervision.stopping():
            return None   # (superseded: the newer build reports; or the server stops)
        reports[state.path] = report
        _publish(ls, state, report)
        text = io.StringIO()
        write_text(report, text)
        ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Info, text.getvalue()))
        ls.window_show_message(lsp.ShowMessageParams(
            lsp.MessageType.Info if report.ok else lsp.MessageType.Warning, summary(report)))
        return report_json(report)

    @server.command(SHOW_OFFLOAD_ENTRIES)
    async def show_offload_entries(ls: LanguageServer, *arguments: Any) -> list[dict[str, Any]] | None:
        ls = cast("OmpLanguageServer", ls)
        uri = _uri_argument(SHOW_OFFLOAD_ENTRIES, arguments)
        state = ls.open.get(uri)
        report = reports.get(state.path) if state is not None else None
        if report is None:
            ls.window_show_message(lsp.ShowMessageParams(
                lsp.MessageType.Info, "omp-lsp: build and run the file first: its device image is read then"))
            return None
        lines = [f"{e['kind']}: {e.get('function', e['name'])}" + (f" (line {e['line']})" if "line" in e else "")
                 for e in report.offload_entries] or ["(no device image was read)"]
        ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Info, "\n".join(lines)))
        return report.offload_entries


def _uri_argument(command: str, arguments: tuple[Any, ...]) -> str:
    """The command's one argument, a document URI (else InvalidParams: pygls would turn a number
    into a string, and call the command without its argument when `arguments` is missing)."""
    if len(arguments) != 1 or not isinstance(arguments[0], str):
        raise JsonRpcInvalidParams(message=f"Invalid params: {command} takes one argument, a document URI "
                                   f"(given: {json.dumps(list(arguments))[:80]})")
    return arguments[0]


def stop_builds() -> None:
    """The server stops (`shutdown`): the builds under way end now, every process they started
    killed (their threads then return at once, removing their folders), and none starts after."""
    supervision.stop()


def terminate_on_sigterm() -> None:
    """SIGTERM ends the server as it would by default, but not before the builds under way are
    stopped and their folders removed."""
    supervision.own_process()
    signal.signal(signal.SIGTERM, _terminate)


def end_builds() -> None:
    """The server ends, however it ends (`exit`, the end of its input, a framing error): the
    builds under way stop and their folders are removed before the process goes."""
    supervision.stop()
    supervision.remove_folders(wait=5.0)   # (the builds' threads remove them as they return)


def _terminate(number: int, _frame: object) -> None:
    end_builds()
    with contextlib.suppress(OSError, ValueError):   # (not print: the signal may come mid-write)
        os.write(sys.stderr.fileno(), b"omp-lsp: terminated\n")
    os._exit(128 + number)


def _flags(ls: OmpLanguageServer, path: str) -> list[str]:
    """The include paths and macros of the file's compile_commands.json entry (the workspace's)."""
    entry = ls.database.entry_for(path) if ls.database is not None else None
    return entry_flags(entry) if entry is not None else []


def _build_live_text(path: str, text: bytes, language: str, setting: str | None, version: int,
                     flags: list[str], cancel: threading.Event) -> Report:
    """Build and run the editor's text of `path` (saved or not) with the toolchain the setting
    names (else the one picked): a copy in a temporary folder, headers and modules found in the
    file's own folder (-I), and the report then speaks of `path`. (On a worker thread: finding
    the toolchains reads folders.)"""
    toolchains = discover()
    toolchain = pick(toolchains, language, setting)
    others = [t for t in toolchains if t is not toolchain]
    with supervision.temporary_folder("omp-lsp-live-") as folder:
        copy = os.path.join(folder, os.path.basename(path))
        with open(copy, "wb") as f:
            f.write(text)
        report = build_and_run(copy, language, toolchain, 60.0, version, [f"-I{os.path.dirname(path)}", *flags],
                               others=others, cancel=cancel)
    report.file = path
    if setting and toolchain is None:   # (the command line says so as a usage error)
        report.notes.insert(0, f"the toolchain setting names {setting}, which compiles no {language} here "
                               f"(found: {found_names(toolchains)})")
    for d in [*(d for b in report.builds for d in b.diagnostics), *report.diagnostics]:
        for place in (d, *d["related"]):
            if place["file"] == copy:
                place["file"] = path
    return report


def summary(report: Report) -> str:
    """One line for window/showMessage."""
    parts = []
    for b in report.builds:
        parts.append(f"{b.kind} build {'ok' if b.process.ok else 'failed'}")
    for r in report.runs:
        state = "timed out" if r.process.timed_out else f"exit {r.process.exit_code}"
        parts.append(f"{r.kind} run {state}" + (", offloaded" if r.offloaded else ""))
    if report.same_output is not None:
        parts.append("same output" if report.same_output else "outputs differ")
    return f"omp-lsp build and run ({report.toolchain or 'no toolchain'}): " + "; ".join(parts or report.notes)


def _publish(ls: OmpLanguageServer, state: OpenDocument, report: Report) -> None:
    """The build's and runs' diagnostics, published for the files they concern: the built file
    and the project's headers (none after a build and run that succeed, and a file the last
    build said something about and this one does not is cleared). An open file shows them
    with its own; one not open gets them pushed (no pull reaches it)."""
    found = [d for b in report.builds for d in b.diagnostics] if not report.ok else []
    by_file: dict[str, list[dict[str, Any]]] = {report.file: []}
    for d in [*found, *report.diagnostics]:
        if d not in by_file.setdefault(d["file"], []):   # (both builds say the same of shared code: once)
            by_file[d["file"]].append(d)
    for path in ls.build_files.get(report.file, set()) - by_file.keys():
        by_file[path] = []
    ls.build_files[report.file] = {path for path, ds in by_file.items() if ds}
    for path, ds in by_file.items():
        per_file = ls.build_diagnostics.setdefault(path, {})
        per_file[report.file] = [d for d in (_diagnostic(ls, d) for d in ds) if d is not None]
        if not per_file[report.file]:
            del per_file[report.file]
        if not per_file:
            del ls.build_diagnostics[path]
        if ls.open_at(path) is None:
            uri = file_uri(path)
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=uri, diagnostics=[d for built in per_file.values() for d in built]))
            (ls.build_pushed.add if per_file else ls.build_pushed.discard)(uri)
    ls.publish_all(state.uri)


def _diagnostic(ls: OmpLanguageServer, d: dict[str, Any]) -> lsp.Diagnostic | None:
    """A build diagnostic (1-based lines and code-point columns, as --check writes them) in the
    file's current text: the editor's for an open file, else the file on disk."""
    where = _location(ls, d["file"], d["line"], d["column"], d["end_line"], d["end_column"])
    if where is None:
        return None
    related = [lsp.DiagnosticRelatedInformation(at, r["message"]) for r in d["related"]
               if (at := _location(ls, r["file"], r["line"], r["column"], r["line"], r["column"])) is not None]
    return lsp.Diagnostic(where.range, d["message"], severity=_SEVERITIES.get(d["severity"], lsp.DiagnosticSeverity.Information),
                          code=d["code"], source="omp-lsp build", related_information=related or None)


def _location(ls: OmpLanguageServer, path: str, line: int, column: int, end_line: int, end_column: int) -> lsp.Location | None:
    state = ls.open_at(path)
    if state is not None:
        lines, uri = state.doc.lines, state.uri
    else:
        # regular files only: a named pipe the compiler's message names must not block the server
        from omp_lsp.analysis.check import read_regular_file
        from omp_lsp.server.config import DEFAULT_MAX_FILE_MB
        try:
            lines, uri = LineIndex(read_regular_file(path, int(DEFAULT_MAX_FILE_MB * 1e6))), file_uri(path)
        except OSError:
            return None
    start = lines.offset(line - 1, column - 1, "utf-32")
    end = max(start, lines.offset(end_line - 1, end_column - 1, "utf-32"))
    return lsp.Location(uri, lsp.Range(lsp.Position(*lines.position(start, ls.encoding)),
                                       lsp.Position(*lines.position(end, ls.encoding))))


async def _progress_begin(ls: OmpLanguageServer, title: str) -> str | None:
    token = f"omp-lsp-build-{id(title)}-{asyncio.get_running_loop().time()}"
    return await begin_progress(ls, token, lsp.WorkDoneProgressBegin(title=title, cancellable=True))


def _progress_end(ls: OmpLanguageServer, token: str | None) -> None:
    if token is not None:
        end_progress(ls, token, lsp.WorkDoneProgressEnd(message="done"))
