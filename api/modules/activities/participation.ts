/**
 * Taking part in an activity (decision 044): 报名 with a state (已报名 / 已取消), a cap kept by a
 * guarded update of the activity's count, 打卡 at most once per China day that adds to today's
 * practice-diary entry through the diary's own function (the diary's rules pay the day's coins),
 * and the activity's 临写作业: a signed-up participant of a running activity may hand in the
 * homework of the activity's lesson through the homework flow.
 */
import type { Kysely, Transaction } from "kysely";
import { activityCheckInRule, activitySignUpRule } from "../../../shared/action-rules";
import { chinaDate } from "../../../shared/china-time";
import {
  type ActivityCheckInInput,
  type MyActivities,
  type Participation,
  activityCheckInSchema,
  activityStateAt,
  signupStates,
} from "../../../shared/contracts/activities";
import { refuseWhileFrozen } from "../../account-freeze";
import type { ApiContext } from "../../context";
import type { DB, User } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { addToDiary } from "../practice/diary";

type Db = Kysely<DB> | Transaction<DB>;

export const ACTIVITY_NOT_FOUND = "活动不存在或已下线";

async function activityRow(db: Db, token: string) {
  const row = await db
    .selectFrom("activities as a")
    .leftJoin("lessons as l", "l.id", "a.homework_lesson_id")
    .select([
      "a.id",
      "a.token",
      "a.starts_at",
      "a.ends_at",
      "a.capacity",
      "a.signed_up_count",
      "a.homework_lesson_id",
      "l.title as lesson_title",
    ])
    .where("a.token", "=", token)
    .executeTakeFirst();
  if (!row) throw notFound(ACTIVITY_NOT_FOUND);
  return row;
}
type ActivityRow = Awaited<ReturnType<typeof activityRow>>;

const stateOf = (row: Pick<ActivityRow, "starts_at" | "ends_at">, now: Date) =>
  activityStateAt(new Date(row.starts_at), new Date(row.ends_at), now);

const rule = (r: { ok: true } | { ok: false; reason: string }, yes: string) =>
  r.ok ? { allowed: true, reason: yes } : { allowed: false, reason: r.reason };

async function participationOf(db: Db, row: ActivityRow, user: User | null, now: Date): Promise<Participation> {
  const state = stateOf(row, now);
  const today = chinaDate(now);
  const signup = user
    ? await db
        .selectFrom("activity_signups")
        .select(["state", "created_at"])
        .where("activity_id", "=", row.id)
        .where("user_id", "=", user.id)
        .executeTakeFirst()
    : undefined;
  const checkIns = user
    ? (
        await db
          .selectFrom("activity_check_ins")
          .select("day")
          .where("activity_id", "=", row.id)
          .where("user_id", "=", user.id)
          .orderBy("day", "desc")
          .execute()
      ).map((c) => c.day)
    : [];
  const signedUp = signup?.state === "signed_up";
  const checkedInToday = checkIns.includes(today);
  const signedIn = user !== null;
  const cancel = !signedIn
    ? { allowed: false, reason: "登录后才能报名活动" }
    : !signedUp
      ? { allowed: false, reason: "你还没有报名这个活动" }
      : state === "ended"
        ? { allowed: false, reason: "活动已结束" }
        : { allowed: true, reason: "可以取消报名" };
  return {
    signedIn,
    signup: signup
      ? {
          state: signup.state,
          stateLabel: signupStates[signup.state],
          since: new Date(signup.created_at).toISOString(),
        }
      : null,
    signUp: rule(
      activitySignUpRule({
        signedIn,
        state,
        signedUp,
        capacity: row.capacity,
        signedUpCount: row.signed_up_count,
      }),
      "可以报名",
    ),
    cancel,
    checkIn: rule(activityCheckInRule({ signedIn, state, signedUp, checkedInToday }), "今天可以打卡"),
    checkIns,
    checkedInToday,
    homework:
      row.homework_lesson_id === null
        ? null
        : {
            lessonId: row.homework_lesson_id,
            lessonTitle: row.lesson_title ?? "",
            ...homeworkRule(signedIn, signedUp, state),
          },
    capacity: row.capacity,
    signedUpCount: row.signed_up_count,
  };
}

