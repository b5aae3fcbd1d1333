"""Context-selector rules (OMP351-OMP362) beyond what the fixtures show: the exact text of
the quick fixes (moving a selector, merging a repeated set, removing a score), every row of the
trait tables reachable in its version and language, version gating, the severities of
unknown selectors, and real-world selectors that must stay clean."""
from __future__ import annotations

import pytest
from omp_lsp.analysis import Document, Language, Options, Severity, analyze
from omp_lsp.analysis.directives import traits
from omp_lsp.analysis.syntax.diagnostics import Finding, Fix

C, CPP, F, FIXED = Language.C, Language.CPP, Language.FORTRAN, Language.FORTRAN_FIXED
CODES = frozenset(f"OMP{n}" for n in range(351, 363))
SYNTAX = frozenset({"OMP001", "OMP002", "OMP003", "OMP004", "OMP005"})


def _source(selector: str, lang: Language) -> str:
    if lang is F:
        return ("subroutine v()\nend subroutine\nsubroutine f()\n"
                f"  !$omp declare variant(v) match({selector})\nend subroutine\n")
    return f"void v(void);\n#pragma omp declare variant(v) match({selector})\nvoid f(void);\n"


def _analyze(source: str | bytes, lang: Language, version: int) -> list[Finding]:
    result = analyze(Document(source, lang), Options(openmp_version=version))
    assert not result.internal_errors, result.internal_errors
    return [f for f in result.findings if f.code in CODES or f.code in SYNTAX]


def check(selector: str, lang: Language = C, version: int = 51) -> list[Finding]:
    return _analyze(_source(selector, lang), lang, version)


def codes(selector: str, lang: Language = C, version: int = 51) -> list[str]:
    return [f.code for f in check(selector, lang, version)]


def _apply(source: bytes, fix: Fix) -> bytes:
    out = source
    for (a, b), text in sorted(fix.edits, key=lambda e: e[0][0], reverse=True):
        out = out[:a] + text.encode() + out[b:]
    return out


def fixed(selector: str, code: str, lang: Language = C, version: int = 51) -> str:
    """The selector after applying the one fix of the one finding with `code`."""
    source = _source(selector, lang).encode()
    [finding] = [f for f in _analyze(source, lang, version) if f.code == code]
    [fix] = finding.fixes
    after = _apply(source, fix).decode()
    start = after.index("match(") + len("match(")
    return after[start:after.index(")\n", start)]


# ---------------------------------------------------------------- OMP353: move a selector

@pytest.mark.parametrize("before,after", [
    # the selector was all its set held: the set is renamed
    ("implementation={kind(gpu)}", "device={kind(gpu)}"),
    ("user = {vendor(llvm)}", "implementation={vendor(llvm)}"),
    ("device={target}", "construct={target}"),
    # the selector leaves its set; the target set is added at the end
    ("implementation={vendor(llvm), kind(gpu)}", "implementation={vendor(llvm)}, device={kind(gpu)}"),
    ("implementation={kind(gpu), vendor(llvm)}", "implementation={vendor(llvm)}, device={kind(gpu)}"),
    ("device = { kind(gpu) , vendor(amd) }", "device = { kind(gpu) }, implementation={vendor(amd)}"),
    ("user={condition(1), kind(host)}, construct={parallel}",
     "user={condition(1)}, construct={parallel}, device={kind(host)}"),
    # the target set exists: the selector is appended to it
    ("device={arch(nvptx)}, implementation={kind(gpu)}", "device={arch(nvptx), kind(gpu)}"),
    ("implementation={kind(gpu)}, device={arch(nvptx)}", "device={arch(nvptx), kind(gpu)}"),
    ("device={arch(nvptx), vendor(llvm)}, implementation={extension(match_any)}",
     "device={arch(nvptx)}, implementation={extension(match_any), vendor(llvm)}"),
    # properties and scores travel with the selector
    ("device={kind(gpu), vendor(score(5): llvm, gnu)}",
     "device={kind(gpu)}, implementation={vendor(score(5): llvm, gnu)}"),
])
def test_move_fix_text(before: str, after: str) -> None:
    assert fixed(before, "OMP353") == after
    assert not check(after)


