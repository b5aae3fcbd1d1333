#!/usr/bin/env python3
"""Precision on real code: what `omp-lsp --check` reports on files the compilers accept.

    python bench/precision.py ROOT [ROOT ...] [--mode whole|folders|both] [--omp-lsp CMD] [--jobs N]

Each ROOT is a folder of real code (a repository, or a part of one). When it holds a
compile_commands.json, that is its build: each file is compiled with its command, and omp-lsp
reads it. First every source file is checked by the reference compilers with its command
(`clang-22`/`clang++-22 -fsyntax-only -ferror-limit=0`, `flang-22 -fsyntax-only`, both with
`-fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu`; without a database, `-fopenmp` alone;
Fortran files in the order their modules need, sharing one module folder); the verdicts are
cached in ~/.cache/omp-lsp/precision (or read from a verdicts.json beside the database). A header counts as accepted when a file that includes it
is. Then omp-lsp checks the ROOT in one call (`whole`), and each folder that holds source files
in a call of its own with the part of the database under it (`folders`: the outermost folders
that hold source files, as an editor opens a project's folder). Every error and warning on an accepted file is printed with its source line, then the
totals: the goal is no error, and at most one warning per 100 accepted files, each a true problem.

Nothing of the code checked is kept: the benchmark reads the folders given to it.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import hashlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

SOURCES = {".c": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".C": "cpp",
           ".f": "fortran", ".F": "fortran", ".for": "fortran", ".f90": "fortran", ".F90": "fortran",
           ".f95": "fortran", ".F95": "fortran", ".f03": "fortran", ".F03": "fortran", ".f08": "fortran",
           ".F08": "fortran", ".ftn": "fortran", ".f77": "fortran"}
HEADERS = {".h", ".hpp", ".hh", ".hxx", ".h++"}
COMPILERS = {"c": "clang-22", "cpp": "clang++-22", "fortran": "flang-22"}
OFFLOAD = "-fopenmp-targets=x86_64-unknown-linux-gnu"
CHECK_TIMEOUT = 120   # seconds per compiler check
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "omp-lsp" / "precision"
_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)
_MODULE = re.compile(rb"^[ \t]*module[ \t]+(?!procedure\b)(\w+)", re.M | re.I)
_USE = re.compile(rb"^[ \t]*use[ \t]*(?:,[ \t]*\w+[ \t]*)?(?:::)?[ \t]*(\w+)", re.M | re.I)


def walk(root: Path) -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if os.path.splitext(name)[1] in SOURCES or os.path.splitext(name)[1] in HEADERS:
                found.append(Path(folder) / name)
    return found


def database(root: Path) -> dict[str, dict]:
    path = root / "compile_commands.json"
    if not path.is_file():
        return {}
    out = {}
    for entry in json.loads(path.read_text()):
        directory = os.path.normpath(os.path.join(root, entry["directory"]))
        file = os.path.normpath(os.path.join(directory, entry["file"]))
        arguments = entry.get("arguments") or shlex.split(entry["command"])
        out.setdefault(file, {"directory": directory, "arguments": arguments})
    return out


def command(path: Path, entry: dict | None) -> tuple[list[str], str]:
    """The reference check's command line for a file, and the folder it runs in."""
    language = SOURCES[path.suffix]
    if entry is None:
        return [COMPILERS[language], "-fopenmp", "-fsyntax-only", OFFLOAD, str(path)], str(path.parent)
    args = list(entry["arguments"])
    out = [args[0]]
    skip = False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-c",) or os.path.normpath(os.path.join(entry["directory"], a)) == str(path):
            continue
        if a == "-o":
            skip = True
            continue
        out.append(a)
    if "-fopenmp" not in out:
        out.append("-fopenmp")
    out += ["-fsyntax-only", OFFLOAD] + ([] if language == "fortran" else ["-ferror-limit=0"])
    return [*out, str(path)], entry["directory"]


def cached_verdict(key: str) -> bool | None:
    f = CACHE / key
    return f.read_text() == "ok" if f.exists() else None


def run_check(args: list[str], cwd: str, key: str) -> bool:
    """Whether the compiler accepts the file (its exit status; its output is not kept: clang-22
    repeats one error without end on some files with -ferror-limit=0). The compiler runs in a
    process group of its own, killed whole at the timeout: the driver's cc1 child outlives a kill
    of the driver alone."""
    try:
        proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
    except OSError:
        ok = False
    else:
        try:
            ok = proc.wait(timeout=CHECK_TIMEOUT) == 0
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            ok = False
    CACHE.mkdir(parents=True, exist_ok=True)
    (CACHE / key).write_text("ok" if ok else "rejected")
    return ok


