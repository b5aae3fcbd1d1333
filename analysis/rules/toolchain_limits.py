"""OMP505: a directive the spec allows that a selected device toolchain rejects (device_limits.REJECTED),
reported as information: the program is not wrong, but a build with that toolchain fails. The
toolchains are the workspace's (the `deviceToolchains` setting, as for OMP407)."""
from __future__ import annotations

from collections.abc import Iterator

from ..semantics.context import FileContext, WorkspaceContext
from ..syntax.device_limits import REJECTED
from ..syntax.diagnostics import Finding
from .registry import file_fact, workspace_rule


@file_fact
def directive_names(ctx: FileContext) -> frozenset[str]:
    """The names of the file's directives (`declare target`, `target teams` ...)."""
    return frozenset(d.name for d in ctx.directives)


@workspace_rule("OMP505")
def rejected_by_toolchain(ws: WorkspaceContext) -> Iterator[tuple[str, Finding]]:
    names = ws.options.device_toolchains if ws.options else ()
    rejected = [(name, REJECTED[name]) for name in names if name in REJECTED]
    if not rejected:
        return
    wanted = {feature.directive for _, features in rejected for feature in features}
    for path in ws.paths:
        if wanted.isdisjoint(ws.fact(path, directive_names)):
            continue
        for d in ws.files[path].directives:
            for name, features in rejected:
                for feature in features:
                    if d.name != feature.directive:
                        continue
                    found = [c for c in d.clauses_named(feature.clause) if feature.modifier is None
                             or c.modifier(feature.modifier) is not None] if feature.clause is not None else []
                    if feature.clause is not None and not found:
                        continue
                    yield path, Finding("OMP505", f"{name} rejects {feature.what}, which the OpenMP specification "
                                        "allows: a build with that toolchain fails here",
                                        found[0].name_span if found else d.name_span)
