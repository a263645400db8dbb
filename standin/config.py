"""How a stand-in gateway is set up."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from standin.faults import FaultSpec
from standin.reply import DEFAULT_DRIFT_FROM
from standin.wire import COST_HEADER


@dataclass(frozen=True)
class GatewayConfig:
    """Suite to answer from, fixed answer latency, probabilistic faults and their seed.

    ``seed`` drives ``ref/noisy``, ``ref/flaky``, ``auto``'s routing and the fault draws.
    ``timeout_sleep_s`` is how long a ``timeout`` fault stalls before it closes the connection
    without answering. ``cost_header`` names the price header (another gateway's, e.g. LiteLLM's
    ``x-litellm-response-cost``, to try ``record --cost-header``). ``upstream_prefix`` (e.g.
    ``llm_provider-``) makes the stand-in answer as a gateway in front of it would: every header but
    ``Content-Type`` is renamed with the prefix, as a LiteLLM proxy renames its upstream's headers,
    and the stand-in's ``Server`` arrives as ``<prefix>server`` beside the proxy's own
    (``uvicorn``), as LiteLLM 1.108.7 sends them. ``server`` is the ``Server`` the stand-in names
    itself with; another value makes it look like a gateway that is not Lobstack's.
    ``run`` (1, 2, ...: the provider's day N; None: no day) is which run the gateway serves:
    ``ref/drifting`` changes from run ``drift_from`` on, ``ref/flaky`` draws afresh per run, and the
    ``Date`` header is day N (2026-10-21 for run 1 and for None). ``drip_ms`` is the pause before
    each byte of a ``drip``/``driphead`` answer (``standin.streamed``).
    """

    suite_path: Path
    latency_ms: float = 0
    faults: FaultSpec = field(default_factory=FaultSpec)
    seed: int = 0
    timeout_sleep_s: float = 5.0
    # the stand-in's own copy of the name (standin.wire), not the client's: it imitates a
    # separate program (scorer/wire/openai_chat.py says why)
    cost_header: str = COST_HEADER
    upstream_prefix: str = ""
    server: str = "lobstack-stand-in/1"
    run: int | None = None
    drift_from: int = DEFAULT_DRIFT_FROM
    drip_ms: float = 50.0
