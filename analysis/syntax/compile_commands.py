"""compile_commands.json: which files form the program, their include paths and OpenMP version.

Pure data: finding the database, parsing its entries into records, and resolving `#include "..."`
against an entry's include directories. Nothing here runs a compiler or a shell (`command` strings
are split with `shlex`), and nothing reads a source file; `resolve_include` only stats.

The format is clang's JSON compilation database: a list of objects with `directory`, `file` and
either `arguments` (a list) or `command` (one string); `output` is ignored.
"""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from .document import language_for_path
from .options import parse_version
from .records import dataclass
from .regular_files import read_regular_file

FILE_NAME = "compile_commands.json"
MAX_PARENT_LEVELS = 20
MAX_DATABASE_BYTES = 500_000_000   # the largest known projects' databases are a few hundred MB

# Include options in the order a compiler searches them for `#include "..."` (after the including
# file's own directory): -iquote, then -I, then -isystem, then -idirafter. Values may be attached
# (`-Idir`) or the next argument (`-I dir`); long forms take `=`.
_INCLUDE_OPTIONS: tuple[str, ...] = ("-iquote", "-I", "-isystem", "-idirafter")
_INCLUDE_LONG: dict[str, str] = {"--include-directory": "-I", "--include-directory-after": "-idirafter"}

# Flags that turn OpenMP on or off (gcc, clang, flang, Intel, NVHPC, MSVC). Any `-fopenmp*` also
# counts (`-fopenmp=libomp`, `-fopenmp-simd`, `-fopenmp-targets=...`); the last on/off flag wins.
_OPENMP_ON: frozenset[str] = frozenset({
    "-fiopenmp", "-qopenmp", "-openmp", "-mp", "-Qopenmp", "/Qopenmp", "/openmp", "-fopenmp",
})
_OPENMP_ON_PREFIXES: tuple[str, ...] = ("-fopenmp", "-qopenmp", "-mp=", "/openmp:")
_OPENMP_OFF: frozenset[str] = frozenset({"-fno-openmp", "-qno-openmp", "-nomp", "-fno-iopenmp"})
_VERSION_FLAG = "-fopenmp-version="


class CompileCommandsError(ValueError):
    """A compile_commands.json that cannot be used; the message is one line naming the file."""


@dataclass(frozen=True)
class CompileEntry:
    file: str                        # absolute, normalised
    directory: str                   # absolute, normalised working directory of the command
    arguments: tuple[str, ...]       # the command line, compiler first
    include_dirs: tuple[str, ...]    # absolute, in `#include "..."` search order (see above)
    openmp_version: int | None       # from -fopenmp-version=, None if absent or unknown
    openmp: bool                     # compiled with OpenMP enabled
    defines: tuple[str, ...]         # macro names from -D (minus later -U), unique, in order


@dataclass(frozen=True)
class CompileDatabase:
    path: str
    entries: tuple[CompileEntry, ...]

    def __post_init__(self) -> None:
        # An index for entry_for (the server asks once per open file); not a field.
        index: dict[str, CompileEntry] = {}
        for entry in self.entries:
            index.setdefault(_key(entry.file), entry)
        self.__dict__["_by_file"] = index

    def files(self) -> list[str]:
        """The source files of the program, each once, in database order."""
        return [entry.file for entry in self.__dict__["_by_file"].values()]

    def entry_for(self, path: str) -> CompileEntry | None:
        """The (first) entry compiling `path`, compared as normalised absolute paths, then through
        symbolic links (an editor may open a file by a linked path)."""
        index: dict[str, CompileEntry] = self.__dict__["_by_file"]
        found = index.get(_key(path))
        if found is None:
            try:
                found = index.get(_key(os.path.realpath(path)))
            except (OSError, ValueError):
                return None
        return found

    def openmp_version(self) -> int | None:
        """The OpenMP version the program is compiled for: the one all entries that name a version
        agree on, else the most common (the first seen on a tie); None if no entry names one."""
        counts = Counter(e.openmp_version for e in self.entries if e.openmp_version is not None)
        if not counts:
            return None
        return counts.most_common(1)[0][0]


def _key(path: str) -> str:
    return os.path.normcase(os.path.normpath(os.path.abspath(path)))


# ------------------------------------------------------------------ finding the database

def find_compile_commands(start: str) -> str | None:
    """The nearest compile_commands.json for `start` (a directory, or a file meaning its directory):
    in the directory, then its build/ subfolder, then the same in each parent directory, up to the
    filesystem root or MAX_PARENT_LEVELS levels up. None when there is none."""
    for directory in folders_upwards(start, MAX_PARENT_LEVELS + 1):
        for candidate in (os.path.join(directory, FILE_NAME), os.path.join(directory, "build", FILE_NAME)):
            if os.path.isfile(candidate):
                return candidate
    return None


