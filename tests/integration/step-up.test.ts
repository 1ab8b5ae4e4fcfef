/**
 * Step-up (decision 072): money moves (a refund by hand, retrying a refused refund, approving a
 * return with its refund), role grants and revokes, disabling an account and resetting another's
 * two-factor login need the password or an app code proved by this session within 10 minutes.
 * Each is refused without one (and changes nothing), allowed within the 10 minutes, refused
 * after; wrong passwords and codes are counted and limited.
 */
import { Secret, TOTP } from "otpauth";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hashPassword } from "../../api/modules/auth/passwords";
import { newTotpSecret } from "../../api/modules/auth/totp";
import { SandboxGateway } from "../../api/providers/payments/sandbox";
import { commerceHarness, idem, type Learner } from "./commerce";

const { api, db, learner, call, later, realNow, notifySandbox, orderRow } = commerceHarness("134");
const PASSWORD = "Seal-red-ink-2026";
let seq = 0;

afterEach(() => {
  vi.restoreAllMocks();
});

/** An operator whose session has not proved anything yet (as after an SMS code login). */
async function operator(): Promise<Learner> {
  const who = await learner("operator", { steppedUp: false });
  await db()
    .updateTable("users")
    .set({ password_hash: await hashPassword(PASSWORD) })
    .where("id", "=", who.id)
    .execute();
  return who;
}

const stepUp = (who: Learner, body: Record<string, unknown>) => call(who, "POST", "/api/auth/step-up", body);

async function paidBook(me: Learner) {
  const book = await db()
    .selectFrom("books")
    .select(["id", "price_cents"])
    .where("status", "=", "published")
    .orderBy("id")
    .limit(1)
    .offset(++seq % 20)
    .executeTakeFirstOrThrow();
  await db().updateTable("books").set({ stock: 50 }).where("id", "=", book.id).execute();
  const address = await call(me, "POST", "/api/orders/addresses", {
    recipient: "王羲之",
    phone: "13912345678",
    region: "浙江省 绍兴市 越城区",
    detail: "兰亭路 1 号",
  });
  const created = await call(
    me,
    "POST",
    "/api/orders",
    { itemType: "book", itemId: book.id, quantity: 1, addressId: address.body.address.id },
    idem(),
  );
  const no: string = created.body.order.orderNo;
  expect((await notifySandbox(no, created.body.order.payCents)).status).toBe(200);
  return no;
}

const refused = (res: { status: number; body: { error?: { code: string } } }) => {
  expect(res.status).toBe(403);
  expect(res.body.error?.code).toBe("step_up_required");
};