def test_move_fix_in_fortran() -> None:
    assert fixed("device={kind(gpu), vendor(llvm)}", "OMP353", F) == "device={kind(gpu)}, implementation={vendor(llvm)}"


def test_device_num_moves_to_target_device() -> None:
    assert fixed("device={device_num(0)}", "OMP361") == "target_device={device_num(0)}"
    assert fixed("device={kind(gpu), device_num(1)}", "OMP361") == "device={kind(gpu)}, target_device={device_num(1)}"
    [finding] = check("device={device_num(0)}", version=50)
    assert finding.code == "OMP361" and not finding.fixes and "5.1" in finding.message


@pytest.mark.parametrize("selector", [
    "device={kind(gpu)}, implementation={kind(cpu)}",   # the device set has a kind already
    "device={}, implementation={kind(cpu)}",            # an empty set to append to
])
def test_no_move_fix_where_it_would_not_help(selector: str) -> None:
    found = [f for f in check(selector) if f.code == "OMP353"]
    assert found and not found[0].fixes


def test_no_fix_across_lines() -> None:
    source = ("void v(void);\n#pragma omp declare variant(v) match(implementation = {vendor(llvm), \\\n"
              "  kind(gpu)})\nvoid f(void);\n")
    [finding] = [f for f in _analyze(source, C, 51) if f.code == "OMP353"]
    assert not finding.fixes


def test_fixed_form_fix_keeps_to_column_72() -> None:
    long_line = ("      subroutine v()\n      end\n      subroutine f()\n"
                 "c$omp declare variant(v) match(device={isa(avx2), vendor(intel)}, user={condition(.true.)})\n"
                 "      end\n")
    [finding] = [f for f in _analyze(long_line, FIXED, 51) if f.code == "OMP353"]
    assert not finding.fixes  # the moved selector would end past column 72
    short = ("      subroutine v()\n      end\n      subroutine f()\n"
             "c$omp declare variant(v) match(device={vendor(intel)})\n      end\n")
    [finding] = [f for f in _analyze(short, FIXED, 51) if f.code == "OMP353"]
    assert finding.fixes


# ---------------------------------------------------------------- other quick fixes

def test_merge_repeated_set() -> None:
    assert fixed("device={kind(gpu)}, device={arch(nvptx)}", "OMP352") == "device={kind(gpu), arch(nvptx)}"
    assert fixed("user={condition(1)}, device={kind(gpu)}, user={condition(2)}", "OMP352") == (
        "user={condition(1), condition(2)}, device={kind(gpu)}")


def test_remove_score_and_repetitions() -> None:
    assert fixed("device={kind(score(5): gpu)}", "OMP355") == "device={kind(gpu)}"
    assert fixed("device={kind(score ( 2*3 ) :gpu, cpu)}", "OMP355") == "device={kind(gpu, cpu)}"
    assert fixed("device={kind(gpu), arch(nvptx), kind(cpu)}", "OMP354") == "device={kind(gpu), arch(nvptx)}"
    assert fixed("device={kind(gpu, cpu, gpu)}", "OMP357") == "device={kind(gpu, cpu)}"
    assert fixed("construct={parallel(nowait)}", "OMP360") == "construct={parallel}"


def test_spelling_fixes() -> None:
    assert fixed("devce={kind(gpu)}", "OMP351") == "device={kind(gpu)}"
    assert fixed("device={knd(gpu)}", "OMP353") == "device={kind(gpu)}"
    assert fixed("construct={do}", "OMP353") == "construct={for}"
    assert fixed("construct={for}", "OMP353", F) == "construct={do}"
    assert fixed("device={kind(gpx)}", "OMP358") == "device={kind(gpu)}"
    assert fixed("implementation={vendor(nvidai)}", "OMP359") == "implementation={vendor(nvidia)}"
    assert fixed("device={arch(nvtpx)}", "OMP362") == "device={arch(nvptx)}"
    assert fixed("construct={simd(simdln(4))}", "OMP360") == "construct={simd(simdlen(4))}"


