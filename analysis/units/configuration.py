"""One configuration, the build's: which lines of a file the compiler compiles.

`configure` walks a file's preprocessor lines in order with the macro environment of its
compile command: `#define`/`#undef` change it, `#include` of a project header brings that
header's definitions, and each `#if` group's branches are decided as the compiler decides them.
The result says which spans are inactive (a branch the build does not take), where each
include is and what was defined there, and which inactive branches hold OpenMP directives and
what would enable them.

`masked` turns the text into what the analysis reads: inactive branches and the conditional
lines themselves blanked (line breaks kept, so every offset stays where it is), so that the
syntax tree, the directives and the program model see the build's configuration only.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable

from ..syntax.document import Span
from ..syntax.records import dataclass, field
from .expressions import ConditionError, evaluate
from .headers import Headers
from .lines import CONDITIONAL, OPENING, Line, scan
from .macros import IDENT, Macro, expand, parse_command_define, parse_define, tokenize
from .predefined import predefined

MAX_INCLUDE_DEPTH = 64


@dataclass(frozen=True)
class Environment:
    """What a file is compiled with before its first line: its compile command's macros and
    include folders (or the project file's and `--check`'s), the toolchain and the standard."""
    definitions: tuple[tuple[str, str], ...] = ()   # ("D", "NAME=VALUE") or ("U", "NAME"), in order
    forced: tuple[str, ...] = ()                     # -include files, absolute
    quote_dirs: tuple[str, ...] = ()                 # -iquote folders (#include "..." only)
    dirs: tuple[str, ...] = ()                       # -I folders
    toolchain: str = ""                              # clang, gcc, flang ("": the reference compiler)
    standard: str = ""                               # -std= value
    openmp: bool = True                              # compiled with OpenMP (defines _OPENMP)


@dataclass(frozen=True)
class Includer:
    """Where a header is read when it is analysed in an includer's translation unit."""
    path: str                          # the includer
    offset: int                        # where its `#include` stands
    macros: dict[str, Macro]           # what was defined there
    function: str | None = None        # the function whose body holds the include (a code fragment)
    target: bool = False               # the include stands inside a target region


@dataclass(frozen=True)
class Branch:
    """One branch of an `#if` group: its conditional line and the text up to the next one."""
    keyword: str
    line: Span                 # the conditional line (from '#' to its end)
    body: Span                 # what it guards
    active: bool               # the build compiles it
    condition: str             # the condition as written ("" for #else)
    unknown: bool = False      # the condition could not be evaluated (taken as false)


@dataclass(frozen=True)
class Guarded:
    """An inactive branch that holds OpenMP directives, and what would make the build take it."""
    branch: Branch
    directives: int            # how many directive lines it holds
    enable: tuple[str, ...]    # e.g. ("define GPU",) or ("undefine NDEBUG", "define X"); () if unknown
    names: tuple[str, ...]     # the macros its conditions name (what to look at when `enable` is ())


@dataclass(frozen=True)
class IncludeSite:
    """An `#include` the build compiles."""
    span: Span                 # the directive line
    header: str                # as written ("" when a macro names it and it expands to nothing usable)
    angle: bool
    path: str | None           # the project file it names (None: a system header, or not found)


