"""Context-selector traits as data: trait sets, their selectors and properties, per OpenMP version.

A context selector (`match(...)` of declare variant) is `set={selector(props), ...}`. The
tables below say, for OpenMP 5.0 to 6.0 (5.0 2.3.2, 5.1 2.3.2, 5.2 7.2, 6.0 9.2), which
sets exist, which selectors each set holds, what properties each selector takes and which
sets accept a `score`. `KNOWN_ISAS`/`KNOWN_ARCHS` are the `isa`/`arch` names the toolchains
omp-lsp knows accept (clang/LLVM 22, gcc); those properties are implementation defined.
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..syntax.records import dataclass
from .schema import Lang, Version
from .tables import DECLARE_SIMD, REQUIRES

# What a selector's properties are (5.2 calls these name-list, clause-list, non-property traits):
#   names    identifiers or strings, the same value either way      kind(gpu), arch("nvptx")
#   clauses  OpenMP clauses                                          simd(simdlen(8)), requires(...)
#   expr     one expression                                          condition(n > 1), device_num(0)
#   none     no properties                                           target, unified_address
PropertyKind = str
NAMES, CLAUSES, EXPR, NONE = "names", "clauses", "expr", "none"


@dataclass(frozen=True)
class SelectorSpec:
    name: str
    properties: PropertyKind
    since: Version = 50
    lang: Lang = "all"                       # the construct selector named after a loop construct
    values: frozenset[str] = frozenset()     # the properties it accepts; empty: any (implementation defined)
    unique: frozenset[str] = frozenset()     # clause properties that may appear only once


@dataclass(frozen=True)
class SetSpec:
    name: str
    since: Version
    selectors: tuple[SelectorSpec, ...]
    score: bool            # selectors of the set may have a score
    extensions: bool       # implementations may define further selectors in the set


# The `kind` values of the OpenMP Additional Definitions document.
KIND_VALUES = frozenset({"host", "nohost", "any", "cpu", "gpu", "fpga"})
# The `vendor` values of the Additional Definitions document (gcc also knows hpe).
VENDORS = frozenset({"amd", "arm", "bsc", "cray", "fujitsu", "gnu", "hpe", "ibm", "intel", "llvm", "nec",
                     "nvidia", "pgi", "ti", "unknown"})
MEMORY_ORDERS = frozenset({"seq_cst", "acq_rel", "acquire", "release", "relaxed"})
# Properties of the simd selector: the clauses of declare simd, with the same restrictions.
SIMD_CLAUSES = frozenset(DECLARE_SIMD)
SIMD_UNIQUE = frozenset({"simdlen", "inbranch", "notinbranch"})
# Properties of the requires selector (5.2): the clauses of the requires directive.
REQUIRES_CLAUSES = frozenset(REQUIRES)

# The interop operation of append_args (OMP317): `interop(interop-type[, interop-type]...)` with
# the types below (5.1 2.3.5, 5.2 7.5.3); 6.0 gives it the modifiers of the init clause, so
# `prefer_type(...)` is allowed there from 6.0 on (clang 22 does not read it in any version).
INTEROP_TYPES = frozenset({"target", "targetsync"})
INTEROP_PREFER_TYPE = "prefer_type"
INTEROP_PREFER_TYPE_SINCE: Version = 60

# The clauses of requires that are also selectors of the implementation set by themselves.
_REQUIREMENT_SELECTORS = (
    SelectorSpec("unified_address", NONE),
    SelectorSpec("unified_shared_memory", NONE),
    SelectorSpec("reverse_offload", NONE),
    SelectorSpec("dynamic_allocators", NONE),
    SelectorSpec("self_maps", NONE, since=60),
    SelectorSpec("atomic_default_mem_order", NAMES, values=MEMORY_ORDERS),
)

_DEVICE_SELECTORS = (
    SelectorSpec("kind", NAMES, values=KIND_VALUES),
    SelectorSpec("isa", NAMES),
    SelectorSpec("arch", NAMES),
)

TRAIT_SETS: tuple[SetSpec, ...] = (
    SetSpec("construct", 50, (
        SelectorSpec("target", NONE),
        SelectorSpec("teams", NONE),
        SelectorSpec("parallel", NONE),
        SelectorSpec("for", NONE, lang="c"),
        SelectorSpec("do", NONE, lang="fortran"),
        SelectorSpec("simd", CLAUSES, values=SIMD_CLAUSES, unique=SIMD_UNIQUE),
        SelectorSpec("dispatch", NONE, since=51),
    ), score=False, extensions=False),
    SetSpec("device", 50, _DEVICE_SELECTORS, score=False, extensions=True),
    SetSpec("target_device", 51, (
        *_DEVICE_SELECTORS,
        SelectorSpec("device_num", EXPR),
        SelectorSpec("uid", NAMES, since=60),
    ), score=False, extensions=True),
    SetSpec("implementation", 50, (
        SelectorSpec("vendor", NAMES, values=VENDORS),
        SelectorSpec("extension", NAMES),
        SelectorSpec("requires", CLAUSES, since=52, values=REQUIRES_CLAUSES, unique=REQUIRES_CLAUSES),
        *_REQUIREMENT_SELECTORS,
    ), score=True, extensions=True),
    SetSpec("user", 50, (
        SelectorSpec("condition", EXPR),
    ), score=True, extensions=False),
)

# The set a selector is moved to when it stands in a wrong set and belongs to several.
PREFERRED_HOME = ("construct", "device", "implementation", "user", "target_device")

SETS_BY_NAME: dict[str, SetSpec] = {s.name: s for s in TRAIT_SETS}


def _fits(spec: SelectorSpec | SetSpec, version: Version, fortran: bool | None = None) -> bool:
    if spec.since > max(version, 50):
        return False
    lang = getattr(spec, "lang", "all")
    return fortran is None or lang == "all" or (lang == "fortran") == fortran


def trait_set(name: str, version: Version) -> SetSpec | None:
    """The trait set `name` as it is in `version` (None: unknown there)."""
    spec = SETS_BY_NAME.get(name)
    return spec if spec is not None and _fits(spec, version) else None


def set_names(version: Version) -> list[str]:
    return [s.name for s in TRAIT_SETS if _fits(s, version)]


def selector_of(set_spec: SetSpec, name: str, version: Version, fortran: bool) -> SelectorSpec | None:
    """The selector `name` of the set, when the set holds it in `version` and this language."""
    for sel in set_spec.selectors:
        if sel.name == name and _fits(sel, version, fortran):
            return sel
    return None


def selector_names(set_spec: SetSpec, version: Version, fortran: bool) -> list[str]:
    return [s.name for s in set_spec.selectors if _fits(s, version, fortran)]


def homes(name: str, version: Version, fortran: bool | None) -> list[tuple[SetSpec, SelectorSpec]]:
    """Every set (in `version`, preferred first) that holds a selector `name`, with that selector.
    `fortran` None: in any language."""
    found = []
    for set_name in PREFERRED_HOME:
        set_spec = SETS_BY_NAME[set_name]
        if not _fits(set_spec, version):
            continue
        for sel in set_spec.selectors:
            if sel.name == name and _fits(sel, version, fortran):
                found.append((set_spec, sel))
                break
    return found


def first_version(name: str, fortran: bool) -> tuple[Version, str] | None:
    """The first version that knows the selector `name` in this language, and its set."""
    best: tuple[Version, str] | None = None
    for set_spec in TRAIT_SETS:
        for sel in set_spec.selectors:
            if sel.name == name and _fits(sel, 60, fortran):
                since = max(sel.since, set_spec.since)
                if best is None or since < best[0]:
                    best = (since, set_spec.name)
    return best


def all_selector_names() -> frozenset[str]:
    return frozenset(sel.name for s in TRAIT_SETS for sel in s.selectors)


# ---------------------------------------------------------------- isa and arch (OMP362)

# Target architectures: LLVM's (OMPKinds.def, target triple names) and gcc's (i386 ..., gcn).
KNOWN_ARCHS = frozenset({
    "arm", "armeb", "aarch64", "aarch64_be", "aarch64_32", "ppc", "ppcle", "ppc64", "ppc64le",
    "x86", "x86_64", "i386", "i486", "i586", "i686", "ia32", "intel_mic", "amdgcn", "gcn", "r600",
    "nvptx", "nvptx64", "spirv", "spirv32", "spirv64", "riscv32", "riscv64", "loongarch64",
    "s390x", "systemz", "mips", "mips64", "mipsel", "mips64el", "sparc", "sparcv9", "wasm32", "wasm64",
    "hexagon", "ve",
    "powerpc", "powerpc64", "powerpc64le",  # gcc's Power names (rs6000)
})

# Instruction-set extensions the toolchains match with `isa`: x86, AArch64 and Power target
# features (clang's `-mattr` names, which gcc's target attributes share), PTX and AMDGPU features.
KNOWN_ISAS = frozenset({
    # x86
    "mmx", "sse", "sse2", "sse3", "ssse3", "sse4", "sse4.1", "sse4.2", "sse4_1", "sse4_2", "sse4a", "avx", "avx2",
    "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512vnni", "avx512bf16", "avx512fp16",
    "avx512ifma", "avx512vbmi", "avx512vbmi2", "avx512bitalg", "avx512vpopcntdq", "avx512vp2intersect",
    "avx512er", "avx512pf", "avx5124fmaps", "avx5124vnniw", "avx10.1", "avx10.1-256", "avx10.1-512", "avx10.2",
    "avx10.2-256", "avx10.2-512", "avxvnni", "avxifma", "avxneconvert", "avxvnniint8", "avxvnniint16",
    "amx-tile", "amx-int8", "amx-bf16", "amx-fp16", "amx-complex", "amx-fp8", "amx-tf32", "amx-avx512",
    "amx-movrs", "fma", "fma4", "f16c", "bmi", "bmi2", "popcnt", "lzcnt", "movbe", "aes", "vaes", "pclmul",
    "vpclmulqdq", "gfni", "sha", "sha512", "sm3", "sm4", "adx", "rdrnd", "rdseed", "cx8", "cx16", "xsave",
    "xsaveopt", "xsavec", "xsaves", "fxsr", "x87", "cmov", "xop", "tbm", "lwp", "rtm", "sgx", "prfchw",
    "clflushopt", "clwb", "movdiri", "movdir64b", "serialize", "waitpkg", "enqcmd", "uintr", "kl", "widekl",
    "hreset", "cmpccxadd", "raoint", "prefetchi", "apxf", "egpr", "ndd", "ccmp", "crc32", "64bit",
    "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4",
    # AArch64 and Arm
    "neon", "simd", "fp", "fp-armv8", "fp16", "fullfp16", "fp16fml", "bf16", "i8mm", "dotprod", "crc",
    "crypto", "sha2", "sha3", "lse", "lse2", "rcpc", "rcpc3", "rdm", "sve", "sve2", "sve2p1", "sve2-aes",
    "sve2-bitperm", "sve2-sha3", "sve2-sm4", "sme", "sme2", "sme2p1", "f32mm", "f64mm", "mte", "bti",
    "pauth", "ls64", "mops", "jsconv", "complxnum", "fp8", "lut", "faminmax", "ras", "rand", "sb",
    "v8a", "v8.1a", "v8.2a", "v8.3a", "v8.4a", "v8.5a", "v8.6a", "v8.7a", "v8.8a", "v8.9a", "v9a", "v9.1a",
    "v9.2a", "v9.3a", "v9.4a", "v9.5a", "v9.6a", "armv8-a", "armv9-a", "thumb", "vfp", "vfp2", "vfp3", "vfp4",
    "mve",
    # Power
    "altivec", "vsx", "popcntb", "popcntd", "cmpb", "fprnd", "mfcrf",
    "power8-vector", "power9-vector", "power10-vector", "power8-altivec", "power9-altivec",
    "htm", "mma", "float128", "direct-move", "isa-v206-instructions", "isa-v207-instructions",
    "isa-v30-instructions", "isa-v31-instructions", "paired-vector-memops", "prefix-instrs", "pcrelative-memops",
    # AMDGPU features (the processors gfxNNN are matched by pattern below)
    "xnack", "sramecc", "wavefrontsize16", "wavefrontsize32", "wavefrontsize64", "cumode", "tgsplit",
    "mai-insts", "dot1-insts", "dot2-insts", "dot3-insts", "dot4-insts", "dot5-insts", "dot6-insts",
    "dot7-insts", "dot8-insts", "dot9-insts", "dot10-insts", "dot11-insts", "packed-fp32-ops",
    "gfx9-insts", "gfx10-insts", "gfx11-insts", "gfx12-insts", "gfx90a-insts", "gfx940-insts",
    "gfx950-insts", "16-bit-insts", "fp64",
})

# Names the toolchains accept by pattern: NVIDIA GPU architectures and PTX versions, AMD GPU
# processors (gfx90a, gfx1100, gfx9-generic), x86 AVX-512 and AVX10 families.
_NAME_PATTERNS = re.compile(r"sm_\d+[a-z]?|compute_\d+[a-z]?|ptx\d+|gfx\d+[0-9a-f]*(?:-\d+)?(?:-generic)?"
                            r"|gfx\d+(?:-\d+)?-generic|avx10\.\d+(?:-\d+)?")


@lru_cache(maxsize=512)
def known_isa(name: str) -> bool:
    """Whether some configured toolchain accepts `name` as an `isa` property."""
    key = name.lower()
    return key in KNOWN_ISAS or key in KNOWN_ARCHS or _NAME_PATTERNS.fullmatch(key) is not None


@lru_cache(maxsize=512)
def known_arch(name: str) -> bool:
    """Whether some configured toolchain accepts `name` as an `arch` property (GPU architecture
    names such as sm_80 and gfx90a are accepted too: gcc matches them as isa, users write them as arch)."""
    key = name.lower()
    return key in KNOWN_ARCHS or _NAME_PATTERNS.fullmatch(key) is not None
