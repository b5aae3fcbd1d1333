"""The fixture annotation format of the rule catalogue.

`// expect: OMP103 OMP104` (C/C++) or `! expect: OMP161` (Fortran) on the line that
carries the fault; `expect-next-line:` on the line before a line that cannot hold a
comment. A file without annotations expects no diagnostics. A line
`// openmp-version: 5.2` (or `! openmp-version: 5.2`) selects the OpenMP version.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from omp_lsp.analysis import Document, Options, analyze, language_for_path
from omp_lsp.analysis.options import parse_version

_EXPECT = re.compile(r"(?://|!)\s*expect(-next-line)?:\s*((?:OMP\d{3}\s*)+)")
_VERSION = re.compile(r"(?://|!)\s*openmp-version:\s*([0-9.]+)")


def expected(text: str) -> Counter[tuple[int, str]]:
    """(1-based line, code) pairs the annotations ask for."""
    out: Counter[tuple[int, str]] = Counter()
    for number, line in enumerate(text.splitlines(), start=1):
        for m in _EXPECT.finditer(line):
            target = number + 1 if m.group(1) else number
            for code in m.group(2).split():
                out[(target, code)] += 1
    return out


def version_of(text: str) -> int:
    m = _VERSION.search(text)
    return parse_version(m.group(1)) if m else 51


def actual(path: Path) -> Counter[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    language = language_for_path(path)
    assert language is not None, path
    result = analyze(Document(text, language), Options(openmp_version=version_of(text)))
    assert not result.internal_errors, result.internal_errors
    lines = result.document.lines
    return Counter((lines.line_of(f.span[0]) + 1, f.code) for f in result.findings)


def describe(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    language = language_for_path(path)
    assert language is not None
    result = analyze(Document(text, language), Options(openmp_version=version_of(text)))
    lines = result.document.lines
    return "\n".join(f"  line {lines.line_of(f.span[0]) + 1}: {f.code} {f.message}" for f in result.findings)
