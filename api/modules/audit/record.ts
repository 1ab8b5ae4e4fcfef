/**
 * Writing the audit log: every staff action, in the same transaction as the change it records,
 * so a change without its entry (or an entry without its change) cannot happen. Actions are
 * dotted English keys ("order.ship", "user.role"); before and after hold only the fields that
 * changed. The actor's nickname and role are copied, as they were at that moment.
 */
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../../db/schema";

export interface AuditRecord {
  actorId: number;
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
  const actor = await db
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
