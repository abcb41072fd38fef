#!/usr/bin/env bash
# Browser tests drive Debian's chromium (never a downloaded browser). Installs it when missing, as root
# through apt; otherwise says exactly what to run.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$browser" ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "error: $browser is missing and this user is not root. Run: sudo apt-get install -y chromium" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: $browser is missing and apt-get is not available: install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi
echo "Installing Debian's chromium for the browser tests (apt-get install chromium)…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq chromium >&2
[ -x "$browser" ] || { echo "error: apt-get finished but $browser is still missing" >&2; exit 1; }
