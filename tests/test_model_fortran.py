"""The Fortran program model: scopes, symbols, storage, specification parts, references."""
from __future__ import annotations

import time

import pytest
from omp_lsp.analysis import Document, analyze
from omp_lsp.analysis.model import (
    AUTOMATIC,
    COMMON,
    ENTRY,
    FUNCTION,
    GENERIC,
    MODULE,
    PROCEDURE,
    PROCEDURE_POINTER,
    STATEMENT_FUNCTION,
    STATIC,
    TYPE,
    FileModel,
    Scope,
    Symbol,
)
from omp_lsp.analysis.syntax import Language


def model_of(text: str, language: Language = Language.FORTRAN) -> tuple[FileModel, bytes]:
    result = analyze(Document(text, language))
    assert not result.internal_errors
    assert result.context is not None
    return result.context.model, result.document.source


def scope(model: FileModel, kind: str, name: str) -> Scope:
    found = [s for s in model.root.walk() if s.kind == kind and s.name.lower() == name.lower()]
    assert len(found) == 1, (kind, name, found)
    return found[0]


def symbol(s: Scope, key: str) -> Symbol:
    found = [y for y in s.symbols if y.key == key]
    assert len(found) == 1, (key, s.symbols)
    return found[0]


def text(src: bytes, span: tuple[int, int]) -> str:
    return src[span[0]:span[1]].decode()


PROGRAM_UNITS = """\
module Shapes
  implicit none
  integer, parameter :: N = 4
  real :: area_total
  type, bind(c) :: point
    real :: x, y
  end type point
  interface norm
    module procedure norm2
  end interface norm
  abstract interface
    real function unary(x)
      real, intent(in) :: x
    end function unary
  end interface
  procedure(unary), pointer :: op => null()
  procedure(unary) :: ext_op
contains
  pure elemental recursive real function norm2(p) result(r)
    type(point), intent(in) :: p
    r = sqrt(p%x**2 + p%y**2)
  end function norm2
end module Shapes

submodule (shapes) shapes_impl
end submodule shapes_impl

block data init
  common /blk/ a
  data a /1.0/
end block data init

subroutine Outer(x) bind(c, name="OuterC")
  use shapes, only: norm
  real :: x
  x = inner(x)
contains
  real function inner(y)
    real :: y
    inner = y
  end function inner
end subroutine Outer
"""


def test_program_units_and_kinds() -> None:
    model, src = model_of(PROGRAM_UNITS)
    shapes = scope(model, "module", "shapes")
    assert shapes.symbol is not None and shapes.symbol.kind == MODULE
    assert scope(model, "submodule", "shapes_impl").parent is model.root
    assert scope(model, "block data", "init").parent is model.root
    assert symbol(shapes, "norm").kind == GENERIC
    assert symbol(shapes, "op").kind == PROCEDURE_POINTER
    assert symbol(shapes, "ext_op").kind == PROCEDURE
    point = symbol(shapes, "point")
    assert point.kind == TYPE and "bind(c)" in point.specifiers
    assert not any(s.key in ("x", "y") for s in shapes.symbols)  # components belong to the type
    assert scope(model, "type", "point").parent is shapes
    norm2 = symbol(shapes, "norm2")
    assert norm2.kind == FUNCTION and norm2.definition and norm2.qualified == "shapes::norm2"
    assert {"pure", "elemental", "recursive"} <= norm2.specifiers
    fn = scope(model, "function", "norm2")
    assert fn.symbol is norm2 and not fn.internal
    assert not any(s.key in ("r", "norm2") for s in fn.symbols)  # the result is not a variable symbol
    unary = next(s for s in model.root.walk() if s.interface_body and s.name == "unary")
    assert unary.parent is not None and unary.parent.kind == "interface"
    assert unary.symbol is not None and unary.symbol.kind == FUNCTION and not unary.symbol.definition
    outer = symbol(model.root, "outer")
    assert outer.bind_name == "OuterC" and text(src, outer.name_span) == "Outer"
    inner = scope(model, "function", "inner")
    assert inner.internal and inner.parent is scope(model, "subroutine", "outer")
    assert scope(model, "subroutine", "outer").uses == ["shapes"]


