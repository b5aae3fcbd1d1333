"""The `omp-lsp` command line: `--check` for CI, otherwise the language server.

`--check` goes through the same analysis entry point as the server and must stay lean:
nothing here imports pygls (the server stack is imported only when the server starts).
"""
from __future__ import annotations

import argparse
import gc
import os
import stat
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from omp_lsp.analysis.check import (
    PROPAGATION_MODES,
    UNSUPPORTED,
    Build,
    CompileDatabase,
    Document,
    Options,
    Severity,
    analyze_files,
    dataclass,
    field,
    language_for_path,
)
from omp_lsp.server.config import (
    DEFAULT_MAX_FILE_MB,
    Config,
    apply,
    canonical,
    find_project_file,
    read_project_file,
)
from omp_lsp.server.escaping import line_text
from omp_lsp.server.report import CheckedFile
from omp_lsp.server.sources import Excludes, Skipped, read_document, walk

from omp_lsp import __version__


class UsageError(Exception):
    """A problem with the command line or its paths: one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    # A fixed help width: argparse would otherwise import shutil on every start to ask the terminal.
    p = _Parser(prog="omp-lsp", formatter_class=lambda prog: argparse.HelpFormatter(prog, width=100),
                description="OpenMP offloading diagnostics for C, C++ and Fortran. "
                "Without --check, runs the language server on stdio.")
    p.add_argument("--version", action="version", version=f"omp-lsp {__version__}")
    p.add_argument("--check", action="store_true", help="check the given files and directories and exit")
    p.add_argument("--device-map", action="store_true",
                   help="print every procedure and static variable of the given files with its effective "
                   "device type, explicit or implicit, and the chain that made it device code")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or directories to check (recursively)")
    p.add_argument("--openmp-version", default=None, metavar="V",
                   help="OpenMP version: 4.5, 5.0, 5.1 (default, or what compile_commands.json gives), 5.2 or 6.0")
    p.add_argument("--propagation", choices=PROPAGATION_MODES, default=None,
                   help="implicit device types as the spec gives them (default), or as flang generates them")
    p.add_argument("--device-toolchain", action="append", default=[], metavar="NAME",
                   help=f"a toolchain the device code must build with, for OMP407 (repeatable: {', '.join(UNSUPPORTED)})")
    p.add_argument("--no-config", action="store_true",
                   help="ignore project files (.omp-lsp.toml, [tool.omp-lsp] in pyproject.toml)")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                   help="define a macro for every file, as the compilers' -D does (after compile_commands.json's own)")
    p.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME",
                   help="undefine a macro for every file, as the compilers' -U does")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="search DIR for #include, as the compilers' -I does (after compile_commands.json's own)")
    p.add_argument("--compile-commands", metavar="FILE",
                   help="compile_commands.json naming the program's files (default: found next to or above "
                   "the first path)")
    p.add_argument("--format", choices=("gcc", "json", "sarif"), default="gcc", help="output format (default gcc)")
    p.add_argument("--fail-on", choices=("error", "warning"), default="error",
                   help="exit 1 when a finding at or above this severity is reported (default error)")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="skip files and directories matching GLOB (repeatable)")
    p.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                   help="analyse the files in N processes (default: the number of CPUs); the output is the same. "
                        "The server: index the workspace in N processes")
    p.add_argument("--max-file-size", type=float, default=DEFAULT_MAX_FILE_MB, metavar="MB",
                   help=f"skip files larger than this (default {DEFAULT_MAX_FILE_MB:g} MB)")
    p.add_argument("--stdio", action="store_true", help="run the language server on stdio (the default)")
    p.add_argument("--tcp", type=int, metavar="PORT", help="run the language server on a TCP port")
    p.add_argument("--host", default="127.0.0.1", help="host for --tcp (default 127.0.0.1)")
    return p


def collect_files(paths: Sequence[str], excludes: Sequence[str]) -> list[str]:
    """Source files named directly or found (by extension) below the given directories. A given
    path that cannot be read is a usage error; inside a given folder, what cannot be read (a
    folder that cannot be listed, a symbolic link loop) is skipped with a warning, as a linter
    skips what it cannot see and checks the rest."""
    matcher = Excludes(excludes)
    files: list[str] = []
    for path in paths:
        try:
            is_dir = stat.S_ISDIR(os.stat(path).st_mode)
        except FileNotFoundError:
            raise UsageError(f"{path}: no such file or directory") from None
        except OSError as err:   # a symbolic link loop
            raise UsageError(f"{path}: cannot read: {err.strerror}") from None
        if is_dir:
            skipped: list[Skipped] = []
            files.extend(walk(path, matcher, skipped))
            for problem in skipped:
                if problem.path == path:
                    raise UsageError(str(problem))
                _note(f"warning: {problem.path}: skipped: {problem.reason}")
        else:
            if language_for_path(path) is None:
                raise UsageError(f"{path}: not a C, C++ or Fortran source file (unknown extension "
                                 f"'{os.path.splitext(path)[1]}')")
            if not matcher.excludes(path.replace(os.sep, "/")):
                files.append(path)
    return files


def _note(message: str) -> None:
    """One line on stderr. (Messages name files: `line_text` escapes what a file name may hold,
    bytes that are not UTF-8, a newline, a terminal escape sequence, as the reports do.)"""
    print(f"omp-lsp: {line_text(message)}", file=sys.stderr)


def read_file(path: str, max_bytes: int, named: bool = True) -> Document | None:
    """A file's document (None: skipped, with a warning). A file named on the command line that
    cannot be read is a usage error; one found in a folder or compile_commands.json is skipped."""
    try:
        document, warning = read_document(path, max_bytes)
    except OSError as err:
        if named:
            raise UsageError(f"{path}: cannot read: {err.strerror}") from None
        document, warning = None, f"skipped: cannot read: {err.strerror}"
    if warning:
        _note(f"warning: {path}: {warning}")
    return document


def _program(args: argparse.Namespace, files: list[str]) -> tuple[list[str], CompileDatabase | None]:
    """The files that form the program with the given ones (compile_commands.json) and the
    database's OpenMP version. Database files outside the given paths are read for the
    cross-file rules and propagation only."""
    from omp_lsp.analysis.check import CompileCommandsError, find_compile_commands, load_compile_commands
    path = args.compile_commands
    if path is None and args.paths:
        path = find_compile_commands(os.path.abspath(args.paths[0]))
    if path is None:
        return [], None
    try:
        database = load_compile_commands(path)
    except CompileCommandsError as err:
        raise UsageError(str(err)) from None
    given = {os.path.abspath(f) for f in files}
    extra = [f for f in database.files() if f not in given and os.path.isfile(f)]
    return extra, database


@dataclass
class ProjectFile:
    path: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def _project_file(args: argparse.Namespace) -> ProjectFile:
    """The project file next to or above the first path (read once: it names excludes too)."""
    path = None if args.no_config else find_project_file(args.paths[0])
    if path is None:
        return ProjectFile()
    settings, problems = read_project_file(path)
    return ProjectFile(path, settings, problems)


def _configure(args: argparse.Namespace, project: ProjectFile, database_version: int | None) -> Config:
    """Defaults, then compile_commands.json's version, then the project file, then the flags."""
    config = Config()
    if database_version is not None:
        config, _ = apply({"openmpVersion": database_version}, config, "compile_commands.json")
    config, problems = apply(project.settings, config, project.path or "")
    for problem in [*project.problems, *problems]:
        _note(f"warning: {problem}")
    for flag, setting, value in (("--openmp-version", "openmpVersion", args.openmp_version),
                                 ("--propagation", "propagation", args.propagation),
                                 ("--device-toolchain", "deviceToolchains", args.device_toolchain or None),
                                 ("-D", "defines", args.defines or None), ("-U", "undefines", args.undefines or None)):
        if value is None:
            continue
        config, problems = apply({setting: value}, config, flag)
        if problems:   # a flag is the user's explicit word: a bad one is a usage error
            raise UsageError(problems[0].split("; keeping")[0].replace(f"{flag}: {setting}: ", f"{flag}: ", 1))
    return config


