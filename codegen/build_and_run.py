"""Build a source file for the host and for a device, run both binaries, and compare them.

The host binary runs with `OMP_TARGET_OFFLOAD=DISABLED`, the offloading one with `MANDATORY`.
Whether the device run really executed target regions on a device is known, not assumed:
libomptarget (LLVM) reports each kernel it enters when `LIBOMPTARGET_INFO=1` (those lines are
taken out of the run's stderr); for other runtimes a probe built with the same flags tells
whether a target region runs off the initial device here.
"""
from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from omp_lsp.analysis.check import dataclass, field, include_dirs

from .link_errors import device_link_diagnostics
from .offload_entries import offload_entries
from .places import analyse, diagnostic, main_program
from .plans import DEVICE, HOST, Build, plans
from .runner import DEFAULT_TIMEOUT, OUTPUT_CAP, Process, run
from .supervision import temporary_folder
from .toolchains import Toolchain

_KERNEL_ENTERED = re.compile(rb"^omptarget device \d+ info: Entering OpenMP kernel.*\n?", re.MULTILINE)
_LIBOMPTARGET_INFO = re.compile(rb"^omptarget device \d+ info: .*\n?", re.MULTILINE)
# `path:line:column: severity: message`, as gcc, clang and flang print their diagnostics
_MESSAGE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>fatal error|error|warning): "
                      r"(?P<message>.*)$", re.MULTILINE)
_PROBES = {
    "c": ("probe.c", ('#include <stdio.h>\n#include <omp.h>\nint main(void) {\n  int initial = 1;\n'
                      "#pragma omp target map(from: initial)\n  initial = omp_is_initial_device();\n"
                      '  printf("%d\\n", initial);\n  return 0;\n}\n')),
    "fortran": ("probe.f90", ("program probe\n  use omp_lib\n  logical :: initial\n  initial = .true.\n"
                              "  !$omp target map(from: initial)\n  initial = omp_is_initial_device()\n"
                              "  !$omp end target\n  print '(l1)', initial\nend program probe\n")),
}


@dataclass
class BuildResult:
    kind: str
    process: Process
    diagnostics: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class RunResult:
    kind: str
    process: Process
    stderr: bytes                   # the program's own (libomptarget's reports taken out)
    offloaded: bool | None          # None: the host run (nothing to offload)


@dataclass
class Report:
    file: str
    toolchain: str | None
    builds: list[BuildResult] = field(default_factory=list)
    runs: list[RunResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    diagnostics: list[dict[str, Any]] = field(default_factory=list)   # of the runs: OMP503, OMP504
    offload_entries: list[dict[str, Any]] = field(default_factory=list)   # of the device image

    @property
    def same_output(self) -> bool | None:
        """Whether both runs printed the same and exited the same (None: not both ran)."""
        if len(self.runs) != 2:
            return None
        a, b = (r.process for r in self.runs)
        return (a.stdout, a.exit_code) == (b.stdout, b.exit_code)

    @property
    def ok(self) -> bool:
        return len(self.builds) == 2 and all(b.process.ok for b in self.builds) and len(self.runs) == 2 \
            and all(r.process.ok for r in self.runs) and bool(self.same_output)

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "toolchain": self.toolchain,
                "builds": [{"kind": b.kind, "command": list(b.process.command), "ok": b.process.ok,
                            "seconds": round(b.process.seconds, 3), "diagnostics": b.diagnostics}
                           for b in self.builds],
                "runs": [{"kind": r.kind, "exit_code": r.process.exit_code,
                          "stdout": r.process.stdout.decode("utf-8", "replace"),
                          "stderr": r.stderr.decode("utf-8", "replace"), "seconds": round(r.process.seconds, 3),
                          "offloaded": r.offloaded, "timed_out": r.process.timed_out,
                          "truncated": r.process.truncated} for r in self.runs],
                "same_output": self.same_output, "diagnostics": self.diagnostics, "notes": self.notes,
                "offload_entries": self.offload_entries}


