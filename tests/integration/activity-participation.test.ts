/**
 * Taking part in an activity over HTTP (decision 044): 报名 with its states, idempotent, cancel
 * and sign up again; the cap under concurrent sign-ups; 打卡 once per China day adding to the
 * practice diary (whose rule pays the day's coins once); frozen accounts refused; the
 * activity's homework handed in by a participant through the homework flow; the learner's list.
 * Run on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { chinaDate } from "../../shared/china-time";
import { frozenAccountMessage } from "../../shared/contracts/me";
import { seedHomework } from "../../api/modules/homework/seed";
import { commerceHarness, DAY, idem, type Learner } from "./commerce";

const { api, db, base, learner, call, later, realNow } = commerceHarness("139");

beforeAll(async () => {
  await seedHomework(api().database);
});

const signUp = (who: Learner | null, token: string) => call(who, "POST", `/api/activities/${token}/signup`, {});
const cancel = (who: Learner, token: string) => call(who, "DELETE", `/api/activities/${token}/signup`, {});
const checkIn = (who: Learner, token: string, body: unknown = {}) =>
  call(who, "POST", `/api/activities/${token}/check-ins`, body);
const mine = (who: Learner, token: string) => call(who, "GET", `/api/activities/${token}/me`);

async function countOf(token: string) {
  return db()
    .selectFrom("activities")
    .select(["id", "signed_up_count", "capacity"])
    .where("token", "=", token)
    .executeTakeFirstOrThrow();
}

/** A fresh running activity of our own with a cap, so tests do not share places. */
let seq = 0;
async function cappedActivity(capacity: number | null, startsInDays = -1, lastsDays = 10) {
  const token = `cap-test-${process.pid}-${++seq}`;
  const now = realNow().getTime();
  await db()
    .insertInto("activities")
    .values({
      token,
      kind: "general",
      title: `测试活动${seq}`,
      body: JSON.stringify([]),
      cover_char: "测",
      starts_at: new Date(now + startsInDays * DAY),
      ends_at: new Date(now + (startsInDays + lastsDays) * DAY),
      course_id: null,
      capacity,
    })
    .execute();
  return token;
}

describe("报名", () => {
  it("asks anonymous visitors to log in, and tells them on the activity what they can do", async () => {
    expect((await signUp(null, "spring-2026")).status).toBe(401);
    const view = await call(null, "GET", "/api/activities/spring-2026/me");
    expect(view.status).toBe(200);
    expect(view.body.signedIn).toBe(false);
    expect(view.body.signUp).toEqual({ allowed: false, reason: "登录后才能报名活动" });
  });

  it("signs up once (again is a no-op), cancels, and signs up again; the count follows", async () => {
    const me = await learner();
    const before = (await countOf("spring-2026")).signed_up_count;
    const first = await signUp(me, "spring-2026");
    expect(first.status).toBe(201);
    expect(first.body.participation.signup.state).toBe("signed_up");
    expect(first.body.participation.signup.stateLabel).toBe("已报名");
    const again = await signUp(me, "spring-2026");
    expect(again.status).toBe(200);
    expect(again.body.message).toBe("你已报名这个活动");
    expect((await countOf("spring-2026")).signed_up_count).toBe(before + 1);

    const cancelled = await cancel(me, "spring-2026");
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.participation.signup.state).toBe("cancelled");
    expect(cancelled.body.participation.signup.stateLabel).toBe("已取消");
    expect((await cancel(me, "spring-2026")).body.message).toBe("报名已经取消了");
    expect((await countOf("spring-2026")).signed_up_count).toBe(before);

    expect((await signUp(me, "spring-2026")).status).toBe(201);
    expect((await countOf("spring-2026")).signed_up_count).toBe(before + 1);
  });

  it("refuses cancelling without a sign-up, signing up for an ended activity, and unknown activities", async () => {
    const me = await learner();
    expect((await cancel(me, "daycourse-2026")).status).toBe(409);
    const ended = await cappedActivity(null, -20, 5);
    const res = await signUp(me, ended);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("活动已结束，报名已关闭");
    expect((await mine(me, ended)).body.signUp.reason).toBe("活动已结束，报名已关闭");
    expect((await signUp(me, "no-such-activity")).status).toBe(404);
  });

  it("never lets more learners in than the cap, also when they sign up at once", async () => {
    const token = await cappedActivity(3);
    const people = await Promise.all(Array.from({ length: 8 }, () => learner()));
    // Two requests per learner: one learner's double click counts once.
    const results = await Promise.all(people.flatMap((p) => [signUp(p, token), signUp(p, token)]));
    const statuses = results.map((r) => r.status);
    const signedUp = people.filter((_, i) => [statuses[2 * i], statuses[2 * i + 1]].includes(201));
    expect(signedUp).toHaveLength(3);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
    const full = results.find((r) => r.status === 409)!;
    expect(full.body.error.message).toBe("名额已满，报名已截止");
    const row = await countOf(token);
    expect(row.signed_up_count).toBe(3);
    const rows = await db()
      .selectFrom("activity_signups")
      .select("user_id")
      .where("activity_id", "=", row.id)
      .where("state", "=", "signed_up")
      .execute();
    expect(rows).toHaveLength(3);
    // A place given back can be taken by someone else.
    expect((await cancel(signedUp[0]!, token)).status).toBe(200);
    const waiting = people.find((p) => !signedUp.includes(p))!;
    expect((await mine(waiting, token)).body.signUp.allowed).toBe(true);
    expect((await signUp(waiting, token)).status).toBe(201);
    expect((await countOf(token)).signed_up_count).toBe(3);
  });
});

