#!/usr/bin/env bash
# Shows the referee dashboard full-screen on a Pi with a touchscreen (Chromium kiosk mode).
# Started at login by the autostart entry that install-kiosk.sh writes; run it by hand to try.
#
#   knockdown-kiosk.sh [URL]     (default http://localhost:8080/)
#
# KNOCKDOWN_KIOSK_WAIT: seconds to wait for the dashboard after boot (default 120).
set -euo pipefail

URL="${1:-http://localhost:8080/}"
WAIT_SECONDS="${KNOCKDOWN_KIOSK_WAIT:-120}"

# Raspberry Pi OS Bookworm names the package chromium-browser; Debian names it chromium.
BROWSER="$(command -v chromium-browser || command -v chromium || true)"
if [ -z "$BROWSER" ]; then
    echo "knockdown-kiosk: no Chromium found: sudo apt install chromium-browser" >&2
    exit 1
fi

# After a power cut the desktop can come up before the service: wait for its health endpoint
# so the screen does not show a "site can't be reached" page.
health="${URL%/}/api/health"
deadline=$((SECONDS + WAIT_SECONDS))
until curl --silent --fail --max-time 2 --output /dev/null "$health"; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        echo "knockdown-kiosk: $health did not answer in ${WAIT_SECONDS}s; opening it anyway" >&2
        break
    fi
    sleep 1
done

# --incognito: no "restore pages?" bubble after a power cut; --noerrdialogs and
# --disable-infobars: nothing on top of the dashboard; the update check is pointless here.
exec "$BROWSER" --kiosk --incognito --noerrdialogs --disable-infobars --no-first-run \
    --check-for-update-interval=31536000 --ozone-platform-hint=auto "$URL"
