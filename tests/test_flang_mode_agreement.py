"""The flang propagation mode against flang itself: for each program in tests/flang_programs/,
flang 22 compiles the device side to FIR, where its MarkDeclareTarget pass has written
`omp.declare_target = #omp.declaretarget<device_type = (...)>` on every procedure it keeps for
the device. The procedures omp-lsp's flang mode puts on the device, with their device types,
must be exactly those.

flang's offload link cannot work on these machines, but its device compile can: the host side
is compiled to bitcode first (`-fc1 -emit-llvm-bc`), then the device side to FIR with
`-fopenmp-is-target-device` and the host bitcode, as the driver does.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from omp_lsp.analysis import Document, Language
from omp_lsp.analysis.syntax.options import Options
from omp_lsp.analysis.workspace import device_map

PROGRAMS = sorted((Path(__file__).resolve().parent / "flang_programs").glob("*.f90"))
_FUNC = re.compile(r"func\.func (?:private )?@(\w+)\(.*omp\.declare_target = #omp\.declaretarget<device_type = \((\w+)\)")
# flang's names: _QM<module>P<name>, _QP<name> (external), _QF<host>P<name> (internal)
_NAME = re.compile(r"_Q(?:M\w+?P|F\w+?P|P)(\w+)$")


def _flang() -> str:
    driver = shutil.which("flang-22")
    frontend = Path(os.path.realpath(driver)).parent / "flang" if driver else None
    if frontend is None or not frontend.is_file():
        message = "flang-22 not found (the Makefile installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return str(frontend)


def _flang_device_types(program: Path, tmp_path: Path) -> dict[str, str]:
    flang = _flang()
    common = ["-fopenmp", "-fopenmp-version=51", "-x", "f95", str(program)]
    def run(args: list[str]) -> None:
        done = subprocess.run([flang, "-fc1", *args, *common], capture_output=True, text=True, timeout=120,
                              cwd=tmp_path, check=False)
        assert done.returncode == 0, done.stderr
    run(["-triple", "x86_64-pc-linux-gnu", "-emit-llvm-bc", "--offload-targets=x86_64-unknown-linux-gnu",
         "-o", "host.bc"])
    run(["-triple", "x86_64-unknown-linux-gnu", "-emit-fir", "-fopenmp-is-target-device",
         "-fopenmp-host-ir-file-path", "host.bc", "-o", "device.fir"])
    out: dict[str, str] = {}
    for line in (tmp_path / "device.fir").read_text().splitlines():
        m = _FUNC.search(line)
        if m is None or m.group(1) == "_QQmain":
            continue   # the main program keeps its target regions: flang marks it host
        name = _NAME.match(m.group(1))
        assert name is not None, f"unexpected flang name {m.group(1)}"
        out[name.group(1)] = m.group(2)
    return out


def test_corpus() -> None:
    assert len(PROGRAMS) >= 3


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_flang_mode_is_what_flang_generates(program: Path, tmp_path: Path) -> None:
    flang = _flang_device_types(program, tmp_path)
    rows = device_map({str(program): Document(program.read_text(encoding="utf-8"), Language.FORTRAN)},
                      Options(propagation="flang"))
    ours = {r.name.lower(): r.device_type for r in rows
            if r.kind == "procedure" and r.device_type in ("any", "nohost")}
    assert ours == flang, f"omp-lsp {sorted(ours.items())}\nflang   {sorted(flang.items())}"
    assert flang, "flang put no procedure on the device"
