"""What a built device image holds, read from the binary with the LLVM tools: the kernels (one per
target region, named after the function and line it is in), the functions, the global variables
(declare target), and the indirect-function entries the `indirect` clause creates (a table the
runtime maps host function pointers through: ../shared/seeds/declare-target-indirect-design.txt).

clang embeds the device images in the `.llvm.offloading` section; `llvm-offload-binary` takes
one out as an object file whose symbols `llvm-nm` lists. Entries the runtime registers are the
`.offloading.entry.<name>` symbols: a kernel's name is a function in the image, an indirect
entry's a data word, a variable's its own name.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from .runner import run
from .toolchains import Toolchain

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
    tools = _llvm_tools(toolchain)
    if tools is None:
        return [], (f"{toolchain.name}: the device image's entries are read from clang-built binaries only "
                    "(with the LLVM tools llvm-objcopy, llvm-offload-binary and llvm-nm)")
    objcopy, unpack, nm = tools
    image = os.path.join(folder, "images.bin")
    done = run([objcopy, f"--dump-section=.llvm.offloading={image}", binary, os.devnull], folder, timeout=timeout)
    if not done.ok:
        return [], "the binary holds no device image"
    out: list[dict[str, Any]] = []
    for target in sorted({t for ts in toolchain.offload_targets.values() for t in ts}):
        device = os.path.join(folder, f"device-{target}.o")
        if not run([unpack, image, f"--image=file={device},triple={target}"], folder, timeout=timeout).ok \
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


def _llvm_tools(toolchain: Toolchain) -> tuple[str, str, str] | None:
    """llvm-objcopy, llvm-offload-binary and llvm-nm of the toolchain's LLVM installation."""
    if toolchain.family not in ("llvm", "rocm"):
        return None
    for compiler in toolchain.compilers.values():
        folder = Path(os.path.realpath(compiler)).parent
        tools = tuple(str(folder / name) for name in ("llvm-objcopy", "llvm-offload-binary", "llvm-nm"))
        if all(os.access(t, os.X_OK) for t in tools):
            return tools  # type: ignore[return-value]
    return None
