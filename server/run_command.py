"""`omp-lsp run FILE`: build a file for the host and for a device, run both, and report.

Exit status 0 when both builds and both runs succeed with the same output, 1 otherwise, 2 for a
usage error (no such file, a language omp-lsp does not know, no toolchain by the given name).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from omp_lsp.analysis.check import (
    CompileCommandsError,
    CompileEntry,
    Language,
    build_flags,
    find_compile_commands,
    language_for_path,
    load_compile_commands,
)
from omp_lsp.codegen.build_and_run import Report, build_and_run
from omp_lsp.codegen.toolchains import discover, pick

from .config import Config, apply, find_project_file, read_project_file

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


def main(argv: Sequence[str], out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        args = parser().parse_args(list(argv))
        report = _build_and_run(args)
    except RunUsageError as err:
        print(f"omp-lsp run: error: {err}", file=sys.stderr)
        return 2
    if args.format == "json":
        json.dump(report.as_json(), out, indent=2)
        out.write("\n")
    else:
        write_text(report, out)
    return 0 if report.ok else 1


def _build_and_run(args: argparse.Namespace) -> Report:
    path = os.path.abspath(args.file)
    if not os.path.isfile(path):
        raise RunUsageError(f"{args.file}: no such file")
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
        known = ", ".join(t.name for t in toolchains) or "none"
        raise RunUsageError(f"no toolchain named {setting} compiles {LANGUAGES[language]} here (found: {known})")
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


def write_text(report: Report, out: TextIO) -> None:
    out.write(f"{report.file}: toolchain {report.toolchain or 'none'}\n")
    for b in report.builds:
        state = "ok" if b.process.ok else "timed out" if b.process.timed_out else "failed"
        out.write(f"  {b.kind} build: {state} in {b.process.seconds:.2f} s: {' '.join(b.process.command)}\n")
        out.writelines(f"    {d['file']}:{d['line']}:{d['column']}: {d['severity']}: {d['message']} [{d['code']}]\n"
                       for d in b.diagnostics)
        if not b.process.ok and not b.diagnostics:
            out.write("".join(f"    {line}\n" for line in b.process.stderr.decode("utf-8", "replace").splitlines()[-20:]))
    for r in report.runs:
        state = "timed out" if r.process.timed_out else f"exit {r.process.exit_code}"
        where = {True: ", offloaded", False: ", not offloaded (ran on the host)", None: ""}[r.offloaded]
        out.write(f"  {r.kind} run: {state} in {r.process.seconds:.2f} s{where}"
                  f"{', output truncated' if r.process.truncated else ''}\n")
    out.writelines(f"  note: {note}\n" for note in report.notes)
    out.writelines(f"  {d['file']}:{d['line']}:{d['column']}: {d['severity']}: {d['message']} [{d['code']}]\n"
                   for d in report.diagnostics)
    if report.same_output is not None:
        out.write(f"  {'same output' if report.same_output else 'the runs differ in output or exit status'}\n")
