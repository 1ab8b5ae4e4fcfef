/**
 * Homework over HTTP (issue "Homework"): uploads and their refusals (disguised files, HEIC, pixel
 * floods, too large, EXIF stripped), hand-ins (idempotent, at most three, a new one only after a
 * return), who may read a submission or a photo, claims, reviews and returns with coins and
 * notices, the wall, share pages (410 once withdrawn or hidden) and the JPEG poster. The claim and
 * coin races run on whichever database the suite runs on: on PostgreSQL they are real races.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "kysely";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { commerceHarness, idem, type Learner } from "../../../tests/integration/commerce";
import {
  HOMEWORK_BROKEN_HEIC,
  HOMEWORK_PHOTO_MAX_BYTES,
  HOMEWORK_UNSUPPORTED_TYPE,
} from "../../../shared/contracts/homework";
import { createSession, sessionCookieName } from "../auth/sessions";
import { fingerprintOf } from "../../idempotency";
import { runJobTick } from "../../jobs/registry";
import { newPhotoId } from "./photos";
import { seedHomework } from "./seed";
import { homeworkUploadJob, pruneUnsubmittedPhotos } from "./upload-job";

const { api, db, base, learner, call, later } = commerceHarness("135");

/** A 480 × 640 practice sheet as an iPhone keeps it: HEIC with HEVC inside (tests/fixtures/homework). */
const SHEET_HEIC = readFileSync(new URL("../../../tests/fixtures/homework/sheet.heic", import.meta.url));

let courseId: number;
let otherCourseId: number;
let taskId: number;
let otherTaskId: number;
let teacher: Learner;
let otherTeacher: Learner;
let operator: Learner;
let teacherSeq = 0;

async function staff(role: "teacher" | "operator", course?: number): Promise<Learner> {
  const user = await db()
    .insertInto("users")
    .values({ phone: `1330000${String(1000 + ++teacherSeq)}`, nickname: `老师${teacherSeq}`, role })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (course) await db().insertInto("course_teachers").values({ course_id: course, user_id: user.id }).execute();
  const token = await createSession(api().database, user.id, { userAgent: "vitest", ip: "127.0.0.1" });
  return { id: user.id, cookie: `${sessionCookieName(api().settings.cookies)}=${token}` };
}

async function enrolled(course = courseId): Promise<Learner> {
  const who = await learner();
  await db().insertInto("enrolments").values({ user_id: who.id, course_id: course, source: "admin" }).execute();
  return who;
}