describe("guarded actions", () => {
  it("are refused without a recent step-up, and nothing changes", async () => {
    const op = await operator();
    const target = await learner();
    const staffer = await learner("teacher");
    const me = await learner();
    const no = await paidBook(me);

    refused(await call(op, "POST", `/api/admin/users/${target.id}/disable`, { reason: "恶意刷单" }));
    refused(await call(op, "POST", `/api/admin/users/${target.id}/role`, { action: "grant", role: "teacher" }));
    refused(await call(op, "POST", `/api/admin/users/${staffer.id}/role`, { action: "revoke", role: "teacher" }));
    refused(await call(op, "POST", `/api/admin/users/${staffer.id}/two-factor/reset`, { reason: "手机丢失" }));
    refused(await call(op, "POST", `/api/admin/orders/${no}/refund`, { reason: "缺货，主动退款" }, idem()));
    refused(await call(op, "POST", `/api/admin/orders/${no}/refund/retry`, { refundId: 1 }, idem()));
    refused(await call(op, "POST", `/api/admin/orders/${no}/return/approve`, {}, idem()));

    const users = await db()
      .selectFrom("users")
      .select(["id", "status", "role"])
      .where("id", "in", [target.id, staffer.id])
      .orderBy("id")
      .execute();
    expect(users).toEqual([
      { id: target.id, status: "active", role: "learner" },
      { id: staffer.id, status: "active", role: "teacher" },
    ]);
    expect((await orderRow(no)).state).toBe("awaiting_shipment");
    expect(
      await db()
        .selectFrom("refunds")
        .select("id")
        .where("order_id", "=", (await orderRow(no)).id)
        .execute(),
    ).toEqual([]);
    expect(await db().selectFrom("audit_log").select("id").where("actor_id", "=", op.id).execute()).toEqual([]);

    // Other staff actions ask for nothing more (shipping, reading).
    expect((await call(op, "GET", `/api/admin/orders/${no}`)).status).toBe(200);
    expect((await call(op, "GET", `/api/admin/users/${target.id}`)).status).toBe(200);
  });

  it("are allowed for 10 minutes after the password, refused after, and allowed again after an app code", async () => {
    const op = await operator();
    const target = await learner();
    const me = await learner();
    const no = await paidBook(me);
    later(0);

    const proved = await stepUp(op, { method: "password", password: PASSWORD });
    expect(proved.status).toBe(200);
    expect(proved.body).toMatchObject({ password: true, code: false });
    expect(new Date(proved.body.until).getTime() - api().now().getTime()).toBe(10 * 60_000);

    const grant = await call(op, "POST", `/api/admin/users/${target.id}/role`, { action: "grant", role: "teacher" });
    expect(grant.status).toBe(200);
    expect(grant.body.user.role).toBe("teacher");
    later(9 * 60_000);
    const refund = await call(op, "POST", `/api/admin/orders/${no}/refund`, { reason: "缺货，主动退款" }, idem());
    expect(refund.status).toBe(200);
    expect(["refunding", "refunded"]).toContain((await orderRow(no)).state);

    later(10 * 60_000 + 1000);
    refused(await call(op, "POST", `/api/admin/users/${target.id}/disable`, { reason: "恶意刷单" }));
    expect(
      (await db().selectFrom("users").select("status").where("id", "=", target.id).executeTakeFirstOrThrow()).status,
    ).toBe("active");

    // Turn on two-factor login (a session's own setting needs no step-up), then prove a code.
    const setup = await call(op, "POST", "/api/me/two-factor/setup", {});
    const secret = Secret.fromBase32(setup.body.secret as string);
    const code = (steps = 0) => TOTP.generate({ secret, timestamp: api().now().getTime() + steps * 30_000 });
    expect((await call(op, "POST", "/api/me/two-factor/enable", { code: code() })).status).toBe(200);
    // Turning it on proved a code: allowed at once.
    expect((await call(op, "POST", `/api/admin/users/${target.id}/disable`, { reason: "恶意刷单" })).status).toBe(200);
    later(21 * 60_000);
    refused(await call(op, "POST", `/api/admin/users/${target.id}/role`, { action: "revoke", role: "teacher" }));
    expect((await stepUp(op, { method: "code", code: code() })).status).toBe(200);
    const revoke = await call(op, "POST", `/api/admin/users/${target.id}/role`, { action: "revoke", role: "teacher" });
    expect(revoke.status).toBe(200);
    expect(revoke.body.user.role).toBe("learner");
    // The same code proves nothing twice.
    const again = await stepUp(op, { method: "code", code: code() });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("two_factor_reused");
  });

  it("a refund retry and a return approval go through once stepped up", async () => {
    const op = await operator();
    const me = await learner();
    const no = await paidBook(me);
    expect((await stepUp(op, { method: "password", password: PASSWORD })).status).toBe(200);
    vi.spyOn(SandboxGateway.prototype, "refund").mockResolvedValueOnce({ ok: false, refundId: "" });
    expect(
      (await call(op, "POST", `/api/admin/orders/${no}/refund`, { reason: "缺货，主动退款" }, idem())).status,
    ).toBe(502);
    const failed = (await call(op, "GET", `/api/admin/orders/${no}`)).body.actions.retryRefundId as number;
    later(11 * 60_000);
    refused(await call(op, "POST", `/api/admin/orders/${no}/refund/retry`, { refundId: failed }, idem()));
    expect((await stepUp(op, { method: "password", password: PASSWORD })).status).toBe(200);
    const retried = await call(op, "POST", `/api/admin/orders/${no}/refund/retry`, { refundId: failed }, idem());
    expect(retried.status).toBe(200);
    expect(["refunding", "refunded"]).toContain((await orderRow(no)).state);

    // A shipped book's return, approved with its refund.
    const other = await paidBook(me);
    expect(
      (await call(op, "POST", `/api/admin/orders/${other}/ship`, { carrier: "顺丰速运", trackingNo: "SF7000000099" }))
        .status,
    ).toBe(200);
    expect((await call(me, "POST", `/api/orders/${other}/refund`, { reason: "封面破损" }, idem())).status).toBe(200);
    later(30 * 60_000);
    refused(await call(op, "POST", `/api/admin/orders/${other}/return/approve`, {}, idem()));
    expect((await stepUp(op, { method: "password", password: PASSWORD })).status).toBe(200);
    expect((await call(op, "POST", `/api/admin/orders/${other}/return/approve`, {}, idem())).status).toBe(200);
  });

  it("are stepped up per session: the same operator's other session still asks", async () => {
    const op = await operator();
    const target = await learner();
    expect((await stepUp(op, { method: "password", password: PASSWORD })).status).toBe(200);
    const token = await import("../../api/modules/auth/sessions").then((m) =>
      m.createSession(api().database, op.id, { userAgent: "vitest", ip: "127.0.0.1" }, api().now()),
    );
    const other: Learner = { id: op.id, cookie: `sid=${token}` };
    refused(await call(other, "POST", `/api/admin/users/${target.id}/role`, { action: "grant", role: "teacher" }));
    expect(
      (await call(op, "POST", `/api/admin/users/${target.id}/role`, { action: "grant", role: "teacher" })).status,
    ).toBe(200);
  });
});

