"""OMP010: OpenMP directives in branches the build's configuration does not compile.

Offload paths are often guarded by a macro (`#ifdef USE_GPU`). The analysis reads one
configuration, the build's, so nothing in such a branch is checked; one information diagnostic
per file says so, and which macro would enable the branch and where to give it.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..semantics.context import FileContext
from ..syntax.diagnostics import Finding, Related
from .registry import rule

_WHERE = ("-D{name} in the file's command in compile_commands.json, -D {name} on omp-lsp --check, "
          "or 'defines' in .omp-lsp.toml")


@rule("OMP010")
def directives_in_inactive_code(ctx: FileContext) -> Iterator[Finding]:
    configuration = ctx.configuration
    if configuration is None or not configuration.guarded:
        return
    guarded = configuration.guarded
    count = sum(g.directives for g in guarded)
    ways: dict[str, None] = {}
    for g in guarded:
        ways[" and ".join(g.enable) if g.enable else f"give {' and '.join(g.names)} other values"] = None
    first = next(iter(ways))
    name = first.split(" ", 1)[1] if first.startswith("define ") and " and " not in first else None
    # (no line numbers in the text: an edit above moves them, and the related places say where)
    where = "a branch" if len(guarded) == 1 else f"{len(guarded)} branches"
    message = (f"{count} OpenMP directive{'s' if count != 1 else ''} in {where} this build does not compile "
               f"{'is' if count == 1 else 'are'} not checked; to check {'it' if count == 1 else 'them'}, "
               f"{' or '.join(ways)}{f' ({_WHERE.format(name=name)})' if name else ''}")
    related = [Related(g.branch.line, f"{g.directives} OpenMP directive{'s' if g.directives != 1 else ''} here: "
                       + (" and ".join(g.enable) if g.enable else "depends on " + ", ".join(g.names)))
               for g in guarded[1:]]
    yield Finding("OMP010", message, guarded[0].branch.line, related=related)
