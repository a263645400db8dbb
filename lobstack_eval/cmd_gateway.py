"""``lobstack-eval gateway``: serve the stand-in Lobstack gateway on 127.0.0.1 until Ctrl-C."""

from __future__ import annotations

from pathlib import Path

import typer

from lobstack_eval.suite_option import SUITE_DEFAULT_HELP
from scorer.wire.openai_chat import COST_HEADER

_PORT = typer.Option(
    "8099", "--port", metavar="PORT", help="Port on 127.0.0.1 (0 picks a free one)."
)
_LATENCY_MS = typer.Option(
    "0", "--latency-ms", metavar="MS", help="Fixed time before every answer."
)
_FAULTS = typer.Option(
    "",
    "--faults",
    help="Random fault mix, e.g. "
    '"429:0.2,503:0.1,inbody502:0.1,timeout:0.05,drop:0.05,garbage:0.02,slow:0.1". Scripted faults '
    'go in the model name, not here: record --model "ref/oracle~429,200".',
)
_SEED = typer.Option(
    "0",
    "--seed",
    metavar="N",
    help="Seed of ref/noisy, ref/flaky, auto's routing and the fault draws.",
)
_RUN = typer.Option(
    None,
    "--run",
    metavar="N",
    help="Serve run N of a history (day N: ref/drifting's version, ref/flaky's draws, Date).",
)
_DRIFT_FROM = typer.Option(
    "16",  # standin.reply.DEFAULT_DRIFT_FROM (not imported: the CLI starts without the stand-in)
    "--drift-from",
    metavar="N",
    help="The first run ref/drifting answers changed.",
)
_SUITE = typer.Option(
    None, "--suite", help=f"Suite the reference models answer from {SUITE_DEFAULT_HELP}."
)
_TIMEOUT_SLEEP_S = typer.Option(
    "5",
    "--timeout-sleep-s",
    metavar="S",
    help="How long a timeout fault stalls before closing.",
)
_COST_HEADER = typer.Option(
    COST_HEADER,
    "--cost-header",
    help="Name of the price header (another gateway's, to try recipes).",
)


def gateway(
    port: str = _PORT,
    latency_ms: str = _LATENCY_MS,
    faults: str = _FAULTS,
    seed: str = _SEED,
    run: str = _RUN,
    drift_from: str = _DRIFT_FROM,
    suite: Path = _SUITE,
    timeout_sleep_s: str = _TIMEOUT_SLEEP_S,
    cost_header: str = _COST_HEADER,
) -> int:
    """Serve the stand-in gateway (reference models ref/*, the auto router, fault injection)
    until Ctrl-C.

    Scripted faults go in the model name: record --model "ref/oracle~429,200" gets a 429 on the
    first attempt of each request, then normal answers (such a model gets no --faults). A script is
    used once per gateway process: it counts attempts of each request body from the gateway's start,
    so a second record of the same cases against the same gateway finds it used up; restart the
    gateway to replay it.
    """
    from lobstack_eval.options import finite_number, whole_number
    from lobstack_eval.suite_option import chosen_suite
    from standin import GatewayConfig, parse_faults, serve_forever

    # Every option is checked before the suite is read or a port is bound: bad usage fails at once.
    port_number = whole_number(port, "--port", minimum=0, maximum=65535)
    seed_number = whole_number(seed, "--seed", minimum=0)
    run_number = whole_number(run, "--run", minimum=1) if run is not None else None
    drift_number = whole_number(drift_from, "--drift-from", minimum=1)
    latency = finite_number(latency_ms, "--latency-ms", "milliseconds")
    stall = finite_number(timeout_sleep_s, "--timeout-sleep-s", "seconds")
    spec = parse_faults(faults)
    suite = chosen_suite(suite)[0]
    config = GatewayConfig(
        suite_path=suite,
        latency_ms=latency,
        faults=spec,
        seed=seed_number,
        timeout_sleep_s=stall,
        cost_header=cost_header,
        run=run_number,
        drift_from=drift_number,
    )
    serve_forever(config, port_number, announce=lambda line: typer.echo(line))
    return 0
