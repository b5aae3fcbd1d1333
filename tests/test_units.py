"""The preprocessor layer (analysis/units): directive lines, macros, #if evaluation, the build's
configuration of a file, the text the analysis reads, and edits that may change it."""
from __future__ import annotations

import pytest
from omp_lsp.analysis import Document, Language, Options, analyze
from omp_lsp.analysis.syntax.document import ByteEdit, changed_span
from omp_lsp.analysis.units import Environment, Unit, prepare
from omp_lsp.analysis.units.commands import command_environment, command_language
from omp_lsp.analysis.units.configuration import configure, masked
from omp_lsp.analysis.units.edits import edits_preprocessor_lines, touches_configuration
from omp_lsp.analysis.units.expressions import ConditionError, evaluate
from omp_lsp.analysis.units.headers import Headers
from omp_lsp.analysis.units.lines import scan
from omp_lsp.analysis.units.macros import expand, parse_command_define, parse_define, tokenize
from omp_lsp.analysis.units.predefined import predefined, toolchain_of
from omp_lsp.analysis.units.translation import cpp_syntax, header_language


# -- directive lines ---------------------------------------------------------------------------------
def test_lines_splice_continuations_and_blank_comments() -> None:
    src = b"#define A 1 /* one */\n  #  if A && \\\n   B // no\nint x; // #if not a line\n/* #endif */\n#endif\n"
    lines = scan(src)
    assert [(line.keyword, line.text) for line in lines] == [("define", b"A 1"), ("if", b"A &&    B"), ("endif", b"")]
    assert src[lines[1].start:lines[1].end] == b"  #  if A && \\\n   B // no"


def test_lines_skip_strings_raw_strings_and_comments() -> None:
    src = (b'const char *s = "/*";\n#ifdef X\nauto r = R"x(\n#endif\n)x";\nchar c = \'"\';\n#endif\n'
           b"int big = 1'000;\n#if 0\n#endif\n")
    assert [line.keyword for line in scan(src)] == ["ifdef", "endif", "if", "endif"]


def test_fortran_lines_are_found_by_their_first_column() -> None:
    src = b"program p\n#ifdef GPU\n  !$omp target\n  print *, '#if not'\n#endif\nend program\n"
    assert [line.keyword for line in scan(src, fortran=True)] == ["ifdef", "endif"]


# -- macros and conditions -----------------------------------------------------------------------
def _macros(*defines: str) -> dict:
    table = predefined("c", 51)
    for d in defines:
        m = parse_define(d)
        assert m is not None
        table[m.name] = m
    return table


@pytest.mark.parametrize("condition,value", [
    ("_OPENMP >= 202011", 1), ("_OPENMP == 202111", 0), ("defined(_OPENMP) && __STDC_VERSION__ >= 201112L", 1),
    ("1 ? 2 : 3 / 0", 2), ("0 && 1 / 0", 0), ("(1 << 4) + 010 + 0x10 + 0b1", 41), ("-1 < 0", 1), ("'a' == 97", 1),
    ("'\\n' + '\\x41'", 75), ("UNDEFINED", 0), ("UNDEFINED + 1", 1), ("!defined UNDEFINED", 1), ("1'000 == 1000", 1),
    ("7 / -2", -3), ("-7 % 2", -1), ("TWICE(3) == 6", 1), ("CAT(1, 2) == 12", 1), ("ONE_OR(0)", 1),
    ("defined(__has_include)", 1), ("__has_include(<stdio.h>)", 1), ("IS_DEFINED", 1), ("NESTED", 1),
    ("__clang_major__ >= 22 && __GNUC__ == 4", 1), ("VARIADIC(1, 2, 3) == 4", 1),
])
def test_conditions(condition: str, value: int) -> None:
    macros = _macros("TWICE(x) ((x) * 2)", "CAT(a, b) a ## b", "ONE_OR(x) (x || 1)", "IS_DEFINED defined(TWICE)",
                     "INNER 1", "NESTED INNER", "VARIADIC(first, ...) LAST(__VA_ARGS__)", "LAST(a, b) b + 1")
    assert evaluate(condition, macros) == value


@pytest.mark.parametrize("condition", ["", "1 +", "(1", "1 / 0", "defined", "G(1)", "1.5 > 1", "\"s\""])
def test_conditions_the_compiler_rejects(condition: str) -> None:
    with pytest.raises(ConditionError):
        evaluate(condition, _macros("F"))


def test_cpp_true_and_false() -> None:
    assert evaluate("true && !false", predefined("cpp", 51), cpp=True) == 1
    assert evaluate("true", predefined("c", 51)) == 0


