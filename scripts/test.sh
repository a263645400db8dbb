#!/usr/bin/env bash
# The README's test command: on a machine with only Python 3.11+, install what the tests need, then run them.
#   1. uv, when it is not on PATH (python3 -m pip install uv; into the user site where the system Python is
#      externally managed);
#   2. Debian's chromium and chromium-driver for the browser test (.ci/browser-setup.sh; fast when present);
#   3. uv run --locked pytest in parallel (pytest-xdist: one worker per core, a test module's tests in one worker,
#      so module fixtures are built once), with any arguments given here (./scripts/test.sh -q tests/test_judge.py).
# .ci/run runs exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v uv >/dev/null 2>&1; then
    echo "test.sh: installing uv (python3 -m pip install uv)" >&2
    python3 -m pip install --quiet uv 2>/dev/null \
        || python3 -m pip install --quiet --user uv 2>/dev/null \
        || python3 -m pip install --quiet --user --break-system-packages uv
    # pip's --user scripts go to the user base (not on PATH by default); a plain install's next to python3.
    PATH="$(python3 -c 'import site; print(site.getuserbase())')/bin:$PATH"
    export PATH
    command -v uv >/dev/null 2>&1 || { echo "test.sh: uv was installed but is not on PATH" >&2; exit 1; }
fi
# Bytecode (docs/decisions/testing.md): where PYTHONDONTWRITEBYTECODE is set, every Python of the run
# (pytest's workers and the hundreds of CLIs, inner pytests and `uv run`s the tests start) would
# compile what it imports from source at each start, every run. They cache it in the checkout's
# git-ignored .tmp/pycache instead (PYTHONPYCACHEPREFIX), kept between runs, which compiles only
# what is imported, once: not the 13,000 files of every installed package. A prefix you set is kept.
if [ -n "${PYTHONDONTWRITEBYTECODE:-}" ]; then
    if [ -z "${PYTHONPYCACHEPREFIX:-}" ]; then
        PYTHONPYCACHEPREFIX="$PWD/.tmp/pycache"
        export PYTHONPYCACHEPREFIX
    fi
    echo "test.sh: PYTHONDONTWRITEBYTECODE set aside; bytecode is cached in $PYTHONPYCACHEPREFIX" >&2
    unset PYTHONDONTWRITEBYTECODE
fi
bash .ci/browser-setup.sh

# The schedule (docs/decisions/testing.md#schedule): modules start in the order tests/conftest.py
# sorts them (SLOW_FIRST: the longest first). pytest-xdist 3.x reorders loadfile's modules by their
# number of tests unless told not to, which started the 800 tests of milliseconds first and left the
# one-test modules of a minute (the watch recipe, the lowest versions' install) to the end.
set -- --no-loadscope-reorder "$@"
# pytest exits 5 when it collected no tests: that is a failure here, like any non-zero.
set +e
uv run --locked pytest -n auto --dist loadfile "$@"
code=$?
set -e
if [ "$code" -eq 5 ]; then
    echo "test.sh: pytest collected no tests" >&2
    exit 1
fi
exit "$code"