def _build(args: argparse.Namespace, project: ProjectFile, config: Config, database: CompileDatabase | None) -> Build:
    """How the files are compiled: compile_commands.json, then the project file's and the
    command line's macros and include folders (a project file's relative folders are its own)."""
    base = os.path.dirname(project.path) if project.path else os.getcwd()
    dirs = [os.path.join(base, d) for d in config.include_paths] + [os.path.abspath(d) for d in args.include_dirs]
    chosen = args.openmp_version is not None or any(canonical(str(k)) == "openmpVersion" for k in project.settings)
    return Build(database, config.defines, tuple(os.path.normpath(d) for d in dirs), file_versions=not chosen)


def _read_program(args: argparse.Namespace) -> tuple[list[str], dict[str, Document], Options, Build,
                                                     CompileDatabase | None]:
    """(the given files, every document of the program, options, build, compile_commands.json)."""
    if not args.paths:
        raise UsageError(f"{'--device-map' if args.device_map else '--check'} needs at least one file or directory")
    if args.max_file_size <= 0:
        raise UsageError("--max-file-size must be positive")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("-j needs a positive number of processes")
    project = _project_file(args)
    excluded_by_project, _ = apply({k: v for k, v in project.settings.items() if canonical(str(k)) == "exclude"},
                                   Config(), project.path or "")
    files = collect_files(args.paths, [*args.exclude, *excluded_by_project.exclude])
    extra, database = _program(args, files)
    config = _configure(args, project, database.openmp_version() if database is not None else None)
    options = config.options
    max_bytes = int(args.max_file_size * 1e6)
    documents: dict[str, Document] = {}
    named = set(args.paths)
    for path in [*files, *extra]:
        document = read_file(path, max_bytes, named=path in named)
        if document is not None:
            documents[path] = document
    return files, documents, options, _build(args, project, config, database), database


