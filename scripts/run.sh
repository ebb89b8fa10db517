#!/usr/bin/env bash
# Starts the referee on the embedded defaults: SQLite in ./data, simulated GPIO and a
# demo camera feed, serving the dashboard on http://localhost:8080/.
# Extra arguments go to "knockdown serve" (for example --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/_bootstrap.sh
. scripts/_bootstrap.sh
bootstrap_venv ""
exec .venv/bin/knockdown serve --simulate --data-dir ./data "$@"
