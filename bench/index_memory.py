#!/usr/bin/env python3
"""The server on a large Fortran workspace: its memory before and after indexing, and the first
diagnostics of a file opened at once, before the index is complete.

Generates `--files` Fortran files of `--lines` lines (modules of declare target procedures and
kernels, each file's names its own), starts the server over stdio on that folder, opens one of
the files as soon as the server is initialized, and prints when that file's first diagnostics
arrived and when the index's work-done progress ended (both from `initialized`), and the server's
RSS just after `initialize`, once the index is complete and the server idle, and after closing the
file.

    python bench/index_memory.py [--files 200] [--lines 1000] [--keep DIR]

Goals (issue 24): at most 150 MB after indexing 200 files of real-application size; the opened
file's first diagnostics before the index is complete.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_client import Server
from workspace_check import fortran_workspace_file

RSS_GOAL_MB = 150


class Workers:
    """The server's worker processes, sampled until `stop`: how many at once, and their memory."""

    def __init__(self, server: Server) -> None:
        self.server, self.most, self.peak, self.peak_sum = server, 0, 0.0, 0.0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self) -> None:
        while not self.done.wait(0.05):
            rss = self.server.worker_rss_mb()
            self.most = max(self.most, len(rss))
            self.peak = max([self.peak, *rss])
            self.peak_sum = max(self.peak_sum, sum(rss))

    def stop(self) -> None:
        self.done.set()
        self.thread.join()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--keep", metavar="DIR", help="write the workspace here and keep it")
    parser.add_argument("-j", "--jobs", type=int, help="the server's index processes (default: every CPU)")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="omp-lsp-index-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        paths = []
        for k in range(args.files):
            path = folder / f"unit{k}.f90"
            path.write_text(fortran_workspace_file(k, args.lines))
            paths.append(path)
        lines = sum(p.read_text().count("\n") for p in paths)
        server = Server(folder, progress=True, args=("-j", str(args.jobs)) if args.jobs else ())
        start = time.perf_counter()   # (`initialized` was just sent: the index starts)
        workers = Workers(server)
        rss_start = server.rss_mb()
        opened = paths[len(paths) // 2]
        uri = opened.as_uri()
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "fortran", "version": 1, "text": opened.read_text()}})
        first = server.wait_diagnostics(uri, 1, timeout=600) - start
        server.wait_indexed()
        workers.stop()
        assert server.first_progress_end is not None
        indexed = server.first_progress_end - start
        server.wait_idle()
        rss_indexed = server.rss_mb()
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        server.wait_idle()
        rss_closed = server.rss_mb()
        server.close()
        before = first < indexed
        met = before and rss_indexed <= RSS_GOAL_MB
        print(f"the server on {len(paths)} Fortran files, {lines:,} lines")
        print(f"  first diagnostics of the file opened at once: {first:.2f} s; index complete: {indexed:.2f} s "
              f"({'before' if before else 'NOT before'} the index)")
        print(f"  RSS after initialize {rss_start:.0f} MB, indexed with the file open {rss_indexed:.0f} MB, "
              f"after closing it {rss_closed:.0f} MB")
        print(f"  worker processes while indexing: {workers.most}, peak RSS {workers.peak:.0f} MB each at most, "
              f"{workers.peak_sum:.0f} MB together")
        print(f"goal (first diagnostics before the index is complete, <= {RSS_GOAL_MB} MB indexed): "
              f"{'met' if met else 'NOT MET'}")
        return 0 if met else 1
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
