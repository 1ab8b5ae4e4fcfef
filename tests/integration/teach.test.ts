/**
 * The teacher's tools: their own courses and lessons (read; notes and homework tasks changed only
 * in courses they teach — another teacher's answers 404), their own live sessions with the stream
 * key, moving them (learners told), pinning a message and muting a learner in their room.
 */
import { describe, expect, it } from "vitest";
import { type Account, staffHarness } from "./staff-harness";

const h = staffHarness("133");
const HOUR = 3_600_000;

/** A draft course of this teacher with one chapter and one lesson (through the operator's API). */
async function courseOf(teacher: Account & { teacherId: number }) {
  const op = await h.account("operator");
  const created = await h.call(op, "POST", "/api/admin/courses", {
    title: `隶书 ${Math.random().toString(36).slice(2, 6)}`,
    category: "lishu",
    kind: "recorded",
    level: "beginner",
    teacherId: teacher.teacherId,
    priceCents: 0,
    originalPriceCents: 0,
    coverChar: "隶",
  });
  const chapter = await h.call(op, "POST", `/api/admin/courses/${created.body.id}/chapters`, { title: "第一章" });
  const lesson = await h.call(op, "POST", `/api/admin/chapters/${chapter.body.chapters[0].id}/lessons`, {
    title: "蚕头燕尾",
    video: { key: "yong" },
    durationSeconds: 30,
  });
  return { courseId: created.body.id as number, lessonId: lesson.body.chapters[0].lessons[0].id as number };
}

async function sessionOf(teacher: Account & { teacherId: number }, courseId: number | null, startsInMs = 24 * HOUR) {
  const op = await h.account("operator");
  const startsAt = new Date(Date.now() + startsInMs);
  const res = await h.call(op, "POST", "/api/admin/live", {
    title: `隶书直播 ${Math.random().toString(36).slice(2, 6)}`,
    courseId,
    teacherId: teacher.teacherId,
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + HOUR).toISOString(),
    coverChar: "隶",
  });
  expect(res.status).toBe(201);
  return res.body as { id: number; startsAt: string; endsAt: string; title: string };
}

describe("my courses", () => {
  it("a teacher reads and edits only their own courses; learners are refused", async () => {
    const mine = await h.teacher();
    const other = await h.teacher();
    const learner = await h.account("learner");
    const { courseId, lessonId } = await courseOf(mine);
    const theirs = await courseOf(other);

    const list = await h.call(mine, "GET", "/api/teach/courses");
    expect(list.status).toBe(200);
    expect(list.body.courses.map((c: { id: number }) => c.id)).toEqual([courseId]);
    expect((await h.call(mine, "GET", `/api/teach/courses/${courseId}`)).body.chapters[0].lessons[0].id).toBe(lessonId);
    expect((await h.call(mine, "GET", `/api/teach/courses/${theirs.courseId}`)).status).toBe(404);
    expect((await h.call(learner, "GET", "/api/teach/courses")).status).toBe(403);
    expect((await h.call(null, "GET", "/api/teach/courses")).status).toBe(401);

    const notes = await h.call(mine, "PATCH", `/api/teach/lessons/${lessonId}/notes`, {
      summary: "先练蚕头，再练燕尾。",
    });
    expect(notes.status).toBe(200);
    expect(notes.body.chapters[0].lessons[0].summary).toBe("先练蚕头，再练燕尾。");
    expect(
      (await h.call(mine, "PATCH", `/api/teach/lessons/${theirs.lessonId}/notes`, { summary: "改别人的" })).status,
    ).toBe(404);
    const theirLesson = await h
      .db()
      .selectFrom("lessons")
      .select("summary")
      .where("id", "=", theirs.lessonId)
      .executeTakeFirstOrThrow();
    expect(theirLesson.summary).toBe("");

    const task = { title: "临写“蚕头燕尾”", instructions: "每字写五遍", characters: "一", script: "li", maxPhotos: 2 };
    const put = await h.call(mine, "PUT", `/api/teach/lessons/${lessonId}/task`, task);
    expect(put.status).toBe(200);
    expect(put.body.chapters[0].lessons[0].task).toMatchObject({ title: task.title, script: "li", maxPhotos: 2 });
    expect((await h.call(mine, "PUT", `/api/teach/lessons/${theirs.lessonId}/task`, task)).status).toBe(404);
    expect((await h.call(mine, "PUT", "/api/teach/lessons/999999/task", task)).status).toBe(404);

    // Operators may open every course.
    const op = await h.account("operator");
    expect((await h.call(op, "GET", `/api/teach/courses/${theirs.courseId}`)).status).toBe(200);
  });
});

