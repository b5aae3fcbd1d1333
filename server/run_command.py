"""`omp-lsp run FILE`: build a file for the host and for a device, run both, and report.

Exit status 0 when both builds and both runs succeed with the same output, 1 otherwise, 2 for a
usage error (no such file, or not a regular file; a language omp-lsp does not know; no toolchain
by the given name).
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any, TextIO, cast

from omp_lsp.analysis.check import (
    CompileCommandsError,
    CompileEntry,
    Language,
    build_flags,
    find_compile_commands,
    language_for_path,
    load_compile_commands,
    require_regular_file,
)
from omp_lsp.codegen import supervision
from omp_lsp.codegen.build_and_run import Report, build_and_run
from omp_lsp.codegen.toolchains import discover, found_names, pick

from .config import Config, apply, find_project_file, read_project_file
from .escaping import line_text, shell_command, unicode_values

LANGUAGES = {Language.C: "c", Language.CPP: "c++", Language.FORTRAN: "fortran", Language.FORTRAN_FIXED: "fortran"}


class RunUsageError(Exception):
    """One line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise RunUsageError(message)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="omp-lsp run", formatter_class=lambda prog: argparse.HelpFormatter(prog, width=100),
                description="Build FILE for the host and for a device with a real compiler, run both binaries "
                "and compare their output.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--toolchain", metavar="NAME", help="the toolchain to build with (llvm-22, gcc-12, clang-22, "
                   "gfortran...; default: the project file's, else one whose device runs here)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds each build and run may take")
    p.add_argument("--openmp-version", default=None, metavar="V", help="OpenMP version to build for (50, 51, 52...)")
    p.add_argument("--compile-commands", metavar="FILE", help="compile_commands.json giving the file's flags")
    p.add_argument("--no-config", action="store_true", help="ignore .omp-lsp.toml / pyproject.toml")
    return p


def main(argv: Sequence[str], out: TextIO | None = None, own_process: bool = False) -> int:
    """`own_process`: this is the program (not a call from Python): SIGINT, SIGTERM and SIGHUP (its
    terminal closed) stop it, with every process it started and its temporary folder, one line
    and status 130 / 143 / 129."""
    out = out or sys.stdout
    if own_process:
        supervision.own_process()
        for number in _STOPPED_BY:
            signal.signal(number, _stop)
    try:
        args = parser().parse_args(list(argv))
        report = _build_and_run(args)
        if args.format == "json":
            json.dump(report_json(report), out, indent=2)
            out.write("\n")
        else:
            write_text(report, out)
    except RunUsageError as err:
        print(f"omp-lsp run: error: {line_text(str(err))}", file=sys.stderr)   # (it may name the file)
        return 2
    except _Stopped as stopped:
        supervision.remove_folders()   # (left by a thread still at work: the main one removed its own)
        print(f"omp-lsp run: {_STOPPED_BY[stopped.number][0]}: the builds and runs were stopped", file=sys.stderr)
        return _STOPPED_BY[stopped.number][1]
    return 0 if report.ok else 1


# the signals that stop `omp-lsp run`: what it says, and its exit status (128 + the signal's number)
_STOPPED_BY: dict[int, tuple[str, int]] = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143),
                                           signal.SIGHUP: ("hung up", 129)}