def build_and_run(source: str, language: str, toolchain: Toolchain | None, timeout: float = DEFAULT_TIMEOUT,
                  openmp_version: int | None = None, flags: Sequence[str] = (), cap: int = OUTPUT_CAP,
                  others: Sequence[Toolchain] = (), cancel: threading.Event | None = None) -> Report:
    """Build `source` (a `language` file) with `toolchain` into a fresh temporary folder, host
    binary and device binary, and run each that built. `others`: the toolchains found here
    besides it (OMP504 says when none builds device code either). Setting `cancel` stops what
    runs (a newer build of the same file started) and skips the rest."""
    source = str(Path(source).resolve())
    report = Report(source, toolchain.name if toolchain is not None else None)
    if toolchain is None:
        report.notes.append(f"no toolchain compiles {language} here")
        report.diagnostics = _run_diagnostics(report, source, language, None, others)
        return report
    with temporary_folder("omp-lsp-run-") as folder:   # (removed also when this process is stopped)
        steps, missing = plans(toolchain, language, source, folder, openmp_version, flags)
        report.notes.extend(missing)
        # The device build first: its image's entries are read while the host build and the runs
        # go on. The report lists the builds and runs host first.
        built: dict[str, Process] = {}
        entries: list[tuple[list[dict[str, Any]], str]] = []
        reader: threading.Thread | None = None
        for step in sorted(steps, key=lambda s: s.kind != DEVICE):
            built[step.kind] = run(step.command, folder, timeout=timeout, cap=cap, cancel=cancel)
            if step.kind == DEVICE and built[step.kind].ok:
                reader = threading.Thread(target=lambda binary=step.output: entries.append(
                    offload_entries(binary, toolchain, folder, timeout)))
                reader.start()
        for step in steps:
            done = built[step.kind]
            found = compiler_diagnostics(done.stderr, source, folder, flags)
            if step.kind == DEVICE and not done.ok:
                link = device_link_diagnostics(done.stderr, source)
                # (gcc prints the link failure as a message on the declaration's line, at the
                # initialiser's column for Fortran: the OMP502 there says it)
                at = {(d["file"], d["line"]) for d in link}
                found = [d for d in found if (d["file"], d["line"]) not in at] + link
            report.builds.append(BuildResult(step.kind, done, found))
        for step in steps:
            if built[step.kind].ok:
                report.runs.append(_run(step, toolchain, language, folder, timeout, cap, cancel))
        if reader is not None:
            reader.join()
            report.offload_entries, why = entries[0] if entries else ([], "")
            if why:
                report.notes.append(why)
    report.diagnostics = _run_diagnostics(report, source, language, toolchain, others)
    return report


# Debian packages that give a toolchain building device code here, per language (OMP504).
DEVICE_PACKAGES = {"c": "clang-22 libomp-22-dev liboffload-22-dev (or gcc-12-offload-nvptx)",
                   "c++": "clang-22 libomp-22-dev liboffload-22-dev (or gcc-12-offload-nvptx)",
                   "fortran": "gcc-12-offload-nvptx gfortran"}


def _run_diagnostics(report: Report, source: str, language: str, toolchain: Toolchain | None,
                     others: Sequence[Toolchain]) -> list[dict[str, Any]]:
    """OMP503 when the runs differ, OMP504 when no toolchain here builds device code for the
    language; at the main program (else the file's start)."""
    out: list[dict[str, Any]] = []
    differ = report.same_output is False
    alone = (toolchain is None or not toolchain.device_build(language)) \
        and not any(t.device_build(language) for t in others)
    if not differ and not alone:
        return out
    analysed = analyse(source)
    if analysed is None:
        return out
    document, context = analysed
    span = main_program(context.model) or (0, 0)
    if differ:
        out.append(diagnostic(document, source, span, "OMP503", "warning", _difference(*report.runs)))
    if alone:
        out.append(diagnostic(document, source, span, "OMP504", "information",
                              f"no toolchain here can build {language} device code, so the program ran on the host "
                              f"only; Debian packages that would: {DEVICE_PACKAGES[language]}"))
    return out


def _difference(host: RunResult, device: RunResult) -> str:
    a, b = host.process, device.process
    parts = []
    if a.exit_code != b.exit_code:
        parts.append(f"the host run exited with {a.exit_code}, the device run with {b.exit_code}")
    if a.stdout != b.stdout:
        lines_a, lines_b = a.stdout.splitlines(), b.stdout.splitlines()
        k = next((i for i, (x, y) in enumerate(zip(lines_a, lines_b)) if x != y), min(len(lines_a), len(lines_b)))
        shown = [repr(lines[k].decode("utf-8", "replace")[:80]) if k < len(lines) else "nothing"
                 for lines in (lines_a, lines_b)]
        parts.append(f"output line {k + 1} is {shown[0]} on the host and {shown[1]} on the device")
    return "the host run and the offloaded run differ: " + "; ".join(parts)


