"""Device-type propagation checked against what the reference compiler puts on the device.

Every program under tests/fixtures/device_programs/ (a single C or C++ file, or a folder
holding a multi-file program) is built with offloading to the host architecture,
`clang-22 -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu` (clang++-22 for C++), and
run. The device image of each compiled file is the offloading section of the fat object;
`clang-offload-packager` (llvm-offload-binary) extracts it and `llvm-nm --defined-only -f
sysv` lists its functions (FUNC) and variables (OBJECT), demangled by `llvm-cxxfilt -p`
and reduced to the names a user writes (`geom::dot`, `Particle::kinetic`, a template
without its arguments, a static local by its own name). Compiler-generated symbols
(kernels, outlined regions, offload entry tables, C++ runtime support) are ignored: see
IGNORED_PREFIXES.

The test asserts that the procedures and static variables omp-lsp's device map puts on
the device (`device_type` any or nohost) are exactly the ones whose device symbols clang
defines. The program under tests/device_link_fails/ calls, from device code, a function
defined in another file without declare target: its device link must fail with an
undefined reference to that function, the device map must count that function as needed
on the device (it is the set of defined symbols plus those whose absence breaks the link),
and omp-lsp must report OMP403 on the call. That program lives outside tests/fixtures/
because test_fixtures.py requires unannotated files to be clean.

The programs are valid OpenMP 5.1 (clang 22 rejects `device(ancestor: ...)`, so none is
used) and omp-lsp reports nothing on them (tests/test_fixtures.py checks that).

Compilers missing: the tests skip, except when the CI environment variable is set, where
they fail.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from omp_lsp.analysis import Document, language_for_path
from omp_lsp.analysis.workspace import analyze_workspace, device_map

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS_DIR = ROOT / "tests" / "fixtures" / "device_programs"
LINK_FAILS_DIR = ROOT / "tests" / "device_link_fails"

TRIPLE = "x86_64-unknown-linux-gnu"
LLVM_VERSION = "22"
TIMEOUT = 60          # seconds, per compiler or program run
WORKERS = 2

C_UNITS = {".c"}
CPP_UNITS = {".cpp", ".cc", ".cxx"}
ON_DEVICE = ("any", "nohost")

# Device symbols that do not stand for a procedure or variable of the program.
IGNORED_PREFIXES = (
    ".",                        # .offloading.entry.*, .LCPI* constants, .L.str literals
    "__omp_offloading_",        # target region kernels and their outlined parallel bodies
    "__omp_outlined",           # outlined parallel regions
    "__kmpc_",                  # OpenMP device runtime
    "__tgt_",                   # offloading runtime
    "__clang_call_terminate",   # C++ exception support
    "__cxx_global_var_init",    # C++ dynamic initialisation
    "__cxx_global_array_dtor",
    "_GLOBAL__",                # static initialisers, anonymous-namespace prefixes
    "__dso_handle",
    "DW.ref.",                  # personality routine references of exception tables
    "GCC_except_table",
    "llvm.",
    "__llvm",
)
# The same, for demangled C++ names.
IGNORED_DEMANGLED_PREFIXES = (
    "guard variable for ", "vtable for ", "VTT for ", "construction vtable for ", "typeinfo for ",
    "typeinfo name for ", "reference temporary ", "TLS wrapper function for ", "TLS init function for ",
)
IGNORED_FRAGMENTS = (
    ".omp_outlined",            # <kernel>.omp_outlined.omp_outlined
    "{lambda",                  # closures: omp-lsp does not list lambdas
    "$_",                       # clang's names of closure types
)


# -- the programs --------------------------------------------------------------------------

@dataclass(frozen=True)
class Program:
    name: str                   # relative to its folder: `heat1d.c`, `two_files`
    files: tuple[Path, ...]     # every source file, headers included (what omp-lsp reads)

    @property
    def units(self) -> tuple[Path, ...]:
        """The translation units the compiler builds."""
        return tuple(p for p in self.files if p.suffix in C_UNITS | CPP_UNITS)

    @property
    def cpp(self) -> bool:
        return any(p.suffix in CPP_UNITS for p in self.units)


def _programs(base: Path) -> list[Program]:
    """Each C/C++ file directly under `base` is a program; so is each folder (all its files)."""
    out = []
    for entry in sorted(base.iterdir()) if base.is_dir() else []:
        if entry.is_dir():
            files = tuple(sorted(p for p in entry.rglob("*") if p.is_file() and language_for_path(p) is not None))
            if files:
                out.append(Program(entry.name, files))
        elif entry.suffix in C_UNITS | CPP_UNITS:
            out.append(Program(entry.name, (entry,)))
    return out


PROGRAMS = _programs(PROGRAMS_DIR)
LINK_FAILS = Program(LINK_FAILS_DIR.name, tuple(sorted(p for p in LINK_FAILS_DIR.iterdir()
                                                        if language_for_path(p) is not None)))


# -- the toolchain -------------------------------------------------------------------------

@dataclass(frozen=True)
class Toolchain:
    clang: str
    clangxx: str
    nm: str
    cxxfilt: str
    packager: str


def _tool(names: tuple[str, ...], bindir: Path | None) -> str | None:
    """`name-22` on PATH, else `name` in the LLVM directory of clang-22."""
    for name in names:
        found = shutil.which(f"{name}-{LLVM_VERSION}")
        if found:
            return found
        if bindir is not None and (bindir / name).is_file() and os.access(bindir / name, os.X_OK):
            return str(bindir / name)
    return None


def _toolchain() -> Toolchain | str:
    """The LLVM 22 tools, or what is missing."""
    clang = shutil.which(f"clang-{LLVM_VERSION}")
    bindir = Path(os.path.realpath(clang)).parent if clang else None
    tools = {
        "clang": (f"clang-{LLVM_VERSION}",) if clang else (),
        "clangxx": ("clang++",),
        "nm": ("llvm-nm",),
        "cxxfilt": ("llvm-cxxfilt",),
        "packager": ("llvm-offload-binary", "clang-offload-packager"),
    }
    found = {key: (clang if key == "clang" else _tool(names, bindir)) for key, names in tools.items()}
    missing = [names[0] if names else f"clang-{LLVM_VERSION}" for key, names in tools.items() if not found[key]]
    if missing:
        return ", ".join(missing)
    return Toolchain(**found)  # type: ignore[arg-type]


TOOLCHAIN = _toolchain()


def _require() -> Toolchain:
    if isinstance(TOOLCHAIN, Toolchain):
        return TOOLCHAIN
    message = f"LLVM {LLVM_VERSION} tools not found: {TOOLCHAIN} (the Makefile installs them)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


# -- running the tools ---------------------------------------------------------------------

@dataclass
class Run:
    command: list[str]
    returncode: int | None      # None: timed out
    output: str

    def describe(self) -> str:
        status = "timed out" if self.returncode is None else f"exit {self.returncode}"
        return f"$ {' '.join(self.command)}  ({status})\n{self.output}"


def _run(command: list[str], cwd: Path, stdin: str | None = None) -> Run:
    # Own process group, so that a timeout also ends the driver's subprocesses (cc1, the linker
    # wrapper); TMPDIR keeps the driver's temporary files in this build's directory.
    env = {**os.environ, "TMPDIR": str(cwd), "OMP_TARGET_OFFLOAD": "MANDATORY"}
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                            start_new_session=True)
    try:
        out, err = proc.communicate(stdin, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return Run(command, None, f"timed out after {TIMEOUT} s\n{out}{err}")
    return Run(command, proc.returncode, out + err)


@dataclass
class Build:
    """One program built: its device symbols, its link and its run."""
    program: Program
    failures: list[Run] = field(default_factory=list)       # steps that should have worked
    functions: set[str] = field(default_factory=set)         # source names of device functions
    variables: set[str] = field(default_factory=set)         # source names of device variables
    symbols: dict[str, str] = field(default_factory=dict)    # source name -> symbol, for messages
    link: Run | None = None
    run: Run | None = None


def _defined(nm_output: str) -> list[tuple[str, str]]:
    """(symbol, FUNC or OBJECT) from `llvm-nm --defined-only -f sysv`."""
    out = []
    for line in nm_output.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) >= 4 and cells[3] in ("FUNC", "OBJECT"):
            out.append((cells[0], cells[3]))
    return out


def _strip_templates(name: str) -> str:
    previous = None
    while previous != name:
        previous, name = name, re.sub(r"<[^<>]*>", "", name)
    return name


# The static local of a function: `f(int)::x`, `S::g() const::x`.
_CPP_LOCAL = re.compile(r"\)(?:\s*(?:const|volatile|&&|&))*::(?P<name>[A-Za-z_]\w*)$")


def source_name(symbol: str, demangled: str) -> str | None:
    """The name a user writes for a device symbol, or None for a compiler-generated one."""
    if symbol.startswith(IGNORED_PREFIXES) or demangled.startswith(IGNORED_DEMANGLED_PREFIXES):
        return None
    if any(f in symbol or f in demangled for f in IGNORED_FRAGMENTS):
        return None
    name = demangled.replace("(anonymous namespace)::", "")
    local = _CPP_LOCAL.search(name)
    if local:
        # C++ static local (`bounce(double&)::wall_hits`): the variable's own name
        return local["name"]
    if not symbol.startswith("_Z") and "." in name:
        # C static local (`smooth_weight.weights`, clang may add `.1`): the variable's own name
        return name.split(".")[1] or None
    return _strip_templates(name) or None


def _demangle(tools: Toolchain, symbols: list[str], cwd: Path) -> dict[str, str] | Run:
    if not symbols:
        return {}
    run = _run([tools.cxxfilt, "-p"], cwd, stdin="\n".join(symbols) + "\n")
    lines = run.output.splitlines()
    if run.returncode != 0 or len(lines) != len(symbols):
        return run
    return dict(zip(symbols, lines))


def _compile_command(tools: Toolchain, unit: Path, obj: Path) -> list[str]:
    cpp = unit.suffix in CPP_UNITS
    return [tools.clangxx if cpp else tools.clang, "-fopenmp", "-fopenmp-version=51", f"-fopenmp-targets={TRIPLE}",
            "-std=c++20" if cpp else "-std=c17", "-c", str(unit), "-o", str(obj)]


def _build(tools: Toolchain, program: Program, expect_link: bool) -> Build:
    build = Build(program)
    with tempfile.TemporaryDirectory(prefix="device-agreement-") as tmp:
        cwd = Path(tmp)
        objects = []
        defined: list[tuple[str, str]] = []
        for i, unit in enumerate(program.units):
            obj, image = cwd / f"{i}-{unit.stem}.o", cwd / f"{i}-{unit.stem}.device.o"
            steps = [
                _compile_command(tools, unit, obj),
                # the device image embedded in the fat object (.llvm.offloading)
                [tools.packager, str(obj), f"--image=file={image},triple={TRIPLE}"],
                [tools.nm, "--defined-only", "-f", "sysv", str(image)],
            ]
            for command in steps:
                run = _run(command, cwd)
                if run.returncode != 0:
                    build.failures.append(run)
                    return build
            defined.extend(_defined(run.output))
            objects.append(str(obj))

        names = _demangle(tools, sorted({s for s, _ in defined}), cwd)
        if isinstance(names, Run):
            build.failures.append(names)
            return build
        for symbol, kind in defined:
            name = source_name(symbol, names[symbol])
            if name is None:
                continue
            (build.functions if kind == "FUNC" else build.variables).add(name)
            build.symbols[name] = symbol

        exe = cwd / "program"
        build.link = _run([tools.clangxx if program.cpp else tools.clang, "-fopenmp", f"-fopenmp-targets={TRIPLE}",
                           *objects, "-lm", "-o", str(exe)], cwd)
        if build.link.returncode == 0 and expect_link:
            build.run = _run([str(exe)], cwd)
    return build


@pytest.fixture(scope="module")
def builds() -> dict[str, Build]:
    """Every program built once, two at a time (the machines have two CPUs)."""
    tools = _require()
    jobs = [(p, True) for p in PROGRAMS] + [(LINK_FAILS, False)]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        done = list(pool.map(lambda job: _build(tools, *job), jobs))
    return {b.program.name: b for b in done}


# -- omp-lsp's side ------------------------------------------------------------------------

def _documents(program: Program) -> dict[str, Document]:
    documents = {}
    for path in program.files:
        language = language_for_path(path)
        assert language is not None, path
        documents[str(path)] = Document(path.read_text(encoding="utf-8"), language)
    return documents


def _on_device(program: Program) -> dict[str, set[str]]:
    """kind ("procedure", "variable") -> names omp-lsp puts on the device, among the program's own."""
    files = {str(p) for p in program.files}
    out: dict[str, set[str]] = {"procedure": set(), "variable": set()}
    for row in device_map(_documents(program)):
        if row.path in files and row.device_type in ON_DEVICE:
            out.setdefault(row.kind, set()).add(row.name)
    return out


