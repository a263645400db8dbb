"""The model's answer sent in content codings that stack or that no request offers, for
``--faults`` kinds and model suffixes (``record`` decodes every coding it accepts under the answer
cap, decision ``METHOD.md#answer-size-cap``).

- ``gzip2``: gzipped, then deflated, named in two ``Content-Encoding`` headers (``gzip`` then
  ``deflate``), as two proxies that each compress would send it.
- ``multigzip``: two gzip members, each half of the answer (RFC 1952 allows any number; a client
  reads them all).
- ``brcoding``: ``Content-Encoding: br`` over the plain answer, a coding the request did not
  offer.
"""

from __future__ import annotations

import gzip
import zlib

CODED_KINDS = ("gzip2", "multigzip", "brcoding")


def coded(kind: str, body: bytes) -> tuple[tuple[tuple[str, str], ...], bytes]:
    """``(extra headers, body)``: the answer ``body`` in the codings of ``kind``."""
    if kind == "gzip2":
        headers = (("Content-Encoding", "gzip"), ("Content-Encoding", "deflate"))
        return headers, zlib.compress(gzip.compress(body, mtime=0))
    if kind == "multigzip":
        half = len(body) // 2
        members = gzip.compress(body[:half], mtime=0) + gzip.compress(body[half:], mtime=0)
        return (("Content-Encoding", "gzip"),), members
    if kind == "brcoding":
        return (("Content-Encoding", "br"),), body
    raise ValueError(kind)
