"""`omp-lsp` and `python -m omp_lsp`: the same program."""
from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    from omp_lsp.server.cli import main as cli_main
    if argv is not None:  # called from Python (tests, scripts): an ordinary return
        return cli_main(argv)
    code = cli_main(sys.argv[1:])
    # The program ends here. A check leaves a few million small objects behind, and freeing them
    # one by one at interpreter exit costs a tenth of a second on large files: output is flushed
    # and no file is open, so leave at once.
    for stream in (sys.stdout, sys.stderr):
        try:
            if not stream.closed:   # the server closes stdout when it exits
                stream.flush()
        except (BrokenPipeError, ValueError):
            code = code or 1
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
