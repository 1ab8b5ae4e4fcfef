#!/usr/bin/env bash
# Generates the sample lesson videos of shared/media.ts under media/video/{key}/:
#
#   index.mp4    H.264 (main, yuv420p) 640x360 at 25 fps + AAC, exactly 30 s, faststart
#   index.m3u8   the same as HLS (VOD): seg-000.ts … seg-009.ts, 3 s each (a key frame every 3 s)
#   poster.jpg   640x360, a frame with the character fully written
#
# Each video: rice paper, a red 米字格, the character written in gradually, the title below and
# a running clock in the corner; the sound is a soft pentatonic chime at the start of every segment.
# Everything is drawn by ffmpeg from expressions and an SVG made here: no network, no inputs, and
# bit-exact flags so a rerun gives the same files.
#
#   scripts/make-sample-videos.sh            # all videos
#   scripts/make-sample-videos.sh yong heng  # some of them
#
# Needs ffmpeg built with libx264, libfreetype, libfontconfig and librsvg (Debian's has them all)
# and the Noto CJK fonts (fonts-noto-cjk). FFMPEG=/path/to/ffmpeg overrides the binary.
set -euo pipefail

FFMPEG="${FFMPEG:-ffmpeg}"
FFPROBE="${FFPROBE:-ffprobe}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT_ROOT="${OUT_ROOT:-$ROOT/media/video}"

DURATION=30
FPS=25
SEGMENT=3 # seconds; the GOP is exactly one segment, so HLS cuts fall on key frames
WIDTH=640
HEIGHT=360

# key|character|title — keep in step with shared/media.ts
VIDEOS=(
  "yong|永|永字八法"
  "heng|一|横画的起行收"
  "shan|山|山字的结构"
)

for tool in "$FFMPEG" "$FFPROBE" fc-match; do
  command -v "$tool" >/dev/null || {
    echo "make-sample-videos: $tool not found" >&2
    exit 1
  }
done

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# Fonts by family through fontconfig, so the Simplified Chinese face of the Noto CJK collections is
# the one drawn. "Mochi Serif Bold" names the bold weight (drawtext takes a family name only).
cat >"$WORK/fonts.conf" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <match target="pattern">
    <test name="family"><string>Mochi Serif Bold</string></test>
    <edit name="family" mode="assign" binding="strong"><string>Noto Serif CJK SC</string></edit>
    <edit name="weight" mode="assign" binding="strong"><const>bold</const></edit>
  </match>
</fontconfig>
XML
export FONTCONFIG_FILE="$WORK/fonts.conf"
SERIF="Mochi Serif Bold"
SANS="Noto Sans CJK SC"
MONO="DejaVu Sans Mono"
for family in "$SERIF" "$SANS" "$MONO"; do
  [[ "$(fc-match -f '%{family}' "$family")" == *"${family/Mochi Serif Bold/Noto Serif CJK SC}"* ]] || {
    echo "make-sample-videos: font \"$family\" not found (apt-get install fonts-noto-cjk fonts-dejavu-core)" >&2
    exit 1
  }
done

# The 米字格: a square frame, dashed centre lines and diagonals (250x250, transparent).
GRID_SVG="$WORK/grid.svg"
cat >"$GRID_SVG" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" width="250" height="250" viewBox="0 0 250 250">
  <rect x="3" y="3" width="244" height="244" fill="none" stroke="#b8322a" stroke-width="4"/>
  <rect x="9" y="9" width="232" height="232" fill="none" stroke="#b8322a" stroke-width="1" opacity="0.6"/>
  <g stroke="#b8322a" stroke-width="1.6" stroke-dasharray="8 6" opacity="0.6">
    <line x1="125" y1="9" x2="125" y2="241"/>
    <line x1="9" y1="125" x2="241" y2="125"/>
    <line x1="9" y1="9" x2="241" y2="241"/>
    <line x1="241" y1="9" x2="9" y2="241"/>
  </g>
</svg>
SVG

# A soft chime on every segment boundary, stepping through a pentatonic scale (C D E G A),
# with a quiet drone under it. Mono, very low level.
AUDIO_EXPR="st(0,mod(floor(t/${SEGMENT}),5));\
st(1,if(eq(ld(0),0),0,if(eq(ld(0),1),2,if(eq(ld(0),2),4,if(eq(ld(0),3),7,9)))));\
st(2,523.25*pow(2,ld(1)/12));\
st(3,mod(t,${SEGMENT}));\
0.09*(1-exp(-ld(3)*60))*exp(-ld(3)*1.6)*(sin(2*PI*ld(2)*t)+0.3*sin(4*PI*ld(2)*t))\
+0.012*sin(2*PI*130.81*t)*(0.8+0.2*sin(2*PI*0.25*t))"