def test_expansion_hides_a_macro_inside_its_own_replacement() -> None:
    macros = _macros("f(x) f(x + 1)", "g g")
    assert " ".join(t.text for t in expand(tokenize("f(1) g"), macros)) == "f ( 1 + 1 ) g"


def test_stringify_and_command_line_definitions() -> None:
    macros = _macros("STR(x) #x")
    assert [t.text for t in expand(tokenize('STR(a "b")'), macros)] == ['"a \\"b\\""']
    m = parse_command_define("N=7")
    assert m is not None and (m.name, m.body) == ("N", "7")
    m = parse_command_define("GPU")
    assert m is not None and m.body == "1"
    m = parse_command_define("SQ(x)=((x)*(x))")
    assert m is not None and m.params == ("x",)


@pytest.mark.parametrize("language,toolchain,standard,expect", [
    ("c", "", "", {"__clang__": "1", "__STDC_VERSION__": "201710L", "_OPENMP": "202011"}),
    ("c", "gcc", "c11", {"__GNUC__": "12", "__STDC_VERSION__": "201112L"}),
    ("cpp", "", "c++14", {"__cplusplus": "201402L", "__GNUG__": "4"}),
    ("fortran", "", "", {"__flang__": "1", "_OPENMP": "202011"}),
    ("fortran", "gcc", "", {"__GFORTRAN__": "1"}),
])
def test_predefined_macros(language: str, toolchain: str, standard: str, expect: dict[str, str]) -> None:
    table = predefined(language, 51, toolchain, standard)
    assert {k: table[k].body for k in expect} == expect
    assert ("__clang__" in table) == (toolchain == "" and language != "fortran")
    assert "_OPENMP" not in predefined(language, None, toolchain, standard)


def test_toolchains_of_compilers() -> None:
    assert [toolchain_of(c) for c in ("/usr/bin/clang++-22", "gcc-12", "g++", "gfortran", "flang-22", "nvc++")] == \
        ["clang", "gcc", "gcc", "gcc", "flang", ""]


# -- the build's configuration -------------------------------------------------------------------
SPLIT_BRACES = """\
void saxpy(int n, float a, float *x, float *y) {
#ifdef GPU
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) {
#else
  for (int i = 0; i < n; i++) {
#endif
    y[i] = a * x[i] + y[i];
  }
}
"""


def test_one_configuration_the_builds() -> None:
    src = SPLIT_BRACES.encode()
    for defines, directives in (((), 0), ((("D", "GPU"),), 1)):
        configuration = configure(src, "c", "", Environment(defines))
        text = masked(src, configuration)
        assert len(text) == len(src) and text.count(b"\n") == src.count(b"\n")
        assert text.count(b"#pragma omp") == directives
        assert b"#ifdef" not in text and b"#else" not in text and b"#endif" not in text
        assert text.count(b"for (int i") == 1   # one loop: the braces balance in either build
        document, _ = prepare(Document(src, Language.C), Unit(Environment(defines)), 51)
        assert document.tree is not None and not document.tree.root_node.has_error


def test_defines_and_undefs_in_order_and_from_the_command_line() -> None:
    src = b"#define A\n#undef A\n#ifdef A\nint a;\n#endif\n#if N > 3\nint n;\n#endif\n#ifdef B\nint b;\n#endif\n"
    text = masked(src, configure(src, "c", "", Environment((("D", "N=4"), ("D", "B"), ("U", "B")))))
    assert b"int a;" not in text and b"int n;" in text and b"int b;" not in text


def test_elif_else_and_nesting() -> None:
    src = (b"#if X\nint x;\n#elif defined(Y)\nint y;\n#  if Z\nint z;\n#  else\nint nz;\n#  endif\n#elifdef W\nint w;\n"
           b"#else\nint none;\n#endif\n")
    for defines, kept in (((), {b"none"}), ((("D", "Y"),), {b"y", b"nz"}), ((("D", "Y"), ("D", "Z")), {b"y", b"z"}),
                          ((("D", "W"),), {b"w"}), ((("D", "X"), ("D", "Y")), {b"x"})):
        text = masked(src, configure(src, "c", "", Environment(defines)))
        assert {w for w in (b"x", b"y", b"z", b"nz", b"w", b"none") if b"int " + w + b";" in text} == kept


