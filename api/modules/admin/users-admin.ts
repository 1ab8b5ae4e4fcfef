/**
 * Learners and staff, for operators: search and an account's detail, and the changes — disable
 * (every session ends at once, and signing in is refused with 该账号已停用), enable, end the
 * sessions, grant or revoke the teacher and operator roles (the rule of the command line's
 * user:role, accounts-admin.ts). Each change is a compare-and-set with its audit record in one
 * transaction; an operator cannot disable themselves or take away their own operator role.
 */
import type { Kysely, Transaction } from "kysely";
import type {
  AdminUserDetail,
  AdminUserPage,
  AdminUserQuery,
  AdminUserRoleInput,
} from "../../../shared/contracts/admin-users";
import { orderStateLabel } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import type { DB, User } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { recordAudit } from "../audit/record";
import { liveSessions } from "../auth/sessions";
import { resetTwoFactor, twoFactorEnabled } from "../auth/two-factor";
import { roleAfter } from "./accounts-admin";
import { likeEscaped } from "./orders-admin";
import { INT4_MAX } from "../../../shared/ids";

const conflict = (code: string, message: string) => new ApiError(409, code, message);
const userNotFound = () => notFound("账号不存在");

const SORT_COLUMNS = { createdAt: "users.created_at", id: "users.id", nickname: "users.nickname" } as const;

export async function listAdminUsers(ctx: ApiContext, query: AdminUserQuery): Promise<AdminUserPage> {
  const { db } = ctx.database;
  let base = db.selectFrom("users");
  if (query.q) {
    const text = query.q.trim();
    const digits = text.replace(/[\s-]/g, "");
    base = base.where((eb) => {
      const any = [eb("users.nickname", "ilike", `%${likeEscaped(text)}%`)];
      if (/^\d{1,10}$/.test(digits) && Number(digits) <= INT4_MAX) any.push(eb("users.id", "=", Number(digits)));
      if (/^\d{3,11}$/.test(digits)) any.push(eb("users.phone", "like", `${digits}%`));
      if (text.includes("@") || /^[\w.+-]{3,}$/.test(text))
        any.push(eb("users.email", "like", `${likeEscaped(text.toLowerCase())}%`));
      return eb.or(any);
    });
  }
  if (query.role) base = base.where("users.role", "=", query.role);
  if (query.status) base = base.where("users.status", "=", query.status);
  const column = SORT_COLUMNS[query.sort ?? "createdAt"];
  const [rows, count] = await Promise.all([
    base
      .select([
        "users.id",
        "users.nickname",
        "users.phone",
        "users.email",
        "users.role",
        "users.status",
        "users.created_at",
      ])
      .select((eb) =>
        eb
          .selectFrom("orders")
          .select((o) => o.fn.countAll<string>().as("n"))
          .whereRef("orders.user_id", "=", "users.id")
          .as("orders"),
      )
      .orderBy(column, query.dir)
      .orderBy("users.id", query.dir)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      nickname: r.nickname,
      phone: r.phone,
      email: r.email,
      role: r.role,
      status: r.status,
      createdAt: r.created_at.toISOString(),
      orders: Number(r.orders ?? 0),
    })),
    total: Number(count.n),
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function userOf(db: Pick<Transaction<DB>, "selectFrom">, id: number): Promise<User> {
  const user = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  if (!user) throw userNotFound();
  return user;
}

const viewOf = async (db: Kysely<DB>, u: User): Promise<AdminUserDetail["user"]> => ({
  id: u.id,
  nickname: u.nickname,
  phone: u.phone,
  email: u.email,
  role: u.role,
  status: u.status,
  gender: u.gender,
  region: u.region,
  createdAt: u.created_at.toISOString(),
  updatedAt: u.updated_at.toISOString(),
  twoFactor: await twoFactorEnabled(db, u.id),
});

export async function adminUserDetail(ctx: ApiContext, operatorId: number, id: number): Promise<AdminUserDetail> {
  const { db } = ctx.database;
  const now = ctx.now();
  const user = await userOf(db, id);
  const [recent, totals, courses, sessions] = await Promise.all([
    db
      .selectFrom("orders")
      .select(["order_no", "title", "pay_cents", "purpose", "state", "created_at"])
      .where("user_id", "=", id)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(10)
      .execute(),
    db
      .selectFrom("orders")
      .select((eb) => [
        eb.fn.countAll<string>().as("n"),
        eb.fn.coalesce(eb.fn.sum<string>("pay_cents"), eb.lit(0)).as("paid"),
      ])
      .where("user_id", "=", id)
      .where("paid_at", "is not", null)
      .executeTakeFirst(),
    db
      .selectFrom("enrolments")
      .innerJoin("courses", "courses.id", "enrolments.course_id")
      .select(["courses.id", "courses.title", "enrolments.source", "enrolments.created_at"])
      .where("enrolments.user_id", "=", id)
      .orderBy("enrolments.created_at", "desc")
      .limit(50)
      .execute(),
    liveSessions(db, user, now)
      .select(["id_hash", "user_agent", "ip", "created_at", "last_seen_at"])
      .orderBy("last_seen_at", "desc")
      .limit(20)
      .execute(),
  ]);
  const allOrders = await db
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", id)
    .executeTakeFirst();
  return {
    user: await viewOf(db, user),
    orders: {
      total: Number(allOrders?.n ?? 0),
      paidCents: Number(totals?.paid ?? 0),
      recent: recent.map((o) => ({
        orderNo: o.order_no,
        title: o.title,
        payCents: o.pay_cents,
        stateLabel: orderStateLabel(o.purpose, o.state),
        createdAt: o.created_at.toISOString(),
      })),
    },
    courses: courses.map((c) => ({
      id: c.id,
      title: c.title,
      source: c.source,
      createdAt: c.created_at.toISOString(),
    })),
    // Only a short prefix of the stored hash: enough to tell sessions apart, never usable.
    sessions: sessions.map((s) => ({
      id: s.id_hash.slice(0, 8),
      userAgent: s.user_agent,
      ip: s.ip,
      createdAt: s.created_at.toISOString(),
      lastSeenAt: s.last_seen_at.toISOString(),
    })),
    self: operatorId === id,
  };
}

