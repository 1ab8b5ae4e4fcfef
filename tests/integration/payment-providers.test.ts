/**
 * WeChat Pay (APIv3, Native) and Alipay (page pay, RSA2) against local fakes that implement the
 * documented signature schemes with keys made here: requests are signed and the fakes check them;
 * answers and notifications are signed by the fake "platform" and verified by us; WeChat's
 * notification resource is AES-256-GCM encrypted. Then the whole path through the app: start →
 * QR code, a signed notification pays the order once, a forged one does not, and the expiry job
 * asks the gateway before closing.
 */
import { createCipheriv, createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeServer, listen, testApp } from "./helpers";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { creditPayment } from "../../api/modules/payments/payments";
import { runOrderJob } from "../../api/jobs/commerce";
import {
  AlipayGateway,
  alipayNotificationFresh,
  chinaTimestamp,
  alipaySign,
  alipaySignContent,
  parseAlipayNotification,
  verifyAlipayNotification,
} from "../../api/providers/payments/alipay";
import { readWechatPayNotification, WechatPayGateway } from "../../api/providers/payments/wechat-pay";
import type { AlipaySettings, WechatPaySettings } from "../../api/providers/payments/settings";

const pair = () =>
  generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
const merchant = pair();
const platform = pair();
const appKeys = pair();
const alipayKeys = pair();
const API_V3_KEY = randomBytes(16).toString("hex"); // 32 characters

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString("utf8")));
    req.on("end", () => resolve(text));
  });

/** Paid transactions the fake WeChat Pay knows, by out_trade_no. */
const wechatPaid = new Map<string, { transaction_id: string; total: number }>();
const wechatSeen: string[] = [];

function platformHeaders(text: string, at = Date.now()) {
  const timestamp = String(Math.floor(at / 1000));
  const nonce = randomBytes(8).toString("hex");
  const signature = createSign("RSA-SHA256")
    .update(`${timestamp}\n${nonce}\n${text}\n`)
    .sign(platform.privateKey, "base64");
  return {
    "Wechatpay-Timestamp": timestamp,
    "Wechatpay-Nonce": nonce,
    "Wechatpay-Signature": signature,
    "Wechatpay-Serial": "PUB_KEY_ID_TEST",
  };
}

