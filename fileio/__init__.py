"""File I/O every package may use: atomic writes, reads that fail with one clear line, paths that
stay under their root. Nothing here knows about suites, cassettes or reports."""