@dataclass
class Configuration:
    branches: list[Branch] = field(default_factory=list)
    blanks: list[Span] = field(default_factory=list)       # sorted, disjoint: what the analysis does not read
    comments: list[Span] = field(default_factory=list)     # comments inside active directive lines (blanked too)
    trailers: list[int] = field(default_factory=list)      # where an active directive line's trailing blanks start
    inactive: list[Span] = field(default_factory=list)     # inactive branches' bodies (the editor's view)
    includes: list[IncludeSite] = field(default_factory=list)
    guarded: list[Guarded] = field(default_factory=list)
    lines: tuple[Line, ...] = ()                           # every preprocessor line of the file
    macros: dict[str, Macro] = field(default_factory=dict)  # defined at the end of the file
    names: frozenset[str] = frozenset()                    # every macro name defined at any point
    translation_unit: tuple[str, ...] = ()                 # project files the file includes, transitively
    unresolved: tuple[str, ...] = ()                       # `#include "..."` the project does not hold
    includer: Includer | None = None                       # a header read in an includer's translation unit

    def __post_init__(self) -> None:
        # project file -> (the offset of this file's include that leads to it, the macros defined
        # where the build first enters it): where a header is read (a second include of it is
        # empty, its guard defined)
        self.entries: dict[str, tuple[int, dict[str, Macro]]] = {}

    def active(self, offset: int) -> bool:
        """Whether the build compiles the text at `offset` (not in an inactive branch)."""
        from bisect import bisect_right
        i = bisect_right(self.inactive, (offset, 1 << 62)) - 1
        return not (i >= 0 and self.inactive[i][0] <= offset < self.inactive[i][1])

    def knows_every_macro(self) -> bool:
        """Whether every macro the file can use is one this configuration saw: each `#include "..."`
        found (an `<...>` header the project does not hold is a system header, which defines no
        name a directive could be spelt with), none named by a macro that did not expand, and the
        file read alone (an includer's own unresolved headers are not recorded here)."""
        return not self.unresolved and self.includer is None and all(site.header for site in self.includes)

    def entry(self, path: str) -> tuple[int, dict[str, Macro]] | None:
        """Where the build first enters the project file `path`: (the offset of this file's
        include that leads there, the macros defined then); None when it never does."""
        return self.entries.get(path)


_BLANK = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))
_OPENMP_C = re.compile(rb"^[ \t]*#[ \t]*pragma[ \t]+omp\b|_Pragma[ \t]*\([ \t]*(?:u8|u|U|L)?\"[ \t]*omp\b", re.M)
# (a continuation line, `!$omp& ...`, is part of a directive started elsewhere)
_OPENMP_FORTRAN = re.compile(rb"^(?:[ \t]*!\$omp|[cC*!]\$omp)(?![A-Za-z0-9_])(?![ \t]*&)", re.M | re.I)
_RESERVED = re.compile(r"__|_[A-Z]")


def masked(source: bytes, configuration: Configuration) -> bytes:
    """The text the analysis reads: the configuration's blanks made blank, line ends kept (a
    comment inside a directive line that spans lines keeps the line going with a backslash, as
    the comment did)."""
    if not configuration.blanks and not configuration.trailers:
        return source
    parts: list[bytes] = []
    at = 0
    for start, end in configuration.blanks:
        parts.append(source[at:start])
        parts.append(source[start:end].translate(_BLANK))
        at = end
    parts.append(source[at:])
    text = b"".join(parts)
    spliced = [(s, e) for s, e in configuration.comments if b"\n" in source[s:e]]
    if not spliced and not configuration.trailers:
        return text
    out = bytearray(text)
    for at in configuration.trailers:
        # blanks after a directive line's last word: the syntax tree would read the next line as
        # the line's argument (`#define GPU` then blanks), or miss its end (`#include <a.h>`); a
        # line comment over them keeps every byte in place
        out[at:at + 2] = b"//"
    for s, e in spliced:
        nl = source.find(b"\n", s, e)
        while nl >= 0:
            k = nl - 1 if nl > s and source[nl - 1] == 0x0D else nl
            # an empty line has no byte of its own to splice with: overwriting the newline before
            # it would join two lines and leave a stray backslash, so the logical line ends there
            if k > s and source[k - 1] != 0x0A:
                out[k - 1] = 0x5C
            nl = source.find(b"\n", nl + 1, e)
    return bytes(out)


class _Frame:
    """An open `#if` group."""
    __slots__ = ("active", "branch_line", "condition", "conditions", "keyword", "outer", "taken", "unknown")

    def __init__(self, outer: bool) -> None:
        self.outer = outer          # the text around the group is compiled
        self.taken = False          # a branch of the group was taken
        self.active = False         # the current branch is compiled
        self.branch_line: Line | None = None
        self.keyword = ""
        self.condition = ""
        self.unknown = False
        self.conditions: list[tuple[str, str]] = []   # (keyword, condition) of the branches so far


