"""Which compilers are installed here and what each can do (toolchain discovery).

Looks on PATH and in the usual installation folders (`/usr/lib/llvm-NN/bin`, the NVIDIA HPC
SDK, ROCm) for LLVM (clang, clang++, flang), GCC (gcc, g++, gfortran) and the vendors'
compilers, and groups them into toolchains by family and major version. What a toolchain can
build for a device is read from the files its installation holds (an offload runtime, GCC's
`accel/<target>/mkoffload`), and whether a device is there from the device files the drivers
create. Nothing is compiled or run here: running code is the user's explicit act (the runner).
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from omp_lsp.analysis.check import dataclass, field

# Offload targets (as the compilers name them) and the device each runs on.
HOST_OFFLOAD = "x86_64-unknown-linux-gnu"     # clang: a device image run by the host plugin
NVPTX = "nvptx64-nvidia-cuda"
AMDGCN = "amdgcn-amd-amdhsa"
GCC_NVPTX = "nvptx-none"
GCC_AMDGCN = "amdgcn-amdhsa"

# (family, language, executable name pattern): the version, when the name has one, is group 1.
_NAMES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("llvm", "c", re.compile(r"clang(?:-(\d+))?")),
    ("llvm", "c++", re.compile(r"clang\+\+(?:-(\d+))?")),
    ("llvm", "fortran", re.compile(r"flang(?:-new)?(?:-(\d+))?")),
    # (Debian's real GCC executables carry the target: x86_64-linux-gnu-gcc-12)
    ("gcc", "c", re.compile(r"(?:[a-z0-9_]+-linux-gnu-)?gcc(?:-(\d+))?")),
    ("gcc", "c++", re.compile(r"(?:[a-z0-9_]+-linux-gnu-)?g\+\+(?:-(\d+))?")),
    ("gcc", "fortran", re.compile(r"(?:[a-z0-9_]+-linux-gnu-)?gfortran(?:-(\d+))?")),
    ("nvhpc", "c", re.compile(r"nvc()")),
    ("nvhpc", "c++", re.compile(r"nvc\+\+()")),
    ("nvhpc", "fortran", re.compile(r"nvfortran()")),
    ("rocm", "c", re.compile(r"amdclang()")),
    ("rocm", "c++", re.compile(r"amdclang\+\+()")),
    ("rocm", "fortran", re.compile(r"amdflang()")),
)
# Any of them: one match per file name decides whether it can be a compiler (a PATH folder holds
# thousands of names, and discovery runs before every build).
_ANY_NAME = re.compile("|".join(f"(?:{pattern.pattern})" for _, _, pattern in _NAMES))
# Folders compilers are installed in besides PATH (globs).
_FOLDERS = ("/usr/lib/llvm-*/bin", "/opt/nvidia/hpc_sdk/Linux_x86_64/*/compilers/bin", "/opt/rocm*/llvm/bin",
            "/opt/rocm*/bin")
_LLVM_FOLDER = re.compile(r"/llvm-(\d+)/")
# The names users write for a toolchain (the vendor's, or a compiler's), each with a version
# (`clang-22`, `gcc12`) or without (the newest found): `toolchain = "clang"` means LLVM.
FAMILY_NAMES: dict[str, tuple[str, ...]] = {
    "llvm": ("llvm", "clang", "clang++", "flang", "flang-new"),
    "gcc": ("gcc", "gnu", "g++", "gfortran"),
    "nvhpc": ("nvhpc", "nvidia", "nvc", "nvc++", "nvfortran"),
    "rocm": ("rocm", "amd", "amdclang", "amdclang++", "amdflang"),
}
_FAMILY_OF = {alias: family for family, aliases in FAMILY_NAMES.items() for alias in aliases}
_SETTING = re.compile(r"(?:[a-z0-9_]+-linux-gnu-)?(?P<alias>[a-z+]+(?:-new)?)(?:-?(?P<version>\d+))?")
_DEVICES = {NVPTX: ("/dev/nvidiactl", "/dev/nvidia0"), AMDGCN: ("/dev/kfd",), GCC_NVPTX: ("/dev/nvidiactl", "/dev/nvidia0"),
            GCC_AMDGCN: ("/dev/kfd",)}


@dataclass(frozen=True)
class Toolchain:
    """Compilers of one family and version, and what they can build and run here."""
    name: str                                   # "llvm-22", "gcc-12", "nvhpc", ...
    family: str                                 # llvm, gcc, nvhpc, rocm
    version: int                                # major version; 0 when the names do not say
    compilers: Mapping[str, str]                # language ("c", "c++", "fortran") -> executable
    offload_targets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # language -> targets
    devices: Mapping[str, bool] = field(default_factory=dict)   # offload target -> a device is here
    notes: Mapping[str, str] = field(default_factory=dict)   # language -> why it builds no device code

    def device_build(self, language: str) -> bool:
        return bool(self.offload_targets.get(language))

    def device_run(self, language: str) -> bool:
        """Whether a device image it builds for `language` can run on a device here."""
        return any(self.devices.get(t) for t in self.offload_targets.get(language, ()))

    def answers_to(self, name: str) -> bool:
        """Whether a setting naming a toolchain means this one: its name (`llvm-22`), a
        compiler's file name (`x86_64-linux-gnu-gcc-12`), or a name of its family (FAMILY_NAMES:
        `clang`, `gnu`, `gfortran`...) with its version (`clang-22`, `gcc12`) or without; case does not matter."""
        if name in (self.name, self.family) or any(Path(path).name == name for path in self.compilers.values()):
            return True
        m = _SETTING.fullmatch(name.strip().lower())
        if m is None or _FAMILY_OF.get(m["alias"]) != self.family:
            return False
        return m["version"] is None or int(m["version"]) == self.version

    def also_named(self) -> str:
        """The names a setting may give it besides its own, for a message: `llvm, clang, clang++,
        flang or flang-new, with or without -22`."""
        *most, last = FAMILY_NAMES.get(self.family, (self.family,))
        aliases = f"{', '.join(most)} or {last}" if most else last
        return f"{aliases}, with or without -{self.version}" if self.version else aliases


def discover(path: str | None = None, folders: Iterable[str] = _FOLDERS, root: str = "/") -> list[Toolchain]:
    """The toolchains installed here: newest first within a family, LLVM, GCC, then vendors'.
    `path`: the search path (default: PATH); `root`: where the installation folders and device
    files are looked for (tests)."""
    found: dict[tuple[str, int], dict[str, str]] = {}
    seen: set[tuple[str, str]] = set()
    for folder in _search_folders(path, folders, root):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            hit = _compiler(name)
            if hit is None:
                continue
            family, language, version = hit
            exe = os.path.join(folder, name)
            real = os.path.realpath(exe)
            # (one executable may be several drivers: clang++ links to clang, and acts by its name)
            if (real, language) in seen or not os.access(exe, os.X_OK) or not os.path.isfile(real):
                continue
            if version == 0:   # an unversioned name: the installation (or the link's target) may say
                m = (_LLVM_FOLDER.search(folder + "/") or _LLVM_FOLDER.search(real + "/")) if family == "llvm" else None
                again = _compiler(os.path.basename(real))
                version = int(m.group(1)) if m else again[2] if again and again[0] == family else 0
            seen.add((real, language))
            found.setdefault((family, version), {}).setdefault(language, exe)
    order = {"llvm": 0, "gcc": 1, "nvhpc": 2, "rocm": 3}
    out = [_toolchain(family, version, compilers, root) for (family, version), compilers in found.items()]
    return sorted(out, key=lambda t: (order.get(t.family, 9), -t.version))


def pick(toolchains: list[Toolchain], language: str, setting: str | None = None) -> Toolchain | None:
    """The toolchain for a `language` build: the one the setting names, else the first that can
    run a device image here, else the first that can build one, else the first that compiles the
    language at all."""
    able = [t for t in toolchains if language in t.compilers]
    if setting:
        return next((t for t in able if t.answers_to(setting)), None)
    return next((t for t in able if t.device_run(language)), None) \
        or next((t for t in able if t.device_build(language)), None) or (able[0] if able else None)


# -- helpers ------------------------------------------------------------------------------------
def found_names(toolchains: list[Toolchain]) -> str:
    """What a message lists when a setting names no toolchain found here: each one found, and
    the names that select it."""
    return "; ".join(f"{t.name}, also named {t.also_named()}" for t in toolchains) or "none"


def _search_folders(path: str | None, folders: Iterable[str], root: str) -> list[str]:
    out: list[str] = []
    for entry in (os.environ.get("PATH", "") if path is None else path).split(os.pathsep):
        if entry and entry not in out:
            out.append(entry)
    for pattern in folders:
        for folder in sorted(Path(root).glob(pattern.lstrip("/")), reverse=True):
            if str(folder) not in out:
                out.append(str(folder))
    return out


def _compiler(name: str) -> tuple[str, str, int] | None:
    if _ANY_NAME.fullmatch(name) is None:
        return None
    for family, language, pattern in _NAMES:
        m = pattern.fullmatch(name)
        if m is not None:
            return family, language, int(m.group(1)) if m.group(1) else 0
    return None


def _toolchain(family: str, version: int, compilers: dict[str, str], root: str) -> Toolchain:
    name = f"{family}-{version}" if version else family
    targets: dict[str, tuple[str, ...]] = {}
    notes: dict[str, str] = {}
    if family == "llvm":
        lib = _llvm_lib(compilers, version, root)
        c_targets = tuple(t for t, present in ((HOST_OFFLOAD, lib is not None and (lib / "libomptarget.so").exists()),
                                               (NVPTX, lib is not None and _device_runtime(lib, "nvptx")),
                                               (AMDGCN, lib is not None and _device_runtime(lib, "amdgpu")))
                          if present)
        for language in ("c", "c++"):
            if language in compilers:
                if c_targets:
                    targets[language] = c_targets
                else:
                    notes[language] = f"{name}: no offload runtime (libomptarget) is installed: host builds only"
        if "fortran" in compilers:
            # flang compiles target regions, but its offloading link needs a device runtime
            # for Fortran that no Debian package holds (undefined __kmpc_target_init)
            notes["fortran"] = (f"{name}: flang's offloading link cannot work here (no device runtime for "
                                "Fortran is installed): Fortran builds are host-only")
    elif family == "gcc":
        accel = tuple(sorted(p.parent.name for p in Path(root).glob(f"usr/lib/gcc/*/{version}/accel/*/mkoffload"))) \
            if version else ()
        for language in compilers:
            if accel:
                targets[language] = accel
            else:
                notes[language] = f"{name}: no offload compiler (gcc-{version or 'NN'}-offload-nvptx) is installed: host builds only"
    elif family in ("nvhpc", "rocm"):
        for language in compilers:
            targets[language] = (NVPTX if family == "nvhpc" else AMDGCN,)
    devices = {t: t == HOST_OFFLOAD or any(Path(root, d.lstrip("/")).exists() for d in _DEVICES.get(t, ()))
               for ts in targets.values() for t in ts}
    return Toolchain(name, family, version, dict(sorted(compilers.items())), targets, devices, notes)


def _llvm_lib(compilers: dict[str, str], version: int, root: str) -> Path | None:
    """The `lib` folder of an LLVM installation (next to its `bin`)."""
    for exe in compilers.values():
        for where in (exe, os.path.realpath(exe)):   # (its own installation first, then the link's)
            lib = Path(where).parent.parent / "lib"
            if (lib / "libomp.so").exists() or (lib / "libomptarget.so").exists():
                return lib
    candidate = Path(root, f"usr/lib/llvm-{version}/lib")
    return candidate if version and candidate.is_dir() else None


def _device_runtime(lib: Path, kind: str) -> bool:
    """Whether the device runtime for GPUs of `kind` (nvptx, amdgpu) is installed."""
    return any(lib.glob(f"libomptarget-{kind}*.bc")) or any(lib.glob(f"*{kind}*/libompdevice.a")) \
        or any(lib.glob(f"*{kind}*/libomptarget.devicertl.a"))
