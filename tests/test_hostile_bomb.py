"""A gzip bomb larger than the recorder's whole address space, in one gzip layer or two: decoded
under the cap, one clear reason.

The recorder runs in a subprocess whose ``RLIMIT_AS`` is smaller than the bomb decoded, so a decoder
that inflates the body whole (urllib3 under vcrpy's stub did, and did for any stacked
``Content-Encoding: gzip, gzip``) dies with ``MemoryError``; one that stops at the cap records the
case as errored with the cap's reason. The two-layer bomb is recorded with a cap of 2 MiB, larger
than its outer layer decoded (1.5 MB), so it is the inner layer that meets the cap.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from standin.hostile import HUGE_BOMB_BYTES, double_bomb, huge_bomb
from tests.conftest import MINI_SUITE

ADDRESS_SPACE = (
    1024 * 1024 * 1024
)  # the recorder's own limit: enough for Python, polars and requests
TOO_LARGE = "the answer is larger than {} MiB once decoded; raise --max-answer-mb to keep it"
RECORDER = """
import json, resource, sys
from pathlib import Path
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from recorder.endpoint import Endpoint
from recorder.manifest_read import read_manifest
from recorder.record import record
from recorder.settings import RecordSettings
summary = record(
    Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4]), Endpoint(sys.argv[5], None), [sys.argv[6]],
    RecordSettings(concurrency=1, backoff_scale=0.0, max_answer_mb=int(sys.argv[7])),
)
entry = read_manifest(summary.model_dir).cases[sys.argv[6]]
print(json.dumps([entry.status, entry.reason]))
"""


def test_the_bomb_is_real() -> None:
    body = huge_bomb()
    assert HUGE_BOMB_BYTES > ADDRESS_SPACE and len(body) < 2 * 1024 * 1024
    assert (
        body[:2] == b"\x1f\x8b" and int.from_bytes(body[-4:], "little") == HUGE_BOMB_BYTES % 2**32
    )


def test_the_two_layer_bomb_is_real() -> None:
    body = double_bomb()
    assert len(body) < 64 * 1024  # a few kB on the wire
    assert gzip.decompress(body) == huge_bomb()  # the outer layer: the one-layer bomb
    assert 1024 * 1024 < len(huge_bomb()) < 2 * 1024 * 1024  # under the test's cap of 2 MiB


@pytest.mark.parametrize(("kind", "cap_mb"), [("hugebomb", 1), ("hugebomb2", 2)])
def test_a_bomb_larger_than_memory_errors_its_case_with_the_cap(
    start_gateway, tmp_path: Path, kind: str, cap_mb: int
) -> None:
    gateway = start_gateway()
    model = "ref/oracle~" + ",".join([kind] * 4)  # every attempt
    args = [str(ADDRESS_SPACE), str(MINI_SUITE), model, str(tmp_path), gateway.url, "selection-01"]
    args.append(str(cap_mb))
    done = subprocess.run(
        [sys.executable, "-c", RECORDER, *args],
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    status, reason = json.loads(done.stdout.splitlines()[-1])
    assert status == "errored" and reason.endswith(TOO_LARGE.format(cap_mb)), reason
    assert len(gateway.requests_seen) == 4  # each attempt got the bomb, none was decoded whole
