/**
 * The audit log for operators (/api/admin/audit): newest first, filtered and paged on the server;
 * and whether its hash chain is whole (/api/admin/audit/chain).
 */
import { sql } from "kysely";
import {
  auditChainSchema,
  auditQuery,
  pagedOf,
  auditEntrySchema,
  type AuditChain,
  type AuditEntry,
} from "../../../shared/contracts/staff";
import { chinaDay } from "../../../shared/china-time";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { pageOf } from "../../list-page";
import { type ChainCheckpoint, verifyAuditChain } from "./chain";

/**
 * How often the console's check reads every row again. Reading 100,000 rows takes about a second
 * on PostgreSQL and a few on the embedded database; between those walks a check reads only the
 * rows added since the last one, in milliseconds. `npm run audit:verify` always reads every row.
 */
export const AUDIT_FULL_CHECK_EVERY_MS = 10 * 60_000;

/** The chain check of this process: one at a time, from the last checkpoint until a full walk is due. */
function chainChecker(ctx: ApiContext): () => Promise<AuditChain> {
  let last: { checkpoint: ChainCheckpoint; fullAt: Date } | null = null;
  let running: Promise<AuditChain> | null = null;
  const check = async (): Promise<AuditChain> => {
    const { db } = ctx.database;
    const now = ctx.now();
    const since =
      last && now >= last.fullAt && now.getTime() - last.fullAt.getTime() < AUDIT_FULL_CHECK_EVERY_MS ? last : null;
    let fullAt = since?.fullAt ?? now;
    let result = await verifyAuditChain(db, since?.checkpoint);
    // A break found from a checkpoint is named by a full walk: it may lie before the checkpoint.
    if (result.broken && since) {
      result = await verifyAuditChain(db);
      fullAt = now;
    }
    last = result.checkpoint ? { checkpoint: result.checkpoint, fullAt } : null;
    const { broken } = result;
    return {
      intact: broken === null,
      count: result.count,
      broken: broken && { ...broken, at: broken.at?.toISOString() ?? null },
      fullCheckAt: fullAt.toISOString(),
    };
  };
  return () => (running ??= check().finally(() => (running = null)));
}

export function auditEndpoints(ctx: ApiContext): Endpoint[] {
  const { db } = ctx.database;
  const checkChain = chainChecker(ctx);
  return [
    defineEndpoint({
      method: "get",
      path: "/admin/audit/chain",
      summary: "审计日志完整性：逐条核对哈希链，指出第一条被改动或删除的记录",
      tag: "admin",
      auth: true,
      role: "operator",
      output: auditChainSchema,
      handler: async (_req, res) => {
        res.json(await checkChain());
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/admin/audit",
      summary: "审计日志：员工操作记录（按人、操作、对象、日期与关键词筛选）",
      tag: "admin",
      auth: true,
      role: "operator",
      query: auditQuery,
      output: pagedOf(auditEntrySchema),
      handler: async (_req, res, { query }) => {
        let q = db.selectFrom("audit_log").selectAll();
        if (query.actor) q = q.where("actor_id", "=", query.actor);
        if (query.action) q = q.where("action", "like", `${query.action.replace(/_/g, "\\_")}%`);
        if (query.targetType) q = q.where("target_type", "=", query.targetType);
        if (query.targetId) q = q.where("target_id", "=", query.targetId);
        if (query.from) q = q.where("created_at", ">=", chinaDay(`${query.from}T00:00:00+08:00`).start);
        if (query.to) q = q.where("created_at", "<", chinaDay(`${query.to}T00:00:00+08:00`).end);
        if (query.q) {
          const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
          q = q.where((eb) =>
            eb.or([
              eb("actor_name", "ilike", like),
              eb("action", "ilike", like),
              eb("target_id", "ilike", like),
              eb("reason", "ilike", like),
              eb(sql<string>`coalesce(before::text, '') || coalesce(after::text, '')`, "ilike", like),
            ]),
          );
        }
        const page = await pageOf(q, query, {
          sortable: { at: "created_at", actor: "actor_name", action: "action" },
          defaultSort: "at",
          tieBreak: "id",
        });
        const rows: AuditEntry[] = page.rows.map((r) => ({
          id: r.id,
          at: r.created_at.toISOString(),
          actorId: r.actor_id,
          actorName: r.actor_name,
          actorRole: r.actor_role,
          action: r.action,
          targetType: r.target_type,
          targetId: r.target_id,
          before: r.before,
          after: r.after,
          reason: r.reason,
        }));
        res.json({ ...page, rows });
      },
    }),
  ];
}