describe("my live sessions", () => {
  it("shows the teacher's own sessions with the stream key, and moves them (learners told)", async () => {
    const mine = await h.teacher();
    const other = await h.teacher();
    const { courseId } = await courseOf(mine);
    const session = await sessionOf(mine, courseId);
    const theirs = await sessionOf(other, null);
    const learner = await h.account("learner");
    await h
      .db()
      .insertInto("enrolments")
      .values({ user_id: learner.id, course_id: courseId, source: "admin" })
      .execute();

    const list = await h.call(mine, "GET", "/api/teach/live");
    expect(list.body.sessions.map((s: { id: number }) => s.id)).toEqual([session.id]);
    const detail = await h.call(mine, "GET", `/api/teach/live/${session.id}`);
    expect(detail.body.ingest.streamKey).toMatch(/^live-/);
    expect((await h.call(mine, "GET", `/api/teach/live/${theirs.id}`)).status).toBe(404);

    const startsAt = new Date(Date.parse(session.startsAt) + 2 * HOUR).toISOString();
    const endsAt = new Date(Date.parse(session.endsAt) + 2 * HOUR).toISOString();
    const moved = await h.call(mine, "PUT", `/api/teach/live/${session.id}/schedule`, { startsAt, endsAt });
    expect(moved.status).toBe(200);
    expect(moved.body.startsAt).toBe(startsAt);
    const notices = await h
      .db()
      .selectFrom("notifications")
      .select("title")
      .where("user_id", "=", learner.id)
      .where("kind", "=", "live_moved")
      .execute();
    expect(notices).toEqual([{ title: `直播时间调整：${session.title}` }]);
    expect((await h.call(mine, "PUT", `/api/teach/live/${theirs.id}/schedule`, { startsAt, endsAt })).status).toBe(404);
    const theirsAfter = await h
      .db()
      .selectFrom("live_sessions")
      .select("starts_at")
      .where("id", "=", theirs.id)
      .executeTakeFirstOrThrow();
    expect(theirsAfter.starts_at.toISOString()).toBe(theirs.startsAt);
  });

  it("pins a message and mutes a learner in their own room only", async () => {
    const mine = await h.teacher();
    const other = await h.teacher();
    const session = await sessionOf(mine, null);
    const theirs = await sessionOf(other, null);
    const learner = await h.account("learner");
    const pin = await h.call(mine, "PUT", `/api/teach/live/${session.id}/pin`, { message: "欢迎来到隶书课" });
    expect(pin.body.pinnedMessage).toBe("欢迎来到隶书课");
    expect((await h.call(mine, "PUT", `/api/teach/live/${theirs.id}/pin`, { message: "x" })).status).toBe(404);
    const mute = await h.call(mine, "POST", `/api/teach/live/${session.id}/mutes`, { userId: learner.id, minutes: 30 });
    expect(mute.status).toBe(200);
    expect(
      (await h.call(mine, "POST", `/api/teach/live/${theirs.id}/mutes`, { userId: learner.id, minutes: 30 })).status,
    ).toBe(404);
    const log = await h.call(mine, "GET", `/api/teach/live/${session.id}/chat`);
    expect(log.status).toBe(200);
    expect((await h.call(learner, "GET", `/api/teach/live/${session.id}/chat`)).status).toBe(403);
  });
});
