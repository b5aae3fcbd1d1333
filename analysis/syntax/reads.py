"""What the analysis reads, for the incremental layer: the one interface between the two.

The incremental layer (analysis/incremental) keeps a rule's findings after an edit when the rule
read nothing the edit changed. To know that, a traced run records what each rule reads: which
clauses of which directive, which structures of which file (the program model, the binding, ...).
The reads happen in the layers below it, so the record lives here, at the bottom, where every
layer may reach it; the semantic passes and the rules never call it. Only the accessors that hand
out what is read call it: a directive's contents (directives.nodes), a file's built structures
(semantics.context.FileContext), the function bodies the program model opens (model.file_model),
and the rule runner (rules), which starts and stops the recording.

A record (`Reads`) maps keys to names. A directive's key is its id: the clause names looked
for, "*" for all its clauses, "argument" for its argument list, or a record built from its
contents alone ("marks", "variant"); negative when read while a per-directive rule was checking
another directive. `STRUCTURES` holds the names of the file's built structures read; while a
cross-file rule runs, each structure is also recorded under the id of its file's document.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

Reads = dict[int, set[str]]
STRUCTURES = 0   # the key of the built structures read (no object's id is 0)

T = TypeVar("T")


class _Recording:
    """The record being written, and by whom: `checking` is the directive a per-directive rule
    is checking (`NOT_ONE` between two), None for a rule of the whole file."""
    __slots__ = ("by_owner", "checking", "reads")

    def __init__(self, reads: Reads, by_owner: bool, checking: object | None) -> None:
        self.reads = reads
        self.by_owner = by_owner
        self.checking = checking


NOT_ONE = object()
RECORDING: _Recording | None = None   # None: nothing is recorded (the cheap test of every accessor)


def recorded(reads: Reads, *, by_owner: bool = False, per_directive: bool = False) -> _Recording | None:
    """Start recording into `reads` (a rule's run: `per_directive` rules check one directive at a
    time, `by_owner` cross-file rules record structures per file too); returns the recording it
    replaces, for `restore`."""
    global RECORDING
    previous, RECORDING = RECORDING, _Recording(reads, by_owner, NOT_ONE if per_directive else None)
    return previous


def restore(previous: _Recording | None) -> None:
    """End a recording started by `recorded`."""
    global RECORDING
    RECORDING = previous


def checking(d: object | None) -> object | None:
    """Note the directive a per-directive rule now checks (see the module docstring); returns the
    one it replaces. Nothing happens when nothing is recorded."""
    if RECORDING is None:
        return None
    previous, RECORDING.checking = RECORDING.checking, d
    return previous


def read(d: object, keys: tuple[str, ...]) -> None:
    """Record a read of these contents of directive `d` (callers test RECORDING first)."""
    recording = RECORDING
    if recording is None:
        return
    key = -id(d) if recording.checking is not None and d is not recording.checking else id(d)
    found = recording.reads.get(key)
    if found is None:
        found = recording.reads[key] = set()
    found.update(keys)


def structure(name: str, owner: object | None = None) -> None:
    """Record a read of a file's built structure `name`; `owner` (the file's document) tells the
    files apart for a cross-file rule."""
    recording = RECORDING
    if recording is None:
        return
    recording.reads.setdefault(STRUCTURES, set()).add(name)
    if recording.by_owner and owner is not None:
        recording.reads.setdefault(id(owner), set()).add(name)


def replay(made: Reads) -> None:
    """Record again what a recording into `made` recorded (a value kept with the reads that made
    it, read again by another reader). The keys are those of a cross-file rule's recording."""
    recording = RECORDING
    if recording is None:
        return
    for key, names in made.items():
        found = recording.reads.get(key)
        if found is None:
            recording.reads[key] = set(names)
        else:
            found.update(names)


def unrecorded(get: Callable[[], T]) -> T:
    """`get()` with nothing recorded: for an accessor that records a finer read itself."""
    global RECORDING
    previous, RECORDING = RECORDING, None
    try:
        return get()
    finally:
        RECORDING = previous


def renamed(reads: Reads, old: int, new: int) -> Reads:
    """Reads under key `old` (and -old) moved to `new` (the same dict when there are none): a
    directive or file replaced by its successor."""
    if old not in reads and -old not in reads:
        return reads
    out = dict(reads)
    for sign in (1, -1):
        if sign * old in out:
            out[sign * new] = out.pop(sign * old)
    return out


def rename(reads: Reads, old: int, new: int) -> None:
    """`renamed` in place: for a record whose owner is given up to its successor (a record of
    every directive is large, and an edit would copy it for each rule that kept its findings)."""
    for sign in (1, -1):
        if sign * old in reads:
            reads[sign * new] = reads.pop(sign * old)