class _Stopped(BaseException):
    """A signal stopped the command (not an Exception: nothing on the way catches it)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def _stop(number: int, _frame: object) -> None:
    for other in _STOPPED_BY:   # (a second signal while stopping would interrupt the cleanup)
        signal.signal(other, signal.SIG_IGN)
    supervision.stop()   # (first: the temporary folder is removed as the exception unwinds)
    raise _Stopped(number)


def _build_and_run(args: argparse.Namespace) -> Report:
    path = os.path.abspath(args.file)
    try:
        require_regular_file(os.stat(path).st_mode, path)   # (a named pipe would block the compilers)
    except FileNotFoundError:
        raise RunUsageError(f"{args.file}: no such file") from None
    except OSError as err:
        raise RunUsageError(f"{args.file}: cannot read: {err.strerror}") from None
    language = language_for_path(path)
    if language not in LANGUAGES:
        raise RunUsageError(f"{args.file}: not a C, C++ or Fortran file")
    if args.timeout <= 0:
        raise RunUsageError("--timeout must be positive")
    flags, database_version = _compile_flags(path, args)
    config = _config(path, args, database_version)
    setting = args.toolchain or config.toolchain
    toolchains = discover()
    toolchain = pick(toolchains, LANGUAGES[language], setting)
    if setting and toolchain is None:
        raise RunUsageError(f"no toolchain named {setting} compiles {LANGUAGES[language]} here "
                            f"(found: {found_names(toolchains)})")
    return build_and_run(path, LANGUAGES[language], toolchain, args.timeout, config.options.openmp_version, flags,
                         others=[t for t in toolchains if t is not toolchain])


def _config(path: str, args: argparse.Namespace, database_version: int | None) -> Config:
    """Defaults, then compile_commands.json's OpenMP version, then the project file, then the flag
    (as --check configures itself)."""
    config = Config()
    if database_version is not None:
        config, _ = apply({"openmpVersion": database_version}, config, "compile_commands.json")
    project = None if args.no_config else find_project_file(path)
    if project is not None:
        settings, _ = read_project_file(project)
        config, _ = apply(settings, config, project)
    if args.openmp_version is not None:
        config, problems = apply({"openmpVersion": args.openmp_version}, config, "--openmp-version")
        if problems:
            raise RunUsageError(problems[0])
    return config


def _compile_flags(path: str, args: argparse.Namespace) -> tuple[list[str], int | None]:
    """The include paths and macros of the file's compile command, and its OpenMP version."""
    database_path = args.compile_commands or find_compile_commands(path)
    if database_path is None:
        return [], None
    try:
        database = load_compile_commands(database_path)
    except CompileCommandsError as err:
        raise RunUsageError(str(err)) from None
    entry = database.entry_for(path)
    if entry is None:
        return [], None
    return entry_flags(entry), database.openmp_version()


def entry_flags(entry: CompileEntry) -> list[str]:
    """What a build plan takes of a compile command: its include folders, macros (with their
    values), forced includes and language standard."""
    return list(build_flags(entry.arguments, entry.directory))


def report_json(report: Report) -> dict[str, Any]:
    """The JSON report (`--format json`, and the editor command's answer): valid Unicode, and each
    build's command also as one line to paste into a shell (`command_line`, as the text report
    prints it)."""
    doc = report.as_json()
    for build, b in zip(doc["builds"], report.builds, strict=True):
        build["command_line"] = shell_command(b.process.command)
    return cast("dict[str, Any]", unicode_values(doc))


def _diagnostic_line(d: dict[str, Any]) -> str:
    return line_text(f"{d['file']}:{d['line']}:{d['column']}: {d['severity']}: {d['message']} [{d['code']}]")


def write_text(report: Report, out: TextIO) -> None:
    """The report for a reader: file names and messages on one line each (escaped), and each
    build command quoted as a shell reads it back (to paste it and build by hand)."""
    out.write(f"{line_text(report.file)}: toolchain {report.toolchain or 'none'}\n")
    for b in report.builds:
        state = "ok" if b.process.ok else "timed out" if b.process.timed_out else "failed"
        out.write(f"  {b.kind} build: {state} in {b.process.seconds:.2f} s: {shell_command(b.process.command)}\n")
        out.writelines(f"    {_diagnostic_line(d)}\n" for d in b.diagnostics)
        if not b.process.ok and not b.diagnostics:
            out.write("".join(f"    {line_text(line)}\n"
                              for line in b.process.stderr.decode("utf-8", "replace").splitlines()[-20:]))
    for r in report.runs:
        state = "timed out" if r.process.timed_out else f"exit {r.process.exit_code}"
        where = {True: ", offloaded", False: ", not offloaded (ran on the host)", None: ""}[r.offloaded]
        out.write(f"  {r.kind} run: {state} in {r.process.seconds:.2f} s{where}"
                  f"{', output truncated' if r.process.truncated else ''}\n")
    out.writelines(f"  note: {line_text(note)}\n" for note in report.notes)
    out.writelines(f"  {_diagnostic_line(d)}\n" for d in report.diagnostics)
    if report.same_output is not None:
        out.write(f"  {'same output' if report.same_output else 'the runs differ in output or exit status'}\n")
