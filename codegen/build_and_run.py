"""Build a source file for the host and for a device, run both binaries, and compare them.

The host binary runs with `OMP_TARGET_OFFLOAD=DISABLED`, the offloading one with `MANDATORY`.
Whether the device run really executed target regions on a device is known, not assumed:
libomptarget (LLVM) reports each kernel it enters when `LIBOMPTARGET_INFO=1` (those lines are
taken out of the run's stderr); for other runtimes a probe built with the same flags tells
whether a target region runs off the initial device here.
"""
from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .plans import DEVICE, HOST, Build, plans
from .runner import DEFAULT_TIMEOUT, OUTPUT_CAP, Process, run
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
                "same_output": self.same_output, "notes": self.notes, "offload_entries": []}


def build_and_run(source: str, language: str, toolchain: Toolchain | None, timeout: float = DEFAULT_TIMEOUT,
                  openmp_version: int | None = None, flags: Sequence[str] = (), cap: int = OUTPUT_CAP) -> Report:
    """Build `source` (a `language` file) with `toolchain` into a fresh temporary folder, host
    binary and device binary, and run each that built."""
    source = str(Path(source).resolve())
    report = Report(source, toolchain.name if toolchain is not None else None)
    if toolchain is None:
        report.notes.append(f"no toolchain compiles {language} here")
        return report
    with tempfile.TemporaryDirectory(prefix="omp-lsp-run-") as folder:
        steps, missing = plans(toolchain, language, source, folder, openmp_version, flags)
        report.notes.extend(missing)
        for step in steps:
            built = run(step.command, folder, timeout=timeout, cap=cap)
            report.builds.append(BuildResult(step.kind, built, compiler_diagnostics(built.stderr, source)))
            if built.ok:
                report.runs.append(_run(step, toolchain, language, folder, timeout, cap))
    return report


def compiler_diagnostics(output: bytes, source: str) -> list[dict[str, Any]]:
    """The compiler's errors and warnings about `source`, in the form `--check --format json`
    reports findings (code OMP501)."""
    out = []
    for m in _MESSAGE.finditer(output.decode("utf-8", "replace")):
        if Path(m.group("file")).resolve() != Path(source):
            continue
        line, column = int(m.group("line")), int(m.group("column"))
        out.append({"file": source, "line": line, "column": column, "end_line": line, "end_column": column,
                    "severity": "error" if "error" in m.group("severity") else "warning", "code": "OMP501",
                    "message": m.group("message"), "related": []})
    return out


def _run(step: Build, toolchain: Toolchain, language: str, folder: str, timeout: float, cap: int) -> RunResult:
    if step.kind == HOST:
        done = run([step.output], folder, {"OMP_TARGET_OFFLOAD": "DISABLED"}, timeout, cap)
        return RunResult(HOST, done, done.stderr, None)
    llvm = toolchain.family in ("llvm", "rocm")
    env = {"OMP_TARGET_OFFLOAD": "MANDATORY", **({"LIBOMPTARGET_INFO": "1"} if llvm else {})}
    done = run([step.output], folder, env, timeout, cap)
    if llvm:
        return RunResult(DEVICE, done, _LIBOMPTARGET_INFO.sub(b"", done.stderr),
                         _KERNEL_ENTERED.search(done.stderr) is not None)
    return RunResult(DEVICE, done, done.stderr, _probe_offloads(step, language, folder, timeout))


def _probe_offloads(step: Build, language: str, folder: str, timeout: float) -> bool | None:
    """Whether a target region built as `step` built runs off the initial device here (None:
    the probe did not build or run)."""
    name, text = _PROBES["fortran" if language == "fortran" else "c"]
    probe_folder = Path(folder, "probe")
    probe_folder.mkdir(exist_ok=True)
    probe = probe_folder / name
    probe.write_text(text)
    command = list(step.command)
    source_at = command.index("-o") - 1   # (plans put the source right before `-o`)
    command[source_at] = str(probe)
    command[source_at + 2] = str(probe_folder / "probe")
    built = run(command, str(probe_folder), timeout=timeout)
    if not built.ok:
        return None
    ran = run([str(probe_folder / "probe")], str(probe_folder), {"OMP_TARGET_OFFLOAD": "MANDATORY"}, timeout)
    answer = ran.stdout.strip().lower()
    return None if not ran.ok or answer not in (b"0", b"1", b"t", b"f") else answer in (b"0", b"f")
