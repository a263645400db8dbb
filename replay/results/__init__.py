"""results.json read back: one strict, bounded reader (``read``), the document's typed value (its
summary, ``summary``; its case entries, ``cases``; both with the suite and run it names,
``typed``). Written by ``scorer.results`` and ``replay.scored``. A docstring only: the modules are
imported by name, so no module imports this package back."""