# ---------------------------------------------------------------- every table row

def _example(spec: traits.SelectorSpec) -> str:
    """A valid use of the selector."""
    if spec.properties == traits.NONE:
        return spec.name
    if spec.properties == traits.EXPR:
        return f"{spec.name}(0)" if spec.name == "device_num" else f"{spec.name}(1)"
    if spec.properties == traits.CLAUSES:
        return f"{spec.name}(simdlen(4), notinbranch)" if spec.name == "simd" else f"{spec.name}(unified_address)"
    value = {"isa": "avx2", "arch": "x86_64", "extension": "match_any", "uid": '"GPU-0"'}.get(spec.name)
    return f"{spec.name}({value or min(spec.values)})"


ROWS = [(s, sel) for s in traits.TRAIT_SETS for sel in s.selectors]


def _languages(sel: traits.SelectorSpec) -> list[Language]:
    return {"c": [C, CPP], "fortran": [F]}.get(sel.lang, [C, F])


@pytest.mark.parametrize("set_spec,sel", ROWS, ids=[f"{s.name}.{sel.name}" for s, sel in ROWS])
def test_every_selector_is_valid_in_its_set(set_spec: traits.SetSpec, sel: traits.SelectorSpec) -> None:
    version = max(set_spec.since, sel.since)
    for lang in _languages(sel):
        assert codes(f"{set_spec.name}={{{_example(sel)}}}", lang, version) == []
        if version > 50:  # and not before its version
            assert codes(f"{set_spec.name}={{{_example(sel)}}}", lang, version - 1 if version != 60 else 52)


@pytest.mark.parametrize("set_spec,sel", ROWS, ids=[f"{s.name}.{sel.name}" for s, sel in ROWS])
def test_every_selector_moves_home_from_a_wrong_set(set_spec: traits.SetSpec, sel: traits.SelectorSpec) -> None:
    version = 60
    lang = _languages(sel)[0]
    wrong = "user" if not traits.selector_of(traits.SETS_BY_NAME["user"], sel.name, version, lang is F) else "device"
    selector = f"{wrong}={{{_example(sel)}}}"
    code = "OMP361" if sel.name == "device_num" else "OMP353"
    [finding] = check(selector, lang, version)
    assert finding.code == code and finding.effective_severity is Severity.ERROR
    home = traits.homes(sel.name, version, lang is F)[0][0].name
    assert fixed(selector, code, lang, version) == f"{home}={{{_example(sel)}}}"


@pytest.mark.parametrize("kind", sorted(traits.KIND_VALUES))
def test_every_kind(kind: str) -> None:
    assert codes(f"device={{kind({kind})}}, target_device={{kind(\"{kind}\")}}") == []


@pytest.mark.parametrize("vendor", sorted(traits.VENDORS))
def test_every_vendor(vendor: str) -> None:
    assert codes(f"implementation={{vendor({vendor})}}") == []
    assert codes(f"implementation={{vendor('{vendor.upper()}')}}", F) == []


@pytest.mark.parametrize("order", sorted(traits.MEMORY_ORDERS))
def test_every_memory_order(order: str) -> None:
    assert codes(f"implementation={{atomic_default_mem_order({order})}}") == []


@pytest.mark.parametrize("clause", sorted(traits.SIMD_CLAUSES))
def test_every_simd_clause(clause: str) -> None:
    prop = clause if clause in ("inbranch", "notinbranch") else f"{clause}(x)"
    assert codes(f"construct={{simd({prop})}}") == []


@pytest.mark.parametrize("name", sorted(traits.KNOWN_ARCHS))
def test_every_known_arch(name: str) -> None:
    assert traits.known_arch(name) and traits.known_isa(name)


