import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { apiErrorHandler, jsonBody, type RawBodyRequest } from "./http";

function app() {
  const a = express();
  a.use(jsonBody());
  a.post("/payments/notify/alipay", express.urlencoded({ extended: false }), (req, res) => {
    res.json({ form: req.body });
  });
  a.post("/payments/notify/wechat", (req, res) => {
    res.json({ raw: (req as RawBodyRequest).rawBody?.toString("utf8") ?? null });
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
});
