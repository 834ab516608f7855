#!/usr/bin/env bash
# make-media.sh - regenerate the landing page's media in public/ from the HTML
# sources in scripts/media/src/.
#
# This is documentation plus a manual tool: it is NOT part of the build, the
# tests or CI (it refuses to run when CI=true). The outputs are committed.
#
# Needs: chromium (headless screenshots), ffmpeg with libx264 + libwebp,
#        and the Inter font (Debian: apt-get install -y fonts-inter; the
#        slides fall back to DejaVu Sans). Nothing is fetched from the network:
#        the slides only use local CSS/JS and system fonts.
#
# Usage:  scripts/media/make-media.sh            # writes into public/
#         OUT=/tmp/media scripts/media/make-media.sh
#
# Outputs:
#   demo-video.mp4        ~25.5 s, 1280x720, 30 fps, H.264 main@4.0, yuv420p, no audio, faststart
#   demo-poster.webp      1280x720, first frame of the video
#   app-preview-1280.webp 1280x800, transparent background (laptop + phone)
#   app-preview-960.webp  960x600, same (a 2x phone of 412 px and up)
#   app-preview-640.webp  640x400, same
#   og-image.jpg          1200x630
#   favicon.svg           copied from src/favicon.svg
#   apple-touch-icon.png  180x180
#
# The product name is deliberately not drawn into any of the media (it is
# configurable); only the neutral play-button mark is used. Film titles are
# fictional. The only sentence is the end card / OG line "One payment. For life."
set -euo pipefail

if [[ "${CI:-}" == "true" ]]; then
  echo "make-media.sh is a manual tool and is not meant to run in CI." >&2
  exit 1
fi

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SRC="$HERE/src"
OUT=${OUT:-"$ROOT/public"}
CHROMIUM=${CHROMIUM:-chromium}
FFMPEG=${FFMPEG:-ffmpeg}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"

command -v "$CHROMIUM" >/dev/null || { echo "chromium not found" >&2; exit 1; }
command -v "$FFMPEG" >/dev/null || { echo "ffmpeg not found" >&2; exit 1; }
[[ -n "$(fc-list ':family=Inter' 2>/dev/null)" ]] || echo "warning: Inter font not installed (apt-get install -y fonts-inter); falling back to DejaVu Sans" >&2

FF=("$FFMPEG" -hide_banner -loglevel error -y)

# shot PAGE[#layer] OUT.png WIDTH HEIGHT SCALE [extra chromium flags...]
# Screenshot of a local HTML page with headless chromium, in a throw-away profile.
shot() {
  local page=$1 out=$2 w=$3 h=$4 dsf=$5
  shift 5
  local profile
  profile=$(mktemp -d)
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars \
    --force-device-scale-factor="$dsf" --window-size="$w,$h" \
    --virtual-time-budget=3000 "$@" \
    --screenshot="$out" "file://$SRC/$page" >/dev/null 2>&1 || true
  rm -rf "$profile"
  [[ -s "$out" ]] || { echo "chromium did not write $out ($page)" >&2; exit 1; }
  echo "  rendered $page -> $(basename "$out")"
}

# render PAGE[#state] NAME [WIDTH HEIGHT [extra chromium flags...]]
# Screenshot at 2x device scale, then downscale with lanczos: crisper text and
# edges than a 1x screenshot. Writes $WORK/NAME.png at WIDTHxHEIGHT.
render() {
  local page=$1 name=$2 w=${3:-1280} h=${4:-720}
  shift 4 2>/dev/null || shift $#
  shot "$page" "$WORK/$name@2x.png" "$w" "$h" 2 "$@"
  "${FF[@]}" -i "$WORK/$name@2x.png" -vf "scale=${w}:${h}:flags=lanczos" "$WORK/$name.png"
}

