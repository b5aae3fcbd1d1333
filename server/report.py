"""`omp-lsp --check` output formats: gcc-style lines, JSON and SARIF 2.1.0; the `--device-map` table.

Lines and columns are 1-based; columns count Unicode code points (characters). File names are
written so that every reader takes them (escaping.py): the text formats escape control characters
and bytes that are not UTF-8 (`\\x0a`, `\\xff`: one diagnostic per line), JSON holds valid Unicode
(U+FFFD for such a byte), SARIF percent-encodes its URIs.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TextIO

from omp_lsp.analysis.check import CATALOGUE, Finding, LineIndex, Related, Severity, Span, dataclass

from omp_lsp import __version__

from .escaping import line_text, unicode_values, uri_path

if TYPE_CHECKING:
    from omp_lsp.analysis.check import DeviceGraph

_GCC_LABEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note",
              Severity.HINT: "note"}
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note",
                Severity.HINT: "note"}



@dataclass
class CheckedFile:
    """A file `--check` analysed: its findings (with the cross-file ones) and where its lines start."""
    path: str
    findings: list[Finding]
    internal_errors: list[str]
    lines: LineIndex

def _pos(lines: LineIndex, offset: int) -> tuple[int, int]:
    line, col = lines.position(offset, "utf-32")
    return line + 1, col + 1


def _range(lines: LineIndex, span: Span) -> tuple[int, int, int, int]:
    return (*_pos(lines, span[0]), *_pos(lines, span[1]))


def _findings(checked: list[CheckedFile]) -> Iterator[tuple[CheckedFile, Finding]]:
    for c in checked:
        for f in c.findings:
            yield c, f


def _related_at(c: CheckedFile, r: Related, files: dict[str, LineIndex]) -> tuple[str, LineIndex | None]:
    """Where related information points: this file, or another file of the same check."""
    if r.path is None or r.path == c.path:
        return c.path, c.lines
    return r.path, files.get(r.path)


def _line_indexes(checked: list[CheckedFile]) -> dict[str, LineIndex]:
    """Line indexes of the checked files (`others`: files of the program that were read but not
    given, such as compile_commands.json's, where related information may point)."""
    return {c.path: c.lines for c in checked}


def write_gcc(checked: list[CheckedFile], out: TextIO, others: dict[str, LineIndex] | None = None) -> None:
    counts = {label: 0 for label in ("error", "warning", "note")}
    files = {**(others or {}), **_line_indexes(checked)}
    for c, f in _findings(checked):
        lines = c.lines
        line, col = _pos(lines, f.span[0])
        label = _GCC_LABEL[f.effective_severity]
        counts[label] += 1
        out.write(line_text(f"{c.path}:{line}:{col}: {label}: {f.message} [{f.code}]") + "\n")
        for r in f.related:
            path, rlines = _related_at(c, r, files)
            rline, rcol = _pos(rlines, r.span[0]) if rlines is not None else (0, 0)
            out.write(line_text(f"{path}:{rline}:{rcol}: note: {r.message}") + "\n")
    total = sum(counts.values())
    count = f"{len(checked)} file{'s' if len(checked) != 1 else ''}"
    if total == 0:
        out.write(f"omp-lsp: no problems in {count}\n")
    else:
        parts = [f"{n} {label}{'s' if n != 1 else ''}" for label, n in counts.items() if n]
        out.write(f"omp-lsp: {', '.join(parts)} in {count}\n")


def _json_diagnostic(c: CheckedFile, f: Finding, files: dict[str, LineIndex]) -> dict[str, Any]:
    lines = c.lines
    line, col, end_line, end_col = _range(lines, f.span)
    related = []
    for r in f.related:
        path, rlines = _related_at(c, r, files)
        rline, rcol = _pos(rlines, r.span[0]) if rlines is not None else (0, 0)
        related.append({"file": path, "line": rline, "column": rcol, "message": r.message})
    return {"file": c.path, "line": line, "column": col, "end_line": end_line, "end_column": end_col,
            "severity": f.effective_severity.label, "code": f.code, "message": f.message, "related": related}


def write_json(checked: list[CheckedFile], out: TextIO, others: dict[str, LineIndex] | None = None) -> None:
    import json  # json and SARIF only: the default gcc format starts faster without it
    files = {**(others or {}), **_line_indexes(checked)}
    doc = {"version": 1, "files_checked": len(checked),
           "diagnostics": [_json_diagnostic(c, f, files) for c, f in _findings(checked)]}
    json.dump(unicode_values(doc), out, indent=2)
    out.write("\n")


def _uri(path: str) -> tuple[str, bool]:
    """A SARIF artifact URI: relative to the working directory when possible."""
    from pathlib import Path
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute)
    except ValueError:
        rel = None
    if rel is not None and not rel.startswith(".."):
        return uri_path(Path(rel).as_posix()), True
    return Path(absolute).as_uri(), False   # (as_uri percent-encodes the name's bytes)