def test_spec_parts_and_spans() -> None:
    model, src = model_of(PROGRAM_UNITS)
    outer = scope(model, "subroutine", "outer")
    assert outer.spec_part is not None
    assert src[outer.spec_part[1]:].startswith(b"x = inner(x)")
    assert text(src, (outer.span[0], outer.span[0] + 10)) == "subroutine"
    assert src[:outer.span[1]].endswith(b"end subroutine Outer")
    shapes = scope(model, "module", "shapes")
    assert shapes.spec_part is not None and text(src, (shapes.spec_part[1], shapes.spec_part[1] + 8)) == "contains"


STORAGE = """\
module m
  real :: modvar
end module m

subroutine s(dummy)
  real :: dummy
  real :: plain, explicit_save, initialized = 1.0, in_data
  real, save :: attr_save
  real :: in_common, eq1, eq2(2)
  real, parameter :: k = 2.0
  integer, bind(c, name="cname") :: bound
  real, bind(c) :: bound_default
  save explicit_save
  data in_data /3.0/
  common /blk/ in_common
  common only_in_common
  equivalence (eq1, eq2(1))
  plain = dummy
end subroutine s

function f() result(r)
  save
  real :: r, everything
  r = everything
end function f

program main
  real :: main_var
  main_var = 1.0
end program main
"""


def test_storage() -> None:
    model, _ = model_of(STORAGE)
    s = scope(model, "subroutine", "s")
    assert symbol(scope(model, "module", "m"), "modvar").storage == STATIC
    assert symbol(s, "dummy").storage == AUTOMATIC and "dummy" in symbol(s, "dummy").specifiers
    assert symbol(s, "plain").storage == AUTOMATIC
    for key in ("explicit_save", "initialized", "in_data", "attr_save", "in_common", "only_in_common"):
        assert symbol(s, key).storage == STATIC, key
    assert symbol(s, "initialized").initialized and symbol(s, "in_data").initialized
    assert symbol(s, "in_common").common == "blk" and symbol(s, "only_in_common").common == ""
    assert symbol(s, "eq1").equivalenced and symbol(s, "eq2").equivalenced
    assert symbol(s, "k").storage == "" and "parameter" in symbol(s, "k").specifiers
    assert symbol(s, "bound").bind_name == "cname" and symbol(s, "bound_default").bind_name == "bound_default"
    assert {c.key for c in s.symbols if c.kind == COMMON} == {"/blk/", "//"}
    assert symbol(scope(model, "function", "f"), "everything").storage == STATIC
    assert symbol(scope(model, "program", "main"), "main_var").storage == STATIC


def test_entry_and_statement_function() -> None:
    model, _ = model_of("""\
subroutine s(x)
  real :: x, a(3)
  sq(t) = t * t
  a(1) = sq(x)
  return
  entry e2(x)
end subroutine s
""")
    s = scope(model, "subroutine", "s")
    assert symbol(s, "sq").kind == STATEMENT_FUNCTION
    assert symbol(s, "e2").kind == ENTRY
    # `a(1) = ...` is an assignment to an array: the execution part starts there
    assert s.spec_part is not None
    assert model.references and any(r.key == "sq" for r in model.references)


def test_directives_and_spec_part() -> None:
    source = """\
subroutine s(a)
  real :: a(10)
  !$omp declare target(t)
  real, save :: t
  !$omp target
  a = t
  !$omp end target
end subroutine s
"""
    model, src = model_of(source)
    s = scope(model, "subroutine", "s")
    assert s.spec_part is not None
    # the declarative directive stays in the specification part; `!$omp target` ends it
    assert src.find(b"!$omp declare target") < s.spec_part[1] == src.find(b"!$omp target")


