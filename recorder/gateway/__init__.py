"""The stand-in Lobstack gateway: deterministic reference models and fault injection on 127.0.0.1.

``StandInGateway(GatewayConfig(suite_path=...))`` is a context manager for tests; ``serve_forever`` backs
``lobstack-eval gateway``. Module map: ``config`` (settings), ``faults`` (what goes wrong, reproducibly),
``suite_index`` (which case and step a request is at), ``models`` (how each reference model answers),
``pricing`` (tokens and cost header), ``wire`` (bodies and headers), ``dispatch`` (request -> outcome),
``server`` (HTTP plumbing).
"""

from recorder.gateway.config import GatewayConfig
from recorder.gateway.faults import FaultRule, FaultSpec, parse_faults
from recorder.gateway.models import model_names
from recorder.gateway.server import DEFAULT_PORT, StandInGateway, serve_forever
from recorder.gateway.wire import COST_HEADER, DROPPED_HEADER

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