def test_project_headers_define_macros_and_system_headers_are_not_read(tmp_path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "config.h").write_text("#pragma once\n#define USE_OFFLOAD 1\n#include \"more.h\"\n")
    (tmp_path / "inc" / "more.h").write_text("#ifndef MORE_H\n#define MORE_H\n#define TEAMS 64\n#endif\n")
    src = b'#include "config.h"\n#include <stdio.h>\n#if USE_OFFLOAD && TEAMS == 64\nint on;\n#endif\n'
    path = str(tmp_path / "main.c")
    alone = configure(src, "c", path, Environment(), headers=Headers())
    assert alone.inactive and alone.unresolved == ("config.h",)
    found = configure(src, "c", path, Environment(dirs=(str(tmp_path / "inc"),)), headers=Headers())
    assert not found.inactive
    assert found.translation_unit == (str(tmp_path / "inc" / "config.h"), str(tmp_path / "inc" / "more.h"))
    assert [(s.header, s.angle, s.path is not None) for s in found.includes] == \
        [("config.h", False, True), ("stdio.h", True, False)]
    entry = found.entry(str(tmp_path / "inc" / "more.h"))   # entered through config.h
    assert entry is not None and entry[0] == found.includes[0].span[0] and "USE_OFFLOAD" in entry[1]
    assert found.entry(str(tmp_path / "inc" / "config.h")) is not None


def test_forced_includes(tmp_path) -> None:
    (tmp_path / "cfg.h").write_text("#define GPU\n")
    src = b"#ifdef GPU\nint gpu;\n#endif\n"
    env = Environment(forced=(str(tmp_path / "cfg.h"),))
    assert b"int gpu;" in masked(src, configure(src, "c", str(tmp_path / "a.c"), env, headers=Headers()))


def test_a_condition_the_compiler_would_reject_is_not_taken() -> None:
    src = b"#if F(2)\nint f;\n#else\nint g;\n#endif\n"
    configuration = configure(src, "c", "", Environment())
    assert [(b.keyword, b.active, b.unknown) for b in configuration.branches] == [("if", False, True), ("else", True, False)]


def test_fortran_configuration() -> None:
    src = b"program p\n#ifdef GPU\n  !$omp target\n#else\n  !$omp parallel\n#endif\n  x = 1\n#if _OPENMP >= 201511\n" \
          b"  !$omp end parallel\n#endif\nend program\n"
    text = masked(src, configure(src, "fortran", "", Environment()))
    assert b"!$omp target" not in text and b"!$omp parallel" in text and b"!$omp end parallel" in text


# -- OMP010: which macro enables directives the build does not compile ------------------------------
@pytest.mark.parametrize("condition,enable", [
    ("#ifdef GPU", ("define GPU",)),
    ("#if defined(USE_OFFLOAD) && !defined(NDEBUG)", ("define USE_OFFLOAD",)),
    ("#if defined(A) && defined(B)", ("define A", "define B")),
    ("#if OFFLOAD == 1", ("define OFFLOAD",)),
    ("#if VERSION >= 3", ()),
    ("#ifndef CPU_ONLY", None),            # taken: nothing to say
    ("#if 0", None),                       # no macro of the user's enables it
    ("#if _OPENMP >= 202411", None),       # another OpenMP version, not a macro
    ("#ifdef __NVCOMPILER", None),         # another compiler's own macro
])
def test_what_enables_an_inactive_branch(condition: str, enable: tuple[str, ...] | None) -> None:
    src = f"void f(void) {{\n{condition}\n#pragma omp target\n  {{ }}\n#endif\n}}\n".encode()
    guarded = configure(src, "c", "", Environment()).guarded
    if enable is None:
        assert guarded == []
    else:
        assert [g.enable for g in guarded] == [enable] and guarded[0].directives == 1


def test_enabling_an_else_branch_and_a_nested_one() -> None:
    src = b"#ifdef CPU\nint c;\n#else\n#pragma omp target\n{}\n#endif\n#ifdef GPU\n#if FAST\n#pragma omp teams\n#endif\n#endif\n"
    guarded = configure(src, "c", "", Environment((("D", "CPU"), ("D", "FAST")))).guarded
    assert [g.enable for g in guarded] == [("undefine CPU",), ("define GPU",)]


def test_omp010_once_per_file_with_the_others_related() -> None:
    src = "#ifdef GPU\n#pragma omp declare target\n#endif\nint a;\n#ifdef GPU\n#pragma omp end declare target\n#endif\n"
    result = analyze(Document(src, Language.C))
    [finding] = result.findings
    assert finding.code == "OMP010" and "define GPU" in finding.message and "-D GPU" in finding.message
    assert [r.span for r in finding.related] == [(src.index("#ifdef GPU", 5), src.index("#ifdef GPU", 5) + 10)]
    defined = analyze(Document(src, Language.C), unit=Unit(Environment((("D", "GPU"),))))
    assert [f.code for f in defined.findings] == [] and [d.name for d in defined.directives] == \
        ["declare target", "end declare target"]


