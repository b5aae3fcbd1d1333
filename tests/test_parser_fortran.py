"""The directive parser on Fortran, free and fixed form (analysis/directives/parser.py).

Fortran differs from C in what the parser must know: case-insensitive names and clauses,
optional blanks between directive words (`paralleldo`, `enddo`), `end` directives with their
own clauses (`end do nowait`, `end single copyprivate`), `!$omp&` and column-6 continuation,
Fortran list items (`a(i, 1:n:2)`, `a%b(1:n)`, `/common/`) and `.and.`-style reduction
operators. C/C++ is in test_parser.py.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from omp_lsp.analysis import Document, Language, Options, Severity, analyze
from omp_lsp.analysis.directives import tables
from omp_lsp.analysis.directives.nodes import Clause, Directive, ListItem
from omp_lsp.analysis.syntax.diagnostics import Finding

FREE, FIXED = Language.FORTRAN, Language.FORTRAN_FIXED
FORMS = [FREE, FIXED]
SYNTAX = frozenset({"OMP001", "OMP002", "OMP003", "OMP004", "OMP005", "OMP007", "OMP009"})


# ---------------------------------------------------------------- helpers

@dataclass
class Parsed:
    src: bytes
    directive: Directive
    findings: list[Finding]  # syntax findings only (no block pairing: one directive alone)

    def text(self, span: tuple[int, int]) -> str:
        return self.src[span[0]:span[1]].decode("utf-8")

    def clause(self, name: str, nth: int = 0) -> Clause:
        found = self.directive.clauses_named(name)
        assert len(found) > nth, f"no clause '{name}' #{nth} in {[c.name for c in self.directive.clauses]}"
        return found[nth]

    def describe(self) -> str:
        return "\n".join(f"{f.code} {self.text(f.span)!r}: {f.message}" for f in self.findings)


def source(body: str, form: Language = FREE, sentinel: str = "!$omp") -> str:
    if form is FIXED:
        line = f"{sentinel:<5} {body}" if sentinel != "!$omp" else f"!$omp {body}"
        assert len(line) <= 72, "fixed form ignores text after column 72"
        return f"      subroutine s(a, n)\n      integer n, a(n)\n{line}\n      a(1) = n\n      end\n"
    return f"subroutine s(a, n)\n  integer :: n, a(n)\n  {sentinel} {body}\n  a(1) = n\nend subroutine s\n"


def parse(body: str, form: Language = FREE, version: int = 51, sentinel: str = "!$omp") -> Parsed:
    src = source(body, form, sentinel)
    result = analyze(Document(src, form), Options(openmp_version=version))
    assert not result.internal_errors, result.internal_errors
    assert len(result.directives) == 1, result.directives
    findings = [f for f in result.findings if f.code in SYNTAX]
    return Parsed(src.encode("utf-8"), result.directives[0], findings)


def clean(body: str, form: Language = FREE, version: int = 51) -> Parsed:
    parsed = parse(body, form, version)
    assert not parsed.findings, parsed.describe()
    return parsed


def items(clause: Clause) -> list[str]:
    return [i.text for i in clause.items]


def item_shape(item: ListItem) -> tuple:
    subs = [[(s.lower and s.lower.text, s.length and s.length.text, s.stride and s.stride.text, s.is_section)
             for s in dims] for dims in item.subscripts]
    return item.name, item.members, subs


def _first_version(since) -> int:
    return since[0] if isinstance(since, tuple) else since


# ---------------------------------------------------------------- directive names

F_NAMES = sorted(n for n, s in tables.DIRECTIVES.items() if s.lang != "c")


@pytest.mark.parametrize("form", FORMS, ids=["free", "fixed"])
@pytest.mark.parametrize("name", F_NAMES)
def test_every_fortran_directive_name_parses_to_itself(name: str, form: Language) -> None:
    spec = tables.DIRECTIVES[name]
    body = name + ("(x)" if spec.argument_required else "")
    if name in ("cancel", "cancellation point"):
        body += " parallel"  # a construct type is required
    parsed = clean(body, form, max(51, _first_version(spec.since)))
    assert parsed.directive.name == name and parsed.directive.spec is spec


BLOCKS = sorted(n for n, s in tables.DIRECTIVES.items()
                if s.lang != "c" and s.association in ("block", "loop", "statement") and "end " + n not in tables.DIRECTIVES)


@pytest.mark.parametrize("name", BLOCKS)
def test_end_directive_of_every_block_and_loop_construct(name: str) -> None:
    version = max(51, _first_version(tables.DIRECTIVES[name].since))
    parsed = clean("end " + name, FREE, version)
    assert parsed.directive.name == "end " + name
    assert parsed.directive.end_of == name
    upper = clean(("END " + name).upper(), FIXED, version)
    assert upper.directive.name == "end " + name


@pytest.mark.parametrize("body, name", [
    ("target teams distribute parallel do simd", "target teams distribute parallel do simd"),
    ("TARGET TEAMS DISTRIBUTE PARALLEL DO SIMD", "target teams distribute parallel do simd"),
    ("Target Teams Distribute Parallel Do", "target teams distribute parallel do"),
    ("targetteamsdistributeparalleldosimd", "target teams distribute parallel do simd"),
    ("target teamsdistribute paralleldo", "target teams distribute parallel do"),
    ("paralleldo", "parallel do"),
    ("PARALLELDO", "parallel do"),
    ("parallel   do", "parallel do"),
    ("parallel\tdo\tsimd", "parallel do simd"),
    ("paralleldosimd", "parallel do simd"),
    ("parallelworkshare", "parallel workshare"),
    ("parallel sections", "parallel sections"),
    ("targetdata map(a)", "target data"),
    ("targetenterdata map(to: a)", "target enter data"),
    ("target exitdata map(from: a)", "target exit data"),
    ("targetupdate to(a)", "target update"),
    ("declaretarget", "declare target"),
    ("declare target(a)", "declare target"),
    ("DECLARE TARGET (A)", "declare target"),
    ("declarevariant(v) match(construct={parallel})", "declare variant"),
    ("declare simd(s) uniform(n)", "declare simd"),
    ("declarereduction(mx: integer: omp_out = max(omp_out, omp_in))", "declare reduction"),
    ("declare mapper(mm: t :: v) map(v)", "declare mapper"),
    ("taskloop simd", "taskloop simd"),
    ("taskloopsimd", "taskloop simd"),
    ("masked taskloop simd", "masked taskloop simd"),
    ("parallel masked taskloop", "parallel masked taskloop"),
    ("distribute parallel do simd", "distribute parallel do simd"),
    ("teams distribute parallel do", "teams distribute parallel do"),
    ("cancellationpoint do", "cancellation point"),
    ("cancellation point parallel", "cancellation point"),
    ("cancel do", "cancel"),
    ("cancel sections", "cancel"),
    ("cancel taskgroup", "cancel"),
    ("atomic capture", "atomic"),
    ("ATOMIC UPDATE", "atomic"),
    ("atomic compare", "atomic"),
    ("critical (lock)", "critical"),
    ("flush(a, n)", "flush"),
    ("requires unified_shared_memory", "requires"),
    ("metadirective when(user={condition(n > 1)}: parallel) default(nothing)", "metadirective"),
    # end directives, with and without blanks, in any case
    ("END PARALLEL DO", "end parallel do"),
    ("end paralleldo", "end parallel do"),
    ("endparalleldo", "end parallel do"),
    ("enddo", "end do"),
    ("ENDDO", "end do"),
    ("end do", "end do"),
    ("enddosimd", "end do simd"),
    ("end do simd", "end do simd"),
    ("endparallel", "end parallel"),
    ("end target teams distribute parallel do simd", "end target teams distribute parallel do simd"),
    ("endtargetteamsdistributeparalleldosimd", "end target teams distribute parallel do simd"),
    ("end target data", "end target data"),
    ("end taskloop simd", "end taskloop simd"),
    ("end atomic", "end atomic"),
    ("end critical", "end critical"),
    ("end critical (lock)", "end critical"),
    ("end single", "end single"),
    ("end workshare", "end workshare"),
    ("end parallel workshare", "end parallel workshare"),
    ("end sections", "end sections"),
    ("end ordered", "end ordered"),
    ("end masked", "end masked"),
])
def test_fortran_directive_names(body: str, name: str) -> None:
    parsed = clean(body)
    assert parsed.directive.name == name


def test_end_directives_carry_what_they_close() -> None:
    assert clean("end parallel do").directive.end_of == "parallel do"
    assert clean("enddo").directive.end_of == "do"
    assert clean("end target teams distribute parallel do simd").directive.end_of == \
        "target teams distribute parallel do simd"
    assert clean("parallel do").directive.end_of is None


def test_end_directive_clauses() -> None:
    do = clean("end do nowait")
    assert do.directive.name == "end do" and [c.name for c in do.directive.clauses] == ["nowait"]
    assert [c.name for c in clean("enddo nowait").directive.clauses] == ["nowait"]
    assert [c.name for c in clean("end do simd nowait").directive.clauses] == ["nowait"]
    assert [c.name for c in clean("end sections nowait").directive.clauses] == ["nowait"]
    assert [c.name for c in clean("end workshare nowait").directive.clauses] == ["nowait"]
    single = clean("end single copyprivate(x, y)").directive
    assert items(single.clause("copyprivate")) == ["x", "y"]
    assert clean("end single nowait").directive.clause("nowait") is not None
    assert [c.name for c in clean("end scope nowait").directive.clauses] == ["nowait"]
    crit = clean("end critical (update_lock)").directive
    assert [i.name for i in crit.argument] == ["update_lock"]


def test_name_span_of_blank_free_spellings() -> None:
    parsed = clean("endparalleldo")
    assert parsed.text(parsed.directive.name_span) == "endparalleldo"
    spaced = clean("END   PARALLEL\tDO")
    assert spaced.text(spaced.directive.name_span) == "END   PARALLEL\tDO"


@pytest.mark.parametrize("sentinel", ["!$omp", "!$OMP", "!$Omp"])
def test_free_form_sentinels(sentinel: str) -> None:
    parsed = parse("parallel do private(i)", FREE, 51, sentinel)
    assert parsed.directive.name == "parallel do" and not parsed.findings


@pytest.mark.parametrize("sentinel", ["!$omp", "c$omp", "C$OMP", "*$omp", "*$OMP", "!$OMP"])
def test_fixed_form_sentinels(sentinel: str) -> None:
    parsed = parse("parallel do private(i)", FIXED, 51, sentinel)
    assert parsed.directive.name == "parallel do" and not parsed.findings


def test_clause_names_and_modifiers_are_case_insensitive() -> None:
    parsed = clean("TARGET MAP(ToFrom: A) Device(Ancestor: 1) IF(TARGET: N .GT. 2) DefaultMap(TOFROM: SCALAR)")
    assert [c.name for c in parsed.directive.clauses] == ["map", "device", "if", "defaultmap"]
    assert parsed.clause("map").modifiers[0].name == "tofrom"
    assert parsed.clause("map").items[0].name == "a" and parsed.clause("map").items[0].text == "A"
    assert parsed.clause("device").modifiers[0].name == "ancestor"
    assert parsed.clause("if").modifiers[0].name == "target"
    dm = parsed.clause("defaultmap")
    assert (dm.keyword.name, dm.category.name) == ("tofrom", "scalar")
    sched = clean("PARALLEL DO SCHEDULE(DYNAMIC, 4) PROC_BIND(SPREAD)", FREE).directive
    assert sched.name == "parallel do" and sched.clause("schedule").keyword.name == "dynamic"
    assert sched.clause("proc_bind").keyword.name == "spread"


# ---------------------------------------------------------------- clause shapes

def test_fortran_list_items() -> None:
    clause = clean("target map(tofrom: a(1:n), b(i, 1:n:2), c%d(1:n), e(:), f(:, :), g(::2), h(2::3), k)") \
        .clause("map")
    assert items(clause) == ["a(1:n)", "b(i, 1:n:2)", "c%d(1:n)", "e(:)", "f(:, :)", "g(::2)", "h(2::3)", "k"]
    assert [item_shape(i) for i in clause.items] == [
        ("a", [], [[("1", "n", None, True)]]),
        ("b", [], [[("i", None, None, False), ("1", "n", "2", True)]]),
        ("c", ["d"], [[("1", "n", None, True)]]),
        ("e", [], [[(None, None, None, True)]]),
        ("f", [], [[(None, None, None, True), (None, None, None, True)]]),
        ("g", [], [[(None, None, "2", True)]]),
        ("h", [], [[("2", None, "3", True)]]),
        ("k", [], []),
    ]


def test_common_blocks() -> None:
    parsed = clean("declare target(/blk/, x)")
    common, x = parsed.directive.argument
    assert common.common_block and common.name == "blk" and parsed.text(common.name_span) == "blk"
    assert parsed.text(common.span) == "/blk/"
    assert not x.common_block and x.name == "x"
    tp = clean("threadprivate(/cnt/)").directive.argument[0]
    assert tp.common_block and tp.name == "cnt"
    priv = clean("parallel private(/work/) copyin(/cnt/)").directive
    assert priv.clause("private").items[0].common_block
    link = clean("declare target link(/big/)").clause("link")
    assert link.items[0].common_block and link.items[0].name == "big"


def test_nested_components() -> None:
    item = clean("target map(to: a%b%c(1:n), x%y(i)%z)").clause("map").items
    assert item_shape(item[0]) == ("a", ["b", "c"], [[("1", "n", None, True)]])
    assert item[1].name == "x" and item[1].members == ["y", "z"]


@pytest.mark.parametrize("op", ["+", "*", "-", ".and.", ".or.", ".eqv.", ".neqv.", "max", "min", "iand", "ior",
                                "ieor", ".AND.", "MAX", ".myop."])
def test_fortran_reduction_identifiers(op: str) -> None:
    clause = clean(f"do reduction({op}: s)").clause("reduction")
    assert clause.expr.text == op and items(clause) == ["s"]


def test_reduction_modifiers_and_sections() -> None:
    clause = clean("do reduction(inscan, +: s) reduction(task, max: a(1:n))").directive.clauses
    assert [m.name for m in clause[0].modifiers] == ["inscan"]
    assert [m.name for m in clause[1].modifiers] == ["task"]
    assert item_shape(clause[1].items[0]) == ("a", [], [[("1", "n", None, True)]])


def test_if_with_fortran_operators() -> None:
    clause = clean("target if(target: n .gt. 2 .and. .not. done)").clause("if")
    assert [m.name for m in clause.modifiers] == ["target"] and clause.expr.text == "n .gt. 2 .and. .not. done"
    both = clean("target parallel do if(target: n > 2) if(parallel: n /= 4)").directive
    assert [c.modifiers[0].name for c in both.clauses] == ["target", "parallel"]


def test_depend_shapes() -> None:
    sink = clean("ordered depend(sink: i-1, j)").clause("depend")
    assert [m.name for m in sink.modifiers] == ["sink"] and [e.text for e in sink.exprs] == ["i-1", "j"]
    assert [m.name for m in clean("ordered depend(source)").clause("depend").modifiers] == ["source"]
    it = clean("task depend(iterator(i=1:n), out: a(i))", FREE, 50).clause("depend")
    assert [m.name for m in it.modifiers] == ["iterator", "out"] and items(it) == ["a(i)"]
    inout = clean("task depend(inout: a(1:n), b)").clause("depend")
    assert items(inout) == ["a(1:n)", "b"]


def test_linear_aligned_schedule() -> None:
    lin = clean("do linear(i: 2)").clause("linear")
    assert items(lin) == ["i"] and lin.expr.text == "2"
    ref = clean("declare simd(f) linear(ref(x): 1) uniform(n)").clause("linear")
    assert [m.name for m in ref.modifiers] == ["ref"] and items(ref) == ["x"]
    new = clean("simd linear(x: val, step(2))", FREE, 52).clause("linear")
    assert [m.name for m in new.modifiers] == ["val", "step"]
    al = clean("simd aligned(p: 64)").clause("aligned")
    assert items(al) == ["p"] and al.expr.text == "64"
    sched = clean("do schedule(monotonic: static, 4)").clause("schedule")
    assert [m.name for m in sched.modifiers] == ["monotonic"] and sched.keyword.name == "static"
    dist = clean("distribute dist_schedule(static, 8)").clause("dist_schedule")
    assert dist.keyword.name == "static" and dist.expr.text == "8"


def test_map_modifiers() -> None:
    clause = clean("target map(always, close, present, mapper(mm), iterator(i=1:n), tofrom: a(i))").clause("map")
    assert [m.name for m in clause.modifiers] == ["always", "close", "present", "mapper", "iterator", "tofrom"]
    assert clause.modifier("iterator").args.text == "i=1:n"
    nocomma = clean("target map(always close tofrom: a)").clause("map")
    assert [m.name for m in nocomma.modifiers] == ["always", "close", "tofrom"]


def test_declare_target_clauses() -> None:
    dt = clean("declare target to(f, g) device_type(nohost) indirect").directive
    assert items(dt.clause("to")) == ["f", "g"] and dt.clause("device_type").keyword.name == "nohost"
    enter = clean("declare target enter(x) link(y)", FREE, 52).directive
    assert items(enter.clause("enter")) == ["x"] and items(enter.clause("link")) == ["y"]


def test_declare_variant_selector() -> None:
    parsed = clean('declare variant(base:gpu_v) match(construct={target, parallel}, device={kind(gpu), '
                   'arch("sm_80")}, implementation={vendor(score(5): llvm)}, user={condition(n > 5)})')
    assert [i.name for i in parsed.directive.argument] == ["base", "gpu_v"]
    sets = parsed.clause("match").selector.sets
    assert [s.name for s in sets] == ["construct", "device", "implementation", "user"]
    assert [s.name for s in sets[0].selectors] == ["target", "parallel"]
    assert sets[1].selectors[1].properties[0].name == "sm_80"
    vendor = sets[2].selectors[0]
    assert vendor.score.text == "5" and vendor.properties[0].name == "llvm"
    upper = clean("DECLARE VARIANT(V) MATCH(DEVICE={KIND(GPU)})").clause("match").selector
    assert upper.sets[0].name == "device" and upper.sets[0].selectors[0].properties[0].name == "gpu"


def test_adjust_and_append_args() -> None:
    parsed = clean("declare variant(v) match(construct={dispatch}) adjust_args(need_device_ptr: a, b) "
                   "append_args(interop(targetsync))")
    assert items(parsed.clause("adjust_args")) == ["a", "b"]
    assert [p.text for p in parsed.clause("append_args").interops[0].properties] == ["targetsync"]


def test_uses_allocators_both_forms() -> None:
    old = clean("target uses_allocators(omp_default_mem_alloc, my(tr))").clause("uses_allocators")
    assert [i.name for i in old.items] == ["omp_default_mem_alloc", "my"]
    new = clean("target uses_allocators(traits(tr), memspace(omp_low_lat_mem_space): a)", FREE, 52) \
        .clause("uses_allocators")
    assert [m.name for m in new.modifiers] == ["traits", "memspace"] and items(new) == ["a"]


def test_allocators_and_allocate() -> None:
    parsed = clean("allocators allocate(omp_high_bw_mem_alloc: w)", FREE, 52)
    alloc = parsed.clause("allocate")
    assert [m.args.text for m in alloc.modifiers] == ["omp_high_bw_mem_alloc"] and items(alloc) == ["w"]
    decl = clean("allocate(x, y) allocator(omp_default_mem_alloc)", FREE, 50).directive
    assert [i.name for i in decl.argument] == ["x", "y"]


def test_opaque_declare_reduction_and_mapper() -> None:
    red = clean("declare reduction(mymax: integer: omp_out = max(omp_out, omp_in)) "
                "initializer(omp_priv = -huge(0))").directive
    assert red.argument[0].text == "mymax: integer: omp_out = max(omp_out, omp_in)"
    assert red.clause("initializer").expr.text == "omp_priv = -huge(0)"
    mapper = clean("declare mapper(mm: t :: v) map(v%x, v%y(1:10))").directive
    assert mapper.argument[0].text == "mm: t :: v"
    assert items(mapper.clause("map")) == ["v%x", "v%y(1:10)"]


def test_clauses_separated_by_commas() -> None:
    parsed = clean("parallel do private(i), shared(a), firstprivate(n) , schedule(static)")
    assert [c.name for c in parsed.directive.clauses] == ["private", "shared", "firstprivate", "schedule"]


# ---------------------------------------------------------------- continuation lines

def test_free_form_continuation_spans() -> None:
    src = ("subroutine s(a, n)\n  integer :: n, a(n), i\n"
           "  !$omp target teams distribute parallel do &\n"
           "  !$omp& map(tofrom: a(1:n)) &   ! a comment\n"
           "  !$omp   privte(n)\n"
           "  do i = 1, n\n    a(i) = i\n  end do\nend subroutine s\n")
    result = analyze(Document(src, FREE))
    (d,) = result.directives
    assert d.name == "target teams distribute parallel do"
    b = src.encode()
    assert b[d.clause("map").items[0].span[0]:d.clause("map").items[0].span[1]] == b"a(1:n)"
    (f,) = [f for f in result.findings if f.code in SYNTAX]
    assert f.code == "OMP002" and b[f.span[0]:f.span[1]] == b"privte"


def test_free_form_continuation_inside_a_word() -> None:
    src = ("subroutine s(a, n)\n  integer :: n, a(n), i\n"
           "  !$omp paral&\n  !$omp&lel do privte(i)\n"
           "  do i = 1, n\n    a(i) = i\n  end do\nend subroutine s\n")
    result = analyze(Document(src, FREE))
    (d,) = result.directives
    assert d.name == "parallel do"
    (f,) = [f for f in result.findings if f.code in SYNTAX]
    assert src.encode()[f.span[0]:f.span[1]] == b"privte"


def test_fixed_form_continuation_and_column_72() -> None:
    src = ("      subroutine s(a, n)\n      integer n, a(n), i\n"
           "c$omp target teams distribute parallel do\n"
           "c$omp+ map(tofrom: a(1:n)) privte(n)\n"
           "      do 10 i = 1, n\n   10 a(i) = i\n"
           "C$OMP PARALLEL DO PRIVATE(I) SHARED(A)" + " " * 34 + "PRIVTE(N)\n"
           "      do 20 i = 1, n\n   20 a(i) = 0\n      end\n")
    result = analyze(Document(src, FIXED))
    first, second = result.directives
    assert first.name == "target teams distribute parallel do"
    assert [c.name for c in first.clauses] == ["map", "privte"]
    # Text after column 72 is a comment in fixed form: the second directive is clean.
    assert [c.name for c in second.clauses] == ["private", "shared"]
    (f,) = [f for f in result.findings if f.code in SYNTAX]
    assert f.code == "OMP002" and src.encode()[f.span[0]:f.span[1]] == b"privte"
    assert src.encode().index(b"privte") == f.span[0]


def test_comment_after_a_directive_is_not_a_clause() -> None:
    parsed = parse("parallel do private(i) ! privte(j) is only a comment")
    assert not parsed.findings and [c.name for c in parsed.directive.clauses] == ["private"]


# ---------------------------------------------------------------- diagnostics with their ranges

# (body, version, code, text under the range, message fragment or None)
DIAGNOSTICS = [
    ("decalre target", 51, "OMP001", "decalre target", "did you mean 'declare target'?"),
    ("paralel do", 51, "OMP001", "paralel do", "did you mean 'parallel do'?"),
    ("end paralel do", 51, "OMP001", "end paralel do", "did you mean 'end parallel do'?"),
    ("enddoo", 51, "OMP001", "enddoo", "'end do'"),
    ("targte teams distribute parallel do", 51, "OMP001", "targte teams distribute parallel do",
     "'target teams distribute parallel do'"),
    ("target teams distribute parallel dp", 51, "OMP001", "target teams distribute parallel dp",
     "'target teams distribute parallel do'"),
    ("workshar", 51, "OMP001", "workshar", "'workshare'"),
    ("private(i)", 51, "OMP001", "private", "is a clause"),
    # the C spelling in Fortran
    ("parallel for", 51, "OMP001", "parallel for", "in Fortran write 'parallel do'"),
    ("for", 51, "OMP001", "for", "in Fortran write 'do'"),
    ("for simd", 51, "OMP001", "for simd", "'do simd'"),
    ("target teams distribute parallel for simd", 51, "OMP001", "target teams distribute parallel for simd",
     "in Fortran write 'target teams distribute parallel do simd'"),
    ("PARALLEL FOR PRIVATE(I)", 51, "OMP001", "PARALLEL FOR", "'parallel do'"),
    ("begin declare target", 51, "OMP001", "begin declare target", "Fortran has no delimited form"),
    ("end declare target", 51, "OMP001", "end declare target", "specification part"),
    ("begin declare variant match(device={kind(gpu)})", 51, "OMP001", "begin declare variant", "C/C++ directive"),
    # OMP002
    ("parallel do privte(i)", 51, "OMP002", "privte", "did you mean 'private'?"),
    ("PARALLEL DO PRIVTE(I)", 51, "OMP002", "PRIVTE", "did you mean 'private'?"),
    ("target map(to: a) nowiat", 51, "OMP002", "nowiat", "'nowait'"),
    ("declare target to(f) device_typ(any)", 51, "OMP002", "device_typ", "'device_type'"),
    ("end do nowiat", 51, "OMP002", "nowiat", "'nowait'"),
    # OMP003
    ("parallel do map(to: a)", 51, "OMP003", "map(to: a)", "not allowed on 'parallel do'"),
    ("target num_teams(4)", 51, "OMP003", "num_teams(4)", None),
    ("single reduction(+: s)", 51, "OMP003", "reduction(+: s)", None),
    ("declare target to(f) nowait", 51, "OMP003", "nowait", None),
    ("end parallel nowait", 51, "OMP003", "nowait", "'end parallel'"),
    ("end critical nowait", 51, "OMP003", "nowait", None),
    ("parallel do nowait", 51, "OMP003", "nowait", None),
    ("cancel for", 51, "OMP003", "for", "does not exist in Fortran"),
    ("cancel", 51, "OMP004", "cancel", "needs one of parallel, sections, do or taskgroup"),
    ("cancellation point", 51, "OMP004", "cancellation point", "needs one of parallel"),
    ("cancel do sections", 51, "OMP005", "sections", "takes one of parallel"),
    ("simd if(n > 8)", 45, "OMP003", "if(n > 8)", "OpenMP 5.0"),
    ("target thread_limit(64)", 50, "OMP003", "thread_limit(64)", "OpenMP 5.1"),
    # OMP004
    ("parallel private()", 51, "OMP004", "private()", "empty list"),
    ("parallel private(a,)", 51, "OMP004", ",", "empty list item"),
    ("parallel private(a b)", 51, "OMP004", "a b", "expected ','"),
    ("parallel private(a(1) b)", 51, "OMP004", ") b", "expected ','"),
    ("parallel private(a", 51, "OMP004", "(", "missing ')'"),
    ("target map(tofrom: )", 51, "OMP004", "map(tofrom: )", "empty list"),
    ("target map(toform: a)", 51, "OMP004", "toform", "did you mean 'tofrom'?"),
    ("target map(ToForm: a)", 51, "OMP004", "ToForm", "did you mean 'tofrom'?"),
    ("do reduction(s)", 51, "OMP004", "reduction(s)", "needs a reduction identifier and ':'"),
    ("do reduction(.and. l)", 51, "OMP004", "reduction(.and. l)", "needs a reduction identifier and ':'"),
    ("declare target to(f) device_type(nohostt)", 51, "OMP004", "nohostt", "did you mean 'nohost'?"),
    ("do schedule(statik)", 51, "OMP004", "statik", "did you mean 'static'?"),
    ("parallel default(nonee)", 51, "OMP004", "nonee", "did you mean 'none'?"),
    ("target defaultmap(tofrom scalar)", 51, "OMP004", "tofrom scalar", "expected ':'"),
    ("target if(targte: n > 2)", 51, "OMP004", "targte", "did you mean 'target'?"),
    ("parallel do if(target: n > 2)", 51, "OMP004", "target", "does not name a part of 'parallel do'"),
    ("task depend(ouput: a)", 51, "OMP004", "ouput", "did you mean 'out'?"),
    ("target is_device_ptr(0)", 51, "OMP004", "0", "expected a variable name"),
    ("declare variant(v) match(device={kind()})", 51, "OMP004", "kind()", "empty properties"),
    ("parallel do collapse", 51, "OMP004", "collapse", "needs an argument in parentheses"),
    ("threadprivate", 51, "OMP004", "threadprivate", "needs an argument"),
    # OMP005
    ("end do nowait nowait", 51, "OMP005", "nowait#2", "'nowait' may appear only once on 'end do'"),
    ("target nowait nowait", 51, "OMP005", "nowait#2", None),
    ("target if(target: n .gt. 2) if(target: .true.)", 51, "OMP005", "if(target: .true.)", "'if' with 'target'"),
    ("declare target to(f) device_type(host) device_type(nohost)", 51, "OMP005", "device_type(nohost)", None),
    ("target defaultmap(tofrom: scalar) defaultmap(to: scalar)", 51, "OMP005", "defaultmap(to: scalar)", None),
    ("do collapse(2) collapse(3)", 51, "OMP005", "collapse(3)", None),
    ("end single copyprivate(x) nowait nowait", 51, "OMP005", "nowait#2", None),
    # OMP007
    ("declare target enter(f)", 51, "OMP007", "enter", "needs OpenMP 5.2"),
    ("declare target to(f)", 52, "OMP007", "to", "use 'enter'"),
    ("target has_device_addr(a)", 50, "OMP007", "has_device_addr", "5.1"),
    ("declare target to(f) indirect", 50, "OMP007", "indirect", "5.1"),
    ("allocators allocate(w)", 51, "OMP007", "allocators", "OpenMP 5.2 directive"),
    ("masked", 50, "OMP007", "masked", "OpenMP 5.1 directive"),
    ("target map(present, to: a)", 50, "OMP007", "present", None),
    # OMP009
    ("barrier extra", 51, "OMP009", "extra", "'barrier' takes no clauses"),
    ("taskyield now", 51, "OMP009", "now", None),
    ("end parallel do simd junk", 51, "OMP009", "junk", None),
    ("end atomic x", 51, "OMP009", "x", None),
]


def _expected_span(parsed: Parsed, text: str) -> tuple[int, int]:
    nth = 1
    if "#" in text and text.rsplit("#", 1)[1].isdigit():
        text, n = text.rsplit("#", 1)
        nth = int(n)
    start = parsed.src.lower().index(b"$omp") - 1
    for _ in range(nth):
        start = parsed.src.index(text.encode(), start + 1)
    return start, start + len(text.encode())


@pytest.mark.parametrize("form", FORMS, ids=["free", "fixed"])
@pytest.mark.parametrize("body, version, code, text, message", DIAGNOSTICS,
                         ids=[f"{d[2]}-{d[1]}-{d[0][:50]}" for d in DIAGNOSTICS])
def test_diagnostic_and_its_range(body: str, version: int, code: str, text: str, message: str | None,
                                  form: Language) -> None:
    parsed = parse(body, form, version)
    matching = [f for f in parsed.findings if f.code == code]
    assert len(matching) == 1, parsed.describe()
    finding = matching[0]
    assert finding.span == _expected_span(parsed, text), (parsed.text(finding.span), parsed.describe())
    if message is not None:
        assert message in finding.message
    assert len(parsed.findings) == 1, parsed.describe()


@pytest.mark.parametrize("body, version, code, severity", [
    ("declare target enter(f)", 51, "OMP007", Severity.ERROR),
    ("declare target to(f)", 52, "OMP007", Severity.WARNING),
    ("target has_device_addr(a)", 50, "OMP007", Severity.ERROR),
    ("barrier extra", 51, "OMP009", Severity.WARNING),
    ("parallel for", 51, "OMP001", Severity.ERROR),
    ("masked", 50, "OMP007", Severity.WARNING),   # clang and flang accept a newer directive
])
def test_severity(body: str, version: int, code: str, severity: Severity) -> None:
    (finding,) = parse(body, FREE, version).findings
    assert finding.code == code and finding.effective_severity == severity


def test_an_end_directive_is_not_reported_with_its_construct() -> None:
    assert parse("end masked", FREE, 50).findings == []   # its construct's directive says it


@pytest.mark.parametrize("body, version", [
    ("declare target enter(f)", 52),
    ("declare target to(f)", 51),
    ("declare target (f)", 52),
    ("target has_device_addr(a)", 51),
    ("target parallel do if(target: n > 2) if(parallel: n > 4)", 51),
    ("target defaultmap(tofrom: scalar) defaultmap(to: aggregate)", 51),
    ("do reduction(+: a) reduction(max: m)", 51),
    ("do reduction(.myop.: x)", 51),
    ("end do nowait", 51),
    ("end single copyprivate(x)", 51),
    ("end critical (lock)", 51),
    ("parallel do private(i),", 51),
    ("declare target", 52),
    ("assume absent(target data, parallel do) contains(target teams distribute parallel do)", 51),
])
def test_near_misses_are_clean(body: str, version: int) -> None:
    clean(body, FREE, version)


def test_quick_fix_for_the_c_spelling_is_not_offered_blindly() -> None:
    parsed = parse("paralel do")
    (finding,) = parsed.findings
    (fix,) = finding.fixes
    (((a, b), new),) = fix.edits
    assert parsed.src[a:b] == b"paralel do" and new == "parallel do"


# ---------------------------------------------------------------- valid programs: no finding at all

# Each case was checked with flang-22 -fopenmp -fsyntax-only -fopenmp-version=<v> (fixed form also with
# gfortran -fopenmp -ffixed-form).
VALID = [
    ("saxpy_offload", FREE, 45, r"""
