"""Process pools for record and rescore: how worker processes are started."""

from __future__ import annotations

import importlib
import multiprocessing
import sys
import threading
from collections.abc import Sequence
from multiprocessing.context import BaseContext


def pool_context(preload: Sequence[str]) -> BaseContext:
    """``fork`` while this process has no other thread (the workers inherit ``preload``, imported
    here once), else ``forkserver`` preloading it (a clean process forks the workers),
    else ``spawn``.

    Forking a process that runs other threads can deadlock the child, hence the check. polars runs a
    thread pool of its own (not Python threads) once used, and a forked child then hangs, so a
    process that has imported polars never forks.
    """
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1 and "polars" not in sys.modules:
        for name in preload:
            importlib.import_module(name)
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(preload))
        return context
    return multiprocessing.get_context("spawn")
