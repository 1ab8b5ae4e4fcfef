/**
 * The notice service: the one way a notice is sent, `notify` (or `notifyEach` for a notice per
 * row of a query). Senders own their kinds and wording (security, orders, gifts, groups, live
 * lessons); a notice written inside a caller's transaction is sent with its change or not at
 * all. The learner reads them through api/modules/notices.
 */
import type { Kysely, SelectQueryBuilder, Transaction } from "kysely";
import type { ApiContext } from "./context";
import type { DB } from "./db/schema";

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