def test_references_calls_and_targets() -> None:
    source = """\
module m
  real :: g
contains
  subroutine k(x)
    real :: x
    x = x + g
  end subroutine k
end module m

program p
  use m
  real :: y
  y = 1.0
  !$omp target map(tofrom: y)
  call K(y)
  if (y > 0) call unknown_ext(y)
  !$omp end target
  y = fun(y, kind=3)
end program p
"""
    model, src = model_of(source)
    refs = model.references
    calls = [r for r in refs if r.call]
    assert [(r.key, r.name, r.target is not None) for r in calls] == [("k", "K", True), ("unknown_ext", "unknown_ext", True)]
    assert text(src, calls[0].span) == "K"
    names = {(r.key, r.target is not None) for r in refs if not r.call}
    assert ("g", False) in names and ("y", True) in names and ("y", False) in names
    assert not any(r.key in ("fun", "kind") for r in refs)  # unknown names and keyword arguments


def test_case_insensitive_and_continuations() -> None:
    source = """\
MODULE CaseMod
  REAL :: Alpha, &
          & Beta = 2.0
  !$omp declare target(ALPHA, beta)
END MODULE CaseMod
"""
    model, src = model_of(source)
    m = scope(model, "module", "casemod")
    beta = symbol(m, "beta")
    assert beta.name == "Beta" and text(src, beta.name_span) == "Beta" and beta.initialized
    assert symbol(m, "alpha").qualified == "casemod::alpha"
    assert model.visible("alpha", src.find(b"!$omp"), before=False) == [symbol(m, "alpha")]


def test_fixed_form() -> None:
    source = (
        "      SUBROUTINE OLD(N)\n"
        "      INTEGER N\n"
        "      REAL A, B\n"
        "      COMMON /BLK/ A,\n"
        "     &             B\n"
        "C     a comment\n"
        "      A = N\n"
        "      CALL OTHER(A)\n"
        "      END\n"
    )
    model, src = model_of(source, Language.FORTRAN_FIXED)
    s = scope(model, "subroutine", "old")
    b = symbol(s, "b")
    assert b.common == "blk" and text(src, b.name_span) == "B"
    assert s.spec_part is not None and text(src, (s.spec_part[1], s.spec_part[1] + 5)) == "A = N"
    assert [r.name for r in model.references if r.call] == ["OTHER"]
    assert model.complete


@pytest.mark.parametrize("source", [
    "",
    "end\nend\nend subroutine\n",
    "subroutine s(\n  real :: x &\n",
    "real :: x = 'unterminated\n",
    "module m\ncontains\nsubroutine a\n",
    "type :: t\n integer :: x\n",
    "interface\nsubroutine s()\n",
    "\x00\x01 garbage ((( ))) = = ::\n" * 20,
    "program p\n  x = 1;; y = 2 ;\n  common /\n  equivalence (\n  data x /\nend\n",
    "      PROGRAM P\n     &  X\n",
])
def test_odd_input_does_not_raise(source: str) -> None:
    for language in (Language.FORTRAN, Language.FORTRAN_FIXED):
        model, _ = model_of(source, language)
        assert model.root.kind == "file"
        _ = model.references


def test_unterminated_units_are_incomplete() -> None:
    model, _ = model_of("module m\ncontains\nsubroutine a\n  x = 1\n")
    assert not model.complete
    assert scope(model, "subroutine", "a").spec_part is not None


def test_large_file_is_fast() -> None:
    unit = """\
subroutine work{i}(a, n)
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  real, save :: t{i} = 0.0
  integer :: j
  !$omp declare target(t{i})
  do j = 1, n
    a(j) = a(j) * 2.0 + t{i}
  end do
  call helper(a, n)
end subroutine work{i}
"""
    source = "".join(unit.format(i=i) for i in range(900))   # about 10,000 lines
    document = Document(source, Language.FORTRAN)
    result = analyze(document)
    assert result.context is not None
    start = time.perf_counter()
    from omp_lsp.analysis.model_fortran import build_fortran_model
    model = build_fortran_model(document, result.directives, result.structure)
    elapsed = time.perf_counter() - start
    assert model.complete and len([s for s in model.root.children if s.kind == "subroutine"]) == 900
    assert elapsed < 2.0   # generous: CI machines vary; bench/ tracks the real number
