"""Programs: the workspace partitioned into what links together (analysis/programs.py), and the
device graph's entities kept apart by program."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from omp_lsp.analysis import Document, Language
from omp_lsp.analysis.semantics.programs import LinkFacts, partition, relinked
from omp_lsp.analysis.semantics.propagation import DeviceRow
from omp_lsp.analysis.workspace import analyze_workspace, device_map, workspace_context

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "workspaces"


def _facts(entry: bool = False, defines: tuple[str, ...] = (), needs: tuple[str, ...] = (),
           includes: tuple[str, ...] = ()) -> LinkFacts:
    return LinkFacts(entry, frozenset(defines), frozenset(needs), includes)


def test_one_program_keeps_every_name_as_it_is() -> None:
    programs = partition({"/p/main.c": _facts(True, needs=("f",)), "/p/f.c": _facts(defines=("f",))})
    assert programs.scopes == {"/p/main.c": "", "/p/f.c": ""}
    assert programs.links["/p/main.c"] == {"/p/f.c"}


def test_two_benchmarks_each_link_their_own_definition() -> None:
    facts = {"/b/a/main.c": _facts(True, needs=("init",)), "/b/a/init.c": _facts(defines=("init",)),
             "/b/b/main.c": _facts(True, needs=("init",)), "/b/b/init.c": _facts(defines=("init",))}
    programs = partition(facts)
    assert programs.links["/b/a/main.c"] == {"/b/a/init.c"} and programs.links["/b/b/main.c"] == {"/b/b/init.c"}
    assert programs.scopes["/b/a/main.c"] == programs.scopes["/b/a/init.c"] != programs.scopes["/b/b/init.c"]
    assert not programs.same("/b/a/main.c", "/b/b/init.c")


def test_a_definition_in_another_programs_folder_is_not_linked() -> None:
    # bench a uses init and defines none: bench b's is its own program's, not a's
    facts = {"/b/a/main.c": _facts(True, needs=("init",)), "/b/b/main.c": _facts(True),
             "/b/b/init.c": _facts(defines=("init",))}
    assert partition(facts).links["/b/a/main.c"] == frozenset()


def test_equally_near_definitions_are_ambiguous() -> None:
    facts = {"/p/main.f90": _facts(True, needs=("fortran-module:physics",)),
             "/p/physics_cpu.f90": _facts(defines=("fortran-module:physics",)),
             "/p/physics_gpu.f90": _facts(defines=("fortran-module:physics",))}
    programs = partition(facts)
    assert programs.links["/p/main.f90"] == frozenset()
    assert programs.ambiguous["/p/main.f90"] == {"fortran-module:physics": ("/p/physics_cpu.f90", "/p/physics_gpu.f90")}
    # the compile database decides
    decided = partition(facts, lambda p: not p.endswith("gpu.f90"))
    assert decided.links["/p/main.f90"] == {"/p/physics_cpu.f90"}


def test_the_nearest_definition_wins() -> None:
    facts = {"/p/app/main.c": _facts(True, needs=("solve",)), "/p/app/solve.c": _facts(defines=("solve",)),
             "/p/lib/solve.c": _facts(defines=("solve",))}
    assert partition(facts).links["/p/app/main.c"] == {"/p/app/solve.c"}


def test_entry_points_never_link_to_each_other() -> None:
    facts = {"/t/test1.c": _facts(True, defines=("helper",), needs=("check",)),
             "/t/test2.c": _facts(True, defines=("check",), needs=("helper",))}
    programs = partition(facts)
    assert programs.links == {"/t/test1.c": frozenset(), "/t/test2.c": frozenset()}
    assert programs.scopes["/t/test1.c"] != programs.scopes["/t/test2.c"]


def test_a_library_file_links_to_an_entry_only_where_it_is_the_only_one() -> None:
    alone = {"/p/main.c": _facts(True, defines=("report",)), "/p/solver.c": _facts(needs=("report",))}
    assert partition(alone).links["/p/solver.c"] == {"/p/main.c"}
    suite = {"/s/t1.c": _facts(True, defines=("init",)), "/s/t2.c": _facts(True),
             "/s/snippet.c": _facts(needs=("init",))}
    assert partition(suite).links["/s/snippet.c"] == frozenset()


def test_headers_belong_to_the_programs_that_include_them() -> None:
    facts = {"/b/a/main.c": _facts(True, includes=("/b/a/k.h", "/b/common.h")), "/b/a/k.h": _facts(),
             "/b/b/main.c": _facts(True, includes=("/b/common.h",)), "/b/common.h": _facts()}
    programs = partition(facts)
    assert programs.scopes["/b/a/k.h"] == programs.scopes["/b/a/main.c"]
    assert programs.scopes["/b/common.h"].startswith("header:")
    assert programs.same("/b/common.h", "/b/a/main.c") and programs.same("/b/common.h", "/b/b/main.c")
    assert programs.same_unit("/b/a/k.h", "/b/common.h") and not programs.same_unit("/b/a/k.h", "/b/b/main.c")


def test_entities_of_two_programs_never_meet() -> None:
    folder = FIXTURES / "programs_two_benchmarks"
    documents = {str(p): Document(p.read_text(), Language.C) for p in sorted(folder.rglob("*.c"))}
    analyses = analyze_workspace(documents)
    graph = workspace_context(analyses).device_graph
    inits = [e for e in graph.entities.values() if e.name == "init"]
    assert len(inits) == 2 and all(len(e.definitions) == 1 for e in inits)
    marked = {e.definitions[0][0].split("/")[-2]: bool(e.marks) for e in inits}
    assert marked == {"bench_a": False, "bench_b": True}


def test_the_device_map_says_where_an_ambiguous_name_is_defined() -> None:
    folder = FIXTURES / "programs_module_variants"
    out = subprocess.run([sys.executable, "-m", "omp_lsp", "--device-map", str(folder)], capture_output=True,
                         text=True, check=True).stdout
    rows = [line for line in out.splitlines() if " flux " in line]
    assert len(rows) == 2 and all("(defined in physics_cpu.F90 and in physics_gpu.F90)" in r for r in rows)
    decided = subprocess.run([sys.executable, "-m", "omp_lsp", "--device-map", str(FIXTURES / "programs_module_variants_db")],
                             capture_output=True, text=True, check=True).stdout
    assert "defined in" not in decided


def test_a_header_reads_its_includers_names() -> None:
    facts = {"/p/main.c": _facts(True, includes=("/p/body.h", "/p/util.h")), "/p/util.h": _facts(),
             "/p/body.h": LinkFacts(False, frozenset(), frozenset(), ("/p/inner.h",), "/p/main.c"),
             "/p/inner.h": _facts()}
    programs = partition(facts)
    assert programs.visible("/p/body.h") == ("/p/inner.h", "/p/main.c", "/p/util.h")
    assert programs.visible("/p/main.c") == ("/p/body.h", "/p/util.h")
    assert programs.readers("/p/main.c") == {"/p/body.h"}


def test_a_fragment_in_a_target_region_is_device_code() -> None:
    # the kernel of header_fragment calls a static function of its includer: device code there
    rows = {r.name: r for r in _device_map(FIXTURES / "header_fragment")}
    assert rows["scale"].device_type == "any" and not rows["scale"].explicit
    # a whole fragment included inside a target construct: what it calls is device code, a
    # fragment in host code (a target data region) makes nothing device code
    rows = {r.name: r for r in _device_map(FIXTURES / "header_fragment_target")}
    assert {n for n, r in rows.items() if r.device_type == "any"} == {"half", "smooth"}
    assert rows["half"].chain[0].label == "target region in relax"


def _device_map(folder: Path) -> list[DeviceRow]:
    documents = {str(p): Document(p.read_text(), Language.C) for p in sorted(folder.iterdir())}
    return device_map(documents)


def test_a_use_inside_its_program_is_linked_without_partitioning_again() -> None:
    facts = {"/b/a/main.c": _facts(True, needs=("init",)), "/b/a/init.c": _facts(defines=("init", "step")),
             "/b/a/io.c": _facts(defines=("report",), needs=("init",)),
             "/b/b/main.c": _facts(True, needs=("setup",)), "/b/b/setup.c": _facts(defines=("setup",)),
             "/b/lib/util.c": _facts(defines=("clamp",))}
    programs = partition(facts)
    # a new call of a function its program's file defines, then one of another file of its program
    for needs in (("init", "step"), ("init", "step", "report")):
        changed = {**facts, "/b/a/main.c": _facts(True, needs=needs)}
        again = relinked(programs, "/b/a/main.c", changed["/b/a/main.c"])
        fresh = partition(changed)
        assert again is not None
        assert (again.scopes, again.links, again.ambiguous) == (fresh.scopes, fresh.links, fresh.ambiguous)
    # a call of a file no program held yet (it joins), a call removed, a new definition: partitioned again
    assert relinked(programs, "/b/a/main.c", _facts(True, needs=("init", "clamp"))) is None
    assert relinked(programs, "/b/a/main.c", _facts(True)) is None
    assert relinked(programs, "/b/a/io.c", _facts(defines=("report", "flush"), needs=("init",))) is None


def test_only_programs_that_share_a_name_keep_their_keys_apart() -> None:
    facts = {"/b/a/main.c": _facts(True, needs=("init",)), "/b/a/init.c": _facts(defines=("init",)),
             "/b/b/main.c": _facts(True, needs=("init",)), "/b/b/init.c": _facts(defines=("init",)),
             "/b/c/main.c": _facts(True, needs=("solve",)), "/b/c/solve.c": _facts(defines=("solve",))}
    programs = partition(facts)
    assert programs.keys["/b/a/init.c"] == programs.scopes["/b/a/init.c"] != ""
    assert programs.keys["/b/c/main.c"] == programs.keys["/b/c/solve.c"] == ""
    # still a program of its own (the rules that compare files of one program keep them apart)
    assert not programs.same("/b/c/main.c", "/b/a/main.c")
    # a use of a name another program defines makes its keys its program's
    changed = {**facts, "/b/c/main.c": _facts(True, needs=("solve", "init"))}
    assert relinked(programs, "/b/c/main.c", changed["/b/c/main.c"]) is None
    assert partition(changed).keys["/b/c/main.c"] != ""
