"""A 2xx answer's body, read once: the error object it may carry (OpenRouter's errors
mid-generation, decision ``METHOD.md#an-error-inside-a-200-s-choice``), else the model's answer,
else why it is no chat completion.

The client decides retries from this reading and the runner judges the answer it holds, so the two
never read the same bytes two ways.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scorer.strict_json import NotStrictJson, loads, loads_marking
from scorer.wire.dialect import DEFAULT, Dialect
from scorer.wire.response import BodyError, MalformedResponse, ModelResponse

TOO_DEEP = "malformed response: the body nests too deeply to read"
NOT_JSON = "malformed response: the body is not JSON"
BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class BodyReading:
    """What a 2xx body says: exactly one of ``error`` (an error object in it), ``response`` (the
    model's answer, to judge) and ``problem`` (``malformed response: ...``)."""

    error: BodyError | None = None
    response: ModelResponse | None = None
    problem: str | None = None


def _decoded(body: bytes) -> object:
    """The body parsed strictly; a non-finite number (or an integer of more than 4300 digits) is
    kept as a marker so the rest is still judged. A leading UTF-8 byte order mark is ignored (RFC
    8259 section 8.1)."""
    body = body.removeprefix(BOM)
    try:
        try:
            return loads(body)
        except NotStrictJson:
            return loads_marking(body)
    except RecursionError:
        raise MalformedResponse(TOO_DEEP) from None
    except ValueError:  # UnicodeDecodeError included
        raise MalformedResponse(NOT_JSON) from None


def read_body(body: bytes, dialect: Dialect = DEFAULT, stream: bool = False) -> BodyReading:
    """Read a 2xx answer's body once, in ``dialect``: its error object if it has one (looked for
    in the parsed body, so an escaped key such as ``"\\u0065rror"`` is the same key), else the
    model's answer, else the problem. A streamed answer (``stream``) is its SSE frames as
    received, assembled here (``scorer.wire.streams``), so a decoder fix re-scores old runs."""
    anomalies: tuple[str, ...] = ()
    try:
        if stream:
            from scorer.wire.streams import assemble

            decoded, anomalies = assemble(dialect.name, body)
        else:
            decoded = _decoded(body)
    except MalformedResponse as exc:
        return BodyReading(problem=str(exc))
    except RecursionError:
        return BodyReading(problem=TOO_DEEP)
    error = dialect.body_error(decoded)
    if error is not None:
        return BodyReading(error=error)
    try:
        response = dialect.parse_answer(decoded)
        if anomalies:
            response = replace(response, anomalies=anomalies)
        return BodyReading(response=response)
    except MalformedResponse as exc:
        return BodyReading(problem=str(exc))
    except RecursionError:
        return BodyReading(problem=TOO_DEEP)