describe("打卡", () => {
  it("needs a sign-up and a running activity", async () => {
    const me = await learner();
    const res = await checkIn(me, "spring-2026");
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("报名活动后才能打卡");
    const upcoming = await cappedActivity(null, 5, 5);
    expect((await signUp(me, upcoming)).status).toBe(201);
    expect((await checkIn(me, upcoming)).body.error.message).toBe("活动还没开始，开始后每天可以打卡一次");
  });

  it("adds to today's practice diary once per China day; the diary's rule pays the day's coins once", async () => {
    const me = await learner();
    expect((await signUp(me, "spring-2026")).status).toBe(201);
    expect((await signUp(me, "daycourse-2026")).status).toBe(201);
    const coins = async () => (await call(me, "GET", "/api/wallet")).body.balances.coin as number;
    const start = await coins();

    const first = await checkIn(me, "spring-2026", { minutes: 25, characters: "永和九年", note: "临兰亭第一天" });
    expect(first.status).toBe(201);
    expect(first.body.coins).toBeGreaterThan(0);
    expect(first.body.message).toContain("已记入今天的练字日记");
    expect(first.body.participation.checkedInToday).toBe(true);
    const today = chinaDate(api().now());
    expect(first.body.participation.checkIns).toEqual([today]);
    expect(await coins()).toBe(start + first.body.coins);

    const again = await checkIn(me, "spring-2026", { minutes: 10 });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("今天已经打过卡了，明天再来");

    // Another activity the same day: its own check-in, added to the same diary entry, no second coins.
    const other = await checkIn(me, "daycourse-2026", { minutes: 10, characters: "永天" });
    expect(other.status).toBe(201);
    expect(other.body.coins).toBe(0);
    expect(await coins()).toBe(start + first.body.coins);

    const diary = (await call(me, "GET", "/api/practice/diary")).body;
    const entry = diary.entries.find((e: { date: string }) => e.date === today);
    expect(entry.ownMinutes).toBe(35);
    expect(entry.characters).toBe("永和九年天");
    expect(diary.coinsToday).toBe(true);

    // The next China day is a new day.
    later(DAY);
    const tomorrow = await checkIn(me, "spring-2026", { minutes: 5 });
    expect(tomorrow.status).toBe(201);
    expect(tomorrow.body.participation.checkIns).toEqual([chinaDate(api().now()), today]);
  });

  it("rejects a check-in body it does not understand", async () => {
    const me = await learner();
    expect((await signUp(me, "spring-2026")).status).toBe(201);
    const res = await checkIn(me, "spring-2026", { minutes: -5 });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("练习时长不能是负数");
    expect((await checkIn(me, "spring-2026", { points: 1 })).status).toBe(400);
  });
});

