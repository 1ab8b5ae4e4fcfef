/**
 * Live sessions for operators: schedule (with a stream key and ingest), move and cancel (learners
 * who booked or enrolled are told), assign the teacher, attach the recording with chapter marks;
 * chat moderation in any room (hide a message, mute a learner for a while, pin a message).
 */
import { describe, expect, it } from "vitest";
import { type Account, staffHarness } from "./staff-harness";

const h = staffHarness("134");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function aCourse(): Promise<number> {
  const row = await h
    .db()
    .selectFrom("courses")
    .select("id")
    .where("status", "=", "published")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function schedule(op: Account, startsInMs: number, extra: Record<string, unknown> = {}) {
  const teacher = await h.teacher();
  const startsAt = new Date(Date.now() + startsInMs);
  const res = await h.call(op, "POST", "/api/admin/live", {
    title: `行书直播 ${Math.random().toString(36).slice(2, 6)}`,
    summary: "兰亭序临摹要点",
    courseId: await aCourse(),
    teacherId: teacher.teacherId,
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + HOUR).toISOString(),
    coverChar: "兰",
    ...extra,
  });
  expect(res.status).toBe(201);
  return { live: res.body, teacher };
}

/** A session on air now (inserted directly: the API only schedules in the future). */
async function onAir(teacherId: number, courseId: number) {
  const now = Date.now();
  const row = await h
    .db()
    .insertInto("live_sessions")
    .values({
      title: "正在直播",
      course_id: courseId,
      teacher_id: teacherId,
      cover_char: "播",
      starts_at: new Date(now - 10 * MINUTE),
      ends_at: new Date(now + 50 * MINUTE),
      state: "live",
      stream_key: `live-test-${now}`,
      chapter_marks: "[]",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function enrol(userId: number, courseId: number) {
  await h
    .db()
    .insertInto("enrolments")
    .values({ user_id: userId, course_id: courseId, source: "admin" })
    .onConflict((oc) => oc.columns(["user_id", "course_id"]).doNothing())
    .execute();
}

/** An operator, and a learner enrolled in the course of a teacher's session on air now. */
async function enrolledInSessionOnAir() {
  const op = await h.account("operator");
  const teacher = await h.teacher();
  const courseId = await aCourse();
  const id = await onAir(teacher.teacherId, courseId);
  const learner = await h.account("learner");
  await enrol(learner.id, courseId);
  return { op, teacher, id, learner };
}

const noticesOf = (userId: number, kind: string) =>
  h
    .db()
    .selectFrom("notifications")
    .select(["title", "body"])
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .execute();

describe("admin live", () => {
  it("is for operators only", async () => {
    const learner = await h.account("learner");
    const teacher = await h.account("teacher");
    for (const who of [learner, teacher]) {
      expect((await h.call(who, "GET", "/api/admin/live")).status).toBe(403);
      expect((await h.call(who, "POST", "/api/admin/live/1/cancel", { reason: "x" })).status).toBe(403);
    }
    expect((await h.call(null, "GET", "/api/admin/live")).status).toBe(401);
  });

  it("schedules a session with a stream key and the ingest instructions", async () => {
    const op = await h.account("operator");
    const { live, teacher } = await schedule(op, 2 * 24 * HOUR);
    expect(live).toMatchObject({ state: "scheduled", teacherId: teacher.teacherId, pinnedMessage: null });
    expect(live.ingest.streamKey).toMatch(/^live-[0-9a-f]{20}$/);
    expect(live.ingest).toMatchObject({ server: "rtmp://localhost/live", demo: true });
    expect(live.ingest.playbackUrl).toBe(`/broadcast/${live.ingest.streamKey}/index.m3u8`);
    const past = await h.call(op, "POST", "/api/admin/live", {
      title: "过去",
      courseId: null,
      teacherId: teacher.teacherId,
      startsAt: new Date(Date.now() - HOUR).toISOString(),
      endsAt: new Date(Date.now()).toISOString(),
      coverChar: "过",
    });
    expect(past.status).toBe(400);
    const tooLong = await h.call(op, "POST", "/api/admin/live", {
      title: "太长",
      courseId: null,
      teacherId: teacher.teacherId,
      startsAt: new Date(Date.now() + HOUR).toISOString(),
      endsAt: new Date(Date.now() + 10 * HOUR).toISOString(),
      coverChar: "长",
    });
    expect(tooLong.status).toBe(400);
    const list = await h.call(op, "GET", `/api/admin/live?q=${encodeURIComponent(live.title)}`);
    expect(list.body.rows.map((r: { id: number }) => r.id)).toEqual([live.id]);
  });

  it("moves a session: booked and enrolled learners are told, the public page shows the new time", async () => {
    const op = await h.account("operator");
    const { live } = await schedule(op, 24 * HOUR);
    const booked = await h.account("learner");
    const enrolled = await h.account("learner");
    const stranger = await h.account("learner");
    await enrol(booked.id, live.courseId);
    await enrol(enrolled.id, live.courseId);
    expect((await h.call(booked, "POST", `/api/live/${live.id}/booking`, {})).status).toBe(200);

    const startsAt = new Date(Date.parse(live.startsAt) + 3 * HOUR).toISOString();
    const endsAt = new Date(Date.parse(live.endsAt) + 3 * HOUR).toISOString();
    const moved = await h.call(op, "PATCH", `/api/admin/live/${live.id}`, { startsAt, endsAt });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ startsAt, endsAt, audience: 2 });
    for (const who of [booked, enrolled]) {
      const notices = await noticesOf(who.id, "live_moved");
      expect(notices).toHaveLength(1);
      expect(notices[0]!.title).toBe(`直播时间调整：${live.title}`);
      expect(notices[0]!.body).toContain(`/live/${live.id}`);
    }
    expect(await noticesOf(stranger.id, "live_moved")).toHaveLength(0);
    const audit = await h
      .db()
      .selectFrom("audit_log")
      .select(["action", "before", "after"])
      .where("target_type", "=", "live")
      .where("target_id", "=", String(live.id))
      .orderBy("id")
      .execute();
    expect(audit.map((a) => a.action)).toEqual(["live.create", "live.move"]);
    expect(audit[1]).toMatchObject({ before: { startsAt: live.startsAt }, after: { startsAt } });
    const pub = await h.call(null, "GET", `/api/live/${live.id}`);
    expect(pub.body.live?.startsAt ?? pub.body.startsAt).toBe(startsAt);

    // A new teacher is no move: nobody is told again.
    const other = await h.teacher();
    const reassigned = await h.call(op, "PATCH", `/api/admin/live/${live.id}`, { teacherId: other.teacherId });
    expect(reassigned.body.teacherName).toBe(other.nickname);
    expect(await noticesOf(booked.id, "live_moved")).toHaveLength(1);
  });

  it("refuses to move a session on air, cancels with a reason and tells the learners", async () => {
    const { op, id, learner } = await enrolledInSessionOnAir();
    const move = await h.call(op, "PATCH", `/api/admin/live/${id}`, {
      startsAt: new Date(Date.now() + HOUR).toISOString(),
      endsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
    });
    expect(move.status).toBe(409);
    expect(move.body.error.message).toBe("直播直播中，不能再改时间");

    expect((await h.call(op, "POST", `/api/admin/live/${id}/cancel`, { reason: "" })).status).toBe(400);
    const cancelled = await h.call(op, "POST", `/api/admin/live/${id}/cancel`, { reason: "老师临时生病" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe("cancelled");
    const notices = await noticesOf(learner.id, "live_cancelled");
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body).toContain("老师临时生病");
    expect((await h.call(op, "POST", `/api/admin/live/${id}/cancel`, { reason: "再取消" })).status).toBe(409);
    const audit = await h
      .db()
      .selectFrom("audit_log")
      .select(["action", "reason"])
      .where("target_type", "=", "live")
      .where("target_id", "=", String(id))
      .execute();
    expect(audit).toEqual([{ action: "live.cancel", reason: "老师临时生病" }]);
  });

  it("attaches a recording with chapter marks once the session is over", async () => {
    const op = await h.account("operator");
    const { live } = await schedule(op, HOUR);
    const marks = [
      { at: 0, title: "开场" },
      { at: 12, title: "起笔" },
    ];
    const early = await h.call(op, "PUT", `/api/admin/live/${live.id}/recording`, {
      videoKey: "yong",
      chapterMarks: marks,
    });
    expect(early.status).toBe(409);
    await h
      .db()
      .updateTable("live_sessions")
      .set({ starts_at: new Date(Date.now() - 3 * HOUR), ends_at: new Date(Date.now() - 2 * HOUR) })
      .where("id", "=", live.id)
      .execute();
    const unordered = await h.call(op, "PUT", `/api/admin/live/${live.id}/recording`, {
      videoKey: "yong",
      chapterMarks: [...marks].reverse(),
    });
    expect(unordered.status).toBe(400);
    const done = await h.call(op, "PUT", `/api/admin/live/${live.id}/recording`, {
      videoKey: "yong",
      chapterMarks: marks,
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ state: "replay", recordingVideoKey: "yong", chapterMarks: marks });
    const learner = await h.account("learner");
    await enrol(learner.id, live.courseId);
    const replay = await h.call(learner, "GET", `/api/learning/replays/${live.id}`);
    expect(replay.status).toBe(200);
    expect(replay.body.replay.chapterMarks).toEqual(marks);
    expect(replay.body.replay.state).toBe("replay");
  });
});

describe("chat moderation", () => {
  it("hides a message, mutes a learner for a while and pins a message", async () => {
    const { op, teacher, id, learner } = await enrolledInSessionOnAir();
    const said = await h.call(learner, "POST", `/api/live/${id}/messages`, { body: "广告：加微信" });
    expect(said.status).toBe(201);
    expect(said.body.teacher).toBe(false);

    expect((await h.call(op, "POST", `/api/admin/live/${id}/chat/${said.body.id}/hide`, {})).status).toBe(200);
    const log = await h.call(op, "GET", `/api/admin/live/${id}/chat`);
    expect(log.body.messages).toEqual([
      expect.objectContaining({ id: said.body.id, hidden: true, userId: learner.id }),
    ]);
    // Teachers cannot hide (operators only).
    expect((await h.call(teacher, "POST", `/api/teach/live/${id}/chat/${said.body.id}/hide`, {})).status).toBe(404);

    const mute = await h.call(op, "POST", `/api/admin/live/${id}/mutes`, { userId: learner.id, minutes: 5 });
    expect(mute.status).toBe(200);
    const refused = await h.call(learner, "POST", `/api/live/${id}/messages`, { body: "还能说吗" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("你已被禁言，5 分钟后可以再发言");
    expect((await h.call(op, "POST", `/api/admin/live/${id}/mutes`, { userId: learner.id, minutes: 7 })).status).toBe(
      400,
    );
    expect((await h.call(op, "POST", `/api/admin/live/${id}/mutes`, { userId: op.id, minutes: 5 })).status).toBe(409);

    // The mute ends by itself…
    const realNow = h.api().now;
    const later = new Date(Date.now() + 6 * MINUTE);
    h.api().now = () => later;
    try {
      expect((await h.call(learner, "POST", `/api/live/${id}/messages`, { body: "我回来了" })).status).toBe(201);
    } finally {
      h.api().now = realNow;
    }
    // …or by hand.
    await h.call(op, "POST", `/api/admin/live/${id}/mutes`, { userId: learner.id, minutes: 60 });
    expect((await h.call(learner, "POST", `/api/live/${id}/messages`, { body: "x" })).status).toBe(403);
    expect((await h.call(op, "DELETE", `/api/admin/live/${id}/mutes/${learner.id}`)).status).toBe(200);
    expect((await h.call(learner, "POST", `/api/live/${id}/messages`, { body: "谢谢老师" })).status).toBe(201);

    const modAudit = await h
      .db()
      .selectFrom("audit_log")
      .select("action")
      .where("actor_id", "=", op.id)
      .orderBy("id")
      .execute();
    expect(modAudit.map((a) => a.action)).toEqual([
      "live.chat.hide",
      "live.chat.mute",
      "live.chat.mute",
      "live.chat.unmute",
    ]);
    const pinned = await h.call(op, "PUT", `/api/admin/live/${id}/pin`, { message: "今晚作业：临写《兰亭序》前两行" });
    expect(pinned.body.pinnedMessage).toBe("今晚作业：临写《兰亭序》前两行");
    expect((await h.call(op, "GET", `/api/admin/live/${id}`)).body.pinnedMessage).toBe(
      "今晚作业：临写《兰亭序》前两行",
    );
    // The teacher speaking in their own room: the message carries the 老师 tag.
    const teacherSaid = await h.call(teacher, "POST", `/api/live/${id}/messages`, { body: "先看起笔" });
    expect(teacherSaid.status).toBe(201);
    expect(teacherSaid.body).toMatchObject({ teacher: true, mine: true, body: "先看起笔" });
  });
});
