"""omp-lsp: OpenMP offloading diagnostics for C, C++ and Fortran.

The analysis (`omp_lsp.analysis`), the language server and CLI (`omp_lsp.server`) and
the build-and-run backend (`omp_lsp.codegen`) live in the project's top-level folders
and are mapped under this package by the build configuration.
"""
__version__ = "0.1.0"
