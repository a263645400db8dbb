"""The pytest plugin of lobstack-eval: regression tests from recorded cassettes, where users
already are.

Registered with the ``pytest11`` entry point (``lobstack``), so installing lobstack-eval is enough.
Module map: ``plugin`` (the hooks and the ``lobstack_results`` fixture), ``options``
(``--lobstack-*``), ``items`` (one test per model and case), ``state`` (the suite, baseline and each
model's scored run), ``floors`` (metric bounds), ``summary`` (what is printed). It sits above
``replay`` like the CLI: it may import ``replay``, ``recorder`` and ``scorer``.
"""
