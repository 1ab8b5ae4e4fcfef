/**
 * Activities and the free trial-class sign-up over HTTP: lists and states, a landing by token,
 * the share QR code, 404s, sign-up validation, the duplicate rule (also under concurrency),
 * the per-address limit, and the signed-in learner's prefill.
 */
import QRCode from "qrcode";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TRIAL_DUPLICATE_MESSAGE } from "../../shared/contracts/activities";
import { BROWSER_UA, testApp, lastCodeFor } from "./helpers";
import { openApiDocument } from "../../api/openapi";
import { activitiesEndpoints, TRIAL_SIGNUPS_PER_HOUR } from "../../api/modules/activities/endpoints";

const ORIGIN = "http://localhost:3000";
const SEEDED_AT = new Date("2026-03-10T02:00:00Z");
const HOUR = 3600_000;
const DAY = 24 * HOUR;

type Harness = Awaited<ReturnType<typeof testApp>>;
let h: Harness;
/** Each test signs up in an hour of its own, so the per-address limit never leaks between them. */
let hour = 0;

beforeAll(async () => {
  h = await testApp({}, {}, {}, { catalogue: true, now: SEEDED_AT });
});
afterAll(() => h.dispose());
beforeEach(() => {
  hour += 1;
  const at = new Date(SEEDED_AT.getTime() + hour * HOUR);
  h.services!.api.now = () => at;
});

const get = (path: string, cookie?: string) => {
  const r = request(h.app).get(path);
  return cookie ? r.set("Cookie", cookie) : r;
};
const signUp = (body: unknown, cookie?: string) => {
  const r = request(h.app)
    .post("/api/activities/experience")
    .set("Origin", ORIGIN)
    .send(body as object);
  return cookie ? r.set("Cookie", cookie) : r;
};
let phoneSeq = 0;
const nextPhone = () => `137${String(20_000_000 + ++phoneSeq * 7919).slice(-8)}`;

describe("GET /api/activities", () => {
  it("lists the five activities, running ones first, with their state", async () => {
    const res = await get("/api/activities");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    const items: Array<{ token: string; state: string }> = res.body.items;
    expect(items).toHaveLength(5);
    expect(items.map((a) => a.state)).toEqual(["ongoing", "ongoing", "ongoing", "ongoing", "upcoming"]);
    expect(items.at(-1)!.token).toBe("travel-note-xian");
  });

  it("filters by kind", async () => {
    const res = await get("/api/activities?kind=bmyx");
    expect(res.body.items.map((a: { token: string }) => a.token)).toEqual(["bmyx-autumn"]);
    const bad = await get("/api/activities?kind=party");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("活动类型不正确");
  });

  it("states follow the clock: 未开始, 进行中, 已结束", async () => {
    h.services!.api.now = () => new Date(SEEDED_AT.getTime() - 40 * DAY);
    expect((await get("/api/activities/spring-2026")).body.state).toBe("upcoming");
    h.services!.api.now = () => new Date(SEEDED_AT.getTime() + 5 * DAY);
    expect((await get("/api/activities/spring-2026")).body.state).toBe("ongoing");
    h.services!.api.now = () => new Date(SEEDED_AT.getTime() + 41 * DAY);
    expect((await get("/api/activities/spring-2026")).body.state).toBe("ended");
    // Past ones go last.
    const list = await get("/api/activities");
    expect(list.body.items.at(-1).state).toBe("ended");
  });
});

