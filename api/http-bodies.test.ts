import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { apiErrorHandler, jsonBody, type RawBodyRequest, rawUpload } from "./http";

function app() {
  const a = express();
  a.use(jsonBody());
  a.post("/payments/notify/alipay", express.urlencoded({ extended: false }), (req, res) => {
    res.json({ form: req.body });
  });
  a.post("/payments/notify/wechat", (req, res) => {
    res.json({ raw: (req as RawBodyRequest).rawBody?.toString("utf8") ?? null });
  });
  a.post("/me/avatar", rawUpload("image", 1024), (req, res) => {
    res.json({ read: Buffer.isBuffer(req.body) ? req.body.length : null });
  });
  a.post("/admin/lessons/7/video", (req, res) => {
    res.json({ type: req.headers["content-type"] ?? null });
  });
  a.post("/orders", (_req, res) => {
    res.json({ ok: true });
  });
  a.use(apiErrorHandler);
  return a;
}

describe("request bodies", () => {
  it("lets the Alipay notification through as a form, and only that route", async () => {
    const res = await request(app()).post("/payments/notify/alipay").type("form").send("out_trade_no=M1&sign=abc");
    expect(res.status).toBe(200);
    expect(res.body.form).toEqual({ out_trade_no: "M1", sign: "abc" });
    const elsewhere = await request(app()).post("/orders").type("form").send("a=1");
    expect(elsewhere.status).toBe(415);
  });

  it("keeps the exact bytes of a JSON body for signatures over them", async () => {
    const raw = '{ "id" : "EV-1",\n  "resource": {"ciphertext": "x"} }';
    const res = await request(app()).post("/payments/notify/wechat").type("json").send(raw);
    expect(res.status).toBe(200);
    expect(res.body.raw).toBe(raw);
  });

  it("lets an upload route read a body of its kind, of no particular type or of none; not text or forms", async () => {
    const body = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
    for (const type of ["image/jpeg", "image/heic", "application/octet-stream", undefined]) {
      const sent = request(app()).post("/me/avatar");
      const res = await (type ? sent.set("Content-Type", type) : sent).send(body);
      expect(res.status, String(type)).toBe(200);
      expect(res.body.read, String(type)).toBe(4);
    }
    for (const type of ["text/plain", "text/html", "application/x-www-form-urlencoded", "video/mp4"]) {
      const res = await request(app()).post("/me/avatar").set("Content-Type", type).send(body);
      expect(res.status, type).toBe(415);
    }
    for (const type of ["video/mp4", "video/x-matroska", "application/octet-stream", undefined]) {
      const sent = request(app()).post("/admin/lessons/7/video");
      expect((await (type ? sent.set("Content-Type", type) : sent).send(body)).status, String(type)).toBe(200);
    }
    expect(
      (await request(app()).post("/admin/lessons/7/video").set("Content-Type", "text/plain").send(body)).status,
    ).toBe(415);
    expect(
      (await request(app()).post("/admin/lessons/7/video").set("Content-Type", "image/jpeg").send(body)).status,
    ).toBe(415);
    // Elsewhere, bytes are no JSON.
    expect(
      (await request(app()).post("/orders").set("Content-Type", "application/octet-stream").send(body)).status,
    ).toBe(415);
    expect((await request(app()).post("/orders").send(body)).status).toBe(415);
  });
});
