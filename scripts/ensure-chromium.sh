#!/usr/bin/env bash
# Run before the tests (npm "pretest"): the browser journeys drive Debian's Chromium, in its headless
# shell (package chromium-headless-shell; test/e2e/shared-browser.ts says why). On a fresh
# Debian/Ubuntu machine it is installed here with apt (as root, or with password-less sudo), with
# poppler-utils, whose pdftotext the invoice tests read the PDFs with.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
ready() { [ -x "$chromium" ] && command -v pdftotext >/dev/null; }
ready && exit 0

sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo="none"; fi
fi
if command -v apt-get >/dev/null && [ "$sudo" != "none" ]; then
  echo "Installing Debian's Chromium for the browser tests (apt-get install chromium-headless-shell)..." >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium-headless-shell fonts-dejavu-core poppler-utils >/dev/null
  ready && exit 0
fi
echo "The tests need Chromium at $chromium and pdftotext (Debian: sudo apt-get install chromium-headless-shell poppler-utils;" >&2
echo "elsewhere set CHROMIUM_PATH to a Chromium or Chrome binary)." >&2
exit 1