def compiler_diagnostics(output: bytes, source: str, folder: str = "", flags: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The compiler's errors and warnings about `source` and the project's own headers (files in
    the source's folder or in a `-I` folder of `flags`, not the system's), in the form `--check
    --format json` reports findings (code OMP501). `folder`: where the compiler ran (what a
    relative path it prints is relative to)."""
    # (the folders of -I and -iquote; -isystem ones are the system's)
    project = [Path(source).parent, *(Path(d).resolve() for d in include_dirs(flags, folder or ".", ("-iquote", "-I")))]
    out: list[dict[str, Any]] = []
    for m in _MESSAGE.finditer(output.decode("utf-8", "replace")):
        path = Path(folder, m.group("file")).resolve()
        if path != Path(source) and not (path.is_file() and any(path.is_relative_to(p) for p in project)):
            continue
        line, column = int(m.group("line")), int(m.group("column"))
        out.append({"file": str(path), "line": line, "column": column, "end_line": line, "end_column": column,
                    "severity": "error" if "error" in m.group("severity") else "warning", "code": "OMP501",
                    "message": m.group("message"), "related": []})
    return out


def _run(step: Build, toolchain: Toolchain, language: str, folder: str, timeout: float, cap: int,
         cancel: threading.Event | None) -> RunResult:
    if step.kind == HOST:
        done = run([step.output], folder, {"OMP_TARGET_OFFLOAD": "DISABLED"}, timeout, cap, cancel)
        return RunResult(HOST, done, done.stderr, None)
    llvm = toolchain.family in ("llvm", "rocm")
    env = {"OMP_TARGET_OFFLOAD": "MANDATORY", **({"LIBOMPTARGET_INFO": "1"} if llvm else {})}
    done = run([step.output], folder, env, timeout, cap, cancel)
    if llvm:
        return RunResult(DEVICE, done, _LIBOMPTARGET_INFO.sub(b"", done.stderr),
                         _KERNEL_ENTERED.search(done.stderr) is not None)
    return RunResult(DEVICE, done, done.stderr, _probe_offloads(step, language, folder, timeout, cancel))


def _probe_offloads(step: Build, language: str, folder: str, timeout: float,
                    cancel: threading.Event | None) -> bool | None:
    """Whether a target region built as `step` built runs off the initial device here (None:
    the probe did not build or run). The answer is kept (in this process and in the user's
    cache folder) for the same compiler, flags and device files: it changes with them only."""
    key = _probe_key(step, language)
    known = _probe_cache().get(key)
    if known is not None:
        return bool(known)
    found = _probe(step, language, folder, timeout, cancel)
    if found is not None:
        _probe_cache()[key] = found
        _save_probe_cache()
    return found


_PROBE_CACHE: dict[str, bool] | None = None


def _probe_path() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "omp-lsp", "offload-probes.json")


def _probe_cache() -> dict[str, bool]:
    global _PROBE_CACHE
    if _PROBE_CACHE is None:
        try:
            loaded = json.loads(_probe_path().read_text())
            _PROBE_CACHE = {str(k): bool(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            _PROBE_CACHE = {}
    return _PROBE_CACHE


def _save_probe_cache() -> None:
    path = _probe_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(_probe_cache()))
        temporary.replace(path)
    except OSError:
        pass   # (a read-only home: the answer is kept in this process only)


def _probe_key(step: Build, language: str) -> str:
    compiler = os.path.realpath(step.command[0])
    try:
        stamp = os.stat(compiler).st_mtime_ns
    except OSError:
        stamp = 0
    flags = [a for a in step.command[1:] if a.startswith(("-fopenmp", "-foffload", "-march", "-mp"))]
    devices = sorted(d for d in ("/dev/nvidiactl", "/dev/nvidia0", "/dev/kfd", "/dev/dri") if os.path.exists(d))
    return json.dumps([compiler, stamp, language, flags, devices])


def _probe(step: Build, language: str, folder: str, timeout: float, cancel: threading.Event | None) -> bool | None:
    name, text = _PROBES["fortran" if language == "fortran" else "c"]
    probe_folder = Path(folder, "probe")
    probe_folder.mkdir(exist_ok=True)
    probe = probe_folder / name
    probe.write_text(text)
    command = list(step.command)
    source_at = command.index("-o") - 1   # (plans put the source right before `-o`)
    command[source_at] = str(probe)
    command[source_at + 2] = str(probe_folder / "probe")
    built = run(command, str(probe_folder), timeout=timeout, cancel=cancel)
    if not built.ok:
        return None
    ran = run([str(probe_folder / "probe")], str(probe_folder), {"OMP_TARGET_OFFLOAD": "MANDATORY"}, timeout,
              cancel=cancel)
    answer = ran.stdout.strip().lower()
    return None if not ran.ok or answer not in (b"0", b"1", b"t", b"f") else answer in (b"0", b"f")