describe("GET /api/activities/:token", () => {
  it("has the landing content of spring-2026 with its course", async () => {
    const res = await get("/api/activities/spring-2026");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token: "spring-2026",
      kind: "general",
      title: "春日临帖季",
      state: "ongoing",
      startsAt: new Date(SEEDED_AT.getTime() - 20 * DAY).toISOString(),
      endsAt: new Date(SEEDED_AT.getTime() + 40 * DAY).toISOString(),
      url: "http://localhost:3000/activitys/spring-2026",
    });
    expect(res.body.body.map((s: { heading: string }) => s.heading)).toEqual(["怎么参加", "打卡与日记", "推荐字帖"]);
    expect(res.body.course).toMatchObject({ title: "欧体楷书入门：九成宫醴泉铭精讲", teacherName: "林墨" });
  });

  it("is 404 for unknown or malformed tokens", async () => {
    for (const token of ["no-such-activity", "ab", "bad token!"]) {
      const res = await get(`/api/activities/${encodeURIComponent(token)}`);
      expect(res.status, token).toBe(404);
      expect(res.body.error.message).toBe("活动不存在或已下线");
    }
  });

  it("draws the landing page's address as a QR code (SVG)", async () => {
    // An image type: supertest hands the body over as bytes.
    const res = await get("/api/activities/spring-2026/qr.svg").responseType("blob");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    const expected = await QRCode.toString("http://localhost:3000/activitys/spring-2026", {
      type: "svg",
      margin: 1,
      errorCorrectionLevel: "M",
      color: { dark: "#222222", light: "#fffdf8" },
    });
    expect(Buffer.from(res.body).toString("utf8")).toBe(expected);
    expect((await get("/api/activities/no-such-activity/qr.svg")).status).toBe(404);
  });
});

describe("the activity pages", () => {
  const page = (path: string) => get(path).set("User-Agent", BROWSER_UA);

  it("the landing page shows the content with Event data; an unknown token is the 404 page", async () => {
    const res = await page("/activitys/spring-2026");
    expect(res.status).toBe(200);
    expect(res.text).toContain("<title>春日临帖季 - 墨池课堂</title>");
    expect(res.text).toContain("推荐字帖");
    expect(res.text).toContain('"@type":"Event"');
    const missing = await page("/activitys/no-such-activity");
    expect(missing.status).toBe(404);
    expect(missing.text).toContain("This page could not be found");
  });

  it("a kind's page shows its activity; the share page has the QR code and the link", async () => {
    const kind = await page("/activitys/reading");
    expect(kind.status).toBe(200);
    expect(kind.text).toContain("<title>共读 - 墨池课堂</title>");
    expect(kind.text).toContain("共读千字文");
    const share = await page("/activitys/spring-2026/share");
    expect(share.status).toBe(200);
    expect(share.text).toContain("活动页二维码");
    expect(share.text).toContain('value="http://localhost:3000/activitys/spring-2026"');
  });
});

