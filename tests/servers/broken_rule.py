"""omp-lsp's server with one more rule that always raises: a fault put in on purpose, so that the
tests see what a rule's bug does to a real session (it is logged, the other rules still report)."""
from __future__ import annotations

import sys
from collections.abc import Iterator

from omp_lsp.analysis.diagnostics import Finding
from omp_lsp.analysis.rules import FileContext, rule


@rule("OMP001")
def deliberately_broken(ctx: FileContext) -> Iterator[Finding]:
    raise RuntimeError("deliberately broken rule")
    yield  # a generator, as rules are


if __name__ == "__main__":
    from omp_lsp.__main__ import main
    sys.exit(main(["--stdio"]))
