#!/usr/bin/env bash
# Installs what tests/test_browser.py needs: Debian's chromium and chromium-driver (no browser download from
# anywhere else is possible on these machines). Idempotent: returns at once when both are already installed.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" != "0" ]; then
    SUDO="sudo"
fi
# Try twice: a mirror hiccup should not fail CI when a second go would pass.
for attempt in 1 2; do
    if $SUDO apt-get update -qq && \
       $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >/dev/null; then
        break
    fi
    if [ "$attempt" = 2 ]; then
        echo "browser-setup: could not install chromium and chromium-driver" >&2
        exit 1
    fi
    sleep 5
done

chromium --version
/usr/bin/chromedriver --version