class _Walk:
    def __init__(self, language: str, path: str, environment: Environment, headers: Headers | None,
                 macros: dict[str, Macro]) -> None:
        self.cpp = language == "cpp"
        self.fortran = language == "fortran"
        self.path = path
        self.env = environment
        self.headers = headers
        self.macros = macros
        self.names: set[str] = {n for n, m in macros.items() if m.origin != "predefined"}
        self.tu: dict[str, None] = {}
        self.unresolved: dict[str, None] = {}
        self.once: set[str] = set()
        self.site = -1     # the offset of the main file's include being followed
        self.entries: dict[str, tuple[int, dict[str, Macro]]] = {}

    # -- conditions -------------------------------------------------------------------------
    def holds(self, keyword: str, text: bytes | str, macros: dict[str, Macro] | None = None,
              folder: str = "") -> bool:
        """Whether a branch's condition holds; raises ConditionError."""
        macros = self.macros if macros is None else macros
        if isinstance(text, bytes):
            text = text.decode("latin-1")
        if keyword in ("ifdef", "ifndef", "elifdef", "elifndef"):
            words = text.split()
            if not words:
                raise ConditionError(f"#{keyword} needs a macro name")
            defined = words[0] in macros
            return defined if keyword in ("ifdef", "elifdef") else not defined
        return evaluate(text, macros, self.cpp, self.has_include(folder)) != 0

    def has_include(self, folder: str) -> Callable[[str, bool], bool]:
        def exists(header: str, angle: bool) -> bool:
            if self.headers is None:
                return angle
            found = self.headers.find(header, angle, folder, self.env.quote_dirs, self.env.dirs)
            # a header found nowhere among the project's is a system header: taken to exist
            return found is not None or angle
        return exists

    # -- directives ---------------------------------------------------------------------------
    def define(self, line: Line, origin: str) -> None:
        m = parse_define(line.text, origin)
        if m is not None:
            self.macros[m.name] = m
            self.names.add(m.name)

    def undef(self, line: Line) -> None:
        words = line.text.split()
        if words:
            self.macros.pop(words[0].decode("latin-1"), None)

    def include_target(self, line: Line) -> tuple[str, bool]:
        """(header, angle) an include line names, expanding a macro that names it."""
        text = line.text
        if text[:1] not in (b'"', b"<"):
            try:
                tokens = expand(tokenize(text), self.macros)
            except Exception:
                return "", False
            text = "".join(t.text for t in tokens).encode("latin-1")
        if text[:1] == b'"':
            close = text.find(b'"', 1)
            return (text[1:close].decode("utf-8", "replace"), False) if close > 0 else ("", False)
        if text[:1] == b"<":
            close = text.find(b">", 1)
            return (text[1:close].decode("utf-8", "replace"), True) if close > 0 else ("", True)
        return "", False

    def include(self, line: Line, folder: str, depth: int) -> tuple[str, bool, str | None]:
        header, angle = self.include_target(line)
        found = self.headers.find(header, angle, folder, self.env.quote_dirs, self.env.dirs) \
            if self.headers is not None and header else None
        if found is None:
            if header and not angle:
                self.unresolved[header] = None
            return header, angle, None
        self.tu[found] = None
        if found not in self.entries and self.site >= 0:
            self.entries[found] = (self.site, dict(self.macros))
        if depth < MAX_INCLUDE_DEPTH and found not in self.once:
            self.header(found, depth + 1)
        return header, angle, found

    def header(self, path: str, depth: int) -> None:
        """Walk an included header: its definitions count; nothing else is recorded."""
        assert self.headers is not None
        lines = self.headers.lines(path, self.fortran)
        if lines is None:
            return
        folder = os.path.dirname(path)
        frames: list[_Frame] = []
        for line in lines:
            kw = line.keyword
            if kw in CONDITIONAL:
                self.conditional(frames, line, folder)
                continue
            if frames and not frames[-1].active:
                continue
            if kw == "define":
                self.define(line, path)
            elif kw == "undef":
                self.undef(line)
            elif kw in ("include", "import", "include_next"):
                self.include(line, folder, depth)
            elif kw == "pragma" and line.text.split()[:1] == [b"once"]:
                self.once.add(path)

    def conditional(self, frames: list[_Frame], line: Line, folder: str) -> _Frame | None:
        """Apply one conditional line; the frame it opened, moved to or closed."""
        kw = line.keyword
        if kw in OPENING:
            outer = not frames or frames[-1].active
            frame = _Frame(outer)
            frames.append(frame)
            self.decide(frame, line, folder)
            return frame
        if not frames:
            return None   # an #else/#endif without #if: the compiler rejects it; nothing to do
        frame = frames[-1]
        if kw == "endif":
            frames.pop()
            return frame
        self.decide(frame, line, folder)
        return frame

    def decide(self, frame: _Frame, line: Line, folder: str) -> None:
        kw = line.keyword
        text = line.text.decode("latin-1")
        frame.branch_line, frame.keyword, frame.condition, frame.unknown = line, kw, "" if kw == "else" else text, False
        frame.conditions.append((kw, frame.condition))
        if not frame.outer or frame.taken:
            frame.active = False
            return
        if kw == "else":
            frame.active = True
        else:
            try:
                frame.active = self.holds(kw, text, folder=folder)
            except ConditionError:
                frame.active, frame.unknown = False, True
        frame.taken = frame.active


