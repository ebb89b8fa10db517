#!/usr/bin/env bash
# Removes the Knockdown Referee service, its venv and its source copy.
# The configuration (/etc/knockdown) and the match data (/var/lib/knockdown) are kept,
# so a later install.sh picks them up again, unless --purge is given.
#
#   sudo deploy/uninstall.sh [--purge] [--dry-run]
#
# KNOCKDOWN_ROOT=DIR works on a staged root, as for install.sh (see deploy/lib.sh).
set -euo pipefail

DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$DEPLOY_DIR/lib.sh"

PURGE=0
ORIGINAL_ARGS=("$@")
while [ "$#" -gt 0 ]; do
    case "$1" in
        --purge) PURGE=1 ;;
        --dry-run) DRY_RUN=1 ;;
        -h | --help)
            sed -n '2,8s/^# \{0,1\}//p' "$0"
            exit 0
            ;;
        *) die "unknown option '$1' (try --help)" ;;
    esac
    shift
done

require_root_unless_staged "${ORIGINAL_ARGS[@]}"

step "Service"
if [ -n "$ROOT" ]; then
    run systemctl --root="$ROOT" disable "$SERVICE_NAME.service"
elif systemd_running; then
    # disable --now stops it too; "|| true" because a never-started unit is not an error here.
    run systemctl disable --now "$SERVICE_NAME.service" || true
else
    run systemctl disable "$SERVICE_NAME.service" || true
fi
run rm -f "$ROOT$UNIT_PATH"
if systemd_running; then
    run systemctl daemon-reload
    run systemctl reset-failed "$SERVICE_NAME.service" || true
fi

step "Program files"
run rm -rf "$ROOT$APP_DIR"
run rm -f "$ROOT$BIN_LINK" "$ROOT$DOCTOR_WRAPPER"

step "Configuration and data"
if [ "$PURGE" -eq 1 ]; then
    note "--purge: deleting the configuration, the match data and the $SERVICE_USER user"
    run rm -rf "$ROOT$CONFIG_DIR" "$ROOT$DATA_DIR"
    if account_exists passwd "$SERVICE_USER"; then
        run_host userdel "$SERVICE_USER"
    fi
else
    note "keeping $CONFIG_DIR and $DATA_DIR (and the $SERVICE_USER user); --purge deletes them"
fi

step "Done"
if [ "$DRY_RUN" -eq 1 ]; then note "dry run: nothing was changed"; fi
