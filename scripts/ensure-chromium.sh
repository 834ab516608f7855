#!/usr/bin/env bash
# Run before the tests (npm "pretest"): the browser journeys drive Debian's Chromium. On a fresh
# Debian/Ubuntu machine it is installed here with apt (as root, or with password-less sudo), with
# poppler-utils, whose pdftotext the invoice tests read the PDFs with.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
ready() { [ -x "$chromium" ] && command -v pdftotext >/dev/null; }
ready && exit 0

sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo="none"; fi
fi
if command -v apt-get >/dev/null && [ "$sudo" != "none" ]; then
  echo "Installing Debian's Chromium for the browser tests (apt-get install chromium)..." >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core poppler-utils >/dev/null
  ready && exit 0
fi
echo "The tests need Chromium at $chromium and pdftotext (Debian: sudo apt-get install chromium poppler-utils;" >&2
echo "elsewhere set CHROMIUM_PATH to a Chromium or Chrome binary)." >&2
exit 1
