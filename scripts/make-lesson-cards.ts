/**
 * Makes every demo lesson's own clip under media/video/cards/{slug}/ (see shared/media.ts,
 * lessonCardKey, and api/db/demo-lesson-clips.ts):
 *
 *   card.ts       the title card as one HLS segment: LESSON_CARD_SECONDS of the still picture,
 *                 H.264 (main, yuv420p) 640x360 at 25 fps with silent AAC, encoded like the samples
 *   index.m3u8    VOD playlist: the card, a discontinuity, then the sample's own segments
 *                 (../../{sample}/seg-NNN.ts: the samples' segments are shared, never copied)
 *   poster.jpg    the title card
 *   captions.vtt  a cue naming the lesson over the card, then the sample's captions shifted by the card
 *
 * and media/video/cards/manifest.json, what each card shows (checked against the seed by
 * tests/integration/lesson-cards.test.ts). The output is committed, so neither the server nor CI
 * needs ffmpeg (decision 045).
 *
 *   npx tsx scripts/make-lesson-cards.ts             # every lesson (and removes cards no lesson has)
 *   npx tsx scripts/make-lesson-cards.ts 01-03 34-04 # some of them
 *
 * Needs ffmpeg and ffprobe built with libx264, found on PATH.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { demoLessonClips, type DemoLessonClip } from "../api/db/demo-lesson-clips";
import { LESSON_CARD_SECONDS } from "../shared/media";
import { lessonCardSvg } from "./lesson-card";

const run = promisify(execFile);
const FFMPEG = "ffmpeg";
const FFPROBE = "ffprobe";
const root = path.resolve(import.meta.dirname, "..");
const videoDir = path.join(root, "media/video");
const cardsDir = path.join(videoDir, "cards");
/**
 * The card is a still picture: 5 frames a second is plenty, and every frame costs at least one
 * 188-byte transport packet (the samples run at 25; players take the change at the discontinuity).
 */
const FPS = 5;
const BITEXACT = ["-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1"];

export interface CardManifest {
  cardSeconds: number;
  lessons: Record<
    string,
    { key: string; course: string; lesson: number; title: string; character: string; sample: string }
  >;
}

