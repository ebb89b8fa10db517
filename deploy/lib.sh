# shellcheck shell=bash
# The paths are used by the scripts that source this file, not here:
# shellcheck disable=SC2034
#
# Sourced by install.sh and uninstall.sh: the paths of the appliance and the helpers that
# print every command before running it (or only print it, in --dry-run mode).
#
# KNOCKDOWN_ROOT=DIR makes a "staged root": every file is written under DIR instead of /,
# and commands that would change the host itself (apt-get, useradd, chown, systemctl start)
# are printed but not run. Tests use it to run the real file-writing steps in a temp dir.

SERVICE_NAME="knockdown"
SERVICE_USER="knockdown"
APP_DIR="/opt/knockdown"
SRC_COPY="$APP_DIR/src"
VENV="$APP_DIR/venv"
CONFIG_DIR="/etc/knockdown"
CONFIG_FILE="$CONFIG_DIR/config.toml"
DATA_DIR="/var/lib/knockdown"
UNIT_PATH="/etc/systemd/system/$SERVICE_NAME.service"
BIN_LINK="/usr/local/bin/knockdown"
DOCTOR_WRAPPER="/usr/local/bin/knockdown-doctor"

ROOT="${KNOCKDOWN_ROOT:-}"
ROOT="${ROOT%/}"
DRY_RUN=0

step() { printf '\n==> %s\n' "$*"; }

# A decision or a fact the script found, so the output explains what it did and why.
note() { printf '    %s\n' "$*"; }

die() {
    printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2
    exit 1
}

# Prints "+ command" with shell quoting only where an argument needs it, so it can be pasted.
show_command() {
    local suffix="$1" arg
    shift
    printf '    +'
    for arg in "$@"; do
        if [[ "$arg" =~ ^[][A-Za-z0-9_./=:,@%+-]+$ ]]; then
            printf ' %s' "$arg"
        else
            printf " '%s'" "${arg//\'/\'\\\'\'}"
        fi
    done
    printf '%s\n' "$suffix"
}

# Runs a command that only touches files under $ROOT (or prints it in --dry-run mode).
run() {
    show_command "" "$@"
    if [ "$DRY_RUN" -eq 0 ]; then "$@"; fi
}

# Runs a command that changes the host itself; in a staged root it is only printed.
run_host() {
    if [ -n "$ROOT" ]; then
        show_command "   (not run: staged root $ROOT)" "$@"
    else
        run "$@"
    fi
}

# Whether systemd is PID 1 here (false in a chroot or most containers).
systemd_running() { [ -z "$ROOT" ] && [ -d /run/systemd/system ]; }

# Account lookups read $ROOT/etc in a staged root, the system databases otherwise.
account_exists() {
    local database="$1" name="$2"
    if [ -n "$ROOT" ]; then
        [ -f "$ROOT/etc/$database" ] && grep -q "^$name:" "$ROOT/etc/$database"
    else
        getent "$database" "$name" >/dev/null
    fi
}

require_root_unless_staged() {
    if [ "$DRY_RUN" -eq 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
        die "run as root: sudo $0 $*"
    fi
}
