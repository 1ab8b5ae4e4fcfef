/**
 * 意见反馈 over HTTP: submissions stored with category and contact (signed in or not),
 * validation, the per-address and per-account hourly limits, and the operator's inbox (list,
 * mark handled, reply → a notice for the learner who wrote it), every staff action audited, and
 * homework-wall moderation audited. PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import { FEEDBACK_NOTICE_TITLE, FEEDBACK_PER_HOUR } from "../../shared/contracts/feedback";
import { seedHomework } from "../../api/modules/homework/seed";
import { commerceHarness } from "./commerce";

const { api, db, call, learner } = commerceHarness("159");

async function auditOf(targetType: string, targetId: string | number) {
  return db()
    .selectFrom("audit_log")
    .selectAll()
    .where("target_type", "=", targetType)
    .where("target_id", "=", String(targetId))
    .orderBy("id")
    .execute();
}

/** Every submission comes from 127.0.0.1 here, so the per-address window is cleared before each. */
async function freshWindow() {
  await db().deleteFrom("rate_limits").where("key", "like", "feedback:%").execute();
}

describe("submitting feedback", () => {
  it("stores it with category, text and contact, signed in or not; refuses bad input", async () => {
    await freshWindow();
    const who = await learner();
    const signedIn = await call(who, "POST", "/api/feedback", {
      category: "homework",
      content: "  作业照片上传后看不到批改痕迹  ",
      contact: "13912340000",
    });
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.message).toContain("反馈已收到");
    const row = await db()
      .selectFrom("feedback")
      .selectAll()
      .where("id", "=", signedIn.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      user_id: who.id,
      category: "homework",
      content: "作业照片上传后看不到批改痕迹",
      contact: "13912340000",
      state: "open",
    });

    const anonymous = await call(null, "POST", "/api/feedback", { category: "site", content: "首页加载有点慢呢" });
    expect(anonymous.status).toBe(201);
    const anon = await db()
      .selectFrom("feedback")
      .selectAll()
      .where("id", "=", anonymous.body.id)
      .executeTakeFirstOrThrow();
    expect(anon).toMatchObject({ user_id: null, contact: null });

    for (const [body, message] of [
      [{ category: "nope", content: "内容足够长了" }, "请选择反馈类型"],
      [{ category: "site", content: "短" }, "至少 5 个字"],
      [{ category: "site", content: "字".repeat(501) }, "最多 500 字"],
      [{ category: "site", content: "内容足够长了", contact: "abc" }, "手机号或有效的电子邮箱"],
      [{ category: "site", content: "内容足够长了", extra: 1 }, "不支持的字段"],
    ] as const) {
      const res = await call(null, "POST", "/api/feedback", body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    }
  });

  it(`allows ${FEEDBACK_PER_HOUR} an hour per address and per account`, async () => {
    await freshWindow();
    const send = (who: Awaited<ReturnType<typeof learner>> | null) =>
      call(who, "POST", "/api/feedback", { category: "other", content: "限流测试的反馈内容" });
    for (let i = 0; i < FEEDBACK_PER_HOUR; i++) expect((await send(null)).status).toBe(201);
    const refused = await send(null);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toContain("太频繁");

    // Per account: the account's own window fills even when the address window is emptied.
    const who = await learner();
    for (let i = 0; i < FEEDBACK_PER_HOUR; i++) {
      await freshWindowIpOnly();
      expect((await send(who)).status).toBe(201);
    }
    await freshWindowIpOnly();
    expect((await send(who)).status).toBe(429);
  });
});

async function freshWindowIpOnly() {
  await db().deleteFrom("rate_limits").where("key", "like", "feedback:ip:%").execute();
}

