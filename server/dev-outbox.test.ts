import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { DevOutbox } from "../api/providers/messages";
import { devOutboxHandler, outboxAllowed } from "./dev-outbox";

async function outboxWith(...messages: Array<{ to: string; text: string; channel?: "sms" | "email" }>) {
  const outbox = new DevOutbox(null);
  let n = 0;
  for (const m of messages) {
    n += 1;
    await outbox.send({
      id: String(n),
      channel: m.channel ?? "sms",
      to: m.to,
      text: m.text,
      purpose: "login",
      createdAt: new Date(Date.UTC(2026, 10, 22, 3, n)).toISOString(),
    });
  }
  return outbox;
}

describe("/dev/outbox", () => {
  it("lists messages newest first, escaped", async () => {
    const outbox = await outboxWith(
      { to: "13800000001", text: "验证码 111111" },
      { to: "a@example.com", text: "<script>alert(1)</script>", channel: "email" },
    );
    const app = express().get("/dev/outbox", devOutboxHandler(outbox));
    const res = await request(app).get("/dev/outbox");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.text).not.toContain("<script>alert");
    expect(res.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(res.text.indexOf("a@example.com")).toBeLessThan(res.text.indexOf("13800000001"));
  });

  it("keeps one address with ?to=", async () => {
    const outbox = await outboxWith(
      { to: "13800000001", text: "验证码 111111" },
      { to: "13800000002", text: "验证码 222222" },
    );
    const app = express().get("/dev/outbox", devOutboxHandler(outbox));
    const res = await request(app).get("/dev/outbox?to=13800000002");
    expect(res.text).toContain("222222");
    expect(res.text).not.toContain("111111");
  });

  it("is a 404 without an outbox, and never allowed in the pro environment", async () => {
    const app = express().get("/dev/outbox", devOutboxHandler(null));
    expect((await request(app).get("/dev/outbox")).status).toBe(404);
    expect(outboxAllowed({ production: false, deployEnv: "dev" })).toBe(true);
    expect(outboxAllowed({ production: true, deployEnv: "test" })).toBe(true);
    expect(outboxAllowed({ production: true, deployEnv: "local" })).toBe(true);
    expect(outboxAllowed({ production: true, deployEnv: "pro" })).toBe(false);
    expect(outboxAllowed({ production: false, deployEnv: "pro" })).toBe(false);
    expect(outboxAllowed({ production: true, deployEnv: "staging" })).toBe(false);
  });
});
