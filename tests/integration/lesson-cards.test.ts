/**
 * Every demo lesson plays its own clip (scripts/make-lesson-cards.ts): a title card showing the
 * lesson's topic and model character, then a sample. The seeded lessons point at their clips; each
 * clip's files are committed and valid (playlist, poster, captions); the manifest says each card
 * shows its own lesson; and staff keep a lesson's clip but cannot hand it to another lesson.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { demoLessonClips } from "../../api/db/demo-lesson-clips";
import {
  LESSON_CARD_SECONDS,
  parseLessonCardKey,
  sampleVideos,
  shippedVideoSeconds,
  videoSources,
} from "../../shared/media";
import { staffHarness } from "./staff-harness";

const h = staffHarness("136");
const mediaRoot = path.resolve(".");
const fileOf = (url: string) => path.join(mediaRoot, decodeURIComponent(url));
const manifest = JSON.parse(readFileSync("media/video/cards/manifest.json", "utf8")) as {
  cardSeconds: number;
  lessons: Record<string, { key: string; course: string; lesson: number; title: string; character: string }>;
};

/** Cue start and end times in seconds, and the cue texts, of a WebVTT file. */
function cues(vtt: string): Array<{ from: number; to: number; text: string }> {
  expect(vtt.startsWith("WEBVTT\n\n")).toBe(true);
  const seconds = (stamp: string) => stamp.split(":").reduce((acc, p) => acc * 60 + Number(p), 0);
  return vtt
    .slice("WEBVTT\n\n".length)
    .trim()
    .split(/\n\n+/)
    .map((block) => {
      const [timing, ...text] = block.split("\n");
      const m = /^((?:\d\d:)?\d\d:\d\d\.\d{3}) --> ((?:\d\d:)?\d\d:\d\d\.\d{3})$/.exec(timing!);
      expect(m, `cue timing "${timing}"`).not.toBeNull();
      return { from: seconds(m![1]!), to: seconds(m![2]!), text: text.join("\n") };
    });
}

describe("the seeded lessons", () => {
  it("each plays its own clip, whose card shows that lesson's title and model character", async () => {
    const rows = await h
      .db()
      .selectFrom("lessons as l")
      .innerJoin("courses as c", "c.id", "l.course_id")
      .innerJoin("chapters as ch", "ch.id", "l.chapter_id")
      .select(["l.title", "l.video_key", "l.video_url", "l.duration_seconds", "c.title as course"])
      .orderBy("c.id")
      .orderBy("ch.position")
      .orderBy("l.position")
      .execute();
    expect(rows.length).toBe(demoLessonClips().length);
    expect(Object.keys(manifest.lessons)).toHaveLength(rows.length);
    expect(manifest.cardSeconds).toBe(LESSON_CARD_SECONDS);
    const keys = new Set<string>();
    for (const row of rows) {
      const card = parseLessonCardKey(row.video_key);
      expect(card, `${row.course} ${row.title}`).not.toBeNull();
      expect(row.video_url).toBeNull();
      keys.add(row.video_key);
      const shown = manifest.lessons[card!.slug]!;
      expect(shown.key).toBe(row.video_key);
      expect(shown.course).toBe(row.course);
      // The card's topic is the lesson's title without its example note, and its character the example.
      expect(row.title.startsWith(shown.title)).toBe(true);
      const example = /（例字“(.)”）$/u.exec(row.title)?.[1];
      if (example) expect(shown.character).toBe(example);
      expect(row.duration_seconds).toBe(LESSON_CARD_SECONDS + sampleVideos[card!.sample].durationSeconds);
    }
    // No two lessons share a clip.
    expect(keys.size).toBe(rows.length);
  });

  it("lesson 3 of the first course is no longer a video titled 山字的结构", () => {
    const third = demoLessonClips().find((c) => c.slug === "01-03")!;
    expect(manifest.lessons["01-03"]).toMatchObject({ title: third.cardTitle, character: third.character });
    expect(third.lessonTitle).toContain(third.cardTitle);
  });
});

