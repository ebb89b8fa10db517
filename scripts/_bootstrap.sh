# shellcheck shell=bash
# Sourced by run.sh and test.sh: makes the project-local venv and installs the product.
# Usage: bootstrap_venv EXTRA   (EXTRA is a pip extra such as "test", or empty)
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

apt_install() {
    # Installs Debian packages that are missing; apt-get update runs once, only if needed.
    local missing=()
    local pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "==> apt-get install ${missing[*]}"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

pip_install() {
    # pip_install PYTHON ARGS...: pip install, tried up to three times. pip retries a dropped
    # connection itself but not a download that arrived damaged (a hash mismatch against the
    # index's sha256), which a CI run met once on a 50 MB OpenCV wheel; the next try was clean.
    local python="$1"
    shift
    local attempt
    for attempt in 1 2 3; do
        if "$python" -m pip install -q --disable-pip-version-check "$@"; then
            return 0
        fi
        echo "==> pip install failed (attempt $attempt of 3)" >&2
    done
    return 1
}

bootstrap_venv() {
    local extra="${1:-}"
    # Debian splits venv and ensurepip out of python3; without them "python3 -m venv" fails.
    if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
        apt_install python3-venv
    fi
    if [ ! -x .venv/bin/python ]; then
        echo "==> creating .venv"
        python3 -m venv .venv
    fi
    local spec="."
    if [ -n "$extra" ]; then spec=".[$extra]"; fi
    echo "==> pip install -e $spec"
    pip_install .venv/bin/python -e "$spec"
}
