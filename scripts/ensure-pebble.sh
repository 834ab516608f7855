#!/usr/bin/env bash
# Run by CI before the tests: the HTTPS tests (test/tls/) get certificates from Pebble, Let's
# Encrypt's own ACME test server, with pebble-challtestsrv as its DNS (Debian package `pebble`).
# On a fresh Debian/Ubuntu machine it is installed here with apt (as root, or password-less sudo).
set -euo pipefail
ready() { command -v pebble >/dev/null && command -v pebble-challtestsrv >/dev/null && command -v openssl >/dev/null; }
ready && exit 0

sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo="none"; fi
fi
if command -v apt-get >/dev/null && [ "$sudo" != "none" ]; then
  echo "Installing Pebble for the HTTPS tests (apt-get install pebble)..." >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends pebble openssl >/dev/null
  ready && exit 0
fi
echo "The HTTPS tests need Pebble and pebble-challtestsrv (Debian: sudo apt-get install pebble) and openssl." >&2
exit 1