/** The fake WeChat Pay: checks every request's WECHATPAY2-SHA256-RSA2048 signature, signs its answers. */
function fakeWechatPay(): Server {
  return createServer(async (req, res) => {
    const text = await body(req);
    const auth = req.headers.authorization ?? "";
    const fields = Object.fromEntries([...auth.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const message = `${req.method}\n${req.url}\n${fields.timestamp}\n${fields.nonce_str}\n${text}\n`;
    const ok =
      auth.startsWith("WECHATPAY2-SHA256-RSA2048 ") &&
      fields.mchid === "1900000001" &&
      createVerify("RSA-SHA256")
        .update(message)
        .verify(merchant.publicKey, fields.signature ?? "", "base64");
    const answer = (status: number, payload: unknown) => {
      const out = payload === undefined ? "" : JSON.stringify(payload);
      res.writeHead(status, { "Content-Type": "application/json", ...platformHeaders(out) });
      res.end(out);
    };
    if (!ok) return answer(401, { code: "SIGN_ERROR", message: "签名错误" });
    wechatSeen.push(`${req.method} ${req.url}`);
    if (req.method === "POST" && req.url === "/v3/pay/transactions/native") {
      const order = JSON.parse(text) as { out_trade_no: string; amount: { total: number } };
      return answer(200, { code_url: `weixin://wxpay/bizpayurl?pr=${order.out_trade_no}` });
    }
    const query = /^\/v3\/pay\/transactions\/out-trade-no\/(\w+)\?mchid=1900000001$/.exec(req.url ?? "");
    if (req.method === "GET" && query) {
      const paid = wechatPaid.get(query[1]!);
      if (!paid) return answer(200, { out_trade_no: query[1], trade_state: "NOTPAY", mchid: "1900000001" });
      return answer(200, {
        out_trade_no: query[1],
        transaction_id: paid.transaction_id,
        trade_state: "SUCCESS",
        mchid: "1900000001",
        appid: "wx_test_app",
        amount: { total: paid.total, currency: "CNY" },
      });
    }
    if (req.method === "POST" && /\/close$/.test(req.url ?? "")) return answer(204, undefined);
    if (req.method === "POST" && req.url === "/v3/refund/domestic/refunds") {
      return answer(200, { refund_id: `RF${randomBytes(4).toString("hex")}`, status: "PROCESSING" });
    }
    answer(404, { code: "NOT_FOUND", message: "不存在" });
  });
}

/** A notification as WeChat Pay sends it: resource encrypted with the APIv3 key, signed by the platform. */
function wechatNotification(transaction: object, key = API_V3_KEY, at = Date.now()) {
  const nonce = randomBytes(6).toString("hex");
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(key, "utf8"), Buffer.from(nonce, "utf8"));
  cipher.setAAD(Buffer.from("transaction", "utf8"));
  const data = Buffer.concat([cipher.update(JSON.stringify(transaction), "utf8"), cipher.final(), cipher.getAuthTag()]);
  const text = JSON.stringify({
    id: randomUUID(),
    event_type: "TRANSACTION.SUCCESS",
    resource_type: "encrypt-resource",
    resource: {
      algorithm: "AEAD_AES_256_GCM",
      ciphertext: data.toString("base64"),
      associated_data: "transaction",
      nonce,
    },
  });
  return { text, headers: platformHeaders(text, at) };
}

/** The fake Alipay gateway: checks the RSA2 signature of every call, answers signed JSON. */
function fakeAlipay(): Server {
  return createServer(async (req, res) => {
    const params = Object.fromEntries(new URLSearchParams(await body(req)));
    const ok =
      params.sign_type === "RSA2" &&
      createVerify("RSA-SHA256")
        .update(alipaySignContent(params), "utf8")
        .verify(appKeys.publicKey, params.sign ?? "", "base64");
    const nodeName = `${(params.method ?? "").replace(/\./g, "_")}_response`;
    const biz = JSON.parse(params.biz_content ?? "{}") as { out_trade_no?: string };
    const node = ok
      ? params.method === "alipay.trade.query"
        ? {
            code: "10000",
            msg: "Success",
            out_trade_no: biz.out_trade_no,
            trade_no: "2026112222001",
            trade_status: "TRADE_SUCCESS",
            total_amount: "12.34",
          }
        : { code: "10000", msg: "Success", out_trade_no: biz.out_trade_no, fund_change: "Y" }
      : { code: "40002", msg: "Invalid Arguments", sub_code: "isv.invalid-signature" };
    const nodeText = JSON.stringify(node);
    const sign = createSign("RSA-SHA256").update(nodeText, "utf8").sign(alipayKeys.privateKey, "base64");
    res.writeHead(200, { "Content-Type": "application/json;charset=utf-8" });
    res.end(`{"${nodeName}":${nodeText},"sign":"${sign}"}`);
  });
}

let wechatServer: Server;
let alipayServer: Server;
let wechat: WechatPaySettings;
let alipay: AlipaySettings;
let h: Awaited<ReturnType<typeof testApp>>;
let app: { server: Server; base: string };

const originOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

beforeAll(async () => {
  wechatServer = fakeWechatPay().listen(0, "127.0.0.1");
  alipayServer = fakeAlipay().listen(0, "127.0.0.1");
  await new Promise((r) => setTimeout(r, 50));
  wechat = {
    mchId: "1900000001",
    appId: "wx_test_app",
    serialNo: "MERCHANT_SERIAL",
    privateKey: merchant.privateKey,
    apiV3Key: API_V3_KEY,
    platformPublicKey: platform.publicKey,
    platformKeyId: "PUB_KEY_ID_TEST",
    apiOrigin: originOf(wechatServer),
  };
  alipay = {
    appId: "2021000000000001",
    privateKey: appKeys.privateKey,
    alipayPublicKey: alipayKeys.publicKey,
    gateway: `${originOf(alipayServer)}/gateway.do`,
  };
  h = await testApp({ payments: { provider: "wechat", wechat, alipay } }, {}, {}, { catalogue: true });
  app = await listen(h.app);
});
afterAll(async () => {
  await closeServer(app.server);
  await h.dispose();
  await closeServer(wechatServer);
  await closeServer(alipayServer);
});

/** A user made by hand, without a session. */
const newUser = (phone: string, nickname: string) =>
  h.services!.api.database.db.insertInto("users").values({ phone, nickname }).returning("id").executeTakeFirstOrThrow();

/** An order for `course` made by hand at the course's price, pending unless the test pays it. */
const insertCourseOrder = (o: {
  orderNo: string;
  userId: number;
  course: { id: number; price_cents: number };
  provider?: "wechat" | "alipay";
  expiresAt: Date;
  stockReleasedAt: Date;
}) =>
  h
    .services!.api.database.db.insertInto("orders")
    .values({
      order_no: o.orderNo,
      user_id: o.userId,
      item_type: "course",
      item_id: o.course.id,
      title: "测试课程",
      unit_price_cents: o.course.price_cents,
      total_cents: o.course.price_cents,
      pay_cents: o.course.price_cents,
      provider: o.provider,
      expires_at: o.expiresAt,
      stock_released_at: o.stockReleasedAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

/** A WeChat Pay notification posted to the app as WeChat sends it. */
const postWechatNotification = (n: { text: string; headers: Record<string, string> }) =>
  fetch(`${app.base}/api/payments/notify/wechat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...n.headers },
    body: n.text,
  });

describe("WeChat Pay APIv3", () => {
  it("signs requests the fake accepts, verifies its answers, and returns the Native code URL", async () => {
    const gateway = new WechatPayGateway(wechat, () => new Date());
    const started = await gateway.start(
      {
        orderNo: "M20261122000000000001",
        payCents: 1234,
        title: "楷书入门",
        expiresAt: new Date(Date.now() + 1_800_000),
      },
      { notifyUrl: "https://example.com/api/payments/notify/wechat", returnUrl: "" },
    );
    expect(started.codeUrl).toBe("weixin://wxpay/bizpayurl?pr=M20261122000000000001");
    expect(await gateway.query("M20261122000000000001")).toBeNull();
    // A request signed with another key is refused by the fake (and its refusal still verifies).
    const forged = new WechatPayGateway({ ...wechat, privateKey: pair().privateKey }, () => new Date());
    await expect(forged.query("M20261122000000000001")).rejects.toThrow(/HTTP 401|failed/);
    // An answer not signed by the platform key is refused by us.
    const wrongPlatform = new WechatPayGateway({ ...wechat, platformPublicKey: pair().publicKey }, () => new Date());
    await expect(wrongPlatform.query("M20261122000000000001")).rejects.toThrow(/signature verification/);
  });

  it("decrypts and verifies notifications; tampered, re-signed or wrongly keyed ones are refused", () => {
    const tx = {
      out_trade_no: "M20261122000000000002",
      transaction_id: "4200000001",
      trade_state: "SUCCESS",
      mchid: "1900000001",
      appid: "wx_test_app",
      amount: { total: 990, currency: "CNY" },
    };
    const n = wechatNotification(tx);
    const header = (headers: Record<string, string>) => (name: string) =>
      Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
    expect(readWechatPayNotification(wechat, n.text, header(n.headers))).toEqual({
      provider: "wechat",
      orderNo: tx.out_trade_no,
      txnId: tx.transaction_id,
      amountCents: 990,
      currency: "CNY",
    });
    expect(
      readWechatPayNotification(wechat, n.text.replace("TRANSACTION", "TRANSACTIOM"), header(n.headers)),
    ).toBeNull();
    const stale = { ...n.headers, "Wechatpay-Timestamp": String(Math.floor(Date.now() / 1000) - 3600) };
    expect(readWechatPayNotification(wechat, n.text, header(stale))).toBeNull();
    // Genuinely signed, but sent outside the 5-minute window either way: refused as stale.
    for (const offset of [-3600_000, -301_000, 301_000]) {
      const old = wechatNotification(tx, API_V3_KEY, Date.now() + offset);
      expect(readWechatPayNotification(wechat, old.text, header(old.headers)), String(offset)).toBe("stale");
    }
    const recent = wechatNotification(tx, API_V3_KEY, Date.now() - 240_000);
    expect(readWechatPayNotification(wechat, recent.text, header(recent.headers))).toMatchObject({
      txnId: "4200000001",
    });
    const otherKey = wechatNotification(tx, randomBytes(16).toString("hex"));
    expect(readWechatPayNotification(wechat, otherKey.text, header(otherKey.headers))).toBeNull();
  });

  it("through the app: start gives a QR code, the signed notification pays once, a forged one never", async () => {
    const { db } = h.services!.api.database;
    const user = await newUser("13700001111", "微信付款");
    const token = await createSession(h.services!.api.database, user.id, { userAgent: "vitest", ip: "127.0.0.1" });
    const cookie = `${sessionCookieName(h.services!.api.settings.cookies)}=${token}`;
    const course = await db
      .selectFrom("courses")
      .select(["id", "price_cents"])
      .where("price_cents", ">", 0)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const headers = { Cookie: cookie, Origin: "http://localhost:3000", "Content-Type": "application/json" };
    const methods = await (await fetch(`${app.base}/api/payments/methods`)).json();
    expect(methods.methods.map((m: { method: string }) => m.method)).toEqual(["wechat", "alipay"]);
    const created = await fetch(`${app.base}/api/orders`, {
      method: "POST",
      headers: { ...headers, "Idempotency-Key": randomUUID() },
      body: JSON.stringify({ itemType: "course", itemId: course.id }),
    });
    const orderNo = (await created.json()).order.orderNo as string;
    expect(
      (
        await fetch(`${app.base}/api/payments/${orderNo}/start`, {
          method: "POST",
          headers,
          body: '{"method":"sandbox"}',
        })
      ).status,
    ).toBe(400);
    const start = await (
      await fetch(`${app.base}/api/payments/${orderNo}/start`, { method: "POST", headers, body: '{"method":"wechat"}' })
    ).json();
    expect(start.codeUrl).toBe(`weixin://wxpay/bizpayurl?pr=${orderNo}`);
    expect(start.qrSvg).toContain("<svg");

    const tx = {
      out_trade_no: orderNo,
      transaction_id: "4200000099",
      trade_state: "SUCCESS",
      mchid: "1900000001",
      appid: "wx_test_app",
      amount: { total: course.price_cents, currency: "CNY" },
    };
    const forged = wechatNotification({ ...tx, transaction_id: "4200000098" });
    const forgedRes = await postWechatNotification({
      text: forged.text,
      headers: {
        ...forged.headers,
        // Its first character changed (to one it is not: a signature may start with "A").
        "Wechatpay-Signature": forged.headers["Wechatpay-Signature"].replace(/^./, (c) => (c === "A" ? "B" : "A")),
      },
    });
    expect(forgedRes.status).toBe(401);
    const n = wechatNotification(tx);
    const results = await Promise.all(Array.from({ length: 3 }, () => postWechatNotification(n)));
    expect(results.map((r) => r.status)).toEqual([204, 204, 204]);
    const order = await db.selectFrom("orders").selectAll().where("order_no", "=", orderNo).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ state: "completed", provider: "wechat", provider_txn_id: "4200000099" });
    expect(await db.selectFrom("payments").select("id").where("order_id", "=", order.id).execute()).toHaveLength(1);
  });

  it("the expiry job asks WeChat Pay first: a paid order is credited, an unpaid one closed", async () => {
    const { db } = h.services!.api.database;
    const user = await newUser("13700002222", "超时");
    const courses = await db
      .selectFrom("courses")
      .select(["id", "price_cents"])
      .where("price_cents", ">", 0)
      .orderBy("id")
      .limit(3)
      .offset(1)
      .execute();
    const now = new Date();
    const make = async (course: { id: number; price_cents: number }, n: number) =>
      insertCourseOrder({
        orderNo: `M2026112200000000${String(n).padStart(4, "0")}`,
        userId: user.id,
        course,
        provider: "wechat",
        expiresAt: new Date(now.getTime() - 60_000),
        stockReleasedAt: now,
      });
    const paid = await make(courses[0]!, 7001);
    const unpaid = await make(courses[1]!, 7002);
    wechatPaid.set(paid.order_no, { transaction_id: "4200000777", total: paid.pay_cents });
    const result = await runOrderJob(h.services!.api);
    expect(result.paidLate).toEqual([paid.order_no]);
    expect(result.closed).toContain(unpaid.order_no);
    expect(wechatSeen).toContain(`POST /v3/pay/transactions/out-trade-no/${unpaid.order_no}/close`);
    expect(
      (await db.selectFrom("orders").select("state").where("id", "=", paid.id).executeTakeFirstOrThrow()).state,
    ).toBe("completed");
    expect(
      (await db.selectFrom("orders").select("state").where("id", "=", unpaid.id).executeTakeFirstOrThrow()).state,
    ).toBe("cancelled");
  });
});

