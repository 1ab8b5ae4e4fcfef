/**
 * Lesson video uploads transcoded to HLS in the background with the real ffmpeg: the upload is
 * judged by its bytes and checked with ffprobe, the worker makes the MP4, the HLS playlist and
 * segments and the poster, the lesson plays them (a learner allowed to watch is told where), a
 * later upload replaces the files; garbage and every disguise of a playlist or list are refused
 * before a job exists; staff roles hold; two workers never take the same job (PostgreSQL when
 * TEST_DATABASE_URL is set); shutting down kills ffmpeg and leaves the job to its lease; a job
 * past its length, size or time fails with the reason and leaves no files.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { findEncoder } from "../../api/modules/catalogue-admin/encoder";
import { VIDEO_LIMITS, type VideoLimits } from "../../api/modules/catalogue-admin/ffmpeg";
import {
  claimVideoJob,
  lessonVideoRoot,
  stopVideoWork,
  transcodeVideoJob,
  VIDEO_MAX_ATTEMPTS,
  videoWorkRoot,
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

/** A file made by ffmpeg from `args` (inputs and encoding), kept for the run. */
function made(name: string, args: string[]): Buffer {
  const file = path.join(dataDir, name);
  if (!existsSync(file)) execFileSync(FFMPEG, ["-hide_banner", "-loglevel", "error", "-y", ...args, file]);
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

/** Sends the file as the editor does; `type` null sends no Content-Type at all. */
const upload = (who: Account, lessonId: number, body: Buffer, type: string | null = "video/mp4") =>
  h.call(who, "POST", `/api/admin/lessons/${lessonId}/video`, body, type === null ? {} : { "Content-Type": type });

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

    // A new upload, sent without a type (the bytes decide): new folder, the previous one removed,
    // nothing left in the incoming folder.
    const again = await upload(op, lessonId, clip(3), null);
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

  it("refuses a container without moving pictures or too long (422) and deletes it; a file over the limit (413)", async () => {
    const op = await h.account("operator");
    const { lessonId } = await lessonOf(op);
    // An MP4 of sound only: a real container, but nothing to watch.
    const sound = made("sound.m4a", ["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", "-f", "mp4"]);
    const noPictures = await upload(op, lessonId, sound);
    expect(noPictures.status).toBe(422);
    expect(noPictures.body.error.code).toBe("not_a_video");
    expect(noPictures.body.error.message).toMatch(/不是可以播放的视频/);
    // Two frames 11 000 s apart: longer than a lesson video may be.
    const long = made("long.mp4", [
      ...["-f", "lavfi", "-i", "color=c=white:s=32x32:r=1:d=2", "-vf", "setpts=N*11000/TB", "-fps_mode", "passthrough"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
    ]);
    const tooLong = await upload(op, lessonId, long);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.error).toMatchObject({ code: "video_too_long", message: expect.stringMatching(/最长 3 小时/) });
    const tooBig = await upload(op, lessonId, Buffer.alloc(21 * 2 ** 20));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.message).toMatch(/不能超过 20 MB/);
    // Declared as text, it is no upload, whatever the bytes.
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

describe("an upload is judged by its bytes", () => {
  /** Each sent as an MP4 (video/mp4): what the bytes are decides. */
  const disguises = (onDisk: string): [string, Buffer][] => {
    const jpeg = execFileSync(FFMPEG, [
      ...["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x64:duration=1"],
      ...["-frames:v", "1", "-f", "image2pipe", "-c:v", "mjpeg", "pipe:1"],
    ]);
    const mp4 = clip(2);
    return [
      // Until now accepted: ffmpeg followed the playlist and published the file it named.
      [
        "an HLS playlist naming a file on the disk",
        Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:2,\n${onDisk}\n#EXT-X-ENDLIST\n`),
      ],
      ["an ffconcat file", Buffer.from(`ffconcat version 1.0\nfile '${onDisk}'\nduration 2\n`)],
      ["a concat list", Buffer.from(`file '${onDisk}'\nfile '${onDisk}'\n`)],
      [
        "an SDP file",
        Buffer.from(
          "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=lesson\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=video 5004 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n",
        ),
      ],
      ["a text file", Buffer.from("这不是视频".repeat(500))],
      ["an HTML page", Buffer.from("<!doctype html><title>课</title><script>alert(document.cookie)</script>")],
      ["a JPEG", jpeg],
      ["a cut-short header", mp4.subarray(0, 11)],
      ["a cut-short ftyp box", mp4.subarray(0, 20)],
    ];
  };

  it("refuses a playlist, a list, an SDP file, text, HTML, a picture or a cut-short header sent as an MP4 (415), before any job", async () => {
    const op = await h.account("operator");
    const { lessonId } = await lessonOf(op);
    const onDisk = path.join(dataDir, "clip-2-320x240.mp4");
    const published = () => (existsSync(lessonVideoRoot(dataDir)) ? readdirSync(lessonVideoRoot(dataDir)).length : 0);
    const before = published();
    for (const [what, bytes] of disguises(onDisk)) {
      for (const type of ["video/mp4", "application/octet-stream"]) {
        const res = await upload(op, lessonId, bytes, type);
        expect(res.status, `${what} as ${type}`).toBe(415);
        expect(res.body.error.message, what).toMatch(/只能上传 MP4、MOV、WebM、MKV、AVI 或 MPEG/);
      }
    }
    const empty = await upload(op, lessonId, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe("请选择一个视频文件");
    expect((await h.call(op, "GET", `/api/admin/lessons/${lessonId}/video`)).body).toEqual({ job: null });
    expect(await h.db().selectFrom("video_jobs").select("id").where("lesson_id", "=", lessonId).execute()).toEqual([]);
    expect(incomingFiles()).toEqual([]);
    await new Promise((r) => setTimeout(r, 300));
    expect(published()).toBe(before);
  });

  it("reads a playlist that opens like a MOV with the MOV reader only: not a video (422), nothing followed", async () => {
    const op = await h.account("operator");
    const { lessonId } = await lessonOf(op);
    const playlist = `#EXTM3U\n#EXTINF:2,\n${path.join(dataDir, "clip-2-320x240.mp4")}\n#EXT-X-ENDLIST\n`;
    const boxed = Buffer.concat([Buffer.from([0, 0, 0, 8]), Buffer.from(`free${playlist}`)]);
    const res = await upload(op, lessonId, boxed);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("not_a_video");
    expect((await h.call(op, "GET", `/api/admin/lessons/${lessonId}/video`)).body).toEqual({ job: null });
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

    // ffmpeg runs in the job's own folder, leads its own process group, every thread at the lowest priority.
    const ffmpegPid = execFileSync("ps", ["--ppid", String(process.pid), "-o", "pid=,comm="])
      .toString()
      .split("\n")
      .find((line) => line.includes("ffmpeg"))
      ?.trim()
      .split(/\s+/)[0];
    expect(ffmpegPid).toBeDefined();
    expect(path.dirname(readlinkSync(`/proc/${ffmpegPid}/cwd`))).toBe(videoWorkRoot(dataDir));
    expect(execFileSync("ps", ["-o", "pgid=", "-p", ffmpegPid!]).toString().trim()).toBe(ffmpegPid);
    const niceness = execFileSync("ps", ["-L", "-o", "ni=", "-p", ffmpegPid!]).toString().split(/\s+/).filter(Boolean);
    expect(niceness.length).toBeGreaterThan(1);
    expect(new Set(niceness)).toEqual(new Set(["19"]));

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

describe("a job past its limits", () => {
  const encoder = findEncoder({ ffmpegPath: FFMPEG, searchPath: "", uploadMaxBytes: 0 })!;

  /** A queued job for a copy of `file` in the incoming folder, taken by this test's own node. */
  async function claimed(file: Buffer, durationSeconds: number) {
    const op = await h.account("operator");
    const { lessonId } = await lessonOf(op);
    const incoming = path.join(dataDir, "uploads", "incoming");
    mkdirSync(incoming, { recursive: true });
    const source = path.join(incoming, `limits-${lessonId}.upload`);
    writeFileSync(source, file);
    await h
      .db()
      .insertInto("video_jobs")
      .values({
        lesson_id: lessonId,
        source_path: source,
        output_dir: `${lessonId}-limits`,
        duration_seconds: durationSeconds,
      })
      .execute();
    const job = await claimVideoJob(h.api(), "limits-node");
    expect(job).toMatchObject({ lesson_id: lessonId, source_path: source });
    return { op, lessonId, job: job!, source };
  }

  async function transcoded(file: Buffer, durationSeconds: number, limits: Partial<VideoLimits>) {
    const { op, lessonId, job, source } = await claimed(file, durationSeconds);
    const outcome = await transcodeVideoJob(h.api(), encoder, job, "limits-node", new AbortController().signal, {
      ...VIDEO_LIMITS,
      ...limits,
    });
    const latest = (await h.call(op, "GET", `/api/admin/lessons/${lessonId}/video`)).body.job;
    // Nothing of it is left: neither the upload, nor the working folder, nor a published one.
    expect(existsSync(source)).toBe(false);
    expect(existsSync(path.join(videoWorkRoot(dataDir), job.output_dir))).toBe(false);
    expect(existsSync(path.join(lessonVideoRoot(dataDir), job.output_dir))).toBe(false);
    return { outcome, latest };
  }

  it("is killed past its time and fails with the reason", async () => {
    const started = Date.now();
    const { outcome, latest } = await transcoded(clip(40, "640x360"), 40, {
      baseRunMs: 1500,
      runMsPerVideoSecond: 0,
      killGraceMs: 500,
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(outcome).toBe("failed");
    expect(latest).toMatchObject({ state: "failed", sources: null });
    expect(latest.message).toMatch(/视频转码超过了允许的时间（1.5 秒），已停止/);
    const children = () => {
      try {
        return execFileSync("ps", ["--ppid", String(process.pid), "-o", "comm="]).toString();
      } catch {
        return "";
      }
    };
    expect(children()).not.toContain("ffmpeg");
  }, 60_000);

  it("fails a video longer than the limit, even one whose header claims less, instead of cutting it short", async () => {
    const told = await transcoded(clip(3), 3, { maxSeconds: 1 });
    expect(told.outcome).toBe("failed");
    expect(told.latest.message).toMatch(/视频太长：课时视频最长 1 秒/);
    // Probed at 0.5 s, it runs on: ffmpeg stops at the limit, and the job fails.
    const lied = await transcoded(clip(3), 0.5, { maxSeconds: 1 });
    expect(lied.outcome).toBe("failed");
    expect(lied.latest.message).toMatch(/视频太长/);
  });

  it("fails when the MP4 would be larger than the limit", async () => {
    const { outcome, latest } = await transcoded(clip(3), 3, { maxOutputBytes: 30 * 1024 });
    expect(outcome).toBe("failed");
    expect(latest.message).toMatch(/转码后的视频超过 30 KB，已停止/);
  });

  it("fails a queued file that is no video container (queued before the check): the playlist is never read", async () => {
    const playlist = `#EXTM3U\n#EXTINF:2,\n${path.join(dataDir, "clip-2-320x240.mp4")}\n#EXT-X-ENDLIST\n`;
    const { outcome, latest } = await transcoded(Buffer.from(playlist), 2, {});
    expect(outcome).toBe("failed");
    expect(latest.message).toMatch(/只能上传 MP4/);
  });

  it("within its limits, the same job is done and published", async () => {
    const { op, lessonId, job } = await claimed(clip(2), 2);
    const outcome = await transcodeVideoJob(h.api(), encoder, job, "limits-node", new AbortController().signal);
    expect(outcome).toBe("done");
    const latest = (await h.call(op, "GET", `/api/admin/lessons/${lessonId}/video`)).body.job;
    expect(latest).toMatchObject({ state: "done", message: null });
    expect(readdirSync(path.join(lessonVideoRoot(dataDir), job.output_dir)).sort()).toEqual(
      expect.arrayContaining(["index.m3u8", "index.mp4", "poster.jpg", "seg-000.ts"]),
    );
    expect(existsSync(path.join(videoWorkRoot(dataDir), job.output_dir))).toBe(false);
  });
});
