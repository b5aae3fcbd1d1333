"""The macros compilers define before the first line: by language, standard, OpenMP version and
toolchain (clang 22, gcc 12, flang 22; x86_64 Linux, as on the machines omp-lsp targets).

Only macros that code tests in `#if` are listed: the language and its standard, OpenMP, the
compiler's identity, the target's word sizes and the operating system. Checked against
`clang-22 -dM -E`, `gcc-12 -dM -E` and `flang-22 -cpp -dM -E` on x86_64 Debian.
"""
from __future__ import annotations

from .macros import Macro

# The `_OPENMP` value (yyyymm) of each OpenMP version the options accept.
OPENMP_MACRO = {45: 201511, 50: 201811, 51: 202011, 52: 202111, 60: 202411}

TOOLCHAINS = ("clang", "gcc", "flang")

_TARGET = {
    "__linux__": "1", "__linux": "1", "__gnu_linux__": "1", "__unix__": "1", "__unix": "1", "__ELF__": "1",
    "__x86_64__": "1", "__x86_64": "1", "__amd64__": "1", "__amd64": "1", "__LP64__": "1", "_LP64": "1",
    "__CHAR_BIT__": "8", "__SIZEOF_SHORT__": "2", "__SIZEOF_INT__": "4", "__SIZEOF_LONG__": "8",
    "__SIZEOF_LONG_LONG__": "8", "__SIZEOF_POINTER__": "8", "__SIZEOF_SIZE_T__": "8", "__SIZEOF_FLOAT__": "4",
    "__SIZEOF_DOUBLE__": "8", "__SIZEOF_LONG_DOUBLE__": "16", "__SIZEOF_WCHAR_T__": "4",
    "__SCHAR_MAX__": "127", "__SHRT_MAX__": "32767", "__INT_MAX__": "2147483647",
    "__LONG_MAX__": "9223372036854775807L", "__LONG_LONG_MAX__": "9223372036854775807LL",
    "__ORDER_LITTLE_ENDIAN__": "1234", "__ORDER_BIG_ENDIAN__": "4321", "__ORDER_PDP_ENDIAN__": "3412",
    "__BYTE_ORDER__": "__ORDER_LITTLE_ENDIAN__", "__SSE__": "1", "__SSE2__": "1", "__SSE_MATH__": "1",
    "__SSE2_MATH__": "1", "__MMX__": "1", "__STDC_HOSTED__": "1",
}
_CLANG = {"__clang__": "1", "__clang_major__": "22", "__clang_minor__": "1", "__clang_patchlevel__": "8",
          "__llvm__": "1", "__GNUC__": "4", "__GNUC_MINOR__": "2", "__GNUC_PATCHLEVEL__": "1",
          "__GNUC_STDC_INLINE__": "1"}
_GCC = {"__GNUC__": "12", "__GNUC_MINOR__": "2", "__GNUC_PATCHLEVEL__": "0", "__GNUC_STDC_INLINE__": "1"}
_FLANG = {"__flang__": "1", "__flang_major__": "22", "__flang_minor__": "1", "__flang_patchlevel__": "8"}
_GFORTRAN = {"__GFORTRAN__": "1", "__GNUC__": "12", "__GNUC_MINOR__": "2", "__GNUC_PATCHLEVEL__": "0"}

# `-std=` values and the standard macro's value; the compilers' defaults are C17 and C++17.
_C_STANDARDS = {"c89": None, "c90": None, "gnu89": None, "gnu90": None, "iso9899:1990": None,
                "iso9899:199409": "199409L", "c99": "199901L", "gnu99": "199901L", "iso9899:1999": "199901L",
                "c11": "201112L", "gnu11": "201112L", "iso9899:2011": "201112L", "c17": "201710L",
                "gnu17": "201710L", "c18": "201710L", "gnu18": "201710L", "iso9899:2017": "201710L",
                "c2x": "202000L", "gnu2x": "202000L", "c23": "202311L", "gnu23": "202311L"}
_CPP_STANDARDS = {"c++98": "199711L", "c++03": "199711L", "gnu++98": "199711L", "gnu++03": "199711L",
                  "c++11": "201103L", "gnu++11": "201103L", "c++0x": "201103L", "gnu++0x": "201103L",
                  "c++14": "201402L", "gnu++14": "201402L", "c++1y": "201402L", "gnu++1y": "201402L",
                  "c++17": "201703L", "gnu++17": "201703L", "c++1z": "201703L", "gnu++1z": "201703L",
                  "c++20": "202002L", "gnu++20": "202002L", "c++2a": "202002L", "gnu++2a": "202002L",
                  "c++23": "202302L", "gnu++23": "202302L", "c++2b": "202302L", "gnu++2b": "202302L",
                  "c++26": "202400L", "gnu++26": "202400L", "c++2c": "202400L", "gnu++2c": "202400L"}

# Built-in operators that `#ifdef` sees as defined (clang and gcc define them as macros).
BUILTIN_OPERATORS = frozenset({"__has_include", "__has_include_next", "__has_attribute", "__has_cpp_attribute",
                               "__has_c_attribute", "__has_builtin", "__has_feature", "__has_extension",
                               "__has_warning", "__is_identifier", "__has_declspec_attribute"})

_cache: dict[tuple[str, int | None, str, str], dict[str, Macro]] = {}


def predefined(language: str, openmp_version: int | None, toolchain: str = "", standard: str = "") -> dict[str, Macro]:
    """The macros defined before the first line (a new dict: the caller may change it).
    `language`: "c", "cpp" or "fortran"; `openmp_version`: None compiles without OpenMP;
    `toolchain`: "clang", "gcc" or "flang" ("" : the reference compiler of the language)."""
    key = (language, openmp_version, toolchain, standard)
    found = _cache.get(key)
    if found is None:
        found = _cache[key] = {name: Macro(name, None, False, body, "predefined")
                               for name, body in _table(*key).items()}
    return dict(found)


def _table(language: str, openmp_version: int | None, toolchain: str, standard: str) -> dict[str, str]:
    fortran = language == "fortran"
    table = {k: v for k, v in _TARGET.items() if not fortran or k in ("__linux__", "__x86_64__", "__x86_64")}
    if fortran:
        table.update(_GFORTRAN if toolchain == "gcc" else _FLANG)
    else:
        table.update(_GCC if toolchain == "gcc" else _CLANG)
        table["__STDC__"] = "1"
        if language == "cpp":
            table["__cplusplus"] = _CPP_STANDARDS.get(standard, "201703L")
            table["__GNUG__"] = table["__GNUC__"]
            table["__GXX_RTTI"] = "1"
            table["__EXCEPTIONS"] = "1"
            table["__cpp_exceptions"] = "199711L"
            table["__cpp_rtti"] = "199711L"
        else:
            value = _C_STANDARDS.get(standard, "201710L")
            if value is not None:
                table["__STDC_VERSION__"] = value
    if openmp_version is not None:
        table["_OPENMP"] = str(OPENMP_MACRO.get(openmp_version, OPENMP_MACRO[51]))
    return table


def toolchain_of(compiler: str) -> str:
    """The toolchain a compile command's compiler is: "clang", "gcc", "flang" or "" (unknown)."""
    name = compiler.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if "flang" in name:
        return "flang"
    if "clang" in name or name.startswith(("icx", "icpx", "amdclang", "ifx")):
        return "clang"
    if name.startswith(("gcc", "g++", "gfortran", "cc", "c++", "x86_64-linux-gnu-g")):
        return "gcc"
    return ""


__all__ = ["BUILTIN_OPERATORS", "OPENMP_MACRO", "TOOLCHAINS", "predefined", "toolchain_of"]
