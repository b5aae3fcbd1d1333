"""`omp-lsp --check -j N`: the files analysed in N processes, then the cross-file rules in this one.

The files are split into groups that include none of each other's files (`include_groups`):
each group is analysed as on its own, in a forked worker, and comes back as plain data (the
findings, the line index and the cross-file summary of each file: `FileResult`). No worker holds
more than one group's trees and models, and this process holds none: the cross-file rules read the
summaries, and analyse a group again only for a file whose context a rule asks for. With one
job, or one group, the same steps run in this process, without a pool.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from omp_lsp.analysis.check import (
    Build,
    CompileDatabase,
    Document,
    FileContext,
    FileResult,
    Options,
    analyze_files,
    cross_file_results,
    include_groups,
    replace,
    result_of,
    with_overlay,
)


def default_jobs() -> int:
    """The CPUs this process may run on (as linters default their -j)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class _Work:
    """What every worker reads (set before the workers are forked, so nothing is sent to them
    but a group's number)."""

    def __init__(self, documents: dict[str, Document], options: Options, build: Build,
                 groups: list[list[str]]) -> None:
        self.documents, self.options, self.build, self.groups = documents, options, build, groups
        self.fortran = any(d.language.is_fortran for d in documents.values())

    def analyses(self, group: list[str]) -> Iterator[tuple[str, FileContext | None, FileResult]]:
        # fresh documents: a parse stays with its analysis, not with the documents kept here
        documents = {p: Document(self.documents[p].source, self.documents[p].language, self.documents[p].version,
                                 lines=self.documents[p].lines) for p in group}
        for path, analysis in analyze_files(documents, self.options, self.build).items():
            yield path, analysis.context, result_of(path, analysis, self.fortran)

    def results(self, number: int) -> list[tuple[str, FileResult]]:
        out = []
        for path, context, result in self.analyses(self.groups[number]):
            if context is not None:
                context.release()   # (its model's cycles: freed now, not at the next collection)
            out.append((path, result))
        return out

    def contexts(self, group: list[str]) -> dict[str, FileContext]:
        return {path: context for path, context, _ in self.analyses(group) if context is not None}


_WORK: _Work | None = None


def _results_of_group(number: int) -> list[tuple[str, FileResult]]:
    assert _WORK is not None   # (set before the fork)
    return _WORK.results(number)


def check(documents: dict[str, Document], options: Options, build: Build, database: CompileDatabase | None,
          jobs: int) -> dict[str, FileResult]:
    """Every document analysed as its build compiles it, then the cross-file rules: the same
    findings as `analyze_files` and `cross_file` on all of them, for every `jobs`."""
    global _WORK
    build = replace(build, headers=with_overlay(build.headers, documents))
    groups = include_groups(documents, build)
    work = _Work(documents, options, build, groups)
    found: dict[str, FileResult] = {}
    if jobs > 1 and len(groups) > 1:
        _WORK = work
        try:
            found.update(_in_processes(work, min(jobs, len(groups))))
        finally:
            _WORK = None
    for number, group in enumerate(groups):   # (all of them with one job; after a lost worker, the rest)
        if any(p not in found for p in group):
            found.update(work.results(number))
    group_of = {path: group for group in groups for path in group}

    def load(path: str) -> dict[str, FileContext]:
        return work.contexts(group_of[path])
    return cross_file_results({p: found[p] for p in documents}, options, database, load)


def _in_processes(work: _Work, workers: int) -> dict[str, FileResult]:
    """The groups' results from forked workers, the largest groups first (the last to finish
    is then a small one). A worker that dies loses its groups: `check` analyses them here."""
    order = sorted(range(len(work.groups)), key=lambda n: -sum(len(work.documents[p].source) for p in work.groups[n]))
    found: dict[str, FileResult] = {}
    try:
        with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
            for results in pool.map(_results_of_group, order):
                found.update(results)
    except BrokenProcessPool:
        pass
    return found


__all__ = ["check", "default_jobs"]