describe("POST /api/activities/experience", () => {
  it("signs up, stores the sign-up and answers with a masked phone", async () => {
    const phone = nextPhone();
    const res = await signUp({ name: " 王小明 ", phone, category: "kaishu", grade: "primary_lower" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "王小明",
      category: "kaishu",
      categoryName: "楷书",
      maskedPhone: `${phone.slice(0, 3)}****${phone.slice(7)}`,
    });
    const row = await h
      .services!.database.db.selectFrom("trial_signups")
      .selectAll()
      .where("phone", "=", phone)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "王小明", category: "kaishu", grade: "primary_lower", user_id: null });
  });

  it("the same phone and course again is refused politely; another course is fine", async () => {
    const phone = nextPhone();
    expect((await signUp({ name: "李华", phone, category: "yingbi" })).status).toBe(201);
    const again = await signUp({
      name: "李华",
      phone: `+86 ${phone.slice(0, 3)}-${phone.slice(3)}`,
      category: "yingbi",
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: "already_signed_up", message: TRIAL_DUPLICATE_MESSAGE });
    expect((await signUp({ name: "李华", phone, category: "xiezuo" })).status).toBe(201);
    const rows = await h
      .services!.database.db.selectFrom("trial_signups")
      .select("category")
      .where("phone", "=", phone)
      .execute();
    expect(rows.map((r) => r.category).sort()).toEqual(["xiezuo", "yingbi"]);
  });

  it("lets exactly one of several simultaneous identical sign-ups through", async () => {
    const body = { name: "赵六", phone: nextPhone(), category: "lishu" };
    const answers = await Promise.all(Array.from({ length: 4 }, () => signUp(body)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it("refuses bad input field by field, in Chinese", async () => {
    const good = { name: "王小明", phone: nextPhone(), category: "kaishu" };
    for (const [body, path, message] of [
      [{ ...good, name: "  " }, "name", "请填写您的称呼"],
      [{ ...good, name: "字".repeat(21) }, "name", "称呼最多 20 个字"],
      [{ ...good, phone: "12345678901" }, "phone", "请输入正确的手机号"],
      [{ ...good, phone: "1380013800" }, "phone", "请输入正确的手机号"],
      [{ ...good, category: "painting" }, "category", "请选择想体验的课程"],
      [{ ...good, grade: "phd" }, "grade", "请选择年级或年龄段"],
      [{ ...good, extra: 1 }, "", "不支持的字段：extra"],
      [{ name: "王小明", category: "kaishu" }, "phone", "请填写手机号"],
    ] as const) {
      const res = await signUp(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toBe(message);
      expect(res.body.error.details[0].path).toBe(path);
    }
    expect((await signUp({ ...good, name: "字".repeat(20) })).status).toBe(201);
  });

  it(`allows ${TRIAL_SIGNUPS_PER_HOUR} sign-ups an hour from one address`, async () => {
    for (let i = 0; i < TRIAL_SIGNUPS_PER_HOUR; i++) {
      expect((await signUp({ name: "家长", phone: nextPhone(), category: "kaishu" })).status).toBe(201);
    }
    const over = await signUp({ name: "家长", phone: nextPhone(), category: "kaishu" });
    expect(over.status).toBe(429);
    expect(over.headers["retry-after"]).toMatch(/^\d+$/);
    expect(over.body.error.message).toBe("报名次数太多了，请一小时后再试，或拨打客服电话报名");
    // The next hour counts again.
    const later = new Date(h.services!.api.now().getTime() + HOUR);
    h.services!.api.now = () => later;
    expect((await signUp({ name: "家长", phone: nextPhone(), category: "kaishu" })).status).toBe(201);
  });

  it("refuses a sign-up from another site", async () => {
    const res = await request(h.app)
      .post("/api/activities/experience")
      .set("Origin", "https://evil.example")
      .send({ name: "王小明", phone: nextPhone(), category: "kaishu" });
    expect(res.status).toBe(403);
  });
});

describe("a signed-in learner", () => {
  async function login(phone: string): Promise<string> {
    expect((await request(h.app).post("/api/auth/sms/send").set("Origin", ORIGIN).send({ phone })).status).toBe(200);
    const res = await request(h.app)
      .post("/api/auth/sms/login")
      .set("Origin", ORIGIN)
      .send({ phone, code: lastCodeFor(h.services!.api.outbox, phone) });
    expect(res.status).toBe(200);
    const raw = ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((c) => c.startsWith("sid="));
    return raw!.split(";")[0]!;
  }

  it("finds the phone filled in, then the name used before and what was signed up for", async () => {
    expect((await get("/api/activities/experience/me")).status).toBe(401);
    const phone = nextPhone();
    const cookie = await login(phone);

    const first = await get("/api/activities/experience/me", cookie);
    expect(first.status).toBe(200);
    expect(first.headers["cache-control"]).toBe("private, no-store");
    // A made-up nickname (墨友1234) is not offered as a name.
    expect(first.body).toEqual({ name: null, phone, signedUp: [] });

    expect((await signUp({ name: "陈同学", phone, category: "guoxue" }, cookie)).status).toBe(201);
    const row = await h
      .services!.database.db.selectFrom("trial_signups")
      .innerJoin("users", "users.id", "trial_signups.user_id")
      .select("users.phone")
      .where("trial_signups.phone", "=", phone)
      .executeTakeFirstOrThrow();
    expect(row.phone).toBe(phone);

    const after = await get("/api/activities/experience/me", cookie);
    expect(after.body).toEqual({ name: "陈同学", phone, signedUp: ["guoxue"] });
  });
});

describe("the activities' endpoints in the OpenAPI description", () => {
  it("list the sign-up with its input schema and the prefill as signed-in only", () => {
    const doc = openApiDocument({ title: "t", version: "1", serverUrl: "/api" }, activitiesEndpoints(h.services!.api));
    const signup = JSON.stringify(doc.paths["/activities/experience"]!.post);
    expect(signup).toContain('"required":["name","phone","category"]');
    expect(doc.paths["/activities/experience/me"]!.get).toMatchObject({ security: [{ session: [] }] });
  });
});
