"""The bottom layer: source text and what is said about it. Documents, languages and line
indexes (document), findings and their catalogue (diagnostics), quick-fix edits (fixes), the
records every layer builds with, the analysis options, and a build's compile commands."""