@pytest.mark.parametrize("condition,version,analysed", [
    ("_OPENMP >= 202111", 51, "to"),
    ("_OPENMP >= 202111", 52, "enter"),
    ("defined(_OPENMP) && _OPENMP > 202011", 52, "enter"),
    ("!defined(_OPENMP) || _OPENMP < 201811", 45, "enter"),
    ("_OPENMP >= 202111 || HAVE_X", 52, "enter"),
    ("HAVE_X", 51, "to"),
])
def test_openmp_version_branches(condition: str, version: int, analysed: str) -> None:
    src = f"int t;\n#if {condition}\n#pragma omp declare target enter(t)\n#else\n#pragma omp declare target to(t)\n#endif\n"
    result = analyze(Document(src, Language.C), Options(openmp_version=version))
    assert [c.name for d in result.directives for c in d.clauses] == [analysed]


# -- compile commands and header language ----------------------------------------------------------
def test_command_environment() -> None:
    env = command_environment(["clang++-22", "-DGPU", "-D", "N=7", "-UFOO", "-I../inc", "-iquote", "q", "-std=c++14",
                               "-fopenmp", "-include", "cfg.h", "-c", "x.cpp"], "/p/src")
    assert env == Environment((("D", "GPU"), ("D", "N=7"), ("U", "FOO")), ("/p/src/cfg.h",), ("/p/src/q",),
                              ("/p/inc",), "clang", "c++14", True)
    assert command_environment(["gcc", "-fopenmp", "-fno-openmp", "a.c"], "/").openmp is False
    assert command_language(["clang", "-x", "c++", "a.h"]) is Language.CPP


@pytest.mark.parametrize("text,includers,command,expect", [
    ("int f(void);", [], None, Language.C),
    ("template <typename T> T f(T x);", [], None, Language.CPP),
    ("namespace dev { int f(); }", [], None, Language.CPP),
    ("class A { public: int x; };", [], None, Language.CPP),
    ("#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);", [], None, Language.C),
    ("int f(void);", [Language.C, Language.CPP], None, Language.CPP),
    ("template <typename T> T f(T x);", [Language.C], None, Language.C),
    ("int f(void);", [], Language.CPP, Language.CPP),
])
def test_header_language(text: str, includers: list[Language], command: Language | None, expect: Language) -> None:
    assert header_language("/p/x.h", text.encode(), includers, command) is expect
    assert header_language("/p/x.hpp", text.encode(), [Language.C], None) is Language.CPP   # only .h is either


def test_cpp_syntax() -> None:
    assert cpp_syntax(b"struct S : public B {};") and cpp_syntax(b"using namespace std;")
    assert not cpp_syntax(b"struct S { int x; };\n/* class names */\nint templates;")


# -- edits that may change the configuration -------------------------------------------------------
@pytest.mark.parametrize("before,after,touches", [
    (b"int x = 1;\n", b"int x = 12;\n", False),
    (b"#pragma omp target map(x)\n", b"#pragma omp target map(xy)\n", False),
    (b"int x = 1;\n", b"#int x = 1;\n", True),
    (b"#ifdef A\n", b"#ifdef AB\n", True),
    (b"#define N 1\n", b"#define N 12\n", True),
    (b"int x = 1;\n", b"int x = 1; /*\n", True),
    (b"int x = 1; /* c */\n", b"int x = 12; /* c */\n", False),
    (b"int x = 1;\n#if A\n", b"int x = 1; \\\n#if A\n", True),
])
def test_edits_that_touch_preprocessor_lines(before: bytes, after: bytes, touches: bool) -> None:
    assert edits_preprocessor_lines(before, after, ByteEdit(*changed_span(before, after))) is touches


def test_edits_in_inactive_text_touch_the_configuration() -> None:
    src = b"void f(void) {\n#ifdef GPU\n  int x = 1;\n#endif\n  int y = 1;\n}\n"
    configuration = configure(src, "c", "", Environment())
    inside = src.index(b"x = 1")
    outside = src.index(b"int y")
    assert touches_configuration(configuration, masked(src, configuration), inside, inside + 1, b"z")
    assert not touches_configuration(configuration, masked(src, configuration), outside, outside + 1, b"z")
    assert touches_configuration(configuration, masked(src, configuration), outside, outside, b"#")
