#!/usr/bin/env bash
# Renders a saddlefw HTML report to PNG with headless Chromium (Debian's `chromium` package)
# and fails when the page logs console errors.
#
# usage: scripts/screenshot.sh PAGE.html [OUT.png] [WIDTHxHEIGHT]
#   OUT.png defaults to PAGE.png next to the page; the window defaults to 1400x2000.
#   SADDLEFW_NO_INSTALL=1 skips the automatic `apt-get install chromium` when it is missing.
#
# Exit status: 0 rendered without console errors; 1 console errors or no PNG; 2 usage or
# Chromium unavailable.
set -euo pipefail

page=${1:-}
if [[ -z "$page" || ! -f "$page" ]]; then
    echo "usage: $0 PAGE.html [OUT.png] [WIDTHxHEIGHT]" >&2
    exit 2
fi
out=${2:-${page%.html}.png}
size=${3:-1400x2000}
size=${size/x/,}

browser=""
for b in chromium chromium-browser; do
    if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [[ -z "$browser" && -z "${SADDLEFW_NO_INSTALL:-}" && "$(id -u)" == 0 ]]; then
    echo "chromium not found: installing Debian's chromium package" >&2
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
    browser=chromium
fi
if [[ -z "$browser" ]]; then
    echo "chromium is not installed (apt-get install chromium)" >&2
    exit 2
fi

abs_page=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
profile=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$profile" "$log"' EXIT
rm -f "$out"

# --dump-dom makes Chromium wait for the load event; the screenshot run writes the PNG.
common=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
        --disable-background-networking --disable-component-update --disable-sync
        --disable-default-apps --disable-extensions --hide-scrollbars
        "--host-resolver-rules=MAP * ~NOTFOUND"
        --user-data-dir="$profile" --enable-logging=stderr --v=0)
"$browser" "${common[@]}" --window-size="$size" --screenshot="$(realpath -m "$out")" \
    "file://$abs_page" >/dev/null 2>"$log" || true

# Chromium logs every console message as "INFO:CONSOLE..." whatever its level; the reports
# contain no scripts, so any console message at all (and any uncaught exception) is an error.
errors=$(grep -E ":CONSOLE|Uncaught" "$log" || true)
if [[ -n "$errors" ]]; then
    echo "console errors while rendering $page:" >&2
    echo "$errors" >&2
    exit 1
fi
if [[ ! -s "$out" ]]; then
    echo "no screenshot written; chromium said:" >&2
    tail -n 20 "$log" >&2
    exit 1
fi
echo "$out: $(du -h "$out" | cut -f1) screenshot of $page (window $size), no console errors"
