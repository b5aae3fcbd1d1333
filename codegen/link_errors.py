"""Device link failures mapped back to the source (OMP502): a symbol the device code uses that was
not made available on the device, reported at its declaration with the device use that needs it
(or at the use, when the file does not declare it):
- a global read by a function that runs on the device but is not declare target;
- a procedure device code calls that has no device definition: declared here but defined in
  another file (where it is not declare target), or a host library function the device's
  libraries lack (`gethostname`, gfortran's `getcwd` on nvptx).

From what the compilers print here: the host-offload device link of clang (GNU ld: "in function
`f': ... undefined reference to `counter'"; lld: "undefined symbol: counter"), gcc's LTO step
for nvptx ("file:line:col: error: variable 'counter' has been referenced in offloaded code but
hasn't been marked to be included in the offloaded code") and its nvptx linker ("unresolved
symbol gethostname").
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .places import analyse, diagnostic, position

if TYPE_CHECKING:
    from omp_lsp.analysis.check import FileContext, FileModel, Reference, Symbol

_GNU_LD = re.compile(r"in function [`'‘](?P<function>[^'’(]+)(?:\([^)]*\))?['’]:\n[^\n]*undefined reference to "
                     r"[`'‘](?P<symbol>[^'’]+)['’]")
_LLD = re.compile(r"undefined symbol: (?P<symbol>\S+)(?:\n>>> referenced by [^\n]*\n>>>\s+[^\n]*\((?P<function>[^)(]+)\))?")
_GCC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<column>\d+): error: variable [`'‘](?P<symbol>[^'’]+)['’] has "
                  r"been referenced in offloaded code but hasn[’']t been marked", re.MULTILINE)
_NVPTX_LD = re.compile(r"^unresolved symbol (?P<symbol>\S+)$", re.MULTILINE)
_FORTRAN_MODULE = re.compile(r"^__(?P<module>\w+?)_MOD_(?P<name>\w+)$")
_FORTRAN_INTRINSIC = re.compile(r"^_gfortran_(?P<name>[a-z0-9]+?)(?:_[ilrc]\d+)?(?:_sub)?$")   # getcwd_i4_sub
# clang's kernel for the target region at line L of function F (the linker names it)
_KERNEL = re.compile(r"^__omp_offloading_[0-9a-f]+_[0-9a-f]+_(?P<function>.+)_l\d+$")


def device_link_diagnostics(output: bytes, source: str) -> list[dict[str, Any]]:
    """The device link failures in a compiler's `output` about `source`, in the form `--check
    --format json` reports findings (code OMP502)."""
    text = output.decode("utf-8", "replace")
    failures = [(m.group("symbol"), m.groupdict().get("function")) for m in (*_GNU_LD.finditer(text), *_LLD.finditer(text))]
    failures += [(m.group("symbol"), None) for m in (*_GCC.finditer(text), *_NVPTX_LD.finditer(text))]
    if not failures:
        return []
    analysed = analyse(source)
    if analysed is None:
        return []
    document, context = analysed
    model = context.model
    on_device = _device_code(context, source)
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str | None]] = set()
    for symbol, function in failures:
        name = _source_name(symbol, document.language.is_fortran)
        if (name, function) in seen:
            continue
        seen.add((name, function))
        kernel = _KERNEL.match(function or "")
        holder = kernel.group("function") if kernel else function
        declared = _declaration(model, name)
        use = _device_use(model, name, holder, kernel is not None, on_device)
        if declared is None and use is None:
            continue
        shown = declared.name if declared is not None else use.name  # type: ignore[union-attr]
        where = f" (in '{holder}')" if holder else ""
        if declared is not None and not declared.is_procedure:
            message = (f"'{shown}' is used in device code{where} but is not declare target: the device link cannot "
                       "find it; add it to a declare target directive")
        elif declared is not None:
            message = (f"'{shown}' is called in device code{where} but has no definition on the device: the device "
                       "link cannot find it; define it in this file, or mark its definition declare target where "
                       "it is defined")
        else:
            message = (f"'{shown}' is called in device code{where} but the device's libraries do not define it "
                       "(a host library procedure): the device link cannot find it; call it outside device code")
        found = diagnostic(document, source, declared.name_span if declared is not None else use.span,  # type: ignore[union-attr]
                           "OMP502", "error", message)
        if declared is not None and use is not None:
            line, column = position(document, use.span[0])
            found["related"].append({"file": source, "line": line, "column": column, "message": "used on the device here"})
        out.append(found)
    return out


def _source_name(symbol: str, fortran: bool) -> str:
    if fortran:
        m = _FORTRAN_MODULE.match(symbol) or _FORTRAN_INTRINSIC.match(symbol)
        return (m.group("name") if m else symbol.rstrip("_")).lower()
    return symbol.split("::")[-1]


def _declaration(model: FileModel, name: str) -> Symbol | None:
    """The file's declaration of `name`: a variable's, else a procedure's (a prototype or the
    definition), the first in the file."""
    hits = model.named(model.key_of(name))
    variables = [s for s in hits if not s.is_procedure]
    return min(variables or hits, key=lambda s: s.name_span[0]) if hits else None


def _device_code(context: FileContext, source: str) -> Callable[[Reference], bool]:
    """Whether a reference is in device code: in a target region, or in a procedure that runs on
    the device (declare target, or implied by the propagation of device types)."""
    from omp_lsp.analysis.check import build_device_graph
    graph = build_device_graph({source: context})
    keys = graph.files[source].keys

    def on_device(ref: Reference) -> bool:
        return ref.target is not None or any(
            s.symbol is not None and id(s.symbol) in keys and graph.device_code(keys[id(s.symbol)])
            for s in ref.scope.ancestors())
    return on_device


def _device_use(model: FileModel, name: str, function: str | None, in_region: bool,
                on_device: Callable[[Reference], bool]) -> Reference | None:
    """The first use of `name` in device code: in the function `function` when the linker names
    it (in its target regions when it named a kernel), else anywhere in device code."""
    key = model.key_of(name)
    definitions = [s for s in model.named(model.key_of(function)) if s.is_procedure and s.definition] if function else []
    for ref in model.references:
        if ref.key != key:
            continue
        if definitions:
            if any(d.span[0] <= ref.span[0] < d.span[1] for d in definitions) and (ref.target is not None or not in_region):
                return ref
        elif on_device(ref):
            return ref
    return None
