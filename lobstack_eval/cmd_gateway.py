"""``lobstack-eval gateway``: serve the stand-in Lobstack gateway on 127.0.0.1 until Ctrl-C."""

from __future__ import annotations

from pathlib import Path

import typer

from lobstack_eval.options import finite_number, whole_number
from lobstack_eval.suite_option import SUITE_DEFAULT_HELP
from scorer.wire.openai_chat import COST_HEADER

_PORT = typer.Option(
    "8099",
    "--port",
    metavar="PORT",
    parser=whole_number("--port", minimum=0, maximum=65535),
    help="Port on 127.0.0.1 (0 picks a free one).",
)
_LATENCY_MS = typer.Option(
    "0",
    "--latency-ms",
    metavar="MS",
    parser=finite_number("--latency-ms", "milliseconds"),
    help="Fixed time before every answer.",
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
    parser=whole_number("--seed", minimum=0),
    help="Seed of ref/noisy, ref/flaky, auto's routing and the fault draws.",
)
_RUN = typer.Option(
    None,
    "--run",
    metavar="N",
    parser=whole_number("--run", minimum=1),
    help="Serve run N of a history (day N: ref/drifting's version, ref/flaky's draws, Date).",
)
_DRIFT_FROM = typer.Option(
    "16",  # standin.reply.DEFAULT_DRIFT_FROM (not imported: the CLI starts without the stand-in)
    "--drift-from",
    metavar="N",
    parser=whole_number("--drift-from", minimum=1),
    help="The first run ref/drifting answers changed.",
)
_SUITE = typer.Option(
    None, "--suite", help=f"Suite the reference models answer from {SUITE_DEFAULT_HELP}."
)
_TIMEOUT_SLEEP_S = typer.Option(
    "5",
    "--timeout-sleep-s",
    metavar="S",
    parser=finite_number("--timeout-sleep-s", "seconds"),
    help="How long a timeout fault stalls before closing.",
)
_COST_HEADER = typer.Option(
    COST_HEADER,
    "--cost-header",
    help="Name of the price header (another gateway's, to try recipes).",
)


def gateway(
    port: int = _PORT,
    latency_ms: float = _LATENCY_MS,
    faults: str = _FAULTS,
    seed: int = _SEED,
    run: int | None = _RUN,
    drift_from: int = _DRIFT_FROM,
    suite: Path = _SUITE,
    timeout_sleep_s: float = _TIMEOUT_SLEEP_S,
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
    from lobstack_eval.suite_option import chosen_suite
    from standin import GatewayConfig, parse_faults, serve_forever

    # Every number is parsed with the command line (lobstack_eval/options.py), before the suite is
    # read or a port is bound: bad usage fails at once.
    spec = parse_faults(faults)
    suite = chosen_suite(suite)[0]
    config = GatewayConfig(
        suite_path=suite,
        latency_ms=latency_ms,
        faults=spec,
        seed=seed,
        timeout_sleep_s=timeout_sleep_s,
        cost_header=cost_header,
        run=run,
        drift_from=drift_from,
    )
    serve_forever(config, port, announce=lambda line: typer.echo(line))
    return 0
