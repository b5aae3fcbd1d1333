"""`omp-lsp --check -j N`: the files analysed in N processes, then the cross-file rules in this one.

The files are split into groups that include none of each other's files (`include_groups`; groups
whose analyses show that one read a file of another are joined and analysed again: `merged_groups`).
Each group is analysed as on its own in a forked worker, and comes back as plain data (the findings,
the line index and the cross-file summary of each file: `FileResult`). No worker holds more than
a batch of groups (`BATCH_BYTES` of source), and this process holds none: the cross-file rules read
the summaries, and analyse a group again only for a file whose context a rule asks for. A worker
exits once its batch is sent, without freeing what it built (a model is millions of objects: freeing
them costs as much as a rule). One group (one file) is analysed whole in this process, without a
fork and without summaries.
"""
from __future__ import annotations

import gc
import os
import pickle
import selectors
from collections.abc import Iterator

from omp_lsp.analysis.check import (
    Build,
    CompileDatabase,
    Document,
    FileContext,
    FileResult,
    Options,
    analyze_files,
    cross_file,
    cross_file_results,
    include_groups,
    merged_groups,
    replace,
    result_of,
    with_lines,
    with_overlay,
    without_lines,
)


def default_jobs() -> int:
    """The CPUs this process may run on (as linters default their -j)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class _Work:
    """The documents and how they are built, and the groups: a forked worker has them in its
    memory already, and is told only a group's number."""

    def __init__(self, documents: dict[str, Document], options: Options, build: Build,
                 groups: list[list[str]]) -> None:
        self.documents, self.options, self.build, self.groups = documents, options, build, groups
        self.fortran = any(d.language.is_fortran for d in documents.values())

    def analyses(self, group: list[str]) -> Iterator[tuple[str, FileContext | None, FileResult]]:
        # fresh documents: a parse stays with its analysis, not with the documents kept here
        return self.analyses_of({p: Document(self.documents[p].source, self.documents[p].language,
                                             self.documents[p].version, lines=self.documents[p].lines) for p in group})

    def analyses_of(self, documents: dict[str, Document]) -> Iterator[tuple[str, FileContext | None, FileResult]]:
        for path, analysis in analyze_files(documents, self.options, self.build).items():
            yield path, analysis.context, result_of(path, analysis, self.fortran)

    def results(self, number: int, release: bool = True) -> list[tuple[str, FileResult]]:
        """The group's results. `release`: free each analysis at once (this process goes on)."""
        out = []
        for path, context, result in self.analyses(self.groups[number]):
            if context is not None and release:
                context.release()   # (its model's cycles: freed now, not at the next collection)
            out.append((path, result))
        return out

    def preload(self) -> None:
        """Analyse a few lines in each language of the documents here: the modules an analysis
        loads (rules, program model, parsers) are then loaded once, not in each worker."""
        for language in {d.language: None for d in self.documents.values()}:
            text = _PRELOAD_FORTRAN if language.is_fortran else _PRELOAD_C
            document = Document(text, language)
            for _, context, _ in self.analyses_of({"preload": document}):
                if context is not None:
                    context.release()

    def size(self, number: int) -> int:
        return sum(len(self.documents[p].source) for p in self.groups[number])

    def contexts(self, group: list[str]) -> dict[str, FileContext]:
        return {path: context for path, context, _ in self.analyses(group) if context is not None}


# What `_Work.preload` analyses: a declare target and a target region, read by most of the rules.
_PRELOAD_C = b"""#pragma omp declare target
int counter;
#pragma omp end declare target
void run(int n, double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += counter;
}
"""
_PRELOAD_FORTRAN = b"""subroutine run(n, a)
  integer :: n, i
  real :: a(n)
  !$omp target teams distribute parallel do map(tofrom: a)
  do i = 1, n
    a(i) = a(i) + 1
  end do
end subroutine
"""
# A worker analyses groups until it has read about this much source (small files share a worker:
# starting one costs a fork), and keeps what it built until it exits (about 100 bytes a byte).
BATCH_BYTES = 1_000_000