function homeworkRule(signedIn: boolean, signedUp: boolean, state: "upcoming" | "ongoing" | "ended") {
  if (!signedIn) return { allowed: false, reason: "登录并报名后可以提交临写作业" };
  if (!signedUp) return { allowed: false, reason: "报名活动后可以提交临写作业" };
  if (state === "upcoming") return { allowed: false, reason: "活动开始后可以提交临写作业" };
  if (state === "ended") return { allowed: false, reason: "活动已结束，不能再提交临写作业" };
  return { allowed: true, reason: "可以提交临写作业" };
}

export async function participation(ctx: ApiContext, user: User | null, token: string): Promise<Participation> {
  const db = ctx.database.db;
  const now = ctx.now();
  return participationOf(db, await activityRow(db, token), user, now);
}

/**
 * 报名: idempotent (signing up again changes nothing), a cancelled sign-up can sign up again.
 * The sign-up row is written first (its primary key serialises one learner's racing requests),
 * then the activity's count is raised by an update guarded by the cap; when no place is left
 * the transaction rolls back and the learner is told the activity is full.
 */
export async function signUp(
  ctx: ApiContext,
  user: User,
  token: string,
): Promise<{ created: boolean; participation: Participation; message: string }> {
  refuseWhileFrozen(user, "报名");
  const now = ctx.now();
  const created = await ctx.database.db.transaction().execute(async (trx) => {
    const row = await activityRow(trx, token);
    if (stateOf(row, now) === "ended") throw new ApiError(409, "activity_closed", "活动已结束，报名已关闭");
    const changed = await trx
      .insertInto("activity_signups")
      .values({ activity_id: row.id, user_id: user.id, state: "signed_up", created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc
          .columns(["activity_id", "user_id"])
          .doUpdateSet({ state: "signed_up", updated_at: now })
          .where("activity_signups.state", "=", "cancelled"),
      )
      .returning("user_id")
      .executeTakeFirst();
    if (!changed) return false;
    const counted = await trx
      .updateTable("activities")
      .set((eb) => ({ signed_up_count: eb("signed_up_count", "+", 1) }))
      .where("id", "=", row.id)
      .where((eb) => eb.or([eb("capacity", "is", null), eb("signed_up_count", "<", eb.ref("capacity"))]))
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) === 0) throw new ApiError(409, "activity_full", "名额已满，报名已截止");
    return true;
  });
  const view = await participation(ctx, user, token);
  return {
    created,
    participation: view,
    message: created ? "报名成功，活动期间每天可以打卡一次" : "你已报名这个活动",
  };
}

/** 取消报名: the place is given back; cancelling twice changes nothing. Closed once the activity ended. */
export async function cancelSignup(
  ctx: ApiContext,
  user: User,
  token: string,
): Promise<{ participation: Participation; message: string }> {
  const now = ctx.now();
  const cancelled = await ctx.database.db.transaction().execute(async (trx) => {
    const row = await activityRow(trx, token);
    if (stateOf(row, now) === "ended") throw new ApiError(409, "activity_closed", "活动已结束，不能再取消报名");
    const existing = await trx
      .selectFrom("activity_signups")
      .select("state")
      .where("activity_id", "=", row.id)
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    if (!existing) throw new ApiError(409, "not_signed_up", "你还没有报名这个活动");
    const changed = await trx
      .updateTable("activity_signups")
      .set({ state: "cancelled", updated_at: now })
      .where("activity_id", "=", row.id)
      .where("user_id", "=", user.id)
      .where("state", "=", "signed_up")
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) return false;
    await trx
      .updateTable("activities")
      .set((eb) => ({ signed_up_count: eb("signed_up_count", "-", 1) }))
      .where("id", "=", row.id)
      .execute();
    return true;
  });
  return {
    participation: await participation(ctx, user, token),
    message: cancelled ? "已取消报名" : "报名已经取消了",
  };
}

/**
 * 打卡: once per China day per activity, for a signed-up learner while the activity runs. What
 * was practised goes into today's practice-diary entry in the same transaction, and the diary's
 * daily check-in pays its coins by its own rule (at most once a day, whatever wrote first).
 */