def _compare(program: Program, build: Build,
             extra_functions: frozenset[str] = frozenset()) -> dict[tuple[str, str], str]:
    """(kind, name) -> the disagreement, in words."""
    assert not build.failures, "the program did not build:\n" + "\n".join(r.describe() for r in build.failures)
    ours = _on_device(program)
    theirs = {"procedure": build.functions | extra_functions, "variable": build.variables}
    out = {}
    for kind in ("procedure", "variable"):
        for name in sorted(ours.get(kind, set()) - theirs[kind]):
            out[(kind, name)] = f"omp-lsp puts {kind} {name} on the device; clang defines no device symbol for it"
        for name in sorted(theirs[kind] - ours.get(kind, set())):
            why = "its absence breaks the device link" if name in extra_functions else (
                f"clang defines device symbol {build.symbols.get(name, name)}")
            out[(kind, name)] = f"omp-lsp does not put {kind} {name} on the device; {why}"
    return out


def _message(program: Program, build: Build, unexpected: dict[tuple[str, str], str]) -> str:
    ours = _on_device(program)
    return (f"{program.name}: omp-lsp and clang disagree on what is on the device:\n  "
            + "\n  ".join(unexpected.values())
            + f"\nomp-lsp procedures: {sorted(ours.get('procedure', set()))}"
            + f"\nclang functions:    {sorted(build.functions)}"
            + f"\nomp-lsp variables:  {sorted(ours.get('variable', set()))}"
            + f"\nclang variables:    {sorted(build.variables)}")