echo "== rendering slides"
# Each slide is a list of "page#state seconds" steps; the states are small UI
# changes (focus moving, typing, download progress) that make the video feel
# alive while costing almost nothing to encode. Slide durations include the
# crossfades. The player slide is animated by ffmpeg instead (see below).
XF=0.6                                    # crossfade length (s)
SLIDE1=("slide-1-home.html 1.9" "slide-1-home.html#focus=1 0.7" "slide-1-home.html#focus=2 0.7" "slide-1-home.html#focus=3 1.7")
SLIDE2=("slide-2-search.html#q= 0.9" "slide-2-search.html#q=o 0.13" "slide-2-search.html#q=oc 0.13"
        "slide-2-search.html#q=oce 0.13" "slide-2-search.html#q=ocea 0.13" "slide-2-search.html#q=ocean 3.08")
SLIDE3_DUR=5                              # player: progress bar animated by ffmpeg
SLIDE4=("slide-4-devices.html 4.5")       # devices: static (see ZOOM4)
SLIDE5=("slide-5-downloads.html#a=72&b=35 1.2" "slide-5-downloads.html#a=81&b=39 0.6"
        "slide-5-downloads.html#a=90&b=44 0.6" "slide-5-downloads.html#a=done&b=48 2.1")
SLIDE6=("slide-6-end.html 5")             # end card: slow push-in by ffmpeg (zoompan)
# Push-in over the whole slide (zoom 1.0 -> 1+Z). Zooming a detailed frame is
# expensive to encode: ZOOM4=0.035 adds ~250 KB to the video, so it is off.
ZOOM4=0 ZOOM6=0.06
TRANS=(fade fade fade fade fadeblack)     # xfade transitions between the 6 slides

