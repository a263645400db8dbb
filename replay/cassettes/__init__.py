"""Committed cassettes read for replay: their shape checked (``shape``), then served request by
request (``transport``). A docstring only: the modules are imported by name."""
