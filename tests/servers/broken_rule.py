"""omp-lsp's server with faults put in on purpose, so that the tests see what such a bug does to
a real session: one more rule that always raises (it is logged, the other rules still report),
and a document edit the server's own editing fails on (the edit is applied to the whole text)."""
from __future__ import annotations

import sys
from collections.abc import Iterator

from omp_lsp.analysis.rules import FileContext, rule
from omp_lsp.analysis.syntax.diagnostics import Finding
from omp_lsp.analysis.syntax.document import Document, TextEdit

UNAPPLICABLE = "/* an edit Document.apply fails on */"


@rule("OMP001")
def deliberately_broken(ctx: FileContext) -> Iterator[Finding]:
    raise RuntimeError("deliberately broken rule")
    yield  # a generator, as rules are


_apply = Document.apply


def _failing_apply(self: Document, edit: TextEdit, *args: object, **kwargs: object) -> object:
    if edit.text.startswith(UNAPPLICABLE):
        raise RuntimeError("deliberately failed edit")
    return _apply(self, edit, *args, **kwargs)


Document.apply = _failing_apply  # type: ignore[method-assign]


if __name__ == "__main__":
    from omp_lsp.__main__ import main
    sys.exit(main(["--stdio"]))
