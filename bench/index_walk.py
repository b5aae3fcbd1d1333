#!/usr/bin/env python3
"""The workspace index's walk with a large .gitignore, and the server's answers while it indexes.

Makes a tree of --files source files (100 folders) under a .gitignore of --patterns generated
patterns (plain paths, `*.suffix`, `prefix*`, `folder/` and general globs; none matches a
source file, so every file is indexed), then:

- times `walk(root, gitignore_patterns(root))`, the walk the index makes, and prints its time
  and its cost per entry;
- with --server, starts `omp-lsp` on stdio with the tree as its workspace folder and sends a
  `textDocument/documentSymbol` request every 50 ms until the index's progress ends, printing
  the time the index took and the request latencies (median, max) meanwhile.

    python bench/index_walk.py [--files 10000] [--patterns 50000] [--server] [--keep DIR]

To time another copy of the package (the figures before a change), put it first on PYTHONPATH.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

SOURCE = "void f{k}(int n, double *a) {{\n#pragma omp target teams distribute parallel for map(tofrom: a[0:n])\n" \
         "  for (int i = 0; i < n; i++) a[i] *= {k}.0;\n}}\n"


def make_tree(root: Path, files: int, patterns: int) -> None:
    for k in range(files):
        folder = root / f"src{k % 100:02d}"
        folder.mkdir(exist_ok=True)
        (folder / f"unit{k}.c").write_text(SOURCE.format(k=k))
    shapes = ("build/obj_{i}.o", "*.tmp{i}", "cache_{i}*", "out{i}/", "gen_{i}_?.c", "[ab]{i}.log", "notes{i}.txt")
    lines = ["# generated"] + [shapes[i % len(shapes)].format(i=i) for i in range(patterns)]
    (root / ".gitignore").write_text("\n".join(lines) + "\n")


def time_walk(root: Path) -> tuple[float, int, int]:
    from omp_lsp.server.sources import gitignore_patterns, walk
    entries = sum(len(names) + len(dirs) for _, dirs, names in os.walk(root))
    start = time.perf_counter()
    found = walk(str(root), gitignore_patterns(str(root)))
    return time.perf_counter() - start, len(found), entries


class Client:
    """A minimal LSP client over the server's stdio: enough to initialize, answer progress
    requests and time requests."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.answers: dict[int, float] = {}
        self.progress_ended = threading.Event()
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> int:
        with self.lock:
            self.next_id += 1
            ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        return ident

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while (line := out.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            message = json.loads(out.read(length))
            if "method" in message and "id" in message:   # a request of the server's: accept it
                self.send({"id": message["id"], "result": None})
            elif message.get("method") == "$/progress" and message["params"]["value"].get("kind") == "end":
                self.progress_ended.set()
            elif "id" in message:
                self.answers[message["id"]] = time.perf_counter()


def time_server(root: Path) -> None:
    client = Client([sys.executable, "-m", "omp_lsp", "--stdio"])
    uri = root.as_uri()
    start = time.perf_counter()
    first = client.request("initialize", {"processId": os.getpid(), "rootUri": uri,
                                          "workspaceFolders": [{"uri": uri, "name": "ws"}],
                                          "capabilities": {"window": {"workDoneProgress": True}}})
    while first not in client.answers:   # the server's start-up is not the index's
        time.sleep(0.01)
    start = time.perf_counter()
    client.send({"method": "initialized", "params": {}})
    probe = (root / "src00" / "unit0.c").as_uri()
    client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": probe, "languageId": "c", "version": 1, "text": SOURCE.format(k=0)}}})
    sent: dict[int, float] = {}
    while not client.progress_ended.wait(0.05):
        sent[client.request("textDocument/documentSymbol", {"textDocument": {"uri": probe}})] = time.perf_counter()
    indexed = time.perf_counter() - start
    time.sleep(1.0)
    latencies = [client.answers.get(i, float("inf")) - t for i, t in sent.items()]
    client.request("shutdown", {})
    client.send({"method": "exit"})
    client.proc.wait(timeout=30)
    print(f"server: index done in {indexed:.1f} s; {len(latencies)} requests meanwhile: "
          f"median {1000 * statistics.median(latencies):.0f} ms, max {1000 * max(latencies):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--patterns", type=int, default=50_000)
    parser.add_argument("--server", action="store_true", help="also time the server's answers while it indexes")
    parser.add_argument("--keep", metavar="DIR", help="make the tree in DIR and keep it")
    args = parser.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="index-walk-"))
    try:
        root.mkdir(parents=True, exist_ok=True)
        make_tree(root, args.files, args.patterns)
        seconds, found, entries = time_walk(root)
        print(f"walk: {found} source files of {entries} entries, {args.patterns} patterns: {seconds:.2f} s "
              f"({1e6 * seconds / max(entries, 1):.0f} us per entry)")
        if args.server:
            time_server(root)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
