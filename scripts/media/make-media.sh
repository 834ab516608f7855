#!/usr/bin/env bash
# make-media.sh - regenerate the landing page's media in public/ from the HTML
# sources in scripts/media/src/.
#
# This is documentation plus a manual tool: it is NOT part of the build, the
# tests or CI (it refuses to run when CI=true). The outputs are committed.
#
# Needs: chromium (headless screenshots), ffmpeg with libx264 + libwebp
#        (Debian: apt-get install -y chromium ffmpeg). Nothing is fetched from
#        the network: the slides use local CSS/JS and the site's own font,
#        public/inter-subset.woff2.
#
# Usage:  scripts/media/make-media.sh            # writes into public/
#         OUT=/tmp/media scripts/media/make-media.sh
#
# Outputs:
#   demo-video.mp4        ~25.8 s, 1280x720, 30 fps, H.264 main@4.0, yuv420p, no audio, faststart
#   demo-video.cues.json  when each scene's caption shows (the server makes one WebVTT per language)
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
# fictional names of places and stars, alike in the four languages. The video
# draws no sentence (its captions speak the page's language); the OG image's
# line "One payment. For life." is the only one.
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
[[ -s "$ROOT/public/inter-subset.woff2" ]] || { echo "public/inter-subset.woff2 missing (scripts/media/subset-font.sh makes it)" >&2; exit 1; }

FF=("$FFMPEG" -hide_banner -loglevel error -y)

