/**
 * Lesson video uploads transcoded to HLS in the background with the real ffmpeg: the upload is
 * checked with ffprobe, the worker makes the HLS playlist and segments, the MP4 and the poster,
 * the lesson plays them (a learner allowed to watch is told where), a later upload replaces the
 * files; garbage is refused; staff roles hold; two workers never take the same job (PostgreSQL
 * when TEST_DATABASE_URL is set); shutting down kills ffmpeg and leaves the job to its lease.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import {
  claimVideoJob,
  lessonVideoRoot,
  stopVideoWork,
  VIDEO_MAX_ATTEMPTS,
} from "../../api/modules/catalogue-admin/video";
import { type Account, type Json, staffHarness } from "./staff-harness";

const FFMPEG = "/usr/bin/ffmpeg";
const dataDir = mkdtempSync(path.join(tmpdir(), "mochi-video-"));
const h = staffHarness("136", { FFMPEG_PATH: FFMPEG, DATA_DIR: dataDir, VIDEO_UPLOAD_MAX_MB: "20" });
afterAll(() => execFileSync("rm", ["-rf", dataDir]));

/** A test clip made by ffmpeg: moving picture and a tone, `seconds` long. */
function clip(seconds: number, size = "320x240"): Buffer {
  const file = path.join(dataDir, `clip-${seconds}-${size}.mp4`);
  if (!existsSync(file)) {
    execFileSync(FFMPEG, [
      ...["-hide_banner", "-loglevel", "error", "-y"],
      ...["-f", "lavfi", "-i", `testsrc=size=${size}:rate=25:duration=${seconds}`],
      ...["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", file],
    ]);
  }
  return readFileSync(file);
}

async function lessonOf(op: Account): Promise<{ courseId: number; lessonId: number }> {
  const teacher = await h.db().selectFrom("teachers").select("id").orderBy("id").executeTakeFirstOrThrow();
  const created = await h.call(op, "POST", "/api/admin/courses", {
    title: `视频课 ${Math.random().toString(36).slice(2, 7)}`,
    subtitle: "上传的视频",
    category: "kaishu",
    kind: "recorded",
    level: "beginner",
    teacherId: teacher.id,
    priceCents: 9900,
    originalPriceCents: 19900,
    coverChar: "永",
    summary: "上传视频转码",
  });
  const courseId = created.body.id as number;
  const withChapter = await h.call(op, "POST", `/api/admin/courses/${courseId}/chapters`, { title: "第一章" });
  const chapterId = withChapter.body.chapters[0].id as number;
  const withLesson = await h.call(op, "POST", `/api/admin/chapters/${chapterId}/lessons`, {
    title: "横画",
    summary: "",
    video: { key: "heng" },
    durationSeconds: 30,
    isTrial: true,
  });
  return { courseId, lessonId: withLesson.body.chapters[0].lessons[0].id as number };
}

const upload = (who: Account, lessonId: number, body: Buffer, type = "video/mp4") =>
  h.call(who, "POST", `/api/admin/lessons/${lessonId}/video`, body, { "Content-Type": type });

