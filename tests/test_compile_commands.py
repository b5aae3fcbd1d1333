"""compile_commands.json: finding, loading, flags and include resolution (analysis/compile_commands.py)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from omp_lsp.analysis.syntax.compile_commands import (
    CompileCommandsError,
    CompileDatabase,
    CompileEntry,
    build_flags,
    defines,
    find_compile_commands,
    include_dirs,
    load_compile_commands,
    openmp_enabled,
    openmp_version,
    resolve_include,
)

# ---------------------------------------------------------------- helpers

def write_db(folder: Path, entries: object, name: str = "compile_commands.json") -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(entries))
    return str(path)


def touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("")
    return path


def entry(db: CompileDatabase, index: int = 0) -> CompileEntry:
    return db.entries[index]


def load_one(tmp_path: Path, **fields: object) -> CompileEntry:
    item = {"directory": str(tmp_path), "file": "a.c", **fields}
    db = load_compile_commands(write_db(tmp_path, [item]))
    assert len(db.entries) == 1
    return db.entries[0]


# ---------------------------------------------------------------- arguments and command

def test_arguments_form(tmp_path: Path) -> None:
    e = load_one(tmp_path, arguments=["clang", "-fopenmp", "-fopenmp-version=52", "-c", "a.c"])
    assert e.file == str(tmp_path / "a.c")
    assert e.directory == str(tmp_path)
    assert e.arguments == ("clang", "-fopenmp", "-fopenmp-version=52", "-c", "a.c")
    assert e.openmp and e.openmp_version == 52


def test_command_form_is_split_like_a_shell_without_running_one(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    command = f"cc -DMSG='\"two words\"' -I 'inc dir' -c a.c; touch {marker} $(touch {marker})"
    e = load_one(tmp_path, command=command)
    assert e.arguments[:5] == ("cc", "-DMSG=\"two words\"", "-I", "inc dir", "-c")
    assert e.include_dirs == (str(tmp_path / "inc dir"),)
    assert e.defines == ("MSG",)
    assert not marker.exists()


def test_arguments_win_over_command(tmp_path: Path) -> None:
    e = load_one(tmp_path, arguments=["cc", "-DA"], command="cc -DB")
    assert e.defines == ("A",)


def test_output_field_is_ignored(tmp_path: Path) -> None:
    e = load_one(tmp_path, arguments=["cc", "-c", "a.c"], output="a.o")
    assert e.file == str(tmp_path / "a.c")


# ---------------------------------------------------------------- paths

def test_relative_file_resolves_against_directory(tmp_path: Path) -> None:
    build = tmp_path / "build"
    db = load_compile_commands(write_db(tmp_path, [
        {"directory": str(build), "file": "../src/./x.cpp", "arguments": ["c++", "-Iinc", "-I../include"]},
    ]))
    e = entry(db)
    assert e.file == str(tmp_path / "src" / "x.cpp")
    assert e.include_dirs == (str(build / "inc"), str(tmp_path / "include"))


def test_absolute_file_is_kept_and_normalised(tmp_path: Path) -> None:
    e = load_one(tmp_path, file=str(tmp_path / "sub" / ".." / "b.f90"), arguments=["gfortran"])
    assert e.file == str(tmp_path / "b.f90")


def test_relative_directory_is_relative_to_the_database(tmp_path: Path) -> None:
    db = load_compile_commands(write_db(tmp_path / "build", [
        {"directory": "..", "file": "a.c", "arguments": ["cc"]},
    ]))
    assert entry(db).directory == str(tmp_path)
    assert entry(db).file == str(tmp_path / "a.c")


def test_relative_database_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_db(tmp_path, [{"directory": ".", "file": "a.c", "arguments": ["cc"]}])
    monkeypatch.chdir(tmp_path)
    db = load_compile_commands("compile_commands.json")
    assert db.files() == [str(tmp_path / "a.c")]


# ---------------------------------------------------------------- include options

def test_include_forms(tmp_path: Path) -> None:
    flags = ["-Ia", "-I", "b", "-iquote", "q1", "-iquoteq2", "-isystem", "s1", "-isystems2",
             "-idirafter", "after", "--include-directory=long", "-I", str(tmp_path / "abs")]
    d = str(tmp_path)
    # -iquote first, then -I, -isystem, -idirafter: the order `#include "..."` searches them
    assert include_dirs(flags, d) == tuple(os.path.join(d, x) for x in (
        "q1", "q2", "a", "b", "long", "abs", "s1", "s2", "after"))


def test_include_lookalikes_and_odd_forms_are_not_directories(tmp_path: Path) -> None:
    flags = ["-include", "pre.h", "-imacros", "m.h", "-isysroot", "/sdk", "-I-", "-Ia", "-Ia", "-I"]
    assert include_dirs(flags, str(tmp_path)) == (str(tmp_path / "a"),)


def test_compiler_name_is_not_read_as_a_flag(tmp_path: Path) -> None:
    e = load_one(tmp_path, arguments=["-Iweird-compiler", "-c", "a.c"])
    assert e.include_dirs == ()


# ---------------------------------------------------------------- OpenMP flags

@pytest.mark.parametrize(("flag", "version"), [
    ("-fopenmp-version=51", 51),
    ("-fopenmp-version=5.1", 51),
    ("-fopenmp-version=52", 52),
    ("-fopenmp-version=5.2", 52),
    ("-fopenmp-version=45", 45),
    ("-fopenmp-version=4.5", 45),
    ("-fopenmp-version=60", 60),
    ("-fopenmp-version=5", 50),
    ("-fopenmp-version=", None),
    ("-fopenmp-version=abc", None),
    ("-fopenmp-version=40", None),
    ("-fopenmp-version=99", None),
    ("-fopenmp-version=nan", None),
    ("-fopenmp-version=inf", None),
    ("-fopenmp-version=-1", None),
    ("-fopenmp", None),
])
def test_version_variants(flag: str, version: int | None) -> None:
    assert openmp_version([flag]) == version


def test_last_version_flag_wins() -> None:
    assert openmp_version(["-fopenmp-version=45", "-fopenmp-version=52"]) == 52
    assert openmp_version(["-fopenmp-version=52", "-fopenmp-version=bad"]) is None


@pytest.mark.parametrize(("flags", "enabled"), [
    (["-fopenmp"], True),
    (["-fopenmp=libomp"], True),
    (["-fopenmp-simd"], True),
    (["-fiopenmp"], True),
    (["-qopenmp"], True),
    (["-mp"], True),
    (["-mp=gpu"], True),
    (["-Xclang", "-fopenmp"], True),
    ([], False),
    (["-O2", "-march=native"], False),
    (["-mprefer-vector-width=512"], False),
    (["-fopenmp", "-fno-openmp"], False),
    (["-fno-openmp", "-fopenmp"], True),
])
def test_openmp_flags(flags: list[str], enabled: bool) -> None:
    assert openmp_enabled(flags) is enabled


def test_defines() -> None:
    flags = ["-DA", "-D", "B", "-DC=1", "-DD=x=y", "-DF(x)=x", "-DA", "-UC", "--define-macro=G",
             "--define-macro", "H", "-D=", "-D"]
    assert defines(flags) == ("A", "B", "D", "F", "G", "H")


def test_build_flags_keep_what_the_source_means_with_values_and_absolute_folders() -> None:
    flags = ["cc", "-DN=3", "-D", "F(x)=x", "--define-macro=G=1", "-UOLD", "-Iinc", "-I-", "-isystem", "/sys",
             "-iquote", "q", "-include", "pre.h", "-std=c99", "-O2", "-fopenmp", "-fopenmp-targets=nvptx64",
             "-c", "a.c", "-o", "a.o", "-std=gnu17", "-Wall"]
    assert build_flags(flags, "/proj") == ("-DN=3", "-DF(x)=x", "-DG=1", "-UOLD", "-I", "/proj/inc", "-isystem", "/sys",
                                           "-iquote", "/proj/q", "-include", "/proj/pre.h", "-std=gnu17")


# ---------------------------------------------------------------- errors

def error_for(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "compile_commands.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    with pytest.raises(CompileCommandsError) as info:
        load_compile_commands(str(path))
    message = str(info.value)
    assert str(path) in message and "\n" not in message
    return message


def test_missing_file(tmp_path: Path) -> None:
    path = str(tmp_path / "nope" / "compile_commands.json")
    with pytest.raises(CompileCommandsError, match="cannot read") as info:
        load_compile_commands(path)
    assert path in str(info.value)
    assert isinstance(info.value, ValueError)


def test_directory_instead_of_file(tmp_path: Path) -> None:
    with pytest.raises(CompileCommandsError, match="cannot read"):
        load_compile_commands(str(tmp_path))


@pytest.mark.parametrize(("text", "expected"), [
    ("", "invalid JSON at line 1"),
    ('[{"file": "a.c",}]', "invalid JSON at line 1"),
    ("[\n  {\n  oops", "invalid JSON at line 3"),
    (b"\xff\xfe\xfa[", "invalid JSON"),
    ("[" * 100_000 + "]" * 100_000, "invalid JSON"),
    ("{}", "expected a JSON list of compile commands, found an object"),
    ('"x"', "found a string"),
    ("3", "found a number"),
    ("null", "found null"),
    ("[3]", "entry 1: expected an object, found a number"),
    ('[{"file": "a.c", "arguments": ["cc"]}]', 'entry 1: missing "directory"'),
    ('[{"directory": "/", "arguments": ["cc"]}]', 'entry 1: missing "file"'),
    ('[{"directory": "/", "file": 3, "arguments": ["cc"]}]', '"file" is not a non-empty string'),
    ('[{"directory": "", "file": "a.c", "arguments": ["cc"]}]', '"directory" is not a non-empty string'),
    ('[{"directory": "/", "file": "a.c", "arguments": ["cc"]}, {"directory": "/", "file": "b.c"}]',
     'entry 2: has neither "arguments" nor "command"'),
    ('[{"directory": "/", "file": "a.c", "arguments": "cc -c"}]', '"arguments" is not a list of strings'),
    ('[{"directory": "/", "file": "a.c", "arguments": ["cc", 1]}]', '"arguments" is not a list of strings'),
    ('[{"directory": "/", "file": "a.c", "command": ["cc"]}]', '"command" is not a string'),
    ('[{"directory": "/", "file": "a.c", "command": "cc \'-DX"}]', 'cannot split "command"'),
])
def test_errors_are_clear_one_liners(tmp_path: Path, text: str | bytes, expected: str) -> None:
    assert expected in error_for(tmp_path, text)


def test_empty_list_is_an_empty_program(tmp_path: Path) -> None:
    db = load_compile_commands(write_db(tmp_path, []))
    assert db.entries == () and db.files() == [] and db.openmp_version() is None


# ---------------------------------------------------------------- which files

def test_non_source_entries_are_skipped(tmp_path: Path) -> None:
    items = [{"directory": str(tmp_path), "file": name, "arguments": ["cc"]}
             for name in ("a.c", "b.s", "c.cu", "d.F90", "e.o", "f.cc", "g", "h.f")]
    db = load_compile_commands(write_db(tmp_path, items))
    assert [os.path.basename(f) for f in db.files()] == ["a.c", "d.F90", "f.cc", "h.f"]


def test_non_source_entries_are_skipped_before_their_command_is_checked(tmp_path: Path) -> None:
    db = load_compile_commands(write_db(tmp_path, [{"directory": str(tmp_path), "file": "x.s"}]))
    assert db.entries == ()


def test_duplicate_entries(tmp_path: Path) -> None:
    d = str(tmp_path)
    db = load_compile_commands(write_db(tmp_path, [
        {"directory": d, "file": "a.c", "arguments": ["cc", "-DFIRST"]},
        {"directory": d, "file": "b.c", "arguments": ["cc"]},
        {"directory": d, "file": "./a.c", "arguments": ["cc", "-DSECOND"]},
        {"directory": d, "file": "a.c", "arguments": ["cc", "-DFIRST"]},
    ]))
    assert len(db.entries) == 4
    assert db.files() == [str(tmp_path / "a.c"), str(tmp_path / "b.c")]
    found = db.entry_for(str(tmp_path / "a.c"))
    assert found is not None and found.defines == ("FIRST",)


def test_entry_for_normalises_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "src").mkdir()
    db = load_compile_commands(write_db(tmp_path, [
        {"directory": str(tmp_path), "file": "src/a.c", "arguments": ["cc"]},
    ]))
    assert db.entry_for(str(tmp_path / "src" / "a.c")) is db.entries[0]
    assert db.entry_for(str(tmp_path / "src" / "." / ".." / "src" / "a.c")) is db.entries[0]
    monkeypatch.chdir(tmp_path / "src")
    assert db.entry_for("a.c") is db.entries[0]
    assert db.entry_for(str(tmp_path / "src" / "b.c")) is None
    assert db.entry_for("") is None


def test_entry_for_through_a_symbolic_link(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    touch(real / "a.c")
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    db = load_compile_commands(write_db(tmp_path, [{"directory": str(real), "file": "a.c", "arguments": ["cc"]}]))
    assert db.entry_for(str(tmp_path / "link" / "a.c")) is db.entries[0]


def test_database_is_a_frozen_hashable_record(tmp_path: Path) -> None:
    path = write_db(tmp_path, [{"directory": str(tmp_path), "file": "a.c", "arguments": ["cc"]}])
    one, two = load_compile_commands(path), load_compile_commands(path)
    assert one == two and hash(one) == hash(two)
    with pytest.raises(AttributeError):
        one.entries = ()  # type: ignore[misc]


# ---------------------------------------------------------------- program-wide version

def version_of(tmp_path: Path, flags: list[list[str]]) -> int | None:
    items = [{"directory": str(tmp_path), "file": f"f{i}.c", "arguments": ["cc", *f]} for i, f in enumerate(flags)]
    return load_compile_commands(write_db(tmp_path, items)).openmp_version()


def test_program_version_agreement(tmp_path: Path) -> None:
    assert version_of(tmp_path, [["-fopenmp-version=52"], ["-fopenmp"], ["-fopenmp-version=5.2"]]) == 52


def test_program_version_most_common(tmp_path: Path) -> None:
    assert version_of(tmp_path, [["-fopenmp-version=45"], ["-fopenmp-version=52"], ["-fopenmp-version=52"]]) == 52


def test_program_version_tie_takes_the_first_seen(tmp_path: Path) -> None:
    assert version_of(tmp_path, [["-fopenmp-version=60"], ["-fopenmp-version=50"]]) == 60


def test_program_version_none(tmp_path: Path) -> None:
    assert version_of(tmp_path, [["-fopenmp"], ["-fopenmp-version=bad"]]) is None


# ---------------------------------------------------------------- finding the database

def test_find_in_the_directory_and_from_a_file(tmp_path: Path) -> None:
    db = write_db(tmp_path, [])
    source = touch(tmp_path / "a.c")
    assert find_compile_commands(str(tmp_path)) == db
    assert find_compile_commands(str(source)) == db


def test_find_in_build_subfolder(tmp_path: Path) -> None:
    db = write_db(tmp_path / "build", [])
    assert find_compile_commands(str(tmp_path)) == db
    assert find_compile_commands(str(touch(tmp_path / "a.c"))) == db


def test_directory_wins_over_its_build_subfolder(tmp_path: Path) -> None:
    top = write_db(tmp_path, [])
    write_db(tmp_path / "build", [])
    assert find_compile_commands(str(tmp_path)) == top


def test_find_walks_up(tmp_path: Path) -> None:
    db = write_db(tmp_path / "build", [])
    deep = tmp_path / "src" / "lib" / "detail"
    source = touch(deep / "x.cpp")
    assert find_compile_commands(str(deep)) == db
    assert find_compile_commands(str(source)) == db
    nearer = write_db(tmp_path / "src", [])
    assert find_compile_commands(str(source)) == nearer


def test_find_for_a_file_that_does_not_exist_yet(tmp_path: Path) -> None:
    db = write_db(tmp_path, [])
    assert find_compile_commands(str(tmp_path / "new.c")) == db


def test_find_ignores_a_directory_named_like_the_database(tmp_path: Path) -> None:
    db = write_db(tmp_path, [])
    (tmp_path / "proj" / "compile_commands.json").mkdir(parents=True)
    (tmp_path / "proj" / "build" / "compile_commands.json").mkdir(parents=True)
    assert find_compile_commands(str(tmp_path / "proj")) == db


def test_find_stops_after_twenty_levels(tmp_path: Path) -> None:
    write_db(tmp_path, [])
    deep = tmp_path.joinpath(*["d"] * 25)
    deep.mkdir(parents=True)
    assert find_compile_commands(str(deep)) is None
    assert find_compile_commands(str(tmp_path.joinpath(*["d"] * 20))) == str(tmp_path / "compile_commands.json")


# ---------------------------------------------------------------- resolving includes

def include_entry(tmp_path: Path, flags: list[str]) -> CompileEntry:
    return load_one(tmp_path, file="src/a.c", arguments=["cc", *flags])


def test_resolve_include_order(tmp_path: Path) -> None:
    source = touch(tmp_path / "src" / "a.c")
    e = include_entry(tmp_path, ["-Iinc1", "-Iinc2", "-iquote", "quote"])
    touch(tmp_path / "inc2" / "h.h")
    assert resolve_include("h.h", str(source), e) == str(tmp_path / "inc2" / "h.h")
    touch(tmp_path / "inc1" / "h.h")
    assert resolve_include("h.h", str(source), e) == str(tmp_path / "inc1" / "h.h")
    touch(tmp_path / "quote" / "h.h")
    assert resolve_include("h.h", str(source), e) == str(tmp_path / "quote" / "h.h")
    touch(tmp_path / "src" / "h.h")  # the including file's own directory comes first
    assert resolve_include("h.h", str(source), e) == str(tmp_path / "src" / "h.h")


def test_resolve_include_subdirectories_and_parents(tmp_path: Path) -> None:
    source = touch(tmp_path / "src" / "a.c")
    e = include_entry(tmp_path, ["-Iinclude"])
    touch(tmp_path / "include" / "lib" / "api.h")
    touch(tmp_path / "common.h")
    assert resolve_include("lib/api.h", str(source), e) == str(tmp_path / "include" / "lib" / "api.h")
    assert resolve_include("../common.h", str(source), e) == str(tmp_path / "common.h")


def test_resolve_include_without_an_entry(tmp_path: Path) -> None:
    source = touch(tmp_path / "a.c")
    touch(tmp_path / "inc" / "h.h")
    assert resolve_include("h.h", str(source), None) is None
    touch(tmp_path / "h.h")
    assert resolve_include("h.h", str(source), None) == str(tmp_path / "h.h")


def test_resolve_include_absolute_missing_and_odd(tmp_path: Path) -> None:
    source = touch(tmp_path / "a.c")
    header = touch(tmp_path / "abs.h")
    (tmp_path / "dir.h").mkdir()
    assert resolve_include(str(header), str(source), None) == str(header)
    assert resolve_include(str(tmp_path / "gone.h"), str(source), None) is None
    assert resolve_include("missing.h", str(source), None) is None
    assert resolve_include("dir.h", str(source), None) is None  # a directory is not a header
    assert resolve_include("", str(source), None) is None
    assert resolve_include("a\0b.h", str(source), None) is None