# shot PAGE[#layer] OUT.png WIDTH HEIGHT SCALE [extra chromium flags...]
# Screenshot of a local HTML page with headless chromium, in a throw-away profile.
shot() {
  local page=$1 out=$2 w=$3 h=$4 dsf=$5
  shift 5
  local profile
  profile=$(mktemp -d)
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --allow-file-access-from-files \
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
# A product tour in six scenes, with no sentence drawn in: the app's home screen of categories,
# search, a film's page, the same app on phone, tablet, computer and TV, downloads for offline
# viewing, and the mark. What is said is in the captions (one WebVTT track per language, built by
# the server from locales/*.json, "demo.caption.*"), timed by the cue list this script writes.
# Each scene is a list of "page#state seconds" steps; the states are small UI changes (focus
# moving, typing, download progress) that make the video feel alive while costing almost nothing
# to encode. Scene durations include the crossfades.
XF=0.6                                    # crossfade length (s)
SLIDE1=("slide-1-home.html 1.6" "slide-1-home.html#focus=1 0.7" "slide-1-home.html#focus=2 0.7" "slide-1-home.html#focus=3 1.8")
SLIDE2=("slide-2-search.html#q= 0.8" "slide-2-search.html#q=a 0.12" "slide-2-search.html#q=at 0.12" "slide-2-search.html#q=atl 0.12"
        "slide-2-search.html#q=atla 0.12" "slide-2-search.html#q=atlan 0.12" "slide-2-search.html#q=atlant 0.12"
        "slide-2-search.html#q=atlanti 0.12" "slide-2-search.html#q=atlantis 3.2")
SLIDE3=("slide-3-film.html 2.2" "slide-3-film.html#cast=1 0.9" "slide-3-film.html#cast=2 1.7")
SLIDE4=("slide-4-devices.html 5")
SLIDE5=("slide-5-downloads.html#a=72&b=35 1.2" "slide-5-downloads.html#a=81&b=39 0.6"
        "slide-5-downloads.html#a=90&b=44 0.6" "slide-5-downloads.html#a=done&b=48 2.4")
SLIDE6=("slide-6-end.html 4.5")           # end card: slow push-in by ffmpeg (zoompan)
ZOOM6=0.06                                # push-in of the end card (zoom 1.0 -> 1+Z)
TRANS=(fade fade fade fade fadeblack)     # xfade transitions between the 6 scenes
# The caption of each scene, in order (keys of locales/*.json).
CAPTIONS=(demo.caption.home demo.caption.search demo.caption.film demo.caption.devices demo.caption.offline demo.caption.end)

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
seq_input 3 "${SLIDE3[@]}"
seq_input 4 "${SLIDE4[@]}"
seq_input 5 "${SLIDE5[@]}"
seq_input 6 "${SLIDE6[@]}"

echo "== demo-video.mp4"
FPS=30
sum() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.3f", a+b}'; }
seqdur() { local t=0 s; for s in "$@"; do t=$(sum "$t" "${s##* }"); done; echo "$t"; }
DUR=("$(seqdur "${SLIDE1[@]}")" "$(seqdur "${SLIDE2[@]}")" "$(seqdur "${SLIDE3[@]}")"
     "$(seqdur "${SLIDE4[@]}")" "$(seqdur "${SLIDE5[@]}")" "$(seqdur "${SLIDE6[@]}")")

inputs=()
for n in 1 2 3 4 5; do inputs+=(-f concat -safe 0 -i "$WORK/slide$n.txt"); done
inputs+=(-loop 1 -framerate "$FPS" -t "${DUR[5]}" -i "$WORK/s6-0@2x.png")   # 2x, for zoompan
norm="fps=${FPS},format=yuv420p,setsar=1"
# zoompan on the 2x frame (so its whole-pixel crop steps are half-pixel steps in the output),
# smoothstep-eased: z goes 1 -> 1+Z over the scene.
n6=$(awk -v d="${DUR[5]}" -v f="$FPS" 'BEGIN{printf "%d", d*f}')
u="clip(on/${n6},0,1)"
fc=""
for i in 0 1 2 3 4; do fc+="[$i:v]${norm}[v$i];"; done
fc+="[5:v]zoompan=z='1+${ZOOM6}*${u}*${u}*(3-2*${u})':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d=1:s=1280x720:fps=${FPS},${norm}[v5];"
prev="[v0]" offset=0
# Each scene's caption runs from the middle of the crossfade that brings it in to the middle of
# the one that takes it away (the first from the start, the last to the end).
cue_at=(0)
for i in 1 2 3 4 5; do
  offset=$(awk -v o="$offset" -v d="${DUR[$((i - 1))]}" -v x="$XF" 'BEGIN{printf "%.3f", o+d-x}')
  cue_at+=("$(awk -v o="$offset" -v x="$XF" 'BEGIN{printf "%.3f", o+x/2}')")
  out="[x$i]"; [[ $i == 5 ]] && out="[vout]"
  fc+="${prev}[v$i]xfade=transition=${TRANS[$((i - 1))]}:duration=${XF}:offset=${offset}${out};"
  prev="[x$i]"
done
fc=${fc%;}
cue_at+=("$(sum "$offset" "${DUR[5]}")")

"${FF[@]}" "${inputs[@]}" -filter_complex "$fc" -map "[vout]" -an \
  -c:v libx264 -profile:v main -level:v 4.0 -preset veryslow -crf "${CRF:-23}" -tune animation -pix_fmt yuv420p \
  -r "$FPS" -g 300 -movflags +faststart "$OUT/demo-video.mp4"

echo "== demo-video.cues.json (when each caption shows; the texts are in locales/*.json)"
{
  printf '{\n  "cues": [\n'
  for i in 0 1 2 3 4 5; do
    printf '    { "start": %s, "end": %s, "key": "%s" }' "${cue_at[$i]}" "${cue_at[$((i + 1))]}" "${CAPTIONS[$i]}"
    [[ $i == 5 ]] && printf '\n' || printf ',\n'
  done
  printf '  ]\n}\n'
} >"$OUT/demo-video.cues.json"

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
for f in demo-video.mp4 demo-video.cues.json demo-poster.webp app-preview-1280.webp app-preview-960.webp app-preview-640.webp og-image.jpg favicon.svg apple-touch-icon.png; do
  printf '  %-24s %8s bytes\n' "$f" "$(stat -c %s "$OUT/$f")"
done