async function untilSettled(op: Account, lessonId: number, seen: number[] = []): Promise<Json> {
  for (let i = 0; i < 300; i++) {
    const res = await h.call(op, "GET", `/api/admin/lessons/${lessonId}/video`);
    expect(res.status).toBe(200);
    const job = res.body.job;
    if (job.state === "running") seen.push(job.progress);
    if (job.state === "done" || job.state === "failed") return job;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the transcoding did not end");
}

const incomingFiles = () => {
  const dir = path.join(dataDir, "uploads", "incoming");
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe("lesson video upload", () => {
  it("transcodes an upload to HLS, MP4 and a poster; the lesson plays it; a new upload replaces the files", async () => {
    const op = await h.account("operator");
    const { courseId, lessonId } = await lessonOf(op);
    expect((await h.call(op, "GET", `/api/admin/lessons/${lessonId}/video`)).body).toEqual({ job: null });

    const encoder = await h.call(op, "GET", "/api/admin/media/encoder");
    expect(encoder.body.available).toBe(true);

    const first = await upload(op, lessonId, clip(2));
    expect(first.status).toBe(202);
    expect(first.body.job).toMatchObject({ lessonId, message: null, sources: null });
    expect(["queued", "running"]).toContain(first.body.job.state);
    // One open job per lesson: a second upload meanwhile is refused.
    const meanwhile = await upload(op, lessonId, clip(2));
    if (meanwhile.status !== 202) expect(meanwhile.status).toBe(409);

    const job = await untilSettled(op, lessonId);
    expect(job).toMatchObject({ state: "done", progress: 100, message: null });
    const { hls, mp4, poster } = job.sources;
    expect(hls).toMatch(/^\/media\/lessons\/[\w-]+\/index\.m3u8$/);

    const playlist = await fetch(`${h.base()}${hls}`);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    const text = await playlist.text();
    expect(text).toContain("#EXT-X-PLAYLIST-TYPE:VOD");
    expect(text).toContain("#EXT-X-ENDLIST");
    const segment = text.split("\n").find((line) => line.endsWith(".ts"))!;
    const seg = await fetch(`${h.base()}${hls.replace("index.m3u8", segment)}`);
    expect(seg.status).toBe(200);
    expect(seg.headers.get("content-type")).toBe("video/mp2t");
    expect((await seg.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const mp4Res = await fetch(`${h.base()}${mp4}`, { headers: { Range: "bytes=0-99" } });
    expect(mp4Res.status).toBe(206);
    const posterRes = await fetch(`${h.base()}${poster}`);
    expect(posterRes.status).toBe(200);
    expect(posterRes.headers.get("content-type")).toBe("image/jpeg");

    // H.264 + AAC in the segments.
    const folder = hls.split("/")[3];
    const probe = execFileSync("/usr/bin/ffprobe", [
      ...["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0"],
      path.join(lessonVideoRoot(dataDir), folder, "index.mp4"),
    ]).toString();
    expect(probe.split(/\s+/).filter(Boolean).sort()).toEqual(["aac", "h264"]);

    // The lesson points at the new files (2 s long), the editor and the learner see them.
    const course = await h.call(op, "GET", `/api/admin/courses/${courseId}`);
    expect(course.body.chapters[0].lessons[0]).toMatchObject({ videoKey: "upload", videoUrl: hls, durationSeconds: 2 });
    await h.call(op, "POST", `/api/admin/courses/${courseId}/publish`, {});
    const learner = await h.account("learner");
    const lesson = await h.call(learner, "GET", `/api/learning/lessons/${lessonId}`);
    expect(lesson.status).toBe(200);
    expect(lesson.body.sources).toEqual({ hls, mp4, poster });

    // Saving the lesson form as it stands keeps the upload's MP4 and poster.
    await h.call(op, "PATCH", `/api/admin/lessons/${lessonId}`, { video: { url: hls } });
    expect((await h.call(learner, "GET", `/api/learning/lessons/${lessonId}`)).body.sources).toEqual({
      hls,
      mp4,
      poster,
    });

    const audit = await h
      .db()
      .selectFrom("audit_log")
      .select(["action", "actor_id"])
      .where("target_type", "=", "lesson")
      .where("target_id", "=", String(lessonId))
      .where("action", "=", "lesson.video.upload")
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(1);
    expect(audit[0]!.actor_id).toBe(op.id);

    // A new upload: new folder, the previous one removed, nothing left in the incoming folder.
    const again = await upload(op, lessonId, clip(3));
    expect(again.status).toBe(202);
    const second = await untilSettled(op, lessonId);
    expect(second.state).toBe("done");
    expect(second.sources.hls).not.toBe(hls);
    // Removed just after the commit that made the job done.
    await expect.poll(() => existsSync(path.join(lessonVideoRoot(dataDir), folder))).toBe(false);
    expect((await fetch(`${h.base()}${hls}`)).status).toBe(404);
    expect((await h.call(learner, "GET", `/api/learning/lessons/${lessonId}`)).body.sources.hls).toBe(
      second.sources.hls,
    );
    await expect.poll(incomingFiles).toEqual([]);
  }, 90_000);

  it("refuses a file that is not a video (422) and deletes it; refuses a file over the limit (413)", async () => {
    const op = await h.account("operator");
    const { lessonId } = await lessonOf(op);
    const garbage = await upload(op, lessonId, Buffer.from("这不是视频".repeat(500)));
    expect(garbage.status).toBe(422);
    expect(garbage.body.error.code).toBe("not_a_video");
    expect(garbage.body.error.message).toMatch(/不是可以播放的视频/);
    // A still picture is not a video either.
    const png = execFileSync(FFMPEG, [
      ...["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x64:duration=1"],
      ...["-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "pipe:1"],
    ]);
    expect((await upload(op, lessonId, png)).status).toBe(422);
    const tooBig = await upload(op, lessonId, Buffer.alloc(21 * 2 ** 20));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.message).toMatch(/不能超过 20 MB/);
    expect((await upload(op, lessonId, clip(2), "text/plain")).status).toBe(415);
    expect(incomingFiles()).toEqual([]);
    expect((await h.call(op, "GET", `/api/admin/lessons/${lessonId}/video`)).body).toEqual({ job: null });
    expect((await upload(op, 2_000_000_000, clip(2))).status).toBe(404);
    expect((await h.call(op, "GET", "/api/admin/lessons/2000000000/video")).status).toBe(404);
  });

  it("is for operators only", async () => {
    const op = await h.account("operator");
    const { lessonId } = await lessonOf(op);
    for (const who of [await h.account("learner"), await h.account("teacher")]) {
      expect((await upload(who, lessonId, clip(2))).status).toBe(403);
      expect((await h.call(who, "GET", `/api/admin/lessons/${lessonId}/video`)).status).toBe(403);
    }
    expect((await upload(null as unknown as Account, lessonId, clip(2))).status).toBe(401);
    expect(incomingFiles()).toEqual([]);
  });
});

describe("the worker", () => {
  it("kills ffmpeg on shutdown and leaves the job to be taken again when its lease expires", async () => {
    const op = await h.account("operator");
    const { lessonId } = await lessonOf(op);
    // Long enough to be caught running on a busy machine.
    const accepted = await upload(op, lessonId, clip(40, "640x360"));
    expect(accepted.status).toBe(202);
    let row = { state: "queued", progress: 0 } as { state: string; progress: number; lease_owner: string | null };
    for (let i = 0; i < 200 && !(row.state === "running" && row.progress > 0); i++) {
      await new Promise((r) => setTimeout(r, 100));
      row = await h
        .db()
        .selectFrom("video_jobs")
        .select(["state", "progress", "lease_owner"])
        .where("lesson_id", "=", lessonId)
        .executeTakeFirstOrThrow();
    }
    expect(row.state).toBe("running");
    expect(row.progress).toBeGreaterThan(0);
    expect(row.progress).toBeLessThan(100);

    stopVideoWork(h.api());
    const children = () => {
      try {
        return execFileSync("ps", ["--ppid", String(process.pid), "-o", "comm="]).toString();
      } catch {
        return "";
      }
    };
    for (let i = 0; i < 50 && children().includes("ffmpeg"); i++) await new Promise((r) => setTimeout(r, 100));
    expect(children()).not.toContain("ffmpeg");
    const left = await h
      .db()
      .selectFrom("video_jobs")
      .select(["id", "state", "lease_owner", "attempts"])
      .where("lesson_id", "=", lessonId)
      .executeTakeFirstOrThrow();
    expect(left).toMatchObject({ state: "running", attempts: 1 });
    expect(left.lease_owner).not.toBeNull();

    // Within its lease nobody takes it; once expired, another node does.
    expect(await claimVideoJob(h.api(), "other-node")).toBeUndefined();
    await sql`update video_jobs set lease_expires_at = now() - interval '1 second' where id = ${left.id}`.execute(
      h.db(),
    );
    const retaken = await claimVideoJob(h.api(), "other-node");
    expect(retaken).toMatchObject({ id: left.id, attempts: 2 });

    // A job whose lease ran out too often fails with a message instead of running for ever.
    await sql`update video_jobs set attempts = ${VIDEO_MAX_ATTEMPTS}, lease_expires_at = now() - interval '1 second'
               where id = ${left.id}`.execute(h.db());
    expect(await claimVideoJob(h.api(), "third-node")).toBeUndefined();
    const job = (await h.call(op, "GET", `/api/admin/lessons/${lessonId}/video`)).body.job;
    expect(job).toMatchObject({ state: "failed", message: expect.stringMatching(/多次中断/) });
  }, 60_000);

  it("two workers racing for one job: exactly one takes it", async () => {
    const op = await h.account("operator");
    const { lessonId } = await lessonOf(op);
    for (let round = 0; round < 5; round++) {
      const inserted = await h
        .db()
        .insertInto("video_jobs")
        .values({ lesson_id: lessonId, source_path: "/nonexistent", output_dir: `race-${round}`, duration_seconds: 2 })
        .returning("id")
        .executeTakeFirstOrThrow();
      const claims = await Promise.all([
        claimVideoJob(h.api(), "node-a"),
        claimVideoJob(h.api(), "node-b"),
        claimVideoJob(h.api(), "node-c"),
      ]);
      const won = claims.filter(Boolean);
      expect(won).toHaveLength(1);
      expect(won[0]!.id).toBe(inserted.id);
      await h.db().updateTable("video_jobs").set({ state: "failed" }).where("id", "=", inserted.id).execute();
    }
  });
});