# -- the tests -----------------------------------------------------------------------------

def test_corpus() -> None:
    assert len(PROGRAMS) >= 6
    assert any(len(p.units) > 1 for p in PROGRAMS), "a multi-file program is needed"
    assert any(p.cpp for p in PROGRAMS) and any(not p.cpp for p in PROGRAMS)
    assert len(LINK_FAILS.units) == 2


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_program_builds_and_runs(program: Program, builds: dict[str, Build]) -> None:
    """Each program is valid for clang: it compiles, its device image links and it runs."""
    build = builds[program.name]
    assert not build.failures, "\n".join(r.describe() for r in build.failures)
    assert build.link is not None and build.link.returncode == 0, build.link.describe() if build.link else ""
    assert build.run is not None and build.run.returncode == 0, build.run.describe() if build.run else ""


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_device_symbols_agree(program: Program, builds: dict[str, Build]) -> None:
    build = builds[program.name]
    disagreements = _compare(program, build)
    assert not disagreements, _message(program, build, disagreements)
    assert build.functions, f"{program.name}: clang put no procedure of the program on the device"


def _undefined_references(output: str) -> set[str]:
    return set(re.findall(r"undefined reference to [`'\"]([^`'\"]+)[`'\"]", output))


def test_device_link_fails_without_declare_target(builds: dict[str, Build]) -> None:
    """Implied declare target does not cross files: the device link misses `damp`."""
    build = builds[LINK_FAILS.name]
    assert not build.failures, "\n".join(r.describe() for r in build.failures)
    assert build.link is not None
    assert build.link.returncode != 0, f"the link was expected to fail:\n{build.link.describe()}"
    assert _undefined_references(build.link.output) == {"damp"}, build.link.describe()
    assert "damp" not in build.functions


