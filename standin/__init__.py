"""The stand-in Lobstack gateway: deterministic reference models and fault injection on 127.0.0.1.

It imitates the outside world that ``recorder`` talks to, so no package of the tool imports it: only
the CLI's ``gateway`` command, the tests, the benchmarks and ``scripts/`` do. It may import
``scorer.errors`` (its errors reach the CLI's one handler) and nothing else of the project.

``StandInGateway(GatewayConfig(suite_path=...))`` is a context manager for tests; ``serve_forever``
backs ``lobstack-eval gateway``. Module map: ``config`` (settings), ``faults`` (what goes wrong,
reproducibly), ``suite_index`` (which case and step a request is at), ``reply`` (what a model sees
and answers), ``models`` (the OpenAI-shaped reference models), ``styles`` (models answering as other
providers do), ``malformed`` (a model that breaks the shape), ``catalog`` (served names and
``auto``), ``history`` (what a conversation must hold), ``pricing`` (tokens and cost header),
``wire`` (bodies and headers), ``dispatch`` (request -> outcome), ``server`` (HTTP plumbing),
``serving`` (the threaded server that stops at once).
"""

from standin.catalog import model_names
from standin.config import GatewayConfig
from standin.faults import FaultRule, FaultSpec, parse_faults
from standin.server import DEFAULT_PORT, StandInGateway, serve_forever
from standin.wire import COST_HEADER, DROPPED_HEADER

__all__ = [
    "COST_HEADER",
    "DEFAULT_PORT",
    "DROPPED_HEADER",
    "FaultRule",
    "FaultSpec",
    "GatewayConfig",
    "StandInGateway",
    "model_names",
    "parse_faults",
    "serve_forever",
]