describe("Alipay RSA2", () => {
  it("signs the page-pay URL with the app key (sorted k=v without sign)", async () => {
    const gateway = new AlipayGateway(alipay, () => new Date());
    const { redirectUrl } = await gateway.start(
      {
        orderNo: "M20261122000000000003",
        payCents: 1234,
        title: "行书进阶",
        expiresAt: new Date(Date.now() + 1_800_000),
      },
      { notifyUrl: "https://example.com/api/payments/notify/alipay", returnUrl: "https://example.com/payment/success" },
    );
    const url = new URL(redirectUrl!);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ method: "alipay.trade.page.pay", sign_type: "RSA2", app_id: alipay.appId });
    expect(JSON.parse(params.biz_content!)).toMatchObject({
      out_trade_no: "M20261122000000000003",
      total_amount: "12.34",
      product_code: "FAST_INSTANT_TRADE_PAY",
    });
    expect(
      createVerify("RSA-SHA256")
        .update(alipaySignContent(params), "utf8")
        .verify(appKeys.publicKey, params.sign!, "base64"),
    ).toBe(true);
  });

  it("queries through the fake (its answer's signature verified) and refuses an answer signed by someone else", async () => {
    const gateway = new AlipayGateway(alipay, () => new Date());
    expect(await gateway.query("M20261122000000000004")).toEqual({
      provider: "alipay",
      orderNo: "M20261122000000000004",
      txnId: "2026112222001",
      amountCents: 1234,
      currency: "CNY",
    });
    const spoofed = new AlipayGateway({ ...alipay, alipayPublicKey: pair().publicKey }, () => new Date());
    await expect(spoofed.query("M20261122000000000004")).rejects.toThrow(/signature verification/);
    const unsigned = new AlipayGateway({ ...alipay, privateKey: pair().privateKey }, () => new Date());
    expect(await unsigned.query("M20261122000000000004")).toBeNull();
  });

  it("verifies async notifications (without sign and sign_type) and credits them once", async () => {
    const { db } = h.services!.api.database;
    const user = await newUser("13700003333", "支付宝");
    const course = await db
      .selectFrom("courses")
      .select(["id", "price_cents"])
      .where("price_cents", ">", 0)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const order = await insertCourseOrder({
      orderNo: "M20261122000000008001",
      userId: user.id,
      course,
      expiresAt: new Date(Date.now() + 1_800_000),
      stockReleasedAt: new Date(),
    });
    const params: Record<string, string> = {
      notify_time: "2026-11-22 15:00:00",
      notify_type: "trade_status_sync",
      notify_id: randomUUID(),
      app_id: alipay.appId,
      charset: "utf-8",
      version: "1.0",
      trade_no: "2026112222009",
      out_trade_no: order.order_no,
      trade_status: "TRADE_SUCCESS",
      total_amount: `${Math.trunc(course.price_cents / 100)}.${String(course.price_cents % 100).padStart(2, "0")}`,
      subject: "测试课程",
    };
    params.sign = alipaySign(alipayKeys.privateKey, alipaySignContent(params, ["sign", "sign_type"]));
    params.sign_type = "RSA2";
    expect(verifyAlipayNotification(alipay, params)).toBe(true);
    expect(verifyAlipayNotification(alipay, { ...params, total_amount: "0.01" })).toBe(false);
    expect(
      verifyAlipayNotification(alipay, {
        ...params,
        sign: alipaySign(pair().privateKey, alipaySignContent(params, ["sign", "sign_type"])),
      }),
    ).toBe(false);
    const notice = parseAlipayNotification(alipay, params)!;
    expect(notice).toMatchObject({ orderNo: order.order_no, txnId: "2026112222009", amountCents: course.price_cents });
    expect(parseAlipayNotification(alipay, { ...params, trade_status: "WAIT_BUYER_PAY" })).toBeNull();
    const outcomes = await Promise.all([
      creditPayment(h.services!.api, notice),
      creditPayment(h.services!.api, notice),
    ]);
    expect(outcomes.sort()).toEqual(["credited", "replayed"]);
    expect(await creditPayment(h.services!.api, { ...notice, txnId: "X", amountCents: 1 })).toBe("amount_mismatch");
  });
});