def test_device_link_fails_agreement(builds: dict[str, Build]) -> None:
    """omp-lsp's device set = the device symbols clang defines + those the device link misses."""
    build = builds[LINK_FAILS.name]
    assert build.link is not None
    missing = _undefined_references(build.link.output)
    disagreements = _compare(LINK_FAILS, build, frozenset(missing))
    assert not disagreements, _message(LINK_FAILS, build, disagreements)


def test_device_link_fails_is_reported() -> None:
    """omp-lsp reports OMP403 on the call whose callee has no device version."""
    documents = _documents(LINK_FAILS)
    main = str(LINK_FAILS_DIR / "main.c")
    lines = Path(main).read_text(encoding="utf-8").splitlines()
    call_line = next(i for i, text in enumerate(lines, start=1) if "= damp(" in text)
    analyses = analyze_workspace(documents)
    found = {(path, f.code) for path, a in analyses.items() for f in a.findings}
    assert found <= {(main, "OMP403")}, f"unexpected findings: {sorted(found)}"
    text = documents[main].source
    on_call = [f for f in analyses[main].findings
               if f.code == "OMP403" and text.count(b"\n", 0, f.span[0]) + 1 == call_line]
    assert on_call, (f"no OMP403 on main.c:{call_line} (device code calls damp, defined in kernels.c without "
                     f"declare target); findings: {sorted(found)}")