export async function checkIn(
  ctx: ApiContext,
  user: User,
  token: string,
  raw: ActivityCheckInInput,
): Promise<{ participation: Participation; coins: number; message: string }> {
  refuseWhileFrozen(user, "打卡");
  const input = activityCheckInSchema.parse(raw);
  const now = ctx.now();
  const today = chinaDate(now);
  const paid = await ctx.database.db.transaction().execute(async (trx) => {
    const row = await activityRow(trx, token);
    const signup = await trx
      .selectFrom("activity_signups")
      .select("state")
      .where("activity_id", "=", row.id)
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    const verdict = activityCheckInRule({
      signedIn: true,
      state: stateOf(row, now),
      signedUp: signup?.state === "signed_up",
      checkedInToday: false,
    });
    if (!verdict.ok) throw new ApiError(409, "check_in_refused", verdict.reason);
    const inserted = await trx
      .insertInto("activity_check_ins")
      .values({ activity_id: row.id, user_id: user.id, day: today, note: input.note, created_at: now })
      .onConflict((oc) => oc.columns(["activity_id", "user_id", "day"]).doNothing())
      .returning("day")
      .executeTakeFirst();
    if (!inserted) throw new ApiError(409, "already_checked_in", "今天已经打过卡了，明天再来");
    return addToDiary(
      trx,
      user.id,
      today,
      { minutes: input.minutes, characters: input.characters, source: "activity" },
      now,
    );
  });
  return {
    participation: await participation(ctx, user, token),
    coins: paid.coins,
    message:
      paid.coins > 0 ? `打卡成功，已记入今天的练字日记，获得 ${paid.coins} 金币` : "打卡成功，已记入今天的练字日记",
  };
}

/** The learner's activities for the personal centre: every sign-up (current first) with its check-ins. */
export async function myActivities(ctx: ApiContext, userId: number): Promise<MyActivities> {
  const db = ctx.database.db;
  const now = ctx.now();
  const today = chinaDate(now);
  const rows = await db
    .selectFrom("activity_signups as s")
    .innerJoin("activities as a", "a.id", "s.activity_id")
    .select([
      "a.id",
      "a.token",
      "a.kind",
      "a.title",
      "a.summary",
      "a.cover_char",
      "a.starts_at",
      "a.ends_at",
      "a.homework_lesson_id",
      "s.state",
      "s.created_at",
    ])
    .where("s.user_id", "=", userId)
    .orderBy("s.state", "desc")
    .orderBy("a.ends_at", "desc")
    .orderBy("a.id")
    .execute();
  const ids = rows.map((r) => r.id);
  const checkIns = ids.length
    ? await db
        .selectFrom("activity_check_ins")
        .select(["activity_id", "day"])
        .where("user_id", "=", userId)
        .where("activity_id", "in", ids)
        .orderBy("day", "desc")
        .execute()
    : [];
  return {
    items: rows.map((r) => {
      const days = checkIns.filter((c) => c.activity_id === r.id).map((c) => c.day);
      const startsAt = new Date(r.starts_at);
      const endsAt = new Date(r.ends_at);
      return {
        activity: {
          token: r.token,
          kind: r.kind,
          title: r.title,
          summary: r.summary,
          coverChar: r.cover_char,
          startsAt: startsAt.toISOString(),
          endsAt: endsAt.toISOString(),
          state: activityStateAt(startsAt, endsAt, now),
        },
        state: r.state,
        stateLabel: signupStates[r.state],
        signedUpAt: new Date(r.created_at).toISOString(),
        checkInDays: days.length,
        lastCheckIn: days[0] ?? null,
        checkedInToday: days[0] === today,
        homeworkLessonId: r.homework_lesson_id,
      };
    }),
  };
}

/**
 * Whether the learner may hand in the homework of `lessonId` because they take part in an
 * activity whose homework lesson it is: signed up and the activity running (decision 044).
 */
export async function activityGrantsHomework(db: Db, userId: number, lessonId: number, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom("activities as a")
    .innerJoin("activity_signups as s", "s.activity_id", "a.id")
    .select("a.id")
    .where("a.homework_lesson_id", "=", lessonId)
    .where("s.user_id", "=", userId)
    .where("s.state", "=", "signed_up")
    .where("a.starts_at", "<=", now)
    .where("a.ends_at", ">", now)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}