def configure(source: bytes, language: str, path: str = "", environment: Environment | None = None,
              openmp_version: int | None = 51, headers: Headers | None = None,
              macros: dict[str, Macro] | None = None) -> Configuration:
    """The build's configuration of one file. `language`: "c", "cpp" or "fortran"; `macros`:
    those defined before the first line when the file is analysed inside an includer's
    translation unit (instead of the predefined ones and the environment's)."""
    env = environment or Environment()
    lines = scan(source, language == "fortran")
    if macros is None:
        macros = initial_macros(language, env, openmp_version)
        walk = _Walk(language, path, env, headers, macros)
        for forced in env.forced:
            if headers is not None and headers.is_file(forced):
                walk.tu[forced] = None
                walk.header(forced, 1)
    else:
        walk = _Walk(language, path, env, headers, dict(macros))
    out = Configuration(lines=lines)
    if not lines:
        out.macros, out.names, out.translation_unit = walk.macros, frozenset(walk.names), tuple(walk.tu)
        return out
    folder = os.path.dirname(path) if path else ""
    frames: list[_Frame] = []
    open_branch: list[tuple[_Frame, Line]] = []   # each frame's current branch line
    blanks: list[Span] = []
    for line in lines:
        kw = line.keyword
        if kw in CONDITIONAL:
            blanks.append((line.start, line.end))
            if kw not in OPENING and frames:
                _close_branch(out, frames, open_branch, line, source, walk)
            frame = walk.conditional(frames, line, folder)
            if kw == "endif" and open_branch:
                open_branch.pop()
            elif frame is not None and kw != "endif":
                if kw in OPENING:
                    open_branch.append((frame, line))
                else:
                    open_branch[-1] = (frame, line)
            continue
        if frames and not frames[-1].active:
            continue
        out.comments.extend(line.comments)
        if kw != "pragma":
            trailing = len(source[line.start:line.end]) - len(source[line.start:line.end].rstrip(b" \t"))
            if trailing >= 2:
                out.trailers.append(line.end - trailing)
        if kw == "define":
            walk.define(line, path)
        elif kw == "undef":
            walk.undef(line)
        elif kw in ("include", "import", "include_next"):
            walk.site = line.start
            header, angle, found = walk.include(line, folder, 0)
            out.includes.append(IncludeSite((line.start, line.end), header, angle, found))
    for frame, line in open_branch:   # groups the file leaves open: their branches run to its end
        _add_branch(out, frame, line, len(source), source, walk, frames)
    out.inactive.sort()
    out.blanks = _union(_union(blanks, out.inactive), out.comments)
    out.macros, out.names = walk.macros, frozenset(walk.names)
    out.translation_unit, out.unresolved = tuple(walk.tu), tuple(walk.unresolved)
    out.entries = walk.entries
    return out


