"""The report's plots and compiled templates, cached by content on disk.

The plots are deterministic (a fixed SVG hash salt, no date), so the same plot inputs drawn by the
same plotting code and the same matplotlib give the same SVG text. A rescore that changes no plotted
figure reuses the SVG it drew last time and does not import matplotlib at all (the import alone
costs about as much as rescoring a model). jinja2's own bytecode cache keeps the compiled templates
beside them.

Where: ``$LOBSTACK_CACHE_DIR``, else ``$XDG_CACHE_HOME/lobstack-eval``, else
``~/.cache/lobstack-eval``; an empty ``LOBSTACK_CACHE_DIR`` turns the cache off. A cache that cannot
be read or written is skipped without a word: it only ever saves time, and the page is the same
bytes with it or without it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fileio.atomic import write_atomic
from fileio.safe_paths import LinkRefused

MAX_PLOTS = 256  # SVG files kept (the oldest go first): a few MB at most
_PLOT_CODE = (
    "_plots.py",
    "_svg.py",
    "_plot_model.py",
    "_labels.py",
    "_front_plot.py",
    "_front_view.py",
    "_timeline.py",
)  # every module that shapes a plot's SVG
_FORMAT = "lobstack-eval plot cache 1"


def cache_dir() -> Path | None:
    """The cache directory, or None when the user turned caching off."""
    configured = os.environ.get("LOBSTACK_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "lobstack-eval"


def _matplotlib_identity() -> str:
    """What says which matplotlib would draw (its version file and where it lives), without
    importing it, and the user's matplotlib settings that could change a drawing."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        return "no matplotlib"
    root = Path(next(iter(spec.submodule_search_locations)))
    try:
        version = (root / "_version.py").read_text(encoding="utf-8")
    except OSError:
        version = str((root / "__init__.py").stat().st_mtime_ns)
    settings = [os.environ.get(name, "") for name in ("MATPLOTLIBRC", "MPLCONFIGDIR", "MPLBACKEND")]
    config = (
        Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
        / "matplotlib"
        / "matplotlibrc"
    )
    with contextlib.suppress(OSError):
        settings.append(str(config.stat().st_mtime_ns))
    return "\n".join([str(root), version, *settings])


_FINGERPRINT: list[str] = []


def _fingerprint() -> str:
    """The plotting code and matplotlib, once per process."""
    if not _FINGERPRINT:
        here = Path(__file__).parent
        digest = hashlib.sha256(_FORMAT.encode())
        for name in _PLOT_CODE:
            digest.update((here / name).read_bytes())
        digest.update(_matplotlib_identity().encode())
        _FINGERPRINT.append(digest.hexdigest())
    return _FINGERPRINT[0]


def cached_svg(kind: str, inputs: Any, draw: Callable[[], str]) -> str:
    """The SVG ``draw()`` gives for ``inputs`` (whose repr must say everything the plot shows), from
    the cache when an earlier run drew the same; else drawn now and kept."""
    root = cache_dir()
    if root is None:
        return draw()
    key = hashlib.sha256(f"{_fingerprint()}\n{kind}\n{inputs!r}".encode()).hexdigest()
    path = root / "plots" / f"{key}.svg"
    with contextlib.suppress(OSError, UnicodeDecodeError):
        kept = path.read_text(encoding="utf-8")
        if kept.startswith("<svg") and kept.endswith("</svg>"):
            return kept
    svg = draw()
    with contextlib.suppress(OSError, LinkRefused):  # a cache is best effort: a linked file too
        _keep(path, svg)
    return svg


def _keep(path: Path, svg: str) -> None:
    """Write ``svg`` whole (temp file, rename) and drop the oldest files beyond ``MAX_PLOTS``."""
    write_atomic(path, svg)
    entries = [e for e in os.scandir(path.parent) if e.name.endswith(".svg")]
    if len(entries) > MAX_PLOTS:
        entries.sort(key=_age)
        for entry in entries[: len(entries) - MAX_PLOTS]:
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def _age(entry: os.DirEntry[str]) -> int:
    """A cached plot's modification time; -1 (oldest) for one another process evicted meanwhile."""
    try:
        return entry.stat().st_mtime_ns
    except OSError:
        return -1


def template_cache() -> Any:
    """jinja2's bytecode cache in the cache directory (compiled templates), or None."""
    root = cache_dir()
    if root is None:
        return None
    import jinja2

    # jinja2 keys compiled templates by their source only, not by the environment's options: a new
    # folder name whenever those change (v2: the finalize of scorer/safe_text.py), so an old
    # compiled page is never used.
    folder = root / "templates-v2"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(str(folder))