def verdicts(root: Path, files: list[Path], db: dict[str, dict], jobs: int) -> dict[str, bool]:
    """path -> accepted, for every source file (headers: see `header_verdicts`). A verdicts.json
    beside the database ({"relative/path": {"accepted": true}, ...}, from an earlier check with the
    same commands) is taken for the files it names."""
    given = root / "verdicts.json"
    given_verdicts: dict[str, bool] = {}
    if given.is_file():
        given_verdicts = {os.path.normpath(root / k): bool(v["accepted"]) for k, v in json.loads(given.read_text()).items()}
    sources = [p for p in files if p.suffix in SOURCES and str(p) not in given_verdicts]
    jobs_of: dict[str, tuple[list[str], str, str]] = {}
    for p in sources:
        args, cwd = command(p, db.get(str(p)))
        key = hashlib.sha256(repr((args, cwd, p.read_bytes())).encode()).hexdigest()
        jobs_of[str(p)] = (args, cwd, key)
    out: dict[str, bool] = {}
    fortran = [p for p in sources if SOURCES[p.suffix] == "fortran"]
    others = [p for p in sources if SOURCES[p.suffix] != "fortran"]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = {}
        for p in others:
            args, cwd, key = jobs_of[str(p)]
            known = cached_verdict(key)
            if known is not None:
                out[str(p)] = known
            else:
                futures[pool.submit(run_check, args, cwd, key)] = str(p)
        if fortran:
            out.update(fortran_verdicts(fortran, jobs_of))
        for f in concurrent.futures.as_completed(futures):
            out[futures[f]] = f.result()
    out.update({p: ok for p, ok in given_verdicts.items() if os.path.exists(p)})
    return out


def fortran_verdicts(files: list[Path], jobs_of: dict[str, tuple[list[str], str, str]]) -> dict[str, bool]:
    """Fortran files in the order their modules need (definers first), with one module folder."""
    defines: dict[str, str] = {}
    uses: dict[str, set[str]] = {}
    for p in files:
        text = p.read_bytes()
        for m in _MODULE.finditer(text):
            defines.setdefault(m.group(1).decode().lower(), str(p))
        uses[str(p)] = {m.group(1).decode().lower() for m in _USE.finditer(text)}
    order: list[str] = []
    seen: set[str] = set()

    def visit(p: str, depth: int = 0) -> None:
        if p in seen or depth > 200:
            return
        seen.add(p)
        for mod in sorted(uses[p]):
            d = defines.get(mod)
            if d is not None and d != p:
                visit(d, depth + 1)
        order.append(p)
    for p in sorted(uses):
        visit(p)
    out: dict[str, bool] = {}
    with tempfile.TemporaryDirectory(prefix="omp-lsp-modules-") as modules:
        for p in order:
            args, cwd, key = jobs_of[p]
            known = cached_verdict(key) if not any(uses[p] & set(defines)) else None
            out[p] = known if known is not None else run_check([*args[:-1], f"-J{modules}", args[-1]], cwd, key)
    return out


def header_verdicts(files: list[Path], accepted: dict[str, bool]) -> dict[str, bool]:
    """A header is accepted when a file that includes it (directly or through headers) is."""
    includes: dict[str, set[str]] = {}
    for p in files:
        found = set()
        for m in _INCLUDE.finditer(p.read_bytes()):
            found.add(os.path.normpath(p.parent / m.group(1).decode("utf-8", "replace")))
        includes[str(p)] = found
    out: dict[str, bool] = {}
    todo = [p for p, ok in accepted.items() if ok]
    while todo:
        p = todo.pop()
        for h in includes.get(p, ()):
            if h in includes and h not in accepted and not out.get(h):
                out[h] = True
                todo.append(h)
    for p in files:
        if p.suffix in HEADERS:
            out.setdefault(str(p), False)
    return out


def omp_lsp(cmd: list[str], paths: list[str], db: str | None) -> tuple[list[dict], float]:
    args = [*cmd, "--check", *paths, "--format", "json", "--fail-on", "error"]
    if db is not None:
        args += ["--compile-commands", db]
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, check=False, timeout=3600)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.stderr.write(f"omp-lsp failed ({done.returncode}) on {paths}: {done.stderr.decode()[-2000:]}\n")
        return [], seconds
    return json.loads(done.stdout)["diagnostics"], seconds


def folders(files: list[Path]) -> list[Path]:
    """The outermost folders that hold source files (a project an editor would open)."""
    found = sorted({p.parent for p in files if p.suffix in SOURCES}, key=lambda f: len(f.parts))
    out: list[Path] = []
    for folder in found:
        if not any(folder.is_relative_to(o) for o in out):
            out.append(folder)
    return sorted(out)


