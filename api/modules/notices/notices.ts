/**
 * The notice service: the one way a notice is sent (`notify`, or `notifyEach` for a notice per
 * row of a query) and the learner's reading of them. Senders own their kinds and wording
 * (security, orders, gifts, groups, live lessons); a notice written inside a caller's
 * transaction is sent with its change or not at all.
 */
import type { Kysely, SelectQueryBuilder, Transaction } from "kysely";
import { NOTICES_PAGE_SIZE, type NoticeList } from "../../../shared/contracts/me";
import type { ApiContext } from "../../context";
import type { DB } from "../../db/schema";

/** Where a notice is written: the context (its own statement) or a caller's transaction or connection. */
export type NoticeTarget = ApiContext | Kysely<DB> | Transaction<DB>;

/** One notice row as `notifyEach` inserts them. */
export interface NoticeRow {
  user_id: number;
  kind: string;
  title: string;
  body: string;
  created_at: Date;
}

const writerOf = (to: NoticeTarget): Kysely<DB> => ("database" in to ? to.database.db : to);

/**
 * Sends one notice. `at` is the caller's clock (the move it tells of); without it the database's
 * time stamps the notice.
 */
export async function notify(
  to: NoticeTarget,
  userId: number,
  kind: string,
  title: string,
  body = "",
  at?: Date,
): Promise<void> {
  await writerOf(to)
    .insertInto("notifications")
    .values({ user_id: userId, kind, title, body, ...(at ? { created_at: at } : {}) })
    .execute();
}

/** Sends a notice per row of `rows` in one statement (everyone who booked a live lesson, say). */
export async function notifyEach(
  to: NoticeTarget,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any tables may feed the rows
  rows: SelectQueryBuilder<DB, any, NoticeRow>,
): Promise<void> {
  await writerOf(to)
    .insertInto("notifications")
    .columns(["user_id", "kind", "title", "body", "created_at"])
    .expression(rows)
    .execute();
}

export async function unreadCount(ctx: ApiContext, userId: number): Promise<number> {
  const row = await ctx.database.db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The latest notices, newest first, and how many are unread in all. */
export async function listNotices(ctx: ApiContext, userId: number): Promise<NoticeList> {
  const rows = await ctx.database.db
    .selectFrom("notifications")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(NOTICES_PAGE_SIZE)
    .execute();
  return {
    items: rows.map((n) => ({
      id: n.id,
      kind: n.kind,
      title: n.title,
      body: n.body,
      createdAt: n.created_at.toISOString(),
      read: n.read_at !== null,
    })),
    unread: await unreadCount(ctx, userId),
  };
}

/** Marks the learner's own notices read (the given ones, or all); others' ids change nothing. */
export async function markNoticesRead(ctx: ApiContext, userId: number, ids?: number[]): Promise<number> {
  let query = ctx.database.db
    .updateTable("notifications")
    .set({ read_at: ctx.now() })
    .where("user_id", "=", userId)
    .where("read_at", "is", null);
  if (ids) query = query.where("id", "in", ids);
  await query.execute();
  return unreadCount(ctx, userId);
}
