"""Device link failures mapped back to the source (OMP502): a symbol the device code uses that was
not made available on the device (a global read by a function that runs there but is not
declare target), reported at its declaration with the device use that needs it.

From what the compilers print here: the host-offload device link of clang (GNU ld: "in function
`f': ... undefined reference to `counter'"; lld: "undefined symbol: counter"), and gcc's LTO
step for nvptx ("file:line:col: error: variable 'counter' has been referenced in offloaded code
but hasn't been marked to be included in the offloaded code").
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .places import analyse, diagnostic, position

if TYPE_CHECKING:
    from omp_lsp.analysis.model import FileModel, Symbol
    from omp_lsp.analysis.rules import FileContext

_GNU_LD = re.compile(r"in function [`'‘](?P<function>[^'’(]+)(?:\([^)]*\))?['’]:\n[^\n]*undefined reference to "
                     r"[`'‘](?P<symbol>[^'’]+)['’]")
_LLD = re.compile(r"undefined symbol: (?P<symbol>\S+)(?:\n>>> referenced by [^\n]*\n>>>\s+[^\n]*\((?P<function>[^)(]+)\))?")
_GCC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<column>\d+): error: variable [`'‘](?P<symbol>[^'’]+)['’] has "
                  r"been referenced in offloaded code but hasn[’']t been marked", re.MULTILINE)
_FORTRAN_MODULE = re.compile(r"^__(?P<module>\w+?)_MOD_(?P<name>\w+)$")


def device_link_diagnostics(output: bytes, source: str) -> list[dict[str, Any]]:
    """The device link failures in a compiler's `output` about `source`, in the form `--check
    --format json` reports findings (code OMP502)."""
    text = output.decode("utf-8", "replace")
    failures = [(m.group("symbol"), m.groupdict().get("function")) for m in (*_GNU_LD.finditer(text), *_LLD.finditer(text))]
    failures += [(m.group("symbol"), None) for m in _GCC.finditer(text)]
    if not failures:
        return []
    analysed = analyse(source)
    if analysed is None:
        return []
    document, context = analysed
    model = context.model
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str | None]] = set()
    for symbol, function in failures:
        name = _source_name(symbol, document.language.is_fortran)
        if (name, function) in seen:
            continue
        seen.add((name, function))
        declared = _declaration(model, name)
        if declared is None:
            continue
        use = _device_use(context, name, function)
        where = f" (in '{function}')" if function else ""
        found = diagnostic(document, source, declared.name_span, "OMP502", "error",
                           f"'{declared.name}' is used in device code{where} but is not declare target: the device "
                           "link cannot find it; add it to a declare target directive")
        if use is not None:
            line, column = position(document, use[0])
            found["related"].append({"file": source, "line": line, "column": column, "message": "used on the device here"})
        out.append(found)
    return out


def _source_name(symbol: str, fortran: bool) -> str:
    if fortran:
        m = _FORTRAN_MODULE.match(symbol)
        return (m.group("name") if m else symbol.rstrip("_")).lower()
    return symbol.split("::")[-1]


def _declaration(model: FileModel, name: str) -> Symbol | None:
    hits = [s for s in model.named(model.key_of(name)) if not s.is_procedure]
    return min(hits, key=lambda s: s.name_span[0]) if hits else None


def _device_use(context: FileContext, name: str, function: str | None) -> tuple[int, int] | None:
    """The first use of `name` in device code: in the device function `function` when the
    linker names it, else in a target region or in a procedure marked declare target."""
    model = context.model
    key = model.key_of(name)
    definitions = [s for s in model.named(model.key_of(function)) if s.is_procedure and s.definition] if function else []
    for ref in model.references:
        if ref.key != key:
            continue
        if function is not None:
            if any(d.span[0] <= ref.span[0] < d.span[1] for d in definitions):
                return ref.span
        elif ref.target is not None or any(
                s.symbol is not None and context.has_declare_target and context.binding.of(s.symbol)
                for s in ref.scope.ancestors()):
            return ref.span
    return None