describe("POST /api/auth/step-up", () => {
  it("counts wrong passwords and codes: five in 15 minutes, then 429 even for the right password or code", async () => {
    const op = await operator();
    // Two-factor login already on (set here directly, so the session has proved nothing).
    const secret = newTotpSecret();
    await db().insertInto("totp_factors").values({ user_id: op.id, secret, confirmed_at: new Date() }).execute();
    // The counters' windows are fixed quarters of an hour: start at the beginning of one.
    later(Math.ceil(realNow().getTime() / 900_000) * 900_000 + 1000 - realNow().getTime());
    const code = (steps = 0) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: api().now().getTime() + steps * 30_000 });
    for (const body of [
      { method: "code", code: code(7) },
      { method: "password", password: "not-it-2026" },
      { method: "code", code: code(-9) },
      { method: "password", password: "Seal-red-ink-2025" },
    ]) {
      expect((await stepUp(op, body)).status).toBe(400);
    }
    const wrong = await stepUp(op, { method: "password", password: "still-not-2026" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe("登录密码不正确");
    expect((await stepUp(op, { method: "password", password: PASSWORD })).status).toBe(429);
    expect((await stepUp(op, { method: "code", code: code() })).status).toBe(429);
    expect((await call(op, "GET", "/api/auth/step-up")).body.until).toBeNull();
    refused(await call(op, "POST", `/api/admin/users/${op.id}/role`, { action: "grant", role: "operator" }));
  });

  it("says which ways an account can prove itself", async () => {
    const smsOnly = await learner("operator", { steppedUp: false });
    expect((await call(smsOnly, "GET", "/api/auth/step-up")).body).toEqual({
      password: false,
      code: false,
      until: null,
    });
    const res = await stepUp(smsOnly, { method: "password", password: "anything-2026" });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/还没有设置登录密码/);
    expect((await call(null, "POST", "/api/auth/step-up", { method: "password", password: "x" })).status).toBe(401);
  });
});
