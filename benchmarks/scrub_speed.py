"""How fast the fail-closed scrubber's search (``recorder.secret_search.examine``) reads answers.

Four inputs, each clean (the key is not in them, so every view is walked): every committed answer
and request body one by one; the same bodies as one answer of about 32 MiB (the default
``--max-answer-mb``); 8 MiB of base64 of random bytes (an image in an answer: 4 offsets decoded);
8 MiB of random bytes. Prints MB/s and what the search said (``None``: clean). Best of --repeat.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import time
from pathlib import Path

from recorder.secret_search import examine

ROOT = Path(__file__).resolve().parents[1]
KEY = ("sk-proj-Tq84GvX2mPzL0aNcRw7YbE5uKdHs9FjQ1oVt",)


def _bodies() -> list[bytes]:
    bodies = []
    for path in sorted((ROOT / "cassettes").rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for interaction in data.get("interactions", []) if isinstance(data, dict) else []:
            bodies.append((interaction["request"]["body"] or "").encode())
            bodies.append(interaction["response"]["body"]["string"].encode())
    return bodies


def _best(repeat: int, inputs: list[bytes]) -> tuple[float, object]:
    best, said = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        said = [examine(body, KEY) for body in inputs]
        best = min(best, time.perf_counter() - start)
    return best, next((s for s in said if s is not None), None)  # type: ignore[union-attr]


def main() -> None:
    """Print one line per input."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(42)
    bodies = _bodies()
    noise = rng.randbytes(8 << 20)
    inputs = {
        "committed bodies, one by one": bodies,
        "committed bodies as one answer": [(b"".join(bodies) * 2)[: 32 << 20]],
        "base64 of random bytes": [base64.b64encode(noise)[: 8 << 20]],
        "random bytes": [noise],
    }
    print(f"{'input':34} {'MB':>7} {'s':>7} {'MB/s':>7}  search said")
    for name, data in inputs.items():
        size = sum(map(len, data)) / 1e6
        seconds, said = _best(args.repeat, data)
        print(f"{name:34} {size:7.1f} {seconds:7.2f} {size / seconds:7.1f}  {said}")


if __name__ == "__main__":
    main()
