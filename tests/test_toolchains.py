"""Toolchain discovery (codegen/toolchains.py): the compilers installed on this machine (the README's
set-up installs clang-22, flang-22 and gcc-12 with its nvptx offload compiler), and installations
laid out under a temporary root for what this machine does not have (a GPU, a vendor SDK)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from omp_lsp.codegen.toolchains import (
    GCC_NVPTX,
    HOST_OFFLOAD,
    NVPTX,
    Toolchain,
    discover,
    pick,
)

needs_llvm = pytest.mark.skipif(shutil.which("clang-22") is None or shutil.which("flang-22") is None,
                                reason="the README's set-up installs clang-22 and flang-22")
needs_gcc = pytest.mark.skipif(not Path("/usr/lib/gcc/x86_64-linux-gnu/12/accel/nvptx-none/mkoffload").exists(),
                               reason="the README's set-up installs gcc-12-offload-nvptx")


def _named(toolchains: list[Toolchain], name: str) -> Toolchain:
    [found] = [t for t in toolchains if t.name == name]
    return found


@needs_llvm
def test_llvm_22_builds_host_offload_images_for_c_and_cxx_and_fortran_for_the_host_only() -> None:
    llvm = _named(discover(), "llvm-22")
    assert Path(llvm.compilers["c"]).name == "clang-22" and Path(llvm.compilers["c++"]).name == "clang++-22"
    assert Path(llvm.compilers["fortran"]).name == "flang-22"
    assert llvm.offload_targets["c"] == llvm.offload_targets["c++"] == (HOST_OFFLOAD,)
    assert llvm.device_run("c") and not llvm.device_build("fortran")
    assert "flang" in llvm.notes["fortran"] and "host-only" in llvm.notes["fortran"] and "c" not in llvm.notes


@needs_gcc
def test_gcc_12_builds_nvptx_images_that_find_no_gpu_here() -> None:
    gcc = _named(discover(), "gcc-12")
    assert set(gcc.compilers) == {"c", "c++", "fortran"}
    assert all(gcc.offload_targets[language] == (GCC_NVPTX,) for language in gcc.compilers)
    assert gcc.device_build("fortran")
    assert gcc.device_run("fortran") == Path("/dev/nvidiactl").exists()   # (no GPU on these machines)


@needs_llvm
@needs_gcc
def test_a_setting_pins_a_toolchain_by_its_name_or_a_compilers() -> None:
    found = discover()
    assert pick(found, "c").name == "llvm-22"            # a device runs its images here
    assert pick(found, "fortran").name == "gcc-12"       # flang cannot build Fortran device images here
    for setting, name in [("gcc-12", "gcc-12"), ("gfortran", "gcc-12"), ("clang-22", "llvm-22"),
                          ("flang-22", "llvm-22"), ("llvm", "llvm-22")]:
        assert pick(found, "fortran", setting).name == name
    assert pick(found, "c", "icx") is None


def _install(root: Path, folder: str, names: list[str], target: str) -> None:
    where = root / folder.lstrip("/")
    where.mkdir(parents=True, exist_ok=True)
    for name in names:
        (where / name).symlink_to(target)


@needs_llvm
def test_an_llvm_without_an_offload_runtime_builds_for_the_host_only(tmp_path: Path) -> None:
    # a copy of the installation's layout: the compilers, no lib/libomptarget.so
    _install(tmp_path, "/usr/lib/llvm-23/bin", ["clang", "clang++", "flang"], shutil.which("clang-22") or "")
    (tmp_path / "usr/lib/llvm-23/lib").mkdir()
    (tmp_path / "usr/lib/llvm-23/lib/libomp.so").touch()
    [llvm] = discover(path="", root=str(tmp_path))
    assert (llvm.name, llvm.version) == ("llvm-23", 23)
    assert not llvm.device_build("c") and "libomptarget" in llvm.notes["c"]


def _llvm_with_an_nvptx_runtime(root: Path) -> Toolchain:
    """An LLVM 23 laid out under `root` with the offload runtime and an NVPTX device runtime."""
    _install(root, "/usr/lib/llvm-23/bin", ["clang"], shutil.which("clang-22") or "")
    lib = root / "usr/lib/llvm-23/lib"
    (lib / "nvptx64-nvidia-cuda").mkdir(parents=True)
    for name in ("libomptarget.so", "nvptx64-nvidia-cuda/libompdevice.a"):
        (lib / name).touch()
    [llvm] = discover(path="", root=str(root))
    return llvm


def _with_a_gpu(root: Path) -> Toolchain:
    """The LLVM under `root` found again with an NVIDIA driver's device file there."""
    (root / "dev").mkdir()
    (root / "dev/nvidiactl").touch()
    [llvm] = discover(path="", root=str(root))
    return llvm


@needs_llvm
def test_a_gpu_runtime_and_a_gpu_make_device_runs_possible(tmp_path: Path) -> None:
    llvm = _llvm_with_an_nvptx_runtime(tmp_path)
    assert llvm.offload_targets["c"] == (HOST_OFFLOAD, NVPTX) and not llvm.devices[NVPTX]
    llvm = _with_a_gpu(tmp_path)
    assert llvm.devices[NVPTX] and llvm.device_run("c")


def test_nothing_found_is_an_empty_list_not_an_error(tmp_path: Path) -> None:
    assert discover(path=str(tmp_path / "missing"), root=str(tmp_path)) == []
    assert pick([], "c") is None


@needs_llvm
def test_an_unversioned_name_takes_the_version_of_what_it_links_to(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "clang").symlink_to(os.path.realpath(shutil.which("clang-22") or ""))
    [llvm] = discover(path=str(bin_dir), folders=(), root=str(tmp_path))
    assert llvm.name == "llvm-22" and Path(llvm.compilers["c"]).parent == bin_dir


@needs_llvm
def test_with_a_gpu_the_offloading_build_targets_it(tmp_path: Path) -> None:
    from omp_lsp.codegen.plans import plans
    llvm = _llvm_with_an_nvptx_runtime(tmp_path)
    _, device = plans(llvm, "c", "p.c", "out")[0]
    assert "-fopenmp-targets=x86_64-unknown-linux-gnu" in device.command   # no GPU: the host device
    llvm = _with_a_gpu(tmp_path)
    _, device = plans(llvm, "c", "p.c", "out")[0]
    assert "--offload-arch=native" in device.command


@needs_llvm
@needs_gcc
def test_the_names_users_write_select_the_toolchain_found() -> None:
    """`toolchain = "clang"` (the README's example) means the LLVM found here: a compiler's or the
    vendor's name, with the version found or without, in any case."""
    found = discover()
    for setting, name in [("clang", "llvm-22"), ("Clang", "llvm-22"), ("clang22", "llvm-22"), ("clang++", "llvm-22"),
                          ("flang-new-22", "llvm-22"), ("LLVM-22", "llvm-22"), ("gnu", "gcc-12"), ("gcc", "gcc-12"),
                          ("g++-12", "gcc-12"), ("GNU-12", "gcc-12"), ("x86_64-linux-gnu-gcc-12", "gcc-12")]:
        chosen = pick(found, "c", setting)
        assert chosen is not None and chosen.name == name, setting
    for setting in ("clang-21", "gcc-11", "icx", "clang-", "nvc"):   # another version, or not here
        assert pick(found, "c", setting) is None, setting
    llvm = _named(found, "llvm-22")
    assert llvm.also_named() == "llvm, clang, clang++, flang or flang-new, with or without -22"
