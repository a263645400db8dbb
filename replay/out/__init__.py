"""The folders rescore, merge and report write: checked usable and cleared of stale results
(``folder``), held by one writer at a time (``lock``). A docstring only: the modules are imported
by name."""
