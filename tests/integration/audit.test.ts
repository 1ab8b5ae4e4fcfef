/** The audit log: written with the change, never rewritten, read by operators with filters. */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { recordAudit } from "../../api/modules/audit/record";
import { commerceHarness } from "./commerce";

const h = commerceHarness("134");

describe("audit log", () => {
  it("keeps who did what, before and after, and refuses updates and deletes", async () => {
    const operator = await h.learner("operator");
    await recordAudit(h.db(), {
      actorId: operator.id,
      action: "order.ship",
      targetType: "order",
      targetId: "MC2026",
      before: { state: "paid" },
      after: { state: "shipped", carrier: "顺丰" },
    });
    const row = await h
      .db()
      .selectFrom("audit_log")
      .selectAll()
      .where("target_id", "=", "MC2026")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ actor_id: operator.id, actor_role: "operator", action: "order.ship" });
    expect(row.after).toEqual({ state: "shipped", carrier: "顺丰" });
    await expect(sql`update audit_log set action = 'x' where id = ${row.id}`.execute(h.db())).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from audit_log where id = ${row.id}`.execute(h.db())).rejects.toThrow(/append-only/);
  });

  it("filters by action prefix, target and text, sorts and pages on the server", async () => {
    const operator = await h.learner("operator");
    for (let i = 0; i < 25; i++) {
      await recordAudit(h.db(), {
        actorId: operator.id,
        action: i % 2 ? "course.update" : "coupon.issue",
        targetType: i % 2 ? "course" : "coupon",
        targetId: String(1000 + i),
        after: { n: i },
        reason: i === 7 ? "价格调整" : null,
      });
    }
    const courses = await h.call(operator, "GET", "/api/admin/audit?action=course&pageSize=20");
    expect(courses.status).toBe(200);
    expect(courses.body.total).toBe(12);
    expect(courses.body.rows.every((r: { action: string }) => r.action === "course.update")).toBe(true);

    // "co" matches both course.update and coupon.issue: 25 rows, the second page holds the last 5.
    const second = await h.call(operator, "GET", "/api/admin/audit?action=co&page=2&pageSize=20&sort=at&dir=asc");
    expect(second.body.total).toBe(25);
    expect(second.body.rows.map((r: { targetId: string }) => r.targetId)).toEqual([
      "1020",
      "1021",
      "1022",
      "1023",
      "1024",
    ]);

    const byReason = await h.call(operator, "GET", `/api/admin/audit?q=${encodeURIComponent("价格")}`);
    expect(byReason.body.rows.map((r: { targetId: string }) => r.targetId)).toEqual(["1007"]);

    const bad = await h.call(operator, "GET", "/api/admin/audit?pageSize=7");
    expect(bad.status).toBe(400);
  });
});
