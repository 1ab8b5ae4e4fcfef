/**
 * Writing the audit log: every staff action, in the same transaction as the change it records,
 * so a change without its entry (or an entry without its change) cannot happen. Actions are
 * dotted English keys ("order.ship", "user.role"); before and after hold only the fields that
 * changed. The actor's nickname and role are copied, as they were at that moment; the server's
 * command line (`npm run user:role` and the like) has no account and is recorded as itself.
 */
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../../db/schema";

/** The actor of a change made on the server's command line. */
export const COMMAND_LINE_ACTOR = { name: "服务器命令行", role: "system" } as const;

export interface AuditRecord {
  /** The staff member's account; null for the server's command line. */
  actorId: number | null;
  action: string;
  targetType: string;
  targetId: string | number | null;
  before?: unknown;
  after?: unknown;
  /** The reason the staff member gave (refused return, stock change, role change…). */
  reason?: string | null;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

export async function recordAudit(db: Kysely<DB> | Transaction<DB>, entry: AuditRecord): Promise<void> {
  const actor =
    entry.actorId === null
      ? { nickname: COMMAND_LINE_ACTOR.name, role: COMMAND_LINE_ACTOR.role }
      : await db
          .selectFrom("users")
          .select(["nickname", "role"])
          .where("id", "=", entry.actorId)
          .executeTakeFirstOrThrow();
  await db
    .insertInto("audit_log")
    .values({
      actor_id: entry.actorId,
      actor_name: actor.nickname,
      actor_role: actor.role,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId === null ? null : String(entry.targetId),
      before: json(entry.before),
      after: json(entry.after),
      reason: entry.reason ?? null,
    })
    .execute();
}
