"""Hostile text from a gateway or a model (issue 28): what a model can write that no output may
choke on.

Script kinds (in a model suffix, ``ref/oracle~hostiletext``):

- ``hostiletext``: the model's normal answer, its ``content`` replaced by ``HOSTILE_TEXT`` (a lone
  surrogate written as the JSON escape ``\\udc80``, NUL, BEL, ESC and an OSC sequence that retitles
  a terminal, C1 controls, bidi overrides). The verdict is the model's: only the text around its
  calls changes.
- ``hostile400``: a 400 whose error message is ``HOSTILE_TEXT`` (a 400 is not retried, so the case
  is errored with that message in its reason).

Label tokens (``#`` and anything after it, no comma) answer nothing and count no attempt: they only
make a model name long or wide, as a Bedrock ARN through LiteLLM
(``ref/oracle~#arn:aws:bedrock:...``) or CJK glyphs are.
"""

from __future__ import annotations

import json
from typing import Any

TEXT_KINDS = ("hostiletext", "hostile400")
LABEL = "#"
HOSTILE_TEXT = (
    "lone \udc80 surrogate, NUL \x00 BEL \x07 ESC \x1b[31mred\x1b[0m, "
    "OSC \x1b]0;pwned\x07 title, C1 \x85\x9b, bidi \u202etxt.exe\u202c \u2066iso\u2069, DEL \x7f, "
    "markup <b>&amp;</b> ]]> | `tick` *star*"
)


def is_label(token: str) -> bool:
    """A ``#label`` token of a model suffix: part of the name, not of the script."""
    return token.startswith(LABEL)


def hostile_body(kind: str, normal: bytes) -> tuple[int, bytes]:
    """The status and body of a ``kind`` answer, given the normal answer's body. Written with
    ``ensure_ascii``: a lone surrogate is valid JSON only as an escape."""
    if kind == "hostile400":
        error: dict[str, Any] = {
            "message": HOSTILE_TEXT,
            "type": "invalid_request_error",
            "param": None,
        }
        return 400, json.dumps({"error": {**error, "code": None}}).encode("ascii")
    value = json.loads(normal)
    value["choices"][0]["message"]["content"] = HOSTILE_TEXT
    return 200, json.dumps(value).encode("ascii")
