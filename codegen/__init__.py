"""Build and run host and device binaries with real compilers (see the codegen issue).

Knows compilers and processes; never imports omp_lsp.server.
"""
