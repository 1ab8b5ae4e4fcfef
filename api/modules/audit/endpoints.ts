/** The audit log for operators (/api/admin/audit): newest first, filtered and paged on the server. */
import { sql } from "kysely";
import { auditQuery, pagedOf, auditEntrySchema, type AuditEntry } from "../../../shared/contracts/staff";
import { chinaDay } from "../../../shared/china-time";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { pageOf } from "../admin/paging";

export function auditEndpoints(ctx: ApiContext): Endpoint[] {
  const { db } = ctx.database;
  return [
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
