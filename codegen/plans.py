"""Build plans: the compiler command lines of a host-only and an offloading build of one source file.

Per toolchain family, as the installed compilers need them here (../shared/notes/toolchains.md):
clang offloads with `-fopenmp-targets=` to the host-offload target, or with `--offload-arch=native`
to the GPU when one is there,
gcc with `-foffload=` and a `-misa` the installed ptxas accepts (its default sm_35 is rejected;
a host-only gcc build says `-foffload=disable`, or it offloads to every configured target),
and flang's offloading link cannot work here (host builds only). Include paths, macros and the
OpenMP version come from the file's compile_commands.json entry when it has one.
"""
from __future__ import annotations

from collections.abc import Sequence

from omp_lsp.analysis.check import dataclass

from .toolchains import AMDGCN, GCC_AMDGCN, GCC_NVPTX, HOST_OFFLOAD, NVPTX, Toolchain

HOST, DEVICE = "host", "device"
# gcc's nvptx back end: the oldest PTX ISA the installed ptxas (and GPUs still in use) take.
GCC_NVPTX_ISA = "sm_80"


@dataclass(frozen=True)
class Build:
    kind: str                       # HOST or DEVICE
    command: tuple[str, ...]
    output: str                     # the binary it makes


def plans(toolchain: Toolchain, language: str, source: str, folder: str, openmp_version: int | None = None,
          flags: Sequence[str] = ()) -> tuple[list[Build], list[str]]:
    """The host build and (when the toolchain can make one here) the offloading build of
    `source` into `folder`, and why a build is missing. `flags`: the include paths and macros of
    the file's compile command (`-I`, `-D`, `-std=`...)."""
    compiler = toolchain.compilers.get(language)
    if compiler is None:
        return [], [f"{toolchain.name} has no {language} compiler"]
    common = [compiler, "-fopenmp", *_version_flags(toolchain, openmp_version), *flags]
    # (gcc offloads to every target it was configured for unless told not to: the nvptx one then
    # fails at its default sm_35)
    host_only = ["-foffload=disable"] if toolchain.family == "gcc" else []
    host = Build(HOST, (*common, *host_only, source, "-o", f"{folder}/host"), f"{folder}/host")
    targets = toolchain.offload_targets.get(language, ())
    if not targets:
        return [host], [toolchain.notes.get(language, f"{toolchain.name} cannot build {language} device code here")]
    target = next((t for t in targets if toolchain.devices.get(t) and t != HOST_OFFLOAD), targets[0])
    device = Build(DEVICE, (*common, *_offload_flags(toolchain, target), source, "-o", f"{folder}/device"),
                   f"{folder}/device")
    return [host, device], []


def _version_flags(toolchain: Toolchain, version: int | None) -> list[str]:
    if version is None or toolchain.family not in ("llvm", "rocm"):
        return []   # (gcc has no such flag: it implements what its version implements)
    return [f"-fopenmp-version={version}"]


def _offload_flags(toolchain: Toolchain, target: str) -> list[str]:
    if toolchain.family in ("llvm", "rocm"):
        if target in (NVPTX, AMDGCN):
            # a GPU is there (plans picks a GPU target only then): the driver asks it for its
            # architecture (nvptx-arch / amdgpu-arch). (No GPU on the machines this was written on.)
            return ["--offload-arch=native"]
        return [f"-fopenmp-targets={target}"]
    if toolchain.family == "gcc":
        flags = [f"-foffload={target}"]
        if target == GCC_NVPTX:
            flags.append(f"-foffload-options={GCC_NVPTX}=-misa={GCC_NVPTX_ISA}")
        return flags
    if toolchain.family == "nvhpc":
        return ["-mp=gpu"]
    return []


__all__ = ["AMDGCN", "DEVICE", "GCC_AMDGCN", "HOST", "NVPTX", "Build", "plans"]