describe("the clips on disk", () => {
  const clips = demoLessonClips();

  it("every clip has its playlist, card segment, poster and captions", async () => {
    let bytes = 0;
    for (const clip of clips) {
      const sources = videoSources(clip.key);
      for (const url of [sources.hls, sources.mp4, sources.poster, sources.captions!])
        expect(existsSync(fileOf(url)), url).toBe(true);

      // The playlist: the card, a discontinuity, then the sample's own segments, all on disk.
      const playlistFile = fileOf(sources.hls);
      const playlist = readFileSync(playlistFile, "utf8");
      expect(playlist.startsWith("#EXTM3U\n")).toBe(true);
      expect(playlist).toContain("#EXT-X-PLAYLIST-TYPE:VOD");
      expect(playlist.trim().endsWith("#EXT-X-ENDLIST")).toBe(true);
      const entries = [...playlist.matchAll(/^#EXTINF:([\d.]+),\n(\S+)$/gm)].map((m) => ({
        seconds: Number(m[1]),
        uri: m[2]!,
      }));
      expect(entries[0]).toEqual({ seconds: LESSON_CARD_SECONDS, uri: "card.ts" });
      expect(playlist.indexOf("#EXT-X-DISCONTINUITY")).toBeGreaterThan(playlist.indexOf("card.ts"));
      const target = Number(/^#EXT-X-TARGETDURATION:(\d+)$/m.exec(playlist)![1]);
      for (const entry of entries) {
        expect(entry.seconds).toBeLessThanOrEqual(target);
        const segment = path.resolve(path.dirname(playlistFile), entry.uri);
        expect(segment.startsWith(path.join(mediaRoot, "media/video/")), entry.uri).toBe(true);
        expect(existsSync(segment), `${clip.slug}: ${entry.uri}`).toBe(true);
      }
      expect(entries.slice(1).every((e) => e.uri.startsWith(`../../${clip.sample}/seg-`))).toBe(true);
      const total = entries.reduce((sum, e) => sum + e.seconds, 0);
      expect(total).toBeCloseTo(shippedVideoSeconds(clip.key)!, 1);

      // The card: an MPEG-TS segment (sync byte every 188 bytes), small.
      const card = readFileSync(path.join(path.dirname(playlistFile), "card.ts"));
      expect(card.length % 188).toBe(0);
      expect(card[0]).toBe(0x47);
      expect(card[188]).toBe(0x47);
      expect(card.length).toBeLessThanOrEqual(40 * 1024);

      // The captions: a cue naming the lesson over the card, then the sample's, shifted by the card.
      const own = cues(readFileSync(fileOf(sources.captions!), "utf8"));
      const sample = cues(readFileSync(`media/video/${clip.sample}/captions.vtt`, "utf8"));
      expect(own[0]).toEqual({
        from: 0,
        to: LESSON_CARD_SECONDS,
        text: `第 ${clip.lessonNumber} 课：${clip.cardTitle}（例字“${clip.character}”）`,
      });
      expect(own.slice(1)).toEqual(
        sample.map((c) => ({ ...c, from: c.from + LESSON_CARD_SECONDS, to: c.to + LESSON_CARD_SECONDS })),
      );
      expect(own.at(-1)!.to).toBeCloseTo(total, 1);

      bytes += card.length + statSync(fileOf(sources.poster)).size;
    }
    // The cards and posters of every lesson together stay small enough to commit.
    expect(bytes).toBeLessThanOrEqual(12 * 1024 * 1024);
  });

  it("every poster is the card picture: a 640x360 JPEG", async () => {
    for (const clip of clips) {
      const poster = readFileSync(fileOf(videoSources(clip.key).poster));
      expect(poster.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      const meta = await sharp(poster).metadata();
      expect([meta.format, meta.width, meta.height], clip.slug).toEqual(["jpeg", 640, 360]);
    }
  });
});

describe("staff and a lesson's own clip", () => {
  async function seededLessons() {
    return h.db().selectFrom("lessons").select(["id", "video_key"]).orderBy("id").limit(2).execute();
  }

  it("keeping the lesson's own clip is accepted", async () => {
    const op = await h.account("operator");
    const [lesson] = await seededLessons();
    const res = await h.call(op, "PATCH", `/api/admin/lessons/${lesson!.id}`, { video: { key: lesson!.video_key } });
    expect(res.status).toBe(200);
    const after = await h
      .db()
      .selectFrom("lessons")
      .select("video_key")
      .where("id", "=", lesson!.id)
      .executeTakeFirst();
    expect(after!.video_key).toBe(lesson!.video_key);
  });

  it("another lesson's clip, or a made-up one, is refused", async () => {
    const op = await h.account("operator");
    const [first, second] = await seededLessons();
    for (const key of [second!.video_key, "card-heng-99-99", "card-none-01-01"]) {
      const res = await h.call(op, "PATCH", `/api/admin/lessons/${first!.id}`, { video: { key } });
      expect(res.status, key).toBe(400);
      expect(res.body.error.message).toBe("请选择示例视频");
    }
    const after = await h.db().selectFrom("lessons").select("video_key").where("id", "=", first!.id).executeTakeFirst();
    expect(after!.video_key).toBe(first!.video_key);
  });
});