def _sarif_region(lines: LineIndex, span: Span) -> dict[str, int]:
    line, col, end_line, end_col = _range(lines, span)
    return {"startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col}


def _location(path: str, region: dict[str, int]) -> dict[str, Any]:
    uri, relative = _uri(path)
    artifact: dict[str, Any] = {"uri": uri}
    if relative:
        artifact["uriBaseId"] = "%SRCROOT%"
    location: dict[str, Any] = {"artifactLocation": artifact}
    if region:
        location["region"] = region
    return {"physicalLocation": location}


def sarif_rules() -> list[dict[str, Any]]:
    rules = []
    for info in CATALOGUE.values():
        spec = f" (OpenMP {info.spec})" if info.spec else ""
        rules.append({
            "id": info.code,
            "name": info.code,
            "shortDescription": {"text": info.title},
            "fullDescription": {"text": f"{info.title}{spec}."},
            "help": {"text": f"{info.code}: {info.title}{spec}. See the omp-lsp rule catalogue."},
            "defaultConfiguration": {"level": _SARIF_LEVEL[info.severity]},
            "properties": {"tags": ["openmp"], "precision": "high"},
        })
    return rules


def write_sarif(checked: list[CheckedFile], out: TextIO, others: dict[str, LineIndex] | None = None) -> None:
    import hashlib  # only SARIF needs these; --check start-up stays lean
    import json
    from pathlib import Path
    rules = sarif_rules()
    index = {r["id"]: i for i, r in enumerate(rules)}
    files = {**(others or {}), **_line_indexes(checked)}
    results = []
    for c, f in _findings(checked):
        lines = c.lines
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _SARIF_LEVEL[f.effective_severity],
            "message": {"text": f.message},
            "locations": [_location(c.path, _sarif_region(lines, f.span))],
        }
        start, end = lines.line_span(lines.line_of(f.span[0]))
        line_text = lines.source[start:end].strip()
        # A stable location for GitHub's alert de-duplication: the rule and the line's text.
        digest = hashlib.sha256(f.code.encode() + b"\0" + line_text).hexdigest()[:32]
        result["partialFingerprints"] = {"primaryLocationLineHash": f"{digest}:1"}
        related = []
        for i, r in enumerate(f.related):
            path, rlines = _related_at(c, r, files)
            region = _sarif_region(rlines, r.span) if rlines is not None else {}
            related.append({"id": i, "message": {"text": r.message}, **_location(path, region)})
        if related:
            result["relatedLocations"] = related
        results.append(result)
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "omp-lsp", "version": __version__, "semanticVersion": __version__,
                                "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": Path(os.getcwd()).as_uri() + "/"}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
    json.dump(unicode_values(sarif), out, indent=2)
    out.write("\n")


# -- omp-lsp --device-map ----------------------------------------------------------------------------
def device_rows(graph: DeviceGraph, files: dict[str, LineIndex], paths: set[str] | None = None) -> list[dict[str, Any]]:
    """The map's rows (of the entities defined in `paths`, when given)."""
    rows = []
    for r in graph.rows():
        if paths is not None and r.path not in paths:
            continue
        lines = files.get(r.path)
        line, col = _pos(lines, r.span[0]) if lines is not None else (r.line, 1)
        chain = []
        for step in r.chain:
            step_lines = files.get(step.path)
            where = _pos(step_lines, step.span[0]) if step_lines is not None else (0, 0)
            chain.append({"label": step.label, "file": step.path, "line": where[0], "column": where[1]})
        rows.append({"name": r.name, "kind": r.kind, "device_type": r.device_type,
                     "explicit": r.explicit, "file": r.path, "line": line, "column": col, "chain": chain,
                     **({"defined_in": list(r.defined_in)} if r.defined_in else {})})
    return rows


def write_device_map_json(graph: DeviceGraph, files: dict[str, LineIndex], out: TextIO) -> None:
    import json
    json.dump(unicode_values({"version": __version__, "propagation": graph.mode,
                              "entities": device_rows(graph, files)}), out, indent=2)
    out.write("\n")


def _defined_in(paths: list[str]) -> str:
    """`defined in a.c and in b.c`: an entity several files of one program define."""
    if not paths:
        return ""
    return f"(defined in {' and in '.join(os.path.basename(p) for p in paths)})"


def write_device_map_text(graph: DeviceGraph, files: dict[str, LineIndex], out: TextIO,
                          paths: set[str] | None = None) -> None:
    """One line per entity: where, kind, name, device type, how it got it, and the chain."""
    rows = device_rows(graph, files, paths)
    table = [tuple(line_text(cell) for cell in (
                 f"{r['file']}:{r['line']}", r["kind"], r["name"], r["device_type"],
                 "explicit" if r["explicit"] else ("implicit" if r["device_type"] != "none" else "-"),
                 "  ".join(part for part in (
                     " → ".join(f"{s['label']} ({os.path.basename(s['file'])}:{s['line']})" for s in r["chain"]),
                     _defined_in(r.get("defined_in", ()))) if part)))
             for r in rows]
    header = ("location", "kind", "name", "device type", "how", "chain")
    widths = [max(len(h), *(len(t[i]) for t in table)) if table else len(h) for i, h in enumerate(header[:-1])]
    out.writelines("  ".join(cell.ljust(w) for cell, w in zip(row[:-1], widths, strict=True)).rstrip()
                   + (f"  {row[-1]}" if row[-1] else "") + "\n" for row in (header, *table))
    on_device = sum(1 for r in rows if r["device_type"] in ("any", "nohost"))
    implied = sum(1 for r in rows if r["device_type"] != "none" and not r["explicit"])
    out.write(f"omp-lsp: {len(rows)} procedures and static variables, {on_device} on the device "
              f"({implied} implicit), propagation: {graph.mode}\n")
