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

run_pytest() {
    # pytest's 5 means "no tests collected": for this project that is a broken suite, not a pass.
    local python="$1"
    shift
    set +e
    "$python" -m pytest "$@"
    local rc=$?
    set -e
    if [ "$rc" -eq 5 ]; then
        echo "test.sh: pytest collected no tests" >&2
        return 1
    fi
    return "$rc"
}

# The Pi runs Bookworm's numpy 1.24 with the opencv that deploy/install.sh pins for it, not
# the newest wheels this venv has: run everything but the browser tests on that pair too.
# KNOCKDOWN_SKIP_PI_STACK=1 skips this second pass (for a quick local run), and so does
# giving pytest arguments (a run of chosen tests).
pi_stack=0
if [ "${KNOCKDOWN_SKIP_PI_STACK:-0}" != 1 ] && [ "$#" -eq 0 ]; then
    pi_stack=1
    echo "==> the Pi's library versions (.venv-pi)"
    if [ ! -x .venv-pi/bin/python ]; then
        python3 -m venv .venv-pi
    fi
    mapfile -t pins < <(bash deploy/install.sh --print-pins)
    pip_install .venv-pi/bin/python "numpy==1.24.*" "${pins[@]}" -e ".[test]"
fi

# Each pytest run is one process: on a machine with two cores or more the two stacks run side by
# side (the suite took ~19 minutes one after the other on CI's 2 cores). The Pi run's output is
# kept in a file and shown after the first run's, so the two never interleave.
pi_pid=""
if [ "$pi_stack" = 1 ] && [ "$(nproc)" -ge 2 ]; then
    pi_log="$(mktemp)"
    run_pytest .venv-pi/bin/python --ignore=tests/e2e -q -p no:cacheprovider >"$pi_log" 2>&1 &
    pi_pid=$!
fi

rc=0
run_pytest .venv/bin/python "$@" || rc=$?

if [ "$pi_stack" = 1 ]; then
    echo "==> the suite again on the Pi's library versions (.venv-pi)"
    pi_rc=0
    if [ -n "$pi_pid" ]; then
        wait "$pi_pid" || pi_rc=$?
        cat "$pi_log"
        rm -f "$pi_log"
    else
        run_pytest .venv-pi/bin/python --ignore=tests/e2e -q -p no:cacheprovider || pi_rc=$?
    fi
    if [ "$rc" -eq 0 ]; then
        rc=$pi_rc
    fi
fi
exit "$rc"
