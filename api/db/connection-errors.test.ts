import net from "node:net";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { isConnectionError } from "./connection-errors";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("connection errors", () => {
  it("a refused, reset or timed-out socket, a server shutting down or full, and pg's own words", () => {
    for (const code of [
      "ECONNREFUSED",
      "ECONNRESET",
      "ETIMEDOUT",
      "ENOTFOUND",
      "57P01",
      "57P03",
      "08006",
      "08001",
      "53300",
    ])
      expect(isConnectionError(withCode(code)), code).toBe(true);
    expect(isConnectionError(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isConnectionError(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionError(new AggregateError([withCode("ECONNREFUSED")]))).toBe(true);
    expect(isConnectionError(new Error("wrapped", { cause: withCode("57P01") }))).toBe(true);
  });

  it("not a query that failed on its own", () => {
    for (const code of ["23505", "42P01", "40001", "57014", "22P02"])
      expect(isConnectionError(withCode(code)), code).toBe(false);
    expect(isConnectionError(new Error("boom"))).toBe(false);
    expect(isConnectionError(null)).toBe(false);
    expect(isConnectionError("ECONNREFUSED")).toBe(false);
  });

  it("what node-postgres really throws against a closed port", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const pool = new pg.Pool({ connectionString: `postgres://x@127.0.0.1:${closed}/x`, connectionTimeoutMillis: 500 });
    const err = await pool.query("select 1").catch((e: unknown) => e);
    await pool.end();
    expect(isConnectionError(err)).toBe(true);
  });
});
