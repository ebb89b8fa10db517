#!/usr/bin/env bash
# Runs the real install.sh twice in a fresh Debian Bookworm root made with debootstrap, then
# checks what it built: the numpy/opencv pins, the console script, the user and its groups,
# the enabled unit and systemd-analyze verify on it with the real binary in place.
#
#   sudo deploy/verify-in-chroot.sh [DIR]     (default /var/tmp/knockdown-chroot; kept for reuse)
#
# It needs root, network access to the Debian archive and PyPI, and about 4 minutes the first
# time (1.5 for debootstrap), so it is not part of the test suite. A chroot has no systemd as
# PID 1, no /proc/device-tree and no Raspberry Pi apt archive: it checks the non-Pi path of
# install.sh, not picamera2/lgpio (see docs/deploy.md, "What was verified, and how").
set -euo pipefail

DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE_DIR="$(dirname "$DEPLOY_DIR")"
WORK="${1:-/var/tmp/knockdown-chroot}"
ROOTFS="$WORK/root"
CHECKOUT=/root/knockdown-referee

[ "$(id -u)" -eq 0 ] || { echo "verify-in-chroot.sh: run it with sudo" >&2; exit 2; }

if [ ! -x "$ROOTFS/usr/bin/apt-get" ]; then
    command -v debootstrap >/dev/null || apt-get install -y debootstrap
    echo "==> debootstrap bookworm into $ROOTFS"
    debootstrap --variant=minbase --include=ca-certificates bookworm "$ROOTFS" http://deb.debian.org/debian
fi

cleanup() { umount "$ROOTFS/dev" "$ROOTFS/proc" 2>/dev/null || true; }
trap cleanup EXIT
mountpoint -q "$ROOTFS/proc" || mount -t proc proc "$ROOTFS/proc"
mountpoint -q "$ROOTFS/dev" || mount --bind /dev "$ROOTFS/dev"
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
# Trust what the host trusts, so an HTTPS proxy the host accepts works inside the chroot too.
cp /etc/ssl/certs/ca-certificates.crt "$ROOTFS/etc/ssl/certs/ca-certificates.crt"

echo "==> copying $SOURCE_DIR to $CHECKOUT in the chroot"
rm -rf "${ROOTFS:?}$CHECKOUT"
mkdir -p "$ROOTFS$CHECKOUT"
tar -C "$SOURCE_DIR" --exclude=./.git --exclude=./.venv --exclude=./data -cf - . | tar -C "$ROOTFS$CHECKOUT" -xf -

in_chroot() { chroot "$ROOTFS" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

for run in first second; do
    echo "==> install.sh, $run run"
    in_chroot bash "$CHECKOUT/deploy/install.sh" | tee "$WORK/install-$run.log"
done

echo "==> checks"
failures=0
expect() {
    local what="$1"
    shift
    if "$@" >/dev/null 2>&1; then echo "PASS  $what"; else echo "FAIL  $what"; failures=$((failures + 1)); fi
}
second="$WORK/install-second.log"
expect "re-run keeps the config" grep -q "config: keeping the existing" "$second"
expect "re-run reuses the venv" grep -q "venv: exists with system site packages" "$second"
expect "re-run leaves the unit alone" grep -q "unit: unchanged" "$second"
expect "re-run finds the user" grep -q "user knockdown: exists" "$second"
expect "numpy is apt's 1.x" in_chroot /opt/knockdown/venv/bin/python -c \
    'import numpy, sys; sys.exit(not (numpy.__version__.startswith("1.") and numpy.__file__.startswith("/usr/lib/python3/")))'
expect "opencv 4.11 imports with it, with cv2.aruco" in_chroot /opt/knockdown/venv/bin/python -c \
    'import cv2, sys; sys.exit(not (cv2.__version__.startswith("4.11") and hasattr(cv2.aruco, "ArucoDetector")))'
expect "knockdown --version" in_chroot /usr/local/bin/knockdown --version
expect "knockdown user is in gpio and video" sh -c "chroot '$ROOTFS' id -nG knockdown | grep -qw gpio && chroot '$ROOTFS' id -nG knockdown | grep -qw video"
expect "the unit is enabled" in_chroot systemctl is-enabled knockdown.service
expect "systemd-analyze verify is silent" sh -c "[ -z \"\$(chroot '$ROOTFS' systemd-analyze verify /etc/systemd/system/knockdown.service 2>&1)\" ]"
expect "the default config was written" test -s "$ROOTFS/etc/knockdown/config.toml"

if [ "$failures" -gt 0 ]; then
    echo "verify-in-chroot: $failures check(s) failed" >&2
    exit 1
fi
echo "verify-in-chroot: all checks passed"
