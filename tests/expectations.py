"""The fixture annotation format of the rule catalogue.

`// expect: OMP103 OMP104` (C/C++) or `! expect: OMP161` (Fortran) on the line that
carries the fault; `expect-next-line:` on the line before a line that cannot hold a
comment. A file without annotations expects no diagnostics. A line
`// openmp-version: 5.2` (or `! openmp-version: 5.2`) selects the OpenMP version; a line
`// device-toolchains: gcc-nvptx` (or `! device-toolchains: ...`, several names separated
by spaces or commas) selects the device toolchains the code must build with (OMP407),
as `--device-toolchain` does. A line `// defines: GPU N=4` (or `! defines: ...`) defines macros
for the file as `-D` does; a workspace folder's `compile_commands.json` is its build's.

OMP501-OMP504 come from building and running the program, not from the analysis: a fixture
under `builds/` says which toolchains build it (`// build-with: clang-22 gcc-12`, or `none`)
and tests/test_build_fixtures.py checks those codes, the analysis' tests the rest.

Files under a `workspaces/<case>/` folder are analysed together as one workspace (they
must agree on the version; their toolchains are joined). Every other file is a workspace of
its own, as `omp-lsp --check file` makes it, so that the cross-file rules (device-type
propagation, OMP4xx) run on every fixture and valid program.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from omp_lsp.analysis import Document, FileAnalysis, Options, language_for_path
from omp_lsp.analysis.builds import Build
from omp_lsp.analysis.syntax.compile_commands import FILE_NAME, load_compile_commands
from omp_lsp.analysis.syntax.document import SOURCE_EXTENSIONS
from omp_lsp.analysis.syntax.options import parse_version
from omp_lsp.analysis.workspace import analyze_workspace

_EXPECT = re.compile(r"(?://|!)\s*expect(-next-line)?:\s*((?:OMP\d{3}\s*)+)")
_VERSION = re.compile(r"(?://|!)\s*openmp-version:\s*([0-9.]+)")
_DEFINES = re.compile(r"(?://|!)\s*defines:\s*([^\n]+)")
_TOOLCHAINS = re.compile(r"(?://|!)\s*device-toolchains:\s*([\w.-]+(?:[ \t]*,?[ \t]*[\w.-]+)*)")


def expected(text: str) -> Counter[tuple[int, str]]:
    """(1-based line, code) pairs the annotations ask for."""
    out: Counter[tuple[int, str]] = Counter()
    for number, line in enumerate(text.splitlines(), start=1):
        for m in _EXPECT.finditer(line):
            target = number + 1 if m.group(1) else number
            for code in m.group(2).split():
                out[(target, code)] += 1
    return out


BUILD_CODES = frozenset({"OMP501", "OMP502", "OMP503", "OMP504"})
_BUILD_WITH = re.compile(r"(?://|!)\s*build-with:\s*([\w.+ -]+)")


def analysed(want: Counter[tuple[int, str]]) -> Counter[tuple[int, str]]:
    """The expectations the analysis answers for (not those of builds)."""
    return Counter({k: n for k, n in want.items() if k[1] not in BUILD_CODES})


def built(want: Counter[tuple[int, str]]) -> Counter[tuple[int, str]]:
    """The expectations a build and run answers for."""
    return Counter({k: n for k, n in want.items() if k[1] in BUILD_CODES})


def build_with(text: str) -> list[str]:
    """The toolchains a `build-with:` line names ("none": no toolchain at all)."""
    m = _BUILD_WITH.search(text)
    return m.group(1).split() if m else []


def version_of(text: str) -> int:
    m = _VERSION.search(text)
    return parse_version(m.group(1)) if m else 51


def toolchains_of(text: str) -> tuple[str, ...]:
    """The toolchains a `device-toolchains:` line selects, in order (none: no line)."""
    names: list[str] = []
    for m in _TOOLCHAINS.finditer(text):
        names.extend(n for n in re.split(r"[\s,]+", m.group(1)) if n and n not in names)
    return tuple(names)


def options_of(text: str) -> Options:
    return Options(openmp_version=version_of(text), device_toolchains=toolchains_of(text))


def build_of(texts: list[str], folder: Path | None = None) -> Build:
    """The build a fixture describes: its `defines:` lines, its folder's compile_commands.json."""
    definitions = tuple(("D", d) for t in texts for m in _DEFINES.finditer(t) for d in m.group(1).split())
    database = folder / FILE_NAME if folder is not None else None
    return Build(load_compile_commands(str(database)) if database is not None and database.is_file() else None,
                 definitions)


def workspace_of(path: Path) -> Path | None:
    """Files under a `workspaces/<case>/` folder are analysed together, as one workspace."""
    parts = path.parts
    if "workspaces" in parts[:-2]:
        return Path(*parts[:parts.index("workspaces") + 2])
    return None


def analysis_of(path: Path) -> FileAnalysis:
    folder = workspace_of(path)
    if folder is None:
        text = path.read_text(encoding="utf-8")
        language = language_for_path(path)
        assert language is not None, path
        return analyze_workspace({str(path): Document(text, language)}, options_of(text),
                                 build_of([text]))[str(path)]
    files = sorted(p for p in folder.rglob("*") if p.suffix in SOURCE_EXTENSIONS)
    texts = {p: p.read_text(encoding="utf-8") for p in files}
    versions = {version_of(t) for t in texts.values()}
    assert len(versions) == 1, f"{folder}: files of one workspace must select the same OpenMP version"
    toolchains = tuple(dict.fromkeys(n for t in texts.values() for n in toolchains_of(t)))
    documents = {str(p): Document(t, language_for_path(p)) for p, t in texts.items()}  # type: ignore[arg-type]
    options = Options(openmp_version=versions.pop(), device_toolchains=toolchains)
    return analyze_workspace(documents, options, build_of(list(texts.values()), folder))[str(path)]


def actual(path: Path) -> Counter[tuple[int, str]]:
    result = analysis_of(path)
    assert not result.internal_errors, result.internal_errors
    lines = result.document.lines
    return Counter((lines.line_of(f.span[0]) + 1, f.code) for f in result.findings)


def describe(path: Path) -> str:
    result = analysis_of(path)
    lines = result.document.lines
    return "\n".join(f"  line {lines.line_of(f.span[0]) + 1}: {f.code} {f.message}" for f in result.findings)
