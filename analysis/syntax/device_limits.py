"""What device toolchains cannot compile, for OMP407 and OMP505: tables, checked on these machines.

Each toolchain name is what a user selects (`--device-toolchain`, the `deviceToolchains`
setting). A feature listed for a toolchain makes device code that uses it fail to build:
- gcc-nvptx (GCC 12, `-foffload=nvptx-none`): a variadic device function is an internal
  compiler error in `lower_vaarg`; a recursive one fails at -O0 with "alias definitions not
  supported in this configuration" (optimisation may remove the recursion, so it is a warning).
- clang-x86_64 (clang 22, `-fopenmp-targets=x86_64-unknown-linux-gnu`): the host-offload
  device compiles both.
A call to a procedure whose body no file of the program holds fails every device link
(checked with both toolchains: "unresolved symbol" / "undefined reference").
"""
from __future__ import annotations

from typing import NamedTuple

RECURSION = "recursion"
VARIADIC = "variadic"

UNSUPPORTED: dict[str, frozenset[str]] = {
    "gcc-nvptx": frozenset({RECURSION, VARIADIC}),
    "clang-x86_64": frozenset(),
}

WHY = {
    RECURSION: "recursive device functions",
    VARIADIC: "variadic device functions",
}

# Routines the device runtimes and device C/Fortran libraries provide: a call without a body
# in the program is fine for these. Names as written in C (Fortran: lower case).
DEVICE_LIBRARY_PREFIXES = ("omp_", "__builtin_", "__kmpc_", "ompx_")
_LIBRARY_WORDS = """
printf fprintf puts putchar abort exit assert __assert_fail malloc calloc realloc free memcpy memset memmove
memcmp strlen strcmp strncmp strcpy strncpy
sqrt sqrtf cbrt cbrtf exp expf exp2 exp2f expm1 expm1f log logf log2 log2f log10 log10f log1p log1pf
pow powf sin sinf cos cosf tan tanf asin asinf acos acosf atan atanf atan2 atan2f sinh sinhf cosh coshf
tanh tanhf asinh acosh atanh fabs fabsf fmin fminf fmax fmaxf fmod fmodf floor floorf ceil ceilf round
roundf trunc truncf erf erff erfc erfcf tgamma lgamma hypot hypotf copysign ldexp frexp modf abs labs llabs
isnan isinf isfinite fma fmaf rsqrt rsqrtf sincos sincosf
"""
DEVICE_LIBRARY = frozenset(_LIBRARY_WORDS.split())


# OMP505: directives (with a clause, and a clause modifier, when named) the spec allows but a
# toolchain rejects, as its compiler says (clang 22: "unexpected OpenMP clause 'reverse_offload'",
# and for device(ancestor: 1) "... used without specifying 'requires reverse_offload'" and, nested
# in a target region, "region cannot be nested inside 'target' region"; gcc 12: "sorry,
# unimplemented: 'reverse_offload' clause", "'ancestor' device modifier not preceded by
# 'requires' directive with 'reverse_offload' clause", "expected '#pragma omp' clause before
# 'indirect'", and `begin declare target` ignored, so that its end directive has no beginning).
class Rejected(NamedTuple):
    directive: str
    clause: str | None
    modifier: str | None
    what: str


_REVERSE_OFFLOAD = (Rejected("requires", "reverse_offload", None, "the reverse_offload requirement"),
                    Rejected("target", "device", "ancestor", "reverse offload (device(ancestor: ...))"))
REJECTED: dict[str, tuple[Rejected, ...]] = {
    "clang-x86_64": _REVERSE_OFFLOAD,
    "gcc-nvptx": (*_REVERSE_OFFLOAD,
                  Rejected("begin declare target", None, None, "begin declare target (use declare target ... end declare target)"),
                  Rejected("begin declare target", "indirect", None, "the indirect clause"),
                  Rejected("declare target", "indirect", None, "the indirect clause")),
}


def unsupported(toolchains: tuple[str, ...]) -> dict[str, list[str]]:
    """feature -> the selected toolchains that cannot compile it."""
    out: dict[str, list[str]] = {}
    for name in toolchains:
        for feature in UNSUPPORTED.get(name, ()):
            out.setdefault(feature, []).append(name)
    return out


def library_routine(name: str) -> bool:
    base = name.rsplit("::", 1)[-1]
    return base in DEVICE_LIBRARY or base.lower() in DEVICE_LIBRARY or base.startswith(DEVICE_LIBRARY_PREFIXES)