@pytest.mark.parametrize("name", ["sm_35", "sm_90a", "sm_100f", "gfx90a", "gfx1100", "gfx942", "gfx9-generic",
                                  "gfx10-3-generic", "ptx78", "avx10.2-512", "AVX512F", "sve2", "vsx"])
def test_isa_patterns(name: str) -> None:
    assert traits.known_isa(name)


@pytest.mark.parametrize("name", ["avx512q", "avx1024", "sm80", "gfx", "nvptx65", "x86-64", "quantum"])
def test_unknown_isa_arch(name: str) -> None:
    assert not traits.known_arch(name)
    assert name == "x86-64" or not traits.known_isa(name)


# ---------------------------------------------------------------- versions and severities

@pytest.mark.parametrize("selector,version,expected", [
    ("target_device={kind(gpu)}", 50, ["OMP351"]),
    ("target_device={kind(gpu)}", 51, []),
    ("target_device={kind(gpu)}", 45, ["OMP351"]),
    ("construct={dispatch}", 50, ["OMP353"]),
    ("construct={dispatch}", 51, []),
    ("implementation={requires(unified_address)}", 51, ["OMP353"]),
    ("implementation={requires(unified_address)}", 52, []),
    ("implementation={self_maps}", 52, ["OMP353"]),
    ("implementation={self_maps}", 60, []),
    ("target_device={uid(\"x\")}", 52, ["OMP353"]),
    ("target_device={uid(\"x\")}", 60, []),
    ("device={uid(\"x\")}", 60, ["OMP353"]),
    ("device={device_num(0)}", 50, ["OMP361"]),
])
def test_versions(selector: str, version: int, expected: list[str]) -> None:
    assert codes(selector, C, version) == expected
    assert codes(selector, F, version) == expected


@pytest.mark.parametrize("selector,severity", [
    ("device={foo}", Severity.WARNING),                      # implementation-defined traits are allowed there
    ("target_device={foo(1)}", Severity.WARNING),
    ("implementation={my_extension}", Severity.WARNING),
    ("implementation={requires(unified_address)}", Severity.WARNING),  # 5.2 under 5.1
    ("construct={foo}", Severity.ERROR),                     # only context-matching constructs
    ("construct={task}", Severity.ERROR),
    ("construct={dispatch}", Severity.ERROR),                # 5.1 under 5.0: checked at 50 below
    ("user={foo}", Severity.ERROR),
    ("device={vendor(llvm)}", Severity.ERROR),               # known, and in the wrong set
])
def test_unknown_selector_severity(selector: str, severity: Severity) -> None:
    [finding] = check(selector, version=50 if "dispatch" in selector else 51)
    assert finding.code == "OMP353" and finding.effective_severity is severity


def test_severities_of_the_other_codes() -> None:
    assert [f.effective_severity for f in check("implementation={vendor(acme)}")] == [Severity.WARNING]
    assert [f.effective_severity for f in check("device={arch(acme)}")] == [Severity.INFORMATION]
    assert [f.effective_severity for f in check("device={kind(acme)}")] == [Severity.ERROR]


# ---------------------------------------------------------------- what stays silent

REAL_WORLD = [
    "device={arch(nvptx)}",
    "device={arch(\"nvptx64\")}",
    "construct={dispatch}",
    "implementation={vendor(llvm)}, device={kind(gpu)}",
    "user={condition(n > 100)}",
    "construct={target, teams, parallel, for}",
    "construct={simd(simdlen(8), notinbranch)}",
    "device={isa(\"avx512f\")}",
    "device={kind(host)}, implementation={vendor(llvm, gnu)}",
    "target_device={device_num(0), kind(any)}",
    "device={kind(gpu)}, implementation={vendor(score(10): llvm)}",
    "device={arch(amdgcn), isa(gfx90a)}",
    "implementation={extension(match_any, allow_templates)}",
    "implementation={unified_shared_memory}",
]


@pytest.mark.parametrize("selector", REAL_WORLD)
def test_real_world_selectors_are_clean(selector: str) -> None:
    assert codes(selector, C) == []
    assert codes(selector, CPP) == []
    assert codes(selector.replace("for}", "do}").replace("n > 100", "n > 100"), F) == []