async function endSessions(trx: Transaction<DB>, userId: number, at: Date): Promise<number> {
  const rows = await trx
    .updateTable("sessions")
    .set({ revoked_at: at })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .returning("id_hash")
    .execute();
  return rows.length;
}

export interface UserChange {
  user: AdminUserDetail["user"];
  changed: boolean;
  sessionsEnded: number;
}

/** Disable (sessions end with it) or enable an account; disabling oneself is refused. */
export async function setUserStatus(
  ctx: ApiContext,
  operatorId: number,
  id: number,
  to: "disabled" | "active",
  reason: string,
): Promise<UserChange> {
  if (to === "disabled" && id === operatorId) throw conflict("self_change", "不能停用自己的账号");
  const now = ctx.now();
  const from = to === "disabled" ? "active" : "disabled";
  return ctx.database.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable("users")
      .set({ status: to, updated_at: now })
      .where("id", "=", id)
      .where("status", "=", from)
      .returningAll()
      .executeTakeFirst();
    if (!moved) {
      const user = await userOf(trx, id);
      if (user.status === to) return { user: await viewOf(trx, user), changed: false, sessionsEnded: 0 };
      throw conflict("status_not_changeable", "注销中或已注销的账号不能停用或启用");
    }
    const sessionsEnded = to === "disabled" ? await endSessions(trx, id, now) : 0;
    await recordAudit(trx, {
      actorId: operatorId,
      action: to === "disabled" ? "user.disable" : "user.enable",
      targetType: "user",
      targetId: String(id),
      before: { status: from },
      after: { status: to, ...(sessionsEnded ? { sessionsEnded } : {}) },
      reason,
    });
    return { user: await viewOf(trx, moved), changed: true, sessionsEnded };
  });
}

/** Ends every session of the account (it must sign in again). */
export async function revokeUserSessionsByOperator(
  ctx: ApiContext,
  operatorId: number,
  id: number,
): Promise<UserChange> {
  if (id === operatorId) throw conflict("self_change", "请在个人中心的账号安全里管理自己的登录设备");
  const now = ctx.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    const user = await userOf(trx, id);
    const sessionsEnded = await endSessions(trx, id, now);
    await recordAudit(trx, {
      actorId: operatorId,
      action: "user.sessions.revoke",
      targetType: "user",
      targetId: String(id),
      after: { sessionsEnded },
    });
    return { user: await viewOf(trx, user), changed: sessionsEnded > 0, sessionsEnded };
  });
}

/** Grants or revokes teacher/operator; an operator cannot take away their own operator role. */
export async function changeUserRole(
  ctx: ApiContext,
  operatorId: number,
  id: number,
  input: AdminUserRoleInput,
): Promise<UserChange> {
  const now = ctx.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    const user = await userOf(trx, id);
    const after = roleAfter(user.role, input.action === "grant" ? { grant: input.role } : { revoke: input.role });
    if (id === operatorId && after !== "operator") throw conflict("self_change", "不能撤销自己的运营角色");
    if (after === user.role) return { user: await viewOf(trx, user), changed: false, sessionsEnded: 0 };
    const moved = await trx
      .updateTable("users")
      .set({ role: after, updated_at: now })
      .where("id", "=", id)
      .where("role", "=", user.role)
      .returningAll()
      .executeTakeFirst();
    if (!moved) throw conflict("user_changed", "账号已被修改，请刷新后再试");
    await recordAudit(trx, {
      actorId: operatorId,
      action: input.action === "grant" ? "user.role.grant" : "user.role.revoke",
      targetType: "user",
      targetId: String(id),
      before: { role: user.role },
      after: { role: after },
    });
    return { user: await viewOf(trx, moved), changed: true, sessionsEnded: 0 };
  });
}

/**
 * Turns off another account's two-factor login (its phone was lost). The owner signs in with the
 * first factor alone and sets it up again (an operator of the `pro` site must, before anything
 * else). One's own is turned off in the personal centre, with a code.
 */
export async function resetTwoFactorByOperator(
  ctx: ApiContext,
  operatorId: number,
  id: number,
  reason: string,
): Promise<UserChange> {
  if (id === operatorId) throw conflict("self_change", "请在个人中心的账号安全里管理自己的两步验证");
  const now = ctx.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    const user = await userOf(trx, id);
    const changed = await resetTwoFactor(trx, id, now);
    if (changed)
      await recordAudit(trx, {
        actorId: operatorId,
        action: "user.two_factor.reset",
        targetType: "user",
        targetId: String(id),
        before: { twoFactor: true },
        after: { twoFactor: false },
        reason,
      });
    return { user: await viewOf(trx, user), changed, sessionsEnded: 0 };
  });
}