# seq_input N STEP... : render the steps of slide N and write an ffmpeg concat
# list ($WORK/slideN.txt) that shows each state for its duration.
seq_input() {
  local n=$1 k=0 step page dur list
  list="$WORK/slide$n.txt"
  shift
  : >"$list"
  for step in "$@"; do
    page=${step% *} dur=${step##* }
    render "$page" "s$n-$k"
    printf "file '%s'\nduration %s\n" "$WORK/s$n-$k.png" "$dur" >>"$list"
    k=$((k + 1))
  done
  printf "file '%s'\n" "$WORK/s$n-$((k - 1)).png" >>"$list"   # concat demuxer needs the last file twice
}
seq_input 1 "${SLIDE1[@]}"
seq_input 2 "${SLIDE2[@]}"
render "slide-3-player.html#layer=base" s3-base
# Player progress fill + knob + thumbnail alone, on a transparent 1400px-wide page.
render "slide-3-player.html#layer=fill" s3-fill 1400 720 --default-background-color=00000000
seq_input 4 "${SLIDE4[@]}"
seq_input 5 "${SLIDE5[@]}"
seq_input 6 "${SLIDE6[@]}"

echo "== demo-video.mp4"
FPS=30
TRACK_X=48 TRACK_W=1184                   # progress track in the player frame (CSS px, see slide-3-player.html)
P0=0.30 P1=0.46                           # progress moves from 30% to 46% (smoothstep)
sum() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", a+b}'; }
seqdur() { local t=0 s; for s in "$@"; do t=$(sum "$t" "${s##* }"); done; echo "$t"; }
DUR=("$(seqdur "${SLIDE1[@]}")" "$(seqdur "${SLIDE2[@]}")" "$SLIDE3_DUR"
     "$(seqdur "${SLIDE4[@]}")" "$(seqdur "${SLIDE5[@]}")" "$(seqdur "${SLIDE6[@]}")")

inputs=(
  -f concat -safe 0 -i "$WORK/slide1.txt"                                     # 0
  -f concat -safe 0 -i "$WORK/slide2.txt"                                     # 1
  -loop 1 -framerate "$FPS" -t "$SLIDE3_DUR" -i "$WORK/s3-base.png"           # 2
  -loop 1 -framerate "$FPS" -t "$SLIDE3_DUR" -i "$WORK/s3-fill.png"           # 3
  -loop 1 -framerate "$FPS" -t "${DUR[3]}" -i "$WORK/s4-0@2x.png"            # 4 (2x, for zoompan)
  -f concat -safe 0 -i "$WORK/slide5.txt"                                     # 5
  -loop 1 -framerate "$FPS" -t "${DUR[5]}" -i "$WORK/s6-0@2x.png"            # 6 (2x, for zoompan)
)
U="(t/${SLIDE3_DUR})"
P="(${P0}+(${P1}-${P0})*${U}*${U}*(3-2*${U}))"
norm="fps=${FPS},format=yuv420p,setsar=1"
fc="[0:v]${norm}[v0];[1:v]${norm}[v1];"
# Slide the full-width fill in from the left, then cover whatever slid past the
# start of the track with the untouched left strip of the base frame.
fc+="[2:v]split[pb][pp];[pp]crop=${TRACK_X}:720:0:0[patch];"
fc+="[pb][3:v]overlay=x='-(1-${P})*${TRACK_W}':y=0:eval=frame[pf];"
fc+="[pf][patch]overlay=0:0,${norm}[v2];"
# zoompan on the 2x frames (so its whole-pixel crop steps are half-pixel steps
# in the output), smoothstep-eased: z goes 1 -> 1+Z over N frames.
zoom() { # zoom Z SECONDS
  local n u
  n=$(awk -v d="$2" -v f="$FPS" 'BEGIN{printf "%d", d*f}')
  u="clip(on/${n},0,1)"
  echo "zoompan=z='1+${1}*${u}*${u}*(3-2*${u})':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d=1:s=1280x720:fps=${FPS}"
}
fc+="[4:v]$(zoom "$ZOOM4" "${DUR[3]}"),${norm}[v3];[5:v]${norm}[v4];[6:v]$(zoom "$ZOOM6" "${DUR[5]}"),${norm}[v5];"
prev="[v0]" offset=0
for i in 1 2 3 4 5; do
  offset=$(awk -v o="$offset" -v d="${DUR[$((i - 1))]}" -v x="$XF" 'BEGIN{printf "%.3f", o+d-x}')
  out="[x$i]"; [[ $i == 5 ]] && out="[vout]"
  fc+="${prev}[v$i]xfade=transition=${TRANS[$((i - 1))]}:duration=${XF}:offset=${offset}${out};"
  prev="[x$i]"
done
fc=${fc%;}

"${FF[@]}" "${inputs[@]}" -filter_complex "$fc" -map "[vout]" -an \
  -c:v libx264 -profile:v main -level:v 4.0 -preset veryslow -crf "${CRF:-23}" -tune animation -pix_fmt yuv420p \
  -r "$FPS" -g 300 -movflags +faststart "$OUT/demo-video.mp4"

echo "== demo-poster.webp (first frame of the video)"
"${FF[@]}" -i "$WORK/s1-0.png" \
  -c:v libwebp -quality 75 -compression_level 6 -preset picture "$OUT/demo-poster.webp"

echo "== app-preview-1280.webp / -960.webp / -640.webp (transparent background)"
shot app-preview.html "$WORK/app-preview.png" 1280 800 2 --default-background-color=00000000
for w in 1280 960 640; do
  h=$((w * 10 / 16))
  "${FF[@]}" -i "$WORK/app-preview.png" -vf "scale=${w}:${h}:flags=lanczos,format=yuva420p" \
    -c:v libwebp -quality 75 -compression_level 6 -preset picture "$OUT/app-preview-$w.webp"
done

echo "== og-image.jpg"
shot og-image.html "$WORK/og.png" 1200 630 2
"${FF[@]}" -i "$WORK/og.png" -vf "scale=1200:630:flags=lanczos,format=yuvj420p" \
  -c:v mjpeg -q:v 4 "$OUT/og-image.jpg"

echo "== favicon.svg / apple-touch-icon.png"
cp "$SRC/favicon.svg" "$OUT/favicon.svg"
shot touch-icon.html "$WORK/touch.png" 180 180 1
"${FF[@]}" -i "$WORK/touch.png" -vf "format=rgb24" -compression_level 9 "$OUT/apple-touch-icon.png"

echo "== done"
for f in demo-video.mp4 demo-poster.webp app-preview-1280.webp app-preview-960.webp app-preview-640.webp og-image.jpg favicon.svg apple-touch-icon.png; do
  printf '  %-24s %8s bytes\n' "$f" "$(stat -c %s "$OUT/$f")"
done
