"""`omp-lsp` and `python -m omp_lsp`: the same program."""
from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    if argv is not None:  # called from Python (tests, scripts): an ordinary return
        return _command(argv)
    code = _command(sys.argv[1:], own_process=True)
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


def _command(argv: list[str], own_process: bool = False) -> int:
    """`own_process`: this is the program, not a call from Python (`omp-lsp run` then answers signals)."""
    if argv[:1] == ["run"]:
        # A command of its own (codegen: build and run one file). It loads neither the server
        # nor the analysis unless a failed build needs its places: its start-up counts in the
        # overhead over running the compilers by hand.
        from omp_lsp.server.run_command import main as run_main
        return run_main(argv[1:], own_process=own_process)
    from omp_lsp.server.cli import main as cli_main
    return cli_main(argv, own_process)


if __name__ == "__main__":
    sys.exit(main())