def filtered_db(root: Path, folder: Path, tmp: Path) -> str | None:
    """The part of root's compile_commands.json under `folder`, as a file of its own."""
    path = root / "compile_commands.json"
    if not path.is_file():
        return None
    entries = []
    for entry in json.loads(path.read_text()):
        directory = os.path.normpath(os.path.join(root, entry["directory"]))
        file = os.path.normpath(os.path.join(directory, entry["file"]))
        if file.startswith(str(folder) + os.sep):
            entries.append({**entry, "directory": directory, "file": file})
    out = tmp / (hashlib.sha1(str(folder).encode()).hexdigest() + ".json")
    out.write_text(json.dumps(entries))
    return str(out)


def report(title: str, findings: list[dict], accepted: dict[str, bool], nfiles: int, seconds: float) -> dict:
    kept = [f for f in findings if f["severity"] in ("error", "warning")]
    on_accepted = [f for f in kept if accepted.get(os.path.normpath(os.path.abspath(f["file"])), False)]
    print(f"\n== {title}: {len(on_accepted)} findings on accepted files ==")
    for f in sorted(on_accepted, key=lambda f: (f["file"], f["line"])):
        try:
            line = Path(f["file"]).read_text(errors="replace").splitlines()[f["line"] - 1].strip()
        except (OSError, IndexError):
            line = ""
        print(f"{f['file']}:{f['line']}:{f['column']}: {f['severity']}: {f['message']} [{f['code']}]")
        print(f"    {line[:200]}")
    errors = sum(f["severity"] == "error" for f in on_accepted)
    warnings = sum(f["severity"] == "warning" for f in on_accepted)
    codes = Counter((f["severity"], f["code"]) for f in on_accepted)
    rejected = sum(1 for f in kept if f not in on_accepted)
    print(f"-- {title}: {nfiles} files, {sum(accepted.values())} accepted; on accepted files: {errors} errors, "
          f"{warnings} warnings ({100 * warnings / max(1, sum(accepted.values())):.2f} per 100 accepted files); "
          f"{rejected} findings on files "
          f"the compilers reject or never compile; {seconds:.1f} s")
    if codes:
        print("   by code: " + ", ".join(f"{c} {s} x{n}" for (s, c), n in sorted(codes.items())))
    return {"files": nfiles, "accepted": sum(accepted.values()), "errors": errors, "warnings": warnings,
            "rejected_findings": rejected, "seconds": seconds}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("roots", nargs="+", type=Path)
    p.add_argument("--mode", choices=("whole", "folders", "both"), default="both")
    p.add_argument("--omp-lsp", default=f"{sys.executable} -m omp_lsp", help="the omp-lsp command to run")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = p.parse_args()
    cmd = shlex.split(args.omp_lsp)
    totals: dict[str, Counter[str]] = {"whole": Counter(), "folders": Counter()}
    for root in args.roots:
        root = root.resolve()
        files = walk(root)
        db = database(root)
        accepted = verdicts(root, files, db, args.jobs)
        accepted.update(header_verdicts(files, accepted))
        has_db = (root / "compile_commands.json").is_file()
        print(f"\n#### {root}: {len(files)} files ({sum(p.suffix in SOURCES for p in files)} sources), "
              f"{sum(accepted.values())} accepted by the compilers{' (compile_commands.json)' if has_db else ''}")
        if args.mode in ("whole", "both"):
            found, seconds = omp_lsp(cmd, [str(root)], str(root / "compile_commands.json") if has_db else None)
            totals["whole"].update(report(f"{root.name}, one call", found, accepted, len(files), seconds))
        if args.mode in ("folders", "both"):
            found_all: list[dict] = []
            spent = 0.0
            with tempfile.TemporaryDirectory(prefix="omp-lsp-precision-") as tmp:
                for folder in folders(files):
                    found, seconds = omp_lsp(cmd, [str(folder)], filtered_db(root, folder, Path(tmp)))
                    found_all.extend(found)
                    spent += seconds
            totals["folders"].update(report(f"{root.name}, folder by folder", found_all, accepted, len(files), spent))
    for mode, t in totals.items():
        if t:
            print(f"\n#### all roots, {mode}: {t['files']} files, {t['accepted']} accepted: {t['errors']} errors, "
                  f"{t['warnings']} warnings ({100 * t['warnings'] / max(1, t['accepted']):.2f} per 100 accepted files), "
                  f"{t['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
