#!/usr/bin/env bash
# Installs everything the tests need (Debian's Chromium for the browser tests,
# ShellCheck and systemd-analyze for the deploy checks, the Python test extras)
# and runs the whole suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/_bootstrap.sh
. scripts/_bootstrap.sh
# Playwright's own browser download is not available: the browser tests drive Debian's chromium.
apt_install chromium shellcheck systemd curl
bootstrap_venv "test"
export KNOCKDOWN_CHROMIUM="${KNOCKDOWN_CHROMIUM:-$(command -v chromium)}"
set +e
.venv/bin/python -m pytest "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
    # pytest's 5 means "no tests collected": for this project that is a broken suite, not a pass.
    echo "test.sh: pytest collected no tests" >&2
    exit 1
fi
exit "$rc"
