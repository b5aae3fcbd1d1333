"""A compile command's flags as the preprocessor sees them: the `Environment` of a file."""
from __future__ import annotations

import os
from collections.abc import Sequence

from ..syntax.compile_commands import CompileEntry, openmp_disabled, option_values
from ..syntax.document import Language
from .configuration import Environment
from .predefined import toolchain_of

_MACRO_OPTIONS = {"--define-macro": "-D", "--undefine-macro": "-U", "--include-directory": "-I"}
_LANGUAGES = {"c": Language.C, "c-header": Language.C, "c++": Language.CPP, "c++-header": Language.CPP,
              "f95": Language.FORTRAN, "f95-cpp-input": Language.FORTRAN, "f77": Language.FORTRAN_FIXED,
              "f77-cpp-input": Language.FORTRAN_FIXED}


def command_environment(arguments: Sequence[str], directory: str) -> Environment:
    """The environment a command line gives: -D/-U in order, -include, -iquote and -I folders
    (relative ones taken from `directory`), the toolchain by the compiler's name, -std."""
    flags = arguments[1:]
    definitions: list[tuple[str, str]] = []
    forced: list[str] = []
    quote: list[str] = []
    dirs: list[str] = []
    for option, value in option_values(flags, ("-D", "-U", "-include", "-iquote", "-I"), _MACRO_OPTIONS):
        if option in ("-D", "-U"):
            if value:
                definitions.append((option[1], value))
        elif value and value != "-":
            where = os.path.normpath(os.path.join(directory, value))
            (forced if option == "-include" else quote if option == "-iquote" else dirs).append(where)
    standards = [f[5:] for f in flags if f.startswith("-std=")]
    return Environment(tuple(definitions), tuple(forced), tuple(quote), tuple(dirs),
                       toolchain_of(arguments[0]) if arguments else "", standards[-1] if standards else "",
                       not openmp_disabled(flags))


def entry_environment(entry: CompileEntry) -> Environment:
    return command_environment(entry.arguments, entry.directory)


def command_language(arguments: Sequence[str]) -> Language | None:
    """The language `-x` makes the command compile its file as (the last one), else None."""
    found = None
    for _option, value in option_values(arguments[1:], ("-x",)):
        found = _LANGUAGES.get(value, found)
    return found


def extended(base: Environment, definitions: Sequence[tuple[str, str]] = (),
             dirs: Sequence[str] = ()) -> Environment:
    """`base` with more -D/-U (after its own: they win) and -I folders (searched after its own)."""
    if not definitions and not dirs:
        return base
    return Environment((*base.definitions, *definitions), base.forced, base.quote_dirs,
                       (*base.dirs, *(d for d in dirs if d not in base.dirs)), base.toolchain, base.standard,
                       base.openmp)


__all__ = ["command_environment", "command_language", "entry_environment", "extended"]