describe("stale notifications (older or newer than 5 minutes) are refused", () => {
  let seq = 0;
  async function pendingOrder(provider: "wechat" | "alipay") {
    const { db } = h.services!.api.database;
    const user = await newUser(`1370000${String(4000 + ++seq)}`, "过期通知");
    const course = await db
      .selectFrom("courses")
      .select(["id", "price_cents"])
      .where("price_cents", ">", 0)
      .orderBy("id")
      .offset(seq)
      .executeTakeFirstOrThrow();
    return insertCourseOrder({
      orderNo: `M2026112200000000${String(8100 + seq).padStart(4, "0")}`,
      userId: user.id,
      course,
      provider,
      expiresAt: new Date(Date.now() + 1_800_000),
      stockReleasedAt: new Date(),
    });
  }
  const stateOf = async (id: number) =>
    (
      await h
        .services!.api.database.db.selectFrom("orders")
        .select("state")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).state;

  it("WeChat Pay: a replayed notification signed an hour ago gets FAIL and a warning; a fresh one pays", async () => {
    const order = await pendingOrder("wechat");
    const tx = {
      out_trade_no: order.order_no,
      transaction_id: `42000${order.id}`,
      trade_state: "SUCCESS",
      mchid: "1900000001",
      appid: "wx_test_app",
      amount: { total: order.pay_cents, currency: "CNY" },
    };
    const warn = vi.spyOn(h.services!.api.logger, "warn");
    for (const offset of [-3600_000, 600_000]) {
      const res = await postWechatNotification(wechatNotification(tx, API_V3_KEY, Date.now() + offset));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: "FAIL", message: "通知已过期" });
    }
    expect(warn.mock.calls.filter((c) => c[1] === "stale payment notification refused")).toHaveLength(2);
    warn.mockRestore();
    expect(await stateOf(order.id)).toBe("pending");
    expect((await postWechatNotification(wechatNotification(tx))).status).toBe(204);
    expect(await stateOf(order.id)).toBe("completed");
  });

  it("Alipay: notify_time outside the window (or missing) gets failure and a warning; a fresh one success", async () => {
    const order = await pendingOrder("alipay");
    const notification = (notifyTime: string | null) => {
      const params: Record<string, string> = {
        notify_type: "trade_status_sync",
        notify_id: randomUUID(),
        app_id: alipay.appId,
        charset: "utf-8",
        version: "1.0",
        trade_no: `20261122${order.id}`,
        out_trade_no: order.order_no,
        trade_status: "TRADE_SUCCESS",
        total_amount: `${Math.trunc(order.pay_cents / 100)}.${String(order.pay_cents % 100).padStart(2, "0")}`,
        subject: "测试课程",
      };
      if (notifyTime !== null) params.notify_time = notifyTime;
      params.sign = alipaySign(alipayKeys.privateKey, alipaySignContent(params, ["sign", "sign_type"]));
      params.sign_type = "RSA2";
      return params;
    };
    const post = async (params: Record<string, string>) => {
      const res = await fetch(`${app.base}/api/payments/notify/alipay`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(params).toString(),
      });
      return { status: res.status, text: await res.text() };
    };
    const at = (ms: number) => chinaTimestamp(new Date(Date.now() + ms));
    expect(alipayNotificationFresh({ notify_time: at(-240_000) }, new Date())).toBe(true);
    expect(alipayNotificationFresh({ notify_time: "2026/11/22 15:00" }, new Date())).toBe(false);
    const warn = vi.spyOn(h.services!.api.logger, "warn");
    for (const params of [notification(at(-3600_000)), notification(at(600_000)), notification(null)]) {
      expect(await post(params)).toEqual({ status: 400, text: "failure" });
    }
    expect(warn.mock.calls.filter((c) => c[1] === "stale payment notification refused")).toHaveLength(3);
    warn.mockRestore();
    expect(await stateOf(order.id)).toBe("pending");
    expect(await post(notification(at(-60_000)))).toEqual({ status: 200, text: "success" });
    expect(await stateOf(order.id)).toBe("completed");
  });
});
