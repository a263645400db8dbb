"""The shape a cassette must have before replay trusts it: the first problem, named by its
field path.

vcrpy's loader takes whatever the JSON holds, so a hand-edited or truncated cassette (a status code
that is text, headers as a list, a body that is a bare string, ``body.string: null``) would only
fail deep inside the runner as a traceback. This check runs at the loading edge and says
``interactions[0].response.status.code: expected ...``.
"""

from __future__ import annotations

from typing import Any

from scorer.jsonvalue import is_number, render

_REQUEST_KEYS = frozenset({"method", "uri", "body", "headers"})
CASSETTE_FORMAT_VERSION = (
    1  # vcr.serialize.CASSETTE_FORMAT_VERSION, the only format vcrpy has written since 1.0
)


def _got(value: Any) -> str:
    return f"got {render(value, 60)}"


def _headers_problem(headers: Any, where: str) -> str | None:
    # vcrpy writes every header as a list of strings; a single string is accepted as one value.
    if not isinstance(headers, dict):
        return f"{where}: expected an object of header name -> list of strings, {_got(headers)}"
    for name, value in headers.items():
        values = value if isinstance(value, list) else [value]
        try:
            "".join(
                values
            )  # TypeError at the first item that is not a str: one C call instead of a loop
        except TypeError:
            values = []
        if not values:
            return f"{where}.{name}: expected a string or a list of strings, {_got(value)}"
    return None


def _request_problem(request: Any, where: str) -> str | None:
    if not isinstance(request, dict):
        return f"{where}: expected an object, {_got(request)}"
    if set(request) != _REQUEST_KEYS:
        return (
            f"{where}: expected exactly the fields {sorted(_REQUEST_KEYS)}, got {sorted(request)}"
        )
    for key in ("method", "uri"):
        if not isinstance(request[key], str):
            return f"{where}.{key}: expected a string, {_got(request[key])}"
    if request["body"] is not None and not isinstance(request["body"], str):
        return (
            f"{where}.body: expected the request's JSON text as a string, {_got(request['body'])}"
        )
    return _headers_problem(request["headers"], f"{where}.headers")


def _response_problem(response: Any, where: str) -> str | None:
    if not isinstance(response, dict):
        return f"{where}: expected an object, {_got(response)}"
    status = response.get("status")
    if not isinstance(status, dict):
        return f"{where}.status: expected an object with code and message, {_got(status)}"
    code = status.get("code")
    if not (
        is_number(code) and isinstance(code, int) and 100 <= code <= 999
    ):  # METHOD.md#any-three-digit-status
        return f"{where}.status.code: expected an integer HTTP status (100-999), {_got(code)}"
    problem = _headers_problem(response.get("headers"), f"{where}.headers")
    if problem:
        return problem
    body = response.get("body")
    if not isinstance(body, dict):
        return f'{where}.body: expected an object {{"string": "..."}}, {_got(body)}'
    if not isinstance(body.get("string"), str):
        return (
            f"{where}.body.string: expected the response text as a string, "
            f"{_got(body.get('string'))}"
        )
    exact = body.get(
        "bytes_base64"
    )  # a body that was not UTF-8, byte for byte (METHOD.md#non-utf8-answers)
    if exact is not None and not (isinstance(exact, str) and _is_base64(exact)):
        return f"{where}.body.bytes_base64: expected the body's bytes in base64, {_got(exact)}"
    return None


def _is_base64(text: str) -> bool:
    import base64
    import binascii

    try:
        base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _version_problem(data: dict[str, Any]) -> str | None:  # free JSON: a cassette as stored
    # vcrpy writes "version": 1 (CASSETTE_FORMAT_VERSION) and its loader never reads it back: a
    # missing version loads, so it reads as 1 here too; any other value is a format this reader does
    # not know (decision 99).
    version = data.get("version", CASSETTE_FORMAT_VERSION)
    if version == CASSETTE_FORMAT_VERSION and not isinstance(
        version, bool
    ):  # JSON equality, as run.json's
        return None
    return f"version: expected {CASSETTE_FORMAT_VERSION} (vcrpy's cassette format), {_got(version)}"


def cassette_problem(data: Any) -> str | None:
    """The first reason ``data`` (a parsed cassette file) is not a usable vcrpy JSON cassette,
    or None."""
    if not isinstance(data, dict):
        return 'not a vcrpy cassette: expected an object with an "interactions" list'
    problem = _version_problem(data)
    if problem:
        return problem
    if not isinstance(data.get("interactions"), list):
        return 'not a vcrpy cassette: expected an object with an "interactions" list'
    for index, interaction in enumerate(data["interactions"]):
        where = f"interactions[{index}]"
        if not isinstance(interaction, dict):
            return f"{where}: expected an object with request and response, {_got(interaction)}"
        problem = _request_problem(
            interaction.get("request"), f"{where}.request"
        ) or _response_problem(interaction.get("response"), f"{where}.response")
        if problem:
            return problem
    return None