def folders_upwards(start: str, levels: int) -> Iterator[str]:
    """`start` (a folder, or a file's folder) and its parents, nearest first, at most `levels`
    folders, stopping at the filesystem root."""
    folder = os.path.abspath(start)
    if not os.path.isdir(folder):
        folder = os.path.dirname(folder)
    for _ in range(levels):
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


# ------------------------------------------------------------------ loading

def load_compile_commands(path: str) -> CompileDatabase:
    """Read and parse a compile_commands.json. Entries for files that are not C, C++ or Fortran
    sources (by extension) are skipped. Raises CompileCommandsError with a one-line message."""
    import json  # only projects with a database pay for it

    try:
        data = read_regular_file(path, MAX_DATABASE_BYTES)
    except OSError as err:
        raise CompileCommandsError(f"{path}: cannot read: {err.strerror or err}") from None
    if len(data) > MAX_DATABASE_BYTES:
        raise CompileCommandsError(f"{path}: cannot read: larger than {MAX_DATABASE_BYTES // 1_000_000} MB")
    try:
        raw = json.loads(data)
    except json.JSONDecodeError as err:
        raise CompileCommandsError(
            f"{path}: invalid JSON at line {err.lineno} column {err.colno}: {err.msg}") from None
    except UnicodeDecodeError:
        raise CompileCommandsError(f"{path}: invalid JSON: not UTF-8, UTF-16 or UTF-32 text") from None
    except RecursionError:
        raise CompileCommandsError(f"{path}: invalid JSON: nested too deeply") from None
    if not isinstance(raw, list):
        raise CompileCommandsError(
            f"{path}: expected a JSON list of compile commands, found {_json_type(raw)}")
    base = os.path.dirname(os.path.abspath(path))
    entries = (_entry(path, base, number, item) for number, item in enumerate(raw, 1))
    return CompileDatabase(path, tuple(e for e in entries if e is not None))


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _entry(path: str, base: str, number: int, item: Any) -> CompileEntry | None:
    """One database entry as a record; None for a file that is not a source file."""
    def fail(what: str) -> CompileCommandsError:
        return CompileCommandsError(f"{path}: entry {number}: {what}")

    if not isinstance(item, dict):
        raise fail(f"expected an object, found {_json_type(item)}")
    directory, file = item.get("directory"), item.get("file")
    if not isinstance(directory, str) or not directory:
        raise fail('missing "directory"' if directory is None else '"directory" is not a non-empty string')
    if not isinstance(file, str) or not file:
        raise fail('missing "file"' if file is None else '"file" is not a non-empty string')
    # A relative directory is taken relative to the database's own folder (as clang does).
    directory = os.path.normpath(os.path.join(base, directory))
    file = os.path.normpath(os.path.join(directory, file))
    if language_for_path(file) is None:
        return None
    arguments = _arguments(item, fail)
    flags = arguments[1:]  # arguments[0] is the compiler
    return CompileEntry(
        file=file,
        directory=directory,
        arguments=arguments,
        include_dirs=include_dirs(flags, directory),
        openmp_version=openmp_version(flags),
        openmp=openmp_enabled(flags),
        defines=defines(flags),
    )


def _arguments(item: dict[str, Any], fail: Any) -> tuple[str, ...]:
    arguments = item.get("arguments")
    if arguments is not None:
        if not isinstance(arguments, list) or not all(isinstance(a, str) for a in arguments):
            raise fail('"arguments" is not a list of strings')
        return tuple(arguments)
    command = item.get("command")
    if command is None:
        raise fail('has neither "arguments" nor "command"')
    if not isinstance(command, str):
        raise fail('"command" is not a string')
    import shlex  # split like a POSIX shell would, without running one

    try:
        return tuple(shlex.split(command))
    except ValueError as err:
        raise fail(f'cannot split "command": {err}') from None


# ------------------------------------------------------------------ reading flags