subroutine saxpy(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  real, intent(in) :: a, x(n)
  real, intent(inout) :: y(n)
  integer :: i
  !$omp target teams distribute parallel do simd map(to: x) map(tofrom: y)
  do i = 1, n
    y(i) = a * x(i) + y(i)
  end do
  !$omp end target teams distribute parallel do simd
end subroutine saxpy
"""),
    ("parallel_do_reduction", FREE, 45, r"""
function dot(n, a, b) result(s)
  implicit none
  integer, intent(in) :: n
  double precision, intent(in) :: a(n), b(n)
  double precision :: s
  integer :: i
  s = 0.0d0
  !$omp parallel do reduction(+:s) schedule(static)
  do i = 1, n
    s = s + a(i) * b(i)
  end do
  !$omp end parallel do
end function dot
"""),
    ("parallel_region_worksharing", FREE, 45, r"""
subroutine work(out, n)
  use omp_lib
  implicit none
  integer, intent(in) :: n
  integer, intent(out) :: out(n)
  integer :: i, tid, nthreads
  !$omp parallel private(tid) shared(out) num_threads(4) default(none) firstprivate(n) &
  !$omp& shared(nthreads)
  tid = omp_get_thread_num()
  !$omp do schedule(dynamic, 16)
  do i = 1, n
    out(i) = tid
  end do
  !$omp end do nowait
  !$omp barrier
  !$omp single
  nthreads = omp_get_num_threads()
  !$omp end single
  !$omp master
  out(1) = nthreads
  !$omp end master
  !$omp end parallel
end subroutine work
"""),
    ("sections_critical_atomic", FREE, 45, r"""
subroutine tally(a, n)
  implicit none
  integer, intent(inout) :: a(6)
  integer :: n
  integer :: counter
  common /cnt/ counter
  !$omp parallel
  !$omp sections
  !$omp section
  a(1) = 1
  !$omp section
  a(2) = 2
  !$omp end sections
  !$omp critical (update_counter)
  counter = counter + n
  !$omp end critical (update_counter)
  !$omp atomic update
  a(3) = a(3) + 1
  !$omp atomic read
  n = a(4)
  !$omp atomic write
  a(5) = n
  !$omp atomic capture
  n = a(6)
  a(6) = a(6) + 1
  !$omp end atomic
  !$omp end parallel
end subroutine tally
"""),
    ("workshare", FREE, 45, r"""
subroutine ws(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  !$omp parallel workshare
  a = a + b
  b = 2.0 * b
  !$omp end parallel workshare
  !$omp parallel
  !$omp workshare
  a = a * b
  !$omp end workshare nowait
  !$omp end parallel
end subroutine ws
"""),
    ("tasks_depend", FREE, 45, r"""
subroutine pipeline(a, b, n)
  implicit none
  integer, intent(in) :: n
  integer, intent(inout) :: a(n), b(n)
  integer :: i
  !$omp parallel
  !$omp single
  !$omp task depend(out: a) shared(a)
  do i = 1, n
    a(i) = i
  end do
  !$omp end task
  !$omp task depend(in: a) depend(out: b) untied priority(2) shared(a, b)
  b = a
  !$omp end task
  !$omp taskwait
  !$omp taskyield
  !$omp end single
  !$omp end parallel
end subroutine pipeline
"""),
    ("taskloop", FREE, 45, r"""
subroutine scale(v, n, s)
  implicit none
  integer, intent(in) :: n
  double precision, intent(inout) :: v(n)
  double precision, intent(in) :: s
  integer :: i
  !$omp parallel
  !$omp single
  !$omp taskloop grainsize(64) shared(v) firstprivate(s)
  do i = 1, n
    v(i) = v(i) * s
  end do
  !$omp end taskloop
  !$omp end single
  !$omp end parallel
end subroutine scale
"""),
    ("target_data_jacobi", FREE, 45, r"""
subroutine jacobi(u, unew, n, iters)
  implicit none
  integer, intent(in) :: n, iters
  double precision, intent(inout) :: u(n, n), unew(n, n)
  integer :: i, j, it
  !$omp target data map(tofrom: u) map(alloc: unew)
  do it = 1, iters
    !$omp target teams distribute parallel do collapse(2) thread_limit(256) num_teams(64)
    do j = 2, n - 1
      do i = 2, n - 1
        unew(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
      end do
    end do
    !$omp target teams distribute parallel do collapse(2)
    do j = 2, n - 1
      do i = 2, n - 1
        u(i, j) = unew(i, j)
      end do
    end do
  end do
  !$omp target update from(u(2:n-1, 2:n-1))
  !$omp end target data
end subroutine jacobi
"""),
    ("enter_exit_data", FREE, 45, r"""
subroutine device_buffer(p, n)
  implicit none
  integer, intent(in) :: n
  double precision, allocatable, intent(inout) :: p(:)
  allocate(p(n))
  !$omp target enter data map(alloc: p) if(n > 0) device(0)
  !$omp target exit data map(release: p) depend(inout: p) nowait
  !$omp taskwait
  deallocate(p)
end subroutine device_buffer
"""),
    ("declare_target_module", FREE, 45, r"""
module device_data
  implicit none
  double precision :: table(256)
  integer :: device_counter
  !$omp declare target(table)
  !$omp declare target to(device_counter)
contains
  function square(x) result(y)
    !$omp declare target
    double precision, intent(in) :: x
    double precision :: y
    y = x * x
  end function square
end module device_data
"""),
    ("declare_target_link_common", FREE, 45, r"""
module big_data
  implicit none
  double precision :: big(65536)
  !$omp declare target link(big)
end module big_data

subroutine with_common()
  implicit none
  integer :: cnt
  common /blk/ cnt
  !$omp declare target(/blk/)
end subroutine with_common
"""),
    ("declare_simd", FREE, 45, r"""
function scaled(a, i, s) result(r)
  !$omp declare simd(scaled) uniform(a, s) linear(i: 1) simdlen(8) notinbranch
  real, intent(in) :: a(*)
  integer, value :: i
  real, intent(in) :: s
  real :: r
  r = a(i) * s
end function scaled
"""),
    ("declare_reduction", FREE, 45, r"""
module reductions
  implicit none
  type :: box
    integer :: lo = huge(0), hi = -huge(0)
  end type box
  !$omp declare reduction(merge : box : omp_out = box(min(omp_out%lo, omp_in%lo), max(omp_out%hi, omp_in%hi))) &
  !$omp& initializer(omp_priv = box())
contains
  function bounds(v, n) result(b)
    integer, intent(in) :: n, v(n)
    type(box) :: b
    integer :: i
    !$omp parallel do reduction(merge : b)
    do i = 1, n
      b%lo = min(b%lo, v(i))
      b%hi = max(b%hi, v(i))
    end do
  end function bounds
end module reductions
"""),
    ("threadprivate_copyin", FREE, 45, r"""
module seeds
  implicit none
  integer, save :: seed
  !$omp threadprivate(seed)
end module seeds

subroutine randomize(a, n)
  use seeds
  implicit none
  integer, intent(in) :: n
  integer, intent(out) :: a(n)
  integer :: i
  seed = 42
  !$omp parallel copyin(seed)
  !$omp do
  do i = 1, n
    a(i) = seed + i
  end do
  !$omp end do
  !$omp end parallel
end subroutine randomize
"""),
    ("ordered_and_doacross", FREE, 45, r"""
subroutine wavefront(a, n, m)
  implicit none
  integer, intent(in) :: n, m
  double precision, intent(inout) :: a(n, m)
  integer :: i, j
  !$omp parallel do ordered(2)
  do j = 2, m
    do i = 2, n
      !$omp ordered depend(sink: j-1, i) depend(sink: j, i-1)
      a(i, j) = a(i-1, j) + a(i, j-1)
      !$omp ordered depend(source)
    end do
  end do
  !$omp end parallel do
  !$omp parallel do ordered
  do i = 1, n
    !$omp ordered
    a(i, 1) = a(i, 1) + 1
    !$omp end ordered
  end do
  !$omp end parallel do
end subroutine wavefront
"""),
    ("cancel_search", FREE, 45, r"""
function find(a, n, key) result(found)
  implicit none
  integer, intent(in) :: n, key, a(n)
  integer :: found, i
  found = -1
  !$omp parallel shared(found)
  !$omp do
  do i = 1, n
    if (a(i) == key) then
      !$omp atomic write
      found = i
      !$omp cancel do
    end if
    !$omp cancellation point do
  end do
  !$omp end do
  !$omp end parallel
end function find
"""),
    ("flush_and_logical_reductions", FREE, 50, r"""
subroutine flags(l, a, n)
  implicit none
  integer, intent(in) :: n
  logical, intent(inout) :: l(n)
  integer, intent(inout) :: a(n)
  logical :: all_true, any_true, same
  integer :: i, k
  all_true = .true.
  any_true = .false.
  same = .true.
  k = 0
  !$omp parallel do reduction(.and.: all_true) reduction(.or.: any_true) reduction(.eqv.: same) &
  !$omp& reduction(ieor: k) reduction(max: a)
  do i = 1, n
    all_true = all_true .and. l(i)
    any_true = any_true .or. l(i)
    same = same .eqv. l(i)
    k = ieor(k, i)
  end do
  !$omp flush(l)
  !$omp flush acq_rel
  !$omp flush
end subroutine flags
"""),
    ("loop_and_requires_50", FREE, 50, r"""
subroutine add(n, a, b, c)
  !$omp requires unified_address
  implicit none
  integer, intent(in) :: n
  real, intent(in) :: a(n), b(n)
  real, intent(out) :: c(n)
  integer :: i
  !$omp target teams loop map(to: a, b) map(from: c)
  do i = 1, n
    c(i) = a(i) + b(i)
  end do
  !$omp parallel
  !$omp loop bind(parallel) order(concurrent)
  do i = 1, n
    c(i) = 2 * c(i)
  end do
  !$omp end parallel
end subroutine add
"""),
    ("sections_of_arrays_50", FREE, 50, r"""
subroutine sect(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n, n), b(n)
  !$omp target map(tofrom: a(1:n, 2), b(::2)) map(always, close, to: n)
  a(1, 2) = b(1)
  !$omp end target
  !$omp target enter data map(to: a(:, 1:n:2))
  !$omp target exit data map(delete: a)
end subroutine sect
"""),
    ("derived_type_components_50", FREE, 50, r"""
module grids
  implicit none
  type :: grid
    integer :: n
    double precision, allocatable :: cells(:)
  end type grid
contains
  subroutine offload(g)
    type(grid), intent(inout) :: g
    integer :: i
    !$omp target map(to: g%n) map(tofrom: g%cells(1:g%n))
    do i = 1, g%n
      g%cells(i) = 2 * g%cells(i)
    end do
    !$omp end target
  end subroutine offload
end module grids
"""),
    ("task_reduction_scan_50", FREE, 50, r"""
subroutine prefix(in, out, n)
  implicit none
  integer, intent(in) :: n, in(n)
  integer, intent(out) :: out(n)
  integer :: i, s
  s = 0
  !$omp parallel do reduction(inscan, +: s)
  do i = 1, n
    s = s + in(i)
    !$omp scan inclusive(s)
    out(i) = s
  end do
  !$omp taskgroup task_reduction(+: s)
  !$omp task in_reduction(+: s)
  s = s + 1
  !$omp end task
  !$omp end taskgroup
end subroutine prefix
"""),
    ("declare_variant_50", FREE, 50, r"""
module variants
  implicit none
contains
  subroutine base(a, n)
    !$omp declare variant(gpu_version) match(device={kind(gpu)}, implementation={vendor(llvm)})
    integer, intent(in) :: n
    double precision, intent(inout) :: a(n)
    a = 0
  end subroutine base
  subroutine gpu_version(a, n)
    integer, intent(in) :: n
    double precision, intent(inout) :: a(n)
    a = 1
  end subroutine gpu_version
end module variants
"""),
    ("metadirective_50", FREE, 50, r"""
subroutine vadd(n, a, b)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  real, intent(in) :: b(n)
  integer :: i
  !$omp metadirective when(device={kind(gpu)}: teams distribute parallel do) default(parallel do)
  do i = 1, n
    a(i) = a(i) + b(i)
  end do
end subroutine vadd
"""),
    ("masked_scope_51", FREE, 51, r"""
subroutine m(a, n)
  implicit none
  integer, intent(in) :: n
  integer, intent(inout) :: a(n)
  integer :: k
  !$omp parallel private(k)
  !$omp masked filter(0)
  a(1) = n
  !$omp end masked
  !$omp scope reduction(+: a)
  k = 1
  a(1) = a(1) + k
  !$omp end scope nowait
  !$omp end parallel
end subroutine m
"""),
    ("declare_target_indirect_52", FREE, 52, r"""
module procs
  implicit none
contains
  integer function add_one(x)
    !$omp declare target enter(add_one) device_type(any) indirect
    integer, intent(in) :: x
    add_one = x + 1
  end function add_one
  integer function nohost_only(x)
    !$omp declare target enter(nohost_only) device_type(nohost)
    integer, intent(in) :: x
    nohost_only = 2 * x
  end function nohost_only
end module procs
"""),
    ("has_device_addr_51", FREE, 51, r"""
subroutine run(buf, n)
  implicit none
  integer, intent(in) :: n
  double precision, target, intent(inout) :: buf(n)
  integer :: i
  !$omp target data map(tofrom: buf) use_device_addr(buf)
  !$omp target has_device_addr(buf) map(present, to: n)
  do i = 1, n
    buf(i) = buf(i) + 1
  end do
  !$omp end target
  !$omp end target data
end subroutine run
"""),
    ("atomic_compare_51", FREE, 51, r"""
subroutine minmax(x, v)
  implicit none
  integer, intent(inout) :: x
  integer, intent(in) :: v
  integer :: old
  !$omp atomic compare
  if (x > v) x = v
  !$omp atomic update relaxed hint(0)
  x = x + 1
  !$omp atomic seq_cst read
  old = x
end subroutine minmax
"""),
    ("error_and_tile_51", FREE, 51, r"""
subroutine blocked(a, n, m)
  implicit none
  integer, intent(in) :: n, m
  double precision, intent(inout) :: a(n, m)
  integer :: i, j
  !$omp tile sizes(4, 4)
  do j = 1, m
    do i = 1, n
      a(i, j) = i + j
    end do
  end do
  !$omp unroll partial(4)
  do i = 1, n
    a(i, 1) = 0
  end do
  if (n < 0) then
    !$omp error at(execution) severity(fatal) message("negative size")
  end if
end subroutine blocked
"""),
    ("enter_52", FREE, 52, r"""
module counters
  implicit none
  integer :: counter52
  !$omp declare target enter(counter52)
end module counters
"""),
    ("allocators_52", FREE, 52, r"""
subroutine alloc52(n)
  use omp_lib
  implicit none
  integer, intent(in) :: n
  real, allocatable :: w(:)
  !$omp allocators allocate(omp_high_bw_mem_alloc: w)
  allocate(w(n))
  w = 0
  deallocate(w)
end subroutine alloc52
"""),
    ("fixed_form_classic", FIXED, 45, """
      SUBROUTINE SAXPYF(N, A, X, Y)
      INTEGER N, I
      REAL A, X(N), Y(N)
C$OMP PARALLEL DO PRIVATE(I) SHARED(X, Y)
C$OMP+ SCHEDULE(STATIC)
      DO 10 I = 1, N
         Y(I) = A * X(I) + Y(I)
   10 CONTINUE
C$OMP END PARALLEL DO
!$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TO: X)
!$OMP&MAP(TOFROM: Y)
      DO 20 I = 1, N
         Y(I) = Y(I) + 1.0
   20 CONTINUE
*$OMP BARRIER
      END
"""),
    ("fixed_form_blanks_omitted", FIXED, 45, """
      SUBROUTINE NOBLANK(N, A)
      INTEGER N, I
      REAL A(N)
C$OMP PARALLELDO
      DO 10 I = 1, N
         A(I) = 0.0
   10 CONTINUE
C$OMP ENDPARALLELDO
C$OMP PARALLEL
C$OMP DO
      DO 20 I = 1, N
         A(I) = A(I) + 1.0
   20 CONTINUE
C$OMP ENDDO
C$OMP END PARALLEL
      END
"""),
]


@pytest.mark.parametrize("name, form, version, source", VALID, ids=[v[0] for v in VALID])
def test_valid_code_has_no_findings(name: str, form: Language, version: int, source: str) -> None:
    result = analyze(Document(source, form), Options(openmp_version=version))
    assert not result.internal_errors, result.internal_errors
    src = source.encode()
    found = [(f.code, src[f.span[0]:f.span[1]].decode(), f.message) for f in result.findings]
    assert found == []
    assert result.directives and all(d.spec is not None for d in result.directives)


def test_fixed_form_directive_names() -> None:
    by_name = {v[0]: v for v in VALID}
    result = analyze(Document(by_name["fixed_form_blanks_omitted"][3], FIXED))
    assert [d.name for d in result.directives] == ["parallel do", "end parallel do", "parallel", "do", "end do",
                                                   "end parallel"]
    classic = analyze(Document(by_name["fixed_form_classic"][3], FIXED))
    assert [d.name for d in classic.directives] == ["parallel do", "end parallel do",
                                                    "target teams distribute parallel do", "barrier"]
    assert [c.name for c in classic.directives[0].clauses] == ["private", "shared", "schedule"]
    assert [c.name for c in classic.directives[2].clauses] == ["map", "map"]


def test_valid_corpus_covers_the_versions() -> None:
    assert {v[2] for v in VALID} >= {45, 50, 51, 52}
    assert len(VALID) >= 30
