#!/usr/bin/env bash
# Starts the dashboard in Chromium kiosk mode at every desktop login on this Pi.
# Run it as the desktop user (not with sudo):
#
#   deploy/kiosk/install-kiosk.sh [URL]      (default http://localhost:8080/)
#   deploy/kiosk/install-kiosk.sh --remove
#
# It writes an XDG autostart entry (~/.config/autostart), which Raspberry Pi OS runs under
# labwc, wayfire and X11 alike. Set the Pi to log in to the desktop automatically
# (raspi-config: System Options > Boot / Auto Login) so it comes back after a power cut.
set -euo pipefail

KIOSK_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ENTRY="${XDG_CONFIG_HOME:-$HOME/.config}/autostart/knockdown-kiosk.desktop"

if [ "$(id -u)" -eq 0 ]; then
    echo "install-kiosk.sh: run it as the desktop user, not root (the entry goes in that user's home)" >&2
    exit 2
fi

if [ "${1:-}" = "--remove" ]; then
    rm -f "$ENTRY"
    echo "removed $ENTRY"
    exit 0
fi

URL="${1:-http://localhost:8080/}"
mkdir -p "$(dirname "$ENTRY")"
cat >"$ENTRY" <<DESKTOP
[Desktop Entry]
Type=Application
Name=Knockdown Referee kiosk
Comment=The referee dashboard, full-screen
Exec=$KIOSK_DIR/knockdown-kiosk.sh $URL
X-GNOME-Autostart-enabled=true
DESKTOP
echo "wrote $ENTRY: Chromium opens $URL full-screen at the next login"
