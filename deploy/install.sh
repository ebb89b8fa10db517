#!/usr/bin/env bash
# Installs (or upgrades) Knockdown Referee as a systemd service on Raspberry Pi OS Bookworm.
#
#   sudo deploy/install.sh             install or upgrade; safe to re-run
#   deploy/install.sh --dry-run        print every decision and command, change nothing
#   sudo deploy/install.sh --only unit,config    run only some steps (names below)
#   deploy/install.sh --print-pins     the numpy/opencv pins (the test suite uses them too)
#
# Upgrade: git pull && sudo deploy/install.sh  (keeps /etc/knockdown and /var/lib/knockdown).
# Steps, in order: packages user dirs source venv app config unit.
#
# Environment: KNOCKDOWN_ROOT=DIR installs into a staged root (see deploy/lib.sh);
# KNOCKDOWN_CONFIG_PYTHON is the interpreter that prints the default config (default: the
# venv's python, which has the product installed).
set -euo pipefail

DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE_DIR="$(dirname "$DEPLOY_DIR")"
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$DEPLOY_DIR/lib.sh"

ALL_STEPS="packages user dirs source venv app config unit"

# Version pins that the ecosystem forces on Bookworm (the why, in one place):
# - apt's python3-picamera2 and python3-simplejpeg are compiled against Bookworm's numpy 1.24;
#   a numpy 2 in the venv would shadow it and break their C extensions at import
#   ("numpy.dtype size changed"). So numpy stays apt's 1.x, seen via --system-site-packages.
# - opencv-python-headless 4.12 and later require numpy>=2; 4.11.0.86 is the newest release
#   whose wheels (cp37-abi3, manylinux2014 aarch64) accept numpy>=1.23.5 on Python 3.11.
#   It has cv2.aruco in the main module, like the development machines' newer opencv.
PIN_REQUIREMENTS=("numpy<2" "opencv-python-headless==4.11.0.86")

# Debian packages every install needs. python3-numpy is here on purpose: see the pins above.
# systemd and iproute2 are on every Raspberry Pi OS image, but not in a minimal Debian root.
BASE_PACKAGES=(python3 python3-venv python3-numpy iproute2 systemd)
# Only on a Pi: from the Raspberry Pi apt archive, built for its kernel and camera stack.
PI_PACKAGES=(python3-picamera2 python3-lgpio)
# The interpreter whose site-packages are apt's: the venv must be built on it, not on a pyenv.
SYSTEM_PYTHON="${KNOCKDOWN_SYSTEM_PYTHON:-/usr/bin/python3}"

usage() {
    sed -n '2,14s/^# \{0,1\}//p' "$0"
}

ONLY=""
ORIGINAL_ARGS=("$@")
while [ "$#" -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --only)
            [ "$#" -ge 2 ] || die "--only needs a comma-separated list of steps: ${ALL_STEPS// /,}"
            ONLY="$2"
            shift
            ;;
        --only=*) ONLY="${1#--only=}" ;;
        --print-pins)
            # The pins, one per line, for the test suite's run on the Pi's library versions.
            printf '%s\n' "${PIN_REQUIREMENTS[@]}"
            exit 0
            ;;
        -h | --help)
            usage
            exit 0
            ;;
        *) die "unknown option '$1' (try --help)" ;;
    esac
    shift
done

STEPS="$ALL_STEPS"
if [ -n "$ONLY" ]; then
    STEPS="${ONLY//,/ }"
    for wanted in $STEPS; do
        case " $ALL_STEPS " in
            *" $wanted "*) ;;
            *) die "unknown step '$wanted' in --only (steps: ${ALL_STEPS// /,})" ;;
        esac
    done
fi
wants_step() { case " $STEPS " in *" $1 "*) return 0 ;; *) return 1 ;; esac }

require_root_unless_staged "${ORIGINAL_ARGS[@]}"

# ---------------------------------------------------------------- decisions
step "Checking this machine"
if [ "$DRY_RUN" -eq 1 ]; then note "dry run: printing commands, changing nothing"; fi
if [ -n "$ROOT" ]; then note "staged root: writing files under $ROOT"; fi

IS_PI=0
MODEL_FILE="$ROOT/proc/device-tree/model"
MODEL=""
if [ -r "$MODEL_FILE" ]; then MODEL="$(tr -d '\0' <"$MODEL_FILE")"; fi
if [[ "$MODEL" == *"Raspberry Pi"* ]]; then
    IS_PI=1
    note "Raspberry Pi: yes ($MODEL)"
else
    note "Raspberry Pi: no (no Raspberry Pi in $MODEL_FILE): development install," \
        "skipping ${PI_PACKAGES[*]} and the [pi] extra"
fi

CODENAME="unknown"
if [ -r "$ROOT/etc/os-release" ]; then
    CODENAME="$(sed -n 's/^VERSION_CODENAME=//p' "$ROOT/etc/os-release" | tr -d '"')"
