#!/usr/bin/env python3
"""The language server under load, through a real stdio connection: a fast typist, and many files.

Edit bursts: opens a generated 10,000-line C file (the check_speed units, with a pragma continued
over several lines added to each) and then a Fortran one, and sends bursts of one-character
`didChange`s at a fixed rate (10 and 50 edits a second): digits typed into a number and deleted
again, in turn in a directive's first line, in a continuation line of a directive, and in code,
at places spread over the file. For each burst it measures the time from the last edit sent to the
last publishDiagnostics of the last version (p50 and p95 over the bursts), and the server's RSS
before the burst (idle), when those diagnostics arrive, a second later, and once the server is
idle again. The edits are undone in each burst, so the last diagnostics must be those of the file as
opened: their count is checked.

Many files: indexes a workspace of 200 generated C files, opens them all as fast as the client
can (time until every one has its diagnostics), closes them all, and prints RSS after the index,
after opening and after closing.

    python bench/lsp_load.py [--lines 10000] [--edits 200] [--bursts 5] [--rates 10,50] [--files 200]

Goal: last diagnostics within 1 s of the last edit (p95, every burst kind), RSS a second after a
burst within 20 % of RSS before it (each burst; the series' growth from its first burst is printed
too), and closing the files gives back what opening them took.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_speed import C_UNIT, F_UNIT, generate, workspace_file
from lsp_client import Server, percentile

# A directive continued over three lines with backslashes, after each unit of the C file (the
# Fortran units continue one already, with `!$omp&`).
C_CONTINUED = """\
void stream{k}(int n, double *restrict a) {{
#pragma omp target teams distribute parallel for \\
    map(tofrom: a[0:n]) \\
    thread_limit({limit})
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 2.0 + {k}.0;
}}

