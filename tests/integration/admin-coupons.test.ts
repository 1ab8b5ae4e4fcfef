/**
 * The operator's coupons and group-buy campaigns over HTTP: templates created, edited and
 * retired; issuing by phone, e-mail and id, once per batch even when the batch is sent twice at
 * the same moment, never past the total; campaigns created, edited and ended; every action in the
 * audit log. PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { commerceHarness, DAY } from "./commerce";

const { db, call, learner, paidCourse, realNow } = commerceHarness("157");

const amountTemplate = (over: Record<string, unknown> = {}) => ({
  title: "运营满减券",
  kind: "amount",
  amountOffCents: 1000,
  thresholdCents: 9900,
  scope: "all",
  validDays: 7,
  totalQuantity: 3,
  perUserLimit: 1,
  claimable: true,
  ...over,
});

async function actions(targetType: string, targetId: number) {
  const rows = await db()
    .selectFrom("audit_log")
    .select(["action", "actor_id"])
    .where("target_type", "=", targetType)
    .where("target_id", "=", String(targetId))
    .orderBy("id")
    .execute();
  return rows.map((r) => r.action);
}

describe("coupon templates", () => {
  it("are for operators only", async () => {
    const student = await learner();
    expect((await call(null, "GET", "/api/admin/coupons")).status).toBe(401);
    expect((await call(student, "GET", "/api/admin/coupons")).status).toBe(403);
    expect((await call(student, "POST", "/api/admin/coupons", amountTemplate())).status).toBe(403);
    expect((await call(student, "GET", "/api/admin/campaigns")).status).toBe(403);
  });

  it("creates, validates, edits and retires a template; the claim centre follows", async () => {
    const op = await learner("operator");
    const created = await call(op, "POST", "/api/admin/coupons", amountTemplate());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ headline: "满 99 减 10", claimedCount: 0, totalQuantity: 3, retiredAt: null });
    const id = created.body.id as number;

    for (const [body, message] of [
      [amountTemplate({ amountOffCents: 0 }), "满减券请填写减免金额"],
      [amountTemplate({ kind: "percent", percentOff: 0 }), "折扣券请填写折扣"],
      [amountTemplate({ validDays: null }), "有效天数或截止时间"],
      [amountTemplate({ scopeRefId: 3 }), "全场通用的券不能指定商品"],
    ] as const) {
      const res = await call(op, "POST", "/api/admin/coupons", body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    }

    const edited = await call(
      op,
      "PUT",
      `/api/admin/coupons/${id}`,
      amountTemplate({ kind: "percent", percentOff: 15, title: "运营折扣券" }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ headline: "满 99 元 8.5 折", amountOffCents: 0, title: "运营折扣券" });
    const centre = await call(null, "GET", "/api/coupons/templates");
    expect(JSON.stringify(centre.body)).toContain("运营折扣券");

    const retired = await call(op, "POST", `/api/admin/coupons/${id}/retire`);
    expect(retired.status).toBe(200);
    expect(retired.body.retiredAt).not.toBeNull();
    expect((await call(op, "POST", `/api/admin/coupons/${id}/retire`)).status).toBe(409);
    expect((await call(op, "PUT", `/api/admin/coupons/${id}`, amountTemplate())).status).toBe(409);
    const after = await call(null, "GET", "/api/coupons/templates");
    expect(JSON.stringify(after.body)).not.toContain("运营折扣券");
    const who = await learner();
    expect((await call(who, "POST", `/api/coupons/templates/${id}/claim`)).status).toBe(404);

    const list = await call(op, "GET", "/api/admin/coupons?status=retired&pageSize=100");
    expect(list.body.rows.map((r: { id: number }) => r.id)).toContain(id);
    expect(await actions("coupon_template", id)).toEqual([
      "coupon.template.create",
      "coupon.template.update",
      "coupon.template.retire",
    ]);
  });

  it("issues once per batch by phone, e-mail and id, never past the total", async () => {
    const op = await learner("operator");
    const t = await call(op, "POST", "/api/admin/coupons", amountTemplate({ totalQuantity: 3, claimable: false }));
    const id = t.body.id as number;
    const a = await learner();
    const b = await learner();
    const c = await learner();
    const email = `issue-${randomUUID().slice(0, 8)}@mochi.test`;
    await db().updateTable("users").set({ email }).where("id", "=", b.id).execute();
    const phoneA = (await db().selectFrom("users").select("phone").where("id", "=", a.id).executeTakeFirstOrThrow())
      .phone!;
    const recipients = `${phoneA}\n${email.toUpperCase()}，${c.id}\n13000000000\nnot-a-thing`;

    const key = randomUUID();
    const [first, second] = await Promise.all([
      call(op, "POST", `/api/admin/coupons/${id}/issue`, { recipients }, { "Idempotency-Key": key }),
      call(op, "POST", `/api/admin/coupons/${id}/issue`, { recipients }, { "Idempotency-Key": key }),
    ]);
    const ok = [first, second].filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    // The second call is the first one's stored answer (or told it is still running): 3 coupons in all.
    for (const r of ok) expect(r.body.issued).toBe(3);
    const coupons = await db()
      .selectFrom("coupons")
      .select(["user_id", "source"])
      .where("template_id", "=", id)
      .execute();
    expect(coupons.map((r) => r.user_id).sort()).toEqual([a.id, b.id, c.id].sort());
    expect(coupons.every((r) => r.source === "grant")).toBe(true);
    const shown = ok.find((r) => r.body.issued === 3)?.body ?? ok[0]!.body;
    expect(shown.unknown).toEqual(expect.arrayContaining(["13000000000", "not-a-thing"]));

    // A new batch to the same learners is past the total of 3.
    const more = await call(
      op,
      "POST",
      `/api/admin/coupons/${id}/issue`,
      { recipients: phoneA },
      { "Idempotency-Key": randomUUID() },
    );
    expect(more.status).toBe(409);
    expect(more.body.error.message).toContain("余量不足");
    const template = await db()
      .selectFrom("coupon_templates")
      .select("claimed_count")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(template.claimed_count).toBe(3);

    expect((await call(op, "POST", `/api/admin/coupons/${id}/issue`, { recipients: phoneA })).status).toBe(400);
    const notices = await db()
      .selectFrom("notifications")
      .select("title")
      .where("user_id", "=", a.id)
      .where("kind", "=", "coupon_issued")
      .execute();
    expect(notices).toHaveLength(1);
    const pack = await call(a, "GET", "/api/coupons/mine");
    expect(JSON.stringify(pack.body)).toContain("运营满减券");
    expect(await actions("coupon_template", id)).toEqual(["coupon.template.create", "coupon.issue"]);
  });
});

describe("group-buy campaigns", () => {
  it("creates, edits, lists and ends a campaign; ended, it is no longer the course's running one", async () => {
    const op = await learner("operator");
    const course = await paidCourse(3);
    const now = realNow();
    const body = {
      courseId: course.id,
      groupSize: 3,
      groupPriceCents: Math.max(1, course.price_cents - 100),
      validHours: 24,
      startsAt: new Date(now.getTime() - DAY).toISOString(),
      endsAt: new Date(now.getTime() + 7 * DAY).toISOString(),
    };
    expect(
      (await call(op, "POST", "/api/admin/campaigns", { ...body, groupPriceCents: course.price_cents })).status,
    ).toBe(400);
    expect((await call(op, "POST", "/api/admin/campaigns", { ...body, endsAt: body.startsAt })).status).toBe(400);
    expect((await call(op, "POST", "/api/admin/campaigns", { ...body, courseId: 2_000_000_000 })).status).toBe(400);
    const created = await call(op, "POST", "/api/admin/campaigns", body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "running", statusLabel: "进行中", groupsOpen: 0 });
    const id = created.body.id as number;

    const edited = await call(op, "PUT", `/api/admin/campaigns/${id}`, { ...body, groupSize: 4 });
    expect(edited.body.groupSize).toBe(4);
    const running = await call(op, "GET", `/api/admin/campaigns?status=running&q=${course.id}&pageSize=100`);
    expect(running.body.rows.map((r: { id: number }) => r.id)).toContain(id);

    const ended = await call(op, "POST", `/api/admin/campaigns/${id}/end`);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ status: "ended", active: false });
    expect((await call(op, "POST", `/api/admin/campaigns/${id}/end`)).status).toBe(409);
    expect((await call(op, "PUT", `/api/admin/campaigns/${id}`, body)).status).toBe(409);
    const row = await db()
      .selectFrom("group_campaigns")
      .select(["active", "ends_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.active).toBe(false);
    expect(row.ends_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await actions("group_campaign", id)).toEqual(["campaign.create", "campaign.update", "campaign.end"]);
  });
});