describe("a frozen account", () => {
  it("is refused 报名 and 打卡 with the way to withdraw the deletion", async () => {
    const me = await learner();
    expect((await signUp(me, "spring-2026")).status).toBe(201);
    await db().updateTable("users").set({ status: "deleting" }).where("id", "=", me.id).execute();
    for (const [action, res] of [
      ["报名", await signUp(me, "daycourse-2026")],
      ["打卡", await checkIn(me, "spring-2026", { minutes: 10 })],
    ] as const) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("account_frozen");
      expect(res.body.error.message).toBe(frozenAccountMessage(action));
    }
    const row = await db().selectFrom("practice_diary").select("day").where("user_id", "=", me.id).executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe("临写作业 through the activity", () => {
  it("lets a signed-up participant hand in the activity's lesson homework, and nobody else", async () => {
    const detail = await call(null, "GET", "/api/activities/bmyx-autumn");
    expect(detail.body.homeworkLesson).not.toBeNull();
    expect(detail.body.capacity).toBe(200);
    const lessonId: number = detail.body.homeworkLesson.id;

    const me = await learner();
    const before = await call(me, "GET", `/api/homework/lessons/${lessonId}`);
    expect(before.body.task).not.toBeNull();
    expect(before.body.canSubmit).toEqual({ allowed: false, reason: "报名课程后才能提交作业" });
    expect((await mine(me, "bmyx-autumn")).body.homework).toMatchObject({
      lessonId,
      allowed: false,
      reason: "报名活动后可以提交临写作业",
    });

    expect((await signUp(me, "bmyx-autumn")).status).toBe(201);
    expect((await mine(me, "bmyx-autumn")).body.homework).toMatchObject({ lessonId, allowed: true });
    const after = await call(me, "GET", `/api/homework/lessons/${lessonId}`);
    expect(after.body.canSubmit.allowed).toBe(true);

    // The hand-in itself: a photo uploaded and handed in through the homework endpoints.
    const sharp = (await import("sharp")).default;
    const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#f5efe0" } })
      .jpeg()
      .toBuffer();
    const taskId: number = after.body.task.id;
    const upload = await fetch(`${base()}/api/homework/tasks/${taskId}/photos`, {
      method: "POST",
      headers: { Cookie: me.cookie, Origin: "http://localhost:3000", "Content-Type": "image/jpeg", ...idem() },
      body: jpeg,
    });
    expect(upload.status).toBe(201);
    const photo = (await upload.json()) as { id: string };
    const handedIn = await call(
      me,
      "POST",
      `/api/homework/tasks/${taskId}/submissions`,
      { photoIds: [photo.id] },
      idem(),
    );
    expect(handedIn.status).toBe(201);

    // Cancelling the sign-up takes the right away again (for the next attempt).
    expect((await cancel(me, "bmyx-autumn")).status).toBe(200);
    const gone = await call(me, "GET", `/api/homework/lessons/${lessonId}`);
    expect(gone.body.canSubmit.allowed).toBe(false);
  });
});

describe("GET /api/activities/mine", () => {
  it("lists the learner's sign-ups with state and check-in days", async () => {
    const me = await learner();
    expect((await call(me, "GET", "/api/activities/mine")).body.items).toEqual([]);
    await signUp(me, "spring-2026");
    await signUp(me, "reading-qianziwen");
    await cancel(me, "reading-qianziwen");
    await checkIn(me, "spring-2026", { minutes: 15 });
    const res = await call(me, "GET", "/api/activities/mine");
    expect(res.status).toBe(200);
    expect(
      res.body.items.map((i: { activity: { token: string }; state: string; checkInDays: number }) => [
        i.activity.token,
        i.state,
        i.checkInDays,
      ]),
    ).toEqual([
      ["spring-2026", "signed_up", 1],
      ["reading-qianziwen", "cancelled", 0],
    ]);
    expect(res.body.items[0].checkedInToday).toBe(true);
    expect((await call(null, "GET", "/api/activities/mine")).status).toBe(401);
  });
});
