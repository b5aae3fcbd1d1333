"""One configuration schema for `omp-lsp --check` and the language server.

Settings come from a project file (`.omp-lsp.toml`, or `[tool.omp-lsp]` in `pyproject.toml`,
found from the checked path or workspace folder upwards), and in the server also from the
client (`initializationOptions`, `workspace/configuration`); the client's settings override
the project file's, and command-line flags override both. Keys may be written camelCase
(`openmpVersion`, as editors do) or kebab-case (`openmp-version`, as TOML files do).

An invalid setting never stops anything: it is reported in one clear line and the value it
would have replaced stays in force.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from typing import Any

from omp_lsp.analysis.check import (
    CATALOGUE,
    MAX_SOURCE_BYTES,
    PROPAGATION_MODES,
    UNSUPPORTED,
    Options,
    Severity,
    dataclass,
    field,
    folders_upwards,
    parse_version,
    read_regular_file,
    replace,
)

PROJECT_FILES = (".omp-lsp.toml", "pyproject.toml")
DEFAULT_MAX_FILE_MB = MAX_SOURCE_BYTES / 1e6   # files larger are skipped (--max-file-size, the workspace index)
MAX_PARENT_LEVELS = 20
MAX_PROJECT_FILE_BYTES = 1_000_000   # settings, not data
SEVERITIES = {"error": Severity.ERROR, "warning": Severity.WARNING, "information": Severity.INFORMATION,
              "info": Severity.INFORMATION, "hint": Severity.HINT}
OFF = ("off", "none", "disabled")


@dataclass(frozen=True)
class Config:
    """Everything configurable: the analysis options and what the front ends use."""
    options: Options = field(default_factory=Options)
    exclude: tuple[str, ...] = ()          # glob patterns of files and folders not to analyse
    toolchain: str | None = None           # preferred toolchain for build and run (codegen)
    defines: tuple[tuple[str, str], ...] = ()   # ("D", "NAME=VALUE") / ("U", "NAME") for every file
    include_paths: tuple[str, ...] = ()    # -I folders for every file (absolute, or relative to the project file)
    build_and_run: bool = True             # the server builds and runs on request (False: refused, no code action)


class SettingError(ValueError):
    """A value the schema does not accept (the message says why)."""


def _strings(value: Any, what: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SettingError(f"{what} must be a list of strings")
    return value


def _codes(value: Any) -> frozenset[str]:
    codes = [c.strip().upper() for c in _strings(value, "disable")]
    unknown = [c for c in codes if c not in CATALOGUE]
    if unknown:
        raise SettingError(f"unknown diagnostic code {', '.join(repr(c) for c in unknown)}")
    return frozenset(codes)


def _severities(value: Any) -> tuple[dict[str, Severity], frozenset[str]]:
    """`{"OMP403": "error", "OMP117": "off"}` -> (overrides, codes turned off)."""
    if not isinstance(value, Mapping):
        raise SettingError("severity must be a table of diagnostic codes to error, warning, information, "
                           "hint or off")
    overrides: dict[str, Severity] = {}
    off: set[str] = set()
    for code, level in value.items():
        key = str(code).strip().upper()
        if key not in CATALOGUE:
            raise SettingError(f"unknown diagnostic code {code!r} in severity")
        word = str(level).strip().lower()
        if word in OFF:
            off.add(key)
        elif word in SEVERITIES:
            overrides[key] = SEVERITIES[word]
        else:
            raise SettingError(f"severity of {key} must be error, warning, information, hint or off, not {level!r}")
    return overrides, frozenset(off)


def _choice(value: Any, known: tuple[str, ...], what: str) -> str:
    if not isinstance(value, str) or value not in known:
        raise SettingError(f"{what} must be one of {', '.join(known)}, not {value!r}")
    return value


def _set_version(c: Config, v: Any) -> Config:
    try:
        return _with(c, openmp_version=parse_version(v))
    except (ValueError, TypeError) as err:
        raise SettingError(str(err)) from None


def _set_severity(c: Config, v: Any) -> Config:
    overrides, off = _severities(v)
    return _with(c, severity={**c.options.severity, **overrides}, disabled=c.options.disabled | off)


def _set_toolchains(c: Config, v: Any) -> Config:
    names = _strings(v, "deviceToolchains")
    for n in names:
        _choice(n, tuple(UNSUPPORTED), "a device toolchain")
    return _with(c, device_toolchains=tuple(dict.fromkeys(names)))


def _set_toolchain(c: Config, v: Any) -> Config:
    if v is not None and not isinstance(v, str):
        raise SettingError("toolchain must be a toolchain name")
    return replace(c, toolchain=v or None)


def _set_build_and_run(c: Config, v: Any) -> Config:
    """Every source may turn build and run off, none may turn it on over another's off: the
    editor's trust (client settings) is not undone by a project file in the workspace."""
    if not isinstance(v, bool):
        raise SettingError("buildAndRun must be true or false")
    return replace(c, build_and_run=c.build_and_run and v)