"""
IDLE_SECONDS = 1.0          # "after idle": once the server has used no CPU for this long
SETTLE_TIMEOUT = 900.0      # seconds to wait for a burst's last diagnostics

Site = tuple[int, int]      # line, character: where a digit can be typed into a number


def edit_sites(text: str, fortran: bool) -> dict[str, list[Site]]:
    """The places of each kind: after the last digit before a `)` in a directive's first line and
    in a continuation line, and after a `0.0`-like literal in code."""
    lines = text.splitlines()
    sites: dict[str, list[Site]] = {"pragma": [], "continuation": [], "code": []}
    continued = False
    for number, line in enumerate(lines):
        stripped = line.lstrip().lower()
        if fortran:
            kind = "continuation" if stripped.startswith("!$omp&") else "pragma" if stripped.startswith("!$omp") \
                else "code"
        else:
            kind = "continuation" if continued else "pragma" if stripped.startswith("#pragma omp") else "code"
            continued = kind != "code" and line.endswith("\\")
        pattern = r"\d\.\d" if kind == "code" else r"\d\)"
        found = list(re.finditer(pattern, line))
        if found and not (kind == "code" and stripped.startswith(("!", "#", "//"))):
            sites[kind].append((number, found[-1].start() + 1 + (kind == "code") * 2))
    return sites


def _burst_edits(sites: dict[str, list[Site]], count: int, burst: int) -> list[tuple[Site, Site, str]]:
    """`count` one-character edits: at each place, two digits typed then deleted (so the text is
    the same after the burst), the places taken in turn from each kind and spread over the file
    (another spread for each burst)."""
    kinds = [k for k in ("pragma", "continuation", "code") if sites[k]]
    places = count // 4
    edits: list[tuple[Site, Site, str]] = []
    for n in range(places):
        of_kind = sites[kinds[n % len(kinds)]]
        step = max(1, len(of_kind) // max(1, places // len(kinds)))
        line, column = of_kind[(n // len(kinds) * step + burst * 7) % len(of_kind)]
        edits += [((line, column), (line, column), "1"), ((line, column + 1), (line, column + 1), "2"),
                  ((line, column + 1), (line, column + 2), ""), ((line, column), (line, column + 1), "")]
    return edits


@dataclass
class Burst:
    lag: float            # seconds from the last edit sent to the last publish of the last version
    rate: float           # edits per second actually sent
    rss_after: float      # MB, when the last diagnostics arrived
    rss_second: float     # a second later
    rss_idle: float       # once the server is idle
    cpu: float            # the server's CPU seconds from the first edit to the last diagnostics
    same: bool            # the last diagnostics are those of the file as opened


@dataclass
class Series:
    language: str
    rate: int
    rss_before: float
    bursts: list[Burst] = field(default_factory=list)


def run_bursts(server: Server, path: Path, language_id: str, rates: list[int], edits: int,
               bursts: int) -> list[Series]:
    uri = path.as_uri()
    text = path.read_text()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language_id, "version": 1,
                                                            "text": text}})
    server.wait_diagnostics(uri, 1, timeout=SETTLE_TIMEOUT)
    opened = server.published[uri]
    server.wait_idle(IDLE_SECONDS)
    sites = edit_sites(text, language_id == "fortran")
    version = 1
    result = []
    for rate in rates:
        series = Series(language_id, rate, server.rss_mb())
        for burst in range(bursts):
            planned = _burst_edits(sites, edits, burst)
            cpu = server.cpu_seconds()
            start = time.perf_counter()
            for n, ((line, first), (end_line, last), new) in enumerate(planned):
                delay = start + n / rate - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                version += 1
                server.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"range": {"start": {"line": line, "character": first},
                                                  "end": {"line": end_line, "character": last}}, "text": new}]})
            sent = time.perf_counter()   # (a server that does not read makes the writes wait)
            server.wait_diagnostics(uri, version, timeout=SETTLE_TIMEOUT)
            rss_after = server.rss_mb()
            cpu = server.cpu_seconds() - cpu
            time.sleep(1.0)
            rss_second = server.rss_mb()
            lag = server.diagnostics[(uri, version)] - sent   # the last of them, if several came
            server.wait_idle(IDLE_SECONDS)
            series.bursts.append(Burst(lag, len(planned) / (sent - start), rss_after, rss_second,
                                       server.rss_mb(), cpu, server.published[uri] == opened))
            b = series.bursts[-1]
            print(f"  {language_id} {rate}/s burst {burst + 1}: {len(planned)} edits at {b.rate:.1f}/s, "
                  f"last diagnostics {b.lag:.2f} s after the last edit (server CPU {b.cpu:.1f} s), RSS {b.rss_after:.0f} -> "
                  f"{b.rss_second:.0f} -> {b.rss_idle:.0f} MB{'' if b.same else ' (DIAGNOSTICS DIFFER)'}",
                  flush=True)
        result.append(series)
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    return result


@dataclass
class ManyFiles:
    files: int
    rss_indexed: float
    open_seconds: float
    rss_open: float
    close_seconds: float
    rss_closed: float


def open_and_close(root: Path, files: int, lines: int) -> ManyFiles:
    """A workspace of `files` C files indexed, then every one opened, then every one closed."""
    paths = []
    for k in range(files):
        path = root / f"unit{k}.c"
        path.write_text(workspace_file(k, lines))
        paths.append(path)
    server = Server(root, progress=True)
    try:
        server.wait_indexed()
        server.wait_idle(IDLE_SECONDS)
        rss_indexed = server.rss_mb()
        start = time.perf_counter()
        for path in paths:
            server.notify("textDocument/didOpen", {"textDocument": {
                "uri": path.as_uri(), "languageId": "c", "version": 1, "text": path.read_text()}})
        opened = max(server.wait_diagnostics(path.as_uri(), 1, timeout=SETTLE_TIMEOUT) for path in paths)
        open_seconds = opened - start
        server.wait_idle(IDLE_SECONDS)
        rss_open = server.rss_mb()
        start = time.perf_counter()
        for path in paths:
            server.notify("textDocument/didClose", {"textDocument": {"uri": path.as_uri()}})
        for path in paths:
            server.wait_diagnostics(path.as_uri(), None, timeout=SETTLE_TIMEOUT)
        # (the workspace goes back to the files on disk in the background: closed once that is done)
        close_seconds = time.perf_counter() + server.wait_idle(IDLE_SECONDS) - IDLE_SECONDS - start
        return ManyFiles(files, rss_indexed, open_seconds, rss_open, close_seconds, server.rss_mb())
    finally:
        server.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--edits", type=int, default=200, help="edits per burst (a multiple of 4)")
    parser.add_argument("--bursts", type=int, default=5, help="bursts per language and rate")
    parser.add_argument("--rates", default="10,50", help="edits per second, comma-separated")
    parser.add_argument("--files", type=int, default=200, help="files opened and closed (0: skip)")
    parser.add_argument("--file-lines", type=int, default=150, help="lines of each of those files")
    parser.add_argument("--languages", default="c,fortran")
    args = parser.parse_args()
    rates = [int(r) for r in args.rates.split(",") if r]
    goal_met = True
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        single = root / "single"
        single.mkdir()
        files = {"c": (single / "bench.c", generate(C_UNIT + C_CONTINUED, args.lines)),
                 "fortran": (single / "bench.f90", generate(F_UNIT, args.lines))}
        all_series: list[Series] = []
        if rates and args.bursts:
            server = Server(single)
            try:
                for language_id in args.languages.split(","):
                    path, text = files[language_id]
                    path.write_text(text)
                    all_series += run_bursts(server, path, language_id, rates, args.edits, args.bursts)
            finally:
                server.close()
        many = None
        if args.files:
            workspace = root / "workspace"
            workspace.mkdir()
            many = open_and_close(workspace, args.files, args.file_lines)
    print(f"omp-lsp over stdio: bursts of {args.edits} one-character edits into a {args.lines}-line file "
          f"(pragmas, continuation lines, code), {args.bursts} bursts each")
    for series in all_series:
        lags = [b.lag for b in series.bursts]
        p95 = percentile(lags, 0.95)
        worst = max(b.rss_second for b in series.bursts)
        # each burst against the RSS before it (the idle RSS after the burst before; the first
        # bursts into a file also fill the analysis's bounded caches: the series' growth is printed)
        before = [series.rss_before, *(b.rss_idle for b in series.bursts[:-1])]
        ratio = max(b.rss_second / r for b, r in zip(series.bursts, before, strict=True))
        ok = p95 <= 1.0 and ratio <= 1.2 and all(b.same for b in series.bursts)
        goal_met = goal_met and ok
        print(f"{series.language:8} {series.rate:3}/s: last edit -> last diagnostics p50 {statistics.median(lags):6.2f} s"
              f"  p95 {p95:6.2f} s  (server CPU per burst {statistics.median(b.cpu for b in series.bursts):.1f} s)"
              f"   RSS before {series.rss_before:.0f} MB, at the last diagnostics (max) "
              f"{max(b.rss_after for b in series.bursts):.0f} MB, 1 s later (max) {worst:.0f} MB, idle (last) "
              f"{series.bursts[-1].rss_idle:.0f} MB; 1 s after a burst / before it (worst) {ratio:.2f}"
              f"{'' if ok else '  NOT MET'}")
    if many is not None:
        ok = many.rss_closed <= many.rss_indexed + 0.2 * (many.rss_open - many.rss_indexed) + 10
        goal_met = goal_met and ok
        print(f"{many.files} files ({args.file_lines} lines each): opened in {many.open_seconds:.1f} s, closed in "
              f"{many.close_seconds:.1f} s; RSS indexed {many.rss_indexed:.0f} MB, all open {many.rss_open:.0f} MB, "
              f"all closed {many.rss_closed:.0f} MB{'' if ok else '  NOT MET'}")
    print(f"goal (p95 <= 1 s, RSS 1 s after a burst within 20 % of before, closing gives memory back): "
          f"{'met' if goal_met else 'NOT MET'}")
    return 0 if goal_met else 1


if __name__ == "__main__":
    sys.exit(main())