/** The sample's segments as its playlist lists them: [seconds, file name]. */
function sampleSegments(sample: string): Array<[string, string]> {
  const playlist = readFileSync(path.join(videoDir, sample, "index.m3u8"), "utf8");
  return [...playlist.matchAll(/^#EXTINF:([\d.]+),\s*\n(seg-\d{3}\.ts)$/gm)].map((m) => [m[1]!, m[2]!]);
}

/** mm:ss.mmm (or hh:mm:ss.mmm) moved later by `seconds`. */
function shiftTimestamp(stamp: string, seconds: number): string {
  const parts = stamp.split(":").map(Number);
  const total = parts.reduce((acc, p) => acc * 60 + p, 0) + seconds;
  const minutes = Math.floor(total / 60);
  const rest = (total - minutes * 60).toFixed(3).padStart(6, "0");
  return minutes >= 60
    ? `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}:${rest}`
    : `${String(minutes).padStart(2, "0")}:${rest}`;
}

function captions(clip: DemoLessonClip): string {
  const sample = readFileSync(path.join(videoDir, clip.sample, "captions.vtt"), "utf8");
  const body = sample
    .replace(/^WEBVTT[^\n]*\n+/, "")
    .replace(/^((?:\d\d:)?\d\d:\d\d\.\d{3}) --> ((?:\d\d:)?\d\d:\d\d\.\d{3})/gm, (_, from: string, to: string) => {
      return `${shiftTimestamp(from, LESSON_CARD_SECONDS)} --> ${shiftTimestamp(to, LESSON_CARD_SECONDS)}`;
    });
  const card = `00:00.000 --> ${shiftTimestamp("00:00.000", LESSON_CARD_SECONDS)}\n第 ${clip.lessonNumber} 课：${clip.cardTitle}（例字“${clip.character}”）`;
  return `WEBVTT\n\n${card}\n\n${body.trimEnd()}\n`;
}

function playlist(clip: DemoLessonClip): string {
  const segments = sampleSegments(clip.sample);
  const longest = Math.max(LESSON_CARD_SECONDS, ...segments.map(([s]) => Math.ceil(Number(s))));
  return [
    "#EXTM3U",
    "#EXT-X-VERSION:3",
    `#EXT-X-TARGETDURATION:${longest}`,
    "#EXT-X-MEDIA-SEQUENCE:0",
    "#EXT-X-PLAYLIST-TYPE:VOD",
    `#EXTINF:${LESSON_CARD_SECONDS.toFixed(6)},`,
    "card.ts",
    // The sample's timestamps start again at zero and its encoder settings are its own.
    "#EXT-X-DISCONTINUITY",
    ...segments.flatMap(([seconds, file]) => [`#EXTINF:${seconds},`, `../../${clip.sample}/${file}`]),
    "#EXT-X-ENDLIST",
    "",
  ].join("\n");
}

async function makeCard(clip: DemoLessonClip, work: string): Promise<void> {
  const out = path.join(cardsDir, clip.slug);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const picture = sharp(Buffer.from(lessonCardSvg(clip)));
  const png = path.join(work, `${clip.slug}.png`);
  await picture.clone().png().toFile(png);
  await picture.clone().jpeg({ quality: 74, mozjpeg: true }).toFile(path.join(out, "poster.jpg"));
  // The samples' encoder settings (scripts/make-sample-videos.sh), one key frame, silent sound.
  await run(FFMPEG, [
    ...["-nostdin", "-hide_banner", "-loglevel", "error", "-y"],
    ...["-loop", "1", "-framerate", String(FPS), "-i", png],
    ...["-f", "lavfi", "-i", "anullsrc=r=44100:cl=mono"],
    ...["-map", "0:v", "-map", "1:a", "-t", String(LESSON_CARD_SECONDS)],
    ...["-c:v", "libx264", "-profile:v", "main", "-level:v", "3.0", "-preset", "slow", "-tune", "stillimage"],
    ...["-crf", "30", "-maxrate", "300k", "-bufsize", "600k", "-pix_fmt", "yuv420p", "-r", String(FPS)],
    ...["-g", String(FPS * LESSON_CARD_SECONDS), "-keyint_min", String(FPS * LESSON_CARD_SECONDS)],
    ...["-sc_threshold", "0", "-bf", "2", "-threads", "1"],
    ...["-c:a", "aac", "-b:a", "32k", "-ar", "44100", "-ac", "1"],
    ...BITEXACT,
    // Sound frames gathered into larger packets (the default mux delay), the tables sent once:
    // a still card is mostly transport overhead otherwise.
    ...["-muxpreload", "0", "-pat_period", "10", "-sdt_period", "10"],
    ...["-f", "mpegts", path.join(out, "card.ts")],
  ]);
  const probe = await run(FFPROBE, [
    ...["-v", "error", "-select_streams", "v:0", "-count_frames"],
    ...["-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path.join(out, "card.ts")],
  ]);
  const seconds = Number(probe.stdout.split("\n")[0]);
  if (seconds !== FPS * LESSON_CARD_SECONDS)
    throw new Error(`make-lesson-cards: ${clip.slug} has ${seconds} frames, not ${FPS * LESSON_CARD_SECONDS}`);
  writeFileSync(path.join(out, "index.m3u8"), playlist(clip));
  writeFileSync(path.join(out, "captions.vtt"), captions(clip));
}

async function main(wanted: string[]): Promise<void> {
  const clips = demoLessonClips();
  for (const slug of wanted)
    if (!clips.some((c) => c.slug === slug)) throw new Error(`make-lesson-cards: no lesson "${slug}"`);
  const chosen = wanted.length ? clips.filter((c) => wanted.includes(c.slug)) : clips;
  mkdirSync(cardsDir, { recursive: true });
  const work = mkdtempSync(path.join(tmpdir(), "lesson-cards-"));
  try {
    // A few cards at a time: most of a card's time is starting ffmpeg, not encoding.
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < chosen.length) {
        const clip = chosen[next++]!;
        await makeCard(clip, work);
        if (++done % 25 === 0 || done === chosen.length)
          console.log(`make-lesson-cards: ${done}/${chosen.length} (${clip.slug} ${clip.cardTitle})`);
      }
    };
    await Promise.all(Array.from({ length: 3 }, worker));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!wanted.length) {
    const slugs = new Set(clips.map((c) => c.slug));
    for (const entry of readdirSync(cardsDir, { withFileTypes: true }))
      if (entry.isDirectory() && !slugs.has(entry.name)) rmSync(path.join(cardsDir, entry.name), { recursive: true });
  }
  const manifest: CardManifest = {
    cardSeconds: LESSON_CARD_SECONDS,
    lessons: Object.fromEntries(
      clips.map((c) => [
        c.slug,
        {
          key: c.key,
          course: c.courseTitle,
          lesson: c.lessonNumber,
          title: c.cardTitle,
          character: c.character,
          sample: c.sample,
        },
      ]),
    ),
  };
  writeFileSync(path.join(cardsDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const total = execFileSync("du", ["-sb", cardsDir]).toString().split("\t")[0];
  console.log(`make-lesson-cards: ${clips.length} lessons, media/video/cards is ${total} bytes`);
}

await main(process.argv.slice(2));
