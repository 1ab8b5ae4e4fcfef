import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, weakSecret } from "./config";

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
  it("takes a blank DEPLOY_ENV (a line left empty in .env) as unset: production stays pro, with its checks", () => {
    expect(loadConfig({ NODE_ENV: "production", DEPLOY_ENV: "" }).deployEnv).toBe("pro");
    expect(() => loadConfig({ NODE_ENV: "production", DEPLOY_ENV: " ", TEST_FIXTURES: "1" })).toThrow(/TEST_FIXTURES/);
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

describe("same-site checks", () => {
  it("accept the request's own host outside pro when PUBLIC_ORIGIN is not set, never in pro", () => {
    expect(loadConfig({ NODE_ENV: "production", DEPLOY_ENV: "local" }).acceptRequestHost).toBe(true);
    expect(loadConfig({}).acceptRequestHost).toBe(true);
    expect(loadConfig({ PUBLIC_ORIGIN: "http://localhost:3000" }).acceptRequestHost).toBe(false);
    expect(loadConfig({ NODE_ENV: "production" }).acceptRequestHost).toBe(false);
  });
});

describe("production safety (pro)", () => {
  const pro = { NODE_ENV: "production" } as const;
  const strong = "f3a9c1e07b5d42e8a6c0d9b1e4f7a2c58d3e6b0a9f1c4e7d2b5a8c0f3e6d9b1a";

  it("creates demo data outside pro on the embedded database only, and in pro only with DEMO_DATA", () => {
    expect(loadConfig({}).demoData).toBe(true);
    expect(loadConfig({ NODE_ENV: "production", DEPLOY_ENV: "local" }).demoData).toBe(true);
    expect(loadConfig({ DATABASE_URL: "postgres://db/x" }).demoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: "postgres://db/x", DEMO_DATA: "1" }).demoData).toBe(true);
    expect(loadConfig(pro).demoData).toBe(false);
    expect(loadConfig({ ...pro, DEMO_DATA: "1" }).demoData).toBe(true);
  });

  it("keeps the sandbox the default outside pro; in pro it needs PAYMENT_SANDBOX_ALLOW, else buying is off", () => {
    expect(loadConfig({}).payments.provider).toBe("sandbox");
    expect(loadConfig({ NODE_ENV: "production", DEPLOY_ENV: "test" }).payments.provider).toBe("sandbox");
    expect(loadConfig(pro).payments.provider).toBe("none");
    expect(loadConfig({ ...pro, PAYMENT_PROVIDER: "" }).payments.provider).toBe("none");
    expect(loadConfig({ ...pro, PAYMENT_SANDBOX_ALLOW: "1" }).payments.provider).toBe("sandbox");
    expect(loadConfig({ ...pro, PAYMENT_PROVIDER: "sandbox", PAYMENT_SANDBOX_ALLOW: "1" }).payments.provider).toBe(
      "sandbox",
    );
    expect(() => loadConfig({ ...pro, PAYMENT_PROVIDER: "sandbox" })).toThrow(
      /PAYMENT_PROVIDER=sandbox.*PAYMENT_SANDBOX_ALLOW=1/,
    );
  });

  it("refuses weak or well-known sandbox secrets in pro, with a one-line ConfigError", () => {
    const weak = [
      "a".repeat(40),
      "changeme-changeme-changeme-changeme",
      "my-payment-sandbox-secret-0123456789",
      "0123456789abcdef0123456789abcdef",
    ];
    for (const secret of weak) {
      let error: unknown;
      try {
        loadConfig({ ...pro, PAYMENT_SANDBOX_ALLOW: "1", PAYMENT_SANDBOX_SECRET: secret });
      } catch (err) {
        error = err;
      }
      expect(error, secret).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/PAYMENT_SANDBOX_SECRET/);
      expect((error as Error).message).not.toContain("\n");
      expect((error as Error).message).not.toContain(secret);
    }
    expect(() => loadConfig({ ...pro, PAYMENT_SANDBOX_SECRET: "short" })).toThrow(/PAYMENT_SANDBOX_SECRET/);
    expect(
      loadConfig({ ...pro, PAYMENT_SANDBOX_ALLOW: "1", PAYMENT_SANDBOX_SECRET: strong }).payments.sandboxSecret,
    ).toBe(strong);
    // Outside pro a test secret stays allowed.
    expect(loadConfig({ PAYMENT_SANDBOX_SECRET: "a".repeat(40) }).payments.sandboxSecret).toBe("a".repeat(40));
    expect(weakSecret(strong)).toBe(false);
  });

  it("wants an https PUBLIC_ORIGIN in pro (http for localhost only); unset keeps the documented default", () => {
    expect(() => loadConfig({ ...pro, PUBLIC_ORIGIN: "http://www.example.cn" })).toThrow(/PUBLIC_ORIGIN must be https/);
    expect(() => loadConfig({ ...pro, PUBLIC_ORIGIN: "http://10.0.0.5:3000" })).toThrow(ConfigError);
    expect(loadConfig({ ...pro, PUBLIC_ORIGIN: "https://www.example.cn/" }).publicOrigin).toBe(
      "https://www.example.cn",
    );
    expect(loadConfig({ ...pro, PUBLIC_ORIGIN: "http://localhost:8080" }).publicOrigin).toBe("http://localhost:8080");
    expect(loadConfig({ ...pro, PUBLIC_ORIGIN: "http://127.0.0.1:8080" }).publicOrigin).toBe("http://127.0.0.1:8080");
    expect(loadConfig(pro).publicOrigin).toBe("http://localhost:3000");
    expect(loadConfig({ PUBLIC_ORIGIN: "http://www.example.cn" }).publicOrigin).toBe("http://www.example.cn");
  });

  it("still refuses TEST_FIXTURES in pro as a ConfigError", () => {
    expect(() => loadConfig({ ...pro, TEST_FIXTURES: "1" })).toThrow(ConfigError);
  });
});