fi
if [ "$CODENAME" = "bookworm" ]; then
    note "OS: bookworm"
else
    note "OS: ${CODENAME:-unknown}: WARNING, only Bookworm is tested; the numpy/opencv pins may not fit"
fi

# ---------------------------------------------------------------- steps
install_packages() {
    step "Debian packages"
    local wanted=("${BASE_PACKAGES[@]}")
    if [ "$IS_PI" -eq 1 ]; then wanted+=("${PI_PACKAGES[@]}"); fi
    local missing=() pkg
    for pkg in "${wanted[@]}"; do
        if [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]; then
            missing+=("$pkg")
        fi
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        note "already installed: ${wanted[*]}"
        return
    fi
    note "missing: ${missing[*]}"
    run_host apt-get update
    # --no-install-recommends keeps picamera2's Qt/OpenGL preview stack off a Lite image.
    run_host env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

ensure_group() {
    if account_exists group "$1"; then
        note "group $1: exists"
    else
        # Raspberry Pi OS has gpio and video; plain Debian has no gpio group.
        note "group $1: missing, creating it"
        run_host groupadd --system "$1"
    fi
}

create_user() {
    step "Service user"
    ensure_group gpio
    ensure_group video
    if account_exists passwd "$SERVICE_USER"; then
        note "user $SERVICE_USER: exists"
    else
        note "user $SERVICE_USER: creating a system user without a login shell"
        run_host useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    # Idempotent: -a appends, so re-running changes nothing.
    run_host usermod --append --groups gpio,video "$SERVICE_USER"
}

create_dirs() {
    step "Directories"
    run install -d -m 0755 "$ROOT$APP_DIR"
    # The service rewrites its config when the referee calibrates the tower camera from the
    # tablet (a new file renamed over the old): its group may write the config directory.
    run install -d -m 0775 "$ROOT$CONFIG_DIR"
    run_host chgrp "$SERVICE_USER" "$CONFIG_DIR"
    # The data survives upgrades and uninstalls (unless --purge); only the service user reads it.
    run install -d -m 0750 "$ROOT$DATA_DIR"
    run_host chown "$SERVICE_USER:$SERVICE_USER" "$DATA_DIR"
}

copy_source() {
    step "Source copy in $SRC_COPY"
    # pip builds in the source tree; building a copy keeps root-owned build files out of
    # the user's git checkout, and the docs stay next to the installed service.
    if [ "$SOURCE_DIR" -ef "$ROOT$SRC_COPY" ]; then
        # Run from the installed copy (e.g. to re-enable the unit): copying would delete itself.
        note "running from the installed copy: keeping it as it is"
        return
    fi
    note "from $SOURCE_DIR"
    run rm -rf "$ROOT$SRC_COPY"
    run install -d -m 0755 "$ROOT$SRC_COPY"
    note "+ tar -C $SOURCE_DIR -cf - . | tar -C $ROOT$SRC_COPY -xf -   (without .git, virtual environments, data, build and test output)"
    if [ "$DRY_RUN" -eq 1 ]; then return; fi
    # Any virtual environment in the checkout (a directory holding pyvenv.cfg, whatever its name:
    # the README's .venv, CI's .venv-pi) is hundreds of MB the service never uses, and copying it
    # takes long enough for a running test or build to change the tree under tar ("file changed
    # as we read it" fails the install).
    tar -C "$SOURCE_DIR" --exclude=./.git --exclude=./.venv --exclude-tag-all=pyvenv.cfg \
        --exclude=./data --exclude=./build --exclude=./test-artifacts \
        --exclude='*.egg-info' --exclude=__pycache__ --exclude=.pytest_cache --exclude=.hypothesis \
        -cf - . | tar -C "$ROOT$SRC_COPY" -xf -
}

venv_is_usable() {
    [ -x "$ROOT$VENV/bin/python" ] &&
        grep -q '^include-system-site-packages = true' "$ROOT$VENV/pyvenv.cfg" 2>/dev/null &&
        "$ROOT$VENV/bin/python" -c 'import sys' 2>/dev/null
}

create_venv() {
    step "Virtual environment $VENV"
    if venv_is_usable; then
        note "venv: exists with system site packages, reusing it"
        return
    fi
    if [ -e "$ROOT$VENV" ]; then
        # Made without --system-site-packages, or broken by a Python upgrade: rebuild it.
        note "venv: unusable, recreating it"
        run rm -rf "$ROOT$VENV"
    else
        note "venv: creating it"
    fi
    # --system-site-packages: apt's picamera2, lgpio and numpy must be importable, and
    # PEP 668 forbids pip outside a venv on Bookworm.
    run "$SYSTEM_PYTHON" -m venv --system-site-packages "$ROOT$VENV"
}

# The pip requirement for the product. The [pi] extra is lgpio, which apt's python3-lgpio
# already provides; PyPI has no aarch64 wheel of it, so when pip cannot see apt's copy as an
# installed distribution it would try to compile it. Then the extra is left out on purpose.
product_spec() {
    local venv_python="$ROOT$VENV/bin/python"
    if [ "$IS_PI" -eq 0 ]; then
        echo "$SRC_COPY"
    elif [ -x "$venv_python" ] && ! "$venv_python" -m pip show -q lgpio >/dev/null 2>&1 &&
        "$venv_python" -c 'import lgpio' >/dev/null 2>&1; then
        echo "$SRC_COPY"
    else
        echo "${SRC_COPY}[pi]"
    fi
}

install_app() {
    step "Knockdown Referee into the venv"
    local spec
    spec="$(product_spec)"
    if [ "$IS_PI" -eq 1 ] && [ "$spec" = "$SRC_COPY" ]; then
        note "lgpio: importable from apt's python3-lgpio, which pip cannot see: installing without [pi]"
    fi
    note "pins: ${PIN_REQUIREMENTS[*]}"
    run "$ROOT$VENV/bin/python" -m pip install --disable-pip-version-check --no-input \
        "$ROOT$spec" "${PIN_REQUIREMENTS[@]}"
    # "knockdown doctor" for every user, without typing the venv path.
    run install -d -m 0755 "$ROOT$(dirname "$BIN_LINK")"
    run ln -sfn "$VENV/bin/knockdown" "$ROOT$BIN_LINK"
    run install -m 0755 "$DEPLOY_DIR/knockdown-doctor" "$ROOT$DOCTOR_WRAPPER"
}

# An upgrade keeps the organiser's config; say so at once if the new version rejects it.
check_kept_config() {
    local python="$1" problem
    if ! command -v "$python" >/dev/null; then
        note "config: not validated yet ($python does not exist)"
        return
    fi
    if problem="$(cd / && "$python" -c 'import sys, firmware_config; firmware_config.load_config(sys.argv[1])' \
        "$ROOT$CONFIG_FILE" 2>&1)"; then
        note "config: it loads with this version"
    else
        note "config: WARNING, it does not load with this version: ${problem##*$'\n'}"
        note "        fix the field it names, then: sudo systemctl restart $SERVICE_NAME"
    fi
}

write_config() {
    step "Configuration $CONFIG_FILE"
    local python="${KNOCKDOWN_CONFIG_PYTHON:-$ROOT$VENV/bin/python}"
    if [ -e "$ROOT$CONFIG_FILE" ]; then
        note "config: keeping the existing $CONFIG_FILE"
        check_kept_config "$python"
        return
    fi
    note "config: none yet, writing the defaults"
    local print_defaults='import sys, firmware_config; sys.stdout.write(firmware_config.DEFAULT_CONFIG_TEXT)'
    show_command " > $ROOT$CONFIG_FILE" "$python" -c "$print_defaults"
    if [ "$DRY_RUN" -eq 1 ]; then return; fi
    # Written to a temp file first so a failing interpreter never leaves a half-written config.
    local tmp
    tmp="$(mktemp "$ROOT$CONFIG_DIR/.config.toml.XXXXXX")"
    # From / so that "python -c" imports the installed package, not a firmware_config/ in the cwd.
    if ! (cd / && "$python" -c "$print_defaults") >"$tmp" || [ ! -s "$tmp" ]; then
        rm -f "$tmp"
        die "could not print the default config with $python"
    fi
    chmod 0644 "$tmp"
    mv "$tmp" "$ROOT$CONFIG_FILE"
}

install_unit() {
    step "systemd unit $UNIT_PATH"
    if cmp -s "$DEPLOY_DIR/knockdown.service" "$ROOT$UNIT_PATH"; then
        note "unit: unchanged"
    else
        note "unit: installing"
        run install -D -m 0644 "$DEPLOY_DIR/knockdown.service" "$ROOT$UNIT_PATH"
    fi
    if [ -n "$ROOT" ]; then
        # systemctl --root edits the staged root's symlinks offline: real, and testable.
        run systemctl --root="$ROOT" enable "$SERVICE_NAME.service"
        return
    fi
    if systemd_running; then
        run systemctl daemon-reload
        run systemctl enable "$SERVICE_NAME.service"
        # restart, not start: an upgrade must load the new code.
        run systemctl restart "$SERVICE_NAME.service"
    else
        note "systemd is not running here (chroot or container): enabling for the next boot only"
        run systemctl enable "$SERVICE_NAME.service"
    fi
}

for current in $ALL_STEPS; do
    wants_step "$current" || continue
    case "$current" in
        packages) install_packages ;;
        user) create_user ;;
        dirs) create_dirs ;;
        source) copy_source ;;
        venv) create_venv ;;
        app) install_app ;;
        config) write_config ;;
        unit) install_unit ;;
    esac
done

step "Done"
if [ "$DRY_RUN" -eq 1 ]; then
    note "dry run: nothing was changed"
else
    note "check the installation: sudo knockdown-doctor"
    note "logs: journalctl -u $SERVICE_NAME -f"
fi
