/**
 * Learners and staff for operators (/api/admin/users): search, an account's detail, disable and
 * enable (the account's sessions end and it cannot sign in, told so in Chinese), ending its
 * sessions, granting and revoking teacher and operator — each audited; an operator cannot
 * disable themselves or give up their own operator role.
 */
import { describe, expect, it } from "vitest";
import { hashPassword } from "../../api/modules/auth/passwords";
import { commerceHarness, idem, type Learner } from "./commerce";

const { db, learner, call, notifySandbox, paidCourse } = commerceHarness("133");

async function auditOf(targetId: number) {
  return db()
    .selectFrom("audit_log")
    .selectAll()
    .where("target_type", "=", "user")
    .where("target_id", "=", String(targetId))
    .orderBy("id")
    .execute();
}

const disable = (operator: Learner, id: number, reason = "多次恶意退款") =>
  call(operator, "POST", `/api/admin/users/${id}/disable`, { reason });
const enable = (operator: Learner, id: number, reason = "申诉通过") =>
  call(operator, "POST", `/api/admin/users/${id}/enable`, { reason });
const role = (operator: Learner, id: number, action: "grant" | "revoke", r: "teacher" | "operator") =>
  call(operator, "POST", `/api/admin/users/${id}/role`, { action, role: r });

describe("finding accounts", () => {
  it("searches by phone, e-mail, nickname and id, filters by role and status, pages on the server", async () => {
    const operator = await learner("operator");
    const me = await learner();
    const email = `Seeker.${process.pid}@Example.cn`.toLowerCase();
    const nickname = `墨友${process.pid % 10000}号`;
    await db().updateTable("users").set({ email, nickname }).where("id", "=", me.id).execute();
    const { phone } = await db().selectFrom("users").select("phone").where("id", "=", me.id).executeTakeFirstOrThrow();
    const ids = async (params: string) => {
      const res = await call(operator, "GET", `/api/admin/users?${params}`);
      expect(res.status, params).toBe(200);
      return res.body.rows.map((r: { id: number }) => r.id);
    };
    expect(await ids(`q=${phone}`)).toEqual([me.id]);
    expect(await ids(`q=${encodeURIComponent(email.toUpperCase())}`)).toEqual([me.id]);
    expect(await ids(`q=${encodeURIComponent(nickname)}`)).toEqual([me.id]);
    expect(await ids(`q=${me.id}`)).toContain(me.id);
    expect(await ids(`q=${encodeURIComponent(nickname)}&role=teacher`)).toEqual([]);
    expect(await ids(`q=${encodeURIComponent(nickname)}&status=active&role=learner`)).toEqual([me.id]);
    const row = (await call(operator, "GET", `/api/admin/users?q=${phone}`)).body.rows[0];
    expect(row).toMatchObject({ id: me.id, phone, email, nickname, role: "learner", status: "active", orders: 0 });
    const page = await call(operator, "GET", "/api/admin/users?pageSize=20&page=1&sort=id&dir=asc");
    const idsAsc = page.body.rows.map((r: { id: number }) => r.id);
    expect(idsAsc).toEqual([...idsAsc].sort((a: number, b: number) => a - b));
    expect(page.body.total).toBeGreaterThan(0);
    expect((await call(operator, "GET", "/api/admin/users?role=admin")).status).toBe(400);
  });

  it("shows an account's orders, courses and sessions; learners and teachers are refused", async () => {
    const operator = await learner("operator");
    const me = await learner();
    const course = await paidCourse(9);
    const no = (await call(me, "POST", "/api/orders", { itemType: "course", itemId: course.id }, idem())).body.order
      .orderNo;
    await notifySandbox(no, course.price_cents);
    const detail = await call(operator, "GET", `/api/admin/users/${me.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      user: { id: me.id, role: "learner", status: "active" },
      orders: { total: 1, paidCents: course.price_cents, recent: [{ orderNo: no, stateLabel: "已完成" }] },
      courses: [{ id: course.id, title: course.title, source: "order" }],
      self: false,
    });
    expect(detail.body.sessions).toHaveLength(1);
    expect(detail.body.sessions[0].id).toMatch(/^[0-9a-f]{8}$/);
    expect((await call(operator, "GET", `/api/admin/users/${operator.id}`)).body.self).toBe(true);
    expect((await call(operator, "GET", "/api/admin/users/999999999")).status).toBe(404);
    expect((await call(operator, "GET", "/api/admin/users/abc")).status).toBe(404);

    const teacher = await learner();
    await db().updateTable("users").set({ role: "teacher" }).where("id", "=", teacher.id).execute();
    for (const who of [me, teacher]) {
      expect((await call(who, "GET", "/api/admin/users")).status).toBe(403);
      expect((await call(who, "GET", `/api/admin/users/${me.id}`)).status).toBe(403);
      expect((await disable(who, operator.id)).status).toBe(403);
      expect((await role(who, who.id, "grant", "operator")).status).toBe(403);
    }
    expect((await call(null, "GET", "/api/admin/users")).status).toBe(401);
  });
});

describe("changing accounts", () => {
  it("disabling ends every session and sign-in is refused in Chinese; enabling lets the account back in", async () => {
    const operator = await learner("operator");
    const me = await learner();
    const password = "Brush-and-ink-2026";
    const email = `disabled.${process.pid}@example.cn`;
    await db()
      .updateTable("users")
      .set({ email, password_hash: await hashPassword(password) })
      .where("id", "=", me.id)
      .execute();
    expect((await call(me, "GET", "/api/me")).status).toBe(200);

    expect((await disable(operator, me.id, "")).status).toBe(400);
    const done = await disable(operator, me.id);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ changed: true, sessionsEnded: 1, user: { status: "disabled" } });
    expect((await call(me, "GET", "/api/me")).status).toBe(401);
    const login = await call(null, "POST", "/api/auth/email/login", { email, password });
    expect(login.status).toBe(403);
    expect(login.body.error).toMatchObject({ code: "account_disabled", message: "该账号已停用，请联系客服" });
    // Twice is no change, and not audited again.
    expect((await disable(operator, me.id)).body).toMatchObject({ changed: false });

    const back = await enable(operator, me.id);
    expect(back.body).toMatchObject({ changed: true, user: { status: "active" } });
    expect((await call(null, "POST", "/api/auth/email/login", { email, password })).status).toBe(200);

    const audit = await auditOf(me.id);
    expect(audit.map((a) => a.action)).toEqual(["user.disable", "user.enable"]);
    expect(audit[0]).toMatchObject({ actor_id: operator.id, reason: "多次恶意退款" });

    // An operator cannot disable themselves.
    const self = await disable(operator, operator.id);
    expect(self.status).toBe(409);
    expect(self.body.error.message).toBe("不能停用自己的账号");
  });

  it("ends an account's sessions", async () => {
    const operator = await learner("operator");
    const me = await learner();
    const res = await call(operator, "POST", `/api/admin/users/${me.id}/sessions/revoke`);
    expect(res.body).toMatchObject({ changed: true, sessionsEnded: 1 });
    expect((await call(me, "GET", "/api/me")).status).toBe(401);
    expect((await auditOf(me.id)).map((a) => a.action)).toEqual(["user.sessions.revoke"]);
    expect((await call(operator, "POST", `/api/admin/users/${operator.id}/sessions/revoke`)).status).toBe(409);
  });

  it("grants and revokes teacher and operator; the role takes effect at once; one's own operator role stays", async () => {
    const operator = await learner("operator");
    const me = await learner();
    expect((await call(me, "GET", "/api/admin/users")).status).toBe(403);
    expect((await role(operator, me.id, "grant", "teacher")).body).toMatchObject({
      changed: true,
      user: { role: "teacher" },
    });
    expect((await role(operator, me.id, "grant", "operator")).body.user.role).toBe("operator");
    // Now an operator: the same session may use the desk.
    expect((await call(me, "GET", "/api/admin/users")).status).toBe(200);
    // Revoking teacher from an operator changes nothing (operator includes teacher).
    expect((await role(operator, me.id, "revoke", "teacher")).body).toMatchObject({ changed: false });
    expect((await role(operator, me.id, "revoke", "operator")).body.user.role).toBe("learner");
    expect((await call(me, "GET", "/api/admin/users")).status).toBe(403);
    expect(
      (await call(operator, "POST", `/api/admin/users/${me.id}/role`, { action: "grant", role: "admin" })).status,
    ).toBe(400);

    const self = await role(operator, operator.id, "revoke", "operator");
    expect(self.status).toBe(409);
    expect(self.body.error.message).toBe("不能撤销自己的运营角色");
    expect((await role(operator, operator.id, "grant", "teacher")).body).toMatchObject({ changed: false });

    const audit = await auditOf(me.id);
    expect(audit.map((a) => [a.action, a.before, a.after])).toEqual([
      ["user.role.grant", { role: "learner" }, { role: "teacher" }],
      ["user.role.grant", { role: "teacher" }, { role: "operator" }],
      ["user.role.revoke", { role: "operator" }, { role: "learner" }],
    ]);
  });
});