@pytest.mark.parametrize("selector", [
    "implementation={vendor(score(n): llvm)}",              # not a constant the source decides
    "implementation={vendor(score(f(2)): llvm)}",
    "implementation={vendor(score(PRIORITY): llvm)}",       # a macro (or a header's constant)
    "target_device={device_num(n - 1)}",
    "target_device={device_num(DEVICE)}",
    "device={kind(KIND)}, implementation={vendor(VENDOR)}", # macros for properties
    "device={arch(ARCH), isa(ISA)}",
    "device={SELECTOR}",                                    # a macro for a selector
    "TRAITS",                                               # a macro for the trait sets
    "TRAITS, device={kind(gpu)}",
    "user={condition(1 > 0)}, device={kind(gpu)}",
    "construct={simd(linear(x:1), linear(y:2))}",           # repeated linear clauses of other items
])
def test_silent_where_the_source_does_not_decide(selector: str) -> None:
    assert codes(selector) == []


def test_macro_defined_in_the_file_is_silent() -> None:
    source = ("#define gpu_kind gpu\n#define sets device={kind(gpu)}\nvoid v(void);\n"
              "#pragma omp declare variant(v) match(sets, device={kind(gpu_kind)})\nvoid f(void);\n")
    assert _analyze(source, C, 51) == []


def test_fortran_named_constant_score() -> None:
    source = ("module m\n  integer, parameter :: p = -1, q = 4\ncontains\n  subroutine v()\n  end subroutine\n"
              "  subroutine f()\n    !$omp declare variant(v) match(implementation={vendor(score(p): llvm)})\n"
              "  end subroutine\n  subroutine g()\n"
              "    !$omp declare variant(v) match(implementation={vendor(score(q): llvm)})\n"
              "  end subroutine\nend module\n")
    assert [f.code for f in _analyze(source, F, 51)] == ["OMP356"]


def test_begin_declare_variant_is_checked() -> None:
    source = ("#pragma omp begin declare variant match(implementation={kind(gpu)})\nvoid f(void) {}\n"
              "#pragma omp end declare variant\n")
    assert [f.code for f in _analyze(source, C, 51)] == ["OMP353"]


def test_kind_any_with_other_properties() -> None:
    assert codes("device={kind(any, gpu)}") == ["OMP357"]
    assert codes("device={kind(any), isa(avx2)}") == ["OMP357"]
    assert codes("target_device={kind(any), arch(nvptx)}") == ["OMP357"]
    assert codes("target_device={kind(any), device_num(1)}") == []  # device_num names the device
    assert codes("device={kind(any)}, target_device={arch(nvptx)}") == []  # another set


def test_repeated_properties() -> None:
    assert codes("device={arch(nvptx, \"nvptx\")}") == ["OMP357"]  # identifier and string: the same value
    assert codes("construct={simd(simdlen(4), simdlen(8))}") == ["OMP357"]  # simdlen may appear once
    assert codes("construct={simd(notinbranch, notinbranch)}") == ["OMP357"]
    assert codes("implementation={vendor(llvm, LLVM)}", F) == ["OMP357"]  # Fortran ignores case
    assert codes("implementation={vendor(llvm, gnu)}") == []


@pytest.mark.parametrize("selector", [
    "", "device", "device=", "device={", "device={kind(}", "={kind(gpu)}", "device={kind(gpu)}}",
    "device={(gpu)}", "device={kind(score(): gpu)}", "device={kind(score(1):)}", "device={kind(,)}",
    "construct={simd(simdlen(8), )}", "implementation={vendor(score(-): llvm)}", "user={condition()}",
    "device={kind(gpu(x))}", "device={kind(1 + 2)}", "target_device={device_num()}", "device={arch(\"\")}",
])
def test_odd_selectors_never_crash(selector: str) -> None:
    for lang in (C, F):
        check(selector, lang)