def initial_macros(language: str, env: Environment, openmp_version: int | None) -> dict[str, Macro]:
    """The predefined macros, then the command line's -D and -U in order."""
    macros = predefined(language, openmp_version if env.openmp else None, env.toolchain, env.standard)
    for kind, value in env.definitions:
        if kind == "U":
            macros.pop(value.strip(), None)
        else:
            m = parse_command_define(value)
            if m is not None:
                macros[m.name] = m
    return macros


def _close_branch(out: Configuration, frames: list[_Frame], open_branch: list[tuple[_Frame, Line]],
                  line: Line, source: bytes, walk: _Walk) -> None:
    """The current branch of the innermost group ends at `line` (an #elif, #else or #endif)."""
    if not open_branch:
        return
    frame, start_line = open_branch[-1]
    _add_branch(out, frame, start_line, line.start, source, walk, frames)


def _add_branch(out: Configuration, frame: _Frame, line: Line, end: int, source: bytes, walk: _Walk,
                frames: list[_Frame]) -> None:
    body_start = min(line.end + 1, end)
    branch = Branch(frame.keyword, (line.start, line.end), (body_start, end), frame.active, frame.condition,
                    frame.unknown)
    out.branches.append(branch)
    if frame.active or not frame.outer:
        return
    out.inactive.append((body_start, end))
    count = len((_OPENMP_FORTRAN if walk.fortran else _OPENMP_C).findall(source, body_start, end))
    if count:
        # the conditions that must change: this group's earlier branches (false) and its own
        # (the enclosing groups' branches are taken; what they read may have changed since, as
        # an include guard they define)
        chain = [(kw, cond, False) for kw, cond in frame.conditions[:-1]]
        chain.append((frame.keyword, frame.condition, True))
        found = _guarded(branch, count, chain, walk)
        if found is not None:
            out.guarded.append(found)


def _guarded(branch: Branch, count: int, chain: list[tuple[str, str, bool]], walk: _Walk) -> Guarded | None:
    """What would make the build take `branch`: one macro defined or undefined, else two. None
    when its conditions name no macro of the user's (`#if 0`, the compiler's own macros such as
    `_OPENMP`: no macro to give would enable it)."""
    names: dict[str, None] = {}
    for _kw, condition, _ in chain:
        for t in tokenize(condition):
            if t.kind == IDENT and t.text != "defined" and not _RESERVED.match(t.text):
                names[t.text] = None
    candidates = list(names)
    if not candidates:
        return None

    def taken(macros: dict[str, Macro]) -> bool:
        try:
            return all(walk.holds(kw, cond, macros) == want if kw != "else" else want for kw, cond, want in chain)
        except ConditionError:
            return False

    def flipped(flips: tuple[str, ...]) -> tuple[str, ...] | None:
        macros = dict(walk.macros)
        said = []
        for name in flips:
            if name in macros:
                del macros[name]
                said.append(f"undefine {name}")
            else:
                macros[name] = Macro(name, None, False, "1", "suggested")
                said.append(f"define {name}")
        return tuple(said) if taken(macros) else None

    for name in candidates[:12]:
        found = flipped((name,))
        if found:
            return Guarded(branch, count, found, tuple(candidates))
    short = candidates[:6]
    for i, a in enumerate(short):
        for b in short[i + 1:]:
            found = flipped((a, b))
            if found:
                return Guarded(branch, count, found, tuple(candidates))
    return Guarded(branch, count, (), tuple(candidates))


def _union(a: list[Span], b: list[Span]) -> list[Span]:
    spans = sorted([*a, *b])
    out: list[Span] = []
    for s, e in spans:
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


__all__ = ["Branch", "Configuration", "Environment", "Guarded", "IncludeSite", "Includer", "configure",
           "initial_macros", "masked"]
