import { Writable } from "node:stream";
import express from "express";
import { pinoHttp } from "pino-http";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createLogger, redactUrl, serializeRequest, serializeResponse } from "./logger";

describe("logging", () => {
  it("redacts secret-looking query values", () => {
    expect(redactUrl("/m/qr?ticket=abc&x=1")).toBe("/m/qr?ticket=%5Bredacted%5D&x=1");
    expect(redactUrl("/login?code=123456&phone=13800138000")).not.toMatch(/123456|13800138000/);
    expect(redactUrl("/books")).toBe("/books");
    // Staff search people by phone or e-mail; the public search keeps its words.
    expect(redactUrl("/api/admin/orders?q=13800138000&page=2")).toBe("/api/admin/orders?q=%5Bredacted%5D&page=2");
    expect(redactUrl("/admin/users?q=a%40b.cn")).not.toMatch(/a%40b/);
    expect(redactUrl("/search?q=%E6%A5%B7")).toBe("/search?q=%E6%A5%B7");
  });

  it("never writes cookies, authorization or codes to the log", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const logger = createLogger("info", sink);
    const app = express();
    app.use(pinoHttp({ logger, serializers: { req: serializeRequest, res: serializeResponse } }));
    app.get("/x", (req, res) => {
      req.log.info({ code: "654321", password: "hunter2" }, "attempt");
      res.send("ok");
    });
    await request(app)
      .get("/x?code=987654")
      .set("Cookie", "sid=secret-session-id")
      .set("Authorization", "Bearer secret-token");
    const all = lines.join("\n");
    expect(all).toContain('"url":"/x?code=%5Bredacted%5D"');
    for (const secret of ["secret-session-id", "secret-token", "987654", "654321", "hunter2"]) {
      expect(all).not.toContain(secret);
    }
  });
});
