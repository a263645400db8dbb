"""The jinja2 environment (autoescape always on), the inlined static files and the page's JSON
data block."""

from __future__ import annotations

import base64
import hashlib
import json
from functools import cache
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup

from replay.html._cache import template_cache
from scorer.safe_text import for_terminal


def _shown(value: Any) -> Any:
    """Every text put in the page (before HTML escaping) with its control, bidi and lone surrogate
    characters shown escaped (scorer/safe_text.py): a bidi override must not reorder what the
    reader sees, and a lone surrogate cannot be written in a UTF-8 page. What we marked safe is
    passed as it is."""
    return (
        for_terminal(value) if isinstance(value, str) and not isinstance(value, Markup) else value
    )


# Every string from a model or a cassette is untrusted: templates escape by default, and only our
# own CSS, JS, matplotlib's SVG (which escapes its text) and the JSON block below are marked safe.
_ENV = jinja2.Environment(
    finalize=_shown,
    loader=jinja2.PackageLoader("replay.html", "templates"),
    bytecode_cache=template_cache(),  # compiled templates kept between runs (replay/html/_cache.py)
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


@cache
def static_text(name: str) -> str:
    """The text of ``replay/html/static/<name>`` (our own CSS or JS, inlined into the page)."""
    return resources.files("replay.html").joinpath("static", name).read_text(encoding="utf-8")


def json_block(data: Any) -> Markup:
    """``data`` as JSON safe inside ``<script type="application/json">``: ``<``, ``>`` and
    ``&`` escaped.

    Escaping every ``<`` (not only ``</``) also rules out ``<!--`` and ``<script`` changing how the
    HTML parser reads the block; ``JSON.parse`` turns the escapes back into the same characters.
    """
    text = json.dumps(
        data, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
    )
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    # U+2028/2029 are fine in JSON but are line breaks to some tools; keep the file plain.
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    # A lone surrogate (valid JSON, which a model may send) only as its escape: the page is UTF-8.
    return Markup(text.encode("utf-8", "backslashreplace").decode("utf-8"))


def csp(scripts: list[str]) -> str:
    """A Content-Security-Policy allowing only these exact inline scripts: no network, no
    injected code."""
    hashes = " ".join(
        "'sha256-"
        + base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode("ascii")
        + "'"
        for s in scripts
    )
    return (
        f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )


def render(template: str, **context: Any) -> str:
    """Render ``templates/<template>`` with ``context``; the output always ends with one newline."""
    html = _ENV.get_template(template).render(**context)
    return html.rstrip("\n") + "\n"


def safe(text: str) -> Markup:
    """Mark text we produced ourselves (CSS, JS, matplotlib SVG) as not to be escaped."""
    return Markup(text)
