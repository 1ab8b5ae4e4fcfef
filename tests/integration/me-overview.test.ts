/**
 * The personal centre's overview (/api/me/overview): today's check-in, homework to hand in, the
 * learner's next live lesson and minutes studied per week, from what the learner really did.
 */
import { describe, expect, it } from "vitest";
import { commerceHarness } from "./commerce";

const { db, learner, call } = commerceHarness("134");

describe("GET /api/me/overview", () => {
  it("shows today's check-in, homework to do, the next live lesson and this week's study minutes", async () => {
    const me = await learner();
    const empty = await call(me, "GET", "/api/me/overview");
    expect(empty.status).toBe(200);
    expect(empty.body.checkIn).toEqual({ done: false });
    expect(empty.body.homework).toEqual({ toDo: 0, inReview: 0, items: [] });
    expect(empty.body.nextLive).toBeNull();
    expect(empty.body.studyWeeks).toHaveLength(8);
    expect(empty.body.studyWeeks.every((w: { minutes: number }) => w.minutes === 0)).toBe(true);

    const course = await db()
      .selectFrom("courses")
      .select(["id", "teacher_id"])
      .where("price_cents", "=", 0)
      .where("status", "=", "published")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const lessons = await db()
      .selectFrom("lessons")
      .select(["id", "title", "duration_seconds"])
      .where("course_id", "=", course.id)
      .orderBy("id")
      .limit(2)
      .execute();
    await db()
      .insertInto("enrolments")
      .values({ user_id: me.id, course_id: course.id, source: "free" })
      .onConflict((oc) => oc.doNothing())
      .execute();
    for (const lesson of lessons) {
      await db()
        .insertInto("homework_tasks")
        .values({ course_id: course.id, lesson_id: lesson.id, title: "临写", characters: "永", script: "kai" })
        .execute();
    }
    const starts = new Date(Date.now() + 3 * 3_600_000);
    const live = await db()
      .insertInto("live_sessions")
      .values({
        course_id: course.id,
        teacher_id: course.teacher_id,
        title: "概览测试直播",
        cover_char: "永",
        starts_at: starts,
        ends_at: new Date(starts.getTime() + 3_600_000),
        stream_key: "overview-test",
        chapter_marks: JSON.stringify([]),
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    expect((await call(me, "POST", "/api/wallet/check-in")).status).toBe(200);
    // Four reports of a whole 30-s lesson each (watched again) count two minutes towards this week.
    for (const position of [10, 20, 25, 29]) {
      const report = await call(me, "PUT", `/api/learning/lessons/${lessons[0]!.id}/progress`, {
        position,
        watched: lessons[0]!.duration_seconds,
        speed: 1,
      });
      expect(report.status).toBe(200);
    }

    const body = (await call(me, "GET", "/api/me/overview")).body;
    expect(body.checkIn).toEqual({ done: true });
    expect(body.homework.toDo).toBe(2);
    expect(body.homework.items[0]).toMatchObject({ lessonId: lessons[0]!.id, title: lessons[0]!.title, state: "todo" });
    expect(body.nextLive).toEqual({
      id: live.id,
      title: "概览测试直播",
      startsAt: starts.toISOString(),
      state: "scheduled",
      booked: false,
    });
    expect(body.studyWeeks.at(-1).minutes).toBe(Math.round((4 * lessons[0]!.duration_seconds) / 60));
    expect(body.studyWeeks.at(-1).minutes).toBeGreaterThan(0);
    expect(body.studyWeeks.slice(0, -1).every((w: { minutes: number }) => w.minutes === 0)).toBe(true);
  });

  it("needs a session", async () => {
    expect((await call(null, "GET", "/api/me/overview")).status).toBe(401);
  });
});
