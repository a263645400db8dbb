"""The ``lobstack-eval`` command line (typer): ``main`` registers one thin module per
command (``cmd_*``).

Each command parses its options and calls one function of ``replay``, ``recorder`` or ``scorer``;
the single error handler in ``main`` turns a ``LobstackError`` into one ``error: ...`` line and its
exit code. Only ``cmd_gateway`` imports the stand-in gateway (``standin``).
"""
