/** The learner's notices: the latest, the unread count, marking them read (sent through api/notices.ts). */
import { NOTICES_PAGE_SIZE, type NoticeList } from "../../../shared/contracts/me";
import type { ApiContext } from "../../context";

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