def option_values(flags: Sequence[str], names: Sequence[str],
                   long_names: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """(option, value) pairs for options written `-Xvalue`, `-X value` or `--long=value`/`--long value`
    (long ones reported under their short name), in command-line order."""
    found: list[tuple[str, str]] = []
    i = 0
    while i < len(flags):
        flag = flags[i]
        i += 1
        for long_name, short in (long_names or {}).items():
            if flag == long_name and i < len(flags):
                found.append((short, flags[i]))
                i += 1
                break
            if flag.startswith(long_name + "="):
                found.append((short, flag[len(long_name) + 1:]))
                break
        else:
            for name in names:
                if flag == name:
                    if i < len(flags):
                        found.append((name, flags[i]))
                        i += 1
                    break
                if flag.startswith(name):
                    found.append((name, flag[len(name):]))
                    break
    return found


def include_dirs(flags: Sequence[str], directory: str, options: Sequence[str] = _INCLUDE_OPTIONS) -> tuple[str, ...]:
    """Absolute include directories (of those `options`), in `#include "..."` search order, each
    once. `-I-` (an old gcc separator, not a directory) is ignored; relative ones are taken
    relative to `directory`."""
    by_option: dict[str, list[str]] = {name: [] for name in options}
    for option, value in option_values(flags, options, {k: v for k, v in _INCLUDE_LONG.items() if v in options}):
        if value and value != "-":
            by_option[option].append(os.path.normpath(os.path.join(directory, value)))
    ordered = (d for name in options for d in by_option[name])
    return tuple(dict.fromkeys(ordered))


def openmp_version(flags: Sequence[str]) -> int | None:
    """The version from the last `-fopenmp-version=` (51, 5.1, 52 ...); None if absent or not a
    version omp-lsp knows (the compiler would reject it too)."""
    value = None
    for flag in flags:
        if flag.startswith(_VERSION_FLAG):
            value = flag[len(_VERSION_FLAG):]
    if value is None:
        return None
    try:
        return parse_version(value)
    except (ValueError, OverflowError):  # 'abc', 'nan', 'inf', '4.0'
        return None


def _last_openmp_flag(flags: Sequence[str]) -> bool | None:
    """Whether the command's last OpenMP on/off flag turns OpenMP on (None: it has none)."""
    last = None
    for flag in flags:
        if flag in _OPENMP_OFF:
            last = False
        elif flag in _OPENMP_ON or flag.startswith(_OPENMP_ON_PREFIXES):
            last = True
    return last


def openmp_enabled(flags: Sequence[str]) -> bool:
    """Whether the command compiles with OpenMP: the last OpenMP on/off flag decides."""
    return _last_openmp_flag(flags) is True


def openmp_disabled(flags: Sequence[str]) -> bool:
    """Whether the command turns OpenMP off explicitly (its last OpenMP flag is an off flag).
    A command that names no OpenMP flag may pass one in a way the database does not show (a
    response file, a wrapper), so only an explicit off counts."""
    return _last_openmp_flag(flags) is False


def defines(flags: Sequence[str]) -> tuple[str, ...]:
    """Names of the macros defined with -D (`-DNAME`, `-D NAME`, `-DNAME=value`), without the
    ones a later -U undefines, each once, in order."""
    names: dict[str, None] = {}
    for option, value in option_values(flags, ("-D", "-U"), {"--define-macro": "-D", "--undefine-macro": "-U"}):
        name = value.split("=", 1)[0].split("(", 1)[0].strip()
        if not name:
            continue
        if option == "-D":
            names.setdefault(name, None)
        else:
            names.pop(name, None)
    return tuple(names)


def build_flags(flags: Sequence[str], directory: str) -> tuple[str, ...]:
    """What a command's flags say about what the source means, for building it with another
    plan (codegen): the include folders (each option kept, relative ones made absolute), the
    macros defined and undefined with their values, in order, forced includes and the language
    standard. Not what the plan decides itself (OpenMP, offloading, output, optimisation)."""
    out: list[str] = []
    for option, value in option_values(flags, (*_INCLUDE_OPTIONS, "-include", "-D", "-U"),
                                        {**_INCLUDE_LONG, "--define-macro": "-D", "--undefine-macro": "-U"}):
        if option in ("-D", "-U"):
            out.append(option + value)
        elif value and value != "-":
            out.extend((option, os.path.normpath(os.path.join(directory, value))))
    standards = [f for f in flags if f.startswith("-std=")]
    return (*out, *standards[-1:])


# ------------------------------------------------------------------ includes

def resolve_include(header: str, including_file: str, entry: CompileEntry | None) -> str | None:
    """The file `#include "header"` in `including_file` names: looked up in the including file's
    directory, then in the entry's include directories. An existing absolute path, or None.
    Only stats files; reads nothing."""
    if not header or "\0" in header:
        return None
    if os.path.isabs(header):
        return os.path.normpath(header) if _is_file(header) else None
    directories = [os.path.dirname(os.path.abspath(including_file))]
    if entry is not None:
        directories.extend(entry.include_dirs)
    for directory in directories:
        candidate = os.path.normpath(os.path.join(directory, header))
        if _is_file(candidate):
            return candidate
    return None


def _is_file(path: str) -> bool:
    try:
        return os.path.isfile(path)
    except (OSError, ValueError):
        return False


__all__ = [
    "CompileCommandsError",
    "CompileDatabase",
    "CompileEntry",
    "defines",
    "find_compile_commands",
    "folders_upwards",
    "include_dirs",
    "load_compile_commands",
    "openmp_enabled",
    "openmp_version",
    "resolve_include",
]