describe("the operator's inbox", () => {
  it("is for operators only", async () => {
    const student = await learner();
    expect((await call(null, "GET", "/api/admin/feedback")).status).toBe(401);
    expect((await call(student, "GET", "/api/admin/feedback")).status).toBe(403);
    expect((await call(student, "POST", "/api/admin/feedback/1/reply", { reply: "你好" })).status).toBe(403);
  });

  it("lists, replies with a notice to the learner, marks handled, all audited", async () => {
    await freshWindow();
    const op = await learner("operator");
    const who = await learner();
    const sent = await call(who, "POST", "/api/feedback", { category: "order", content: "订单退款一直没到账怎么办" });
    const id = sent.body.id as number;
    const anon = await call(null, "POST", "/api/feedback", {
      category: "site",
      content: "匿名反馈一条内容",
      contact: "a@b.cn",
    });

    const open = await call(
      op,
      "GET",
      `/api/admin/feedback?state=open&category=order&q=${encodeURIComponent("退款")}&pageSize=100`,
    );
    expect(open.status).toBe(200);
    expect(open.body.rows.map((r: { id: number }) => r.id)).toContain(id);
    expect(open.body.rows.find((r: { id: number }) => r.id === id)).toMatchObject({
      categoryLabel: "订单与支付",
      userId: who.id,
      state: "open",
    });

    expect((await call(op, "POST", `/api/admin/feedback/${id}/reply`, { reply: "" })).status).toBe(400);
    const replied = await call(op, "POST", `/api/admin/feedback/${id}/reply`, {
      reply: "已为你加急处理，请留意到账短信。",
    });
    expect(replied.status).toBe(200);
    expect(replied.body).toMatchObject({ state: "handled", reply: "已为你加急处理，请留意到账短信。" });
    expect((await call(op, "POST", `/api/admin/feedback/${id}/reply`, { reply: "再回一次" })).status).toBe(409);

    const notices = await call(who, "GET", "/api/notices");
    expect(notices.status).toBe(200);
    expect(JSON.stringify(notices.body)).toContain(FEEDBACK_NOTICE_TITLE);
    expect(JSON.stringify(notices.body)).toContain("已为你加急处理");

    const handled = await call(op, "POST", `/api/admin/feedback/${anon.body.id}/handled`, { handled: true });
    expect(handled.body.state).toBe("handled");
    const reopened = await call(op, "POST", `/api/admin/feedback/${anon.body.id}/handled`, { handled: false });
    expect(reopened.body.state).toBe("open");
    expect((await call(op, "POST", "/api/admin/feedback/2000000000/handled", { handled: true })).status).toBe(404);

    const trail = await auditOf("feedback", id);
    expect(trail.map((a) => a.action)).toEqual(["feedback.reply"]);
    expect(trail[0]!.actor_id).toBe(op.id);
    expect((await auditOf("feedback", anon.body.id)).map((a) => a.action)).toEqual([
      "feedback.handle",
      "feedback.reopen",
    ]);
  });
});

describe("homework wall moderation", () => {
  it("lists works on the wall, hides and shows one again, audited", async () => {
    await seedHomework(api().database);
    const op = await learner("operator");
    const student = await learner();
    expect((await call(student, "GET", "/api/admin/moderation/works")).status).toBe(403);
    const list = await call(op, "GET", "/api/admin/moderation/works?hidden=shown&pageSize=20");
    expect(list.status).toBe(200);
    expect(list.body.total).toBeGreaterThan(0);
    const work = list.body.rows[0] as { shareId: string; hidden: boolean };
    expect(work.hidden).toBe(false);

    const hidden = await call(op, "POST", `/api/admin/moderation/works/${work.shareId}/hide`, {
      hidden: true,
      reason: "照片不清晰",
    });
    expect(hidden.status).toBe(200);
    expect((await call(null, "GET", `/api/homework/share/${work.shareId}`)).status).toBe(410);
    const hiddenList = await call(op, "GET", `/api/admin/moderation/works?hidden=hidden&pageSize=100`);
    expect(hiddenList.body.rows.map((r: { shareId: string }) => r.shareId)).toContain(work.shareId);
    expect((await call(op, "POST", `/api/admin/moderation/works/${work.shareId}/hide`, { hidden: false })).status).toBe(
      200,
    );
    expect((await call(null, "GET", `/api/homework/share/${work.shareId}`)).status).toBe(200);

    const trail = await auditOf("homework_share", work.shareId);
    expect(trail.map((a) => [a.action, a.reason])).toEqual([
      ["homework.wall.hide", "照片不清晰"],
      ["homework.wall.unhide", null],
    ]);
    expect((await call(op, "POST", "/api/admin/moderation/works/AAAAAAAAAAAAAAAA/hide", { hidden: true })).status).toBe(
      404,
    );
  });
});
