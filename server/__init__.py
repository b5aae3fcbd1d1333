"""The LSP adapter and the `omp-lsp` command line (thin layers over omp_lsp.analysis)."""