_MACRO = re.compile(r"[A-Za-z_]\w*(?:\([^)]*\))?(?:=.*)?", re.DOTALL)


def _macros(value: Any, what: str, kind: str) -> tuple[tuple[str, str], ...]:
    out = []
    for text in _strings(value, what):
        text = text.strip()
        if kind == "D" and text.startswith("-D"):
            text = text[2:]
        if kind == "U" and text.startswith("-U"):
            text = text[2:]
        if not _MACRO.fullmatch(text) or (kind == "U" and not text.isidentifier()):
            raise SettingError(f"{what}: '{text}' is not a macro " + ("name" if kind == "U" else "(NAME or NAME=VALUE)"))
        out.append((kind, text))
    return tuple(out)


def _with(c: Config, **changes: Any) -> Config:
    o = c.options
    values = {"openmp_version": o.openmp_version, "disabled": o.disabled, "severity": o.severity,
              "propagation": o.propagation, "device_toolchains": o.device_toolchains, **changes}
    return replace(c, options=Options(**values))


# canonical key -> (apply, description); a table read by one parser, not code per front end
SCHEMA: dict[str, tuple[Callable[[Config, Any], Config], str]] = {
    "openmpVersion": (_set_version, "OpenMP version: 4.5, 5.0, 5.1 (default), 5.2 or 6.0"),
    "disable": (lambda c, v: _with(c, disabled=c.options.disabled | _codes(v)), "diagnostic codes not to report"),
    "severity": (_set_severity, "per-code severity: error, warning, information, hint or off"),
    "propagation": (lambda c, v: _with(c, propagation=_choice(v, PROPAGATION_MODES, "propagation")),
                    "implicit device types as the spec gives them (spec) or as flang generates them (flang)"),
    "deviceToolchains": (_set_toolchains, "toolchains the device code must build with (OMP407)"),
    "exclude": (lambda c, v: replace(c, exclude=(*c.exclude, *_strings(v, "exclude"))),
                "glob patterns of files and folders not to analyse"),
    "defines": (lambda c, v: replace(c, defines=(*c.defines, *_macros(v, "defines", "D"))),
                "macros defined for every file, as -D: NAME or NAME=VALUE (after compile_commands.json's own)"),
    "undefines": (lambda c, v: replace(c, defines=(*c.defines, *_macros(v, "undefines", "U"))),
                  "macros undefined for every file, as -U"),
    "includePaths": (lambda c, v: replace(c, include_paths=(*c.include_paths, *_strings(v, "includePaths"))),
                     "folders searched for #include, as -I (after compile_commands.json's own)"),
    "toolchain": (_set_toolchain, "the toolchain to build and run with (default: the first one found)"),
    "buildAndRun": (_set_build_and_run, "false: the server refuses to build and run (the editor's workspace trust)"),
}
_KEYS = {k.lower(): k for k in SCHEMA}
# Settings of the editors' own in the `omp-lsp` section (how to start the server, message traces):
# sent along with the others, and not the server's.
EDITOR_SETTINGS = ("server", "trace")


def canonical(key: str) -> str | None:
    """`openmp-version`, `openmp_version`, `openmpVersion` -> `openmpVersion` (None: unknown)."""
    return _KEYS.get(key.replace("-", "").replace("_", "").lower())


