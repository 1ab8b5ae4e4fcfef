import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { characterOfDay } from "../../api/modules/practice/endpoints";
import { BROWSER_UA, testApp } from "./helpers";

type Express = Awaited<ReturnType<typeof testApp>>["app"];
let app: Express;
beforeAll(async () => {
  ({ app } = await testApp());
});

describe("practice API", () => {
  it("pages through the whole text", async () => {
    const first = await request(app).get("/api/practice/characters?offset=0&limit=24");
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(24);
    expect(first.body.items[0]).toEqual({ index: 0, char: "天", phrase: "天地玄黄" });
    expect(first.body.nextOffset).toBe(24);
    const last = await request(app).get(`/api/practice/characters?offset=${first.body.total - 5}&limit=24`);
    expect(last.body.items).toHaveLength(5);
    expect(last.body.nextOffset).toBeNull();
  });

  it("rejects bad queries with a JSON error", async () => {
    for (const q of ["limit=0", "limit=49", "offset=-1", "offset=abc", "extra=1"]) {
      const res = await request(app).get(`/api/practice/characters?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_input", message: "查询参数不正确" });
    }
  });

  it("the character of the day follows the date in China", () => {
    // 23:30 UTC on 21 Nov is already 22 Nov in Beijing.
    expect(characterOfDay(new Date("2026-11-21T23:30:00Z")).date).toBe("2026-11-22");
    const a = characterOfDay(new Date("2026-11-22T01:00:00Z"));
    const b = characterOfDay(new Date("2026-11-23T01:00:00Z"));
    expect(b.character.index).toBe((a.character.index + 1) % 408);
  });

  it("unknown API paths are JSON 404s and API replies are private", async () => {
    const res = await request(app).get("/api/nothing");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    expect(res.headers["cache-control"]).toBe("private, no-store");
  });
});

describe("generated practice sheets", () => {
  it("draws a CJK character over a 米字格 grid", async () => {
    const res = await request(app).get("/media/glyph/6c38.svg");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/image\/svg\+xml/);
    expect(res.headers["cache-control"]).toContain("immutable");
    expect(Buffer.from(res.body as Buffer).toString("utf8")).toContain(">永</text>");
  });
  it("refuses anything that is not a CJK code point", async () => {
    for (const f of ["41.svg", "3c.svg", "0041.svg", "6c38.png", "zzzz.svg", "110000.svg"]) {
      expect((await request(app).get(`/media/glyph/${f}`)).status, f).toBe(404);
    }
  });
});

describe("/calmness", () => {
  it("renders the character of the day on the server through the API client", async () => {
    const today = characterOfDay(new Date());
    const res = await request(app).get("/calmness").set("User-Agent", BROWSER_UA);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`今日一字「${today.character.char}」`);
    expect(res.text).toContain(`<title>静心习字 - 墨池课堂</title>`);
  });
});
