import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.server";

describe("configuration", () => {
  it("has working embedded defaults", () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.deployEnv).toBe("dev");
    expect(c.publicOrigin).toBe("http://localhost:3000");
    expect(c.apiOrigin).toBeUndefined();
  });
  it("production defaults to the pro environment and refuses test fixtures there", () => {
    expect(loadConfig({ NODE_ENV: "production" }).deployEnv).toBe("pro");
    expect(() => loadConfig({ NODE_ENV: "production", TEST_FIXTURES: "1" })).toThrow(/TEST_FIXTURES/);
    expect(loadConfig({ NODE_ENV: "production", DEPLOY_ENV: "test", TEST_FIXTURES: "1" }).testFixtures).toBe(true);
  });
  it("rejects invalid values with the variable's name", () => {
    expect(() => loadConfig({ PORT: "http" })).toThrow(/PORT/);
    expect(() => loadConfig({ API_ORIGIN: "ftp://x" })).toThrow(/API_ORIGIN/);
    expect(loadConfig({ API_ORIGIN: "http://api.internal:8080/" }).apiOrigin).toBe("http://api.internal:8080");
  });
  it("keeps /metrics private: no token and no listener by default, a listener on loopback, a token of 16+ characters", () => {
    expect(loadConfig({}).metrics).toEqual({ port: undefined, host: "127.0.0.1", token: undefined });
    expect(loadConfig({ METRICS_PORT: "9464", METRICS_TOKEN: "0123456789abcdef" }).metrics).toEqual({
      port: 9464,
      host: "127.0.0.1",
      token: "0123456789abcdef",
    });
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_PORT: "http" })).toThrow(/METRICS_PORT/);
  });
});