def apply(settings: Mapping[str, Any] | None, base: Config, source: str) -> tuple[Config, list[str]]:
    """`base` with every valid setting applied, and one message per setting that was not."""
    if settings is None:
        return base, []
    if not isinstance(settings, Mapping):
        return base, [f"{source}: settings must be a table of names to values"]
    config = base
    problems: list[str] = []
    for key, value in settings.items():
        if value is None or key in EDITOR_SETTINGS:
            continue   # unset (an editor sends its settings' null defaults), or the editor's own
        name = canonical(str(key))
        if name is None:
            problems.append(f"{source}: unknown setting '{key}' (known: {', '.join(SCHEMA)})")
            continue
        try:
            config = SCHEMA[name][0](config, value)
        except SettingError as err:
            problems.append(f"{source}: {name}: {err}; keeping {_current(config, name)}")
    return config, problems


def settings_of(config: Config) -> dict[str, Any]:
    """The configuration as settings (what an editor shows as the values in force)."""
    o = config.options
    return {"openmpVersion": f"{o.openmp_version // 10}.{o.openmp_version % 10}", "propagation": o.propagation,
            "deviceToolchains": list(o.device_toolchains), "toolchain": config.toolchain,
            "exclude": list(config.exclude), "disable": sorted(o.disabled),
            "defines": [v for k, v in config.defines if k == "D"], "undefines": [v for k, v in config.defines if k == "U"],
            "includePaths": list(config.include_paths), "buildAndRun": config.build_and_run,
            "severity": {k: v.label for k, v in o.severity.items()}}


def _current(config: Config, name: str) -> str:
    return f"the previous value ({settings_of(config)[name]})"


# -- project files ------------------------------------------------------------------------------
def find_project_file(start: str) -> str | None:
    """`.omp-lsp.toml`, or a `pyproject.toml` with a `[tool.omp-lsp]` table, in `start` (a folder,
    or a file's folder) or the nearest folder above it."""
    for folder in folders_upwards(start, MAX_PARENT_LEVELS):
        own = os.path.join(folder, ".omp-lsp.toml")
        if os.path.isfile(own):
            return own
        pyproject = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(pyproject) and _has_tool_table(pyproject):
            return pyproject
    return None


_TOOL_TABLE = re.compile(rb"^[ \t]*\[[ \t]*tool[ \t]*\.[ \t]*[\"']?omp-lsp", re.MULTILINE)


def _has_tool_table(path: str) -> bool:
    try:
        return _TOOL_TABLE.search(read_regular_file(path, MAX_PROJECT_FILE_BYTES)) is not None
    except OSError:
        return False


def read_project_file(path: str) -> tuple[dict[str, Any], list[str]]:
    """The settings a project file holds, and what is wrong with it (never raises)."""
    import tomllib
    try:
        text = read_regular_file(path, MAX_PROJECT_FILE_BYTES)
        if len(text) > MAX_PROJECT_FILE_BYTES:
            return {}, [f"{path}: larger than {MAX_PROJECT_FILE_BYTES // 1_000_000} MB; its settings are ignored"]
        data = tomllib.loads(text.decode("utf-8"))
    except OSError as err:
        return {}, [f"{path}: cannot read: {err.strerror}"]
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        return {}, [f"{path}: not valid TOML: {err}; its settings are ignored"]
    if os.path.basename(path) == "pyproject.toml":
        data = data.get("tool", {}).get("omp-lsp", {})
    if not isinstance(data, dict):
        return {}, [f"{path}: [tool.omp-lsp] must be a table"]
    return data, []


def project_config(start: str, base: Config | None = None) -> tuple[Config, str | None, list[str]]:
    """The configuration a project file near `start` gives (over `base`), its path and problems."""
    base = base or Config()
    path = find_project_file(start)
    if path is None:
        return base, None, []
    settings, problems = read_project_file(path)
    config, more = apply(settings, base, path)
    return config, path, [*problems, *more]


__all__ = ["SCHEMA", "Config", "apply", "canonical", "find_project_file", "project_config", "read_project_file"]
