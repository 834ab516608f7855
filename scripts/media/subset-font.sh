#!/usr/bin/env bash
# subset-font.sh - make public/inter-subset.woff2, the site's only font file, from the Inter
# variable font that @fontsource-variable/inter ships (its "latin" file, 48 KB).
#
# A manual tool like make-media.sh: not part of the build, the tests or CI; the output is committed.
# Needs fonttools with brotli (Debian: apt-get install -y fonttools python3-brotli).
#
# What is kept, and why (docs/decisions/009-client-weight.md):
#   - the characters the four languages and the owner's content can use: Basic Latin, Latin-1
#     (accents of fr/it/es, « » ¡ ¿ · and the no-break space), Œ œ, the general punctuation block
#     (– — ‘ ’ “ ” … and the narrow no-break space French number formatting puts before € and
#     between thousands), €, ™ and the minus sign; anything else falls back to the system font;
#   - the weight axis from 400 to 850, the weights styles.css uses (the source goes 100 to 900);
#   - kerning and the glyph composition/positioning features; no hinting (browsers ignore it on
#     the platforms that matter and it is a third of the file), no alternates or figure styles the
#     stylesheet does not ask for.
# The unicode-range in client/styles.css must list the same ranges as UNICODES below.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SRC=${SRC:-"$ROOT/node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2"}
OUT=${OUT:-"$ROOT/public/inter-subset.woff2"}
UNICODES="U+0020-007E,U+00A0-00FF,U+0152-0153,U+2010-2027,U+202F,U+2030-203A,U+2044,U+20AC,U+2122,U+2212"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

command -v fonttools >/dev/null || { echo "fonttools not found (apt-get install -y fonttools python3-brotli)" >&2; exit 1; }

fonttools varLib.instancer "$SRC" wght=400:850 -o "$WORK/instance.ttf" >/dev/null 2>&1
pyftsubset "$WORK/instance.ttf" --unicodes="$UNICODES" --layout-features="kern,ccmp,locl,mark,mkmk" \
  --no-hinting --flavor=woff2 --output-file="$OUT"
printf '%s: %s bytes (source %s bytes)\n' "$OUT" "$(stat -c %s "$OUT")" "$(stat -c %s "$SRC")"