def check(documents: dict[str, Document], options: Options, build: Build, database: CompileDatabase | None,
          jobs: int) -> dict[str, FileResult]:
    """Every document analysed as its build compiles it, then the cross-file rules: the same
    findings as `analyze_files` and `cross_file` on all of them, for every `jobs`."""
    build = replace(build, headers=with_overlay(build.headers, documents))
    groups = include_groups(documents, build)
    if len(groups) == 1:   # (one file, or files that include each other: kept whole, as the server does)
        analyses = cross_file(analyze_files(documents, options, build), options, None, database)
        return {p: FileResult(a.document.lines, a.findings, a.internal_errors, None) for p, a in analyses.items()}
    paths = list(documents)
    work = _Work(documents, options, build, groups)
    found: dict[str, FileResult] = {}
    while True:
        todo = [n for n, group in enumerate(work.groups) if any(p not in found for p in group)]
        if not found:
            work.preload()
        found.update(_in_processes(work, todo, jobs))
        for number in todo:   # (those whose worker failed)
            if any(p not in found for p in work.groups[number]):
                found.update(work.results(number))
        # a translation unit that read a file of another group: those groups are analysed together again
        joined = merged_groups(paths, work.groups, {p: r.reached for p, r in found.items()})
        if len(joined) == len(work.groups):
            break
        kept = {tuple(group) for group in work.groups}
        for group in joined:
            if tuple(group) not in kept:
                for p in group:
                    found.pop(p, None)
        work.groups = joined
    group_of = {path: group for group in work.groups for path in group}

    def load(path: str) -> dict[str, FileContext]:
        return work.contexts(group_of[path])
    return cross_file_results({p: found[p] for p in documents}, options, database, load)


def _in_processes(work: _Work, numbers: list[int], jobs: int) -> dict[str, FileResult]:
    """The results of these groups, from processes forked for batches of them (`BATCH_BYTES`),
    at most `jobs` at a time, the largest first (the last to finish is then a small one). A group
    whose worker failed is left out: `check` analyses it here."""
    # (and at least four batches a job where there are enough groups: the work is then shared)
    sizes = {n: work.size(n) for n in numbers}
    budget = min(BATCH_BYTES, sum(sizes.values()) // (4 * jobs) + 1)
    batches: list[list[int]] = []
    filled = 0
    for number in sorted(numbers, key=lambda n: -sizes[n]):
        if batches and filled + sizes[number] <= budget:
            batches[-1].append(number)
            filled += sizes[number]
        else:
            batches.append([number])
            filled = sizes[number]
    found: dict[str, FileResult] = {}
    running: dict[int, tuple[int, list[bytes]]] = {}   # read end -> (pid, what was read)
    with selectors.DefaultSelector() as selector:
        while batches or running:
            while batches and len(running) < jobs:
                read_end, pid = _fork(work, batches.pop(0))
                running[read_end] = (pid, [])
                selector.register(read_end, selectors.EVENT_READ)
            for key, _ in selector.select():
                fd = key.fd
                pid, chunks = running[fd]
                chunk = os.read(fd, 1 << 20)
                if chunk:
                    chunks.append(chunk)
                    continue
                selector.unregister(fd)
                os.close(fd)
                del running[fd]
                _, status = os.waitpid(pid, 0)
                if os.waitstatus_to_exitcode(status) == 0:
                    found.update((path, with_lines(result, work.documents[path].lines))
                                 for path, result in _loaded(b"".join(chunks)))
    return found


def _fork(work: _Work, numbers: list[int]) -> tuple[int, int]:
    """(the read end of its pipe, the pid) of a process that analyses these groups, writes their
    results to the pipe and exits."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write_end)
        return read_end, pid
    status = 1
    try:
        os.close(read_end)
        gc.disable()   # (it exits when done: nothing to collect)
        # (a file's line index is its text: the main process has it already)
        results = [(path, without_lines(result, work.documents[path].lines))
                   for number in numbers for path, result in work.results(number, release=False)]
        data = pickle.dumps(results, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view):]
        status = 0
    finally:
        os._exit(status)   # (not the parent's exit handlers, nor its buffered output)


def _loaded(data: bytes) -> list[tuple[str, FileResult]]:
    try:
        found: list[tuple[str, FileResult]] = pickle.loads(data)
        return found
    except Exception:
        return []


__all__ = ["check", "default_jobs"]