def run_check(args: argparse.Namespace, own_process: bool = False) -> int:
    """`own_process`: the process exits once the check is reported."""
    from . import report  # formats only; no server stack
    from .check_jobs import BATCH_BYTES, check, default_jobs
    files, documents, options, build, database = _read_program(args)
    if own_process and sum(len(d.source) for d in documents.values()) <= BATCH_BYTES:
        # As a worker of a larger check: a process that reads at most a batch of source and then
        # exits has nothing worth collecting (one collection of a 10,000-line file's analysis
        # cost a twentieth of its check).
        gc.disable()
    given = set(files)
    # Cross-file rules see every file of the program as one workspace.
    results = check(documents, options, build, database, args.jobs or default_jobs())
    checked = [CheckedFile(path, r.findings, r.internal_errors, r.lines) for path, r in results.items() if path in given]
    for c in checked:
        for message in c.internal_errors:
            _note(f"{c.path}: {message}")
    out = sys.stdout
    others = {path: r.lines for path, r in results.items() if path not in given}
    if args.format == "json":
        report.write_json(checked, out, others)
    elif args.format == "sarif":
        report.write_sarif(checked, out, others)
    else:
        report.write_gcc(checked, out, others)
    threshold = Severity.ERROR if args.fail_on == "error" else Severity.WARNING
    failing = any(f.effective_severity >= threshold for c in checked for f in c.findings)
    return 1 if failing else 0


def run_device_map(args: argparse.Namespace) -> int:
    from omp_lsp.analysis.check import workspace_context

    from . import report
    if args.format == "sarif":
        raise UsageError("--device-map prints text or json (--format json)")
    _, documents, options, build, database = _read_program(args)
    analyses = analyze_files(documents, options, build)
    graph = workspace_context(analyses, options, None, database).device_graph
    lines = {path: a.document.lines for path, a in analyses.items()}
    if args.format == "json":
        report.write_device_map_json(graph, lines, sys.stdout)
    else:
        report.write_device_map_text(graph, lines, sys.stdout)
    return 0


def run_server(args: argparse.Namespace, own_process: bool = False) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("-j needs a positive number of processes")
    if own_process:
        from .allocator import start_again_on_c_allocator
        start_again_on_c_allocator()
    from .app import start
    from .check_jobs import default_jobs
    return start(tcp=args.tcp, host=args.host, jobs=args.jobs or default_jobs())


# The analysis makes many small linked records (scopes <-> symbols). With the default thresholds
# the cycle collector ran every 700 allocations, and its full collections walked every object a
# check or the server holds: about a third of the time of analysing a 10,000-line file.
GC_THRESHOLDS = (200_000, 20, 20)


def main(argv: Sequence[str], own_process: bool = False) -> int:
    """`own_process`: this is the program, not a call from Python (the server may start itself again)."""
    gc.set_threshold(*GC_THRESHOLDS)
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv))
        if args.check and args.device_map:
            raise UsageError("--check and --device-map cannot be combined")
        if args.check:
            return run_check(args, own_process)
        if args.device_map:
            return run_device_map(args)
        if args.paths:
            raise UsageError("paths are only accepted with --check or --device-map")
        return run_server(args, own_process)
    except UsageError as err:
        _note(f"error: {err}")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