async function task(course: number, lessonOffset: number): Promise<number> {
  const lesson = await db()
    .selectFrom("lessons")
    .select("id")
    .where("course_id", "=", course)
    .orderBy("position")
    .offset(lessonOffset)
    .limit(1)
    .executeTakeFirstOrThrow();
  const row = await db()
    .insertInto("homework_tasks")
    .values({ course_id: course, lesson_id: lesson.id, title: "临写", characters: "永和", script: "kai" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Sends a photo as the uploader does; `type` null sends no Content-Type at all. */
async function upload(
  who: Learner | null,
  body: Buffer,
  type: string | null = "image/jpeg",
  task = taskId,
  key = idem(),
) {
  const headers: Record<string, string> = {
    ...(type === null ? {} : { "Content-Type": type }),
    Origin: "http://localhost:3000",
    ...key,
  };
  if (who) headers.Cookie = who.cookie;
  const res = await fetch(`${base()}/api/homework/tasks/${task}/photos`, {
    method: "POST",
    headers,
    body: new Uint8Array(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function bytes(who: Learner | null, path: string) {
  const res = await fetch(`${base()}${path}`, { headers: who ? { Cookie: who.cookie } : {} });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

const jpeg = (w = 640, h = 480) =>
  sharp({ create: { width: w, height: h, channels: 3, background: "#f4ecdb" } })
    .jpeg()
    .toBuffer();

/** An enrolled learner with one attempt waiting: its ids. */
async function handedIn(who?: Learner, task = taskId) {
  const learnerNow = who ?? (await enrolled());
  const photo = await upload(learnerNow, await jpeg(), "image/jpeg", task);
  expect(photo.status).toBe(201);
  const sub = await call(
    learnerNow,
    "POST",
    `/api/homework/tasks/${task}/submissions`,
    { photoIds: [photo.body.id], showOnWall: true },
    idem(),
  );
  expect(sub.status).toBe(201);
  return { who: learnerNow, submission: sub.body, attemptId: sub.body.attempts.at(-1).id as string };
}

const review = (who: Learner, attemptId: string, level = "excellent") =>
  call(who, "POST", `/api/teach/homework/attempts/${attemptId}/review`, { level, comment: "写得很好。继续。" });
const claim = (who: Learner, attemptId: string) => call(who, "POST", `/api/teach/homework/attempts/${attemptId}/claim`);

beforeAll(async () => {
  const courses = await db().selectFrom("courses").select("id").orderBy("id").limit(2).execute();
  courseId = courses[0]!.id;
  otherCourseId = courses[1]!.id;
  taskId = await task(courseId, 2);
  otherTaskId = await task(otherCourseId, 2);
  teacher = await staff("teacher", courseId);
  otherTeacher = await staff("teacher", otherCourseId);
  operator = await staff("operator");
});

describe("photo uploads", () => {
  it("keeps a re-encoded JPEG without any EXIF (GPS included), upright and within 2048", async () => {
    const who = await enrolled();
    const withGps = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: "#ffffff" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Make: "Phone" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "39/1 54/1 27/1" } })
      .toBuffer();
    const original = await sharp(withGps).metadata();
    expect(original.exif?.includes(Buffer.from("Phone"))).toBe(true);
    expect(original.orientation).toBe(6);
    const res = await upload(who, withGps);
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Orientation 6 turns the picture a quarter: 3000 × 1000 becomes upright 683 × 2048.
    expect([res.body.width, res.body.height]).toEqual([683, 2048]);
    const served = await bytes(who, res.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("cache-control")).toMatch(/^private/);
    const meta = await sharp(served.body).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(served.body.includes(Buffer.from("Phone"))).toBe(false);
    const thumb = await sharp((await bytes(who, res.body.thumbUrl)).body).metadata();
    expect(Math.max(thumb.width!, thumb.height!)).toBe(480);
  });

  it("refuses GIF, disguised files, pixel floods, oversized bodies, strangers and anonymous callers", async () => {
    const who = await enrolled();
    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(64)]);
    const gifRes = await upload(who, gif, "image/gif");
    expect(gifRes.status).toBe(415);
    expect(gifRes.body.error.message).toBe(HOMEWORK_UNSUPPORTED_TYPE);
    const html = await upload(who, Buffer.from("<html><script>alert(1)</script></html>"), "image/jpeg");
    expect(html.status).toBe(415);
    const flood = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: "#ffffff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const floodRes = await upload(who, flood, "image/png");
    expect(floodRes.status).toBe(400);
    expect(floodRes.body.error.code).toBe("image_too_large");
    const huge = Buffer.concat([await jpeg(), Buffer.alloc(HOMEWORK_PHOTO_MAX_BYTES + 10)]);
    const hugeRes = await upload(who, huge);
    expect(hugeRes.status).toBe(413);
    expect(hugeRes.body.error.message).toMatch(/照片不能超过 15 MB/);
    expect((await upload(await learner(), await jpeg())).status).toBe(403);
    expect((await upload(null, await jpeg())).status).toBe(401);
  });

  it("重试 after the node taking the first upload died: 409 while its lease lasts, then stored once", async () => {
    const who = await enrolled();
    const photo = await jpeg(600, 400);
    const key = randomUUID();
    // What a node killed while it processed this upload leaves behind: the key claimed, no answer.
    await db()
      .insertInto("idempotency_keys")
      .values({
        user_id: who.id,
        route: "POST /homework/photos",
        key,
        fingerprint: fingerprintOf({ taskId, bytes: fingerprintOf(photo.toString("base64")) }),
        lease_owner: "web-a:1:killed",
        lease_expires_at: sql<Date>`now() + interval '25 seconds'`,
      })
      .execute();
    const early = await upload(who, photo, "image/jpeg", taskId, { "Idempotency-Key": key });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/^相同的请求正在处理中，请 \d+ 秒后再试$/);
    expect(early.body.error.details.retryAfter).toBeGreaterThan(20);
    // The dead node's lease runs out (as it does 25 s later): the same key now goes through, once.
    await db()
      .updateTable("idempotency_keys")
      .set({ lease_expires_at: sql<Date>`now() - interval '1 second'` })
      .where("key", "=", key)
      .execute();
    const retried = await upload(who, photo, "image/jpeg", taskId, { "Idempotency-Key": key });
    expect(retried.status).toBe(201);
    const again = await upload(who, photo, "image/jpeg", taskId, { "Idempotency-Key": key });
    expect(again).toEqual(retried);
    const stored = await db().selectFrom("homework_photos").select("id").where("user_id", "=", who.id).execute();
    expect(stored.map((p) => p.id)).toEqual([retried.body.id]);
  });
});

describe("a photo is judged by its bytes, not by its declared type", () => {
  it("accepts JPEG, PNG and HEIC sent as application/octet-stream or with no type at all", async () => {
    const who = await enrolled();
    const png = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#f4ecdb" } })
      .png()
      .toBuffer();
    for (const type of ["application/octet-stream", null]) {
      for (const [what, photo] of [
        ["JPEG", await jpeg()],
        ["PNG", png],
        ["HEIC", SHEET_HEIC],
      ] as const) {
        const res = await upload(who, photo, type);
        expect(res.status, `${what} as ${type ?? "no type"}`).toBe(201);
        expect(res.body.url).toMatch(/\/display$/);
        const served = await bytes(who, res.body.url);
        expect(served.headers.get("content-type")).toBe("image/jpeg");
        expect((await sharp(served.body).metadata()).format).toBe("jpeg");
      }
    }
  });

  it("still refuses what is no photo, whatever it claims; a body declared as text or a form is no upload", async () => {
    const who = await enrolled();
    const html = Buffer.from("<!doctype html><html><script>alert(1)</script></html>");
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    for (const [body, type] of [
      [html, "image/jpeg"],
      [svg, "image/png"],
      [Buffer.from("#EXTM3U\n/etc/passwd\n"), "image/heic"],
      [html, "application/octet-stream"],
      [svg, null],
      [Buffer.from("%PDF-1.7\n"), null],
    ] as const) {
      const res = await upload(who, body, type);
      expect(res.status, `${body.subarray(0, 9).toString()} as ${type ?? "no type"}`).toBe(415);
      expect(res.body.error.message).toBe(HOMEWORK_UNSUPPORTED_TYPE);
    }
    for (const type of ["text/plain", "multipart/form-data; boundary=x"])
      expect((await upload(who, await jpeg(), type)).status, type).toBe(415);
    expect((await call(who, "GET", `/api/homework/tasks/${taskId}/draft`)).body.photos).toEqual([]);
  });
});

describe("HEIC photos", () => {
  it("accepts an iPhone HEIC photo and keeps it as JPEG, like every other photo", async () => {
    const who = await enrolled();
    const res = await upload(who, SHEET_HEIC, "image/heic");
    expect(res.status).toBe(201);
    expect([res.body.width, res.body.height]).toEqual([480, 640]);
    const served = await bytes(who, res.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/^image\/jpeg/);
    const meta = await sharp(served.body).metadata();
    expect(meta.format).toBe("jpeg");
    expect([meta.width, meta.height]).toEqual([480, 640]);
    // The sheet's rice paper survives the trip (not a black or empty picture).
    const { dominant } = await sharp(served.body).stats();
    expect(dominant.r).toBeGreaterThan(180);
    // Whatever the request claims, the bytes decide.
    expect((await upload(who, SHEET_HEIC, "image/jpeg")).status).toBe(201);
  });

  it("refuses a broken HEIC in plain Chinese", async () => {
    const who = await enrolled();
    const cut = SHEET_HEIC.subarray(0, Math.floor(SHEET_HEIC.length / 2));
    const cutRes = await upload(who, cut, "image/heic");
    expect(cutRes.status).toBe(400);
    expect(cutRes.body.error.message).toBe(HOMEWORK_BROKEN_HEIC);
    // The header of a HEIC, then nothing but zeros.
    const empty = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypheic"), Buffer.alloc(64)]);
    const emptyRes = await upload(who, empty, "image/heic");
    expect(emptyRes.status).toBe(400);
    expect(emptyRes.body.error.message).toBe(HOMEWORK_BROKEN_HEIC);
    // The picture data spoilt, the boxes intact.
    const spoilt = Buffer.from(SHEET_HEIC);
    spoilt.fill(0x55, spoilt.length - 4000, spoilt.length - 100);
    const spoiltRes = await upload(who, spoilt, "image/heic");
    expect(spoiltRes.status).toBe(400);
    expect(spoiltRes.body.error.message).toBe(HOMEWORK_BROKEN_HEIC);
  });
});

describe("drafts", () => {
  const draft = (who: Learner, task = taskId) => call(who, "GET", `/api/homework/tasks/${task}/draft`);

  it("keeps uploaded photos on the server: a new session lists them and hands them in", async () => {
    const who = await enrolled();
    const first = await upload(who, await jpeg());
    const second = await upload(who, SHEET_HEIC, "image/heic");
    expect([first.status, second.status]).toEqual([201, 201]);
    // Another session of the same learner (a reload, another tab, after a dropped connection).
    const token = await createSession(api().database, who.id, { userAgent: "phone", ip: "127.0.0.2" });
    const again: Learner = { id: who.id, cookie: `${sessionCookieName(api().settings.cookies)}=${token}` };
    const listed = await draft(again);
    expect(listed.status).toBe(200);
    expect(listed.body.photos.map((p: { id: string }) => p.id)).toEqual([first.body.id, second.body.id]);
    expect(listed.body.photos[1].thumbUrl).toBe(second.body.thumbUrl);
    expect((await bytes(again, listed.body.photos[1].thumbUrl)).status).toBe(200);
    const sub = await call(
      again,
      "POST",
      `/api/homework/tasks/${taskId}/submissions`,
      { photoIds: listed.body.photos.map((p: { id: string }) => p.id) },
      idem(),
    );
    expect(sub.status).toBe(201);
    expect(sub.body.attempts[0].photos).toHaveLength(2);
    // Handed in: the draft is empty again.
    expect((await draft(who)).body.photos).toEqual([]);
  });

  it("removes a photo from the draft", async () => {
    const who = await enrolled();
    const kept = await upload(who, await jpeg());
    const dropped = await upload(who, await jpeg(320, 240));
    const removed = await call(who, "DELETE", `/api/homework/tasks/${taskId}/draft/${dropped.body.id}`);
    expect(removed.status).toBe(200);
    expect((await draft(who)).body.photos.map((p: { id: string }) => p.id)).toEqual([kept.body.id]);
    expect((await bytes(who, dropped.body.url)).status).toBe(404);
    expect((await call(who, "DELETE", `/api/homework/tasks/${taskId}/draft/${dropped.body.id}`)).status).toBe(404);
  });

  it("shows nobody else a learner's draft, and lets nobody else hand it in or remove from it", async () => {
    const owner = await enrolled();
    const photo = await upload(owner, await jpeg());
    expect(photo.status).toBe(201);
    const other = await enrolled();
    expect((await draft(other)).body.photos).toEqual([]);
    expect((await draft(other, otherTaskId)).body.photos).toEqual([]);
    expect((await bytes(other, photo.body.url)).status).toBe(404);
    expect((await bytes(teacher, photo.body.url)).status).toBe(404);
    const stolen = await call(
      other,
      "POST",
      `/api/homework/tasks/${taskId}/submissions`,
      { photoIds: [photo.body.id] },
      idem(),
    );
    expect(stolen.status).toBe(400);
    expect((await call(other, "DELETE", `/api/homework/tasks/${taskId}/draft/${photo.body.id}`)).status).toBe(404);
    expect((await call(null, "GET", `/api/homework/tasks/${taskId}/draft`)).status).toBe(401);
    expect((await draft(owner)).body.photos.map((p: { id: string }) => p.id)).toEqual([photo.body.id]);
  });

  it("forgets a draft after 24 h, and the upload job deletes its photos", async () => {
    const who = await enrolled();
    const photo = await upload(who, await jpeg());
    expect(photo.status).toBe(201);
    later(25 * 3_600_000);
    expect((await draft(who)).body.photos).toEqual([]);
    const now = api().now();
    expect(await runJobTick(api(), homeworkUploadJob, { now, node: "vitest-draft" })).toBe("ok");
    const row = await db()
      .selectFrom("homework_photos")
      .select("id")
      .where("id", "=", photo.body.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe("handing in", () => {
  it("answers an idempotent retry with the same submission and pays coins once", async () => {
    const who = await enrolled();
    const photo = await upload(who, await jpeg());
    const key = { "Idempotency-Key": randomUUID() };
    const body = { photoIds: [photo.body.id], note: "请老师指点" };
    const first = await call(who, "POST", `/api/homework/tasks/${taskId}/submissions`, body, key);
    const again = await call(who, "POST", `/api/homework/tasks/${taskId}/submissions`, body, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(first.body.attempts).toHaveLength(1);
    expect(first.body.state).toBe("waiting");
    const coins = await db()
      .selectFrom("wallet_entries")
      .select("amount")
      .where("user_id", "=", who.id)
      .where("reason", "=", "homework_submitted")
      .execute();
    expect(coins).toHaveLength(1);
    // A second hand-in while waiting is refused.
    const photo2 = await upload(who, await jpeg());
    expect(
      (await call(who, "POST", `/api/homework/tasks/${taskId}/submissions`, { photoIds: [photo2.body.id] }, idem()))
        .status,
    ).toBe(409);
  });

  it("refuses too many photos, someone else's photo and a learner who is not enrolled", async () => {
    const who = await enrolled();
    const ten = Array.from({ length: 10 }, (_, i) => `p${i}`);
    expect(
      (await call(who, "POST", `/api/homework/tasks/${taskId}/submissions`, { photoIds: ten }, idem())).status,
    ).toBe(400);
    const stranger = await enrolled();
    const theirs = await upload(stranger, await jpeg());
    expect(
      (await call(who, "POST", `/api/homework/tasks/${taskId}/submissions`, { photoIds: [theirs.body.id] }, idem()))
        .status,
    ).toBe(400);
    expect(
      (
        await call(
          await learner(),
          "POST",
          `/api/homework/tasks/${taskId}/submissions`,
          { photoIds: [theirs.body.id] },
          idem(),
        )
      ).status,
    ).toBe(403);
  });

  it("opens a new attempt only after a return, and never a fourth", async () => {
    const { who, attemptId } = await handedIn();
    let current = attemptId;
    for (let n = 1; n <= 3; n++) {
      expect((await claim(teacher, current)).status).toBe(200);
      const returned = await call(teacher, "POST", `/api/teach/homework/attempts/${current}/return`, {
        reason: "照片太暗",
      });
      expect(returned.status).toBe(200);
      expect(returned.body.state).toBe("returned");
      const photo = await upload(who, await jpeg());
      const next = await call(
        who,
        "POST",
        `/api/homework/tasks/${taskId}/submissions`,
        { photoIds: [photo.body.id] },
        idem(),
      );
      if (n < 3) {
        expect(next.status).toBe(201);
        expect(next.body.attempts).toHaveLength(n + 1);
        current = next.body.attempts.at(-1).id;
      } else {
        expect(next.status).toBe(409);
        expect(next.body.error.message).toMatch(/3 次/);
      }
    }
    const notices = await db().selectFrom("notifications").select("kind").where("user_id", "=", who.id).execute();
    expect(notices.filter((n) => n.kind === "homework_returned")).toHaveLength(3);
    const lesson = await call(who, "GET", `/api/homework/mine?state=returned`);
    expect(lesson.body.items[0].attempts).toBe(3);
  });
});

describe("who sees what", () => {
  it("shows a submission and its photos to the owner, the course's teachers and operators only", async () => {
    const { who, submission } = await handedIn();
    const photo = submission.attempts[0].photos[0];
    const stranger = await enrolled();
    expect((await call(who, "GET", `/api/homework/submissions/${submission.id}`)).status).toBe(200);
    expect((await call(teacher, "GET", `/api/homework/submissions/${submission.id}`)).status).toBe(200);
    expect((await call(operator, "GET", `/api/homework/submissions/${submission.id}`)).status).toBe(200);
    expect((await call(stranger, "GET", `/api/homework/submissions/${submission.id}`)).status).toBe(404);
    expect((await call(otherTeacher, "GET", `/api/homework/submissions/${submission.id}`)).status).toBe(404);
    expect((await bytes(stranger, photo.url)).status).toBe(404);
    expect((await bytes(null, photo.thumbUrl)).status).toBe(404);
    expect((await bytes(otherTeacher, photo.url)).status).toBe(404);
    expect((await bytes(teacher, photo.url)).status).toBe(200);
    expect(
      (await call(stranger, "PATCH", `/api/homework/submissions/${submission.id}`, { showOnWall: false })).status,
    ).toBe(404);
  });

  it("refuses learners on every teacher endpoint (403), and answers 404 to teachers of other courses", async () => {
    const { who, attemptId } = await handedIn();
    expect((await call(who, "GET", "/api/teach/homework/queue")).status).toBe(403);
    expect((await claim(who, attemptId)).status).toBe(403);
    expect((await call(who, "GET", "/api/teach/homework/phrases")).status).toBe(403);
    expect((await claim(otherTeacher, attemptId)).status).toBe(404);
    expect((await review(otherTeacher, attemptId)).status).toBe(404);
    const queue = await call(teacher, "GET", "/api/teach/homework/queue");
    expect(queue.status).toBe(200);
    expect(queue.body.items.some((i: { attemptId: string }) => i.attemptId === attemptId)).toBe(true);
    const theirs = await call(otherTeacher, "GET", "/api/teach/homework/queue");
    expect(theirs.body.items.some((i: { attemptId: string }) => i.attemptId === attemptId)).toBe(false);
  });
});

describe("the teacher's queue", () => {
  it("names each item's lesson, lists the lessons with a task, and filters by lesson", async () => {
    const secondTask = await task(courseId, 3);
    const lessonOf = async (id: number) =>
      (await db().selectFrom("homework_tasks").select("lesson_id").where("id", "=", id).executeTakeFirstOrThrow())
        .lesson_id;
    const [firstLesson, secondLesson, otherLesson] = await Promise.all([
      lessonOf(taskId),
      lessonOf(secondTask),
      lessonOf(otherTaskId),
    ]);
    await handedIn(undefined, taskId);
    const { attemptId } = await handedIn(await enrolled(), secondTask);

    const whole = await call(teacher, "GET", `/api/teach/homework/queue?courseId=${courseId}`);
    expect(whole.status).toBe(200);
    const lessonIds = (whole.body.lessons as Array<{ id: number; courseId: number; title: string }>).map((l) => l.id);
    expect(lessonIds).toEqual(expect.arrayContaining([firstLesson, secondLesson]));
    // Another course's lessons are not the teacher's to filter by.
    expect(lessonIds).not.toContain(otherLesson);
    expect(
      whole.body.lessons.every((l: { courseId: number; title: string }) => l.courseId === courseId && l.title),
    ).toBe(true);
    const itemLessons = new Set(whole.body.items.map((i: { lessonId: number }) => i.lessonId));
    expect([...itemLessons].every((id) => id === firstLesson || id === secondLesson)).toBe(true);

    const one = await call(teacher, "GET", `/api/teach/homework/queue?courseId=${courseId}&lessonId=${secondLesson}`);
    expect(one.status).toBe(200);
    expect(one.body.items.map((i: { attemptId: string; lessonId: number }) => [i.attemptId, i.lessonId])).toEqual([
      [attemptId, secondLesson],
    ]);
    expect(one.body.stats.waiting).toBe(1);

    const everything = await call(operator, "GET", "/api/teach/homework/queue");
    expect(everything.body.lessons).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: otherLesson, courseId: otherCourseId })]),
    );
  });
});

describe("claims and reviews", () => {
  it("reviews only with the claim: not unclaimed, not someone else's", async () => {
    const { who, attemptId } = await handedIn();
    expect((await review(teacher, attemptId)).status).toBe(409);
    const second = await staff("teacher", courseId);
    expect((await claim(second, attemptId)).status).toBe(200);
    expect((await claim(teacher, attemptId)).status).toBe(409);
    const refused = await review(teacher, attemptId);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("claimed_by_other");
    const done = await call(second, "POST", `/api/teach/homework/attempts/${attemptId}/review`, {
      level: "good",
      comment: "横画略平。",
      drawings: [
        {
          photo: 0,
          marks: [
            {
              kind: "tick",
              color: "#c0392b",
              width: 0.01,
              points: [
                [0.1, 0.1, 0.5],
                [0.2, 0.2, 0.5],
                [0.4, 0.05, 0.5],
              ],
            },
          ],
          grids: [{ kind: "mi", x: 0.3, y: 0.3, size: 0.2, character: "永" }],
        },
      ],
    });
    expect(done.status).toBe(200);
    expect(done.body.attempts[0].review.drawings[0].grids[0].character).toBe("永");
    expect((await review(second, attemptId)).status).toBe(409);
    const notice = await db().selectFrom("notifications").select("kind").where("user_id", "=", who.id).execute();
    expect(notice.map((n) => n.kind)).toContain("homework_reviewed");
  });

  it("lets exactly one of five teachers claiming at once hold the attempt", async () => {
    const { attemptId } = await handedIn();
    const teachers = await Promise.all(Array.from({ length: 5 }, () => staff("teacher", courseId)));
    const answers = await Promise.all(teachers.map((t) => claim(t, attemptId)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
  });

  it("pays the excellent coins once when the same review is sent five times at once", async () => {
    const { who, attemptId } = await handedIn();
    expect((await claim(teacher, attemptId)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 5 }, () => review(teacher, attemptId)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const coins = await db()
      .selectFrom("wallet_entries")
      .select("amount")
      .where("user_id", "=", who.id)
      .where("reason", "=", "homework_excellent")
      .execute();
    expect(coins).toEqual([{ amount: 50 }]);
  });

  it("lets operators assign an attempt to one teacher, who alone may claim it", async () => {
    const { attemptId } = await handedIn();
    const second = await staff("teacher", courseId);
    expect(
      (await call(teacher, "POST", `/api/teach/homework/attempts/${attemptId}/assign`, { teacherId: second.id }))
        .status,
    ).toBe(404);
    const assigned = await call(operator, "POST", `/api/teach/homework/attempts/${attemptId}/assign`, {
      teacherId: second.id,
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.assignedTo).toBe(`老师${teacherSeq}`);
    expect((await claim(teacher, attemptId)).status).toBe(409);
    expect((await claim(second, attemptId)).status).toBe(200);
  });

  it("records every claim, release, review, return and assignment in the audit log, with the change", async () => {
    const auditOf = (attemptId: string) =>
      db()
        .selectFrom("audit_log")
        .select(["actor_id", "actor_role", "action", "before", "after", "reason"])
        .where("target_type", "=", "homework_attempt")
        .where("target_id", "=", attemptId)
        .orderBy("id")
        .execute();
    const reviewed = await handedIn();
    expect((await claim(teacher, reviewed.attemptId)).status).toBe(200);
    expect(
      (await call(teacher, "POST", `/api/teach/homework/attempts/${reviewed.attemptId}/release`)).body.released,
    ).toBe(true);
    expect((await claim(teacher, reviewed.attemptId)).status).toBe(200);
    expect((await review(teacher, reviewed.attemptId, "good")).status).toBe(200);
    expect(await auditOf(reviewed.attemptId)).toEqual([
      expect.objectContaining({ actor_id: teacher.id, actor_role: "teacher", action: "homework.claim" }),
      expect.objectContaining({ actor_id: teacher.id, action: "homework.release", before: expect.any(Object) }),
      expect.objectContaining({ actor_id: teacher.id, action: "homework.claim" }),
      {
        actor_id: teacher.id,
        actor_role: "teacher",
        action: "homework.review",
        before: { state: "waiting" },
        after: { state: "reviewed", number: 1, level: "good", comment: "写得很好。继续。", drawings: 0 },
        reason: null,
      },
    ]);

    const returned = await handedIn();
    const second = await staff("teacher", courseId);
    const assigned = await call(operator, "POST", `/api/teach/homework/attempts/${returned.attemptId}/assign`, {
      teacherId: second.id,
    });
    expect(assigned.status).toBe(200);
    const back = await call(second, "POST", `/api/teach/homework/attempts/${returned.attemptId}/return`, {
      reason: "字迹太淡，请用浓墨重写",
    });
    expect(back.status).toBe(200);
    expect(await auditOf(returned.attemptId)).toEqual([
      expect.objectContaining({
        actor_id: operator.id,
        actor_role: "operator",
        action: "homework.assign",
        after: { assignedTo: second.id },
      }),
      expect.objectContaining({
        actor_id: second.id,
        action: "homework.return",
        after: { state: "returned", number: 1, drawings: 0 },
        reason: "字迹太淡，请用浓墨重写",
      }),
    ]);

    // A refused claim or review changes nothing, and records nothing.
    expect((await claim(teacher, returned.attemptId)).status).toBe(409);
    expect((await review(teacher, returned.attemptId)).status).toBe(409);
    expect(await auditOf(returned.attemptId)).toHaveLength(2);
  });

  it("keeps a teacher's phrases", async () => {
    const saved = await call(teacher, "PUT", "/api/teach/homework/phrases", { phrases: ["很好", "再练"] });
    expect(saved.body.phrases).toEqual(["很好", "再练"]);
    expect((await call(teacher, "GET", "/api/teach/homework/phrases")).body.phrases).toEqual(["很好", "再练"]);
  });
});

describe("uploads never handed in", () => {
  const HOUR = 3_600_000;
  /** A photo row uploaded `hoursAgo` by `userId` and never handed in: its id. */
  async function leftOver(userId: number, hoursAgo: number, now: Date): Promise<string> {
    const id = newPhotoId();
    await db()
      .insertInto("homework_photos")
      .values({
        id,
        user_id: userId,
        task_id: taskId,
        width: 10,
        height: 10,
        thumb_width: 10,
        thumb_height: 10,
        display_bytes: Buffer.from([0xff, 0xd8]),
        thumb_bytes: Buffer.from([0xff, 0xd8]),
        created_at: new Date(now.getTime() - hoursAgo * HOUR),
      })
      .execute();
    return id;
  }
  const stillThere = async (ids: string[]) =>
    (await db().selectFrom("homework_photos").select("id").where("id", "in", ids).execute()).map((r) => r.id).sort();

  it("deletes photos left unsubmitted for 24 h, batch by batch, and keeps handed-in and fresh ones", async () => {
    const now = new Date();
    const { who, submission } = await handedIn();
    const handedInPhoto = submission.attempts[0].photos[0].id as string;
    // Handed in long ago: its age alone must not matter.
    await db()
      .updateTable("homework_photos")
      .set({ created_at: new Date(now.getTime() - 72 * HOUR) })
      .where("id", "=", handedInPhoto)
      .execute();
    const old = await Promise.all([25, 26, 30, 48, 200].map((h) => leftOver(who.id, h, now)));
    const fresh = await leftOver(who.id, 23, now);

    // Batches of two: five old photos take three rounds, all in one run.
    expect(await pruneUnsubmittedPhotos(api(), { now, batch: 2 })).toBe(5);
    expect(await stillThere([...old, fresh, handedInPhoto])).toEqual([fresh, handedInPhoto].sort());
    const served = await bytes(who, submission.attempts[0].photos[0].url);
    expect(served.status).toBe(200);
    expect(await pruneUnsubmittedPhotos(api(), { now })).toBe(0);
  });

  it("runs hourly through the job registry", async () => {
    const now = new Date();
    const who = await enrolled();
    const old = await leftOver(who.id, 30, now);
    const fresh = await leftOver(who.id, 1, now);
    expect(homeworkUploadJob.everyMs).toBe(HOUR);
    expect(await runJobTick(api(), homeworkUploadJob, { now, node: "vitest" })).toBe("ok");
    expect(await stillThere([old, fresh])).toEqual([fresh]);
  });
});

describe("the wall and share pages", () => {
  it("shows excellent opted-in work publicly, with a poster, and 410 once withdrawn or hidden", async () => {
    const { who, submission, attemptId } = await handedIn(undefined, otherTaskId === 0 ? taskId : taskId);
    expect((await claim(teacher, attemptId)).status).toBe(200);
    const reviewed = await review(teacher, attemptId);
    const shareId: string = reviewed.body.shareId;
    expect(shareId).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const wall = await call(null, "GET", "/api/homework/wall");
    expect(wall.body.items.some((i: { shareId: string }) => i.shareId === shareId)).toBe(true);
    const share = await call(null, "GET", `/api/homework/share/${shareId}`);
    expect(share.status).toBe(200);
    expect(share.body.review.levelLabel).toBe("优");
    // Strangers see a masked name and nothing to act on; the learner sees the take-down handle.
    const nickname: string = (
      await db().selectFrom("users").select("nickname").where("id", "=", who.id).executeTakeFirstOrThrow()
    ).nickname;
    expect(share.body.learner).not.toBe(nickname);
    expect(share.body.learner).toMatch(/\*/);
    expect(share.body.ownSubmissionId ?? null).toBeNull();
    expect((await call(teacher, "GET", `/api/homework/share/${shareId}`)).body.ownSubmissionId ?? null).toBeNull();
    expect((await call(who, "GET", `/api/homework/share/${shareId}`)).body.ownSubmissionId).toBe(submission.id);
    const photo = await bytes(null, share.body.photos[0].url);
    expect(photo.status).toBe(200);
    expect(photo.headers.get("cache-control")).toMatch(/^public/);
    const poster = await bytes(null, share.body.posterUrl);
    expect(poster.status).toBe(200);
    expect(poster.headers.get("content-type")).toBe("image/jpeg");
    expect((await sharp(poster.body).metadata()).format).toBe("jpeg");
    // The square form WeChat prefers: the work's photo whole on 600×600.
    const square = await bytes(null, share.body.squareUrl);
    expect(square.status).toBe(200);
    expect(square.headers.get("content-type")).toBe("image/jpeg");
    const squareMeta = await sharp(square.body).metadata();
    expect([squareMeta.format, squareMeta.width, squareMeta.height]).toEqual(["jpeg", 600, 600]);

    expect((await call(who, "PATCH", `/api/homework/submissions/${submission.id}`, { showOnWall: false })).status).toBe(
      200,
    );
    expect((await call(null, "GET", `/api/homework/share/${shareId}`)).status).toBe(410);
    expect((await bytes(null, share.body.photos[0].url)).status).toBe(404);
    expect((await call(who, "PATCH", `/api/homework/submissions/${submission.id}`, { showOnWall: true })).status).toBe(
      200,
    );
    expect((await call(who, "POST", `/api/homework/share/${shareId}/hide`, {})).status).toBe(404);
    expect((await call(operator, "POST", `/api/homework/share/${shareId}/hide`, {})).body.hidden).toBe(true);
    expect((await call(null, "GET", `/api/homework/share/${shareId}`)).status).toBe(410);
    expect((await call(null, "GET", "/api/homework/share/AAAAAAAAAAAAAAAA")).status).toBe(404);
  });
});

describe("demo homework", () => {
  it("seeds a wall of at least 24 works, the demo learner's work in every state and a waiting queue", async () => {
    await db()
      .insertInto("users")
      .values({ phone: "13800138000", nickname: "墨池学员", role: "learner" })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await db()
      .insertInto("users")
      .values({ phone: "13800138001", nickname: "林老师", role: "teacher" })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const first = await db().selectFrom("teachers").select("id").orderBy("position").executeTakeFirstOrThrow();
    const demoTeacher = await db()
      .selectFrom("users")
      .select("id")
      .where("phone", "=", "13800138001")
      .executeTakeFirstOrThrow();
    await db().updateTable("teachers").set({ user_id: demoTeacher.id }).where("id", "=", first.id).execute();
    await db().deleteFrom("homework_tasks").where("id", "not in", [taskId, otherTaskId]).execute();
    // The seed runs only on a catalogue without tasks.
    expect(await seedHomework(api().database)).toBe(false);
    await db().deleteFrom("homework_tasks").execute();
    const started = Date.now();
    expect(await seedHomework(api().database)).toBe(true);
    expect(Date.now() - started).toBeLessThan(15_000);
    const wall = await call(null, "GET", "/api/homework/wall");
    expect(wall.body.items.length).toBe(24);
    expect(wall.body.nextCursor).not.toBeNull();
    const learnerRow = await db()
      .selectFrom("users")
      .select("id")
      .where("phone", "=", "13800138000")
      .executeTakeFirstOrThrow();
    const states = await db()
      .selectFrom("homework_submissions")
      .select(["state", "attempts"])
      .where("user_id", "=", learnerRow.id)
      .execute();
    expect(new Set(states.map((s) => s.state))).toEqual(new Set(["waiting", "reviewed", "returned"]));
    expect(states.some((s) => s.attempts === 2)).toBe(true);
    const waiting = await db()
      .selectFrom("homework_attempts")
      .select("id")
      .where("state", "=", "waiting")
      .where("claimed_by", "is", null)
      .execute();
    expect(waiting.length).toBeGreaterThan(5);
  });
});
