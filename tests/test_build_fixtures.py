"""The build fixtures (tests/fixtures/builds/): each is built and run with every toolchain its
`build-with:` line names, and what the builds and runs report (OMP501-OMP504) must be what its
annotations expect, no more; a fixture that expects none must build, run on both sides and print
the same. Real compilers; the analysis' codes in the same files are checked by test_fixtures."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from expectations import BUILD_CODES, build_with, built, expected
from omp_lsp.analysis.syntax.document import SOURCE_EXTENSIONS, language_for_path
from omp_lsp.codegen.build_and_run import build_and_run
from omp_lsp.codegen.toolchains import discover, pick
from omp_lsp.server.run_command import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
BUILDS = sorted(p for p in (ROOT / "tests" / "fixtures" / "builds").rglob("*") if p.suffix in SOURCE_EXTENSIONS)
CASES = [(path, name) for path in BUILDS for name in build_with(path.read_text(encoding="utf-8"))]
TOOLCHAINS = discover()


@pytest.mark.parametrize(("path", "toolchain"), CASES, ids=[f"{p.relative_to(ROOT / 'tests')}-{n}" for p, n in CASES])
def test_build_fixture(path: Path, toolchain: str, tmp_path: Path) -> None:
    language = LANGUAGES[language_for_path(path)]  # type: ignore[index]
    chosen = None if toolchain == "none" else pick(TOOLCHAINS, language, toolchain)
    if toolchain != "none" and chosen is None:
        pytest.fail(f"{toolchain} is not installed: the README's set-up installs it")
    # (a copy: gfortran writes .mod files beside the build, and the fixture folder stays clean)
    source = tmp_path / path.name
    source.write_bytes(path.read_bytes())
    others = [t for t in TOOLCHAINS if t is not chosen] if chosen is not None else []
    report = build_and_run(str(source), language, chosen, timeout=120, others=others)
    found = {(d["line"], d["column"], d["code"], d["message"]) for b in report.builds for d in b.diagnostics
             if d["file"] == str(source)} | {(d["line"], d["column"], d["code"], d["message"]) for d in report.diagnostics}
    # (both builds say the same of shared code: counted once, as the editor shows it)
    got = Counter((line, code) for line, _, code, _ in found if code in BUILD_CODES)
    want = built(expected(path.read_text(encoding="utf-8")))
    assert got == want, f"expected {sorted(want.elements())}, got {sorted(found)}\n{report.as_json()}"
    if not want:   # (flang builds for the host only here: one build and one run)
        assert report.builds and all(b.process.ok for b in report.builds), report.as_json()
        assert all(r.process.ok for r in report.runs) and report.same_output is not False, report.as_json()
        assert report.ok or chosen is not None and not chosen.device_build(language)


def test_every_build_code_has_a_fixture_that_fires_and_one_that_stays_clean() -> None:
    texts = [p.read_text(encoding="utf-8") for p in BUILDS]
    for code in sorted(BUILD_CODES):
        assert any(c == code for t in texts for _, c in expected(t)), f"no build fixture expects {code}"
    assert any(build_with(t) and not built(expected(t)) for t in texts), "no build fixture that must stay clean"
    assert {language_for_path(p).is_fortran for p in BUILDS} == {True, False}  # type: ignore[union-attr]