# filter_graph CHAR TITLE MODE → a filtergraph script on stdout: MODE "video" has outputs [v]
# (with the running clock) and [a]; MODE "poster" only [v], without the clock.
filter_graph() {
  local char="$1" title="$2" mode="$3"
  # The grid square: 250x250, centred horizontally, 26 px from the top; its centre is (320, 151).
  # The character fades in from 1 s to 8 s, then stays.
  cat <<EOF
color=c=0xf4e9d1:s=${WIDTH}x${HEIGHT}:r=${FPS}:d=${DURATION},format=yuv420p,
vignette=angle=PI/9:mode=forward:eval=init:dither=0[paper];
movie='${GRID_SVG}',format=rgba,loop=loop=-1:size=1:start=0[grid];
[paper][grid]overlay=x=(W-w)/2:y=26:eof_action=repeat:format=auto,
drawtext=font='${SERIF}':text='${char}':fontsize=200:fontcolor=0x1b1410:
x=(w-text_w)/2:y=151-text_h/2:alpha='if(lt(t,1),0,if(lt(t,8),(t-1)/7,1))',
drawbox=x=0:y=296:w=iw:h=64:color=0x5a3a1a@0.08:t=fill,
drawtext=font='${SERIF}':text='${title}':fontsize=28:fontcolor=0x2e2216:x=(w-text_w)/2:y=312,
drawtext=font='${SANS}':text='墨池课堂 · 示范课':fontsize=16:fontcolor=0x6e5232:x=18:y=14
EOF
  if [[ "$mode" == video ]]; then
    # mm:ss of the running time (eif truncates), then the total.
    cat <<EOF
,drawtext=font='${MONO}':fontsize=18:fontcolor=0x6e5232:x=w-18-text_w:y=16:
text='%{eif\\:t/60\\:d\\:2}\\:%{eif\\:mod(t\\,60)\\:d\\:2} / 00\\:$(printf '%02d' "$DURATION")'
EOF
  fi
  echo "[v]"
  if [[ "$mode" == video ]]; then
    echo ";aevalsrc=exprs='${AUDIO_EXPR}':s=44100:c=mono:d=${DURATION}[a]"
  fi
}

BITEXACT=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1)

make_video() {
  local key="$1" char="$2" title="$3"
  local out="$OUT_ROOT/$key"
  echo "make-sample-videos: $key ($title)"
  rm -rf "$out"
  mkdir -p "$out"

  filter_graph "$char" "$title" video >"$WORK/$key.graph"
  "$FFMPEG" -nostdin -hide_banner -loglevel error -y \
    -filter_complex_script "$WORK/$key.graph" -map '[v]' -map '[a]' \
    -c:v libx264 -profile:v main -level:v 3.0 -preset slow -tune stillimage -crf 30 \
    -maxrate 300k -bufsize 600k -pix_fmt yuv420p -r "$FPS" \
    -g $((FPS * SEGMENT)) -keyint_min $((FPS * SEGMENT)) -sc_threshold 0 -bf 2 -threads 1 \
    -c:a aac -b:a 32k -ar 44100 -ac 1 \
    -t "$DURATION" -movflags +faststart "${BITEXACT[@]}" \
    "$out/index.mp4"

  # HLS from the same encode: stream copy, cut on the key frames every SEGMENT seconds.
  "$FFMPEG" -nostdin -hide_banner -loglevel error -y -i "$out/index.mp4" \
    -map 0 -c copy "${BITEXACT[@]}" -muxdelay 0 \
    -f hls -hls_time "$SEGMENT" -hls_list_size 0 -hls_playlist_type vod \
    -hls_segment_type mpegts -hls_segment_filename "$out/seg-%03d.ts" \
    "$out/index.m3u8"

  # Poster: the finished character, without the clock.
  filter_graph "$char" "$title" poster >"$WORK/$key.poster.graph"
  "$FFMPEG" -nostdin -hide_banner -loglevel error -y \
    -filter_complex_script "$WORK/$key.poster.graph" -map '[v]' \
    -ss 12 -frames:v 1 -q:v 3 "${BITEXACT[@]}" "$out/poster.jpg"
}

check_video() {
  local key="$1" out="$OUT_ROOT/$1"
  local duration segments
  duration="$("$FFPROBE" -v error -show_entries format=duration -of csv=p=0 "$out/index.mp4")"
  segments="$(grep -c '^seg-[0-9][0-9][0-9]\.ts$' "$out/index.m3u8")"
  printf 'make-sample-videos: %s duration %s s, %s segments, mp4 %s bytes, folder %s bytes\n' \
    "$key" "$duration" "$segments" "$(stat -c %s "$out/index.mp4")" "$(du -sb "$out" | cut -f1)"
  awk -v d="$duration" -v want="$DURATION" 'BEGIN { exit !(d >= want - 0.01 && d <= want + 0.01) }' || {
    echo "make-sample-videos: $key lasts $duration s, not $DURATION" >&2
    exit 1
  }
  [[ "$segments" == $((DURATION / SEGMENT)) ]] || {
    echo "make-sample-videos: $key has $segments segments, not $((DURATION / SEGMENT))" >&2
    exit 1
  }
  grep -q '^#EXT-X-PLAYLIST-TYPE:VOD$' "$out/index.m3u8" && grep -q '^#EXT-X-ENDLIST$' "$out/index.m3u8" || {
    echo "make-sample-videos: $key/index.m3u8 is not a finished VOD playlist" >&2
    exit 1
  }
}

wanted=("$@")
for key in "${wanted[@]}"; do
  printf '%s\n' "${VIDEOS[@]}" | grep -q "^$key|" || {
    echo "make-sample-videos: unknown video \"$key\"" >&2
    exit 1
  }
done
for entry in "${VIDEOS[@]}"; do
  IFS='|' read -r key char title <<<"$entry"
  if ((${#wanted[@]} > 0)) && [[ ! " ${wanted[*]} " == *" $key "* ]]; then continue; fi
  make_video "$key" "$char" "$title"
  check_video "$key"
done
