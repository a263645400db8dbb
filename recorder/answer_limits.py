"""How much of an answer the recorder reads, and the errors of an answer it cannot keep: too large
(on the wire or once decoded), a coding it does not decode, a protocol switch nobody asked for.
Shared by the transport, the bounded reader and the content decoder, which import it and not each
other."""

from __future__ import annotations

from collections.abc import Iterable

DEFAULT_MAX_ANSWER_MB = 32
MIB = 1024 * 1024
CHUNK = 64 * 1024  # how much of a body is read (or inflated) at a time


class AnswerTooLarge(Exception):
    """An answer's body is larger than the cap, on the wire or once decoded
    (``Content-Encoding``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(too_large_text(limit))
        self.limit = limit


class UndecodableAnswer(Exception):
    """An answer's ``Content-Encoding`` names a coding the recorder does not decode, or its body
    does not decode as the coding says (``recorder.content_coding``)."""


class ProtocolSwitch(Exception):
    """The gateway answered ``101 Switching Protocols`` to a request that asked for no upgrade."""

    def __init__(self) -> None:
        super().__init__(
            "the gateway answered 101 Switching Protocols, which no request asks for: no HTTP "
            "answer"
        )


def read_capped(chunks: Iterable[bytes], limit: int) -> bytes:
    """The body ``chunks`` make up (a whole body is one chunk), read at most ``limit`` bytes:
    AnswerTooLarge as soon as it passes ``limit``, before the next chunk is asked for."""
    out: list[bytes] = []
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > limit:
            raise AnswerTooLarge(limit)
        out.append(chunk)
    return b"".join(out)


def too_large_text(limit: int) -> str:
    """The one line a too-large answer gets."""
    return (
        f"the answer is larger than {limit / MIB:g} MiB once decoded; raise --max-answer-mb to "
        "keep it"
    )
