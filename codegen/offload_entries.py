"""What a built device image holds, read from the binary: the kernels (one per target region,
named after the function, and for clang the line, it is in), the functions, the global variables
(declare target), and the indirect-function entries the `indirect` clause creates (a table the
runtime maps host function pointers through: ../shared/seeds/declare-target-indirect-design.txt).
gcc 12 has no indirect clause; its NVPTX image is PTX text in the binary (`_gcc_entries`).

clang embeds the device images in the `.llvm.offloading` section; `llvm-offload-binary` takes
one out of the binary as an object file whose symbols `llvm-nm` lists. Entries the runtime registers are the
`.offloading.entry.<name>` symbols: a kernel's name is a function in the image, an indirect
entry's a data word, a variable's its own name.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

from .runner import run
from .toolchains import GCC_NVPTX, Toolchain

_ENTRY = ".offloading.entry."
_GENERATED = re.compile(r"^__omp_offloading_[0-9a-f]+_[0-9a-f]+_(?P<function>.+)_l(?P<line>\d+)$")
# What a linked image holds besides the program's own code and data.
_RUNTIME = re.compile(r"^(?:_init|_fini|_start|_DYNAMIC|_GLOBAL_OFFSET_TABLE_|__dso_handle|__TMC_END__|completed\.\d+|"
                      r"deregister_tm_clones|register_tm_clones|frame_dummy|__do_global_dtors_aux.*|__FRAME_END__|"
                      r"__GNU_EH_FRAME_HDR|_ITM_.*|__gmon_start__|__cxa_finalize.*|\.offloading\..*|"
                      r"__omp_rtl_.*|__llvm_.*|__kmpc_.*|omp_.*)$")


def offload_entries(binary: str, toolchain: Toolchain, folder: str, timeout: float = 30.0) -> tuple[
        list[dict[str, Any]], str]:
    """The entries of the device images in `binary` (built by `toolchain`), and why there are
    none when the tools cannot tell (an empty string when they could)."""
    if toolchain.family == "gcc":
        return _gcc_entries(binary, folder, timeout)
    tools = _llvm_tools(toolchain)
    if tools is None:
        return [], f"{toolchain.name}: reading its device images needs the LLVM tools of its installation"
    unpack, nm = tools
    out: list[dict[str, Any]] = []
    for target in sorted({t for ts in toolchain.offload_targets.values() for t in ts}):
        device = os.path.join(folder, f"device-{target}.o")
        if not run([unpack, binary, f"--image=file={device},triple={target}"], folder, timeout=timeout).ok \
                or not os.path.exists(device):
            continue
        listed = run([nm, device], folder, timeout=timeout)
        if listed.ok:
            out.extend(_entries(listed.stdout.decode("utf-8", "replace"), target))
    return out, "" if out else "no device image could be read from the binary"


def _entries(nm_output: str, target: str) -> list[dict[str, Any]]:
    symbols: dict[str, str] = {}
    for line in nm_output.splitlines():
        parts = line.split()
        if len(parts) >= 2 and len(parts[-2]) == 1:
            symbols[parts[-1]] = parts[-2]
    registered = {name[len(_ENTRY):] for name in symbols if name.startswith(_ENTRY)}
    out: list[dict[str, Any]] = []
    for name in sorted(registered):
        m = _GENERATED.match(name)
        if m is None:
            out.append({"kind": "variable", "name": name, "target": target})
        elif symbols.get(name, "").upper() in ("T", "W"):
            out.append({"kind": "kernel", "name": name, "function": m.group("function"),
                        "line": int(m.group("line")), "target": target})
        else:   # a data word holding a device function's address: an indirect entry
            out.append({"kind": "indirect", "name": name, "function": m.group("function"),
                        "line": int(m.group("line")), "target": target})
    for name, kind in sorted(symbols.items()):
        if kind.upper() in ("T", "W") and name not in registered and not _RUNTIME.match(name) \
                and not name.startswith("__omp_offloading_"):
            out.append({"kind": "function", "name": name, "target": target})
    return out


# gcc embeds each device image as PTX text: definitions are the lines that do not end in `;`.
_PTX_FUNCTION = re.compile(rb"^(?:\.visible |\.weak )?\.(entry|func) (?:\([^)\n]*\) )?([\w$]+) ?(?:\([^;\n]*\))?[ \t]*$",
                           re.MULTILINE)
_PTX_GLOBAL = re.compile(rb"^(?:\.visible |\.weak )?\.global (?:\.align \d+ )?\.\w+ ([\w$]+)(?:\[\d*\])?(?: =|;)",
                         re.MULTILINE)
_GCC_KERNEL = re.compile(r"^(?P<function>.+?)\._omp_fn\.\d+$")


def _gcc_entries(binary: str, folder: str, timeout: float) -> tuple[list[dict[str, Any]], str]:
    """The program's part of a gcc-built binary's PTX device image: the definitions whose names the
    host binary defines too (libgomp's and the C library's device code has none there). Kernels are
    the outlined target regions (`main._omp_fn.0`, in PTX `main$_omp_fn$0`)."""
    readelf = shutil.which("readelf")   # (binutils, as gcc's linker; faster than nm, which loads the LTO plugin)
    if readelf is None:
        return [], "reading a gcc device image needs binutils' readelf"
    listed = run([readelf, "-sW", binary], folder, timeout=timeout)
    if not listed.ok:
        return [], "the binary's symbols could not be read"
    host = {fields[7] for fields in (line.split() for line in listed.stdout.decode("utf-8", "replace").splitlines())
            if len(fields) >= 8 and fields[6] != "UND"}
    with open(binary, "rb") as f:
        data = f.read()
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for kind, raw in [*((m.group(1).decode(), m.group(2)) for m in _PTX_FUNCTION.finditer(data)),
                      *(("global", m.group(1)) for m in _PTX_GLOBAL.finditer(data))]:
        name = raw.decode("ascii", "replace").replace("$", ".")
        if name not in host or (kind, name) in seen:
            continue
        seen.add((kind, name))
        kernel = _GCC_KERNEL.match(name)
        if kind == "entry" and kernel is not None:
            out.append({"kind": "kernel", "name": name, "function": kernel.group("function"), "target": GCC_NVPTX})
        elif kind == "func" and kernel is None:
            out.append({"kind": "function", "name": name, "target": GCC_NVPTX})
        elif kind == "global":
            out.append({"kind": "variable", "name": name, "target": GCC_NVPTX})
    return out, "" if out else "no device image could be read from the binary"


def _llvm_tools(toolchain: Toolchain) -> tuple[str, str] | None:
    """llvm-offload-binary and llvm-nm of the toolchain's LLVM installation."""
    if toolchain.family not in ("llvm", "rocm"):
        return None
    for compiler in toolchain.compilers.values():
        folder = Path(os.path.realpath(compiler)).parent
        tools = tuple(str(folder / name) for name in ("llvm-offload-binary", "llvm-nm"))
        if all(os.access(t, os.X_OK) for t in tools):
            return tools  # type: ignore[return-value]
    return None
